"""Exact odds of a roll: the chance of each outcome it could have had, as fractions.

Each game system knows its own mechanic and supplies a RollOdds (domain/rules/<system>/odds.py)
through its plug-in entry (application/plugins.py ``roll_odds``); the core, the roll history and
the analytics ask every system in turn and never name one. Odds are computed exactly (fractions,
never simulation), from the roll as it is recorded, so they can be recomputed from the log.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
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

    @cached_property
    def success(self) -> Fraction:
        """The chance that the roll succeeds."""
        return sum((self.outcomes[name] for name in self.successes), Fraction(0))

    def had(self, outcome: str | None) -> "Odds":
        """These odds, with the outcome the recorded roll had (None: before a roll)."""
        if outcome is not None and outcome not in self.outcomes:
            raise ValueError("the outcome a roll had must be one of its outcomes")
        _ = (self._shown_outcomes, self.success)  # worked out once, here, for every copy to share
        # The chances were checked once; a roll history asks this for every row, and analytics for
        # every roll: a shallow copy made as ``copy`` makes it, without its trip through copyreg.
        shown = object.__new__(type(self))
        shown.__dict__.update(self.__dict__)
        object.__setattr__(shown, "observed", outcome)
        return shown

    @cached_property
    def _shown_outcomes(self) -> dict[str, dict[str, Any]]:
        return {
            name: {"p": float(chance), "exact": f"{chance.numerator}/{chance.denominator}"}
            for name, chance in self.outcomes.items()
        }

    def as_json(self) -> dict[str, Any]:
        """Each chance as a float and as an exact "p/q" string, for the API and exports; the
        outcome the roll had, when it was rolled."""
        shown: dict[str, Any] = {
            "outcomes": {name: dict(chance) for name, chance in self._shown_outcomes.items()},
            "success": float(self.success),
        }
        if self.observed is not None:
            shown["observed"] = self.observed
        return shown


# A game system's odds of a recorded roll: the roll record as events store it (the ``roll`` dict
# with its purpose, target, dice and modifiers) -> its Odds, or None when the roll is not the
# system's (the next system is asked).
RollOdds = Callable[[Mapping[str, Any]], "Odds | None"]


# A game system's odds of what a command decided from several rolls (an attack met by a dodge:
# who wins): the event that records it (its TOPIC and its fields) and the command's rolls by
# sequence number -> the Odds of the event's outcome, or None when the event is not the system's.
OutcomeOdds = Callable[[str, Mapping[str, Any], Mapping[int, Mapping[str, Any]]], "Odds | None"]
