"""``Idempotency-Key`` on every POST (application/retries.py): claimed before the endpoint runs,
recorded with the command's events, its answer kept and replayed with ``Idempotent-Replayed: true``.

The replay is the first answer: its body byte for byte and the headers that describe it
(KEPT_HEADERS), Preference-Applied and Vary among them. A retry's own ``Prefer`` does not change
it, nor is it refused for it: a preference is not part of the request (RFC 7240 section 2: the
server may ignore it, and Preference-Applied says what was done), so the fingerprint leaves it
out, and a client that retries a recorded command always gets its outcome (a Keeper's token is
shown in no other answer) in the form the first request asked for, as Preference-Applied says.

An endpoint with keys of its own (random hazards: the key names the job) sets
``own_idempotency_key = True`` on its view class and is left alone.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from apispec import BasePlugin
from flask import Flask, Response, current_app, g, request, url_for

from api.compact_actions import COMPACT, FULL
from api.problems import problem
from api.representation import DESCRIBED, MINIMAL, MINIMAL_CHASE, MINIMAL_ETAG_SUFFIX
from api.runtime import ledger
from application.retries import PENDING, ClaimLost
from domain.errors import InvalidInput

HEADER = "Idempotency-Key"
HEADER_ENVIRON = "HTTP_IDEMPOTENCY_KEY"  # where req.headers reads it (whose ``get`` raises and catches a KeyError when not sent)
MAX_KEY = 255  # characters
KEPT_HEADERS = ("Content-Type", "Location", "ETag", "X-Chase-Version", "X-Chain-Head", "Preference-Applied", "Vary")
# The kept answer's shape: 1, as first kept, had neither Preference-Applied nor Vary; 2 was kept
# while the full form was the default (saying no form) and a minimal answer's ETag the plain
# version (``_upcast``).
ANSWER_VERSION = 3


class IdempotencyKeyDoc(BasePlugin):
    """Documents the header on every POST of the OpenAPI document (the contract)."""

    def operation_helper(self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any) -> None:
        post = (operations or {}).get("post")
        if post is None:
            return
        post.setdefault("parameters", []).append({
            "in": "header", "name": HEADER, "required": False, "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY},
            "description": "Send it again with a retry: the first answer is replayed, byte for byte, with the headers that describe it "
                           "(ETag, Location, Preference-Applied, Vary, ...) and `Idempotent-Replayed: true` (24 hours; scoped to the "
                           "token). A retry's Prefer does not change the replay: it comes in the form the first request asked for, "
                           "as its Preference-Applied says. The same key with another request (method, path, body) is 422; while the "
                           "first is in flight, 409. On random hazards the key names the job.",
        })


def _key() -> str | None:
    req = request._get_current_object()  # type: ignore[attr-defined]
    if req.method != "POST":
        return None
    key = req.environ.get(HEADER_ENVIRON)
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
    """Method, path and the body in canonical form (keys sorted), so a reformatted body is the same
    request. Not ``Prefer``: a retry preferring another form is the same command (module docstring)."""
    raw = request.get_data(cache=True)
    try:
        body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    except (ValueError, RecursionError):
        body = raw
    return hashlib.sha256(f"{request.method} {request.full_path}\n".encode() + body).hexdigest()


def _upcast(answer: dict[str, Any]) -> dict[str, str]:
    """The headers of a kept answer, as the current version keeps them. Version 1 kept neither
    Preference-Applied nor Vary: every POST's answer varied on Prefer, and the preference applied
    shows in a success's body (the chase's envelope alone; the actions' templates). Up to version
    2 the full form was the default, said no form, and a minimal answer's ETag was the plain
    version, the full form's tag (api/compact_actions.py): each says its own now."""
    headers = dict(answer["headers"])
    if answer["version"] >= 3:
        return headers
    chase = None
    if answer["status"] < 300:
        try:
            chase = json.loads(answer["body"]).get("chase")
        except (ValueError, AttributeError):
            pass
    if not isinstance(chase, dict):
        chase = {}
    if answer["version"] < 2:
        headers.setdefault("Vary", "Prefer")
        if "action_templates" in chase:
            headers["Preference-Applied"] = COMPACT
        elif chase and chase.keys() <= set(MINIMAL_CHASE):
            headers["Preference-Applied"] = MINIMAL
    if "Preference-Applied" not in headers and "participants" in chase and "action_templates" not in chase:
        # The full form (each participant's ``actions``; even with none, no templates): its ETag,
        # the plain version, is the full form's still.
        headers["Preference-Applied"] = FULL
        headers.setdefault("Vary", "Prefer")
    elif headers.get("Preference-Applied") == MINIMAL and headers.get("ETag", "").endswith('"') and not headers["ETag"].endswith(f'{MINIMAL_ETAG_SUFFIX}"'):
        headers["ETag"] = headers["ETag"][:-1] + f'{MINIMAL_ETAG_SUFFIX}"'
    return headers


def _replay(status: int, headers: dict[str, str], body: bytes, *, described: bool = True) -> Response:
    """``described``: the headers say the answer's form (a kept answer); else (an answer rendered
    again) api/representation.py says it, after this request's Prefer."""
    response = Response(body, status=status)
    for name, value in headers.items():
        response.headers[name] = value
    response.headers["Idempotent-Replayed"] = "true"
    if described:
        request.environ[DESCRIBED] = True
    return response


def _recorded(chase_id: str, version: int) -> Response:
    """The retry of a command recorded whose answer was never kept: its rolls and outcome were in
    that answer alone, so none is made up; the retry is told the command stands and where to read
    what it did (the chase at its version, the roll history). Sending it again changes nothing."""
    at = url_for("chases.Track", chase_id=chase_id, version=version)
    answer = problem(
        409, "idempotency-key-recorded", "Recorded, answer lost",
        f"the request sent with this {HEADER} was recorded (chase {chase_id}, version {version}) but its answer was lost: "
        f"read the chase at that version ({at}) and its rolls ({url_for('record.Rolls', chase_id=chase_id)}); do not send it again",
        header=HEADER, chase_id=chase_id, version=version,
    )
    answer.headers["Location"] = at
    return answer


def _in_flight() -> Response:
    return problem(409, "idempotency-key-in-flight", "Request in flight", f"a request with this {HEADER} is still being handled: retry later", header=HEADER)


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
            return _replay(answer["status"], _upcast(answer), answer["body"])
        if begun.outcome == "recorded":  # recorded, but its answer was lost (the process died, or a server error)
            return _recorded(str(begun.chase_id), int(begun.version or 0))
        if begun.outcome == "mismatch":
            return problem(422, "idempotency-key-reused", "Idempotency-Key reused", f"this {HEADER} was used for another request: send a new key for a new request",
                           errors=[{"field": HEADER, "message": "already used for another request"}])
        if begun.outcome == "in_flight":
            return _in_flight()
        g.idempotency_claim = begun.claim
        g.idempotency_token = PENDING.set(begun.claim)
        return None

    @app.errorhandler(ClaimLost)
    def taken_over(e: ClaimLost) -> Response:
        # This request's claim lapsed and a retry took the key over: the retry's command stands,
        # this one was rolled back; the key's answer is the retry's, for the next retry to get.
        return _in_flight()

    @app.teardown_request
    def let_go(error: BaseException | None) -> None:
        state = g._get_current_object()  # type: ignore[attr-defined]
        token = state.pop("idempotency_token", None)
        if token is not None:
            PENDING.reset(token)
        claim = state.pop("idempotency_claim", None)  # still here: no answer was sent
        if claim is not None:
            ledger().retries.abandon(claim)


def keep_answers(app: Flask) -> None:
    """Before representation.install: hooks after a request run in the reverse order of their
    installing, so the answer is kept once Preference-Applied and Vary are written on it."""

    @app.after_request
    def keep_the_answer(response: Response) -> Response:
        state = g._get_current_object()  # type: ignore[attr-defined]
        claim = state.pop("idempotency_claim", None)
        if claim is not None and state.get("dry_run"):  # recorded nothing: the key stays free for the real command
            ledger().retries.abandon(claim)
        elif claim is not None:
            headers = {name: response.headers[name] for name in KEPT_HEADERS if name in response.headers}
            ledger().retries.finish(claim, response.status_code, headers, response.get_data(), ANSWER_VERSION)
        return response
