"""The parts the OpenAPI document is finished with (api/contract.py): the security schemes and
who each lets in, the headers answers carry, and the app's own routes that no blueprint
documents (liveness, readiness, metrics)."""
from __future__ import annotations

from api.problem_docs import PROBLEM_JSON, REF, answer

SECURITY_SCHEMES = {
    "chaseToken": {"type": "http", "scheme": "bearer", "description": "the chase's Keeper token (from POST /chases) or a player token (POST /chases/{chase_id}/tokens)"},
    "streamTicket": {"type": "apiKey", "in": "query", "name": "ticket", "description": "a stream ticket (POST /chases/{chase_id}/stream-tickets), for EventSource, which cannot send headers"},
    "groupToken": {"type": "http", "scheme": "bearer", "description": "the session's or campaign's Keeper token (from POST /sessions or POST /campaigns)"},
    "operatorToken": {"type": "http", "scheme": "bearer", "description": "the operator's token (CHASE_LEDGER_ADMIN_TOKEN)"},
    "metricsToken": {"type": "http", "scheme": "bearer", "description": "CHASE_LEDGER_METRICS_TOKEN, when it is set"},
}
PUBLIC = "Public: no token needed."
WHO = {
    "chaseToken": "Needs the chase's token: the Keeper's, or a player's where players may act (for their own participants).",
    "groupToken": "Needs the Keeper token of the session or campaign.",
    "operatorToken": "Operator only: needs CHASE_LEDGER_ADMIN_TOKEN.",
    "metricsToken": "Needs CHASE_LEDGER_METRICS_TOKEN when it is set; public otherwise.",
}

_INT = {"type": "string", "pattern": "^[0-9]+$"}
RATE_HEADERS = {
    "RateLimit-Limit": {"description": "requests allowed in the window of the limit nearest to running out", "schema": _INT},
    "RateLimit-Remaining": {"description": "requests left in that window", "schema": _INT},
    "RateLimit-Reset": {"description": "seconds until that window frees a request", "schema": _INT},
    "X-Request-ID": {"description": "the request's id, as sent in X-Request-ID or made up; it is in the logs", "schema": {"type": "string"}},
}
CHASE_HEADERS = {
    "ETag": {"description": "the chase's version, quoted, with the form of the answer (\"12-compact\" for the track view's default form; \"12\" for the "
                     "full actions, Prefer: actions=full, and for one participant; \"12-minimal\" for a minimal answer: each form keeps its own tag): send it back as If-Match to make a command conditional", "required": True, "schema": {"type": "string", "pattern": '^"[0-9]+(-compact|-minimal)?"$'}},
    "X-Chase-Version": {"description": "the chase's version", "required": True, "schema": _INT},
    "X-Chain-Head": {"description": "hash of the chase's latest event: keep it, `chase verify --head` proves later that the log still holds it", "required": True, "schema": {"type": "string", "pattern": "^[0-9a-f]{64}$"}},
}
COMMAND_HEADERS = {
    "Idempotent-Replayed": {"description": "true when this is the kept answer to an earlier request with the same Idempotency-Key: its body and the headers "
                            "that describe it (Preference-Applied, Vary, ETag, ...) are the first answer's, whatever this request's Prefer",
                            "schema": {"type": "string", "enum": ["true"]}},
    "Preference-Applied": {"description": "return=minimal when the request's Prefer: return=minimal was honoured; actions=full when the track view's actions were listed per participant (Prefer: actions=full); actions=compact when the default form was asked for by name",
                           "schema": {"type": "string", "enum": ["return=minimal", "actions=full", "actions=compact"]}},
}
VALIDATOR = {"description": "the answer's entity tag (a chase's version, or a tag of the rules data's content): send it as If-None-Match to get 304 while it holds",
             "schema": {"type": "string"}}
CACHING = {
    "Cache-Control": {"description": "a view at a past version (?version=) never changes: private, max-age=31536000, immutable; "
                      "rules data: public, max-age=86400; anything else a token reads: private, no-cache", "schema": {"type": "string"}},
    "Vary": {"description": "Authorization on what a token reads (what it may see is its own); Prefer on the track view (Prefer: actions=full)", "schema": {"type": "string"}},
}
NOT_MODIFIED = {
    "description": "Not Modified: If-None-Match named the ETag this answer would have (api/conditional.py); no body",
    "headers": {"ETag": {"$ref": "#/components/headers/Validator"}, "Cache-Control": {"$ref": "#/components/headers/Cache-Control"}},
}
PAGING = {"Link": {"description": "<the next page's URL>; rel=\"next\" (the body's `next`), absent on the last page (api/paging.py)", "schema": {"type": "string"}}}
LOCATION = {"Location": {"description": "where the created resource (or the accepted job) is read", "schema": {"type": "string"}}}

_PROBE = {"type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}}
PROBES = {
    "/health": {"get": {"tags": ["operations"], "summary": "Liveness: the process answers.", "description": "For a load balancer; readiness, with the store and Redis, is GET /ready.",
                        "responses": {"200": {"description": "alive", "content": {"application/json": {"schema": {**_PROBE, "properties": {"status": {"type": "string", "enum": ["ok"]}}}}}}}}},
    "/ready": {"get": {"tags": ["operations"], "summary": "Readiness: the store takes a write, and Redis answers when it is configured.", "description": "503 (problem+json with `checks`) while a check fails.",
                       "responses": {"200": {"description": "ready", "content": {"application/json": {"schema": {**_PROBE, "properties": {
                           "status": {"type": "string", "enum": ["ready"]}, "checks": {"type": "object", "additionalProperties": {"type": "string"}}}}}}},
                           "503": {"description": "a check fails", "content": {PROBLEM_JSON: {"schema": {"$ref": REF}}}}}}},
    "/metrics": {"get": {"tags": ["operations"], "summary": "Prometheus metrics: requests, latencies, commands, events, jobs, projection lag.", "description": "The Prometheus text exposition format.",
                         "responses": {"200": {"description": "the metrics", "content": {"text/plain": {"schema": {"type": "string"}}}},
                                       "401": answer("401")}}},
}
