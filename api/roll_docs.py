"""A roll's schema, one per kind, for the OpenAPI document (api/contract.py): what every roll
records (DESIGN.md section 3: who rolled, for what, how the dice were produced) and the way each
system's kinds are written (api/systems/<package>/roll_docs.py, each kind as its rules record
it). A roll is answered as recorded (api/view_docs.py Shown), so every schema is closed: a field
a record gains needs its line, or tests/e2e/test_schemathesis.py fails, and a client can tell
the kinds apart by their fields (or by ``kind``, where a system records one)."""
from __future__ import annotations

from typing import Any

REF = "#/components/schemas/"
INT: dict[str, Any] = {"type": "integer"}
STR: dict[str, Any] = {"type": "string"}
BOOL: dict[str, Any] = {"type": "boolean"}
WHO = {"type": ["string", "null"], "description": "a participant's id (null: no one's)"}


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def closed(description: str, required: dict[str, Any], optional: dict[str, Any] | None = None, kind: str | None = None) -> dict[str, Any]:
    """A roll's schema: the fields every roll has, its own, and the context some commands add."""
    own = {"kind": {"type": "string", "enum": [kind]}} if kind else {}
    properties = {**COMMON, **own, **required, **(optional or {})}
    return {"type": "object", "description": description, "properties": properties,
            "required": sorted({*COMMON_REQUIRED, *own, *required}), "additionalProperties": False}


COMMON = {
    "sequence": {"type": "integer", "description": "the chase's roll sequence number: no gaps, never reused"},
    "roller": {"type": ["string", "null"], "description": "the participant who rolled (null: the Keeper's roll)"},
    "purpose": STR,
    "round": INT,
    "source": {"$ref": REF + "DiceSource"},
}
COMMON_REQUIRED = ("sequence", "purpose", "round", "source")
# One die of a roll: its place, its kind (d6, d10, ...) and the face it shows.
FACE = {"type": "object", "properties": {"index": INT, "die": {**STR, "description": "d4 ... d20"}, "face": INT}, "required": ["die", "face"], "additionalProperties": False}


def install(schemas: dict[str, Any], rolls: dict[str, dict[str, Any]]) -> None:
    """Each roll kind of every registered system (api/systems/<package>/roll_docs.py ROLLS), and
    ``Roll``: any of them."""
    schemas.update(rolls)
    schemas["Roll"] = {"description": "one roll as recorded: every die face, the result and how the dice were produced (its kind's schema)",
                       "anyOf": [{"$ref": REF + name} for name in sorted(rolls)]}
    schemas["DiceSource"] = {**schemas["DiceSource"], "additionalProperties": False}
