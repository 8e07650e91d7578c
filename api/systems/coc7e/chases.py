"""Call of Cthulhu 7e chase endpoints (coc7e-chases.txt parts 1 and 2): participants, speed
rolls, cutting to the chase, movement and turns, skill and dice rolls. Load, call the
application, dump."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView
from api.parsing import Blueprint

from api import schemas as core
from api.auth import principal
from api.dry_run import dry_run_allowed
from api.chases import dice, expected_version, participant_url, result
from api.runtime import ledger
from api.systems.coc7e import schemas as s

blp = Blueprint("coc7e", __name__, url_prefix="/chases", description="Call of Cthulhu 7e chases: participants, speed rolls, movement, turns and rolls")


def coc7e() -> Any:
    """The Call of Cthulhu command service of this process's ledger."""
    return ledger().commands["coc7e"]


@blp.route("/<uuid:chase_id>/participants")
class Participants(MethodView):
    @blp.arguments(s.ParticipantCreate)
    @blp.response(201, core.CommandResult)
    def post(self, data, chase_id: UUID):
        """Add a character, creature or vehicle (or a character aboard a vehicle)."""
        pid, chase = coc7e().add_participant(chase_id, data, expected_version(), by=principal(chase_id))
        return result(chase, 201, location=participant_url(chase_id, pid), participant_id=pid)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/speed-roll")
class SpeedRoll(MethodView):
    @blp.arguments(core.DiceInput)
    @blp.response(200, core.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """Speed roll: CON on foot, the driver's Drive Auto (or Pilot, Ride) for a vehicle."""
        roll, chase = coc7e().roll_speed(chase_id, participant_id, dice(data), expected_version(), by=principal(chase_id))
        return result(chase, rolls=[roll])


@blp.route("/<uuid:chase_id>/cut-to-the-chase")
class CutToTheChase(MethodView):
    @blp.arguments(s.CutToTheChase)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID):
        """Compare speeds, place pursuers and quarries, and begin round 1."""
        return result(coc7e().cut_to_the_chase(chase_id, data["opening_range"], data["staying"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/move")
class Move(MethodView):
    @blp.arguments(s.Move)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Spend movement actions to move forward, one location each."""
        return result(coc7e().move(chase_id, participant_id, data["locations"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/delay")
class Delay(MethodView):
    @blp.arguments(s.Delay)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Delay acting until another participant has acted."""
        return result(coc7e().delay(chase_id, participant_id, data["until_after"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/end-turn")
class EndTurn(MethodView):
    @blp.arguments(core.Empty)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """End the turn; the next participant in DEX order acts."""
        return result(coc7e().end_turn(chase_id, participant_id, expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/skill-rolls")
class SkillRolls(MethodView):
    @blp.arguments(s.SkillRoll)
    @blp.response(200, core.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID):
        """A skill or characteristic roll by value or by the participant's own skill."""
        roll, chase = coc7e().roll_skill(
            chase_id, data["skill"], participant_id=data["participant_id"], target=data["target"],
            difficulty=data["difficulty"], bonus=data["bonus_dice"], penalty=data["penalty_dice"],
            purpose=data["purpose"], dice=dice(data), expected_version=expected_version(), by=principal(chase_id),
        )
        return result(chase, rolls=[roll])


@blp.route("/<uuid:chase_id>/dice-rolls")
class DiceRolls(MethodView):
    @blp.arguments(s.DiceRoll)
    @blp.response(200, core.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID):
        """Roll a dice expression (1D3, 1D10+1D4+2, 1D3+DB)."""
        roll, chase = coc7e().roll_dice(
            chase_id, data["expression"], participant_id=data["participant_id"], purpose=data["purpose"],
            dice=dice(data), expected_version=expected_version(), by=principal(chase_id),
        )
        return result(chase, rolls=[roll])
