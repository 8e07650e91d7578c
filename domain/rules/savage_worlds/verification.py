"""How `chase verify` checks a Savage Worlds roll from its faces (domain/verification.py RollCheck).

A trait roll is rolled again from its faces (aces, Wild Die, raises, Critical Failure); damage and
table rolls add up, and only a die showing its highest face is marked as aced. A shuffle records
no faces: its dealt cards are checked by the core against the revealed seed (cards.py).
"""
from __future__ import annotations

from typing import Any

from domain.dice import TableDice
from domain.rules.savage_worlds.dice import trait_roll
from domain.rules.savage_worlds.rate_of_fire import KIND as RATE_OF_FIRE, rate_of_fire_roll
from domain.rules.savage_worlds.errors import InvalidValue
from domain.verification import VerificationFailed

# The Savage Worlds roll records (domain/rules/savage_worlds: dice.py, damage.py, cards.py).
KINDS = ("trait roll", RATE_OF_FIRE, "damage roll", "table roll", "shuffle")


def check_roll(version: Any, roll: dict[str, Any], faces: list[int]) -> bool:
    """True when ``roll`` is a Savage Worlds roll, checked; False for any other roll."""
    kind, sequence = roll.get("kind"), roll.get("sequence")
    if kind not in KINDS:
        return False
    if kind == "trait roll":
        try:
            again = trait_roll(
                TableDice(faces), sequence, roll["trait_die"], wild_card=roll["wild_card"], modifier=roll["modifier"],
                target_number=roll["target_number"], joker=roll["joker"],
            )
        except (KeyError, TypeError, ValueError, InvalidValue):
            raise VerificationFailed(version, f"trait roll {sequence} cannot be read back from its faces") from None
        expected = (again.total, again.success, again.raises, again.critical_failure)
        if (roll.get("total"), roll.get("success"), roll.get("raises"), roll.get("critical_failure")) != expected:
            raise VerificationFailed(version, f"trait roll {sequence}: its faces {faces} give total {again.total}, not what is recorded")
        return True
    if kind == RATE_OF_FIRE:
        try:
            shots = rate_of_fire_roll(
                TableDice(faces), sequence, roll["trait_die"], roll["rate_of_fire"], wild_card=roll["wild_card"], modifier=roll["modifier"],
                target_number=roll["target_number"], joker=roll["joker"],
            )
        except (KeyError, TypeError, ValueError, InvalidValue):
            raise VerificationFailed(version, f"rate of fire roll {sequence} cannot be read back from its faces") from None
        again = shots.record()
        fields = ("totals", "hits", "total", "success", "raises", "critical_failure")
        if any(roll.get(f) != again[f] for f in fields):
            raise VerificationFailed(version, f"rate of fire roll {sequence}: its faces {faces} give totals {again['totals']}, not what is recorded")
        return True
    for die in roll.get("dice", []):
        sides = int(str(die.get("die", "d0")).lstrip("d") or 0)
        if die.get("aced") and die.get("face") != sides:
            raise VerificationFailed(version, f"roll {sequence}: a {die.get('die')} showing {die.get('face')} did not ace")
    if kind == "damage roll":
        expected_total = sum(faces) + roll.get("modifier", 0) + (2 if roll.get("joker") else 0)  # the Joker's +2
    elif kind == "table roll":
        expected_total = sum(faces)
    else:
        return True
    if roll.get("total") != expected_total:
        raise VerificationFailed(version, f"roll {sequence}: faces {faces} make {expected_total}, not {roll.get('total')}")
    return True
