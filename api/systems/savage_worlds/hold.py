"""Hold over HTTP (Adventure Edition): a unit goes on Hold on its turn, and comes off it during
another unit's turn, interrupting a foe by opposed Athletics rolls
(domain/rules/savage_worlds/hold.py). Load, call the application, dump."""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView
from marshmallow import Schema, fields

from api.auth import principal
from api.chases import dice, expected_version
from api.systems.savage_worlds import schemas as s
from api.systems.savage_worlds.chases import answer, blp, defender_dice, savage


class ActFromHold(s.OpposedDice):
    trait_die = fields.String(load_default=None, allow_none=True, validate=s.TRAIT_DIE, metadata={"description": "interrupting a foe: the operator's Athletics"})
    defender_die = fields.String(load_default=None, allow_none=True, validate=s.TRAIT_DIE, metadata={"description": "interrupting a foe: the foe's operator's Athletics"})
    modifier = s._modifier()
    defender_modifier = s._modifier()


@blp.route("/<uuid:chase_id>/swade/participants/<participant_id>/hold")
class Hold(MethodView):
    @blp.arguments(Schema)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The unit Holds its Action Card instead of acting on it ("Hold"): its turn ends, and it is
        dealt no new card until it acts."""
        return answer(savage().swade_hold(chase_id, participant_id, expected_version=expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/swade/participants/<participant_id>/act-from-hold")
class ActNow(MethodView):
    @blp.arguments(ActFromHold)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The unit on Hold acts now: before an ally's turn, or interrupting a foe's by opposed
        Athletics rolls (the winner goes first)."""
        return answer(savage().swade_hold(
            chase_id, participant_id, data, dice=dice(data), defender_dice=defender_dice(data),
            expected_version=expected_version(), by=principal(chase_id),
        ))
