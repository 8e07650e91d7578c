"""The Server-Sent Events of the two streams (api/stream.py, api/live_streams.py), for the
OpenAPI document (api/contract.py): each event's name and the schema of its ``data`` (JSON).
The media type's schema describes one event (its ``id``, ``event`` name and JSON ``data``), as
schemathesis and OpenAPI 3.1 read a text/event-stream; the names and their data schemas are also
listed under ``x-sse-events`` (name: schema) and in its description."""
from __future__ import annotations

from typing import Any

REPLAY_END = {
    "type": "object",
    "description": "the last event of a replay's stream: how the job ended",
    "required": ["status", "frames", "error"],
    "properties": {
        "status": {"type": "string", "description": "the job's status (finished, failed, ...)"},
        "frames": {"type": "integer", "description": "the steps sent"},
        "error": {"type": ["string", "null"], "description": "why the job failed (null when it did not)"},
    },
    "additionalProperties": False,
}

_ANY_NAME = "*"  # the chase's stream names each SSE event after the chase event it carries
EVENTS: dict[str, dict[str, dict[str, Any]]] = {
    "/chases/{chase_id}/stream": {_ANY_NAME: {"$ref": "#/components/schemas/Event"}},
    "/chases/{chase_id}/replays/{job_id}/stream": {"frame": {"$ref": "#/components/schemas/Frame"}, "end": {"$ref": "#/components/schemas/ReplayEnd"}},
}
SAID = {
    "/chases/{chase_id}/stream": "Each SSE event: `id` the chase event's version (send it back as Last-Event-ID to resume), `event` the chase "
                                 "event's short name (Created, RollMade, ...: the Event schema's `name`), `data` the event as GET /events lists it (Event).",
    "/chases/{chase_id}/replays/{job_id}/stream": "SSE events: `frame` (id: its step; data: Frame) for each step, then `end` (data: ReplayEnd) when the job ends.",
}


def declare(path: str, operation: dict[str, Any]) -> None:
    """The events of a stream operation, on its text/event-stream answer."""
    events = EVENTS.get(path)
    media = operation.get("responses", {}).get("200", {}).get("content", {}).get("text/event-stream")
    if events is None or media is None:
        return
    # The media type's schema (api/stream.py) describes each event as a client reads it (id,
    # event, data); the names and data schemas are listed beside it for a reader and generators.
    media["x-sse-events"] = events
    media["schema"] = {**media["schema"], "description": SAID[path]}
