"""Undo, rewind and redo over HTTP (issue 4, DESIGN.md section 5).

An undo is one new event; the chase (its track view) is as if the undone actions had not
happened: exactly the view as it was at the version before them (time travel). A redo restores
exactly the view as it was before the undo. The record's own bookkeeping legitimately differs:
see ``RECORD_FIELDS`` in tests/e2e/record_helpers.py for which fields and why.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from typing import Any
from uuid import UUID

import pytest

from application.systems.coc7e.track import render
from application.views import fold
from infrastructure.systems import odds_of
from tests.e2e.record_helpers import (
    FARMER,
    NEW_EVENT_FIELDS,
    as_stored,
    at,
    fields_named,
    game,
    live_parts_out,
    names_after,
    path,
    problem,
    redo,
    rewind,
    rolls_at,
    running,
    set_up,
    undo,
    without,
)

# -- undo and redo of each kind of event -------------------------------------------------------


def _added(keeper) -> None:
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)


def _speed_rolled(keeper) -> None:
    set_up(keeper)
    keeper.speed_roll("Harvey", [70, 2])


def _both_speed_rolled(keeper) -> None:
    _speed_rolled(keeper)
    keeper.speed_roll("Farmer", [80, 0])


def _harvey_moved(keeper) -> None:
    running(keeper)
    keeper.move("Harvey", 1)  # his one movement action: his turn ends, the farmer's begins


def _farmer_moved_once(keeper) -> None:
    _harvey_moved(keeper)
    keeper.move("Farmer", 1)  # one of the farmer's two movement actions


def _end(keeper) -> None:
    keeper.ok(keeper.post("/end", {"outcome": "abandoned", "note": "the farmer gives up"}))


CASES: dict[str, tuple[Callable[[Any], None], Callable[[Any], Any], list[str]]] = {
    # kind: (set the chase up to just before it, do it, the events it records)
    "participant added": (_added, lambda k: k.add(**FARMER), ["ParticipantAdded"]),
    "speed roll": (_speed_rolled, lambda k: k.speed_roll("Farmer", [80, 0]), ["SpeedRolled"]),
    "cut to the chase": (_both_speed_rolled, lambda k: k.cut(), ["ChaseEstablished", "RoundBegan"]),
    "move": (_harvey_moved, lambda k: k.move("Farmer", 1), ["Moved"]),
    "move that ends the turn": (running, lambda k: k.move("Harvey", 1), ["Moved", "TurnEnded"]),
    "move that ends the round": (
        _farmer_moved_once,
        lambda k: k.move("Farmer", 1),
        ["Moved", "TurnEnded", "RoundEnded", "RoundBegan"],
    ),
    "move that catches up": (
        lambda k: running(k, dict(FARMER, dex=60)),  # the farmer moves first and reaches Harvey at once
        lambda k: k.move("Farmer", 2),
        ["Moved", "CaughtUp", "TurnEnded"],
    ),
    "delay": (running, lambda k: k.ok(k.post(path(k, "Harvey", "delay"), {})), ["TurnDelayed"]),
    "end turn": (running, lambda k: k.end_turn("Harvey"), ["TurnEnded"]),
    "end turn that ends the round": (
        _harvey_moved,
        lambda k: k.end_turn("Farmer"),
        ["TurnEnded", "RoundEnded", "RoundBegan"],
    ),
    "skill roll": (
        running,
        lambda k: k.ok(k.post("/skill-rolls", {"skill": "Dodge", "target": 40, "participant_id": k.ids["Harvey"], "table_dice": [30, 5]})),
        ["SkillRolled"],
    ),
    "dice roll": (
        running,
        lambda k: k.ok(k.post("/dice-rolls", {"expression": "1D10+1D4+2", "purpose": "damage", "table_dice": [7, 3]})),
        ["DiceRolled"],
    ),
    "chase ended": (running, _end, ["ChaseEnded", "SeedRevealed"]),  # ending the chase reveals the seed
}
ROLLING = {"speed roll", "skill roll", "dice roll"}


@pytest.mark.parametrize("kind", list(CASES))
def test_undo_and_redo_of_each_kind_of_event_restore_the_exact_state(keeper, kind):
    prepare, act, recorded = CASES[kind]
    prepare(keeper)
    before = keeper.track()
    log_before = keeper.events()

    act(keeper)
    after = keeper.track()
    assert names_after(keeper, before["version"]) == recorded
    assert after["actions_counted"] == before["actions_counted"] + 1  # the events of one command are one action
    log_after = keeper.events()
    rolls_after = keeper.rolls()

    undone = undo(keeper)

    # The undone state is the state as it was before the action, both as time travel shows it
    # and as it was live, but for the record's own bookkeeping (RECORD_FIELDS).
    assert game(undone) == game(at(keeper, before["version"])) == game(before)
    assert undone["actions_counted"] == before["actions_counted"]
    assert undone["can_redo"] is True
    assert undone["rolls_made"] == after["rolls_made"]  # a roll's sequence number is never reused
    assert keeper.track() == undone
    # One new event (plus a fresh seed commitment when the chase's end, which revealed the seed, is undone).
    log = keeper.events()
    assert log[: len(log_after)] == log_after  # nothing deleted or edited
    assert [e["name"] for e in log[len(log_after):]] == (["Undone", "SeedCommitted"] if kind == "chase ended" else ["Undone"])
    undo_event = log[len(log_after)]
    assert undo_event["data"]["actions"] == [log_after[before["version"]]["data"]["action"]] == [before["version"] + 1]
    assert undo_event["data"]["restored_version"] == before["version"]
    assert undo_event["data"]["by"] == "keeper"
    # The undone roll stays in the roll history, marked undone, with who undid it and when.
    rolls = keeper.rolls()
    assert len(rolls) == len(rolls_after)
    if kind in ROLLING:
        last = rolls[-1]
        assert last["roll"] == rolls_after[-1]["roll"]
        assert last["undone"] is True and last["undone_by"] == "keeper"
        assert last["undone_at"] == undo_event["recorded_at"]
        assert keeper.rolls(undone="false") == rolls_after[:-1]
    else:
        assert rolls == rolls_after

    redone = redo(keeper)

    # Redo restores exactly the state before the undo: the same view but for the new event's
    # version and hash; when the chase's end is redone, the fresh seed (epoch 1) committed by
    # the undo is revealed in its turn, so the seed fields differ too.
    ignored = NEW_EVENT_FIELDS | ({"seed_commitment", "seed_epoch", "revealed_seeds"} if kind == "chase ended" else set())
    assert without(redone, ignored) == without(after, ignored)
    assert game(redone) == game(after)
    assert redone["can_redo"] is False
    assert keeper.rolls() == rolls_after  # the redone roll counts again, with its original dice
    assert keeper.events()[: len(log_after)] == log_after
    assert names_after(keeper, undone["version"])[0] == "Redone"
    # Nothing before the undo changed: time travel still shows the chase as it was then.
    assert live_parts_out(at(keeper, after["version"])) == live_parts_out(after)  # a past version offers no actions
    assert live_parts_out(at(keeper, before["version"])) == live_parts_out(before)
    assert keeper.events()[: len(log_before)] == log_before


def test_undoing_the_end_of_the_chase_commits_a_fresh_seed_and_redoing_it_reveals_that_one(keeper):
    running(keeper)
    ended = keeper.ok(keeper.post("/end", {"outcome": "caught"}))["chase"]
    assert ended["seed_commitment"] is None and [s["epoch"] for s in ended["revealed_seeds"]] == [0]

    undone = undo(keeper)

    assert undone["phase"] == "running"
    assert undone["seed_epoch"] == 1 and undone["seed_commitment"]
    assert [s["epoch"] for s in undone["revealed_seeds"]] == [0]  # a revealed seed stays revealed

    redone = redo(keeper)

    assert redone["phase"] == "ended" and redone["outcome"] == "caught"
    assert redone["seed_commitment"] is None
    assert [s["epoch"] for s in redone["revealed_seeds"]] == [0, 1]


def test_undo_of_several_actions_across_a_round_boundary_is_one_event(keeper):
    running(keeper)
    keeper.move("Harvey", 1)
    mid_round_one = keeper.track()
    keeper.move("Farmer", 2)  # ends round 1
    keeper.move("Harvey", 1)  # round 2
    chase = keeper.track()
    assert chase["round"] == 2
    version = chase["version"]

    undone = undo(keeper, 2, reason="wrong farmer")

    assert names_after(keeper, version) == ["Undone"]
    assert undone["round"] == 1
    assert undone["whose_turn"] == keeper.ids["Farmer"]
    assert game(undone) == game(mid_round_one) == game(at(keeper, mid_round_one["version"]))
    event = keeper.events()[-1]
    assert len(event["data"]["actions"]) == 2 and event["data"]["reason"] == "wrong farmer"

    # Undo again, then redo twice: the last undone is redone first.
    twice = undo(keeper, 1)
    assert game(twice) == game(at(keeper, mid_round_one["version"] - 2))  # before Harvey's move (Moved, TurnEnded)
    assert game(redo(keeper)) == game(mid_round_one)
    again = redo(keeper)
    assert without(again, NEW_EVENT_FIELDS) == without(chase, NEW_EVENT_FIELDS)
    refused = keeper.post("/redo")
    problem(refused, 409)


def test_undo_to_the_start_leaves_a_chase_in_set_up_with_no_participants(keeper):
    running(keeper)
    keeper.move("Harvey", 1)
    chase = keeper.track()
    created = at(keeper, 1)

    undone = undo(keeper, chase["actions_counted"])

    assert undone["phase"] == "setup" and undone["participants"] == {} and undone["actions_counted"] == 0
    assert game(undone) == game(created)
    body = problem(keeper.post("/undo", {"count": 1}), 422)
    assert fields_named(body) == ["count"]


# -- rewind -------------------------------------------------------------------------------------


def test_rewind_is_one_event_and_new_actions_after_it_end_any_redo(keeper):
    cut = running(keeper)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [4]}))
    chase = keeper.track()

    rewound = rewind(keeper, cut["version"])

    assert names_after(keeper, chase["version"]) == ["Rewound"]
    assert game(rewound) == game(cut) == game(at(keeper, cut["version"]))
    assert rewound["can_redo"] is True
    event = keeper.events()[-1]
    assert event["data"]["to_version"] == cut["version"] and len(event["data"]["actions"]) == 3
    assert [r["undone"] for r in keeper.rolls()] == [False, False, True]

    # Play goes on differently from the rewound point ...
    moved = keeper.move("Harvey", 1)
    assert moved["round"] == 1 and moved["can_redo"] is False
    # ... so there is nothing to redo any more.
    log = keeper.events()
    body = problem(keeper.post("/redo"), 409)
    assert "nothing to redo" in body["detail"]
    assert keeper.events() == log
    assert keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [2]}))["rolls"][0]["sequence"] == 4


def test_redo_after_a_rewind_restores_the_rewound_stretch(keeper):
    cut = running(keeper)
    keeper.move("Harvey", 1)
    keeper.ok(keeper.post("/skill-rolls", {"skill": "Luck", "target": 50, "table_dice": [20, 1]}))
    chase = keeper.track()
    rolls = keeper.rolls()

    rewind(keeper, cut["version"])
    redone = redo(keeper)

    assert without(redone, NEW_EVENT_FIELDS) == without(chase, NEW_EVENT_FIELDS)
    assert keeper.rolls() == rolls


def test_rewinding_to_before_an_undo_makes_the_undone_actions_count_again(keeper):
    running(keeper)
    rolled = keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [6]}))["chase"]
    undo(keeper)
    assert keeper.rolls()[-1]["undone"] is True

    back = rewind(keeper, rolled["version"])

    assert game(back) == game(rolled)
    last = keeper.rolls()[-1]
    assert last["undone"] is False and last["undone_by"] is None and last["undone_at"] is None
    assert [d["face"] for d in last["roll"]["dice"]] == [6]


def test_rewind_into_the_middle_of_an_action_is_refused_naming_its_boundaries(keeper):
    running(keeper)
    keeper.move("Harvey", 1)  # Moved, TurnEnded: one action
    keeper.move("Farmer", 2)  # Moved, TurnEnded, RoundEnded, RoundBegan: one action
    events = keeper.events()
    moved = next(e for e in events if e["name"] == "Moved" and e["data"]["participant_id"] == keeper.ids["Farmer"])
    first = moved["version"]
    last = max(e["version"] for e in events if e["data"].get("action") == moved["data"]["action"])
    assert last == first + 3

    for middle in range(first, last):
        body = problem(keeper.post("/rewind", {"to_version": middle}, headers=keeper.if_match()), 422)
        assert fields_named(body) == ["to_version"]
        assert f"versions {first} to {last}" in body["detail"]
        assert f"rewind to {first - 1} or {last}" in body["detail"]
        assert keeper.events() == events
    # Either boundary is fine.
    assert rewind(keeper, first - 1)["round"] == 1


@pytest.mark.parametrize("offset", [0, 1, 50])
def test_rewind_to_the_current_or_a_future_version_is_refused(keeper, offset):
    running(keeper)
    events = keeper.events()
    version = events[-1]["version"] + offset

    body = problem(keeper.post("/rewind", {"to_version": version}, headers=keeper.if_match()), 422)

    assert fields_named(body) == ["to_version"]
    assert keeper.events() == events


@pytest.mark.parametrize("version", [0, -3, "two", None])
def test_rewind_to_a_version_that_cannot_exist_is_refused(keeper, version):
    running(keeper)
    events = keeper.events()

    body = problem(keeper.post("/rewind", {"to_version": version}, headers=keeper.if_match()), 422)

    assert fields_named(body) == ["to_version"]
    assert keeper.events() == events


# -- time travel ---------------------------------------------------------------------------------


def _a_chase_with_history(keeper) -> None:
    """A chase whose log holds every kind of event, undo, rewind, redo and requests included."""
    running(keeper)
    keeper.move("Harvey", 1)
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}))
    keeper.move("Farmer", 2)
    undo(keeper, 2)
    redo(keeper)
    player = keeper.player("Harvey")
    request_id = player.ok(player.post("/undo-requests", {"count": 1, "note": "misclick"}), 201)["request_id"]
    keeper.ok(keeper.post(f"/undo-requests/{request_id}", {"accept": True}))  # the farmer's move is undone
    keeper.end_turn("Farmer")  # round 2
    keeper.ok(keeper.post(path(keeper, "Harvey", "delay"), {}))
    keeper.ok(keeper.post("/skill-rolls", {"skill": "Dodge", "target": 40, "participant_id": keeper.ids["Harvey"], "table_dice": [30, 5]}))
    rewind(keeper, 9)  # after Harvey's first move
    keeper.move("Farmer", 1)
    keeper.ok(keeper.post("/reveal-seed"))
    keeper.ok(keeper.post("/entropy", {"entropy": "dice of the table"}))
    keeper.ok(keeper.post("/end", {"outcome": "escaped"}))


def test_time_travel_to_every_version_equals_the_log_replayed_up_to_it(keeper, ledger):
    _a_chase_with_history(keeper)
    live = keeper.track()
    log = keeper.events()
    names = {e["name"] for e in log}
    assert {"Undone", "Redone", "Rewound", "UndoRequested", "UndoRequestAnswered", "SeedRevealed", "SeedCommitted", "EntropyContributed", "ChaseEnded"} <= names

    for version in range(1, live["version"] + 1):
        response = keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string={"version": version})
        view = keeper.ok(response)["chase"]
        state, rows = fold(ledger.events.get(UUID(keeper.chase_id), lte=version))
        assert as_stored(view) == json.loads(json.dumps(render(state))), version
        assert view["actions"] == [] and all(p["allowed_actions"] == p["refused_actions"] == [] for p in view["participants"].values())  # read-only
        assert view["version"] == version
        assert response.headers["X-Chain-Head"] == view["chain_head"] == log[version - 1]["hash"]
        rolls = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/rolls", query_string={"version": version}))["rolls"]
        # Each row also shows the odds its roll had, worked out from the recorded roll
        assert [{k: v for k, v in r.items() if k != "odds"} for r in rolls] == json.loads(json.dumps(rows)), version
        assert [r["odds"] for r in rolls] == [json.loads(json.dumps(odds_of(row["roll"]).as_json())) for row in rows], version

    # At the current version, time travel is the live view, and reading the past changed nothing.
    assert live_parts_out(at(keeper, live["version"])) == live_parts_out(live)
    assert keeper.track() == live
    assert keeper.events() == log


def test_time_travel_outside_the_log_is_refused(keeper):
    running(keeper)
    events = keeper.events()
    for version in (0, len(events) + 1, "soon"):
        response = keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string={"version": version})
        assert fields_named(problem(response, 422)) == ["version"]
        response = keeper.http.get(f"/chases/{keeper.chase_id}/rolls", query_string={"version": version})
        assert fields_named(problem(response, 422)) == ["version"]
    assert keeper.events() == events


# -- the record of undo -----------------------------------------------------------------------


def test_every_command_answers_with_the_chain_head_of_the_latest_event(keeper):
    running(keeper)
    responses = [
        keeper.post(path(keeper, "Harvey", "move"), {"locations": 1}),
        keeper.post("/undo", {}),
        keeper.post("/redo"),
        keeper.http.get(f"/chases/{keeper.chase_id}/track"),
    ]
    for response in responses:
        assert response.status_code == 200
        chase = response.get_json()["chase"]
        assert response.headers["X-Chain-Head"] == chase["chain_head"]
    log = keeper.events()
    assert responses[-1].headers["X-Chain-Head"] == log[-1]["hash"]
    for previous, event in pairwise(log):
        assert event["data"]["previous_hash"] == previous["hash"]


# -- bad input ----------------------------------------------------------------------------------


def _answered(keeper) -> int:
    player = keeper.player("Harvey")
    request_id = player.ok(player.post("/undo-requests", {"count": 1}), 201)["request_id"]
    keeper.ok(keeper.post(f"/undo-requests/{request_id}", {"accept": False}))
    return request_id


def _nothing(keeper) -> None:
    return None


def _undone_then_moved(keeper) -> None:
    keeper.move("Harvey", 1)
    undo(keeper)
    keeper.move("Harvey", 1)  # a new action after the undo


def _player(keeper):
    return keeper.player("Harvey")


BAD: dict[str, tuple[Callable[[Any], Any], Callable[[Any, Any], Any], int, str | None, str]] = {
    # name: (set up on a running chase, the bad request, status, field named, problem type)
    "undo with nothing to undo": (lambda k: k.create("empty"), lambda k, _: k.post("/undo", {}), 422, "count", "invalid-request"),
    "undo more than there is": (_nothing, lambda k, _: k.post("/undo", {"count": 6}), 422, "count", "invalid-request"),
    "undo zero": (_nothing, lambda k, _: k.post("/undo", {"count": 0}), 422, "count", "invalid-request"),
    "undo a thousand and one": (_nothing, lambda k, _: k.post("/undo", {"count": 1001}), 422, "count", "invalid-request"),
    "undo a count as text": (_nothing, lambda k, _: k.post("/undo", {"count": "1"}), 422, "count", "invalid-request"),
    "undo with a stale If-Match": (_nothing, lambda k, _: k.post("/undo", {}, headers={"If-Match": '"3"'}), 412, "If-Match", "precondition-failed"),
    "rewind without a version": (_nothing, lambda k, _: k.post("/rewind", {}), 422, "to_version", "invalid-request"),
    "rewind to a future version": (_nothing, lambda k, _: k.post("/rewind", {"to_version": 99}, headers=k.if_match()), 422, "to_version", "invalid-request"),
    "rewind into the middle of the cut": (_nothing, lambda k, _: k.post("/rewind", {"to_version": 6}, headers=k.if_match()), 422, "to_version", "invalid-request"),
    "rewind without If-Match": (_nothing, lambda k, _: k.post("/rewind", {"to_version": 6}), 428, "If-Match", "precondition-required"),
    "rewind with If-Match: *": (_nothing, lambda k, _: k.post("/rewind", {"to_version": 6}, headers={"If-Match": "*"}), 428, "If-Match", "precondition-required"),
    "redo with nothing to redo": (_nothing, lambda k, _: k.post("/redo"), 409, None, "history-refused"),
    "redo after new events": (_undone_then_moved, lambda k, _: k.post("/redo"), 409, None, "history-refused"),
    "answer an unknown request": (_nothing, lambda k, _: k.post("/undo-requests/77", {"accept": True}), 422, "request_id", "invalid-request"),
    "answer an answered request": (_answered, lambda k, rid: k.post(f"/undo-requests/{rid}", {"accept": True}), 422, "request_id", "invalid-request"),
    "answer without accept": (_answered, lambda k, rid: k.post(f"/undo-requests/{rid}", {}), 422, "accept", "invalid-request"),
    "request an undo of nothing": (_player, lambda k, p: p.post("/undo-requests", {"count": 0}), 422, "count", "invalid-request"),
    "request an undo of more than there is": (_player, lambda k, p: p.post("/undo-requests", {"count": 9}), 422, "count", "invalid-request"),
    "empty entropy": (_player, lambda k, p: p.post("/entropy", {"entropy": ""}), 422, "entropy", "invalid-request"),
    "a player undoing directly": (_player, lambda k, p: p.post("/undo", {}), 403, None, "forbidden"),
    "a player rewinding": (_player, lambda k, p: p.post("/rewind", {"to_version": 5}), 403, None, "forbidden"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_history_input_is_a_clear_problem_and_records_nothing(keeper, case):
    prepare, request, status, field, kind = BAD[case]
    running(keeper)
    context = prepare(keeper)
    log = keeper.events()

    body = problem(request(keeper, context), status)

    assert body["type"] == f"/problems/{kind}"
    if field is not None:
        assert fields_named(body) == [field], body
    assert keeper.events() == log


def test_redo_of_a_rewind_that_restored_undone_actions_marks_them_undone_again(keeper):
    running(keeper)
    first = keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [1]}))["chase"]
    undo(keeper)  # roll 1 undone
    keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [2]}))  # roll 2
    before_rewind = keeper.track()
    rewind(keeper, first["version"])  # roll 1 counts again, roll 2 undone
    assert [r["undone"] for r in keeper.rolls()][2:] == [False, True]  # after the two speed rolls

    redone = redo(keeper)  # back to the state before the rewind: roll 2 counts, roll 1 does not

    assert game(redone) == game(before_rewind)
    assert [r["undone"] for r in keeper.rolls()][2:] == [True, False]
    assert [r["undone"] for r in rolls_at(keeper, redone["version"])][2:] == [True, False]
