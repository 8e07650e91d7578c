"""Typed schemas of a D6 track view's parts (application/systems/d6/track.py), for the OpenAPI
document: participants in metres, their fatigue, and what each may do this round."""
from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields

from api.view_docs import ACTION_FORMS, Action, always_shown, compact_actions, Distance, Shown


class Fatigue(Schema):
    limit = fields.Integer(allow_none=True, metadata={"description": "fast rounds before fatigue (d6-movement.txt \"Fatigue\")"})
    fast_rounds = fields.Integer()
    modifier = fields.Integer(metadata={"description": "added to every movement difficulty"})


class ThisRound(Schema):
    moved = fields.List(fields.String(), metadata={"description": "movement types used this round"})
    fast = fields.Boolean()
    tripped = fields.Boolean()


class RateOption(Schema):
    rate = fields.Float(required=True, metadata={"description": "metres a round"})
    difficulty = fields.Integer(required=True)


class MayMove(Schema):
    """A movement type still open this round: its rates, limits and difficulties."""

    base_rate = fields.Float()
    current_rate = fields.Float(allow_none=True)
    free_up_to = fields.Float(allow_none=True, metadata={"description": "the free short distance (no roll)"})
    slowest = fields.Float(allow_none=True)
    fastest = fields.Float(allow_none=True)
    options = fields.List(Shown(RateOption))


@always_shown(*ACTION_FORMS, "obstacle_ahead", "obstacle_ahead_id")
class D6Participant(Schema):
    id = fields.String(required=True)
    name = fields.String()
    role = fields.String()
    status = fields.String()
    position = fields.Float(allow_none=True, metadata={"description": "metres from the start"})
    move = fields.Float()
    flying_move = fields.Float(allow_none=True)
    physique = fields.String(metadata={"description": "a dice code, such as 3D+1"})
    skills = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "skill: dice code"})
    rates = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={"description": "movement type: this round's rate"})
    fatigue = Shown(Fatigue)
    this_round = Shown(ThisRound)
    caught_by = fields.String(allow_none=True)
    finished_round = fields.Integer(allow_none=True)
    may_move = fields.Dict(keys=fields.String(), values=Shown(MayMove), metadata={"description": "movement type: what it allows now"})
    actions = fields.List(Shown(Action), metadata={"description": "with Prefer: actions=full (in place of allowed_actions and refused_actions)"})
    allowed_actions, refused_actions = compact_actions()
    distances = fields.List(Shown(Distance))
    obstacle_ahead = fields.Raw(allow_none=True, metadata={"description": "no obstacles in D6 chases: null"})
    obstacle_ahead_id = fields.String(allow_none=True)


class Settings(Schema):
    wild_die_one = fields.String()
    acceleration = fields.Boolean()
    speed_limit = fields.Boolean()


class TerrainStretch(Schema):
    class Meta:
        unknown = INCLUDE

    from_ = fields.Float(data_key="from", required=True)
    to = fields.Float(allow_none=True)
    terrain = fields.String()
    modifier = fields.Integer()


class Course(Schema):
    finish = fields.Float(allow_none=True, metadata={"description": "metres (null: no finish line)"})
    terrain = fields.List(Shown(TerrainStretch))
