"""How `chase verify` checks a D6 roll from its faces (domain/verification.py RollCheck).

The roll is read again from its faces under its die code and the GM's choice for a 1 on the
Wild Die (dice.py): how many dice it took (one more per 6 on the Wild Die), which were taken
away, the total with pips and bonuses, whether it met its difficulty, and the complication.
"""
from __future__ import annotations

from typing import Any

from domain.rules.d6.dice import DieCode, dice_wanted, die_code, read, wild_die_one
from domain.rules.d6.errors import InvalidValue
from domain.verification import VerificationFailed

KIND = "d6 roll"


def check_roll(version: Any, roll: dict[str, Any], faces: list[int]) -> bool:
    """True when ``roll`` is a D6 roll, checked; False for any other roll."""
    if roll.get("kind") != KIND:
        return False
    sequence = roll.get("sequence")
    try:
        code: DieCode = die_code(roll["code"])
        one = wild_die_one(roll["wild_die_one"])
        bonus = sum(int(v) for v in roll.get("bonus", {}).values())
        if any(not isinstance(f, int) or not 1 <= f <= 6 for f in faces) or dice_wanted(code, faces) != len(faces):
            raise VerificationFailed(version, f"D6 roll {sequence}: faces {faces} are not a whole roll of {code.label} with its Wild Die")
        reading = read(code, faces, one)
    except (KeyError, TypeError, ValueError, InvalidValue):
        raise VerificationFailed(version, f"D6 roll {sequence} cannot be read back from its faces") from None
    total = reading.dice_total + bonus
    difficulty = roll.get("difficulty")
    success = None if difficulty is None else total >= difficulty
    expected = (total, success, reading.one_rolled, reading.complication, list(reading.removed), list(reading.wild))
    recorded = (
        roll.get("total"), roll.get("success"), roll.get("wild_die_one_rolled"), roll.get("complication"), roll.get("removed"), roll.get("wild_die"),
    )
    if recorded != expected:
        raise VerificationFailed(version, f"D6 roll {sequence}: its faces {faces} give total {total} ({'met' if success else 'missed'} {difficulty}), not what is recorded")
    return True
