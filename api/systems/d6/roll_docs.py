"""The roll a D6 chase records, for the OpenAPI document (api/roll_docs.py): a die code with its
Wild Die (domain/rules/d6/dice.py), every face with its role, with what the command adds (the
skill, the movement and the parts of its difficulty)."""
from __future__ import annotations

from typing import Any

from api.roll_docs import BOOL, INT, STR, array, closed
from domain.rules.d6.verification import KIND

D6_FACE = {"type": "object", "properties": {"index": INT, "die": STR, "face": INT, "role": STR, "removed": BOOL}, "required": ["die", "face"], "additionalProperties": False}

ROLLS: dict[str, dict[str, Any]] = {
    "D6Roll": closed("D6: a die code with its Wild Die", {
        "code": {**STR, "description": "such as 3D+2"}, "dice": array(D6_FACE), "wild_die": array(INT), "wild_die_one": STR, "wild_die_one_rolled": BOOL,
        "complication": BOOL, "removed": array(INT), "pips": INT, "bonus": {"type": "object", "additionalProperties": INT}, "total": INT,
        "difficulty": {"type": ["integer", "null"]}, "success": {"type": ["boolean", "null"]},
    }, {"skill": {"type": ["string", "null"]}, "movement": STR, "terrain": {"type": ["string", "null"]}, "difficulty_parts": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}}}, kind=KIND),
}
