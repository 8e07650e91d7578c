"""D6 race and chase endpoints: /chases/<id>/d6/... Load, call the application, dump.

The record endpoints (rolls, events, export, undo, rewind, redo, the seed, tokens), GET
/chases/<id>/track and POST /chases/<id>/end are shared with every system (api/chases.py,
api/history.py).
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView
from flask_smorest import Blueprint

from api.auth import principal
from api.dry_run import dry_run_allowed
from api.chases import dice, expected_version, participant_url, result
from api.runtime import ledger
from api.schemas import Empty
from api.systems.d6 import schemas as s

blp = Blueprint(
    "d6", __name__, url_prefix="/chases",
    description="D6 System races and chases (d6-movement.txt): movement by difficulty, positions in metres, rounds",
)


def d6() -> Any:
    """The D6 command service of this process's ledger."""
    return ledger().commands["d6"]


def answer(
    found: tuple[Any, list[dict[str, Any]], dict[str, Any]], status: int = 200, named: str | None = None, **extra: Any,
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The command's answer (api.chases.result) with the rolls it made and what it decided
    (``named``: the game's word for a decision that is one value, such as the metres covered)."""
    outcome, rolls, chase = found
    return result(chase, status, rolls=rolls, outcome={named: outcome} if named else outcome, **extra)


@blp.route("/<uuid:chase_id>/d6/participants")
class Participants(MethodView):
    @blp.arguments(s.D6ParticipantCreate)
    @blp.response(201, s.D6Result)
    def post(self, data, chase_id: UUID):
        """Add a pursuer, quarry or racer: Move (and flying Move), dice, position in metres, fatigue limit."""
        pid, rolls, chase = d6().add_participant(chase_id, data, expected_version(), by=principal(chase_id))
        return answer((None, rolls, chase), 201, location=participant_url(chase_id, pid), participant_id=pid)


@blp.route("/<uuid:chase_id>/d6/begin")
class Begin(MethodView):
    @blp.arguments(s.D6Begin)
    @blp.response(200, s.D6Result)
    def post(self, data, chase_id: UUID):
        """Set-up: the finish, terrain by stretch, the Wild Die's 1, the optional limits; round 1 begins."""
        return answer(d6().begin(chase_id, data, expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/d6/participants/<participant_id>/move")
class Move(MethodView):
    @blp.arguments(s.D6Move)
    @blp.response(200, s.D6Result)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """A movement action: running, swimming, climbing, flying or leaping at a declared rate."""
        return answer(d6().move(
            chase_id, participant_id, data["movement"], data["rate"], modifier=data["modifier"], on_failure=data["on_failure"],
            wild_die_one=data["wild_die_one"], running_start=data["running_start"], dice=dice(data),
            expected_version=expected_version(), by=principal(chase_id),
        ), named="metres")


@blp.route("/<uuid:chase_id>/d6/participants/<participant_id>/fatigue-roll")
class FatigueRoll(MethodView):
    @blp.arguments(s.D6FatigueRoll)
    @blp.response(200, s.D6Result)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """Stamina or willpower against 5 plus the fatigue modifier, to overcome fatigue."""
        return answer(d6().fatigue_roll(
            chase_id, participant_id, data["skill"], modifier=data["modifier"], wild_die_one=data["wild_die_one"], dice=dice(data),
            expected_version=expected_version(), by=principal(chase_id),
        ), named="overcome")


@blp.route("/<uuid:chase_id>/d6/skill-rolls")
class SkillRolls(MethodView):
    @blp.arguments(s.D6SkillRoll)
    @blp.response(200, s.D6Result)
    @dry_run_allowed
    def post(self, data, chase_id: UUID):
        """Any roll the GM calls for: a participant's skill or Physique, or a die code; against a difficulty or not."""
        return answer(d6().skill_roll(
            chase_id, data["participant_id"], code=data["code"], skill=data["skill"], difficulty=data["difficulty"], purpose=data["purpose"],
            wild_die_one=data["wild_die_one"], dice=dice(data), expected_version=expected_version(), by=principal(chase_id),
        ), named="total")


@blp.route("/<uuid:chase_id>/d6/end-round")
class EndRound(MethodView):
    @blp.arguments(Empty)
    @blp.response(200, s.D6Result)
    def post(self, data, chase_id: UUID):
        """The GM ends the round: pursuers who reached a quarry catch up, the finish; the next round begins."""
        return answer(d6().end_round(chase_id, expected_version(), by=principal(chase_id)))
