"""Exact chances of totals of dice that Ace, where the totals have no upper bound.

A die of s sides that Aces (core rules, "Aces"; domain/rules/savage_worlds/acing.py) totals at
least y (y >= 1) with chance (1/s)^((y-1) div s) * (s - (y-1) mod s)/s (acing.chance_at_least).
So going L further (L a multiple of s) multiplies that chance by (1/s)^(L/s), whatever y: the
chance is *periodic-geometric*. The best of a trait die and the Wild Die is a sum of such terms
(P(max >= y) = A + B - A*B), and so is a total's chance to be exactly y (the difference of two
"at least"s). A sum over every total y >= M of a product of two such terms, with ratios r and q
per period L, is then the finite sum over one period divided by (1 - r*q): exact, no truncation.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from domain.rules.savage_worlds.acing import chance_at_least

@dataclass(frozen=True)
class Term:
    """``sign`` times the product of each die's chance to total at least y: a die of each of
    ``sides``, all acing, all reaching y."""

    sign: int
    sides: tuple[int, ...]

    def at(self, y: int) -> Fraction:
        chance = Fraction(self.sign)
        for s in self.sides:
            chance *= chance_at_least(s, y)
        return chance

    def ratio(self, period: int) -> Fraction:
        """What the term is multiplied by when y goes ``period`` further (y >= 1)."""
        return math.prod((Fraction(1, s) ** (period // s) for s in self.sides), start=Fraction(1))


def best_of(sides: Sequence[int]) -> tuple[Term, ...]:
    """P(the best of these acing dice totals at least y), as terms (inclusion-exclusion):
    one die gives A; a trait die and the Wild Die give A + B - A*B."""
    if len(sides) == 1:
        return (Term(1, (sides[0],)),)
    if len(sides) == 2:
        a, b = sides
        return (Term(1, (a,)), Term(1, (b,)), Term(-1, (a, b)))
    raise ValueError("a trait roll keeps the better of at most two dice")


def at_least(terms: Sequence[Term], y: int) -> Fraction:
    return sum((t.at(y) for t in terms), Fraction(0))


def period_of(*term_sets: Sequence[Term]) -> int:
    return math.lcm(*(s for terms in term_sets for t in terms for s in t.sides))


def sum_beyond(first: Sequence[Term], second: Sequence[Term], start: int, offset: int) -> Fraction:
    """Sum over every y >= start of P(first's best is exactly y) * P(second's best >= y + offset),
    both in die space (``start`` >= 1 and ``start + offset`` >= 1: where the terms are periodic)."""
    if start < 1 or start + offset < 1:
        raise ValueError("the periodic tail starts at a total of 1 or more")
    period = period_of(first, second)
    total = Fraction(0)
    for a in first:
        for b in second:
            per_period = sum(
                ((a.at(start + u) - a.at(start + u + 1)) * b.at(start + u + offset) for u in range(period)),
                Fraction(0),
            )
            total += per_period / (1 - a.ratio(period) * b.ratio(period))
    return total
