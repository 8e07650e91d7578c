"""The one problem schema (RFC 9457) of the OpenAPI document, and the error answers each
operation documents with it. What api/problems.py, api/guards.py, api/limits.py,
api/idempotency.py and api/observability.py actually answer is what is described here."""
from __future__ import annotations

from typing import Any

PROBLEM_JSON = "application/problem+json"
REF = "#/components/schemas/Problem"

FIELD_ERROR = {
    "type": "object",
    "description": "one bad field, header or query parameter, and what is wrong with it",
    "required": ["field", "message"],
    "properties": {
        "field": {"type": "string", "description": "the field's name (dotted for nested fields: weapons.0.weapon), or a header (Content-Type, Idempotency-Key), or body"},
        "message": {"type": "string"},
    },
}

PROBLEM = {
    "type": "object",
    "description": (
        "RFC 9457 problem details, the body of every error (`application/problem+json`). `type` names the "
        "kind of problem (/problems/invalid-request, /problems/rule-broken, /problems/version-conflict, ...); "
        "`errors` names every bad field of a 4xx caused by the request; `rule` cites the rules text (file and "
        "heading) of a rule the command would break."
    ),
    "required": ["type", "title", "status", "detail", "instance"],
    "properties": {
        "type": {"type": "string", "description": "the kind of problem, a URI reference such as /problems/rule-broken"},
        "title": {"type": "string", "description": "a short, fixed summary of the kind"},
        "status": {"type": "integer", "minimum": 400, "maximum": 599, "description": "the HTTP status"},
        "detail": {"type": "string", "description": "what went wrong with this request, for a person"},
        "instance": {"type": "string", "description": "the path of the request"},
        "errors": {"type": "array", "items": {"$ref": "#/components/schemas/FieldError"}, "description": "every bad field (400, 405, 413, 415, 422, 429); on a 403, the field only the Keeper may send"},
        "rule": {"type": "string", "description": "409: the rule broken, as its rules text's file and heading"},
        "current_version": {"type": "integer", "description": "409 version conflict: the chase's version now"},
        "header": {"type": "string", "description": "409 idempotency-key-in-flight or idempotency-key-recorded: the header concerned"},
        "max_bytes": {"type": "integer", "description": "413: the largest body accepted"},
        "chase_id": {"type": "string", "description": "503 views unavailable: the chase set aside; 409 idempotency-key-recorded: the chase the command recorded in"},
        "recorded": {"type": "boolean", "description": "503 views unavailable: whether the command was recorded all the same"},
        "version": {"type": "integer", "description": "503 views unavailable, recorded, or 409 idempotency-key-recorded: the version the command recorded"},
        "checks": {"type": "object", "additionalProperties": {"type": "string"}, "description": "503 not ready: each check and its state"},
    },
}

RETRY_AFTER = {"description": "seconds to wait before trying again", "schema": {"type": "string", "pattern": "^[0-9]+$"}}

# Each error status: its description, and the headers it may carry.
ERRORS: dict[str, tuple[str, dict[str, Any]]] = {
    "400": ("the body is not JSON that can be read (malformed, or nested too deeply)", {}),
    "401": ("no token, or a token this chase does not know (WWW-Authenticate: Bearer)", {"WWW-Authenticate": {"schema": {"type": "string"}}}),
    "403": ("the token may not do this: a player acting for someone else's participant or doing what only the Keeper may (`errors` names a field only the Keeper may send), or a token of another chase", {}),
    "404": ("no chase, participant, job or other resource of that id", {}),
    "409": ("a rule of the game would be broken (`rule` cites it), the chase moved on (If-Match, `current_version`), "
            "the record refuses (nothing to redo), or a request with this Idempotency-Key is still in flight (or was recorded and its answer lost: `Location` names the chase at its version)", {}),
    "412": ("If-Match names a version that is not the chase's current one (`current_version`)", {}),
    "413": ("the body is over CHASE_LEDGER_MAX_BODY_BYTES (refused before it is read)", {}),
    "415": ("the body is not JSON (Content-Type: application/json)", {"Accept-Post": {"schema": {"type": "string"}}}),
    "422": ("a field, query parameter or header is invalid (`errors` names each), or an Idempotency-Key is reused for another request", {}),
    "428": ("this command needs an If-Match header with the chase's ETag", {}),
    "429": ("over the rate limit of the token or the client address", {"Retry-After": RETRY_AFTER}),
    "503": ("this chase's views cannot be rendered now (set aside for the operator; its events are safe): "
            "retry after Retry-After unless `recorded` is true; or the store is busy (`store-busy`): retry after Retry-After", {"Retry-After": {**RETRY_AFTER, "description": "seconds to wait; absent when the command was recorded"}}),
}


def install(components: dict[str, Any]) -> None:
    """The problem schema and one response component per error status."""
    schemas = components.setdefault("schemas", {})
    schemas["Problem"] = PROBLEM
    schemas["FieldError"] = FIELD_ERROR
    responses = components.setdefault("responses", {})
    for status, (description, headers) in ERRORS.items():
        responses[f"Problem{status}"] = {
            "description": description,
            "content": {PROBLEM_JSON: {"schema": {"$ref": REF}}},
            **({"headers": headers} if headers else {}),
        }


def answer(status: str) -> dict[str, str]:
    return {"$ref": f"#/components/responses/Problem{status}"}
