"""The attack's damage bonuses carried into the damage roll that follows it, over HTTP (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES": "The Drop: +4 to attack and
damage"; "Called Shots ... Head or vitals is -4 and +4 Damage". Faces of a trait roll: the trait
die, the Wild Die; of damage, each die left to right.
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def side_by_side(client) -> SavageTable:
    table = SavageTable(client, "swade")
    table.add(name="Ann", role="chaser", maneuver_die="d8", toughness=5)
    table.add(name="Bob", role="quarry", maneuver_die="d8", toughness=12)
    table.begin(mode="foot", placements={"Ann": 3, "Bob": 3}, row=ROW)
    table.deal(Ann="KH", Bob="5D")
    return table


def test_a_called_shot_to_the_head_adds_four_to_the_damage_that_follows(client):
    table = side_by_side(client)
    # Ann's shot at Bob's head: 8 aces into 5, 13 - 4 = 9, a hit.
    attack = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", called_shot="head", table_dice=[8, 1, 5])["rolls"][0]
    assert attack["success"] and attack["damage_bonus"] == 4
    damage = table.damage("Bob", "2d6", [3, 2], roller_id="Ann")["rolls"][0]
    assert damage["modifiers"] == {"situational": 0, "Called Shot (head)": 4} and damage["total"] == 9
    # A second damage roll is no longer the one that follows the attack: nothing carried.
    damage = table.damage("Bob", "2d6", [3, 2], roller_id="Ann")["rolls"][0]
    assert "modifiers" not in damage and damage["total"] == 5


def test_the_drop_adds_four_to_the_damage_too(client):
    table = side_by_side(client)
    table.post(f"/swade/participants/{table.ids['Bob']}/conditions", {"stunned": True})
    attack = table.act("Ann", "attack", target_id="Bob", trait_die="d8", ranged=False, table_dice=[3, 1])["rolls"][0]
    assert attack["success"] and attack["modifiers"]["The Drop (Stunned)"] == 4
    damage = table.damage("Bob", "2d6", [3, 2], roller_id="Ann", modifier=1)["rolls"][0]
    assert damage["modifiers"] == {"situational": 1, "The Drop (Stunned)": 4} and damage["total"] == 10


def test_a_missed_attack_carries_nothing(client):
    table = side_by_side(client)
    attack = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", called_shot="head", table_dice=[2, 1])["rolls"][0]
    assert not attack["success"]
    damage = table.damage("Bob", "2d6", [3, 2], roller_id="Ann")["rolls"][0]
    assert damage["total"] == 5
