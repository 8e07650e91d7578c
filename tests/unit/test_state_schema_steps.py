"""An undo stored by an older state schema, replayed by the code of a newer one.

Undo, rewind and redo store the changes from the state before them (domain/state_changes.py),
and those changes are applied to the state as today's code holds it. A state schema step that
renames a key must say how the stored changes are renamed too (a ``StateStep``,
domain/state_schema.py); a step that adds keys only changes them not (``same_changes``).
Measured before: an undo whose change of a renamed key was ``entries`` stopped the chase from
loading with ``TypeError: 'object' object is not iterable``.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from domain.errors import HistoryRefused
from domain.rules.coc7e.chase import Chase
from domain.state_schema import Changes, StateStep, renamed_in_changes, same_changes
from tests.unit.chase_log import ChaseLog
from tests.unit.test_history_schema import persisted_aggregates


def participants_renamed_cast(state: dict[str, Any]) -> None:
    if "participants" in state:
        state["cast"] = state.pop("participants")


def cast_in_changes(changes: Changes) -> None:
    renamed_in_changes(changes, "participants", "cast")


def weather_added(state: dict[str, Any]) -> None:
    state.setdefault("weather", "clear")


@contextmanager
def next_schema(state: Callable[[dict[str, Any]], None], changes: Callable[[Changes], None]) -> Iterator[int]:
    """The coc7e chase as the next version of the code might store it; yields today's schema."""
    today = Chase.class_version
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Chase, "class_version", today + 1)
        patch.setattr(Chase, f"upcast_v{today}_v{today + 1}", StateStep(state=state, changes=changes), raising=False)
        yield today


def undone_move() -> tuple[ChaseLog, Chase, Any]:
    """A chase where Harvey moved and the Keeper undid it: the chase just before the undo, and the undo."""
    log = ChaseLog("table")
    harvey, _ = log.running()
    log.do(lambda c: c.move(harvey, 1))
    before = log.at(len(log.events))
    log.undo()
    undone = log.events[-1]
    assert "entries" in undone.changes["participants"] and "keep" in undone.changes["effective_actions"]
    return log, before, undone


def test_an_older_undo_of_a_renamed_key_is_replayed_on_the_renamed_key():
    # Step 1: with today's code, Harvey moves and the Keeper undoes it; the undo stores the
    # participants' changes entry by entry.
    log, before, undone = undone_move()

    with next_schema(participants_renamed_cast, cast_in_changes):
        # Step 2: the next schema's code holds the participants as ``cast``.
        participants_renamed_cast(vars(before))
        # Step 3: it replays the undo stored by today's: Harvey is back where he was, under ``cast``.
        undone.apply(before)
    assert before.cast == log.chase.participants
    assert "participants" not in vars(before)
    assert before.effective_actions == log.chase.effective_actions


def test_a_step_that_forgets_its_changes_is_refused_naming_the_undo():
    # Step 1: the same undo, stored by today's code.
    _, before, undone = undone_move()

    # Step 2: a next schema that renames the participants but declares its changes the same;
    with next_schema(participants_renamed_cast, same_changes):
        participants_renamed_cast(vars(before))
        # then replaying the undo is refused, naming it and the key, not a TypeError.
        with pytest.raises(HistoryRefused, match=rf"Undone at version {undone.originator_version}.*'participants'"):
            undone.apply(before)


def test_an_older_undo_is_replayed_on_a_schema_that_added_a_key():
    # Step 1: the same undo, stored by today's code.
    log, before, undone = undone_move()

    # Step 2: the next schema adds the weather; its changes are the same.
    with next_schema(weather_added, same_changes):
        before.weather = "rain"
        undone.apply(before)
    # Step 3: Harvey is back where he was; the state restored knew no weather: the default, as a
    # snapshot of that schema loads.
    assert before.participants == log.chase.participants and before.track == log.chase.track
    assert before.weather == "clear"


def test_every_state_schema_step_says_how_stored_changes_are_upcast():
    # A plain function as a state step would upcast snapshots and forget the undos stored.
    for aggregate in persisted_aggregates():
        for version in range(1, aggregate.class_version):
            step = getattr(aggregate, f"upcast_v{version}_v{version + 1}")
            assert isinstance(step, StateStep), f"{aggregate.__name__}.upcast_v{version}_v{version + 1}"


def test_a_step_declared_as_a_plain_function_is_refused_when_an_older_undo_is_replayed():
    # Given the same undo, and a next schema whose step is a plain function (no changes said),
    _, before, undone = undone_move()
    today = Chase.class_version
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Chase, "class_version", today + 1)
        patch.setattr(Chase, f"upcast_v{today}_v{today + 1}", staticmethod(weather_added), raising=False)
        # then replaying the undo says the step must be a StateStep.
        with pytest.raises(TypeError, match="StateStep"):
            undone.apply(before)
