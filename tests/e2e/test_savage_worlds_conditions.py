"""Stunned, Bound, Entangled and Prone over HTTP, with table dice and a physical deck (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES": Stunned, Bound & Entangled,
Prone, The Drop, Distracted, Vulnerable, Cover. Faces of a trait roll: the trait die, the Wild Die.
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def runners(client, placements=(3, 3)) -> SavageTable:
    """Two runners: Ann (chaser) acts before Bob."""
    table = SavageTable(client, "swade")
    table.add(name="Ann", role="chaser", maneuver_die="d8", toughness=5)
    table.add(name="Bob", role="quarry", maneuver_die="d8", toughness=5)
    table.begin(mode="foot", placements={"Ann": placements[0], "Bob": placements[1]}, row=ROW)
    table.deal(Ann="KH", Bob="5D")
    return table


def condition(table: SavageTable, name: str, **changes) -> dict:
    return table.post(f"/swade/participants/{table.ids[name]}/conditions", changes)["chase"]


def test_the_stunned_are_distracted_prone_cannot_act_and_attacks_against_them_get_the_drop(client):
    table = runners(client)
    chase = condition(table, "Bob", stunned=True)
    bob = table.who(chase, "Bob")["conditions"]
    assert bob["stunned"] and bob["prone"] and bob["distracted"]

    # Ann's melee attack: the Drop +4 (not also Vulnerable), Prone's -2 Parry as +2.
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", ranged=False, table_dice=[2, 1])["rolls"][0]
    assert roll["modifiers"]["The Drop (Stunned)"] == 4 and roll["modifiers"]["Prone (Parry -2)"] == 2 and "Vulnerable" not in roll["modifiers"]
    table.end_turn("Ann")
    # Bob, Stunned, can neither move nor act.
    problem = table.refused(f"/swade/participants/{table.ids['Bob']}/change-position", {"direction": 1, "table_dice": [5, 2]}, 409)
    assert "Stunned" in problem["detail"] and "Stunned" in problem["rule"]
    table.refused(f"/swade/participants/{table.ids['Bob']}/attack", {"target_id": table.ids["Ann"], "trait_die": "d8", "table_dice": [5, 2]}, 409)


def test_the_bound_are_vulnerable_and_distracted_the_entangled_cannot_move(client):
    table = runners(client)
    chase = condition(table, "Bob", bound=True)
    assert table.who(chase, "Bob")["conditions"]["vulnerable"] and table.who(chase, "Bob")["conditions"]["distracted"]
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", ranged=False, table_dice=[2, 1])["rolls"][0]
    assert roll["modifiers"]["Vulnerable"] == 2
    condition(table, "Ann", entangled=True)
    # Entangled, Ann can't move (no Change Position) but may still act, Distracted: -2.
    problem = table.refused(f"/swade/participants/{table.ids['Ann']}/change-position", {"direction": 1, "table_dice": [5, 2]}, 409)
    assert "Entangled" in problem["detail"]
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", ranged=False, table_dice=[5, 1])["rolls"][0]
    assert roll["modifiers"]["conditions"] == -2


def test_prone_is_medium_cover_from_ranged_attacks_and_minus_two_fighting(client):
    table = runners(client, placements=(3, 5))
    condition(table, "Bob", prone=True)
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", weapon_range="12/24/48", table_dice=[8, 3, 1])["rolls"][0]
    assert roll["modifiers"]["Prone (Medium Cover)"] == -4  # two cards away: 10", over 3"
    table = runners(client)
    condition(table, "Ann", prone=True)
    roll = table.act("Ann", "attack", target_id="Bob", trait_die="d8", ranged=False, table_dice=[5, 1])["rolls"][0]
    assert roll["modifiers"]["Prone (Fighting)"] == -2


def test_a_vehicle_cannot_be_stunned_but_its_crew_can(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.add(name="Bob", role="quarry", maneuver_die="d8")
    table.begin(mode="vehicular", placements={"Sedan": 3, "Bob": 3}, row=ROW)
    table.refused(f"/swade/participants/{table.ids['Sedan']}/conditions", {"stunned": True}, 409)
    chase = condition(table, "Dan", stunned=True)
    assert table.who(chase, "Dan")["conditions"]["stunned"]
