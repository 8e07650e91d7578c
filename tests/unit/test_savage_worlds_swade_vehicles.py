"""SWADE vehicles (swade-chases-reference.txt): Ram, damage, Out of Control, Critical Hits, Injury,
and the Shaken / Distracted / Vulnerable / Fatigue states."""
from __future__ import annotations

import pytest

from domain.dice import TableDice
from domain.rules.savage_worlds import swade_vehicles as vehicles
from domain.rules.savage_worlds.conditions import Conditions
from domain.rules.savage_worlds.damage import table_roll
from domain.rules.savage_worlds.dice import trait_roll
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken
from domain.rules.savage_worlds.swade_tables import (
    GUTS,
    HEAD,
    INJURIES,
    row_for,
    scale_damage,
)

CAR = vehicles.Rammer("Normal", toughness=12, top_speed=130)  # attacker at 130 mph
TRUCK = vehicles.Rammer("Large", toughness=16, top_speed=90)


# -- Ram -----------------------------------------------------------------------------------------


def test_ram_between_a_normal_and_a_large_vehicle_at_130_mph():
    # "Speed: +d6 to both sides if the attacker's Top Speed is between 60 and 120 mph; +2d6 if
    # it's over 120 mph": at 130 mph both sides add 2d6.
    by_car, by_truck = vehicles.ram_damage(CAR, TRUCK, attacker_raise=False)
    assert by_car.expression == "2d6+2d6" and not by_car.raise_bonus
    # The truck's Toughness 16 is higher than 12 (not twice): +d6 on its side.
    assert by_truck.expression == "3d6+1d6+2d6"
    assert [why for why, _ in by_truck.parts] == ["Scale Large", "Toughness higher", "attacker's Top Speed 130 mph"]


def test_ram_damage_is_rolled_with_aces_and_the_raise_die():
    by_car, by_truck = vehicles.ram_damage(CAR, TRUCK, attacker_raise=True)
    assert by_car.raise_bonus and ("raise", "1d6") in by_car.parts
    # 2d6+2d6 and the raise d6: five base dice; the third aces (6, then 2).
    car = vehicles.roll_ram_damage(TableDice([3, 4, 6, 1, 5, 2]), 10, by_car)
    assert car.chains == ((3,), (4,), (6, 2), (1,), (5,)) and car.total == 21
    truck = vehicles.roll_ram_damage(TableDice([1, 2, 3, 4, 5, 1]), 11, by_truck, joker=True)
    assert truck.total == 16 + 2


@pytest.mark.parametrize("speed, dice", [(0, 0), (59, 0), (60, 1), (120, 1), (121, 2), (130, 2)])
def test_ram_speed_dice(speed, dice):
    assert vehicles.speed_dice(speed) == dice


@pytest.mark.parametrize("own, foe, dice", [(10, 10, 0), (11, 10, 1), (19, 10, 1), (20, 10, 2), (9, 10, 0)])
def test_ram_toughness_dice(own, foe, dice):
    assert vehicles.toughness_dice(own, foe) == dice


def test_ram_is_an_opposed_maneuvering_roll_on_the_same_card():
    win = trait_roll(TableDice([8, 5, 4]), 1, "d8")  # 12
    lose = trait_roll(TableDice([3, 2]), 2, "d8")  # 3
    assert vehicles.ram(win, lose, same_card=True) == (True, True)
    assert vehicles.ram(lose, win, same_card=True) == (False, False)
    with pytest.raises(RuleBroken, match="same Chase Card"):
        vehicles.ram(win, lose, same_card=False)
    assert [scale_damage(s) for s in ("Small", "Normal", "Large", "Huge", "Gargantuan")] == ["1d6", "2d6", "3d6", "4d6", "5d6"]


# -- damage to vehicles --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "damage, control, bumped, wounds",
    [(11, False, False, 0), (12, True, True, 0), (15, True, True, 0), (16, True, True, 1), (24, True, True, 3)],
)
def test_damage_against_toughness_12(damage, control, bumped, wounds):
    hit = vehicles.damage_to_vehicle(damage, 12)
    assert (hit.control_roll, hit.bumped, hit.wounds, hit.critical_hits) == (control, bumped, wounds, wounds)


def test_damage_outside_a_chase_bumps_nobody_and_out_of_control_damage_triggers_no_roll():
    assert not vehicles.damage_to_vehicle(12, 12, in_chase=False).bumped
    again = vehicles.damage_to_vehicle(20, 12, from_out_of_control=True)
    assert (again.control_roll, again.bumped, again.wounds, again.critical_hits) == (False, False, 2, 2)


# -- Out of Control ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "total, name, wounds, hits, distracted, vulnerable",
    [
        (2, "Major Collision", "d4", 1, True, False),
        (3, "Minor Collision", 1, 1, False, False),
        (4, "Minor Collision", 1, 1, False, False),
        *[(t, "Distracted", 0, 0, True, False) for t in range(5, 10)],
        (10, "Vulnerable", 0, 0, False, True),
        (11, "Vulnerable", 0, 0, False, True),
        (12, "Glitch", 0, 1, False, False),
    ],
)
def test_each_row_of_out_of_control(total, name, wounds, hits, distracted, vulnerable):
    row = vehicles.out_of_control(total)
    assert (row.name, row.wounds, row.critical_hits, row.distracted, row.vulnerable) == (name, wounds, hits, distracted, vulnerable)
    assert row.reroll_crew is (total == 12) and row.collision is (total <= 4)


def test_out_of_control_is_rolled_on_2d6_and_a_major_collision_takes_d4_wounds():
    roll = table_roll(TableDice([1, 1]), 4)
    row = vehicles.out_of_control(roll.total)
    d4 = table_roll(TableDice([3]), 5, count=1, sides=4)
    assert vehicles.wounds_of(row, d4.total) == 3
    assert vehicles.wounds_of(vehicles.out_of_control(3)) == 1 and vehicles.wounds_of(vehicles.out_of_control(7)) == 0
    with pytest.raises(InvalidValue):
        vehicles.wounds_of(row, None)
    with pytest.raises(InvalidValue):
        vehicles.out_of_control(13)


# -- Vehicle Critical Hits -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "total, name, effect",
    [
        (2, "Scratch and Dent", "none"), (3, "Guidance/Traction", "handling"),
        (4, "Locomotion", "top speed"), (5, "Locomotion", "top speed"),
        (6, "Chassis", "chassis"), (7, "Chassis", "chassis"), (8, "Chassis", "chassis"),
        (9, "Crew", "crew"), (10, "Crew", "crew"), (11, "Weapon", "weapon"), (12, "System", "system"),
    ],
)
def test_each_row_of_vehicle_critical_hits(total, name, effect):
    hit = vehicles.critical_hit(total)
    assert (hit.row.name, hit.effect, hit.reroll, hit.occupants_shaken) == (name, effect, False, False)


def test_no_weapon_or_no_systems_is_a_chassis_hit():
    assert vehicles.critical_hit(11, has_weapon=False).effect == "chassis"
    assert vehicles.critical_hit(12, has_systems=False).effect == "chassis"


def test_a_glitch_rerolls_crew_and_a_collision_shakes_the_crew():
    assert vehicles.critical_hit(9, reroll_crew=True).reroll
    assert not vehicles.critical_hit(8, reroll_crew=True).reroll
    assert vehicles.critical_hit(10, collision=True).occupants_shaken


def test_handling_and_top_speed_losses_have_limits():
    state = vehicles.VehicleState()
    for _ in range(6):
        state = state.after(vehicles.critical_hit(3)).after(vehicles.critical_hit(4))
    assert state.handling_penalty == -4 and state.top_speed_percent == 60 and state.top_speed(150) == 90
    assert vehicles.VehicleState().after(vehicles.critical_hit(4)).top_speed_percent == 90
    assert vehicles.VehicleState().after(vehicles.critical_hit(9, reroll_crew=True)) == vehicles.VehicleState()
    assert vehicles.VehicleState().wounded(2).wounds == 2


# -- Injury table --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "total, name",
    [(2, "Unmentionables"), (3, "Arm"), (4, "Arm"), (5, "Guts"), (9, "Guts"), (10, "Leg"), (11, "Leg"), (12, "Head")],
)
def test_injury_table(total, name):
    assert row_for(INJURIES, total).name == name


@pytest.mark.parametrize("face, guts, head", [(1, "Broken", "Hideous Scar"), (2, "Broken", "Hideous Scar"), (3, "Battered", "Hideous Scar"), (4, "Battered", "Blinded"), (5, "Busted", "Blinded"), (6, "Busted", "Brain Damage")])
def test_injury_sub_tables(face, guts, head):
    assert row_for(GUTS, face).name == guts and row_for(HEAD, face).name == head


# -- conditions ----------------------------------------------------------------------------------


def test_distracted_lasts_until_the_end_of_the_next_turn():
    outside = Conditions().made_distracted(during_own_turn=False)
    assert outside.trait_modifier() == -2 and not outside.end_of_turn().is_distracted
    during = Conditions().made_distracted(during_own_turn=True)
    assert during.end_of_turn().is_distracted and not during.end_of_turn().end_of_turn().is_distracted
    assert during.made_distracted().distracted == 2  # does not stack, keeps the longer


def test_vulnerable_fatigue_and_shaken():
    vulnerable = Conditions().made_vulnerable()
    assert vulnerable.against_modifier() == 2 and vulnerable.end_of_turn().against_modifier() == 0
    tired = Conditions().fatigued()
    assert tired.fatigue_level == "Fatigued" and tired.trait_modifier() == -1
    exhausted = tired.fatigued()
    assert exhausted.trait_modifier() == -2 and exhausted.made_distracted().trait_modifier() == -4
    assert exhausted.fatigued(5).incapacitated and exhausted.fatigued(5).fatigue_level == "Incapacitated"
    assert Conditions().made_shaken().shaken and not Conditions().made_shaken().recovered().shaken
