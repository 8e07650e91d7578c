"""The request headers a client may send, declared on the operations that honour them
(api/contract.py): If-Match on a chase's commands (api/conditional.py), If-None-Match on a GET
that gives an ETag, Prefer where an answer carries the chase (api/representation.py,
api/compact_actions.py), Last-Event-ID on the streams (api/stream.py). Idempotency-Key is
declared by its own plugin (api/idempotency.py)."""
from __future__ import annotations

from typing import Any

PARAMETERS: dict[str, dict[str, Any]] = {
    "IfMatch": {
        "name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"},
        "description": "the chase's ETag the client acted on (\"12-compact\", \"12\" or \"12-minimal\"): the command runs only on that version, "
                       "otherwise 412 with `current_version`; a rewind needs it (428 without)",
    },
    "IfNoneMatch": {
        "name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
        "description": "the ETag of the answer the client holds: 304 with no body while it still holds",
    },
    "Prefer": {
        "name": "Prefer", "in": "header", "required": False, "schema": {"type": "string", "examples": ["return=minimal", "actions=full"]},
        "description": "return=minimal: the chase's envelope only (chase_id, system, phase, version, round, whose_turn, chain_head); "
                       "actions=full: each participant's actions listed in full; actions=compact: the default form. "
                       "Several are separated by commas; Preference-Applied says which were honoured",
    },
    "LastEventID": {
        "name": "Last-Event-ID", "in": "header", "required": False, "schema": {"type": "string", "pattern": "^[0-9]+$"},
        "description": "the id of the last event received (EventSource sends it when it reconnects): the stream resumes after it; it wins over ?after=",
    },
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/parameters/{name}"}


def declare(method: str, path: str, operation: dict[str, Any], carries_chase: bool) -> None:
    """Add the header parameters ``operation`` honours; ``carries_chase``: its answer is the
    chase's envelope (a command, or the track view)."""
    responses = operation.get("responses", {})
    streams = "text/event-stream" in responses.get("200", {}).get("content", {})
    names = []
    if method in ("post", "put", "patch", "delete") and "{chase_id}" in path:
        names.append("IfMatch")
    if method == "get" and "200" in responses and not streams:
        names.append("IfNoneMatch")
    if carries_chase:
        names.append("Prefer")
    if streams:
        names.append("LastEventID")
    if names:
        operation["parameters"] = [*operation.get("parameters", ()), *map(_ref, names)]
