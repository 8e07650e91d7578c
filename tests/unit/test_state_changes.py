"""The changes an undo stores (domain/state_changes.py): applied to the state they were taken
from, they give the state restored exactly, in its order; and they are small when little changed."""
from __future__ import annotations

import json

from domain.state_changes import MISSING, apply_change, changes_between


def restored(now: dict, then: dict) -> dict:
    """``now`` changed by the changes to ``then``, through JSON as the store keeps them."""
    changes = json.loads(json.dumps(changes_between(now, then)))
    value = apply_change(now, {"entries": changes})
    assert value is not MISSING
    return value


def test_changes_restore_the_earlier_state_exactly_and_leave_the_state_now_as_it_was():
    # A chase of a hundred runners: one moved and one joined since; the round went on; the turn
    # order grew; a note went away.
    then = {"round": 2, "runners": {f"r{n}": {"location": n, "wounds": []} for n in range(100)}, "order": ["r1", "r2"], "note": "fog"}
    now = json.loads(json.dumps(then))
    now["round"] = 3
    now["runners"]["r5"]["location"] = 9
    now["runners"]["late"] = {"location": 0, "wounds": []}
    now["order"].append("late")
    del now["note"]
    kept = json.loads(json.dumps(now))

    assert restored(now, then) == then and list(restored(now, then)["runners"]) == list(then["runners"])
    assert now == kept  # applying never changed the state it started from
    # Only what changed is stored: a few dozen bytes, not the hundred runners.
    assert len(json.dumps(changes_between(now, then))) < 200 < len(json.dumps(then))


def test_an_entry_coming_back_in_the_middle_sets_the_dict_whole_to_keep_its_order():
    now = {"runners": {"a": 1, "c": 3}}
    then = {"runners": {"a": 1, "b": 2, "c": 3}}
    assert changes_between(now, then) == {"runners": {"set": {"a": 1, "b": 2, "c": 3}}}
    assert list(restored(now, then)["runners"]) == ["a", "b", "c"]


def test_a_list_keeps_its_common_start_and_a_value_of_another_type_is_set_whole():
    assert changes_between({"order": [1, 2, 3, 4]}, {"order": [1, 2, 5]}) == {"order": {"keep": 2, "then": [5]}}
    assert changes_between({"flag": 1}, {"flag": True}) == {"flag": {"set": True}}
    assert changes_between({"same": [1]}, {"same": [1]}) == {}
