"""Undo, rewind and redo (DESIGN.md 5): each is a new event that restores the game state of an
earlier version, carried in the event as the changes from the state now (domain/state_changes.py);
the undone events stay in the log. ``earlier`` is the chase as at the version restored, loaded
by the application. Bound as RecordedChase's methods."""
from __future__ import annotations

import copy
from typing import Any, Protocol

from domain.errors import HistoryRefused
from domain.state_changes import MISSING, NoBase, apply_change, changes_between

MAX_UNDO = 1000


class RewindingChase(Protocol):
    """What undo, rewind and redo use of a chase (RecordedChase)."""

    id: Any
    version: int
    class_version: int
    effective_actions: list[int]
    redo_stack: list[dict[str, Any]]
    Undone: Any
    Rewound: Any
    Redone: Any

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...
    def game_state(self) -> dict[str, Any]: ...
    def game_fields(self) -> dict[str, Any]: ...
    def undo_target(self, count: int) -> int: ...
    def upcast_state(self, state: dict[str, Any], schema: int) -> dict[str, Any]: ...
    def upcast_changes(self, changes: dict[str, dict[str, Any]], schema: int) -> dict[str, dict[str, Any]]: ...
    def redo_target(self) -> int: ...


def undo_target(chase: RewindingChase, count: int) -> int:
    """The version whose state an undo of the last ``count`` actions restores."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_UNDO:
        raise HistoryRefused(f"count must be a whole number from 1 to {MAX_UNDO}", "count")
    if count > len(chase.effective_actions):
        raise HistoryRefused(f"there are {len(chase.effective_actions)} actions to undo, not {count}", "count")
    return chase.effective_actions[-count] - 1


def undo(chase: RewindingChase, count: int, earlier: Any, by: str, reason: str = "") -> None:
    """Undo the last ``count`` actions; ``earlier`` is this chase as at undo_target(count)."""
    target = chase.undo_target(count)
    check_earlier(chase, earlier, target)
    chase.trigger_event(
        chase.Undone,
        actions=chase.effective_actions[-count:],
        restored_version=target,
        changes=changes_to(chase, earlier),
        restored_schema=chase.class_version,
        by=by,
        reason=reason,
    )


def rewind(chase: RewindingChase, to_version: int, earlier: Any, by: str, reason: str = "") -> None:
    """Go back to the state as at ``to_version``; ``earlier`` is this chase as at it."""
    if isinstance(to_version, bool) or not isinstance(to_version, int) or not 1 <= to_version < chase.version:
        raise HistoryRefused(f"to_version must be an earlier version of this chase, from 1 to {chase.version - 1}", "to_version")
    check_earlier(chase, earlier, to_version)
    kept, now = set(earlier.effective_actions), set(chase.effective_actions)
    chase.trigger_event(
        chase.Rewound,
        to_version=to_version,
        actions=[a for a in chase.effective_actions if a not in kept],
        restored_actions=[a for a in earlier.effective_actions if a not in now],
        changes=changes_to(chase, earlier),
        restored_schema=chase.class_version,
        by=by,
        reason=reason,
    )


def redo_target(chase: RewindingChase) -> int:
    """The version whose state a redo restores: just before the last undo or rewind."""
    if not chase.redo_stack:
        raise HistoryRefused("there is nothing to redo: nothing was undone, or something new was recorded since")
    return chase.redo_stack[-1]["undo_version"] - 1


def redo(chase: RewindingChase, earlier: Any, by: str) -> None:
    """Make the last undone or rewound stretch count again; ``earlier`` is this chase as at redo_target()."""
    target = chase.redo_target()
    check_earlier(chase, earlier, target)
    entry = chase.redo_stack[-1]
    chase.trigger_event(
        chase.Redone,
        undo_version=entry["undo_version"],
        actions=entry["actions"],
        undone_again=entry.get("restored_actions", []),
        changes=changes_to(chase, earlier),
        restored_schema=chase.class_version,
        by=by,
    )


def changes_to(chase: RewindingChase, earlier: Any) -> dict[str, Any]:
    """What turns the chase's game state now into ``earlier``'s: what the event stores."""
    return changes_between(chase.game_fields(), earlier.game_fields())


def restore(chase: RewindingChase, changes: dict[str, dict[str, Any]], schema: int, event: str = "a stored undo") -> None:
    """Change the game state by stored ``changes`` (domain/state_changes.py) written in state
    schema ``schema`` by ``event`` (named in a refusal). Changes of an older schema are first
    upcast to today's (each schema step's ``changes``, domain/state_schema.py), since they are
    applied to the state as today's code holds it; the keys they change are then upcast as a
    part of a state, which gives a value they set the defaults of today's schema."""
    fields = vars(chase)
    if schema != chase.class_version:
        changes = chase.upcast_changes(copy.deepcopy(changes), schema)  # the event's own stay as stored
    changed: dict[str, Any] = {}
    for key, change in changes.items():
        try:
            changed[key] = apply_change(fields.get(key, MISSING), change)
        except NoBase as e:
            raise HistoryRefused(f"{event} cannot be replayed: its stored change to {key!r} (state schema {schema}) {e}") from e
    dropped = {key for key, value in changed.items() if value is MISSING}
    state = {key: value for key, value in changed.items() if value is not MISSING}
    if schema != chase.class_version:
        before = set(state)
        state = chase.upcast_state(state, schema)
        dropped |= before - set(state)
    for key in dropped - set(state):
        if key in fields:
            delattr(chase, key)
    for key, value in state.items():
        setattr(chase, key, value)


def check_earlier(chase: RewindingChase, earlier: Any, version: int) -> None:
    if earlier.id != chase.id or earlier.version != version:
        raise HistoryRefused(f"the earlier state given is not this chase at version {version}")
