"""Exact odds of a D6 roll against its difficulty (domain/odds.py), under each choice for a 1 on
the Wild Die (dice.py): fractions, never simulation.

The Wild Die explodes, so a roll's totals have no upper bound; but P(total >= N) for a finite N
is a finite sum. Split on the Wild Die's first face f (each 1/6) and on the ordinary dice (their
sum S and highest die H, a finite distribution):

* f in 2..5: success when S + f >= x (x: the difficulty less pips and bonuses);
* f = 6: the Wild Die is 6 + E, where E is a fresh exploding die; success when E >= x - S - 6.
  P(E >= y) has a closed form: for y <= 1 it is 1; otherwise write y - 1 = 6k + r (0 <= r < 6):
  E >= y exactly when the first k rolls are all 6 (each rerolled) and the next shows more than r
  (a further 6 only adds more), so P(E >= y) = (1/6)^k * (6 - r)/6. No truncation is needed;
* f = 1: "no_effect" and "complication" count the 1 (S + 1 >= x); "remove" takes away the 1 and
  the highest ordinary die (S - H >= x; with no ordinary die, the total is the pips alone).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

from domain.odds import Odds
from domain.rules.d6.dice import WILD_DIE_ONE, DieCode, die_code

SIXTH = Fraction(1, 6)


def exploding_at_least(y: int) -> Fraction:
    """P(E >= y) for one exploding d6 E (rolled again and added on every 6): the closed form above."""
    if y <= 1:
        return Fraction(1)
    k, r = divmod(y - 1, 6)
    return SIXTH**k * Fraction(6 - r, 6)


@lru_cache(maxsize=256)
def ordinary_dice(count: int) -> tuple[tuple[int, int, Fraction], ...]:
    """The exact distribution of (sum, highest) of ``count`` ordinary d6 ((0, 0) for none)."""
    states: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(count):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (total, high), chance in states.items():
            for face in range(1, 7):
                key = (total + face, max(high, face))
                nxt[key] = nxt.get(key, Fraction(0)) + chance * SIXTH
        states = nxt
    return tuple((total, high, chance) for (total, high), chance in sorted(states.items()))


def chances(code: DieCode, one: str, needed: int) -> tuple[Fraction, Fraction]:
    """(P(the dice and pips reach ``needed`` without a 1 on the Wild Die's first roll),
    P(they reach it with one)): the two add up to P(success)."""
    clean = Fraction(0)
    with_one = Fraction(0)
    x = needed - code.pips
    for total, high, chance in ordinary_dice(code.dice - 1):
        clean += chance * SIXTH * sum(1 for face in range(2, 6) if total + face >= x)
        clean += chance * SIXTH * exploding_at_least(x - total - 6)
        kept = total - high if one == "remove" else total + 1
        with_one += chance * SIXTH * (kept >= x)
    return clean, with_one


def chance_of_success(code: DieCode | str, difficulty: int, one: str = "remove", bonus: int = 0) -> Fraction:
    """P(total >= difficulty) for a die code (and bonuses to the total) under the GM's choice."""
    clean, with_one = chances(die_code(code), one, difficulty - bonus)
    return clean + with_one


def roll_odds(roll: Mapping[str, Any]) -> Odds | None:
    """The odds of a recorded D6 roll against its difficulty; None for another system's roll or a
    roll with no difficulty (a roll the GM reads by its total alone)."""
    if roll.get("kind") != "d6 roll" or not isinstance(roll.get("difficulty"), int):
        return None
    one = roll.get("wild_die_one")
    if one not in WILD_DIE_ONE:
        return None
    code = die_code(roll.get("code"))
    clean, with_one = chances(code, one, roll["difficulty"] - sum(roll.get("bonus", {}).values()))
    if one == "complication":  # the GM describes a complication: an outcome of its own
        outcomes = {
            "success": clean, "failure": Fraction(5, 6) - clean,
            "success, complication": with_one, "failure, complication": SIXTH - with_one,
        }
        return Odds(outcomes, frozenset({"success", "success, complication"}))
    return Odds({"success": clean + with_one, "failure": 1 - clean - with_one}, frozenset({"success"}))
