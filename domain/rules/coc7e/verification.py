"""How `chase verify` checks a Call of Cthulhu roll from its faces (domain/verification.py RollCheck).

A percentile roll (tens dice and a units die) is read again from its faces: its result, its level
of success and whether it met its difficulty (coc7e-chases.txt refers to the core rules' skill
rolls: domain/rules/coc7e/percentile.py); a roll on the random hazards table has no target, and
its faces give its result and the table its outcome.
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e import percentile, random_hazards
from domain.verification import VerificationFailed


def check_roll(version: Any, roll: dict[str, Any], faces: list[int]) -> bool:
    """True when ``roll`` is a percentile roll, checked; False for any other roll."""
    if "tens" not in roll:
        return False
    if roll.get("table") == random_hazards.TABLE_NAME:
        _check_table_roll(version, roll, faces)
        return True
    try:
        read = percentile.resolve(roll["target"], faces, roll.get("bonus_dice", 0), roll.get("penalty_dice", 0))
    except (KeyError, ValueError, TypeError):
        raise VerificationFailed(version, f"percentile roll {roll.get('sequence')} cannot be read back from its faces") from None
    expected = (read["result"], read["level"], percentile.meets(read["level"], roll.get("difficulty", "regular")))
    if (roll.get("result"), roll.get("level"), roll.get("success")) != expected:
        raise VerificationFailed(version, f"roll {roll['sequence']}: its faces give {expected[0]} ({expected[1]}), not what is recorded")
    return True


def _check_table_roll(version: Any, roll: dict[str, Any], faces: list[int]) -> None:
    """A roll on a table has no target: the faces give the result, and the table its outcome
    (coc7e-chases.txt "Random Hazards and Barriers")."""
    sequence = roll.get("sequence")
    try:
        result = percentile.resolve(0, faces, roll.get("bonus_dice", 0), roll.get("penalty_dice", 0))["result"]
        outcome = random_hazards.outcome_of(result)
    except (KeyError, ValueError, TypeError):
        raise VerificationFailed(version, f"table roll {sequence} cannot be read back from its faces") from None
    if (roll.get("result"), roll.get("outcome")) != (result, outcome):
        raise VerificationFailed(version, f"table roll {sequence}: its faces give {result} ({outcome}), not what is recorded")
