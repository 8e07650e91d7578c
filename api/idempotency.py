"""``Idempotency-Key`` on every POST (application/retries.py): claimed before the endpoint runs,
recorded with the command's events, its answer kept and replayed with ``Idempotent-Replayed: true``.

An endpoint with keys of its own (random hazards: the key names the job) sets
``own_idempotency_key = True`` on its view class and is left alone.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

from apispec import BasePlugin
from flask import Flask, Response, current_app, g, request

from api.chases import result
from api.problems import problem
from api.runtime import ledger
from application.retries import PENDING
from domain.errors import InvalidInput

HEADER = "Idempotency-Key"
MAX_KEY = 255  # characters
KEPT_HEADERS = ("Content-Type", "Location", "ETag", "X-Chase-Version", "X-Chain-Head")


class IdempotencyKeyDoc(BasePlugin):
    """Documents the header on every POST of the OpenAPI document (the contract)."""

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any) -> None:
        post = (operations or {}).get("post")
        if post is None:
            return
        post.setdefault("parameters", []).append({
            "in": "header", "name": HEADER, "required": False, "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY},
            "description": "Send it again with a retry: the first answer is replayed, byte for byte, with `Idempotent-Replayed: true` "
                           "(24 hours; scoped to the token). The same key with another request is 422; while the first is in "
                           "flight, 409. On random hazards the key names the job.",
        })


def _key() -> str | None:
    req = request._get_current_object()  # type: ignore[attr-defined]
    if req.method != "POST":
        return None
    key = req.headers.get(HEADER)
    if key is None:
        return None
    view = current_app.view_functions.get(req.endpoint or "")
    if getattr(getattr(view, "view_class", None), "own_idempotency_key", False):
        return None
    if not 1 <= len(key) <= MAX_KEY or not key.isprintable():
        raise InvalidInput(HEADER, f"must be 1 to {MAX_KEY} printable characters")
    return key


def _scope() -> str:
    """Keys are scoped to the token that sent them (its hash); no token: the key alone."""
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    token = token.strip() if scheme.lower() == "bearer" else ""
    return hashlib.sha256(token.encode()).hexdigest() if token else ""


def _fingerprint() -> str:
    """Method, path and the body in canonical form (keys sorted), so a reformatted body is the same request."""
    raw = request.get_data(cache=True)
    try:
        body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    except (ValueError, RecursionError):
        body = raw
    return hashlib.sha256(f"{request.method} {request.full_path}\n".encode() + body).hexdigest()


def _replay(status: int, headers: dict[str, str], body: bytes) -> Response:
    response = Response(body, status=status)
    for name, value in headers.items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    return response


def install(app: Flask) -> None:
    """After auth.install: a request is authenticated before its key is looked at."""

    @app.before_request
    def claim_the_key() -> Any:
        key = _key()
        if key is None:
            return None
        begun = ledger().retries.begin(_scope(), key, _fingerprint())
        if begun.outcome == "replay":
            answer = begun.answer
            return _replay(answer["status"], answer["headers"], answer["body"])
        if begun.outcome == "rerender":  # recorded, but the process died before keeping its answer
            body, status, headers = result(ledger().history.track_at(UUID(begun.chase_id), begun.version))
            # The app's own encoder: the answer may hold participants encoded already (api/affordances.py).
            return _replay(status, dict(headers, **{"Content-Type": "application/json"}), current_app.json.dumps(body).encode())
        if begun.outcome == "mismatch":
            return problem(422, "idempotency-key-reused", "Idempotency-Key reused", f"this {HEADER} was used for another request: send a new key for a new request",
                           errors=[{"field": HEADER, "message": "already used for another request"}])
        if begun.outcome == "in_flight":
            return problem(409, "idempotency-key-in-flight", "Request in flight", f"a request with this {HEADER} is still being handled: retry later", header=HEADER)
        g.idempotency_claim = begun.claim
        g.idempotency_token = PENDING.set(begun.claim)
        return None

    @app.after_request
    def keep_the_answer(response: Response) -> Response:
        state = g._get_current_object()  # type: ignore[attr-defined]
        claim = state.pop("idempotency_claim", None)
        if claim is not None and state.get("dry_run"):  # recorded nothing: the key stays free for the real command
            ledger().retries.abandon(claim)
        elif claim is not None:
            headers = {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers}
            ledger().retries.finish(claim, response.status_code, headers, response.get_data())
        return response

    @app.teardown_request
    def let_go(error: BaseException | None) -> None:
        state = g._get_current_object()  # type: ignore[attr-defined]
        token = state.pop("idempotency_token", None)
        if token is not None:
            PENDING.reset(token)
        claim = state.pop("idempotency_claim", None)  # still here: no answer was sent
        if claim is not None:
            ledger().retries.abandon(claim)
