"""D6 rolls: a die code (4D+1) rolled with one Wild Die that explodes on a 6 (DICE, errors.py).

The standard mechanic d6-movement.txt assumes ("running roll", "skill total", "a roll of his
stamina"), cited as the D6 System core rules, "The Wild Die":

* A skill or attribute is a number of six-sided dice plus pips: "4D+1" is four dice and 1.
* One of the dice is the Wild Die. A 6 on it is added and it is rolled again, as often as it
  comes up 6 (each reroll's face added; a 1 on a reroll is just 1).
* A 1 on its *first* roll is a complication, which the Game Master handles in one of three ways
  (WILD_DIE_ONE): "no_effect" (the 1 counts as any die), "remove" (the 1 and the highest other
  die are taken away: the classic reading, the default of a chase) or "complication" (the total
  counts as rolled and the log notes a complication for the GM to describe).

How a roll's dice are drawn so that every face is verifiable (domain/verification.py): dice are
numbered in the order they are rolled. The ordinary dice first, then the Wild Die, then each
reroll of the Wild Die after a 6. Server dice derive die ``i`` from the seed, the chase, the
roll's sequence and ``i`` alone, so the source is asked for the growing prefix (the base dice,
then one more after each 6) and the faces already read must come back unchanged. Table dice are
entered in the same order: ordinary dice, Wild Die, rerolls (4D with a Wild Die 6 then 3:
``[2, 5, 4, 6, 3]``); a list that stops in the middle of an explosion, or runs past it, is refused.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

from domain.dice import D, DiceSource, InvalidTableDice
from domain.rules.d6.errors import DICE, InvalidValue

SIX = D(6)
WILD_DIE_ONE = ("remove", "no_effect", "complication")  # the GM's choices for a first-roll 1
DEFAULT_WILD_DIE_ONE = "remove"
MAX_DICE = 30  # a die code of more dice than any character has: 30D is far beyond heroic
MAX_PIPS = 2  # pips run 0..2: a third pip is a die (4D+2, then 5D)
MAX_ROLL_DICE = 200  # a Wild Die exploding 170 times running is no roll but a broken dice source
_CODE = re.compile(r"^\s*(\d{1,3})\s*[dD]\s*(?:([+-])\s*(\d{1,2}))?\s*$")


@dataclass(frozen=True)
class DieCode:
    """A skill or attribute: ``dice`` six-sided dice (one of them the Wild Die) plus ``pips``."""

    dice: int
    pips: int = 0

    @property
    def label(self) -> str:
        return f"{self.dice}D" + (f"{self.pips:+d}" if self.pips else "")


def die_code(text: Any, field_name: str = "code") -> DieCode:
    """Read "4D+1", "3D", "2D-1"; anything else is not a D6 die code (422 naming ``field_name``)."""
    if isinstance(text, DieCode):
        return text
    match = _CODE.match(text) if isinstance(text, str) else None
    if not match:
        raise InvalidValue(field_name, f"{text!r} is not a die code such as 4D+1 ({DICE})")
    dice = int(match.group(1))
    pips = (-1 if match.group(2) == "-" else 1) * int(match.group(3) or 0)
    if not 1 <= dice <= MAX_DICE:
        raise InvalidValue(field_name, f"a die code has 1 to {MAX_DICE} dice, not {dice}")
    if not -MAX_PIPS <= pips <= MAX_PIPS:
        raise InvalidValue(field_name, f"pips run from -{MAX_PIPS} to +{MAX_PIPS} (three pips make a die), not {pips}")
    return DieCode(dice, pips)


def wild_die_one(value: Any, field_name: str = "wild_die_one") -> str:
    if value not in WILD_DIE_ONE:
        raise InvalidValue(field_name, f"the GM's choice for a 1 on the Wild Die is one of {', '.join(WILD_DIE_ONE)}")
    return str(value)


@dataclass(frozen=True)
class Reading:
    """What a roll's faces come to under a die code and a choice for the Wild Die's 1."""

    dice: tuple[int, ...]  # the ordinary dice
    wild: tuple[int, ...]  # the Wild Die's first roll and each reroll after a 6
    one_rolled: bool  # the Wild Die's first roll was a 1
    complication: bool  # ... and the GM's choice makes it a complication noted in the log
    removed: tuple[int, ...]  # indices of the dice taken away ("remove")
    dice_total: int  # the dice that count, with the pips

    def roles(self) -> list[str]:
        return ["die"] * len(self.dice) + ["wild die"] + ["wild die reroll"] * (len(self.wild) - 1)


def dice_wanted(code: DieCode, faces: Sequence[int]) -> int:
    """How many dice the roll takes, as far as ``faces`` show: the base dice, one more per 6 on
    the Wild Die (its first roll is die ``code.dice - 1``)."""
    wanted = code.dice
    while len(faces) >= wanted and faces[wanted - 1] == 6:
        wanted += 1
    return wanted


def read(code: DieCode, faces: Sequence[int], one: str) -> Reading:
    """Read a complete roll's faces (ordinary dice, Wild Die, rerolls)."""
    ordinary = tuple(faces[: code.dice - 1])
    wild = tuple(faces[code.dice - 1:])
    one_rolled = wild[0] == 1
    removed: tuple[int, ...] = ()
    if one_rolled and one == "remove":
        highest = max(range(len(ordinary)), key=lambda i: (ordinary[i], -i)) if ordinary else None
        removed = (code.dice - 1,) + (() if highest is None else (highest,))
    kept = sum(face for index, face in enumerate(faces) if index not in removed)
    return Reading(ordinary, wild, one_rolled, one_rolled and one == "complication", tuple(sorted(removed)), kept + code.pips)


@dataclass(frozen=True)
class D6Roll:
    """One roll recorded whole: every face with its role, the Wild Die, the total and its reading."""

    sequence: int
    code: DieCode
    faces: tuple[int, ...]
    reading: Reading
    one: str  # the GM's choice for a first-roll 1 on the Wild Die
    bonus: dict[str, int]  # added to the total (a leap's running start)
    difficulty: int | None
    source: dict[str, Any]

    @property
    def total(self) -> int:
        return self.reading.dice_total + sum(self.bonus.values())

    @property
    def success(self) -> bool | None:
        return None if self.difficulty is None else self.total >= self.difficulty

    def record(self) -> dict[str, Any]:
        """Plain data for an event: everything needed to audit, verify and analyse the roll."""
        return {
            "kind": "d6 roll",
            "code": self.code.label,
            "dice": [
                {"index": i, "die": SIX.label, "face": face, "role": role, "removed": i in self.reading.removed}
                for i, (face, role) in enumerate(zip(self.faces, self.reading.roles()))
            ],
            "wild_die": list(self.reading.wild),
            "wild_die_one": self.one,
            "wild_die_one_rolled": self.reading.one_rolled,
            "complication": self.reading.complication,
            "removed": list(self.reading.removed),
            "pips": self.code.pips,
            "bonus": dict(self.bonus),
            "total": self.total,
            "difficulty": self.difficulty,
            "success": self.success,
            "source": dict(self.source, sequence=self.sequence),
        }


class BrokenDiceSource(RuntimeError):
    """A dice source that changed faces it had already given for the same roll."""


def roll(
    source: DiceSource, sequence: int, code: DieCode, *, one: str = DEFAULT_WILD_DIE_ONE,
    difficulty: int | None = None, bonus: dict[str, int] | None = None,
) -> D6Roll:
    """Roll a die code with its Wild Die; one sequence number, every face kept."""
    entered = getattr(source, "entered", None)
    if isinstance(entered, list):  # table dice: the whole roll is entered at once
        wanted = dice_wanted(code, entered)
        if len(entered) < wanted:
            raise InvalidTableDice(
                f"{len(entered)} faces were entered but the roll is not finished: the Wild Die showed 6 and is rolled "
                "again (enter the ordinary dice, the Wild Die, then each reroll after a 6)"
            )
        if len(entered) > wanted:
            raise InvalidTableDice(f"this roll takes {wanted} dice ({code.label}, the Wild Die last, then its rerolls after a 6); {len(entered)} faces were entered")
        draw = source.draw(sequence, [SIX] * wanted)
        faces, provenance = tuple(draw.faces), dict(draw.provenance)
    else:
        faces, provenance = _server(source, sequence, code)
    return D6Roll(sequence, code, faces, read(code, faces, one), one, dict(bonus or {}), difficulty, provenance)


def _server(source: DiceSource, sequence: int, code: DieCode) -> tuple[tuple[int, ...], dict[str, Any]]:
    faces: tuple[int, ...] = ()
    wanted = code.dice
    draws = 0
    while True:
        draw = source.draw(sequence, [SIX] * wanted)
        draws += 1
        if tuple(draw.faces[: len(faces)]) != faces:
            raise BrokenDiceSource(f"roll {sequence}: the dice source changed faces it had already given")
        faces = tuple(draw.faces)
        wanted = dice_wanted(code, faces)
        if wanted <= len(faces):
            return faces, dict(draw.provenance, draws=draws)
        if wanted > MAX_ROLL_DICE:
            raise BrokenDiceSource(f"roll {sequence}: more than {MAX_ROLL_DICE} dice; the Wild Die keeps exploding")
