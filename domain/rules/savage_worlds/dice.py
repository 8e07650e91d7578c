"""Savage Worlds trait rolls and opposed rolls (damage and table rolls: damage.py).

The chase texts build on the core mechanics without printing them (swd-chases.txt "Get an
Action card": "see SWD"; swade-chases-reference.txt "FORCE": "see Maneuvering Skills, Savage
Worlds"); rules/README.md says to implement the standard ones, cited here as "core rules":

* Trait roll: the trait die (d4..d12, d12+N; d4-2 unskilled) against a Target Number, 4 unless
  the rules say otherwise; a Wild Card also rolls a Wild Die (d6) and keeps the better die.
  Modifiers apply to both dice (core rules, "Wild Die").
* Aces: both dice Ace (domain.rules.savage_worlds.acing records every face and reroll).
* Raise: every full 4 over the Target Number (swade-chases-reference.txt uses raises throughout).
* Critical Failure: a Wild Card whose trait die and Wild Die both show 1 fails, whatever the
  modifiers. An Extra has no Wild Die; SWADE core rules "Critical Failures": when an Extra's trait
  die shows 1 and it matters, roll a d6, and a 1 is a Critical Failure. In a chase it matters
  (swade-chases-reference.txt "CRITICAL FAILURE ON MANEUVERING SKILLS"), so the check is on by
  default; ``extra_critical_failure_check=False`` leaves it out when the GM says it does not matter.
* The Joker: +2 to trait and damage rolls for whoever holds it (core rules, "Jokers").
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.dice import D, DiceSource, Die
from domain.rules.savage_worlds.acing import AcingDraw, chains_plan, draw_acing
from domain.rules.savage_worlds.errors import CORE, InvalidValue, whole

TARGET_NUMBER = 4  # core rules "Trait Rolls": the standard Target Number
RAISE_STEP = 4  # core rules "Raises": every 4 points over the Target Number
JOKER_BONUS = 2  # core rules "Jokers": +2 to trait and damage rolls
WILD_DIE = D(6)
TRAIT_DIE_SIDES = (4, 6, 8, 10, 12)
_TRAIT = re.compile(r"^\s*d\s*(4|6|8|10|12)\s*(?:([+-])\s*(\d{1,2}))?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class TraitDie:
    """A trait as Savage Worlds writes it: d4..d12, with a bonus for d12+N (or -2 unskilled, d4-2)."""

    sides: int
    bonus: int = 0

    @property
    def label(self) -> str:
        return f"d{self.sides}" + (f"{self.bonus:+d}" if self.bonus else "")


def trait_die(text: str | TraitDie) -> TraitDie:
    """Read "d8", "d12+2" or "d4-2"; any other die is not a Savage Worlds trait die."""
    if isinstance(text, TraitDie):
        return text
    match = _TRAIT.match(text) if isinstance(text, str) else None
    if not match:
        raise InvalidValue("trait_die", f"{text!r} is not a trait die: d4, d6, d8, d10, d12, d12+N or d4-2 ({CORE}, \"Traits\")")
    sign, number = match.group(2), match.group(3)
    bonus = (-1 if sign == "-" else 1) * int(number) if number else 0
    return TraitDie(int(match.group(1)), bonus)


def raises(total: int, target_number: int = TARGET_NUMBER) -> int:
    """Raises of a successful total: every full 4 over the Target Number (0 on a failure)."""
    return (total - target_number) // RAISE_STEP if total >= target_number else 0


def dice_record(acing: AcingDraw, roles: Sequence[str], chains: Sequence[Sequence[int]], aces: bool) -> list[dict[str, Any]]:
    """One entry per die in index order (acing.py): its role, face, and whether it aced."""
    labels = list(roles)
    # After the base dice come each base die's rerolls, chain by chain, then any check die.
    for owner, chain in enumerate(chains):
        labels += [f"ace reroll {n} of die {owner}" for n in range(1, len(chain))]
    labels += ["critical failure check"] * (len(acing.faces) - len(labels))
    return [
        {
            "index": index,
            "die": die.label,
            "face": face,
            "role": role,
            "aced": aces and face == die.sides and role != "critical failure check",
        }
        for index, (die, face, role) in enumerate(zip(acing.dice, acing.faces, labels))
    ]


@dataclass(frozen=True)
class TraitRoll:
    """A trait roll read in full: every face, the kept die, total, success, raises, Critical Failure."""

    trait_die: TraitDie
    wild_card: bool
    trait_faces: tuple[int, ...]  # the trait die and its ace rerolls
    wild_faces: tuple[int, ...]  # the Wild Die and its rerolls; () for an Extra
    extra_check: int | None  # the Extra's critical-failure d6, when rolled
    kept: str  # "trait die" or "Wild Die"
    modifier: int  # situational modifiers, the trait die's own bonus and the Joker's +2 apart
    joker: bool
    total: int
    target_number: int
    success: bool
    raises: int
    critical_failure: bool
    sequence: int
    dice: tuple[dict[str, Any], ...] = ()
    source: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        """Plain data for an event: everything needed to audit and analyse the roll."""
        return {
            "kind": "trait roll",
            "trait_die": self.trait_die.label,
            "wild_card": self.wild_card,
            "dice": [dict(d) for d in self.dice],
            "trait_die_faces": list(self.trait_faces),
            "wild_die_faces": list(self.wild_faces),
            "extra_critical_failure_check": self.extra_check,
            "kept": self.kept,
            "trait_bonus": self.trait_die.bonus,
            "modifier": self.modifier,
            "joker": self.joker,
            "total": self.total,
            "target_number": self.target_number,
            "success": self.success,
            "raises": self.raises,
            "critical_failure": self.critical_failure,
            "source": dict(self.source, sequence=self.sequence),
        }


def trait_roll(
    source: DiceSource,
    sequence: int,
    die: str | TraitDie,
    *,
    wild_card: bool = True,
    modifier: int = 0,
    target_number: int = TARGET_NUMBER,
    joker: bool = False,
    extra_critical_failure_check: bool = True,
) -> TraitRoll:
    """Roll a trait: trait die (and Wild Die for a Wild Card), both acing; one sequence number."""
    die = trait_die(die)
    whole("modifier", modifier)
    whole("target_number", target_number)
    base = [D(die.sides)] + ([WILD_DIE] if wild_card else [])
    read = chains_plan(base)

    def plan(faces: Sequence[int]) -> list[Die]:
        dice, chains, complete = read(faces)
        # The Extra's check die is rolled only after the trait die settles on a natural 1.
        if complete and not wild_card and extra_critical_failure_check and chains[0][0] == 1:
            dice.append(D(6))
        return dice

    acing = draw_acing(source, sequence, plan)
    _, chains, _ = read(acing.faces)
    extra_check = acing.faces[-1] if len(acing.faces) > sum(len(c) for c in chains) else None
    trait_sum = sum(chains[0])
    wild_sum = sum(chains[1]) if wild_card else 0
    kept = "Wild Die" if wild_card and wild_sum > trait_sum else "trait die"
    total = max(trait_sum, wild_sum) + die.bonus + modifier + (JOKER_BONUS if joker else 0)
    if wild_card:
        critical = chains[0][0] == 1 and chains[1][0] == 1
    else:
        critical = extra_check == 1
    success = total >= target_number and not critical
    roles = ["trait die"] + (["Wild Die"] if wild_card else [])
    return TraitRoll(
        trait_die=die,
        wild_card=wild_card,
        trait_faces=tuple(chains[0]),
        wild_faces=tuple(chains[1]) if wild_card else (),
        extra_check=extra_check,
        kept=kept,
        modifier=modifier,
        joker=joker,
        total=total,
        target_number=target_number,
        success=success,
        raises=raises(total, target_number) if success else 0,
        critical_failure=critical,
        sequence=sequence,
        dice=tuple(dice_record(acing, roles, chains, True)),
        source=dict(acing.provenance, draws=acing.draws),
    )


@dataclass(frozen=True)
class Opposed:
    """An opposed roll's outcome: who won and the winner's raises over the loser's total."""

    winner: str  # "attacker" or "defender"
    raises: int


def opposed(attacker: TraitRoll, defender: TraitRoll) -> Opposed:
    """Core rules "Opposed Rolls": the attacker needs a success; the defender wins ties.

    The winner counts raises over the loser's total. A Critical Failure never wins: a critically
    failing defender loses to any successful attacker.
    """
    attacker_wins = attacker.success and (defender.critical_failure or attacker.total > defender.total)
    if attacker_wins:
        return Opposed("attacker", max(0, attacker.total - defender.total) // RAISE_STEP)
    margin = defender.total - attacker.total if not defender.critical_failure else 0
    return Opposed("defender", max(0, margin) // RAISE_STEP)
