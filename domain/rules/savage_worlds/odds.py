"""Exact odds of Savage Worlds rolls (domain/odds.py), as fractions, aces and all.

* Trait rolls (domain/rules/savage_worlds/dice.py, core rules "Trait Rolls", "Wild Die", "Aces",
  "Raises", "Critical Failures", "Jokers"; swd-chases.txt "Get an Action card": a card per
  success and raise): the trait die d4..d12 (with its own bonus, d12+N or d4-2), a Wild Card's
  Wild Die (d6) with the better kept, both acing, plus modifiers and the Joker's +2, against the
  Target Number. Outcomes: "critical failure" (a Wild Card's two 1s; an Extra's 1 then a 1 on
  the check d6), "failure", "success" (no raise), "raise 1" .. "raise 3", and "raise 4+" (every
  raise count from 4 on, which the dice make ever less likely without end).
* Opposed rolls (core rules "Opposed Rolls"; swade-chases-reference.txt "FORCE", swd-chases.txt
  Force): "defender" (ties go to him), "attacker", "attacker with a raise" (a raise over the
  loser's total: Force's Critical Failure or obstacle hit).
* Damage rolls (core rules "Damage"; every die Aces) and table rolls (never Ace): each total.

Aces make every total possible, so the sums are infinite; each band is still an exact fraction
(domain/rules/savage_worlds/acing_odds.py shows why the tails sum in closed form).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping, Sequence

from domain.dice.odds import ways
from domain.odds import Odds
from domain.rules.savage_worlds.acing import chance_of_total
from domain.rules.savage_worlds.acing_odds import Term, at_least, best_of, sum_beyond
from domain.rules.savage_worlds.dice import JOKER_BONUS, RAISE_STEP, TARGET_NUMBER, WILD_DIE, trait_die
from domain.rules.savage_worlds.errors import InvalidValue
from domain.rules.savage_worlds.rate_of_fire_odds import recorded_rate_of_fire_odds

CRITICAL_FAILURE_CHECK_DIE = 6  # core rules "Critical Failures": an Extra's 1 is checked on a d6
LISTED_RAISES = 3  # "raise 1".."raise 3" each; "raise 4+" gathers the rest
SUCCESS_OUTCOMES = ("success", *(f"raise {n}" for n in range(1, LISTED_RAISES + 1)), f"raise {LISTED_RAISES + 1}+")
TRAIT_OUTCOMES = ("critical failure", "failure", *SUCCESS_OUTCOMES)  # a trait roll's outcomes, worst first


@dataclass(frozen=True)
class TraitChances:
    """One trait roll's total: the best of its acing dice plus a constant (the trait die's own
    bonus, the modifiers and the Joker's +2), and the chance of its Critical Failure."""

    sides: int
    wild_card: bool
    constant: int

    @property
    def terms(self) -> tuple[Term, ...]:
        return best_of((self.sides, WILD_DIE.sides) if self.wild_card else (self.sides,))

    @property
    def critical(self) -> Fraction:
        """A Wild Card's trait die and Wild Die both 1; an Extra's trait die 1 and the check d6 1."""
        return Fraction(1, self.sides * (WILD_DIE.sides if self.wild_card else CRITICAL_FAILURE_CHECK_DIE))

    @property
    def critical_total(self) -> int:
        """A Critical Failure's total: the kept die shows 1."""
        return 1 + self.constant

    def at_least(self, total: int) -> Fraction:
        """P(the total is ``total`` or more), Critical Failures included."""
        return at_least(self.terms, total - self.constant)

    def succeeding_at_least(self, total: int) -> Fraction:
        """P(the total is ``total`` or more and it is no Critical Failure)."""
        return self.at_least(total) - (self.critical if self.critical_total >= total else 0)

    def exactly(self, total: int) -> Fraction:
        return self.at_least(total) - self.at_least(total + 1)


def trait_chances(die: str, *, wild_card: bool = True, modifier: int = 0, joker: bool = False) -> TraitChances:
    read = trait_die(die)
    return TraitChances(read.sides, wild_card, read.bonus + modifier + (JOKER_BONUS if joker else 0))


@lru_cache(maxsize=4096)
def trait_odds(roll: TraitChances, target_number: int = TARGET_NUMBER) -> Odds:
    """Each outcome of a trait roll against ``target_number``."""
    step = [roll.succeeding_at_least(target_number + RAISE_STEP * n) for n in range(LISTED_RAISES + 2)]
    chances = {TRAIT_OUTCOMES[0]: roll.critical, TRAIT_OUTCOMES[1]: 1 - roll.critical - step[0]}
    for name, (here, next_up) in zip(SUCCESS_OUTCOMES, zip(step, step[1:] + [Fraction(0)])):
        chances[name] = here - next_up
    return Odds(chances, frozenset(SUCCESS_OUTCOMES))


def trait_outcome(raises: int, success: bool, critical_failure: bool) -> str:
    """The outcome a recorded trait roll had, in the odds' words."""
    if critical_failure:
        return "critical failure"
    if not success:
        return "failure"
    return SUCCESS_OUTCOMES[min(raises, LISTED_RAISES + 1)]


def opposed_odds(attacker: TraitChances, defender: TraitChances, attacker_target: int = TARGET_NUMBER) -> Odds:
    """Core rules "Opposed Rolls" (domain/rules/savage_worlds/dice.py ``opposed``): the attacker
    needs a success and a higher total, ties go to the defender, a defender's Critical Failure
    loses to any success; the winner's raises are over the loser's total."""
    wins = _wins_by(attacker, defender, attacker_target, 1)
    wins_a_raise = _wins_by(attacker, defender, attacker_target, RAISE_STEP)
    chances = {"defender": 1 - wins, "attacker": wins - wins_a_raise, "attacker with a raise": wins_a_raise}
    return Odds(chances, frozenset({"attacker", "attacker with a raise"}))


def _wins_by(a: TraitChances, d: TraitChances, target: int, margin: int) -> Fraction:
    """P(the attacker succeeds and beats the defender's total by ``margin`` or more; a margin of
    1 is any win, which against a Critical Failure needs no margin at all)."""
    after_critical = a.succeeding_at_least(target if margin == 1 else max(target, d.critical_total + margin))
    chance = d.critical * after_critical
    # Beyond ``start`` every total is periodic-geometric (acing_odds.py) and no rule bends it:
    # above the target, above either Critical Failure's total, at least a die's 1.
    start = max(target, a.critical_total + 1, d.critical_total + 1)
    for total in range(d.constant + 1, start):
        not_critical = d.exactly(total) - (d.critical if total == d.critical_total else 0)
        chance += not_critical * a.succeeding_at_least(max(target, total + margin))
    return chance + sum_beyond(d.terms, a.terms, start - d.constant, d.constant + margin - a.constant)


def acing_total_chances(sides: Sequence[int], flat: int, aces: bool = True) -> dict[str, Fraction]:
    """Each total of dice that Ace, plus ``flat``: every total up to each die having aced once is
    listed, and the rest gathered as "<least>+" (an Ace chain can run on without end)."""
    top = sum(2 * s for s in sides) if aces else sum(sides)
    counts: dict[int, Fraction] = {0: Fraction(1)}
    for s in sides:
        # One die's totals up to ``top`` exactly; totals beyond ``top`` never matter below it.
        die = {v: chance_of_total(s, v, aces) for v in range(1, top + 1)}
        added: dict[int, Fraction] = {}
        for so_far, p in counts.items():
            for v, q in die.items():
                if so_far + v <= top and q:
                    added[so_far + v] = added.get(so_far + v, Fraction(0)) + p * q
        counts = added
    chances = {str(total + flat): p for total, p in sorted(counts.items())}
    rest = 1 - sum(chances.values(), Fraction(0))
    if rest:
        chances[f"{top + 1 + flat}+"] = rest
    return chances


@lru_cache(maxsize=256)
def damage_odds(sides: tuple[int, ...], flat: int, aces: bool = True) -> Odds:
    """A damage roll: each total (no one's success; Toughness decides what it does)."""
    return Odds(acing_total_chances(sides, flat, aces), frozenset())


@lru_cache(maxsize=256)
def table_odds(sides: tuple[int, ...]) -> Odds:
    """A table roll's plain dice: each total (no one's success; the table reads it)."""
    every = 1
    for s in sides:
        every *= s
    return Odds({str(len(sides) + i): Fraction(n, every) for i, n in enumerate(ways(sides))}, frozenset())


MAX_DAMAGE_DICE = 6  # more than this (a huge Scale's dice) has too many totals to list
MAX_LISTED_TOTAL = 200  # ... as has dice whose one ace each goes past this (d100s): no odds shown


def roll_odds(roll: Mapping[str, Any]) -> Odds | None:
    """The odds of a recorded Savage Worlds roll (the plug-in's RollOdds), with the outcome it
    had; None for any other roll."""
    try:
        kind = roll.get("kind")
        if kind == "trait roll":
            chances = TraitChances(trait_die(roll["trait_die"]).sides, roll["wild_card"], roll["trait_bonus"] + roll["modifier"] + (JOKER_BONUS if roll["joker"] else 0))
            odds = trait_odds(chances, roll["target_number"])
            return odds.had(trait_outcome(roll["raises"], roll["success"], roll["critical_failure"]))
        if kind == "rate of fire roll":
            return recorded_rate_of_fire_odds(roll)
        if kind in ("damage roll", "table roll"):
            base = tuple(_sides(d["die"]) for d in roll["dice"] if not str(d.get("role", "")).startswith(("ace reroll", "critical")))
            if kind == "table roll":
                return _had(table_odds(base), str(roll["total"]))
            if len(base) > MAX_DAMAGE_DICE or sum(2 * s for s in base) > MAX_LISTED_TOTAL:
                return None
            # A die on its highest face that did not Ace was rolled without Aces (breaking things).
            aces = not any(d["face"] == _sides(d["die"]) and not d.get("aced") for d in roll["dice"])
            odds = damage_odds(base, roll["modifier"] + (JOKER_BONUS if roll["joker"] else 0), aces)
            top = next(name for name in reversed(odds.outcomes))  # "<least>+" when the dice can ace past the list
            return _had(odds, str(roll["total"]) if str(roll["total"]) in odds.outcomes else top)
    except (KeyError, TypeError, ValueError, InvalidValue):
        return None
    return None


def _had(odds: Odds, outcome: str) -> Odds:
    return odds.had(outcome) if outcome in odds.outcomes else odds


def _sides(label: str) -> int:
    if not isinstance(label, str) or not label.startswith("d"):
        raise ValueError(f"not a die: {label!r}")
    return int(label[1:])
