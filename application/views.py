"""What the write path and the projector share: folding a chase, what to write for it, and the
errors that set a chase aside or do not.

The command's own write (application/read_side.py): its chase's views, rendered from the
aggregate it saves and written in the transaction that records its events, as a compare-and-set
on the chase's view version, so that two writers (another process's command, the projector)
never apply an event twice nor move a chase's views backwards (DESIGN.md section 7). A chase
whose views cannot be written or rendered is set aside (application/projector.py); its events
are recorded all the same, and reads render its views from them (read-your-writes).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError

from application.ports import PositionMoved
from application.projections import Facts, no_facts
from application.projections.rolls import apply_marks, roll_marks, roll_row

# Errors that say the store is away or busy, not that this chase's rows are unwritable: they
# propagate (the caller retries) instead of setting the chase aside.
TRANSIENT = (OperationalError, InterfaceError, PositionMoved)
CATCH_UP_TRIES = 5  # compare-and-set rounds a command's view write tries before leaving it to the projector


class ViewsUnavailable(Exception):
    """The chase's views cannot be rendered now: it is set aside for the operator.

    ``recorded`` is the version a command had already recorded when its views failed: the client
    must not send the command again (it would be recorded twice), only read again later.
    """

    def __init__(self, chase_id: str, error: str, recorded: int | None = None) -> None:
        done = f"the command was recorded (version {recorded}), do not send it again; " if recorded else ""
        super().__init__(f"{done}the views of chase {chase_id} cannot be rendered ({error}); the chase is set aside "
                         "for the operator (GET /admin/projection-errors), its events are kept")
        self.chase_id = chase_id
        self.recorded = recorded


def project_chase(chase: Any, events: Iterable[Any]) -> Any:
    """Fold events into a chase; eventsourcing's default checks a runtime Protocol per event,
    which took half the time of loading a chase (bench/commands.py profile)."""
    for event in events:
        chase = event.mutate(chase)
    return chase


def fold(events: Iterable[Any], state: Any = None) -> tuple[Any, list[dict[str, Any]]]:
    """A chase's state and roll history after ``events`` (time travel uses this too)."""
    rows: list[dict[str, Any]] = []
    for event in events:
        state = event.mutate(state)
        row = roll_row(event)
        if row:
            rows.append(row)
        apply_marks(rows, roll_marks(event))
    return state, rows


def chase_update(
    chase_id: str, expected: int, state: Any, events: Iterable[Any], doc: dict[str, Any], facts: Facts = no_facts,
) -> dict[str, Any]:
    """What to write for a chase whose views are at ``expected`` and whose ``events`` led to
    ``state``, whose views are ``doc`` (by name); ``facts``: each event's analytics facts, whose
    rows the undo marks mark too."""
    rolls: list[dict[str, Any]] = []
    marks: list[dict[str, Any]] = []
    found: list[dict[str, Any]] = []
    for event in events:
        row = roll_row(event)
        if row:
            rolls.append(row)
        marks += roll_marks(event)
        found += facts(event)
    return {"chase_id": chase_id, "expected": expected, "version": state.version,
            "doc": doc, "rolls": rolls, "marks": marks, "facts": found}
