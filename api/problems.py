"""Errors as RFC 9457 problem details (application/problem+json).

Every game system's refusals subclass the core's three (domain/errors.py): a bad input naming
its field (422), a broken rule citing its source (409), nothing of that id (404). Only those, the
record's and the application's errors are mapped here: no system's error type is named.
"""
from __future__ import annotations

import logging
from typing import Any

from eventsourcing.persistence import ConnectionUnavailableError
from flask import Flask, Response, json, request
from werkzeug.exceptions import HTTPException

from api import problem_docs
from api.conditional import PreconditionRequired, precondition_sent
from application.access import Forbidden, Unauthenticated
from application.runner import ChaseNotFound, VersionConflict
from application.views import ViewsUnavailable
from domain.dice import InvalidTableDice
from domain.errors import InvalidInput, NotFound, RuleBroken
from domain.recorded_chase import HistoryRefused
from infrastructure import store_refusals

log = logging.getLogger(__name__)
PROBLEM = "application/problem+json"
RETRY_AFTER = {store_refusals.BUSY: "1", store_refusals.UNAVAILABLE: "5"}  # seconds: a lock's wait, a restart's


def problem(status: int, kind: str, title: str, detail: str, **extra: Any) -> Response:
    body = {"type": f"/problems/{kind}", "title": title, "status": status, "detail": detail, "instance": request.path, **extra}
    return Response(json.dumps(body), status=status, mimetype=PROBLEM)


def _field_errors(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    """Flatten marshmallow's nested messages into one entry per bad field."""
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for key, value in messages.items():
            name = prefix if key in ("json", "query", "_schema") and not prefix else (f"{prefix}.{key}" if prefix else str(key))
            if key == "_schema":
                name = prefix or "body"
            out += _field_errors(value, name)
    elif isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        out += [{"field": prefix or "body", "message": m} for m in messages]
    elif isinstance(messages, list):
        for m in messages:
            out += _field_errors(m, prefix)
    else:
        out.append({"field": prefix or "body", "message": str(messages)})
    return out


def register(app: Flask) -> None:
    @app.get("/problems/<kind>")
    def problem_page(kind: str) -> Response:
        """What a problem's ``type`` means, for a person (its URI resolves here)."""
        shown = problem_docs.page(kind)
        if shown is None:
            return problem(404, "not-found", "Not found", f"no kind of problem {kind!r}: the kinds are {', '.join(sorted(problem_docs.KINDS))}")
        response = Response(shown, mimetype="text/html")
        response.cache_control.public = True
        response.cache_control.max_age = 86_400  # a day: the kinds change only with a release
        return response

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException) -> Response:
        messages = (getattr(e, "data", None) or {}).get("messages")
        if e.code == 422 and messages:
            errors = _field_errors(messages)
            names = ", ".join(sorted({err["field"] for err in errors}))
            return problem(422, "invalid-request", "Invalid request", f"invalid fields: {names}", errors=errors)
        if e.code == 400 and request.mimetype == "application/json" and request.get_json(silent=True) is None:
            return problem(400, "malformed-json", "Malformed JSON", "the request body is not valid JSON", errors=[{"field": "body", "message": "not valid JSON"}])
        return problem(e.code or 500, e.name.lower().replace(" ", "-"), e.name, e.description or e.name)

    @app.errorhandler(InvalidInput)
    def invalid(e: InvalidInput) -> Response:
        return problem(422, "invalid-request", "Invalid request", str(e), errors=[{"field": e.field, "message": e.message}])

    @app.errorhandler(InvalidTableDice)
    def bad_dice(e: InvalidTableDice) -> Response:
        return problem(422, "invalid-table-dice", "Invalid table dice", str(e), errors=[{"field": "table_dice", "message": str(e)}])

    @app.errorhandler(RuleBroken)
    def rule_broken(e: RuleBroken) -> Response:
        return problem(409, "rule-broken", "Rule broken", str(e), rule=e.rule)

    @app.errorhandler(VersionConflict)
    def conflict(e: VersionConflict) -> Response:
        # The chase's version, when it was read (an If-Match that is no ETag at all is refused before)
        known = {} if e.current_version is None else {"current_version": e.current_version}
        if precondition_sent():  # the client's If-Match failed (RFC 9110 13.1.1): nothing was run
            return problem(
                412, "precondition-failed", "Precondition failed", str(e),
                errors=[{"field": "If-Match", "message": str(e)}], **known,
            )
        return problem(409, "version-conflict", "Version conflict", str(e), **known)

    @app.errorhandler(PreconditionRequired)
    def precondition_required(e: PreconditionRequired) -> Response:
        return problem(428, "precondition-required", "Precondition required", str(e), errors=[{"field": "If-Match", "message": "required: the chase's ETag"}])

    @app.errorhandler(Unauthenticated)
    def unauthenticated(e: Unauthenticated) -> Response:
        response = problem(401, "unauthenticated", "Unauthenticated", str(e))
        response.headers["WWW-Authenticate"] = "Bearer"
        return response

    @app.errorhandler(Forbidden)
    def forbidden(e: Forbidden) -> Response:
        named = {"errors": [{"field": e.field, "message": str(e)}]} if e.field else {}  # a field only the Keeper may send
        return problem(403, "forbidden", "Forbidden", str(e), **named)

    @app.errorhandler(HistoryRefused)
    def history_refused(e: HistoryRefused) -> Response:
        if e.field:
            return problem(422, "invalid-request", "Invalid request", str(e), errors=[{"field": e.field, "message": str(e)}])
        return problem(409, "history-refused", "Refused by the record", str(e), rule="DESIGN.md section 5 (undo, rewind, redo) and 4 (the seed)")

    @app.errorhandler(ChaseNotFound)
    @app.errorhandler(NotFound)
    def not_found(e: LookupError) -> Response:
        return problem(404, "not-found", "Not found", str(e))

    @app.errorhandler(ViewsUnavailable)
    def views_unavailable(e: ViewsUnavailable) -> Response:
        # A defect in rendering this chase's views (set aside for the operator); its events,
        # and every other chase, are unaffected: retry once the operator has fixed it.
        if e.recorded is not None:
            # The command was recorded: no Retry-After, which would invite a second recording.
            return problem(503, "views-unavailable", "Views unavailable", str(e), chase_id=e.chase_id, recorded=True, version=e.recorded)
        response = problem(503, "views-unavailable", "Views unavailable", str(e), chase_id=e.chase_id, recorded=False)
        response.headers["Retry-After"] = "60"
        return response

    @app.errorhandler(ConnectionUnavailableError)
    def store_busy(e: ConnectionUnavailableError) -> Response:
        # No turn at the store within its lock timeout (other writers held it): transient, and
        # raised before the command's transaction commits (infrastructure/sqlite_recorder.py).
        log.warning("store busy: %s", e)
        return _store_refused(store_refusals.BUSY, store_refusals.SENTENCES["busy"])

    def _store_refused(kind: store_refusals.Refusal, why: str) -> Response:
        # Busy, or taking no writes now (read-only, a full disk, restarting: infrastructure/
        # store_refusals.py): transient, nothing of this request's was committed unless its
        # events show, so it is safe to send again; a restart or a failover takes longer.
        if kind == store_refusals.BUSY:
            response = problem(503, "store-busy", "Store busy", f"{why}; nothing was recorded by it unless its events show: retry shortly")
        else:
            response = problem(503, "store-unavailable", "Store unavailable", f"the store takes no writes now ({why}); nothing was recorded by it unless its events show: retry later")
        response.headers["Retry-After"] = RETRY_AFTER[kind]
        return response

    @app.errorhandler(RecursionError)
    def too_deep(e: RecursionError) -> Response:
        return problem(400, "malformed-json", "Malformed JSON", "the request body is nested too deeply to read", errors=[{"field": "body", "message": "nested too deeply"}])

    @app.errorhandler(Exception)
    def unexpected(e: Exception) -> Response:
        refused = store_refusals.refusal(e)
        if refused is not None:
            log.warning("store refused the request for now: %s", store_refusals.reason(e))
            # The store's own words name hosts, ports and file paths: the log has them, the
            # client a fixed sentence of the refusal's kind.
            return _store_refused(refused, store_refusals.sentence(e))
        log.exception("unexpected error")
        return problem(500, "internal-error", "Internal error", "the server failed to handle this request; nothing was recorded by it unless its events show")
