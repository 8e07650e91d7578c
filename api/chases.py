"""Chase endpoints every game system shares: create a chase, read its views, end it. Load, call
the application, dump; the helpers every blueprint uses (If-Match, dice, the command's answer)."""
from __future__ import annotations

import re
from typing import Any
from uuid import UUID

from flask import g, request
from flask.views import MethodView
from flask_smorest import Blueprint

from api import schemas as s
from api.affordances import present
from api.auth import principal
from api.representation import prefers_minimal
from api.runtime import ledger
from application.dice import DiceChoice
from application.runner import VersionConflict

blp = Blueprint("chases", __name__, url_prefix="/chases", description="Chases of every game system: create one, read its views, end it")


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


def result(chase: dict[str, Any], status: int = 200, *, live: bool = True, **extra: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The command's answer: the chase as it is now, its version (ETag) and its chain head; the
    view as the token that asked reads it (api/affordances.py; ``live``: False for a past version,
    which is read-only). With ``Prefer: return=minimal`` none of that is worked out."""
    if not prefers_minimal():
        chase = present(chase, live=live)
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
            return result(ledger().history.track_at(chase_id, query["version"]), live=False)
        return result(ledger().track(chase_id))


@blp.route("/<uuid:chase_id>/vehicles")
class Vehicles(MethodView):
    @blp.arguments(s.AtVersion, location="query")
    @blp.response(200, s.VehicleView)
    def get(self, query, chase_id: UUID):
        """The vehicle-build view: each vehicle's Build, condition, occupants and Build lost."""
        principal(chase_id)
        if query.get("version") is not None:
            return ledger().history.view_at(chase_id, query["version"], "vehicles")
        return ledger().vehicles(chase_id)


@blp.route("/<uuid:chase_id>/end")
class End(MethodView):
    @blp.arguments(s.EndChase)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """The Keeper ends the chase, in its system's words (escaped, abandoned, ...);
        its server-dice seed is revealed in the same action."""
        return result(ledger().end_chase(chase_id, data["outcome"], data["note"], expected_version(), by=principal(chase_id)))
