"""Chase endpoints: load, call the application, dump."""
from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from flask import g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api import schemas as s
from api.auth import principal
from api.runtime import ledger
from application.chases import DiceChoice, VersionConflict

blp = Blueprint("chases", __name__, url_prefix="/chases", description="Call of Cthulhu 7e chases")


def expected_version() -> int | None:
    """The chase version the client acted on, from If-Match (optimistic concurrency)."""
    tag = request.headers.get("If-Match", "").strip()
    if tag in ("", "*"):
        return None
    match = re.fullmatch(r'"([0-9]{1,18})"|([0-9]{1,18})', tag)
    if not match:
        raise VersionConflict(f"If-Match must be the chase's ETag, such as \"12\", not {tag}")
    return int(match.group(1) or match.group(2))


def dice(data: dict[str, Any]) -> DiceChoice:
    """The roll's dice; table dice are recorded as entered by whoever's token sent them."""
    return DiceChoice(faces=data.get("table_dice"), source=data.get("dice"), entered_by=g.principal.name, entropy=data["entropy"])


def result(chase: dict[str, Any], status: int = 200, **extra: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The command's answer: the chase as it is now, its version (ETag) and its chain head."""
    headers = {"ETag": f'"{chase["version"]}"', "X-Chase-Version": str(chase["version"]), "X-Chain-Head": chase["chain_head"]}
    return {"chase": chase, **extra}, status, headers


@blp.route("")
class Chases(MethodView):
    @blp.arguments(s.ChaseCreate)
    @blp.response(201, s.CommandResult)
    def post(self, data):
        """Create a chase; answers with the Keeper's token (shown once) and the seed commitment."""
        chase, token = ledger().start_chase(data["name"], data["dice"], data["system"])
        return result(chase, 201, keeper_token=token)


@blp.route("/<uuid:chase_id>")
@blp.route("/<uuid:chase_id>/track")
class Track(MethodView):
    @blp.arguments(s.AtVersion, location="query")
    @blp.response(200, s.CommandResult)
    def get(self, query, chase_id: UUID):
        """The track view: locations, who stands where, round, turn order; ?version= for time travel."""
        principal(chase_id)
        if query.get("version") is not None:
            return result(ledger().track_at(chase_id, query["version"]))
        return result(ledger().track(chase_id))


@blp.route("/<uuid:chase_id>/vehicles")
class Vehicles(MethodView):
    @blp.arguments(s.AtVersion, location="query")
    @blp.response(200, s.VehicleView)
    def get(self, query, chase_id: UUID):
        """The vehicle-build view: each vehicle's Build, condition, occupants and Build lost."""
        principal(chase_id)
        if query.get("version") is not None:
            return ledger().view_at(chase_id, query["version"], "vehicles")
        return ledger().vehicles(chase_id)


@blp.route("/<uuid:chase_id>/participants")
class Participants(MethodView):
    @blp.arguments(s.ParticipantCreate)
    @blp.response(201, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Add a character, creature or vehicle (or a character aboard a vehicle)."""
        pid, chase = ledger().add_participant(chase_id, data, expected_version(), by=principal(chase_id))
        return result(chase, 201, participant_id=pid)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/speed-roll")
class SpeedRoll(MethodView):
    @blp.arguments(s.DiceInput)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Speed roll: CON on foot, the driver's Drive Auto (or Pilot, Ride) for a vehicle."""
        roll, chase = ledger().roll_speed(chase_id, participant_id, dice(data), expected_version(), by=principal(chase_id))
        return result(chase, roll=roll)


@blp.route("/<uuid:chase_id>/cut-to-the-chase")
class CutToTheChase(MethodView):
    @blp.arguments(s.CutToTheChase)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Compare speeds, place pursuers and quarries, and begin round 1."""
        return result(ledger().cut_to_the_chase(chase_id, data["opening_range"], data["staying"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/move")
class Move(MethodView):
    @blp.arguments(s.Move)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Spend movement actions to move forward, one location each."""
        return result(ledger().move(chase_id, participant_id, data["locations"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/delay")
class Delay(MethodView):
    @blp.arguments(s.Delay)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Delay acting until another participant has acted."""
        return result(ledger().delay(chase_id, participant_id, data["until_after"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/end-turn")
class EndTurn(MethodView):
    @blp.arguments(s.Empty)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """End the turn; the next participant in DEX order acts."""
        return result(ledger().end_turn(chase_id, participant_id, expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/end")
class End(MethodView):
    @blp.arguments(s.EndChase)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """The Keeper ends the chase: caught, escaped or abandoned."""
        return result(ledger().end_chase(chase_id, data["outcome"], data["note"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/skill-rolls")
class SkillRolls(MethodView):
    @blp.arguments(s.SkillRoll)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """A skill or characteristic roll by value or by the participant's own skill."""
        roll, chase = ledger().roll_skill(
            chase_id, data["skill"], participant_id=data["participant_id"], target=data["target"],
            difficulty=data["difficulty"], bonus=data["bonus_dice"], penalty=data["penalty_dice"],
            purpose=data["purpose"], dice=dice(data), expected_version=expected_version(), by=principal(chase_id),
        )
        return result(chase, roll=roll)


@blp.route("/<uuid:chase_id>/dice-rolls")
class DiceRolls(MethodView):
    @blp.arguments(s.DiceRoll)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Roll a dice expression (1D3, 1D10+1D4+2, 1D3+DB)."""
        roll, chase = ledger().roll_dice(
            chase_id, data["expression"], participant_id=data["participant_id"], purpose=data["purpose"],
            dice=dice(data), expected_version=expected_version(), by=principal(chase_id),
        )
        return result(chase, roll=roll)
