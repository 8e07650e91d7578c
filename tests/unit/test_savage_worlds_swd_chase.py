"""Savage Worlds Deluxe chases (swd-chases.txt): length, maneuver roll, Action cards, Advantage,
Complications on Clubs, attack range by the card, Force and how the chase ends."""
from __future__ import annotations

import pytest

from domain.dice import TableDice
from domain.rules.savage_worlds import swd_chase as swd
from domain.rules.savage_worlds.cards import card
from domain.rules.savage_worlds.dice import trait_roll
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken


def roll(faces: list[int], modifier: int = 0, sequence: int = 1):
    return trait_roll(TableDice(faces), sequence, "d8", modifier=modifier)


# -- chase length --------------------------------------------------------------------------------


def test_five_rounds_by_default_or_unlimited():
    assert swd.chase_length() == 5 and swd.chase_length(10) == 10 and swd.chase_length(None) is None
    assert not swd.time_ran_out(4, 5) and swd.time_ran_out(5, 5)
    assert not swd.time_ran_out(500, None)
    with pytest.raises(InvalidValue):
        swd.chase_length(0)


# -- the maneuver roll ---------------------------------------------------------------------------


def test_maneuver_roll_modifiers():
    assert swd.maneuver_modifier() == 0
    assert swd.maneuver_modifier(shaken=True) == -2
    assert swd.maneuver_modifier(speed=61, fastest_opponent_speed=60) == 2
    assert swd.maneuver_modifier(speed=120, fastest_opponent_speed=60) == 4
    assert swd.maneuver_modifier(speed=60, fastest_opponent_speed=60) == 0
    assert swd.maneuver_modifier(climb=2, best_opponent_climb=1) == 2
    assert swd.maneuver_modifier(climb=1, best_opponent_climb=1) == 0
    assert swd.maneuver_modifier(shaken=True, cooperative=3, constant=swd.DIFFICULT_TERRAIN) == -1


def test_a_runner_is_as_fast_as_pace_plus_the_running_die():
    assert swd.foot_speed(6) == 12 and swd.foot_speed(6, running_die=8) == 14


def test_cooperative_rolls_add_one_per_success_and_raise_up_to_four():
    helpers = [roll([5, 2]), roll([8, 1, 1], sequence=2), roll([2, 3], sequence=3)]  # 1, 1+1 (9), 0
    assert swd.cooperative_bonus(helpers) == 3
    assert swd.cooperative_bonus([roll([8, 2, 8, 5])] * 2) == 4  # 21: 1 + 4 raises each


def test_one_action_card_per_success_and_raise_and_the_highest_is_kept():
    assert swd.action_cards_earned(roll([2, 3])) == 0
    assert swd.action_cards_earned(roll([5, 2])) == 1
    assert swd.action_cards_earned(roll([8, 1, 5])) == 3  # 13: two raises
    assert swd.action_cards_earned(roll([1, 1], modifier=10)) == 0
    dealt = [card("7C"), card("QC"), card("9H")]
    assert swd.keep_card(dealt) == card("QC")
    assert swd.keep_card(dealt, keep=card("9H")) == card("9H")  # to avoid a Club
    assert swd.keep_card([]) is None
    with pytest.raises(RuleBroken):
        swd.keep_card(dealt, keep=card("AS"))


# -- Advantage -----------------------------------------------------------------------------------


def test_the_higher_card_has_advantage_equal_cards_attack_each_other():
    assert swd.may_attack(card("KH"), card("5S")) and not swd.may_attack(card("5S"), card("KH"))
    assert swd.may_attack(card("9H"), card("9S")) and swd.may_attack(card("9S"), card("9H"))
    assert swd.may_attack(card("2C"), None) and not swd.may_attack(None, card("2C"))
    assert swd.may_attack(card("Red Joker"), card("AS"))


def test_actions_are_resolved_high_to_low_in_suit_order():
    cards = {"van": card("9H"), "car": card("9S"), "bike": card("KC"), "walker": None, "jet": card("BJ")}
    assert swd.resolution_order(cards) == ["jet", "bike", "car", "van"]


# -- Attack range and Complications by the Action card -------------------------------------------


@pytest.mark.parametrize(
    "text, name, penalty, melee",
    [("2S", "Out of Range", None, False), ("3H", "Long Range", -4, False), ("10D", "Long Range", -4, False),
     ("JS", "Medium Range", -2, False), ("QH", "Medium Range", -2, False), ("KD", "Short Range", 0, True),
     ("AS", "Short Range", 0, True), ("Red Joker", "Short Range", 0, True)],
)
def test_attack_range_by_card_value(text, name, penalty, melee):
    row = swd.attack_range(card(text))
    assert (row.name, row.penalty, row.melee) == (name, penalty, melee)


@pytest.mark.parametrize(
    "text, name, modifier",
    [("2C", "Disaster", -4), ("3C", "Major Obstacle", -2), ("10C", "Major Obstacle", -2), ("JC", "Minor Obstacle", 0),
     ("QC", "Minor Obstacle", 0), ("KC", "Distraction", None), ("AC", "Distraction", None)],
)
def test_complications_on_clubs_by_value(text, name, modifier):
    assert swd.complication_due(card(text))
    row = swd.complication(card(text))
    assert (row.name, row.modifier) == (name, modifier)


def test_no_complication_without_a_club():
    assert not swd.complication_due(card("2S")) and not swd.complication_due(card("Red Joker"))
    with pytest.raises(RuleBroken, match="not a Club"):
        swd.complication(card("5H"))


def test_distracted_a_failed_disaster_or_staying_shaken_stop_the_attack():
    assert swd.can_attack()
    assert not swd.can_attack(distracted=True)
    assert not swd.can_attack(failed_disaster=True)
    assert not swd.can_attack(stayed_shaken=True)


# -- Force ---------------------------------------------------------------------------------------


def test_force_only_the_attacker_takes_the_range_penalty():
    assert swd.force_modifier(card("5H")) == -4 and swd.force_modifier(card("KH")) == 0
    with pytest.raises(RuleBroken, match="Out of Range"):
        swd.force_modifier(card("2H"))


def test_force_a_win_means_an_obstacle_to_avoid_a_raise_means_hitting_it():
    assert swd.force_outcome(roll([6, 2]), roll([5, 2])) == "avoid obstacle"
    assert swd.force_outcome(roll([8, 2, 2]), roll([5, 2])) == "hits obstacle"  # 10 against 5
    assert swd.force_outcome(roll([5, 2]), roll([5, 2])) == "no effect"


# -- how the chase ends --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, outcome",
    [
        ({}, None),
        ({"quarry_incapacitated": True}, "captured"),
        ({"quarry_failed_disaster": True}, "captured"),
        ({"rounds_completed": 5}, "escaped"),
        ({"rounds_completed": 50, "length": None}, None),
        ({"chaser_incapacitated": True}, "escaped"),
        ({"chaser_failed_disaster": True}, "escaped"),
        ({"quarry_failed_disaster": True, "chaser_failed_disaster": True}, "both stopped"),
        ({"quarry_incapacitated": True, "rounds_completed": 5}, "captured"),
    ],
)
def test_how_the_chase_ends(kwargs, outcome):
    assert swd.chase_end(**kwargs) == outcome
