"""The chase's own legal actions are kept from one answer to the next while the chase's inputs
stand (application/affordances.py), but for undo, rewind and redo, whose guards read what every
command moves: a command that changes nothing else of the chase (a dice roll, or the undo of one)
still changes what they answer, and the answer says so, as the guards asked afresh do."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from domain.affordances import Judges
from tests.e2e.affordance_checks import actions_of, allowed


def _afresh(ledger: Any, chase_id: str) -> dict[str, Any]:
    """The chase's actions as the system's guards answer them of the chase folded afresh."""
    chase = ledger.repository.get(UUID(chase_id), projector_func=ledger.runner.projector)
    judges = ledger.affordances.by_system[chase.SYSTEM]
    assert isinstance(judges, Judges)
    return judges(chase)["chase"]


def _as_answered(view: dict[str, Any]) -> dict[str, Any]:
    return {name: None if a["allowed"] else (a["why"], a["rule"]) for name, a in actions_of(view).items()}


def _same(view: dict[str, Any], afresh: dict[str, Any]) -> None:
    """Every action the answer lists (those the API has a route for) is the guards' answer afresh."""
    answered = _as_answered(view)
    assert answered == {name: afresh[name] for name in answered}


def test_undo_rewind_and_redo_follow_commands_that_change_nothing_else(keeper, ledger):
    # Given a chase just created, with nothing to undo or rewind (its actions worked out once),
    created = keeper.create()
    assert {"undo", "rewind", "redo"}.isdisjoint(allowed(created))
    _same(created, _afresh(ledger, keeper.chase_id))
    # when a dice roll is made (the chase's fields and participants stay as they were),
    rolled = keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}))["chase"]
    # then it may be undone and rewound, as the guards answer afresh;
    assert {"undo", "rewind"} <= allowed(rolled) and "redo" not in allowed(rolled)
    _same(rolled, _afresh(ledger, keeper.chase_id))
    # and once it is undone, redone and another roll made, each answer is the guards' afresh.
    for path, body in (("/undo", {}), ("/redo", {}), ("/dice-rolls", {"expression": "1D6", "table_dice": [5]})):
        _same(keeper.ok(keeper.post(path, body))["chase"], _afresh(ledger, keeper.chase_id))
