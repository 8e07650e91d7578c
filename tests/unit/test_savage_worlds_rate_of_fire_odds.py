"""Exact odds of a Rate of Fire roll (core rules "Rate of Fire", "Critical Failures"), checked
against every way the dice can fall, read by the roll itself (rate_of_fire.py)."""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import pytest

from domain.dice import D, TableDice
from domain.rules.savage_worlds.acing import chains_plan
from domain.rules.savage_worlds.dice import WILD_DIE
from domain.rules.savage_worlds.odds import roll_odds
from domain.rules.savage_worlds.rate_of_fire import rate_of_fire_roll
from domain.rules.savage_worlds.rate_of_fire_odds import CRITICAL, hits_outcome, rate_of_fire_odds

ACES = 5  # rolls with more ace rerolls than this are left out; the mass they carry is the bound


def enumerated(sides: int, rof: int, wild_card: bool, modifier: int, target: int) -> tuple[dict[str, Fraction], Fraction]:
    """Every complete roll with at most ACES ace rerolls, read by rate_of_fire_roll, and the mass left out."""
    read = chains_plan([D(sides)] * rof + ([WILD_DIE] if wild_card else []))
    found: dict[str, Fraction] = defaultdict(Fraction)
    left = Fraction(0)
    stack = [((), Fraction(1))]
    while stack:
        faces, chance = stack.pop()
        dice = read(faces)[0]
        if len(dice) <= len(faces):
            roll = rate_of_fire_roll(TableDice(faces), 1, f"d{sides}", rof, wild_card=wild_card, modifier=modifier, target_number=target)
            found[CRITICAL if roll.critical_failure else hits_outcome(sum(roll.hits))] += chance
        elif len(faces) == rof + wild_card + ACES:
            left += chance
        else:
            die = dice[len(faces)]
            stack.extend((faces + (f,), chance / die.sides) for f in range(1, die.sides + 1))
    return found, left


@pytest.mark.parametrize("sides, rof, wild_card, modifier, target", [
    (4, 2, True, -2, 4),  # Recoil: d4 Shooting at RoF 2
    (6, 2, False, 0, 4),  # an Extra
    (4, 3, True, 0, 4),
    (6, 2, True, 3, 4),  # a natural 1 still hits: 1 + 3 >= 4
    (4, 2, True, -2, 9),  # only aces hit
])
def test_the_hit_counts_are_what_every_fall_of_the_dice_gives(sides, rof, wild_card, modifier, target):
    odds = rate_of_fire_odds(sides, rof, wild_card, modifier, target)
    found, left = enumerated(sides, rof, wild_card, modifier, target)
    # Each outcome's exact chance lies between what the enumeration found and that plus what it left out.
    assert sum(odds.outcomes.values()) == 1
    for outcome, chance in odds.outcomes.items():
        assert found.get(outcome, 0) <= chance <= found.get(outcome, 0) + left, outcome
    assert left < Fraction(1, 100)


def test_an_extras_two_dice_on_1_are_a_critical_failure_a_wild_cards_need_the_wild_die_too():
    # Two d6 Shooting dice, more than half on 1 means both: 1/36 for an Extra ...
    assert rate_of_fire_odds(6, 2, False, 0, 4).outcomes[CRITICAL] == Fraction(1, 36)
    # ... and 1/216 for a Wild Card, whose Wild Die must show 1 as well.
    assert rate_of_fire_odds(6, 2, True, 0, 4).outcomes[CRITICAL] == Fraction(1, 216)


def test_a_recorded_rate_of_fire_roll_shows_its_odds_and_the_hits_it_had():
    roll = rate_of_fire_roll(TableDice([5, 2, 3]), 7, "d6", 2, wild_card=True, modifier=0, target_number=4).record()
    odds = roll_odds(roll)
    assert odds is not None and odds.observed == "1 hit"  # 5 hits, 2 misses, and so does the Wild Die's 3
    assert odds.success == 1 - odds.outcomes["0 hits"] - odds.outcomes[CRITICAL]
