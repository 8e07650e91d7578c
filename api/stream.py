"""Live updates as Server-Sent Events: a chase's events as recorded, and replays at a pace.

``GET /chases/<id>/stream`` sends each event of the chase's log as it is recorded, with the
event's version as the SSE id: a client that reconnects with ``Last-Event-ID`` (browsers'
EventSource does so by itself) gets exactly the events after it, none missed and none twice,
because events are always read from the store; the live feed (Redis pub/sub, or this process)
only wakes the stream up, and the stream also polls in case an announcement is lost.
The stream needs the chase's token in the Authorization header like every chase endpoint
(use a fetch-based SSE client; tokens are not accepted in URLs, which end up in logs).
A stream ends after ``CHASE_LEDGER_STREAM_MAX_SECONDS``; the client reconnects and resumes.
"""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from flask import Response, request
from flask.views import MethodView
from flask_smorest import Blueprint, abort
from marshmallow import Schema, fields, validate

from api.auth import principal
from api.parsing import Position
from api.jobs import job_not_found
from api.runtime import ledger
from application.jobs import FINAL, JobNotFound

blp = Blueprint("stream", __name__, url_prefix="/chases", description="Live updates (Server-Sent Events)")
blp.register_error_handler(JobNotFound, job_not_found)

PAGE = 100
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class StreamQuery(Schema):
    after = Position(load_default=0, metadata={"description": "start after this version (Last-Event-ID wins when sent)"})


class ReplayStreamQuery(Schema):
    after = Position(load_default=0, metadata={"description": "start after this step (Last-Event-ID wins when sent)"})
    pace = fields.Float(load_default=0.0, validate=validate.Range(0, 60), metadata={"description": "seconds between frames (0: as fast as they come)"})


def last_event_id(default: int) -> int:
    raw = request.headers.get("Last-Event-ID")
    if raw is None or raw.strip() == "":
        return default
    if not raw.strip().isdigit() or len(raw.strip()) > 18:
        abort(422, messages={"headers": {"Last-Event-ID": ["must be the id of an event this stream sent"]}})
    return int(raw.strip())


def sse(event_id: int, kind: str, data: Any) -> str:
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def chase_events(app: Any, chase_id: UUID, after: int) -> Iterator[str]:
    """The stream's body: the backlog after ``after``, then each new event as it is recorded."""
    settings = app.worker
    subscription = app.live.subscribe(str(chase_id))  # before reading: no announcement is missed
    started = quiet_since = time.monotonic()
    try:
        yield f"retry: 1000\n: chase {chase_id} after version {after}\n\n"
        while True:
            events = app.history.chase_events(chase_id, after=after, limit=PAGE)
            for event in events:
                yield sse(event["version"], event["name"], event)
                after = event["version"]
            if events:
                quiet_since = time.monotonic()
                if len(events) == PAGE:
                    continue
            now = time.monotonic()
            if now - started >= settings.stream_max_seconds:
                return  # the client reconnects with Last-Event-ID
            if now - quiet_since >= settings.stream_heartbeat:
                yield ": keep-alive\n\n"  # also how a closed connection is noticed
                quiet_since = now
            subscription.wait(min(settings.stream_poll, settings.stream_heartbeat))
    finally:
        subscription.close()


def replay_frames(app: Any, chase_id: UUID, job_id: str, after: int, pace: float) -> Iterator[str]:
    settings = app.worker
    started = quiet_since = time.monotonic()
    yield "retry: 1000\n\n"
    while True:
        frames = app.jobs.frames(job_id, chase_id, after, PAGE)
        for frame in frames:
            yield sse(frame["step"], "frame", frame)
            after = frame["step"]
            if time.monotonic() - started >= settings.stream_max_seconds:
                return  # the client reconnects with Last-Event-ID
            if pace:
                time.sleep(pace)
        if frames:
            quiet_since = time.monotonic()
            continue
        job = app.jobs.get(job_id, chase_id)
        if job["status"] in FINAL:
            yield sse(after, "end", {"status": job["status"], "frames": after, "error": job["error"]})
            return
        now = time.monotonic()
        if now - started >= settings.stream_max_seconds:
            return
        if now - quiet_since >= settings.stream_heartbeat:
            yield ": keep-alive\n\n"
            quiet_since = now
        time.sleep(min(0.25, settings.stream_poll))


def event_stream(body: Iterator[str]) -> Response:
    return Response(body, mimetype="text/event-stream", headers=SSE_HEADERS)


@blp.route("/<uuid:chase_id>/stream")
class ChaseStream(MethodView):
    @blp.arguments(StreamQuery, location="query")
    @blp.doc(responses={"200": {"description": "text/event-stream: one SSE event per chase event (id: its version; event: its name; data: the event as in /events)", "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    def get(self, query, chase_id: UUID):
        """The chase's events as they are recorded (Server-Sent Events), resumable with Last-Event-ID."""
        principal(chase_id)
        app = ledger()
        return event_stream(chase_events(app, chase_id, last_event_id(query["after"])))


@blp.route("/<uuid:chase_id>/replays/<job_id>/stream")
class ReplayStream(MethodView):
    @blp.arguments(ReplayStreamQuery, location="query")
    @blp.doc(responses={"200": {"description": "text/event-stream: one `frame` event per step (id: the step), then `end`", "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    def get(self, query, chase_id: UUID, job_id: str):
        """A replay's frames at the chosen pace (Server-Sent Events), resumable with Last-Event-ID."""
        principal(chase_id)
        app = ledger()
        app.jobs.get(job_id, chase_id)  # 404 before the stream starts
        return event_stream(replay_frames(app, chase_id, job_id, last_event_id(query["after"]), query["pace"]))
