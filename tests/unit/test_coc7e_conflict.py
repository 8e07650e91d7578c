"""Conflict in a chase: coc7e-chases.txt part 4 and coc7e-combat.txt's opposed rolls and Builds.

The worked examples of the chases text are played out with table dice: the car and the light
motorcycle, the cultist's truck and Harvey's car, Harvey throwing the farmer over the fence.
"""
from __future__ import annotations

import pytest

from domain.dice import TableDice
from domain.rules.coc7e import percentile
from domain.rules.coc7e.conflict import (
    attack_cost,
    combat_skill,
    maneuver_consequences,
    maneuver_penalty_dice,
    maneuver_possible,
    recoil,
    resolve,
    responses,
    vehicle_weapon_dice,
)
from domain.rules.coc7e.damage import lose_movement_actions, roll_damage
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.obstacles import hazard, hazard_outcome
from domain.rules.coc7e.vehicle_charts import vehicle
from domain.rules.coc7e.vehicles import lose_build, starting_build, take_damage

# -- Attacks -------------------------------------------------------------------------------------


def test_an_attack_costs_one_movement_action_at_the_same_location():
    assert attack_cost(same_location=True, firearm=False, movement_actions_left=2) == 1


def test_only_firearms_reach_another_location():
    with pytest.raises(RuleBroken) as refused:
        attack_cost(same_location=False, firearm=False, movement_actions_left=2)
    assert "Conflict" in refused.value.rule
    assert attack_cost(same_location=False, firearm=True, movement_actions_left=1) == 1


def test_no_attack_without_a_movement_action_or_beyond_the_usual_attacks():
    with pytest.raises(RuleBroken):
        attack_cost(same_location=True, firearm=False, movement_actions_left=0)
    with pytest.raises(RuleBroken):
        attack_cost(same_location=True, firearm=False, movement_actions_left=3, attacks_made=1)
    assert attack_cost(same_location=True, firearm=False, movement_actions_left=3, attacks_made=1, attacks_per_round=2) == 1


def test_the_target_may_always_fight_back_or_dodge_but_not_against_a_gun():
    assert {"fight back", "dodge"} <= set(responses(firearm=False))
    assert responses(firearm=True) == ("none",)
    with pytest.raises(RuleBroken):
        resolve("regular", "hard", "dodge", firearm=True)


def test_a_vehicle_fights_and_dodges_with_its_driving_skill():
    assert combat_skill("Fighting", "Drive Auto") == "Drive Auto"
    assert combat_skill("Dodge", "Pilot") == "Pilot"
    assert combat_skill("Dodge") == "Dodge"
    with pytest.raises(InvalidCommand):
        combat_skill("Firearms", "Drive Auto")


@pytest.mark.parametrize(
    "attacker, defender, response, winner, target_hit, attacker_hit",
    [
        ("regular", "regular", "fight back", "attacker", True, False),  # tie: the attacker
        ("regular", "hard", "fight back", "defender", False, True),
        ("regular", "regular", "dodge", "defender", False, False),  # tie: the dodger
        ("hard", "regular", "dodge", "attacker", True, False),
        ("failure", "failure", "dodge", None, False, False),
        ("failure", "failure", "fight back", None, False, False),
    ],
)
def test_opposed_attacks_follow_the_combat_tie_rules(attacker, defender, response, winner, target_hit, attacker_hit):
    exchange = resolve(attacker, defender, response)
    assert (exchange.winner, exchange.target_hit, exchange.attacker_hit) == (winner, target_hit, attacker_hit)


def test_an_unresisted_attack_misses_only_on_a_fumble_and_a_shot_needs_its_difficulty():
    assert resolve("failure", None, "none").target_hit
    assert not resolve("fumble", None, "none").target_hit
    assert resolve("regular", None, "none", firearm=True).target_hit
    assert not resolve("regular", None, "none", firearm=True, difficulty="hard").target_hit


# -- Vehicles as weapons -------------------------------------------------------------------------


def test_the_car_that_deals_50_to_a_light_motorcycle_loses_only_1_build():
    # "A car might do 50 (5D10) points of damage to a light motorcycle, and therefore the car would
    # suffer 25 points of damage itself ..., but a light motorcycle only has Build 1, so the damage
    # to the car is limited to 1 build point."
    car = starting_build(vehicle("Car, standard").build)
    motorcycle = starting_build(vehicle("Motorcycle, light").build)
    dice = vehicle_weapon_dice(car.starting)
    hit = roll_damage(TableDice([10, 10, 10, 10, 10]), 12, dice)

    struck = take_damage(motorcycle, hit["amount"])
    kick = recoil(hit["amount"], motorcycle.starting)
    car_after = lose_build(car, kick.build_lost)

    assert (dice, hit["amount"]) == ("5D10", 50)
    assert struck.wrecked  # 5 Build in one incident against its full Build of 1
    assert (kick.damage_suffered, kick.build_lost, kick.limited) == (25, 1, True)
    assert (car_after.build_after, car_after.status_after) == (4, "sound")


def test_recoil_is_half_the_damage_round_down_in_full_tens():
    assert recoil(39, 5).build_lost == 1  # 19 suffered: 1 Build
    assert recoil(40, 5).build_lost == 2
    assert recoil(40, 0).build_lost == 0  # running down a Build 0 person
    assert recoil(60, vehicle("Bicycle").build).build_lost == 0


# -- Fighting maneuvers --------------------------------------------------------------------------


@pytest.mark.parametrize("larger_by, penalty", [(-2, 0), (0, 0), (1, 1), (2, 2)])
def test_a_larger_target_costs_a_penalty_die_per_build_point(larger_by, penalty):
    car = vehicle("Car, standard").build  # 5
    assert maneuver_penalty_dice(car, car + larger_by) == penalty
    assert maneuver_possible(car, car + larger_by)


def test_a_target_three_or_more_build_larger_cannot_be_maneuvered():
    # A standard car (5) against an 18-wheeler (9), or a light motorcycle (1) against a car (4).
    for attacker, target in (("Car, standard", "18-wheeler"), ("Motorcycle, light", "Car, economy")):
        with pytest.raises(RuleBroken) as refused:
            maneuver_penalty_dice(vehicle(attacker).build, vehicle(target).build)
        assert "Step 1: Compare Builds" in refused.value.rule
        assert not maneuver_possible(vehicle(attacker).build, vehicle(target).build)


def test_penalty_dice_roll_on_the_maneuver():
    # A car (5) pushing a 6-ton truck (7): two penalty dice, the worst tens die is kept.
    penalty = maneuver_penalty_dice(5, vehicle("6-ton truck").build)
    roll = percentile.roll(TableDice([10, 70, 40, 5]), 1, 60, penalty=penalty)
    assert (penalty, roll["result"], roll["level"]) == (2, 75, "failure")


def test_only_full_points_of_build_difference_count():
    assert maneuver_penalty_dice(vehicle("Bicycle").build, 1) == 0
    assert maneuver_penalty_dice(vehicle("Bicycle").build, 2) == 1


def test_the_cultists_truck_pushes_harveys_car_into_the_ditch():
    # The truck is bigger than Harvey's car: no penalty dice. Cultist Hard, Harvey Regular (Drive
    # Auto in place of Dodge): the cultist wins. Automatic "minor incident": 1 Build, 2 (1D3)
    # movement actions and 2 hit points for Harvey.
    penalty = maneuver_penalty_dice(vehicle("6-ton truck").build, vehicle("Car, standard").build)
    cultist = percentile.roll(TableDice([20, 5], "Keeper"), 1, 60, penalty=penalty)
    harvey = percentile.roll(TableDice([40, 0], "Harvey's player"), 2, 50)
    exchange = resolve(cultist["level"], harvey["level"], "dodge")

    ditch = maneuver_consequences(target_is_vehicle=True)
    build = roll_damage(TableDice([2]), 3, ditch.damage)
    lost = roll_damage(TableDice([2]), 4, ditch.lost_movement_actions)
    hurt = roll_damage(TableDice([3]), 5, ditch.occupant_damage)
    car = lose_build(starting_build(5), build["amount"])

    assert penalty == 0 and (cultist["level"], harvey["level"]) == ("hard", "regular")
    assert exchange.winner == "attacker" and exchange.target_hit
    assert (ditch.incident.name, ditch.damage) == ("Minor incident", "1D3-1")
    assert (build["amount"], lost["amount"], hurt["amount"]) == (1, 2, 2)
    assert car.build_after == 4


def test_harvey_throws_the_farmer_over_the_fence():
    # Both Build 0: no penalty dice. The farmer lunges (Failure); Harvey answers with a maneuver
    # (Regular) and wins. The Keeper calls for DEX as if a hazard; failed: "minor injury" 3 (1D3)
    # and 1 (1D3) movement action. The farmer spent 1 of his 2 on the attack, so none are left.
    penalty = maneuver_penalty_dice(0, 0)
    farmer_actions = 2 - attack_cost(same_location=True, firearm=False, movement_actions_left=2)
    farmer = percentile.roll(TableDice([70, 3]), 1, 45)
    harvey = percentile.roll(TableDice([30, 8], "Harvey's player"), 2, 50, penalty=penalty)
    exchange = resolve(farmer["level"], harvey["level"], "maneuver")

    landing = hazard("thrown over the fence", 0, "DEX")
    dex = percentile.roll(TableDice([90, 0]), 3, 50)
    outcome = hazard_outcome(landing, dex["level"], vehicle=False, incident="minor")
    hurt = roll_damage(TableDice([3]), 4, outcome.consequences.damage)
    lost = roll_damage(TableDice([1]), 5, outcome.consequences.lost_movement_actions)
    delay = lose_movement_actions(lost["amount"], farmer_actions)

    assert penalty == 0 and (farmer["level"], harvey["level"]) == ("failure", "regular")
    assert exchange.winner == "defender" and exchange.attacker_hit and not exchange.target_hit
    assert (dex["level"], outcome.passed) == ("failure", False)
    assert (hurt["amount"], lost["amount"]) == (3, 1)
    assert (delay.movement_actions_left, delay.owed) == (0, 0)


def test_a_maneuver_fought_back_to_a_tie_succeeds_and_dodged_to_a_tie_fails():
    assert resolve("regular", "regular", "fight back").target_hit
    assert not resolve("regular", "regular", "dodge").target_hit


def test_a_successful_maneuver_on_a_character_defaults_to_a_minor_injury_and_1d3_delay():
    tripped = maneuver_consequences(target_is_vehicle=False)
    assert (tripped.damage, tripped.lost_movement_actions, tripped.occupant_damage) == ("1D3", "1D3", None)
    assert maneuver_consequences(target_is_vehicle=False, incident=None).damage is None
