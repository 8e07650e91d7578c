"""The GM-judged options as named modifiers, and Tests and Tricks, over HTTP (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES": Aim, Called Shots, Cover,
Illumination, Tests; swd-chases.txt "A note about Tricks during Chases" (a Trick that Shakes a
driver: an Out-of-Control roll). Faces of a trait roll: the trait die, the Wild Die.
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def runners(client, placements=(3, 6)) -> SavageTable:
    table = SavageTable(client, "swade")
    table.add(name="Ann", role="chaser", maneuver_die="d8", toughness=5)
    table.add(name="Bob", role="quarry", maneuver_die="d8", toughness=5)
    table.begin(mode="foot", placements={"Ann": placements[0], "Bob": placements[1]}, row=ROW)
    table.deal(Ann="KH", Bob="5D")
    return table


def test_cover_illumination_and_a_called_shot_are_named_in_the_log(client):
    table = runners(client)
    body = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48",
                     cover="medium", illumination="dim", called_shot="head", table_dice=[8, 1, 7])
    roll = body["rolls"][0]
    assert roll["modifiers"]["Cover (medium)"] == -4 and roll["modifiers"]["Illumination (dim)"] == -2
    assert roll["modifiers"]["Called Shot (head)"] == -4 and roll["damage_bonus"] == 4
    assert roll["modifiers"]["range"] == -2  # three cards apart: 15", Medium Range for 12/24/48
    assert roll["total"] == 15 - 4 - 2 - 4 - 2


def test_aim_ignores_four_points_of_penalties_or_gives_two(client):
    table = runners(client)
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", cover="heavy", aim=True, table_dice=[5, 1])["rolls"][0]
    assert roll["modifiers"]["Aim"] == 4  # Cover -6 and Range -2: four of them ignored
    table = runners(client, placements=(3, 3))
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", aim=True, table_dice=[5, 1])["rolls"][0]
    assert roll["modifiers"]["Aim"] == 2  # no penalty: +2
    problem = table.refused(
        f"/swade/participants/{table.ids['Ann']}/attack", {"target_id": table.ids["Bob"], "trait_die": "d8", "cover": "total", "table_dice": [5, 1]}, 422
    )
    assert problem["errors"][0]["field"] == "cover"


def test_a_test_with_a_raise_makes_the_foe_vulnerable_and_shaken(client):
    table = runners(client, placements=(3, 3))
    body = table.post(f"/swade/participants/{table.ids['Ann']}/tests", {
        "target_id": table.ids["Bob"], "trait_die": "d8", "resist_die": "d6", "effect": "vulnerable",
        "table_dice": [8, 2, 1], "defender_table_dice": [2, 3],
    })
    test, resist = body["rolls"]
    assert test["purpose"] == "Test" and resist["purpose"] == "resist Test" and resist["roller"] == table.ids["Bob"]
    bob = table.who(body["chase"], "Bob")["conditions"]
    assert body["outcome"] == {"winner": "attacker", "effect": "vulnerable", "shaken": True} and bob["vulnerable"] and bob["shaken"]


def test_a_lost_test_changes_nothing(client):
    table = runners(client, placements=(3, 3))
    body = table.post(f"/swade/participants/{table.ids['Ann']}/tests", {
        "target_id": table.ids["Bob"], "trait_die": "d8", "resist_die": "d6", "table_dice": [3, 2], "defender_table_dice": [5, 1],
    })
    assert body["outcome"]["winner"] == "defender" and not table.who(body["chase"], "Bob")["conditions"]["distracted"]


def test_a_deluxe_trick_that_shakes_a_driver_sends_him_out_of_control(client):
    table = SavageTable(client, "swd")
    table.add(name="Hunter", role="chaser", maneuver_die="d8", spirit="d6", toughness=6, pace=6)
    table.add(name="Van", kind="vehicle", role="quarry", toughness=10, top_speed=10)
    table.add(name="Vic", with_id="Van", seat="driver", maneuver_die="d6", spirit="d6")
    table.begin()
    table.act("Hunter", "maneuver", table_dice=[4, 2], cards=["KH"])  # 4, +2 faster than the Van
    table.act("Van", "maneuver", table_dice=[2, 1])
    body = table.post(f"/swd/participants/{table.ids['Hunter']}/tests", {
        "kind": "Trick", "target_id": table.ids["Vic"], "trait_die": "d8", "resist_die": "d6", "table_dice": [8, 3, 1], "defender_table_dice": [2, 1],
    })
    assert body["rolls"][0]["purpose"] == "Trick" and table.pending(body["chase"]) == ["out of control"]


def test_rate_of_fire_records_the_bullets_and_recoil_from_two(client):
    # "BULLETS PER RATE OF FIRE" and "Recoil: -2 Shooting if RoF is 2 or higher".
    table = runners(client, placements=(3, 3))
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", rate_of_fire=3, table_dice=[5, 1, 4, 2])["rolls"][0]
    assert roll["bullets"] == 10 and roll["rate_of_fire"] == 3 and roll["modifiers"]["Recoil"] == -2
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", rate_of_fire=1, table_dice=[5, 1])["rolls"][0]
    assert roll["bullets"] == 1 and "Recoil" not in roll["modifiers"]


def test_breaking_things_no_aces_no_bonus_and_broken_at_its_hardness(client):
    # "Breaking Things": "No bonus damage or Aces are possible"; a heavy car door, Hardness 10 here.
    table = runners(client, placements=(3, 3))
    body = table.post("/swade/breaking-things", {"roller_id": table.ids["Ann"], "object": "the car door", "hardness": 10,
                                                  "expression": "Str+d6", "strength": "d8", "table_dice": [8, 6]})
    roll = body["rolls"][0]
    # 8 and 6 would Ace in a damage roll; against an object they do not: 14, and no die more is asked for.
    assert roll["purpose"] == "breaking things" and roll["total"] == 14 and not any(d["aced"] for d in roll["dice"])
    assert body["outcome"] == {"object": "the car door", "damage": 14, "hardness": 10, "broken": True}
    table.refused("/swade/breaking-things", {"object": "a wall", "hardness": 0, "expression": "2d6", "table_dice": [1, 1]}, 422)
