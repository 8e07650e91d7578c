"""Breaking Things: damage against an object (both chases).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Breaking Things": "See Obstacle
Hardness Table; Stationary items are Parry 2. No bonus damage or Aces are possible." The object is
the GM's (a door, a tire, a barricade) with its Hardness (the table the extract names is not in
it: the GM gives the number; "Obstacles" lists sample values, e.g. a heavy car door +4, a brick
wall +8). The damage roll never Aces and takes no raise's bonus die; the object breaks when the
damage equals or beats its Hardness. An attack to hit a stationary item is made against Parry 2
(``STATIONARY_PARRY``: the attack's target number).
"""
from __future__ import annotations

from typing import Any

from domain.dice import DiceSource
from domain.rules.savage_worlds import savage_rolls
from domain.rules.savage_worlds.errors import SWADE, InvalidValue, whole

BREAKING_THINGS = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Breaking Things"
STATIONARY_PARRY = 2  # "Stationary items are Parry 2"
MAX_HARDNESS = 100


def break_object(
    chase: savage_rolls.RollingChase, dice: DiceSource, roller_id: str | None, thing: str, hardness: int, expression: str, *,
    strength: str | None = None, modifier: int = 0,
) -> dict[str, Any]:
    """Roll damage against an object: no Aces, no bonus damage; broken at its Hardness."""
    chase._require_running()
    chase._require_nothing_pending()
    if roller_id is not None:
        chase.participant(roller_id)
    if not isinstance(thing, str) or not thing.strip() or len(thing) > 200:
        raise InvalidValue("object", "name the object: 1 to 200 characters")
    if whole("hardness", hardness, 1) > MAX_HARDNESS:
        raise InvalidValue("hardness", f"1 to {MAX_HARDNESS}")
    extra = {"object": thing.strip(), "hardness": hardness, "aces": False, "rule": BREAKING_THINGS}  # "aces": for the odds
    total = savage_rolls.roll_damage(chase, dice, roller_id, None, "breaking things", expression, strength=strength, modifier=modifier, extra=extra, aces=False)
    return {"object": thing.strip(), "damage": total, "hardness": hardness, "broken": total >= hardness}
