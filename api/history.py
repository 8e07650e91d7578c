"""The record of a chase: rolls, events, export, tokens, undo, rewind, redo and the seed."""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import url_for
from flask.views import MethodView
from api.parsing import Blueprint

from api import schemas as s
from api.auth import principal
from api.chases import expected_version, result
from api.paging import page
from api.runtime import ledger
from application.permissions import permit_record

def head(chase_id: UUID) -> dict[str, str]:
    """The chain head a read of the record was made at (X-Chain-Head)."""
    return {"X-Chain-Head": ledger().track(chase_id)["chain_head"]}


def with_head(body: dict[str, Any], chase_id: UUID) -> tuple[dict[str, Any], int, dict[str, str]]:
    """A read of the record, with the chain head it was read at (X-Chain-Head)."""
    return body, 200, head(chase_id)


blp = Blueprint("record", __name__, url_prefix="/chases", description="The record: rolls, log, undo, seed, tokens")


@blp.route("/<uuid:chase_id>/rolls")
class Rolls(MethodView):
    @blp.arguments(s.RollQuery, location="query")
    @blp.response(200, s.RollHistory)
    def get(self, query, chase_id: UUID):
        """Every roll in sequence order, a page at a time (``next``), with its dice, context, whether it was undone, and the
        odds it had (``odds``: each outcome's chance {p, exact}, the chance of success and the
        outcome it had; null for a roll without odds, such as a shuffle)."""
        limit = query.pop("limit")
        rolls = ledger().roll_history(chase_id, limit=limit + 1, **query)
        return page("rolls", rolls, limit, lambda roll: roll["sequence"], headers=head(chase_id))


@blp.route("/<uuid:chase_id>/events")
class Events(MethodView):
    @blp.arguments(s.EventPage, location="query")
    @blp.response(200, s.EventLog)
    def get(self, query, chase_id: UUID):
        """The chase's event log, oldest first, a page at a time (``next``); each event with its hash."""
        events = ledger().history.chase_events(chase_id, query["after"], query["limit"] + 1)
        return page("events", events, query["limit"], lambda event: event["version"], headers=head(chase_id))


@blp.route("/<uuid:chase_id>/export")
class Export(MethodView):
    @blp.response(200, s.Export)
    def get(self, chase_id: UUID):
        """The full log as JSON, for `chase verify` to check offline."""
        permit_record(principal(chase_id), "export")
        return with_head(ledger().history.export(chase_id), chase_id)


@blp.route("/<uuid:chase_id>/tokens")
class Tokens(MethodView):
    @blp.arguments(s.PlayerToken)
    @blp.response(201, s.TokenIssued)
    def post(self, data, chase_id: UUID):
        """The Keeper issues a player token bound to participants (shown once)."""
        token = ledger().issue_player_token(chase_id, data["participant_ids"], by=principal(chase_id))
        # A token is a credential with no URL of its own: Location names the chase it opens.
        return {"token": token, "participant_ids": data["participant_ids"]}, 201, {"Location": url_for("chases.Track", chase_id=chase_id)}


@blp.route("/<uuid:chase_id>/undo")
class Undo(MethodView):
    @blp.arguments(s.Undo)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Undo the last actions (Keeper): one new event; the undone stay in the log."""
        return result(ledger().history.undo(chase_id, data["count"], data["reason"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/rewind")
class Rewind(MethodView):
    @blp.arguments(s.Rewind)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Rewind to an earlier version (Keeper), as one new event; needs If-Match (428 without)."""
        by = principal(chase_id)
        permit_record(by, "rewind")  # a player is told that before what a rewind needs (If-Match)
        return result(ledger().history.rewind(chase_id, data["to_version"], data["reason"], expected_version(required=True), by=by))


@blp.route("/<uuid:chase_id>/redo")
class Redo(MethodView):
    @blp.arguments(s.Empty)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Redo the last undone or rewound stretch (Keeper), with its original dice."""
        return result(ledger().history.redo(chase_id, expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/undo-requests")
class UndoRequests(MethodView):
    @blp.arguments(s.UndoRequest)
    @blp.response(201, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """A player asks the Keeper to undo the last actions."""
        request_id, chase = ledger().history.request_undo(chase_id, data["count"], data["note"], by=principal(chase_id))
        return result(chase, 201, location=url_for("record.UndoAnswers", chase_id=chase_id, request_id=request_id), request_id=request_id)


@blp.route("/<uuid:chase_id>/undo-requests/<int:request_id>")
class UndoAnswers(MethodView):
    @blp.arguments(s.UndoAnswer)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, request_id: int):
        """The Keeper accepts (and so undoes) or refuses an undo request."""
        return result(ledger().history.answer_undo_request(chase_id, request_id, data["accept"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/reveal-seed")
class RevealSeed(MethodView):
    @blp.arguments(s.Empty)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Reveal the server-dice seed now (Keeper); a fresh one is committed if play goes on."""
        return result(ledger().history.reveal_seed(chase_id, by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/entropy")
class Entropy(MethodView):
    @blp.arguments(s.Entropy)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Contribute entropy that every later server roll mixes in."""
        return result(ledger().history.contribute_entropy(chase_id, data["entropy"], by=principal(chase_id)))
