"""Request and response schemas of D6 races and chases (chases.py); bounds from the domain's constants."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.schemas import ChaseView, CommandResult, DiceInput
from api.systems.d6 import view_docs as docs
from api.view_docs import Shown
from domain.rules.d6.dice import DEFAULT_WILD_DIE_ONE, MAX_DICE, WILD_DIE_ONE
from domain.rules.d6.movement import MAX_METRES, MOVEMENT_TYPES, RUNNING_START_ROUNDS, TERRAIN
from domain.rules.d6.moving import ON_FAILURE
from domain.rules.d6.participants import MAX_FATIGUE_LIMIT, MAX_MOVE, MAX_NAME, ROLES, SKILLS
from domain.rules.d6.rolls import MAX_DIFFICULTY, MAX_MODIFIER
from domain.rules.d6.rounds import MAX_STRETCHES, MAX_TERRAIN_MODIFIER

CODE = validate.Regexp(r"^\s*\d{1,3}\s*[dD]\s*([+-]\s*\d{1,2})?\s*$", error=f"a die code such as 4D+1 (1 to {MAX_DICE} dice, pips -2 to +2)")
METRES = {"description": "metres, whole or half"}
ONE = {"description": f"the GM's choice for a 1 on the Wild Die's first roll: {', '.join(WILD_DIE_ONE)} (default: the chase's)"}


class TrueOrFalse(fields.Boolean):
    """JSON true or false only: 1 and 0 are numbers (marshmallow's truthy={True} lets 1 in, as 1 == True)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _metres(**kw):
    return fields.Float(allow_nan=False, validate=validate.Range(0, MAX_METRES), metadata=METRES, **kw)


def _modifier():
    return fields.Integer(
        strict=True, load_default=0, validate=validate.Range(-MAX_MODIFIER, MAX_MODIFIER),
        metadata={"description": "the GM's extra modifier to the difficulty (winds, obstacles, slick surfaces, sharp turns)"},
    )


def _one():
    return fields.String(load_default=None, allow_none=True, validate=validate.OneOf(WILD_DIE_ONE), metadata=ONE)


class D6ParticipantCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, MAX_NAME))
    role = fields.String(required=True, validate=validate.OneOf(ROLES))
    move = fields.Integer(strict=True, required=True, validate=validate.Range(1, MAX_MOVE), metadata={"description": "the Move: metres per round"})
    flying_move = fields.Integer(strict=True, allow_none=True, validate=validate.Range(1, MAX_MOVE))
    physique = fields.String(required=True, validate=CODE, metadata={"description": "the attribute rolled for a movement without its skill", "example": "3D"})
    skills = fields.Dict(
        keys=fields.String(validate=validate.OneOf(SKILLS)), values=fields.String(validate=CODE), load_default=dict,
        metadata={"description": "die codes by skill; climbing here is the climbing skill (full Move up a surface)", "example": {"running": "4D+1"}},
    )
    fatigue_limit = fields.Integer(strict=True, allow_none=True, validate=validate.Range(0, MAX_FATIGUE_LIMIT), metadata={"description": "rounds of fast movement before the fatigue modifier (the GM's; null: not tracked)"})
    position = _metres(load_default=0)


class Stretch(Schema):
    start = fields.Float(data_key="from", attribute="from", required=True, allow_nan=False, validate=validate.Range(0, MAX_METRES), metadata=METRES)
    to = _metres(required=True)
    terrain = fields.String(required=True, validate=validate.OneOf(TERRAIN), metadata={"description": "Movement Difficulty Modifiers: " + ", ".join(f"{k} +{v}" for k, v in TERRAIN.items())})
    modifier = fields.Integer(strict=True, validate=validate.Range(0, MAX_TERRAIN_MODIFIER), metadata={"description": "very hazardous only: +25 or more"})
    note = fields.String(validate=validate.Length(0, 200))


class D6Begin(Schema):
    finish = fields.Float(allow_none=True, load_default=None, allow_nan=False, validate=validate.Range(0.5, MAX_METRES), metadata=METRES)
    terrain = fields.List(fields.Nested(Stretch), load_default=list, validate=validate.Length(0, MAX_STRETCHES))
    wild_die_one = fields.String(load_default=DEFAULT_WILD_DIE_ONE, validate=validate.OneOf(WILD_DIE_ONE), metadata=ONE)
    acceleration = TrueOrFalse(load_default=False, metadata={"description": "Accelerating and Decelerating: the limits on changing rate"})
    speed_limit = TrueOrFalse(load_default=False, metadata={"description": "Maximum Movement: at most 4 times each type's Move"})


class D6Move(DiceInput):
    movement = fields.String(required=True, validate=validate.OneOf(MOVEMENT_TYPES))
    rate = fields.Float(required=True, allow_nan=False, validate=validate.Range(0.5, MAX_METRES), metadata={"description": "metres this round (a leap: its distance), whole or half"})
    modifier = _modifier()
    on_failure = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(ON_FAILURE), metadata={"description": "the GM's ruling on a failed roll: move (the rules' default) or trip"})
    wild_die_one = _one()
    running_start = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, RUNNING_START_ROUNDS), metadata={"description": "leaping: rounds of running start (+5 each)"})


class D6FatigueRoll(DiceInput):
    skill = fields.String(load_default="stamina", validate=validate.OneOf(("stamina", "willpower")))
    modifier = _modifier()
    wild_die_one = _one()


class D6SkillRoll(DiceInput):
    participant_id = fields.String(load_default=None, allow_none=True, validate=validate.Length(1, 100))
    code = fields.String(load_default=None, allow_none=True, validate=CODE)
    skill = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(SKILLS))
    difficulty = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, MAX_DIFFICULTY))
    purpose = fields.String(load_default="skill roll", validate=validate.Length(1, 200))
    wild_die_one = _one()


# The command envelope every system answers with (api.chases.result): one schema in the document.
D6Result = CommandResult


class D6View(ChaseView):
    """The track view of a D6 chase: positions in metres, rates, fatigue and this round's difficulties."""

    round_over = fields.Boolean()
    participants = fields.Dict(keys=fields.String(), values=Shown(docs.D6Participant), metadata={"description": "by participant id"})
    locations = fields.List(fields.Integer(), metadata={"description": "none in D6: positions are in metres", "maxItems": 0})
    settings = Shown(docs.Settings, metadata={"description": "the GM's choices: wild_die_one, acceleration, speed_limit"})
    course = Shown(docs.Course, metadata={"description": "finish (metres or null) and terrain stretches (from, to, terrain, modifier)"})
