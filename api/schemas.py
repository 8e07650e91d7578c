"""Request and response schemas: what front-ends send and get back."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.rules.coc7e.chase import DICE_MODES, OUTCOMES
from domain.rules.coc7e.participants import DRIVING_SKILLS, KINDS, LIMITS, ROLES, SEATS
from domain.rules.coc7e.percentile import DIFFICULTIES, MAX_BONUS_OR_PENALTY


def _whole(limit: str, **kw):
    low, high = LIMITS[limit]
    return fields.Integer(strict=True, validate=validate.Range(low, high), **kw)


class ChaseCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200), metadata={"example": "Harvey and the farmer"})
    dice = fields.String(load_default="server", validate=validate.OneOf(DICE_MODES), metadata={"description": "default dice for rolls: server dice, or faces entered from the table"})


class ParticipantCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200))
    kind = fields.String(load_default="character", validate=validate.OneOf(KINDS))
    role = fields.String(validate=validate.OneOf(ROLES), metadata={"description": "required unless riding in a vehicle"})
    mov = _whole("mov", required=True)
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


class DiceInput(Schema):
    table_dice = fields.List(fields.Integer(strict=True), validate=validate.Length(0, 100), metadata={"description": "faces rolled at the table, in order: d100 tens dice (00-90) then the units die (0-9); dN faces 1..N"})
    dice = fields.String(validate=validate.OneOf(DICE_MODES), metadata={"description": "server or table; defaults to the chase's dice"})
    entered_by = fields.String(load_default="keeper", validate=validate.Length(1, 80))
    entropy = fields.String(load_default="", validate=validate.Length(0, 200), metadata={"description": "player-supplied entropy mixed into server dice"})


class CutToTheChase(Schema):
    opening_range = fields.Integer(strict=True, load_default=2, validate=validate.Range(1, 2), metadata={"description": "locations between the foremost pursuer and the slowest quarry"})
    staying = fields.List(fields.String(), load_default=list, metadata={"description": "quarries fast enough to escape who choose to stay"})


class Move(Schema):
    locations = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 100))


class Delay(Schema):
    until_after = fields.String(load_default=None, allow_none=True, metadata={"description": "act after this participant; default: last"})


class Empty(Schema):
    pass


class EndChase(Schema):
    outcome = fields.String(required=True, validate=validate.OneOf(OUTCOMES))
    note = fields.String(load_default="", validate=validate.Length(0, 2000))


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


class RollFilters(Schema):
    participant_id = fields.String()
    purpose = fields.String()
    round = fields.Integer(validate=validate.Range(0, 10**9))
    source = fields.String(validate=validate.OneOf(DICE_MODES))
    undone = fields.Boolean()


class EventPage(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, 2**62))
    limit = fields.Integer(load_default=1000, validate=validate.Range(1, 10000))


class ChaseView(Schema):
    """The track view: locations in order and who stands where, round and turn order."""

    chase_id = fields.String()
    name = fields.String()
    system = fields.String()
    dice = fields.String()
    seed_commitment = fields.String()
    phase = fields.String(metadata={"description": "setup, running or ended"})
    outcome = fields.String(allow_none=True)
    version = fields.Integer()
    round = fields.Integer()
    turn_order = fields.List(fields.String())
    whose_turn = fields.String(allow_none=True)
    slowest_mov = fields.Integer()
    locations = fields.List(fields.Dict())
    participants = fields.Dict(keys=fields.String(), values=fields.Dict())
    caught_up = fields.List(fields.Dict())
    created_at = fields.String()
    end_note = fields.String()
    chain_head = fields.String(metadata={"description": "hash of the chase's latest event (also the X-Chain-Head header)"})
    seed_epoch = fields.Integer()
    revealed_seeds = fields.List(fields.Dict())
    entropy = fields.String()
    rolls_made = fields.Integer()
    actions = fields.Integer(metadata={"description": "actions that count (not undone)"})
    can_redo = fields.Boolean()
    undo_requests = fields.List(fields.Dict(), metadata={"description": "undo requests awaiting the Keeper"})


class CommandResult(Schema):
    chase = fields.Nested(ChaseView)
    roll = fields.Dict()
    participant_id = fields.String()
    keeper_token = fields.String(metadata={"description": "only when a chase is created: the Keeper's token, shown once"})
    request_id = fields.Integer()


class RollHistory(Schema):
    rolls = fields.List(fields.Dict())


class EventLog(Schema):
    events = fields.List(fields.Dict())


class AtVersion(Schema):
    version = fields.Integer(validate=validate.Range(1, 2**62), metadata={"description": "time travel: the view as it was at this version"})


class RollQuery(RollFilters):
    version = fields.Integer(validate=validate.Range(1, 2**62), metadata={"description": "time travel: the history as it was at this version"})


class PlayerToken(Schema):
    participant_ids = fields.List(fields.String(), required=True, validate=validate.Length(1, 50))


class TokenIssued(Schema):
    token = fields.String()
    participant_ids = fields.List(fields.String())


class Undo(Schema):
    count = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 1000), metadata={"description": "how many of the last actions to undo"})
    reason = fields.String(load_default="", validate=validate.Length(0, 500))


class Rewind(Schema):
    to_version = fields.Integer(strict=True, required=True, validate=validate.Range(1, 2**62))
    reason = fields.String(load_default="", validate=validate.Length(0, 500))


class UndoRequest(Schema):
    count = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, 1000))
    note = fields.String(load_default="", validate=validate.Length(0, 500))


class UndoAnswer(Schema):
    accept = fields.Boolean(required=True)


class Entropy(Schema):
    entropy = fields.String(required=True, validate=validate.Length(1, 200), metadata={"description": "any text a player chooses; mixed into later server rolls"})


class Export(Schema):
    format = fields.String()
    chase_id = fields.String()
    events = fields.List(fields.Dict())


class VehicleView(Schema):
    """Each vehicle with its starting and current Build, condition, armor, occupants, losses."""

    chase_id = fields.String()
    version = fields.Integer()
    vehicles = fields.List(fields.Dict())
