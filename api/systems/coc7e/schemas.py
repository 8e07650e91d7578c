"""Request and response schemas of the Call of Cthulhu chases (api/systems/coc7e/chases.py)."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from api.schemas import ChaseView, DiceInput
from domain.rules.coc7e import fleeing, forks, joining, modes, monsters, splitting
from api.systems.coc7e import view_docs as docs
from api.view_docs import Shown
from domain.rules.coc7e.arms import MAX_WEAPONS
from domain.rules.coc7e.optional_rules import NAMES as OPTIONAL_RULES
from domain.rules.coc7e.participants import DRIVING_SKILLS, KINDS, LIMITS, ROLES, SEATS
from domain.rules.coc7e.percentile import DIFFICULTIES, MAX_BONUS_OR_PENALTY
from domain.rules.coc7e.vehicle_charts import ERAS, VEHICLES


def _whole(limit: str, **kw):
    low, high = LIMITS[limit]
    return fields.Integer(strict=True, validate=validate.Range(low, high), **kw)


class CarriedWeapon(Schema):
    weapon = fields.String(required=True, validate=validate.Length(1, 100), metadata={"example": ".38 or 9mm Revolver"})
    loaded = fields.Integer(strict=True, validate=validate.Range(0, 10000), metadata={"description": "rounds loaded; default a full magazine (Bullets in Gun)"})


class ParticipantCreate(Schema):
    name = fields.String(validate=validate.Length(1, 200), metadata={"description": "required, except for a chart_vehicle (default: the chart's name)"})
    kind = fields.String(load_default="character", validate=validate.OneOf(KINDS))
    role = fields.String(validate=validate.OneOf(ROLES), metadata={"description": "required unless riding in a vehicle"})
    mov = _whole("mov", metadata={"description": "required, except for a chart_vehicle (which gives it)"})
    dex = _whole("dex", metadata={"description": "required for characters and creatures"})
    con = _whole("con", metadata={"description": "required on foot: the speed roll is a CON roll"})
    hp = _whole("hp")
    build = _whole("build")
    armor = _whole("armor")
    damage_bonus = fields.String(validate=validate.Regexp(r"^(0|[+-]?\d+|[+-]?\d*[dD]\d+)$"), metadata={"example": "+1D4"})
    skills = fields.Dict(keys=fields.String(validate=validate.Length(1, 80)), values=_whole("skill"), metadata={"example": {"Drive Auto": 40, "Dodge": 30}})
    driving_skill = fields.String(validate=validate.OneOf(DRIVING_SKILLS))
    vehicle_id = fields.String(metadata={"description": "ride in this vehicle (a participant of kind vehicle)"})
    seat = fields.String(validate=validate.OneOf(SEATS))
    chart_vehicle = fields.String(
        validate=validate.Length(1, 100),
        metadata={
            "description": "a vehicle of coc7e-chases.txt \"Vehicle Reference Charts\" by name (any case): fills mov, build, armor "
            "and driving_skill, each overridable; kind must be vehicle",
            "enum": [v.name for v in VEHICLES],
        },
    )
    era = fields.String(validate=validate.OneOf(ERAS), metadata={"description": "with chart_vehicle: modern (default) or 1920s (MOV about 20% lower)"})
    weapons = fields.List(
        fields.Nested(CarriedWeapon), validate=validate.Length(0, MAX_WEAPONS),
        metadata={"description": "weapons carried, of coc7e-combat.txt Table XVII (GET /rules/coc7e/weapons), each with the rounds loaded (default: a full magazine)"},
    )
    attacks_per_round = _whole("attacks_per_round", metadata={"description": "attacks a round (monsters may have several; default 1)"})
    str = _whole("str", metadata={"description": "STR: with SIZ, gives the damage bonus and Build (unless given)"})
    siz = _whole("siz", metadata={"description": "SIZ: with STR, gives the damage bonus and Build (unless given)"})


class CutToTheChase(Schema):
    opening_range = fields.Integer(strict=True, load_default=2, validate=validate.Range(1, 2), metadata={"description": "locations between the foremost pursuer and the slowest quarry"})
    staying = fields.List(fields.String(), load_default=list, metadata={"description": "quarries fast enough to escape who choose to stay"})


class Move(Schema):
    locations = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 100))


class Delay(Schema):
    until_after = fields.String(load_default=None, allow_none=True, metadata={"description": "act after this participant; default: last"})


class SkillRoll(DiceInput):
    skill = fields.String(required=True, validate=validate.Length(1, 80), metadata={"example": "Luck"})
    participant_id = fields.String(load_default=None, allow_none=True)
    target = fields.Integer(strict=True, load_default=None, allow_none=True, validate=validate.Range(0, 999))
    difficulty = fields.String(load_default="regular", validate=validate.OneOf(DIFFICULTIES))
    bonus_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, MAX_BONUS_OR_PENALTY))
    penalty_dice = fields.Integer(strict=True, load_default=0, validate=validate.Range(0, MAX_BONUS_OR_PENALTY))
    purpose = fields.String(load_default="skill roll", validate=validate.Length(1, 200))

    @validates_schema
    def _needs_someone(self, data, **kwargs):
        if data.get("target") is None and not data.get("participant_id"):
            raise ValidationError("give a target value, or a participant whose value is used", "target")


class DiceRoll(DiceInput):
    expression = fields.String(required=True, validate=validate.Length(1, 100), metadata={"example": "1D10+1D4+2"})
    participant_id = fields.String(load_default=None, allow_none=True)
    purpose = fields.String(load_default="dice roll", validate=validate.Length(1, 200))


class Coc7eView(ChaseView):
    """The track view of a Call of Cthulhu chase: locations in order and who stands where."""

    locations = fields.List(Shown(docs.Coc7eLocation), metadata={"description": "from the back of the chase to one beyond the leader"})
    participants = fields.Dict(keys=fields.String(), values=Shown(docs.Coc7eParticipant), metadata={"description": "by participant id"})
    slowest_mov = fields.Integer(allow_none=True, metadata={"description": "the slowest quarry's MOV (null before the chase is cut to)"})
    caught_up = fields.List(Shown(docs.CaughtUp))
    location_names = fields.List(Shown(docs.NamedLocation), metadata={"description": "the Keeper's names for locations"})
    obstacles = fields.List(Shown(docs.Obstacle), metadata={"description": "hazards and barriers"})
    mishaps = fields.List(Shown(docs.Mishap), metadata={"description": "failed hazards and maneuvers suffered, awaiting the Keeper's ruling (POST .../consequences)"})
    optional_rules = fields.List(fields.String(metadata={"enum": list(OPTIONAL_RULES)}), metadata={"description": "the optional rules of coc7e-chases.txt part 5 this chase uses (GET /rules/coc7e/optional-rules); changed by PUT .../optional-rules"})
    split_from = fields.String(allow_none=True, metadata={"description": "the chase this one split off from (\"Splitting Up\")"})
    split_into = fields.List(fields.String(), metadata={"description": "the chases split off from this one"})
    split_sisters = fields.List(fields.String(), metadata={"description": "the chases split off the same chase at the same time as this one"})
    forks = fields.List(Shown(docs.ForkPlaced), metadata={"description": "where the track branches (\"Choosing a Route\"); each participant's routes maps each fork passed to the route taken"})
    pursuit = fields.Dict(metadata={"description": "part 5's optional rules in play: sudden_hazards {last_called_by, may_call, to_place}, accelerating {id: {locations, to_location, penalty_dice}}, visibility {id: {area, locations, sees_to}}, stretches [{location, outcome}], navigated [vehicle ids], burst_tires {vehicle id: n}, keep_control_due [driver ids]"})


class OptionalRules(Schema):
    optional_rules = fields.List(
        fields.String(validate=validate.OneOf(OPTIONAL_RULES)), required=True, validate=validate.Length(0, len(OPTIONAL_RULES)),
        metadata={"description": "every optional rule the chase uses from now on; those left out are switched off"},
    )


class Join(Schema):
    location = fields.Integer(strict=True, required=True, validate=validate.Range(0, joining.MAX_LOCATION), metadata={"description": "where the Keeper places the joiner on the track"})
    keep_if_slower = fields.Boolean(load_default=False, metadata={"description": "keep a pursuer slower than the slowest quarry (by default such a pursuer is ignored: left behind)"})


class Leave(Schema):
    reason = fields.String(load_default="", validate=validate.Length(0, joining.MAX_REASON))


class SwitchMode(Schema):
    mode = fields.String(required=True, validate=validate.OneOf(modes.MODES))
    mov = _whole("mov", load_default=None, allow_none=True, metadata={"description": "the MOV listed for the mode; default: the standard MOV on foot, half of it swimming (flying needs one)"})


class Board(DiceInput):
    vehicle_id = fields.String(required=True, validate=validate.Length(1, 200), metadata={"description": "the vehicle to take the wheel of"})


class SubstituteSkill(Schema):
    skill = fields.String(required=True, validate=validate.Length(1, monsters.MAX_SKILL_NAME), metadata={"example": "Swim"})
    aptitude = fields.String(required=True, validate=validate.OneOf(list(monsters.APTITUDES)), metadata={"description": "full (implied aptitude), half (neither), fifth (implied ineptitude)"})
    characteristic = fields.String(load_default="DEX", validate=validate.OneOf(monsters.CHARACTERISTICS))
    characteristic_value = _whole("dex", load_default=None, allow_none=True, metadata={"description": "the characteristic's value, when the chase does not record it (all but DEX and CON)"})


class FleeingTheScene(Schema):
    rounds = fields.Integer(strict=False, required=True, validate=validate.Range(1, fleeing.MAX_ROUNDS))
    from_round = fields.Integer(strict=False, load_default=1, validate=validate.Range(1, fleeing.MAX_ROUNDS))


class Fork(Schema):
    at = fields.Integer(strict=True, required=True, validate=validate.Range(0, joining.MAX_LOCATION), metadata={"description": "the location where the track branches"})
    routes = fields.List(
        fields.String(validate=validate.Length(1, forks.MAX_ROUTE_NAME)), required=True, validate=validate.Length(2, forks.MAX_ROUTES),
        metadata={"example": ["into the river", "along the bank"]},
    )


class ChooseRoute(Schema):
    route = fields.String(required=True, validate=validate.Length(1, forks.MAX_ROUTE_NAME))


class Split(Schema):
    groups = fields.List(
        fields.List(fields.String(validate=validate.Length(1, 200)), validate=validate.Length(1, 1000)), required=True,
        validate=validate.Length(1, splitting.MAX_GROUPS),
        metadata={"description": "the groups that split off, each a list of participant ids (a vehicle takes those aboard); each becomes a chase"},
    )
