"""A chase's digest (application/chase_digest.py) is stepped from the one before by what the
events say they changed; the chase's fields' bytes are kept when the events say they changed
none. Whatever is kept must be what the chase holds, or what is worked out from it goes stale.
"""
from __future__ import annotations

from typing import Any, Callable

from application.chase_digest import Digest, digest
from domain.dice import TableDice
from domain.rules.coc7e import chase_events
from tests.application.record.from_scratch import digest_holds
from tests.unit.chase_log import ChaseLog


def stepped(log: ChaseLog, command: Callable[[Any], Any]) -> Digest:
    """The digest of the chase after ``command``, stepped from the digest of the state before."""
    digest(log.chase)
    command(log.chase)
    now = digest(log.chase)
    log.collect()
    assert now.base is not None, "taken whole, not stepped"
    return now


def roll(chase: Any) -> Any:
    return chase.roll_dice(TableDice([4]), "1D6", None, "test")


def test_a_dice_roll_after_an_undo_empties_the_redo_stack_and_the_digest_says_so():
    # Given a running chase whose last roll was undone (the Keeper could redo it)
    log = ChaseLog("table")
    log.running()
    log.roll(table=[3])
    log.undo()
    assert log.chase.redo_stack

    # When the Keeper rolls again: nothing is left to redo
    now = stepped(log, roll)

    # Then the digest kept is the chase as it is, its redo stack emptied
    assert not log.chase.redo_stack
    assert digest_holds(now, log.chase)
    assert now.fields == Digest.of(log.chase).fields


def test_an_event_that_changes_a_chase_field_it_does_not_declare_fails_the_check(monkeypatch):
    # Given a dice roll that (wrongly) also moves the chase to another round, yet says it changes no field
    applied = chase_events.DiceRolled.apply

    def apply_and_move_on(self: Any, chase: Any) -> None:
        applied(self, chase)
        chase.round += 1

    monkeypatch.setattr(chase_events.DiceRolled, "apply", apply_and_move_on)
    log = ChaseLog("table")
    log.running()

    # When the digest is stepped over it, the kept bytes are not what the chase holds: the check says so
    assert not digest_holds(stepped(log, roll), log.chase)

    # And once the event declares the field it changes, the fields are read again and the digest holds
    monkeypatch.setattr(chase_events.DiceRolled, "chase_fields_changed", lambda self: ("round",))
    assert digest_holds(stepped(log, roll), log.chase)
