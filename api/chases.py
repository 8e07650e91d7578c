"""Chase endpoints every game system shares: create a chase, read its views, end it. Load, call
the application, dump; the helpers every blueprint uses (If-Match, dice, the command's answer)."""
from __future__ import annotations

from typing import Any, Sequence
from uuid import UUID

from flask import abort, g, url_for
from flask.views import MethodView
from api.parsing import Blueprint

from api import schemas as s
from api.affordances import present
from api.auth import principal
from api.conditional import expected_version
from api.representation import etag, prefers_minimal
from api.runtime import ledger
from application.dice import DiceChoice

blp = Blueprint("chases", __name__, url_prefix="/chases", description="Chases of every game system: create one, read its views, end it")


ANSWER_FIELDS = frozenset(s.CommandResult._declared_fields)  # (made once: every command's answer is checked against them)


def dice(data: dict[str, Any]) -> DiceChoice:
    """The roll's dice; table dice are recorded as entered by whoever's token sent them."""
    return DiceChoice(faces=data.get("table_dice"), source=data.get("dice"), entered_by=g.principal.name, entropy=data["entropy"])


def result(
    chase: dict[str, Any], status: int = 200, *, live: bool = True, rolls: Sequence[dict[str, Any]] = (), outcome: dict[str, Any] | None = None,
    location: str | None = None, **created: Any,
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The answer of every command of every system, one envelope (issue 18): ``chase``, the
    chase as it is now, as the token that asked reads it (api/affordances.py; ``live``: False for
    a past version, which is read-only; with ``Prefer: return=minimal`` none of that is worked
    out); ``rolls``, every roll the command made in sequence order ([] for none); ``outcome``,
    what the command decided, an object named in the game's words (null when the new chase says
    it all; ``{"value": ...}`` for a single value its endpoint did not name); beside them only
    what a command creates (``participant_id``, ``obstacle_id``, ``request_id``,
    ``keeper_token``). Headers: its version (ETag: each form of the answer has a tag of its own), its chain
    head, and for a 201 the ``Location`` of what was created."""
    stray = created.keys() - ANSWER_FIELDS
    if stray:  # the answer's schema would drop it unseen (a roll passed as ``roll=`` once was)
        raise TypeError(f"a command's answer has no field {sorted(stray)}: rolls go in rolls, decisions in outcome")
    if not prefers_minimal():
        chase = present(chase, live=live)
    if outcome is not None and not isinstance(outcome, dict):
        outcome = {"value": outcome}  # one value a system gave no word for: still an object, never a bare number
    headers = {"ETag": etag(chase["version"]), "X-Chase-Version": str(chase["version"]), "X-Chain-Head": chase["chain_head"]}
    if location is not None:
        headers["Location"] = location
    return {"chase": chase, "rolls": list(rolls), "outcome": outcome, **created}, status, headers


@blp.route("")
class Chases(MethodView):
    @blp.arguments(s.ChaseCreate)
    @blp.response(201, s.CommandResult)
    def post(self, data):
        """Create a chase; answers with the Keeper's token (shown once) and the seed commitment."""
        chase, token = ledger().start_chase(data["name"], data["dice"], data["system"], data["optional_rules"])
        return result(chase, 201, location=url_for("chases.Track", chase_id=chase["chase_id"]), keeper_token=token)


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


def participant_url(chase_id: UUID, participant_id: str) -> str:
    """Where a participant just added is read (the Location of its 201), in every system."""
    return url_for("chases.Participant", chase_id=chase_id, participant_id=participant_id)


@blp.route("/<uuid:chase_id>/participants/<participant_id>")
class Participant(MethodView):
    @blp.response(200, s.ParticipantView)
    def get(self, chase_id: UUID, participant_id: str):
        """One participant as the track view shows it (any system), with the chase's version (ETag)."""
        principal(chase_id)
        chase = ledger().track(chase_id)
        found = chase["participants"].get(participant_id)
        if found is None:
            abort(404, f"no participant {participant_id} in chase {chase_id}")
        headers = {"ETag": f'"{chase["version"]}"', "X-Chase-Version": str(chase["version"]), "X-Chain-Head": chase["chain_head"]}
        return {"chase_id": chase["chase_id"], "version": chase["version"], "participant_id": participant_id, "participant": found}, 200, headers


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
