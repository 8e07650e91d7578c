"""Hazards and barriers: coc7e-chases.txt "Hazards", "Skills and Hazards", "Barriers",
"Breaking Down Barriers", "Sample Barriers and Hit Points".

Skill rolls are percentile rolls of table dice (tens faces first, then the units die).
"""
from __future__ import annotations

import pytest

from domain.dice import TableDice
from domain.rules.coc7e import percentile
from domain.rules.coc7e.damage import lose_movement_actions, roll_damage
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.movement import allotment
from domain.rules.coc7e.obstacles import (
    BARRIER_PRESETS,
    attempt,
    barrier,
    barrier_from_preset,
    barrier_outcome,
    break_down,
    debris,
    hazard,
    hazard_outcome,
    ram,
    ramming_dice,
)
from domain.rules.coc7e.vehicle_charts import vehicle
from domain.rules.coc7e.vehicles import starting_build, take_damage

MUD = hazard("rough muddy track", 3, "DEX")


def test_a_hazard_lies_between_two_adjacent_locations():
    assert (MUD.from_location, MUD.to_location, MUD.skills, MUD.difficulty) == (3, 4, ("DEX",), "regular")


def test_a_hazard_needs_a_skill_and_one_of_the_three_difficulties():
    with pytest.raises(InvalidCommand):
        hazard("crowd", 1, [])
    with pytest.raises(InvalidCommand):
        hazard("crowd", 1, "Dodge", difficulty="critical")


# -- Cautious or reckless ------------------------------------------------------------------------


def test_reckless_costs_only_the_move():
    try_it = attempt(MUD, "DEX", movement_actions_left=1)
    assert (try_it.approach, try_it.bonus_dice, try_it.movement_actions_spent) == ("reckless", 0, 1)


@pytest.mark.parametrize("caution", [1, 2])
def test_caution_buys_one_bonus_die_per_movement_action(caution):
    try_it = attempt(MUD, "dex", movement_actions_left=3, caution=caution)
    assert (try_it.approach, try_it.skill, try_it.bonus_dice, try_it.movement_actions_spent) == ("cautious", "DEX", caution, caution + 1)


def test_caution_with_two_bonus_dice_keeps_the_lowest_roll():
    river = hazard("river", 0, ["Swim", "Climb"], "hard")
    try_it = attempt(river, "Swim", movement_actions_left=4, caution=2)

    roll = percentile.roll(TableDice([80, 20, 60, 4]), 1, 50, difficulty=try_it.difficulty, bonus=try_it.bonus_dice)

    assert (roll["result"], roll["level"]) == (24, "hard")
    assert hazard_outcome(river, roll["level"], vehicle=False).passed


def test_caution_is_at_most_two_dice_and_never_more_than_the_actions_left():
    with pytest.raises(RuleBroken):
        attempt(MUD, "DEX", movement_actions_left=5, caution=3)
    with pytest.raises(RuleBroken) as refused:
        attempt(MUD, "DEX", movement_actions_left=2, caution=2)  # 2 for caution + 1 to move on
    assert "Hazards" in refused.value.rule


def test_an_accelerated_move_has_paid_for_the_step_and_brings_penalty_dice():
    try_it = attempt(hazard("traffic", 5, "Drive Auto", "hard"), "Drive Auto", 0, movement_cost=0, penalty_dice=1)
    assert (try_it.movement_actions_spent, try_it.penalty_dice) == (0, 1)


def test_a_skill_the_keeper_did_not_name_needs_the_keepers_acceptance():
    with pytest.raises(RuleBroken) as refused:
        attempt(MUD, "Jump", movement_actions_left=1)
    assert "Skills and Hazards" in refused.value.rule
    assert attempt(MUD, "Jump", movement_actions_left=1, keeper_accepts_skill=True).skill == "Jump"


# -- Hazard outcomes -----------------------------------------------------------------------------


def test_harvey_passes_the_mud_and_moves_on_unharmed():
    roll = percentile.roll(TableDice([40, 5]), 1, 55)  # DEX 55, rolled 45
    outcome = hazard_outcome(MUD, roll["level"], vehicle=False)
    assert outcome.passed and outcome.moves_on and outcome.consequences.harmless


def test_the_farmer_slips_in_the_mud_takes_2_and_owes_a_movement_action_next_round():
    # "Skills and Hazards": DEX failed; the Keeper chooses Moderate Injury, 2 (1D6) damage; 1
    # (1D3) movement action lost; he has none left, so it costs one of his two next round.
    roll = percentile.roll(TableDice([80, 0]), 5, 50)
    outcome = hazard_outcome(MUD, roll["level"], vehicle=False, incident="moderate injury")

    hurt = roll_damage(TableDice([2]), 6, outcome.consequences.damage)
    lost = roll_damage(TableDice([1]), 7, outcome.consequences.lost_movement_actions)
    delay = lose_movement_actions(lost["amount"], movement_actions_left=0)

    assert (roll["level"], outcome.passed, outcome.moves_on) == ("failure", False, True)
    assert (outcome.consequences.damage, hurt["amount"]) == ("1D6", 2)
    assert (delay.owed, delay.movement_actions_left) == (1, 0)
    assert allotment(6, 5, owed=delay.owed) == (1, 0)  # MOV 6 against Harvey's 5: 2 a round, 1 paid


@pytest.mark.parametrize("difficulty, dice", [("regular", "1D3-1"), ("hard", "1D6"), ("extreme", "1D10")])
def test_a_vehicle_failing_a_hazard_suffers_the_default_collision_for_its_difficulty(difficulty, dice):
    bend = hazard("hairpin bend", 2, "Drive Auto", difficulty)
    outcome = hazard_outcome(bend, "failure", vehicle=True)
    assert (outcome.moves_on, outcome.consequences.damage, outcome.consequences.occupant_damage) == (True, dice, dice)
    assert outcome.consequences.lost_movement_actions == "1D3"


def test_a_hard_hazard_needs_a_hard_success():
    jam = hazard("traffic jam", 2, "Drive Auto", "hard")
    assert not hazard_outcome(jam, "regular", vehicle=True).passed
    assert hazard_outcome(jam, "hard", vehicle=True).passed


def test_the_keeper_may_rule_a_failed_hazard_only_delays():
    # "Characters Creating Hazards": failing to weave through a crowd only slows Harvey.
    crowd = hazard("crowd", 1, "DEX")
    outcome = hazard_outcome(crowd, "failure", vehicle=False, incident=None)
    assert outcome.consequences.damage is None and outcome.consequences.lost_movement_actions == "1D3"


# -- Barriers ------------------------------------------------------------------------------------


def test_a_failed_barrier_roll_means_no_progress_and_by_default_nothing_worse():
    wall = barrier("7-foot wall", 4, ["Climb", "Jump"])
    roll = percentile.roll(TableDice([90, 1]), 1, 40)

    outcome = barrier_outcome(wall, roll["level"], vehicle=False)

    assert (outcome.passed, outcome.moves_on) == (False, False)
    assert outcome.consequences.harmless


def test_the_keeper_may_give_a_failed_barrier_damage_and_delay_as_a_hazard_does():
    window = barrier("second-floor window", 0, "Climb")
    outcome = barrier_outcome(window, "fumble", vehicle=False, incident="minor", delay=True)
    assert (outcome.moves_on, outcome.consequences.damage, outcome.consequences.lost_movement_actions) == (False, "1D3", "1D3")


def test_a_passed_barrier_lets_one_through():
    door = barrier("locked door", 2, ["Locksmith", "STR"], hit_points=15)
    assert barrier_outcome(door, "regular", vehicle=False).moves_on


def test_hazards_and_barriers_are_not_confused():
    with pytest.raises(InvalidCommand):
        hazard_outcome(barrier("chasm", 1, "Jump"), "failure", vehicle=False)
    with pytest.raises(InvalidCommand):
        barrier_outcome(MUD, "failure", vehicle=False)


@pytest.mark.parametrize(
    "name, hit_points",
    [
        ("Internal door or thin wooden fence", 5),
        ("Standard back door", 10),
        ("Strong domestic external door", 15),
        ('9" brick wall', 25),
        ("Mature tree", 50),
        ("Concrete bridge support", 100),
    ],
)
def test_each_sample_barrier_has_its_printed_hit_points(name, hit_points):
    b = barrier_from_preset(name, 3, "STR")
    assert (b.name, b.hit_points, b.starting_hit_points, b.blocks) == (name, hit_points, hit_points, True)
    assert all(p.source == 'coc7e-chases.txt "Sample Barriers and Hit Points"' for p in BARRIER_PRESETS)


# -- Breaking down barriers ----------------------------------------------------------------------


def test_a_character_kicks_a_door_down_over_several_blows_without_attack_rolls():
    door = barrier_from_preset("Standard back door", 2, ["Locksmith", "STR"])
    kick = roll_damage(TableDice([3, 2]), 1, "1D3+1D4")  # 1D3 unarmed + damage bonus 1D4

    first = break_down(door, kick["amount"])
    second = break_down(first.barrier_after, 6)

    assert (first.barrier_after.hit_points, first.destroyed, first.barrier_after.blocks) == (5, False, True)
    assert second.destroyed and not second.barrier_after.blocks
    with pytest.raises(RuleBroken):
        break_down(second.barrier_after, 1)


def test_a_barrier_without_hit_points_cannot_be_broken_down():
    with pytest.raises(RuleBroken):
        break_down(barrier("chasm", 1, "Jump"), 10)


def test_a_car_ramming_through_a_roadblock_takes_half_its_hit_points():
    car = starting_build(vehicle("Car, standard").build)
    roadblock = barrier("police roadblock", 6, "Drive Auto", hit_points=25)
    dice = ramming_dice(car.starting)
    smash = ram(roadblock, roll_damage(TableDice([8, 7, 2, 5, 3]), 1, dice)["amount"])

    assert dice == "5D10" and smash.destroyed and not smash.vehicle_wrecked
    assert smash.vehicle_damage == 12  # half of 25, round down
    assert take_damage(car, smash.vehicle_damage).build_after == 4


def test_a_car_that_fails_to_break_through_is_wrecked():
    car_dice = ramming_dice(vehicle("Car, economy").build)  # Build 4
    tree = barrier_from_preset("Mature tree", 6, "Drive Auto")

    smash = ram(tree, roll_damage(TableDice([9, 9, 9, 9]), 1, car_dice)["amount"])

    assert smash.vehicle_wrecked and not smash.destroyed
    assert (smash.barrier_after.hit_points, smash.vehicle_damage) == (14, 0)


def test_destroying_a_bridge_support_can_wreck_the_car_that_did_it():
    support = barrier_from_preset("Concrete bridge support", 1, "Drive Auto")
    smash = ram(support, 100)
    hit = take_damage(starting_build(5), smash.vehicle_damage)  # 50 hit points: 5 Build in one go
    assert smash.destroyed and hit.wrecked


def test_a_bicycle_rams_nothing_down():
    assert ramming_dice(vehicle("Bicycle").build) == "0"
    fence = barrier_from_preset("Internal door or thin wooden fence", 0, "Climb")
    assert ram(fence, 0).vehicle_wrecked


def test_the_keeper_may_leave_the_debris_as_a_hazard():
    wall = barrier_from_preset('9" brick wall', 7, "Climb")
    smashed = ram(wall, 30).barrier_after

    rubble = debris(smashed, ["Drive Auto"], "hard")

    assert (rubble.name, rubble.from_location, rubble.difficulty) == ('Debris of 9" brick wall', 7, "hard")
    with pytest.raises(RuleBroken):
        debris(wall, "DEX")
    with pytest.raises(RuleBroken):
        attempt(smashed, "Climb", 1)  # no longer a barrier
