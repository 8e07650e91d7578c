"""Guards at the edge, before anything is parsed (issue 12): what a request may weigh and say.

- A body over ``CHASE_LEDGER_MAX_BODY_BYTES`` is answered 413 before it is read; one sent in
  chunks with no length is read up to the limit only (Flask's ``MAX_CONTENT_LENGTH``), then 413.
- A command body that is not JSON is answered 415: read as form or text it would be an empty
  body, run with the defaults (an undo of 1 when 3 were asked for).
- Path segments and the query string are screened like the body (api/parsing.py): no NUL, no
  lone surrogate, bounded lengths.
- 405 carries its ``Allow`` header; every refusal here is problem+json naming the header or
  field, and records nothing.
"""
from __future__ import annotations

from flask import Flask, Request, Response, request
from werkzeug.exceptions import MethodNotAllowed, RequestEntityTooLarge

from api.parsing import text_problem
from api.problems import problem
from infrastructure.edge_settings import EdgeSettings

COMMAND_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON = "application/json"


def is_json(mimetype: str) -> bool:
    return mimetype == JSON or (mimetype.startswith("application/") and mimetype.endswith("+json"))


def too_large() -> Response:
    limit = request.max_content_length
    return problem(
        413, "body-too-large", "Body too large", f"a request body may be at most {limit} bytes",
        errors=[{"field": "Content-Length", "message": f"at most {limit} bytes"}], max_bytes=limit,
    )


def unsupported_media_type() -> Response:
    response = problem(
        415, "unsupported-media-type", "Unsupported media type",
        f"a command's body must be JSON (Content-Type: {JSON}), not {request.mimetype or 'untyped'}",
        errors=[{"field": "Content-Type", "message": f"must be {JSON}"}],
    )
    response.headers["Accept-Post"] = JSON
    return response


def bad_path_or_query(req: Request | None = None) -> Response | None:
    req = req or request._get_current_object()  # type: ignore[attr-defined]
    # (no query string, no arguments: ``req.args`` is not parsed for nothing, as on most commands)
    query = req.args.items(multi=True) if req.query_string else ()
    errors = [
        {"field": name, "message": why}  # named as the parser names a query's fields
        for values in ((req.view_args or {}).items(), query)
        for name, value in values
        if isinstance(value, str) and (why := text_problem(value) or text_problem(name))
    ]
    if not errors:
        return None
    names = ", ".join(sorted({e["field"] for e in errors}))
    return problem(422, "invalid-request", "Invalid request", f"invalid fields: {names}", errors=errors)


def install(app: Flask, settings: EdgeSettings) -> None:
    if app.config.get("MAX_CONTENT_LENGTH") is None:  # Flask's default is None: no bound at all
        app.config["MAX_CONTENT_LENGTH"] = settings.max_body_bytes

    # The request is looked up once, and its Content-Length (parsed again at each use) read once:
    # every request passes here (bench/http_profile.py).
    @app.before_request
    def guard_the_edge() -> Response | None:
        req = request._get_current_object()  # type: ignore[attr-defined]
        length, limit = req.content_length, req.max_content_length
        if length is not None and length > (limit or length):
            return too_large()
        # (the environ, as req.headers reads it: its ``get`` raises and catches a KeyError when not sent)
        body = bool(length) or "chunked" in req.environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if length is None and body and limit:
            # Sent in chunks, with no length: Werkzeug reads at most the limit and stops there,
            # which would leave a truncated body to be refused as malformed JSON.
            if len(req.get_data(cache=True)) >= limit:
                return too_large()
        if body and req.method in COMMAND_METHODS and not is_json(req.mimetype):
            return unsupported_media_type()
        return bad_path_or_query(req)

    @app.errorhandler(RequestEntityTooLarge)
    def body_too_large(e: RequestEntityTooLarge) -> Response:
        return too_large()

    @app.errorhandler(MethodNotAllowed)
    def method_not_allowed(e: MethodNotAllowed) -> Response:
        allowed = ", ".join(e.valid_methods or ())
        response = problem(405, "method-not-allowed", "Method not allowed", f"{request.method} is not allowed here; allowed: {allowed}", errors=[{"field": "method", "message": f"one of {allowed}"}])
        response.headers["Allow"] = allowed
        return response
