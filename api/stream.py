"""Live updates as Server-Sent Events: a chase's events as recorded, and replays at a pace.

``GET /chases/<id>/stream`` sends each event of the chase's log as it is recorded, with the
event's version as the SSE id: a client that reconnects with ``Last-Event-ID`` (browsers'
EventSource does so by itself) gets exactly the events after it, none missed and none twice,
because events are always read from the store; the live feed (Redis pub/sub, or this process)
only wakes the stream up, and the streams also poll the store in case an announcement is lost.
The stream needs the chase's token in the Authorization header like every chase endpoint, or,
for a browser's EventSource (which cannot send headers), a stream ticket in the URL: ask
``POST /chases/<id>/stream-tickets`` with the token, then open ``.../stream?ticket=<ticket>``.
Tokens are never accepted in URLs (which end up in logs); a ticket is short-lived, names one
chase and opens only its streams (application/tickets.py).
A stream ends after ``CHASE_LEDGER_STREAM_MAX_SECONDS``; the client reconnects and resumes.

These views only open a stream: the request is checked here like any other (token, query,
Last-Event-ID, the replay's job), and the answer is a ``LiveStream`` naming what to send. The
ASGI host (api/asgi.py, what ``chase serve`` runs) sends it from its event loop
(api/live_streams.py), so no open stream holds a thread.
"""
from __future__ import annotations

from datetime import datetime, timezone
from uuid import UUID

from flask import Response, request, url_for
from flask.views import MethodView
from flask_smorest import abort
from marshmallow import Schema, fields, validate

from api.auth import principal
from api.parsing import Blueprint, Position
from api.jobs import job_not_found
from api.live_streams import ChaseEvents, ReplayFrames
from api.runtime import ledger
from application.jobs import JobNotFound

blp = Blueprint("stream", __name__, url_prefix="/chases", description="Live updates (Server-Sent Events)")
blp.register_error_handler(JobNotFound, job_not_found)

SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def sse_event(event: dict[str, object], data: dict[str, object], id_is: str) -> dict[str, object]:
    """One Server-Sent Event as a client reads it (OpenAPI 3.1: a text/event-stream's ``schema``
    describes each event): ``data`` is JSON of the schema ``data``."""
    return {
        "type": "object", "required": ["id", "event", "data"], "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$", "description": f"{id_is}: send it back as Last-Event-ID to resume after it"},
            "event": event,
            "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": data},
            "retry": {"type": "integer", "minimum": 0, "description": "milliseconds to wait before reconnecting"},
        },
    }


CHASE_EVENT = sse_event({"type": "string", "description": "the event's name, as in /events"}, {"$ref": "#/components/schemas/Event"}, "the event's version")
REPLAY_END = {"$ref": "#/components/schemas/ReplayEnd"}  # (api/stream_docs.py: the end event's data)
REPLAY_EVENT = {"oneOf": [
    sse_event({"const": "frame"}, {"$ref": "#/components/schemas/Frame"}, "the step"),
    sse_event({"const": "end", "description": "the last event: the replay's status and its number of frames"}, REPLAY_END, "the last step"),
]}


TICKET = fields.String(validate=validate.Length(max=2000), metadata={"description": "a stream ticket (POST .../stream-tickets), for an EventSource that cannot send the Authorization header"})


class StreamTicket(Schema):
    ticket = fields.String(required=True, metadata={"description": "put it in the stream's URL: ?ticket=..."})
    expires_at = fields.DateTime(required=True, metadata={"description": "RFC 3339 UTC; ask for another after it"})
    expires_in = fields.Integer(required=True, metadata={"description": "seconds the ticket lasts"})


class StreamQuery(Schema):
    ticket = TICKET
    after = Position(load_default=0, metadata={"description": "start after this version (Last-Event-ID wins when sent)"})


class ReplayStreamQuery(Schema):
    ticket = TICKET
    after = Position(load_default=0, metadata={"description": "start after this step (Last-Event-ID wins when sent)"})
    pace = fields.Float(load_default=0.0, validate=validate.Range(0, 60), metadata={"description": "seconds between frames (0: as fast as they come)"})


def last_event_id(default: int) -> int:
    raw = request.headers.get("Last-Event-ID")
    if raw is None or raw.strip() == "":
        return default
    if not raw.strip().isascii() or not raw.strip().isdigit() or len(raw.strip()) > 18:  # ("²" is a digit to isdigit)
        abort(422, messages={"headers": {"Last-Event-ID": ["must be the id of an event this stream sent"]}})
    return int(raw.strip())


class LiveStream(Response):
    """The answer that opens a stream: its headers, and the plan of what the ASGI host sends."""

    # What a plain WSGI server (which cannot hold thousands of streams) sends instead.
    WITHOUT_HOST = "retry: 60000\n: live streams are sent by the ASGI host: run `chase serve` (api.asgi:app)\n\n"

    def __init__(self, plan: ChaseEvents | ReplayFrames) -> None:
        super().__init__(self.WITHOUT_HOST, mimetype="text/event-stream", headers=SSE_HEADERS)
        self.plan = plan


@blp.route("/<uuid:chase_id>/stream-tickets")
class StreamTickets(MethodView):
    @blp.response(201, StreamTicket)
    def post(self, chase_id: UUID):
        """A short-lived ticket that opens this chase's streams in a URL (for a browser's EventSource)."""
        tickets = ledger().tickets
        issued = tickets.issue(str(chase_id), principal(chase_id))
        expires = datetime.fromtimestamp(issued["expires"], timezone.utc)
        # The ticket is a credential: Location names the stream it opens (send it as ?ticket=).
        return {"ticket": issued["ticket"], "expires_at": expires, "expires_in": int(tickets.ttl)}, 201, {"Location": url_for("stream.ChaseStream", chase_id=chase_id)}


@blp.route("/<uuid:chase_id>/stream")
class ChaseStream(MethodView):
    @blp.arguments(StreamQuery, location="query")
    @blp.doc(responses={"200": {"description": "text/event-stream: one SSE event per chase event (id: its version; event: its name; data: the event as in /events)", "content": {"text/event-stream": {"schema": CHASE_EVENT}}}})
    def get(self, query, chase_id: UUID):
        """The chase's events as they are recorded (Server-Sent Events), resumable with Last-Event-ID."""
        principal(chase_id)
        return LiveStream(ChaseEvents(chase_id, last_event_id(query["after"])))


@blp.route("/<uuid:chase_id>/replays/<job_id>/stream")
class ReplayStream(MethodView):
    @blp.arguments(ReplayStreamQuery, location="query")
    @blp.doc(responses={"200": {"description": "text/event-stream: one `frame` event per step (id: the step), then `end`", "content": {"text/event-stream": {"schema": REPLAY_EVENT}}}})
    def get(self, query, chase_id: UUID, job_id: str):
        """A replay's frames at the chosen pace (Server-Sent Events), resumable with Last-Event-ID."""
        principal(chase_id)
        ledger().jobs.get(job_id, chase_id)  # 404 before the stream starts
        return LiveStream(ReplayFrames(chase_id, job_id, last_event_id(query["after"]), query["pace"]))
