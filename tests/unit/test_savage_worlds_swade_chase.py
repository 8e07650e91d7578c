"""SWADE chases (swade-chases-reference.txt): the row, range, maneuvers and Complications.

Rolls come from table dice so each maneuver's outcome is forced; faces are listed trait die
first, then the Wild Die (then any ace rerolls).
"""
from __future__ import annotations

import pytest

from domain.dice import TableDice
from domain.rules.savage_worlds import swade_chase as chase
from domain.rules.savage_worlds.cards import FULL_DECK, Deck, card, faces_for_order
from domain.rules.savage_worlds.dice import trait_roll
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken
from domain.rules.savage_worlds.swade_tables import (
    COMPLICATIONS,
    critical_failure_row,
    range_increment,
)


def roll(faces: list[int], modifier: int = 0, sequence: int = 1):
    return trait_roll(TableDice(faces), sequence, "d8", modifier=modifier)


FAIL, SUCCESS, RAISE = [2, 3], [5, 2], [7, 5]  # totals 3, 5 and 7+2=9 (with +2 below)
CRITICAL = [1, 1]


# -- set-up: the row and the Range ---------------------------------------------------------------


@pytest.mark.parametrize(
    "mode, increment",
    [("foot", 5), ("mounted", 5), ("vehicular", 5), ("airplane", 25), ("sailing ship", 25), ("jet", 50), ("starship", 50)],
)
def test_range_increments_by_type_of_chase(mode, increment):
    assert range_increment(mode) == increment
    # Three cards from the attacker's card (his own not counted) is three increments.
    assert chase.range_between(2, 5, mode) == 3 * increment == chase.range_between(5, 2, mode)
    assert chase.range_between(4, 4, mode) == 0


def test_an_unknown_type_of_chase_is_refused():
    with pytest.raises(InvalidValue, match="SETUP"):
        range_increment("submarine")


def test_nine_chase_cards_are_dealt_in_a_row_by_default():
    top = [card(c) for c in ("QH", "2C", "AS", "Red Joker", "7D", "3S", "KC", "9H", "4D", "5S")]
    rest = [c for c in FULL_DECK if c not in top]
    dice = TableDice(faces_for_order(FULL_DECK, top + rest))
    row, deck = chase.deal_row(Deck.shuffled_from(1), dice)
    assert [c.code for c in row] == ["QH", "2C", "AS", "RJ", "7D", "3S", "KC", "9H", "4D"]
    assert len(deck.undealt) == 45
    assert chase.extend_row_for(9, 10) == (0, 2) and chase.extend_row_for(9, -1) == (1, 0) and chase.extend_row_for(9, 4) == (0, 0)


# -- Change Position and Dropping Back -----------------------------------------------------------


def test_change_position_one_card_on_a_success_two_with_a_raise():
    assert chase.change_position_cards(roll(FAIL)) == 0
    assert chase.change_position_cards(roll(SUCCESS)) == 1
    assert chase.change_position_cards(roll([7, 5], modifier=1)) == 2  # 8: a raise
    assert chase.change_position_cards(roll(CRITICAL, modifier=6)) == 0


def test_change_position_as_an_action_adds_two_and_speed_adds_one_or_two():
    assert chase.change_position_modifier(as_action=False) == 0
    assert chase.change_position_modifier(as_action=True) == 2
    assert chase.change_position_modifier(False, top_speed=60, fastest_rival=50) == 1
    assert chase.change_position_modifier(True, top_speed=100, fastest_rival=50) == 4
    assert chase.speed_bonus(50, 50) == 0 and chase.speed_bonus(40, 50) == 0


def test_change_position_once_per_turn_and_not_after_dropping_back():
    chase.check_change_position(chase.TurnManeuvers())
    with pytest.raises(RuleBroken, match="once per turn"):
        chase.check_change_position(chase.TurnManeuvers(changed_position=True))
    with pytest.raises(RuleBroken, match="Dropping Back"):
        chase.check_change_position(chase.TurnManeuvers(dropped_back=True))


def test_dropping_back_one_or_two_cards_in_a_linear_chase():
    assert chase.drop_back(1) == 1 and chase.drop_back(2) == 2
    with pytest.raises(RuleBroken):
        chase.drop_back(3)
    with pytest.raises(RuleBroken, match="linear"):
        chase.drop_back(1, linear=False)


# -- Evade, Hold Steady and attacks --------------------------------------------------------------


def test_evade_penalises_attacks_both_ways_and_only_once_a_round():
    assert chase.evade_penalty(as_action=False) == -2 and chase.evade_penalty(as_action=True) == -4
    assert chase.attack_modifier(target_evading=-2) == -2  # attacks against him
    assert chase.attack_modifier(attacker_evading=-4) == -4  # and his own attacks
    chase.check_evade(evaded_this_round=False)
    with pytest.raises(RuleBroken, match="does not stack"):
        chase.check_evade(evaded_this_round=True)


def test_hold_steady_gives_two_against_not_stacking_with_vulnerable_and_steadies_the_aim():
    assert chase.attack_modifier(target_holding_steady=True) == 2
    assert chase.attack_modifier(target_holding_steady=True, target_vulnerable=True) == 2
    assert chase.attack_modifier(attacker_on_unstable_platform=True, attacker_running=True) == -4
    assert chase.attack_modifier(attacker_on_unstable_platform=True, attacker_running=True, attacker_holding_steady=True) == 0


# -- Flee ----------------------------------------------------------------------------------------


def test_flee_is_refused_at_three_cards():
    with pytest.raises(RuleBroken, match="at least four"):
        chase.flee_modifier(3)


@pytest.mark.parametrize("cards, modifier", [(4, -4), (5, -2), (6, 0), (9, 0)])
def test_flee_penalty_by_cards_to_the_closest_foe(cards, modifier):
    assert chase.flee_modifier(cards) == modifier
    # A 6 on the d8 escapes at every distance of four or more...
    assert chase.flee_escapes(roll([8, 2, 2], modifier)) is True  # 8 aced then 2: 10
    # ...a 5 escapes only where the penalty is -0 ... -1.
    assert chase.flee_escapes(roll([5, 1], modifier)) is (modifier == 0)


def test_cards_between_counts_like_the_range():
    assert chase.cards_apart(1, 5) == 4 and chase.flee_modifier(chase.cards_apart(8, 4)) == -4


# -- Force and Bump ------------------------------------------------------------------------------


def test_force_needs_the_same_card():
    with pytest.raises(RuleBroken, match="same Chase Card"):
        chase.force(roll(SUCCESS), roll(FAIL), same_card=False)


def test_force_a_win_bumps_a_raise_is_a_critical_failure_a_critical_failure_backfires():
    win = chase.force(roll([6, 2]), roll([5, 2]), same_card=True)
    assert (win.winner, win.bumped, win.defender_critical_failure, win.backfired) == ("attacker", True, False, False)
    big = chase.force(roll([8, 1, 3]), roll([5, 2]), same_card=True)  # 11 against 5: a raise
    assert big.bumped and big.defender_critical_failure
    tie = chase.force(roll([5, 2]), roll([5, 2]), same_card=True)
    assert tie.winner == "defender" and not tie.bumped
    backfire = chase.force(roll(CRITICAL), roll([5, 2]), same_card=True)
    assert backfire.backfired and not backfire.bumped


def test_a_bump_moves_one_card_either_way_once_per_target_per_turn():
    assert chase.bump(4, +1) == 5 and chase.bump(4, -1) == 3 and chase.bump(4, -1, cards=2) == 2
    with pytest.raises(InvalidValue):
        chase.bump(4, 0)
    chase.check_bump(chase.TurnManeuvers(bumped=frozenset({"van"})), "car")
    with pytest.raises(RuleBroken, match="more than once per turn"):
        chase.check_bump(chase.TurnManeuvers(bumped=frozenset({"van"})), "van")


# -- Complications by the suit of the current Chase Card -----------------------------------------


def test_a_complication_comes_with_a_club_action_card_only():
    assert chase.complication_due(card("2C")) and chase.complication_due(card("AC"))
    assert not any(chase.complication_due(card(c)) for c in ("2S", "AH", "KD", "Red Joker", "BJ"))


@pytest.mark.parametrize(
    "chase_card, modifier, failure, bumped, critical",
    [
        ("7S", 0, "critical failure", 0, True),
        ("7H", 0, "bumped", 1, False),
        ("7D", -2, "bumped", 1, False),
        ("7C", -2, "critical failure", 0, True),
        ("Red Joker", +2, "bumped", 2, False),
    ],
)
def test_each_suit_of_the_chase_card(chase_card, modifier, failure, bumped, critical):
    row = chase.complication(card(chase_card))
    assert (row.modifier, row.failure) == (modifier, failure)
    # An Extra's d4 showing 1 (the check d6 shows 3: no Critical Failure) fails even at +2.
    extra_fails = trait_roll(TableDice([1, 3]), 1, "d4", wild_card=False, modifier=modifier)
    failed = chase.complication_outcome(card(chase_card), extra_fails)
    assert (failed.avoided, failed.bumped_cards, failed.critical_failure) == (False, bumped, critical)
    avoided = chase.complication_outcome(card(chase_card), roll([6, 3], modifier))
    assert avoided.avoided and avoided.bumped_cards == 0 and not avoided.critical_failure


def test_a_critical_failure_on_a_complication_roll_is_a_critical_failure_too():
    outcome = chase.complication_outcome(card("7H"), roll(CRITICAL))
    assert outcome.bumped_cards == 1 and outcome.critical_failure
    assert set(COMPLICATIONS) == {"Spades", "Hearts", "Diamonds", "Clubs", "Joker"}


# -- Critical Failures on maneuvering skills by mode ---------------------------------------------


@pytest.mark.parametrize(
    "mode, face, effect",
    [
        ("mounted", 1, "loses turn"), ("mounted", 2, "loses turn"),
        ("mounted", 3, "mount fatigue"), ("mounted", 4, "mount fatigue"),
        ("mounted", 5, "rider fatigue"), ("mounted", 6, "rider fatigue"),
        ("foot", 1, "fatigue"), ("foot", 2, "loses turn"), ("foot", 3, "fatigue"),
        ("foot", 4, "loses turn"), ("foot", 5, "fatigue"), ("foot", 6, "loses turn"),
        ("vehicle", None, "out of control"),
    ],
)
def test_critical_failure_by_mode(mode, face, effect):
    row = critical_failure_row(mode, face)
    assert row.effect == effect and "CRITICAL FAILURE ON MANEUVERING SKILLS" in row.source


def test_critical_failure_needs_a_known_mode_and_a_d6_face():
    with pytest.raises(InvalidValue):
        critical_failure_row("swimming", 3)
    with pytest.raises(InvalidValue):
        critical_failure_row("mounted", 7)
