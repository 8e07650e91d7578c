"""Exact odds of a Rate of Fire roll (rate_of_fire.py): how many of its Shooting dice hit.

Core rules "Rate of Fire" and "Critical Failures" as rate_of_fire.py reads them: each Shooting die
(and a Wild Card's Wild Die) aces on its own; the Wild Die takes the place of the lowest Shooting
die it beats, so it adds a hit exactly when it hits and some Shooting die missed; more than half
the Shooting dice on a natural 1 (and, for a Wild Card, the Wild Die on 1 too) is a Critical
Failure that hits nothing. A die is one of three things: a natural 1 (no ace; its total is 1 plus
the constant, which may still hit), a hit that is no 1, or a miss that is no 1; the dice are
independent, so the counts follow from a product over the dice (exact fractions; the ace tails
are in acing.chance_at_least's closed form).
"""
from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

from domain.odds import Odds
from domain.rules.savage_worlds.acing import chance_at_least
from domain.rules.savage_worlds.dice import JOKER_BONUS, WILD_DIE, trait_die

CRITICAL = "critical failure"


def hits_outcome(hits: int) -> str:
    return f"{hits} hit" if hits == 1 else f"{hits} hits"


def _die(sides: int, constant: int, target_number: int) -> tuple[Fraction, bool, Fraction]:
    """(chance of a natural 1, whether that 1 hits, chance of a hit that is no 1)."""
    one = Fraction(1, sides)
    one_hits = 1 + constant >= target_number
    hit = chance_at_least(sides, target_number - constant)
    return one, one_hits, hit - (one if one_hits else 0)


@lru_cache(maxsize=1024)
def rate_of_fire_odds(sides: int, rate_of_fire: int, wild_card: bool, constant: int, target_number: int) -> Odds:
    """Each outcome of ``rate_of_fire`` Shooting dice of ``sides`` (+ the Wild Die for a Wild Card):
    "critical failure", or "0 hits" .. "N hits"."""
    one, one_hits, hit = _die(sides, constant, target_number)
    miss = 1 - one - hit
    counts: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}  # (natural 1s, hits) -> chance
    for _ in range(rate_of_fire):
        after: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
        for (ones, hits), chance in counts.items():
            after[(ones + 1, hits + one_hits)] += chance * one
            after[(ones, hits + 1)] += chance * hit
            after[(ones, hits)] += chance * miss
        counts = after
    wild = _die(WILD_DIE.sides, constant, target_number) if wild_card else None
    outcomes: dict[str, Fraction] = {CRITICAL: Fraction(0), **{hits_outcome(n): Fraction(0) for n in range(rate_of_fire + 1)}}
    for (ones, hits), chance in counts.items():
        many_ones = ones * 2 > rate_of_fire
        if wild is None:
            outcomes[CRITICAL if many_ones else hits_outcome(hits)] += chance
            continue
        w_one, w_one_hits, w_hit = wild
        w_miss = 1 - w_one - w_hit
        adds = 1 if hits < rate_of_fire else 0
        outcomes[CRITICAL if many_ones else hits_outcome(hits + (adds if w_one_hits else 0))] += chance * w_one
        outcomes[hits_outcome(hits + adds)] += chance * w_hit
        outcomes[hits_outcome(hits)] += chance * w_miss
    successes = frozenset(hits_outcome(n) for n in range(1, rate_of_fire + 1))
    return Odds(outcomes, successes)


def recorded_rate_of_fire_odds(roll: Mapping[str, Any]) -> Odds:
    """The odds of a recorded Rate of Fire roll, with the outcome it had."""
    die = trait_die(roll["trait_die"])
    constant = roll["trait_bonus"] + roll["modifier"] + (JOKER_BONUS if roll["joker"] else 0)
    odds = rate_of_fire_odds(die.sides, roll["rate_of_fire"], roll["wild_card"], constant, roll["target_number"])
    return odds.had(CRITICAL if roll["critical_failure"] else hits_outcome(roll["hit_count"]))
