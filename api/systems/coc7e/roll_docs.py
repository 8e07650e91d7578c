"""The kinds of roll a Call of Cthulhu chase records, for the OpenAPI document (api/roll_docs.py):
a percentile roll (domain/rules/coc7e/percentile.py: every tens die, the units die, the result
and level), a roll on the random hazards table (random_hazards.py) and a dice expression
(domain/dice: damage, 1D6, ...). None records a ``kind``: each is told by its own fields."""
from __future__ import annotations

from typing import Any

from api.roll_docs import BOOL, FACE, INT, STR, array, closed
from domain.rules.coc7e.percentile import DIFFICULTIES, LEVELS

TENS = array({"type": "object", "properties": {"face": {**INT, "description": "00-90"}, "kept": BOOL}, "required": ["face", "kept"], "additionalProperties": False})
PERCENTILE: dict[str, Any] = {
    "target": {**INT, "description": "the skill or characteristic rolled against"},
    "difficulty": {"type": "string", "enum": list(DIFFICULTIES)},
    "bonus_dice": INT,
    "penalty_dice": INT,
    "tens": {**TENS, "description": "every tens die (bonus and penalty dice too), the one kept marked"},
    "units": {**INT, "description": "the units die, 0-9"},
    "result": {**INT, "description": "the kept tens die with the units die, 1-100"},
    "level": {"type": "string", "enum": list(LEVELS)},
    "success": BOOL,
}

ROLLS: dict[str, dict[str, Any]] = {
    "PercentileRoll": closed("Call of Cthulhu: a percentile roll against a skill or characteristic", PERCENTILE,
                             {"skill": STR, "malfunction": {**INT, "description": "a firearm's malfunction number"}}),
    "RandomHazardRoll": closed("Call of Cthulhu: a roll on the random hazards table (coc7e-chases.txt part 5)", {
        "table": STR, "environment": STR, "location": INT, "outcome": {**STR, "description": "the row rolled"},
        **{name: PERCENTILE[name] for name in ("bonus_dice", "penalty_dice", "tens", "units", "result")},
    }),
    "DiceExpressionRoll": closed("Call of Cthulhu: a dice expression (damage, 1D6, ...)", {
        "expression": {**STR, "description": "such as 1D6+1D4"}, "dice": array(FACE), "modifier": INT, "total": INT,
    }),
}
