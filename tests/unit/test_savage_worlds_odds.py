"""Exact odds of Savage Worlds rolls, checked against every way the dice can fall -- as far as
aces go.

Aces have no end, so the brute force rolls every ace chain of up to K dice per die, reading each
combination with the engine's own trait_roll / opposed / damage_roll from table dice. What it
leaves out is exactly the rolls in which some die aced K times running; its chance (the
truncation bound) is at most the sum over the dice of (1/sides)^K. So for every outcome:
    enumerated <= exact <= enumerated + left out,   and   left out <= the bound.
"""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Iterator

import pytest

from domain.dice import TableDice
from domain.rules.savage_worlds import odds
from domain.rules.savage_worlds.damage import damage_dice, damage_roll
from domain.rules.savage_worlds.dice import TraitRoll, opposed, trait_die, trait_roll

K = 3  # dice per ace chain in the brute force of opposed and damage rolls
TRAIT_K = 5  # ... and of single trait rolls


def chains(sides: int, depth: int = K) -> Iterator[tuple[list[int], Fraction]]:
    """Every face chain of an acing die with at most ``depth`` dice, and its chance."""
    for aces in range(depth):
        for last in range(1, sides):
            yield [sides] * aces + [last], Fraction(1, sides) ** (aces + 1)


def trait_rolls(die: str, wild_card: bool, modifier: int = 0, joker: bool = False, target: int = 4, depth: int = K) -> Iterator[tuple[TraitRoll, Fraction]]:
    """Every trait roll with chains of at most ``depth`` dice, read by the engine from table dice."""
    sides = trait_die(die).sides
    wild = list(chains(6, depth)) if wild_card else [([], Fraction(1))]
    for (trait, p), (wild_faces, q) in itertools.product(chains(sides, depth), wild):
        # Base dice first, then each base die's rerolls (domain/rules/savage_worlds/acing.py).
        faces = [trait[0]] + wild_faces[:1] + trait[1:] + wild_faces[1:]
        checks = [[c] for c in range(1, 7)] if not wild_card and trait[0] == 1 else [[]]
        for check in checks:
            chance = p * q * (Fraction(1, 6) if check else 1)
            yield trait_roll(TableDice(faces + check), 1, die, wild_card=wild_card, modifier=modifier, target_number=target, joker=joker), chance


def bound(*sides: int, depth: int = K) -> Fraction:
    return sum((Fraction(1, s) ** depth for s in sides), Fraction(0))


def assert_within(exact: dict[str, Fraction], enumerated: Counter[str], limit: Fraction) -> None:
    left_out = 1 - sum(enumerated.values(), Fraction(0))
    assert 0 <= left_out <= limit
    assert set(enumerated) <= set(exact)
    for outcome, chance in exact.items():
        assert enumerated[outcome] <= chance <= enumerated[outcome] + left_out, outcome


CASES = [
    ("d8", True, 0, False, 4),
    ("d4", True, 0, False, 4),
    ("d6", False, 0, False, 4),
    ("d12+2", True, -2, False, 6),
    ("d4-2", False, 0, False, 4),
    ("d10", True, 5, True, 4),  # a +5 and the Joker: two 1s total 8 and still fail
    ("d6", True, -3, False, 8),
]


@pytest.mark.parametrize("die, wild_card, modifier, joker, target", CASES)
def test_each_outcome_of_a_trait_roll_is_within_the_enumeration_and_its_bound(die, wild_card, modifier, joker, target) -> None:
    # Given every trait roll with ace chains of up to K dice, read by the engine
    enumerated: Counter[str] = Counter()
    for roll, chance in trait_rolls(die, wild_card, modifier, joker, target, TRAIT_K):
        enumerated[odds.trait_outcome(roll.raises, roll.success, roll.critical_failure)] += chance
    # Then each exact chance lies between the enumeration and it plus what was left out
    exact = odds.trait_odds(odds.trait_chances(die, wild_card=wild_card, modifier=modifier, joker=joker), target)
    assert_within(dict(exact.outcomes), enumerated, bound(trait_die(die).sides, *([6] if wild_card else []), depth=TRAIT_K))


def test_a_d8_wild_card_against_4_succeeds_13_in_16_and_critically_fails_1_in_48() -> None:
    # Given a Wild Card with d8 and the Wild Die against the standard Target Number 4
    d8 = odds.trait_odds(odds.trait_chances("d8"), 4)
    # Then it fails only when both dice show 1-3: 3/8 * 1/2 = 3/16, so it succeeds exactly 13/16;
    # both dice on 1 is 1/8 * 1/6 = 1/48 (the published figures, exact)
    assert d8.success == Fraction(13, 16)
    assert d8.outcomes["critical failure"] == Fraction(1, 48)
    assert d8.outcomes["failure"] == Fraction(3, 16) - Fraction(1, 48)


def test_the_joker_adds_two() -> None:
    # Given a d6 Extra against 6: a 6 (an ace) is needed, 1/6, or more with the Joker's +2
    plain = odds.trait_odds(odds.trait_chances("d6", wild_card=False), 6)
    joker = odds.trait_odds(odds.trait_chances("d6", wild_card=False, joker=True), 6)
    assert plain.success == Fraction(1, 6)
    assert joker.success == Fraction(1, 2)  # 4, 5 or 6 on the d6


def test_critical_failure_beats_any_modifier() -> None:
    # Given a d10 Wild Card at +5 with the Joker against 4: even two 1s total 8
    boosted = odds.trait_odds(odds.trait_chances("d10", modifier=5, joker=True), 4)
    # Then it succeeds every time except on the two 1s
    assert boosted.outcomes["critical failure"] == Fraction(1, 60)
    assert boosted.outcomes["failure"] == 0
    assert boosted.success == Fraction(59, 60)


@pytest.mark.parametrize(
    "attacker, defender, target",
    [
        (("d8", True, 0), ("d8", True, 0), 4),
        (("d6", False, 0), ("d10", True, -2), 4),
        (("d12", True, 2), ("d4", False, 0), 4),
    ],
)
def test_who_wins_an_opposed_roll_is_within_the_enumeration_and_its_bound(attacker, defender, target) -> None:
    # Given every pair of rolls with ace chains of up to K dice, compared by the engine's opposed()
    a_rolls = list(trait_rolls(attacker[0], attacker[1], attacker[2], target=target))
    d_rolls = list(trait_rolls(defender[0], defender[1], defender[2], target=4))
    enumerated: Counter[str] = Counter()
    for (a, p), (d, q) in itertools.product(a_rolls, d_rolls):
        result = opposed(a, d)
        name = "defender" if result.winner == "defender" else ("attacker with a raise" if result.raises else "attacker")
        enumerated[name] += p * q
    # Then the exact odds lie within it; what was left out is a roll left out on either side
    exact = odds.opposed_odds(odds.trait_chances(attacker[0], wild_card=attacker[1], modifier=attacker[2]), odds.trait_chances(defender[0], wild_card=defender[1], modifier=defender[2]), target)
    sides = [trait_die(attacker[0]).sides, trait_die(defender[0]).sides] + [6] * (attacker[1] + defender[1])
    assert_within(dict(exact.outcomes), enumerated, bound(*sides))


@pytest.mark.parametrize("attacker, defender", [(("d8", True, 0), ("d8", True, 0)), (("d4", False, 3), ("d12", True, -1))])
def test_the_closed_form_tail_of_an_opposed_roll_agrees_with_a_long_truncated_sum(attacker, defender) -> None:
    # Given the opposed roll summed term by term over every defender total below N = 300 (the
    # engine's exact chance of each total), leaving out at most P(the defender totals N or more)
    a = odds.trait_chances(attacker[0], wild_card=attacker[1], modifier=attacker[2])
    d = odds.trait_chances(defender[0], wild_card=defender[1], modifier=defender[2])
    n = 300
    wins = d.critical * a.succeeding_at_least(4)
    for total in range(d.constant + 1, n):
        not_critical = d.exactly(total) - (d.critical if total == d.critical_total else 0)
        wins += not_critical * a.succeeding_at_least(max(4, total + 1))
    # Then the closed form (which sums the tail exactly) is within that of it
    exact = odds.opposed_odds(a, d, 4).success
    assert 0 <= exact - wins <= d.at_least(n) < Fraction(1, 10**15)


def test_equal_opponents_favour_the_defender_who_wins_ties() -> None:
    even = odds.opposed_odds(odds.trait_chances("d8"), odds.trait_chances("d8"))
    assert even.outcomes["defender"] > Fraction(1, 2)
    assert even.successes == {"attacker", "attacker with a raise"}


@pytest.mark.parametrize("expression, raise_bonus, joker", [("2d6", False, False), ("d8+d4", False, True), ("d6", True, False)])
def test_each_damage_total_is_within_the_enumeration_and_its_bound(expression, raise_bonus, joker) -> None:
    # Given every damage roll with ace chains of up to K dice
    sides = [die.sides for die in damage_dice(expression, raise_bonus=raise_bonus)[0]]
    enumerated: Counter[str] = Counter()
    recorded = None
    for combo in itertools.product(*[list(chains(s)) for s in sides]):
        faces = [c[0][0] for c in combo] + [f for c in combo for f in c[0][1:]]
        roll = damage_roll(TableDice(faces), 1, expression, raise_bonus=raise_bonus, joker=joker).record()
        recorded = recorded or roll
        exact_odds = odds.roll_odds(roll)
        assert exact_odds is not None
        listed = exact_odds.outcomes
        name = str(roll["total"]) if str(roll["total"]) in listed else next(k for k in listed if k.endswith("+"))
        enumerated[name] += _product(c[1] for c in combo)
    # Then each listed total (and the open-ended last band) lies within it and its bound
    assert_within(dict(odds.roll_odds(recorded).outcomes), enumerated, bound(*sides))


def _product(chances) -> Fraction:
    out = Fraction(1)
    for c in chances:
        out *= c
    return out


def test_a_recorded_trait_roll_has_the_odds_of_its_die_modifiers_and_target() -> None:
    # Given a Wild Card's d8 roll with a -2 against 4, as recorded
    record = trait_roll(TableDice([5, 2]), 3, "d8", modifier=-2).record()
    recorded = odds.roll_odds(record)
    # Then its odds are those of that roll, and its outcome ("failure": 5-2 = 3) is one of them
    assert recorded == odds.trait_odds(odds.trait_chances("d8", modifier=-2), 4).had("failure")
    assert recorded.observed == "failure"


def test_a_roll_with_more_raises_than_listed_had_the_open_ended_band() -> None:
    # Given a d6 Extra that aced three times (6, 6, 6, 5 = 23: 4 raises over 4, and more with +4)
    record = trait_roll(TableDice([6, 6, 6, 5]), 1, "d6", wild_card=False, modifier=4).record()
    assert record["raises"] == 5
    # Then it had "raise 4+"
    assert odds.roll_odds(record).observed == "raise 4+"


def test_a_table_roll_is_plain_dice() -> None:
    from domain.rules.savage_worlds.damage import table_roll

    record = table_roll(TableDice([3, 4]), 2, 2, 6).record()
    recorded = odds.roll_odds(record)
    assert recorded is not None and recorded.outcomes["7"] == Fraction(1, 6) and recorded.outcomes["12"] == Fraction(1, 36)
    assert recorded.observed == "7"


def test_rolls_of_other_systems_are_left_to_them() -> None:
    assert odds.roll_odds({"tens": [], "target": 50}) is None
    assert odds.roll_odds({"expression": "1D3", "total": 2}) is None


def test_damage_dice_too_big_to_list_have_no_odds_rather_than_a_slow_answer() -> None:
    # Given a damage roll of two d100s (an expression the parser takes, far beyond any weapon)
    record = damage_roll(TableDice([50, 40]), 1, "d100+d100").record()
    # Then it has no odds, as a shuffle has none
    assert odds.roll_odds(record) is None
