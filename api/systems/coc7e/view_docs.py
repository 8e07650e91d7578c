"""Typed schemas of a Call of Cthulhu track view's parts (application/systems/coc7e/track.py),
for the OpenAPI document: participants, locations, hazards and barriers, mishaps."""
from __future__ import annotations

from marshmallow import Schema, fields

from api.view_docs import ACTION_FORMS, Action, always_shown, compact_actions, Distance, Shown
from domain.rules.coc7e.participants import KINDS, ROLES, SEATS, STATUSES


class CarriedWeaponState(Schema):
    weapon = fields.String(required=True, metadata={"description": "coc7e-combat.txt Table XVII: Weapons"})
    loaded = fields.Integer(allow_none=True, metadata={"description": "rounds loaded (null: a weapon without a magazine)"})
    jammed = fields.Boolean()
    belt_progress = fields.Integer(metadata={"description": "coc7e-combat.txt \"Reloading Firearms\": a machine-gun belt change half done: the actions spent on it so far (absent when none)"})


class Obstacle(Schema):
    """A hazard or barrier between two adjacent locations (coc7e-chases.txt "Hazards", "Barriers")."""

    id = fields.String(required=True)
    kind = fields.String(metadata={"enum": ["hazard", "barrier"]})
    name = fields.String()
    between = fields.List(fields.Integer(), metadata={"description": "the two adjacent locations"})
    skills = fields.List(fields.String())
    difficulty = fields.String()
    hit_points = fields.Integer(allow_none=True, metadata={"description": "a barrier's hit points left (null: a hazard)"})
    starting_hit_points = fields.Integer(allow_none=True)
    preset = fields.String(allow_none=True, metadata={"description": "a sample barrier's name (GET /rules/coc7e/barrier-presets)"})
    destroyed = fields.Boolean()
    debris_of = fields.String(allow_none=True, metadata={"description": "the barrier this hazard is the debris of"})


class Mishap(Schema):
    """A failed hazard or maneuver awaiting the Keeper's ruling (POST .../consequences)."""

    participant_id = fields.String(required=True)
    cause = fields.String()
    kind = fields.String()
    difficulty = fields.String(allow_none=True)
    vehicle = fields.Boolean(allow_none=True)
    default_incident = fields.String(allow_none=True)
    obstacle_id = fields.String(allow_none=True)
    rolled = fields.Boolean()
    round = fields.Integer()


class AimTaken(Schema):
    """The aim a shooter is taking (coc7e-combat.txt "Aiming (Bonus die)")."""

    target_id = fields.String(required=True)
    weapon = fields.String()
    round = fields.Integer()
    location = fields.Integer(allow_none=True)


@always_shown(*ACTION_FORMS, "obstacle_ahead_id")
class Coc7eParticipant(Schema):
    id = fields.String(required=True)
    name = fields.String()
    kind = fields.String(metadata={"enum": list(KINDS)})
    role = fields.String(allow_none=True, metadata={"enum": [*ROLES, None]})
    status = fields.String(metadata={"enum": list(STATUSES)})
    mov = fields.Integer()
    speed_mov = fields.Integer(allow_none=True, metadata={"description": "MOV after the speed roll (null before it)"})
    dex = fields.Integer(allow_none=True)
    build = fields.Float(metadata={"description": "a vehicle's current Build (0.5 for a bicycle, as printed)"})
    hp = fields.Integer(allow_none=True)
    vehicle_id = fields.String(allow_none=True)
    seat = fields.String(allow_none=True, metadata={"enum": [*SEATS, None]})
    location = fields.Integer(allow_none=True, metadata={"description": "index on the track (null when not in the chase)"})
    movement_actions = fields.Integer()
    owed = fields.Integer(metadata={"description": "movement actions owed from an earlier turn"})
    acted = fields.Boolean()
    damage = fields.Integer()
    hp_left = fields.Integer(allow_none=True)
    armor = fields.Integer()
    attacks_made = fields.Integer()
    condition = fields.String(allow_none=True)
    fate = fields.String(allow_none=True)
    major_wound = fields.Boolean()
    prone = fields.Boolean()
    unconscious = fields.Boolean()
    dying = fields.Boolean()
    stabilised = fields.Boolean()
    dead = fields.Boolean()
    first_aid_tries = fields.Integer()
    attacks_per_round = fields.Integer()
    weapons = fields.List(Shown(CarriedWeaponState))
    held_by = fields.String(allow_none=True)
    disadvantage = fields.String(allow_none=True)
    outnumbered = fields.Boolean()
    dived_for_cover_until_round = fields.Integer(allow_none=True, metadata={"description": "the last round whose attacks a diver forfeits (coc7e-combat.txt \"Diving for Cover\")"})
    aiming = Shown(AimTaken, allow_none=True)
    first_aid_succeeded = fields.Boolean()
    routes = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "location of each fork passed -> the route taken (coc7e-chases.txt \"Choosing a Route\")"})
    obstacle_ahead = Shown(Obstacle, allow_none=True, metadata={"description": "the hazard or standing barrier ahead, in full"})
    obstacle_ahead_id = fields.String(allow_none=True)
    mishap = Shown(Mishap, allow_none=True)
    actions = fields.List(Shown(Action), metadata={"description": "with Prefer: actions=full (in place of allowed_actions and refused_actions): what the token that asked may do for this participant now"})
    allowed_actions, refused_actions = compact_actions()
    distances = fields.List(Shown(Distance), metadata={"description": "to each rival in the chase"})


class Coc7eLocation(Schema):
    index = fields.Integer(required=True)
    name = fields.String(allow_none=True)
    participants = fields.List(fields.String(), metadata={"description": "who stands there (not those riding in a vehicle)"})
    obstacle_ahead = fields.String(allow_none=True, metadata={"description": "the id of the hazard or barrier between it and the next"})


class NamedLocation(Schema):
    index = fields.Integer(required=True)
    name = fields.String(required=True)


class ForkPlaced(Schema):
    """Where the track branches (coc7e-chases.txt "Choosing a Route")."""

    at = fields.Integer(required=True, metadata={"description": "the location where the track branches"})
    routes = fields.List(fields.String(), required=True)


class CaughtUp(Schema):
    pursuer_id = fields.String(required=True)
    quarry_id = fields.String(required=True)
    location = fields.Integer()
    round = fields.Integer()
