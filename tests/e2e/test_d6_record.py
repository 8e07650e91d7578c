"""The record of a D6 chase is the record of every chase: the event log, undo, rewind and redo,
the roll history, time travel, the export that `chase verify` recomputes die by die from the
revealed seed, and the exact odds of each roll (DESIGN.md sections 3 to 6)."""
from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from domain.chain import hash_record
from domain.verification import VerificationFailed
from infrastructure.systems import odds_of, verify
from tests.e2e.d6_table import D6Table


def rechain(export: dict) -> dict:
    """Rehash a changed export so that only the verifier's recomputation can catch the change."""
    previous = "0" * 64
    for event in export["events"]:
        event["data"]["previous_hash"] = previous
        event["hash"] = previous = hash_record({k: event[k] for k in ("chase_id", "version", "type", "recorded_at", "data")})
    return export


def chase_on_server_dice(client) -> D6Table:
    table = D6Table(client, dice="server", name="Rooftops")
    table.add("Ann", "pursuer", skills={"running": "5D+2"})
    table.add("Thief", "quarry", position=15)
    table.begin(finish=500)
    return table


def test_a_move_undone_stays_in_the_log_and_a_redo_brings_it_back_with_its_dice(client):
    # Step 1: Ann runs 30 m with table dice.
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=40)
    table.begin()
    table.run("Ann", 30, [4, 4, 4])
    assert table.position("Ann") == 30

    # Step 2: the GM undoes it: Ann is back at the start, free to run again; the roll stays, marked.
    undone = table.post("/undo", {"count": 1})["chase"]
    assert table.position("Ann", undone) == 0 and "running" in table.who("Ann", undone)["may_move"]
    assert [r["undone"] for r in table.rolls()] == [True]

    # Step 3: redo restores the move with its original dice; the roll counts again.
    redone = table.post("/redo")["chase"]
    assert table.position("Ann", redone) == 30 and [r["undone"] for r in table.rolls()] == [False]

    # Step 4: a rewind to before the move, then a new run: its roll takes the next number.
    moved = next(e["version"] for e in table.events() if e["name"] == "Moved")
    now = table.get("/track")["chase"]["version"]
    table.post("/rewind", {"to_version": moved - 1}, headers={"If-Match": f'"{now}"'})  # a rewind needs If-Match
    again = table.run("Ann", 20, [3, 3, 3])
    assert again["rolls"][0]["sequence"] == 2 and [r["undone"] for r in table.rolls()] == [True, False]
    # Time travel shows Ann at 30 m at the version the redo answered, changing nothing.
    assert table.position("Ann", table.get("/track", version=redone["version"])["chase"]) == 30


def test_the_roll_history_filters_by_participant_and_round(client):
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=40)
    table.begin()
    table.run("Ann", 20, [3, 3, 3])
    table.end_round()
    table.run("Thief", 20, [3, 3, 3])

    assert [r["roll"]["purpose"] for r in table.rolls(participant_id=table.ids["Ann"])] == ["running 20 m"]
    assert [r["participant_id"] for r in table.rolls(round=2)] == [table.ids["Thief"]]
    assert {r["source"] for r in table.rolls()} == {"table"}


def test_server_rolls_are_recomputed_from_the_revealed_seed_and_a_changed_face_is_caught(client):
    # Step 1: a chase on server dice; Ann runs, the thief runs, the GM ends the chase (seed revealed).
    table = chase_on_server_dice(client)
    table.run("Ann", 40)
    table.run("Thief", 20)
    table.post("/end", {"outcome": "abandoned", "note": "the thief slipped into the crowd"})
    export = table.get("/export")

    # Step 2: the verifier recomputes both rolls die by die, Wild Die rerolls included.
    report = verify(export)
    assert report.server_rolls_verified == 2 and report.rolls == 2 and report.seeds_revealed == 1

    # Step 3: a face changed (and the chain rehashed to hide it) no longer matches the seed.
    forged = copy.deepcopy(export)
    moved = next(e for e in forged["events"] if e["data"].get("roll"))
    die = moved["data"]["roll"]["dice"][0]
    die["face"] = 1 if die["face"] != 1 else 2
    with pytest.raises(VerificationFailed):
        verify(rechain(forged))


def test_a_total_that_does_not_follow_from_its_faces_is_caught_even_for_table_dice(client):
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=40)
    table.begin()
    table.run("Ann", 40, [3, 3, 3])
    export = table.get("/export")
    assert verify(export).table_rolls == 1

    forged = copy.deepcopy(export)
    roll = next(e for e in forged["events"] if e["data"].get("roll"))["data"]["roll"]
    roll["total"], roll["success"] = 15, True  # a failed 9 passed off as a 15
    with pytest.raises(VerificationFailed, match="D6 roll 1"):
        verify(rechain(forged))


def test_each_recorded_roll_has_exact_odds_through_the_registry(client):
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=40)
    table.begin(wild_die_one="complication")
    roll = table.run("Ann", 20, [3, 3, 3])["rolls"][0]  # 3D against 5

    odds = odds_of(roll)

    # 3D falls short of 5 only as 1+1+1 or 1+1+2 in some order (4 of 216); three of those show
    # 1 on the Wild Die (the last die), which under the GM's choice is a complication of its own.
    assert odds.success == 1 - Fraction(4, 216)
    assert odds.outcomes["failure, complication"] == Fraction(3, 216) and odds.outcomes["failure"] == Fraction(1, 216)
    assert odds.outcomes["success, complication"] == Fraction(1, 6) - Fraction(3, 216)
    assert odds.as_json()["outcomes"]["failure"]["exact"] == "1/216"
