"""Request schemas of wounds and healing (api/systems/coc7e/wounds.py); bounds from the domain."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.systems.coc7e.obstacle_schemas import Rolls, RollsInput
from domain.rules.coc7e.wound_procedures import MAX_DAYS

HIT_POINTS = validate.Range(0, 10000)


class Damage(RollsInput):
    amount = fields.Integer(strict=True, required=True, validate=HIT_POINTS, metadata={"description": "hit points of damage in one blow, before armor"})
    armor = fields.Integer(strict=True, validate=HIT_POINTS, metadata={"description": "armor points deducted (default 0)"})
    cause = fields.String(validate=validate.Length(1, 200), metadata={"example": "fell 10 feet onto concrete"})
    rolls = Rolls((), ("con",))


class DyingRoll(RollsInput):
    rolls = Rolls(("con",))


class Treatment(RollsInput):
    healer_id = fields.String(metadata={"description": "the participant giving the treatment (their skill is rolled)"})
    target = fields.Integer(strict=True, validate=validate.Range(0, 999), metadata={"description": "the healer's skill value, when the healer is not a participant"})


class FirstAid(Treatment):
    pushed = fields.Boolean(metadata={"description": "a further attempt after the first: a pushed roll"})
    assistant_id = fields.String(metadata={"description": "a second participant giving First Aid: a success if either rolls one (coc7e-combat.txt \"First Aid\"); their roll: assistant"})
    rolls = Rolls(("first_aid", "assistant"))


class Medicine(Treatment):
    same_day = fields.Boolean(metadata={"description": "treated the day the damage was taken (default); otherwise Hard"})
    rolls = Rolls(("medicine", "heal"))


class MedicalCare(Schema):
    healer_id = fields.String()
    target = fields.Integer(strict=True, validate=validate.Range(0, 999))


class Recovery(RollsInput):
    days = fields.Integer(strict=True, validate=validate.Range(0, MAX_DAYS), metadata={"description": "days of regular recovery, 1 hit point a day (no major wound)"})
    week = fields.Boolean(metadata={"description": "a week's recovery roll for a major wound"})
    rest = fields.Boolean(metadata={"description": "complete rest in a comfortable environment: a bonus die"})
    medical_care = fields.Nested(MedicalCare, metadata={"description": "the care giver with the highest Medicine: their roll first; a success is a bonus die, a fumble a penalty die"})
    poor_environment = fields.Boolean(metadata={"description": "a poor environment, unable to rest: a penalty die"})
    rolls = Rolls(("medicine", "con", "heal"))


class Condition(Schema):
    conscious = fields.Boolean(metadata={"description": "the character comes to"})
    standing = fields.Boolean(metadata={"description": "the character stands up"})
    reason = fields.String(validate=validate.Length(0, 500))
