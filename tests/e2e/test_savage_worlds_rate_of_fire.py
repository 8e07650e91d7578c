"""Rate of Fire over HTTP, with table dice (issue 17).

Core rules "Rate of Fire" with swade-chases-reference.txt "BULLETS PER RATE OF FIRE" and
"Recoil: -2 Shooting if RoF is 2 or higher": a weapon fired at RoF 3 rolls three Shooting dice
and, for a Wild Card, one Wild Die that may take the place of one of them; each die is a separate
hit. Faces: the Shooting dice left to right, the Wild Die, then any ace's rerolls.
"""
from __future__ import annotations

import copy
from pathlib import Path

from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_record_checks_out import verify

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def side_by_side(client) -> SavageTable:
    """Ann and Bob on the same Chase Card: Short Range, no range penalty."""
    table = SavageTable(client, "swade")
    table.add(name="Ann", role="chaser", maneuver_die="d8", toughness=5)
    table.add(name="Bob", role="quarry", maneuver_die="d8", toughness=5)
    table.begin(mode="foot", placements={"Ann": 3, "Bob": 3}, row=ROW)
    table.deal(Ann="KH", Bob="5D")
    return table


def burst(table: SavageTable, faces: list[int]) -> dict:
    return table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", rate_of_fire=3, table_dice=faces)["rolls"][0]


def test_three_shooting_dice_and_a_wild_die_each_a_separate_hit(client, tmp_path: Path, capsys):
    table = side_by_side(client)
    # Shooting 6, 1, 7 and the Wild Die 5, which takes the 1's place; Recoil -2: 4, 3, 5.
    roll = burst(table, [6, 1, 7, 5])
    assert roll["kind"] == "rate of fire roll" and roll["bullets"] == 10 and roll["modifiers"]["Recoil"] == -2
    assert roll["trait_dice_faces"] == [[6], [1], [7]] and roll["wild_die_faces"] == [5] and roll["wild_die_replaces"] == 1
    assert roll["totals"] == [4, 3, 5] and roll["hits"] == [True, False, True] and roll["hit_count"] == 2
    assert roll["total"] == 5 and roll["success"] and not roll["critical_failure"]

    # The record checks out with `chase verify`; a forged hit is caught.
    export = table.get("/export")
    code, out = verify(export, tmp_path, capsys)
    assert code == 0, out
    forged = copy.deepcopy(export)
    event = next(e for e in forged["events"] if (e["data"].get("roll") or {}).get("kind") == "rate of fire roll")
    event["data"]["roll"]["hits"] = [True, True, True]
    event.pop("hash", None)
    code, out = verify(forged, tmp_path, capsys)
    assert code != 0 and f"event {event['version']}" in out


def test_more_than_half_the_dice_on_one_with_the_wild_die_is_a_critical_failure(client):
    table = side_by_side(client)
    roll = burst(table, [1, 1, 8, 1, 3])  # the Wild Die shows 1; the 8 aces and rolls again: 3
    assert roll["trait_dice_faces"] == [[1], [1], [8, 3]] and roll["wild_die_faces"] == [1]
    assert roll["critical_failure"] and roll["hits"] == [False, False, False] and not roll["success"]


def test_a_benny_rerolls_every_die_and_the_better_total_counts(client):
    table = side_by_side(client)
    burst(table, [2, 1, 3, 2])  # Recoil -2: 0, 0, 1 -- no hit
    body = table.post(f"/swade/participants/{table.ids['Ann']}/bennies/reroll", {"table_dice": [6, 2, 5, 4]})
    again = body["rolls"][-1]
    assert again["kind"] == "rate of fire roll" and again["totals"] == [4, 2, 3] and again["hit_count"] == 1
    assert body["outcome"]["counts"]["total"] == 4 and body["outcome"]["counts"]["success"]
