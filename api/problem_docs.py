"""The one problem schema (RFC 9457) of the OpenAPI document, and the error answers each
operation documents with it. What api/problems.py, api/guards.py, api/limits.py,
api/idempotency.py and api/observability.py actually answer is what is described here."""
from __future__ import annotations

from html import escape
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
        "type": {"type": "string", "format": "uri-reference", "description": "the kind of problem, a URI reference such as /problems/rule-broken: "
                 "GET it for a page that says what the kind means and what to do about it"},
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
    "429": ("over the rate limit of the token or the client address, or the chase's quota of replays", {"Retry-After": RETRY_AFTER}),
    "503": ("this chase's views cannot be rendered now (set aside for the operator; its events are safe): "
            "retry after Retry-After unless `recorded` is true; or the store is busy (`store-busy`) or takes no writes now (`store-unavailable`: read-only, disk full, restarting): retry after Retry-After", {"Retry-After": {**RETRY_AFTER, "description": "seconds to wait; absent when the command was recorded"}}),
}


# Each kind of problem a `type` names (/problems/<kind>), with what it means and what a client
# does about it: GET /problems/<kind> answers this as a page (RFC 9457 section 3.1.1: the type
# URI, when dereferenced, should give documentation for a person).
KINDS: dict[str, str] = {
    "invalid-request": "A field, query parameter or header is invalid; `errors` names each with what is wrong. Fix the request and send it again.",
    "bad-request": "The request cannot be read as sent (a header or body HTTP itself refuses).",
    "request-entity-too-large": "The body, sent without its length, grew past CHASE_LEDGER_MAX_BODY_BYTES while it was read.",
    "malformed-json": "The body is not JSON that can be read (malformed, or nested too deeply).",
    "invalid-table-dice": "The faces entered from the table do not fit the dice the roll needs (their count or range); `errors` names table_dice.",
    "unauthenticated": "No token, or a token this chase does not know. Send Authorization: Bearer <token>.",
    "forbidden": "The token may not do this: a player acting for someone else's participant or sending a field only the Keeper may (`errors` names it), or a token of another chase.",
    "not-found": "No chase, participant, job or other resource of that id.",
    "method-not-allowed": "The path does not take this method; Allow lists those it takes.",
    "rule-broken": "The command would break a rule of the game; `rule` cites the rules text and heading. Nothing was recorded.",
    "version-conflict": "The chase moved on while the command ran (another writer); `current_version` is its version now. Read the chase and decide again.",
    "precondition-failed": "If-Match named a version that is not the chase's current one (`current_version`). Nothing was recorded.",
    "precondition-required": "This command runs only with If-Match naming the chase's ETag, so that it never undoes what another client recorded since you looked.",
    "history-refused": "The record refuses: nothing to undo or redo, a version not reached, a seed not to be revealed yet.",
    "idempotency-key-reused": "This Idempotency-Key was used for another request; use a new key for a new request.",
    "idempotency-key-recorded": "The command sent first with this Idempotency-Key was recorded but its answer was lost (the server stopped before keeping it). Read the chase at `version` (Location) and its roll history; do not send it again.",
    "too-many-waits": "Too many `?wait=` requests are open for this token or client address; read the job without waiting, or retry after Retry-After seconds.",
    "idempotency-key-in-flight": "A request with this Idempotency-Key is still being answered; retry it shortly to get its answer.",
    "body-too-large": "The body is over CHASE_LEDGER_MAX_BODY_BYTES (`max_bytes`); it was refused before it was read.",
    "unsupported-media-type": "The body is not JSON: send Content-Type: application/json.",
    "rate-limited": "Over the rate limit of the token or of the client address; retry after Retry-After seconds.",
    "views-unavailable": "This chase's views cannot be rendered now (set aside for the operator); its events are safe. Retry after Retry-After unless `recorded` is true.",
    "store-busy": "The store is busy; nothing was recorded unless the chase's events show it. Retry after Retry-After seconds.",
    "store-unavailable": "The store takes no writes now (read-only, disk full, restarting); nothing was recorded unless the chase's events show it. Retry after Retry-After seconds.",
    "too-many-webhooks": "The chase has as many webhooks as one chase may (CHASE_LEDGER_WEBHOOKS_PER_CHASE). Delete or change one instead.",
    "too-many-replays": "The chase has had as many replays this hour as it may (CHASE_LEDGER_REPLAYS_PER_HOUR). Retry after Retry-After seconds, or read a replay already made.",
    "frames-removed": "The replay's frames were removed (CHASE_LEDGER_REPLAY_RETENTION, CHASE_LEDGER_REPLAYS_KEPT). Ask for a new replay of the chase.",
    "request-timeout": "The request's line, headers or body did not arrive within the server's time limit; the connection was closed. Send the whole request promptly.",
    "headers-too-large": "The request's line and headers are over the server's size limit; the connection was closed.",
    "too-many-connections": "Too many connections are open from this client address; close some and retry.",
    "api-unavailable": "The proxy in front of the API found no API process to answer; retry shortly.",
    "not-ready": "A check of the server fails (`checks`): the store, or Redis when it is configured.",
    "internal-error": "The server failed to handle the request; nothing was recorded by it unless the chase's events show it.",
}


def page(kind: str) -> str | None:
    """The page of a kind of problem, or None for a kind there is none of."""
    what = KINDS.get(kind)
    if what is None:
        return None
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{escape(kind)}</title></head>"
            f"<body><h1>{escape(kind)}</h1><p>{escape(what)}</p><p>Every problem is answered as application/problem+json "
            f"(RFC 9457): see the Problem schema in <a href=\"/openapi.json\">/openapi.json</a>.</p></body></html>")


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
