"""Request and response schemas: what front-ends send and get back."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.recorded_chase import DICE_MODES
from domain.rules.coc7e.chase import OUTCOMES
from domain.rules.coc7e.participants import DRIVING_SKILLS, KINDS, LIMITS, ROLES, SEATS
from domain.rules.coc7e.percentile import DIFFICULTIES, MAX_BONUS_OR_PENALTY
from domain.rules.coc7e.vehicles import ERAS, VEHICLES


def _whole(limit: str, **kw):
    low, high = LIMITS[limit]
    return fields.Integer(strict=True, validate=validate.Range(low, high), **kw)


class ChaseCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200), metadata={"example": "Harvey and the farmer"})
    dice = fields.String(load_default="server", validate=validate.OneOf(DICE_MODES), metadata={"description": "default dice for rolls: server dice, or faces entered from the table"})
    system = fields.String(load_default="coc7e", validate=validate.OneOf(("coc7e", "swade", "swd")), metadata={"description": "the rules: coc7e (Call of Cthulhu 7e), swade (Savage Worlds Adventure Edition chase cards) or swd (Savage Worlds Deluxe action cards)"})


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


class DiceInput(Schema):
    table_dice = fields.List(fields.Integer(strict=True), validate=validate.Length(0, 100), metadata={"description": "faces rolled at the table, in order: d100 tens dice (00-90) then the units die (0-9); dN faces 1..N"})
    dice = fields.String(validate=validate.OneOf(DICE_MODES), metadata={"description": "server or table; defaults to the chase's dice"})
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
    # Savage Worlds chases (swade, swd; api/savage_worlds.py): "locations" is then the row of Chase Cards.
    stage = fields.String(metadata={"description": "Savage Worlds: this round's stage, maneuvering (swd), resolving or over"})
    mode = fields.String(allow_none=True, metadata={"description": "swade: the type of chase (foot, vehicular, airplane, ...)"})
    range_increment = fields.Integer(allow_none=True, metadata={"description": "swade: Range per Chase Card between"})
    linear = fields.Boolean(allow_none=True)
    ranges = fields.List(fields.Dict(), metadata={"description": "swade: from, to, cards_between, range"})
    length = fields.Integer(allow_none=True, metadata={"description": "swd: the chase length in rounds (null: without end)"})
    rounds_left = fields.Integer(allow_none=True)
    action_cards = fields.List(fields.Dict(), metadata={"description": "Savage Worlds: the round's Action cards high to low (swd: with Advantage and Attack Range)"})
    deck = fields.Dict(metadata={"description": "Savage Worlds: the decks (cards left, discards, shuffle sequence)"})
    pending = fields.List(fields.Dict(), metadata={"description": "Savage Worlds: what waits to be resolved, first first (POST .../resolve)"})
    location_names = fields.List(fields.Dict(), metadata={"description": "the Keeper's names for locations: {index, name}"})
    obstacles = fields.List(fields.Dict(), metadata={"description": "hazards and barriers: id, kind, name, between (two adjacent locations), skills, difficulty, hit_points, starting_hit_points, preset, destroyed, debris_of"})
    mishaps = fields.List(fields.Dict(), metadata={"description": "failed hazards and maneuvers suffered, awaiting the Keeper's ruling (POST .../consequences)"})


class CommandResult(Schema):
    chase = fields.Nested(ChaseView)
    roll = fields.Dict()
    rolls = fields.List(fields.Dict(), metadata={"description": "every roll the command made, in sequence order"})
    outcome = fields.Dict(metadata={"description": "what the command's rolls decided (passed, winner, destroyed, ...)"})
    obstacle_id = fields.String()
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
