"""Exact odds of a roll: the chance of each outcome it could have had, as fractions.

Each game system knows its own mechanic and supplies a RollOdds (domain/rules/<system>/odds.py)
through its plug-in entry (application/plugins.py ``roll_odds``); the core, the roll history and
the analytics ask every system in turn and never name one. Odds are computed exactly (fractions,
never simulation), from the roll as it is recorded, so they can be recomputed from the log.
"""
from __future__ import annotations

from copy import copy
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Odds:
    """The exact chance of each outcome of one roll, and which outcomes count as a success."""

    outcomes: Mapping[str, Fraction]  # outcome, in the roll's own words ("hard", "raise 1") -> chance
    successes: frozenset[str]  # the outcomes that count as a success for luck and analytics
    # The outcome a recorded roll had, in the same words (a Savage Worlds roll records success,
    # raises and Critical Failure, not one word; 5 raises is "raise 4+"); None before a roll.
    observed: str | None = None

    def __post_init__(self) -> None:
        if sum(self.outcomes.values(), Fraction(0)) != 1:
            raise ValueError("the chances of a roll's outcomes must sum to exactly 1")
        if not self.successes <= set(self.outcomes):
            raise ValueError("a success must be one of the roll's outcomes")
        if self.observed is not None and self.observed not in self.outcomes:
            raise ValueError("the outcome a roll had must be one of its outcomes")

    @property
    def success(self) -> Fraction:
        """The chance that the roll succeeds."""
        return sum((self.outcomes[name] for name in self.successes), Fraction(0))

    def had(self, outcome: str) -> "Odds":
        """These odds, with the outcome the recorded roll had. The chances were checked when
        these odds were made: only the outcome is (summing the fractions again took a third of
        the analytics' cost per roll on the write path, bench/analytics.py)."""
        if outcome not in self.outcomes:
            raise ValueError("the outcome a roll had must be one of its outcomes")
        had = copy(self)
        object.__setattr__(had, "observed", outcome)
        return had

    def as_json(self) -> dict[str, Any]:
        """Each chance as a float and as an exact "p/q" string, for the API and exports; the
        outcome the roll had, when it was rolled."""
        shown: dict[str, Any] = {
            "outcomes": {
                name: {"p": float(chance), "exact": f"{chance.numerator}/{chance.denominator}"}
                for name, chance in self.outcomes.items()
            },
            "success": float(self.success),
        }
        if self.observed is not None:
            shown["observed"] = self.observed
        return shown


# A game system's odds of a recorded roll: the roll record as events store it (the ``roll`` dict
# with its purpose, target, dice and modifiers) -> its Odds, or None when the roll is not the
# system's (the next system is asked).
RollOdds = Callable[[Mapping[str, Any]], "Odds | None"]
