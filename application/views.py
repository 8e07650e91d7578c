"""The read side of the write path: a command's views, rendered from the aggregate it just saved.

After a successful save, ``ChaseReadSide.after_save`` renders the chase's views from the
in-memory aggregate (no event is read back or folded again) and writes them for that chase
only, as a compare-and-set on the chase's view version: written only if the stored views are
at the version just before the new events. So a command never reads, folds or waits on another
chase's events, and two writers (another process's command, the projector) never apply an
event twice nor move a chase's views backwards (DESIGN.md section 7). When the views were
further behind (a process died between its save and its view write, or a rebuild is under
way), the chase's own missing events are read from its stream and their roll rows written too.

A chase whose views cannot be written (the store refuses a row, a renderer raises) is set
aside (application/projector.py) and every other chase goes on. Its views are then rendered
from the aggregate on each read, so a GET after a 2xx still shows the command's effect
(read-your-writes); only when rendering itself fails does a read answer ViewsUnavailable.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Iterable
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError

from application.ports import ChaseViews, PositionMoved
from application.projections import render_all
from application.projections.rolls import apply_marks, roll_marks, roll_row

log = logging.getLogger(__name__)

# Errors that say the store is away or busy, not that this chase's rows are unwritable: they
# propagate (the caller retries) instead of setting the chase aside.
TRANSIENT = (OperationalError, InterfaceError, PositionMoved)
CATCH_UP_TRIES = 5  # compare-and-set rounds a command's view write tries before leaving it to the projector


class ViewsUnavailable(Exception):
    """The chase's views cannot be rendered now: it is set aside for the operator."""

    def __init__(self, chase_id: str, error: str) -> None:
        super().__init__(f"the views of chase {chase_id} cannot be rendered ({error}); the chase is set aside "
                         "for the operator (GET /admin/projection-errors), its events are kept")
        self.chase_id = chase_id


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


def chase_update(chase_id: str, expected: int, state: Any, events: Iterable[Any], doc: dict[str, Any] | None = None) -> dict[str, Any]:
    """What to write for a chase whose views are at ``expected`` and whose ``events`` led to ``state``."""
    rolls: list[dict[str, Any]] = []
    marks: list[dict[str, Any]] = []
    for event in events:
        row = roll_row(event)
        if row:
            rolls.append(row)
        marks += roll_marks(event)
    return {"chase_id": chase_id, "expected": expected, "version": state.version,
            "doc": render_all(state) if doc is None else doc, "rolls": rolls, "marks": marks}


class ChaseReadSide:
    """The chase's views after a command, and the views and roll history a query reads.

    ``app`` is the event-sourced application (its ``events`` and ``repository``); ``set_aside``
    records a chase that cannot be projected (the projector's ``set_aside``).
    """

    def __init__(self, app: Any, views: ChaseViews, set_aside: Callable[[str, int, int | None, BaseException], None]) -> None:
        self.app = app
        self.views = views
        self.set_aside = set_aside

    def after_save(self, chase: Any, recordings: list[Any]) -> dict[str, dict[str, Any]]:
        """The chase's views by name, rendered from the aggregate just saved and written."""
        chase_id = str(chase.id)
        mine = [r for r in recordings if r.domain_event.originator_id == chase.id]
        first = mine[0].domain_event.originator_version if mine else chase.version
        notification_id = mine[0].notification.id if mine else None
        try:
            doc = render_all(chase)
        except Exception as e:  # noqa: BLE001 - a renderer's defect must not stop the other chases
            self.set_aside(chase_id, first, notification_id, e)
            raise ViewsUnavailable(chase_id, repr(e)) from e
        try:
            update = chase_update(chase_id, first - 1, chase, [r.domain_event for r in mine], doc)
            if self.views.write_views([update]):  # the views were not where this save left them
                self._catch_up(chase, doc)
        except TRANSIENT:
            raise
        except Exception as e:  # noqa: BLE001 - the store refused this chase's rows: set it aside
            self.set_aside(chase_id, first, notification_id, e)
        return doc

    def _catch_up(self, chase: Any, doc: dict[str, Any]) -> None:
        """Write the views of a chase whose stored views are not at the version before the
        events just saved: behind (fill in from its own stream) or ahead (nothing to do)."""
        chase_id = str(chase.id)
        for _ in range(CATCH_UP_TRIES):
            stored = self.views.view_versions([chase_id]).get(chase_id, 0)
            if stored >= chase.version or self.views.set_aside_chases([chase_id]):
                return  # newer views written by another writer; or set aside: its events wait
            missing = list(self.app.events.get(chase.id, gt=stored, lte=chase.version))
            if not self.views.write_views([chase_update(chase_id, stored, chase, missing, doc)]):
                return
        log.info("views of chase %s still moving after %d tries: left to the projector", chase_id, CATCH_UP_TRIES)

    def views_of(self, chase_id: str, name: str | None = None) -> dict[str, Any] | None:
        """The chase's views by name (or the one named); None when there is no such chase."""
        row = self.views.read_views(chase_id, name)
        if row is not None and not row["set_aside"]:
            return row["doc"]
        # Set aside, or never written (its process died between save and view write): render
        # from the aggregate, so that what a command answered stays what a GET shows.
        state = self._state(chase_id)
        if state is None:
            return None
        try:
            doc = render_all(state)
        except Exception as e:  # noqa: BLE001
            raise ViewsUnavailable(chase_id, repr(e)) from e
        return doc[name] if name else doc

    def rolls_of(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The chase's roll history, filtered (participant_id, purpose, round, source, undone)."""
        row = self.views.read_views(chase_id, "track")
        if row is not None and not row["set_aside"]:
            return self.views.roll_history(chase_id, filters)
        try:
            events = list(self.app.events.get(UUID(chase_id)))
        except ValueError:
            return None
        if not events:
            return None
        _, rows = fold(events)
        return [r for r in rows if all(r.get(k) == (bool(v) if k == "undone" else v) for k, v in filters.items())]

    def _state(self, chase_id: str) -> Any:
        try:
            events = self.app.recorder.select_events(UUID(chase_id), limit=1)
        except ValueError:
            return None
        return self.app.repository.get(UUID(chase_id), projector_func=project_chase) if events else None
