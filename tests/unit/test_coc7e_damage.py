"""Table VI: Vehicular Collisions, Table III: Other Forms of Damage, and lost movement actions.

coc7e-chases.txt "Vehicular Collisions", "Hazards"; coc7e-combat.txt "Other Forms of Damage".
"""
from __future__ import annotations

import pytest

from domain.dice import TableDice
from domain.rules.coc7e.damage import (
    COLLISIONS,
    INJURIES,
    consequences,
    default_incident,
    incident,
    lose_movement_actions,
    roll_damage,
    through_armor,
)
from domain.rules.coc7e.errors import InvalidCommand
from domain.rules.coc7e.movement import allotment


@pytest.mark.parametrize(
    "key, name, dice, faces, rolled, example",
    [
        ("minor", "Minor incident", "1D3-1", [1], 0, "grazing a lamp post"),  # "may be cosmetic damage only"
        ("moderate", "Moderate incident", "1D6", [4], 4, "hitting a cow or large deer"),
        ("severe", "Severe incident", "1D10", [7], 7, "collision with a standard car, lamp post or tree"),
        ("mayhem", "Mayhem", "2D10", [6, 9], 15, "collision with a truck or coach or a mature tree"),
        ("road kill", "Road kill", "5D10", [1, 2, 3, 4, 5], 15, "hit by a meteor"),
    ],
)
def test_each_collision_row_rolls_its_build_dice(key, name, dice, faces, rolled, example):
    row = incident(key, vehicle=True)

    record = roll_damage(TableDice(faces), 4, row.damage, purpose=f"{row.name} Build")

    assert (row.name, row.damage, row.unit) == (name, dice, "Build")
    assert example in row.examples and row.source == 'coc7e-chases.txt "Vehicular Collisions"'
    assert record["amount"] == rolled and [d["face"] for d in record["dice"]] == faces
    assert record["source"]["sequence"] == 4 and record["purpose"] == f"{name} Build"


@pytest.mark.parametrize(
    "key, dice, example",
    [
        ("minor", "1D3", "punch"),
        ("moderate", "1D6", "club"),
        ("severe", "1D10", ".38 caliber bullet"),
        ("deadly", "2D10", "hit by a car at 30mph"),
        ("terminal", "4D10", "hit by a speeding car"),
        ("splat", "8D10", "being hit by a train"),
    ],
)
def test_each_other_forms_of_damage_row_is_hit_points_dice(key, dice, example):
    row = incident(key, vehicle=False)
    assert (row.damage, row.unit) == (dice, "hit points")
    assert example in row.examples and row.source == 'coc7e-combat.txt "Other Forms of Damage"'


def test_the_tables_are_complete_and_read_prose_names():
    assert [r.key for r in COLLISIONS] == ["minor", "moderate", "severe", "mayhem", "road kill"]
    assert [r.key for r in INJURIES] == ["minor", "moderate", "severe", "deadly", "terminal", "splat"]
    assert incident("Moderate Injury", vehicle=False).damage == "1D6"
    assert incident("minor incident", vehicle=True).damage == "1D3-1"
    with pytest.raises(InvalidCommand):
        incident("mayhem", vehicle=False)  # no such row for characters


@pytest.mark.parametrize("difficulty, vehicle_dice, character_dice", [("regular", "1D3-1", "1D3"), ("hard", "1D6", "1D6"), ("extreme", "1D10", "1D10")])
def test_unsure_keepers_take_the_row_of_the_hazards_difficulty(difficulty, vehicle_dice, character_dice):
    assert default_incident(difficulty, vehicle=True).damage == vehicle_dice
    assert default_incident(difficulty, vehicle=False).damage == character_dice


def test_occupants_roll_the_vehicles_dice_in_hit_points_each_and_the_delay_is_1d3():
    # "a car that is in a moderate incident suffers 1D6 build damage and each occupant of the car
    # suffers 1D6 hit points of damage"
    crash = consequences("hard", vehicle=True)

    assert (crash.incident.name, crash.damage, crash.occupant_damage, crash.lost_movement_actions) == ("Moderate incident", "1D6", "1D6", "1D3")
    driver = roll_damage(TableDice([2]), 10, crash.occupant_damage)
    passenger = roll_damage(TableDice([5]), 11, crash.occupant_damage)
    assert (driver["amount"], passenger["amount"]) == (2, 5)


def test_the_keeper_may_choose_another_row_no_damage_own_dice_or_no_delay():
    assert consequences("regular", vehicle=False, incident_key="severe").damage == "1D10"
    quiet = consequences("regular", vehicle=False, incident_key=None, delay=False)
    assert quiet.harmless and quiet.occupant_damage is None
    assert consequences("regular", vehicle=False, damage="2d6+1").damage == "2D6+1"
    with pytest.raises(InvalidCommand):
        consequences("regular", vehicle=False, damage="a lot")


def test_driver_damage_example_moderate_incident_for_a_hard_hazard():
    # "Driver Damage": a Hard hazard; "moderate incident", 1 (1D6) Build, 3 (1D3) movement
    # actions, 2 (1D6) hit points for Harvey.
    crash = consequences("hard", vehicle=True)
    build = roll_damage(TableDice([1]), 1, crash.damage)["amount"]
    lost = roll_damage(TableDice([3]), 2, crash.lost_movement_actions)["amount"]
    harvey = roll_damage(TableDice([2]), 3, crash.occupant_damage)["amount"]
    assert (build, lost, harvey) == (1, 3, 2)


def test_own_dice_never_deal_less_than_nothing():
    assert roll_damage(TableDice([1]), 1, "1D3-2")["amount"] == 0


def test_armor_never_turns_damage_into_healing():
    assert through_armor(5, 1) == 4  # the deep one's 1 point of natural armor
    assert through_armor(3, 24) == 0


# -- Lost movement actions and debt --------------------------------------------------------------


def test_lost_movement_actions_come_out_of_this_round_first():
    delay = lose_movement_actions(2, movement_actions_left=3)
    assert (delay.paid_now, delay.movement_actions_left, delay.owed) == (2, 1, 0)


def test_lost_movement_actions_beyond_this_round_are_owed_into_the_next():
    delay = lose_movement_actions(3, movement_actions_left=1)
    assert (delay.paid_now, delay.movement_actions_left, delay.owed) == (1, 0, 2)
    # Two movement actions a round: the debt eats them all next round.
    assert allotment(6, 5, owed=delay.owed) == (0, 0)


def test_a_new_debt_adds_to_an_old_one():
    assert lose_movement_actions(2, 0, owed=1).owed == 3
    with pytest.raises(InvalidCommand):
        lose_movement_actions(-1, 0)
