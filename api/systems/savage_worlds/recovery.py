"""Recovering from Stunned and breaking free from Bound or Entangled over HTTP, in both chases
(domain/rules/savage_worlds/recovery.py). Load, call the application, dump."""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView
from marshmallow import fields

from api.auth import principal
from api.chases import dice, expected_version
from api.schemas import DiceInput
from api.systems.savage_worlds import schemas as s
from api.systems.savage_worlds.chases import SYSTEM, answer, blp, defender_dice, savage


class RecoverFromStunned(DiceInput):
    trait_die = fields.String(required=True, validate=s.TRAIT_DIE, metadata={"description": "the character's Vigor"})
    modifier = s._modifier()


class BreakFree(s.OpposedDice):
    trait_die = fields.String(required=True, validate=s.TRAIT_DIE, metadata={"description": "Athletics, or Strength with strength: true (-2)"})
    strength = fields.Boolean(load_default=False, metadata={"description": "roll Strength at -2 instead of Athletics"})
    held_by = fields.String(load_default=None, allow_none=True, metadata={"description": "the foe holding the victim: an opposed roll"})
    defender_die = fields.String(load_default=None, allow_none=True, validate=s.TRAIT_DIE, metadata={"description": "the holder's die, when held by a foe"})
    modifier = s._modifier()
    defender_modifier = s._modifier()
    actions = s._actions()


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/recover-from-stunned")
class StunnedRecovery(MethodView):
    @blp.arguments(RecoverFromStunned)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """At the start of the turn, a Vigor roll: a success ends Stunned (Vulnerable until the end
        of the next turn), a raise ends both."""
        return answer(savage().savage_free_self(chase_id, system, participant_id, "stunned", data, dice=dice(data), expected_version=expected_version(), by=principal(chase_id)))


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/break-free")
class BreakingFree(MethodView):
    @blp.arguments(BreakFree)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """Athletics (or Str-2) as an action, opposed by a holding foe: a success improves Bound
        to Entangled or Entangled to free; a raise frees."""
        return answer(savage().savage_free_self(
            chase_id, system, participant_id, "break free", data, dice=dice(data), defender_dice=defender_dice(data),
            expected_version=expected_version(), by=principal(chase_id),
        ))
