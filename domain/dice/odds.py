"""The full distribution of a dice expression (1D3, 2D10, 1D10+1D4+2, 1D4+DB once DB is read).

Exact: each die is added in turn to the counts of every total so far (a convolution with a
running window, so one die costs one pass over the totals), and the counts over the number of
ways the dice can fall are the chances. Plain dice only: dice that Ace are a Savage Worlds
matter (domain/rules/savage_worlds/odds.py).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from domain.dice.expressions import DiceExpression, InvalidDiceExpression, parse
from domain.odds import Odds

# More totals than this are not listed (100D1000 has 99,901): such an expression has no odds
# shown rather than a roll history row of megabytes. Every expression in the rules texts (1D10
# per point of a vehicle's build: a tank's 20D10 has 181 totals; 1D10+1D4+2, ...) is far inside.
MAX_TOTALS = 1000


def ways(sides: tuple[int, ...]) -> list[int]:
    """How many ways each sum of the dice (every die added) can fall, from the least sum up."""
    counts = [1]  # no dice: one way to sum 0
    for side in sides:
        # new[t] = counts[t - 1] + ... + counts[t - side]: a window over prefix sums.
        prefix = [0]
        for count in counts:
            prefix.append(prefix[-1] + count)
        length = len(counts) + side - 1
        counts = [prefix[min(t + 1, len(counts))] - prefix[max(0, t - side + 1)] for t in range(length)]
    return counts


def total_chances(expression: DiceExpression) -> dict[int, Fraction] | None:
    """The chance of each total of the expression, least first; None beyond MAX_TOTALS."""
    if expression.maximum() - expression.minimum() + 1 > MAX_TOTALS:
        return None
    sides = tuple(t.sides for t in expression.terms for _ in range(t.count))
    every = 1
    for side in sides:
        every *= side
    # A die taken away, -face, is (side + 1 - face) - (side + 1), and side + 1 - face falls like
    # the die itself: so every die is added, and each die taken away takes side + 1 off.
    least = len(sides) + expression.modifier - sum(t.count * (t.sides + 1) for t in expression.terms if t.sign < 0)
    return {least + i: Fraction(count, every) for i, count in enumerate(ways(sides))}


@lru_cache(maxsize=512)
def expression_odds(text: str) -> Odds | None:
    """Odds of a dice expression as a roll record writes it (its canonical ``expression``): each
    total, named as text ("3"). A roll of an amount (damage, lost actions) is no one's success.
    None when the text is not an expression without DB, or has too many totals to list."""
    try:
        chances = total_chances(parse(text))
    except InvalidDiceExpression:
        return None
    if chances is None:
        return None
    return Odds({str(total): chance for total, chance in chances.items()}, frozenset())
