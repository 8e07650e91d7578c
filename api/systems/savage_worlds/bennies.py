"""Bennies and Tests over HTTP: the GM gives bennies; a character spends one to reroll the trait
roll just made, to soak the damage just rolled or (Adventure Edition) to draw a new Action Card
(domain/rules/savage_worlds/bennies.py); a Test or a Trick against a foe (gm_options.py). Load,
call the application, dump."""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.auth import principal
from api.chases import dice, expected_version
from api.schemas import DiceInput
from api.systems.savage_worlds import schemas as s
from api.systems.savage_worlds.chases import SYSTEM, answer, blp, defender_dice, savage
from domain.rules.savage_worlds.participants import MAX_BENNIES


class GiveBennies(Schema):
    change = fields.Integer(strict=True, required=True, validate=validate.Range(-MAX_BENNIES, MAX_BENNIES), metadata={"description": "bennies given (negative: taken back)"})
    reason = fields.String(load_default="", validate=validate.Length(0, 200))


class Soak(DiceInput):
    trait_die = fields.String(required=True, validate=s.TRAIT_DIE, metadata={"description": "the character's Vigor"})
    modifier = s._modifier()


class NewActionCard(Schema):
    card = fields.String(load_default=None, allow_none=True, metadata={"description": "physical deck: the card drawn", **s.CARD})
    keep = fields.String(load_default=None, allow_none=True, metadata={"description": "the card kept (default: the better)"})


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/bennies")
class Bennies(MethodView):
    @blp.arguments(GiveBennies)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """The GM gives a character bennies, or takes them back."""
        return answer(savage().savage_give_bennies(chase_id, system, participant_id, data["change"], data["reason"], expected_version(), by=principal(chase_id)))


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/bennies/reroll")
class Reroll(MethodView):
    @blp.arguments(DiceInput)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """Spend a benny to reroll the trait roll just made; the original stays in the log, the better total counts."""
        return answer(savage().savage_benny(chase_id, system, participant_id, "reroll", data, dice=dice(data), expected_version=expected_version(), by=principal(chase_id)))


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/bennies/soak")
class SoakDamage(MethodView):
    @blp.arguments(Soak)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """Spend a benny to soak the damage just rolled: a Vigor roll, a Wound fewer per success and raise."""
        return answer(savage().savage_benny(chase_id, system, participant_id, "soak", data, dice=dice(data), expected_version=expected_version(), by=principal(chase_id)))


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/tests")
class FoeTest(MethodView):
    @blp.arguments(s.FoeTest)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """A Test or a Trick: opposed rolls against the foe's linked attribute; Distracted or Vulnerable, Shaken with a raise."""
        return answer(savage().savage_test(
            chase_id, system, participant_id, data, dice=dice(data), defender_dice=defender_dice(data), expected_version=expected_version(), by=principal(chase_id),
        ))


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/breaking-things")
class BreakingThings(MethodView):
    @blp.arguments(s.BreakObject)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str):
        """Breaking Things: damage against an object, without Aces or bonus damage; broken at its Hardness."""
        return answer(savage().savage_break(chase_id, system, data, dice=dice(data), expected_version=expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/swade/participants/<participant_id>/bennies/new-action-card")
class DrawNewActionCard(MethodView):
    @blp.arguments(NewActionCard)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Spend a benny to draw a new Action Card for a unit yet to act; the better card is kept."""
        return answer(savage().savage_benny(chase_id, "swade", participant_id, "new-action-card", data, expected_version=expected_version(), by=principal(chase_id)), named="card")
