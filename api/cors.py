"""Browsers on other origins (issue 18): CORS by configuration, with flask-cors.

``CHASE_LEDGER_CORS_ORIGINS`` lists the origins allowed (comma-separated, such as
``https://table.example``; ``*`` allows any); unset, no cross-origin headers are sent and
browsers keep other origins out. Tokens travel in the Authorization header, never in cookies,
so credentials are not allowed. A preflight (``OPTIONS`` with ``Access-Control-Request-Method``)
is answered here, before authentication and everything else: it carries no token, by design.
"""
from __future__ import annotations

from flask import Flask, Response, request
from flask_cors import CORS

# Headers a page may send: the token, JSON bodies, conditional and retried commands, resumed
# streams, the answer's form (Prefer: return=minimal, actions=full), and its own request id.
ALLOWED_HEADERS = [
    "Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID", "Prefer", "X-Request-ID",
]
# Headers a page may read: the version, the chain head, where a new thing is, the next page, the
# request id, the answer's form, whether it is a replay of a retried command, the rate limit
# left (api/limits.py: a page slows down before it is refused).
EXPOSED_HEADERS = [
    "ETag", "X-Chase-Version", "X-Chain-Head", "Location", "Link", "X-Request-ID", "Retry-After", "Preference-Applied", "Idempotent-Replayed",
    "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset",
]
PREFLIGHT_SECONDS = 600  # how long a browser may keep a preflight's answer


def install(app: Flask, origins: tuple[str, ...]) -> None:
    """Answer preflights first, and add CORS headers to every answer (problems included)."""
    if not origins:
        return

    @app.before_request
    def answer_preflight() -> Response | None:
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            return app.make_default_options_response()  # flask-cors adds the headers after
        return None

    CORS(
        app,
        origins="*" if "*" in origins else list(origins),
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        supports_credentials=False,
        max_age=PREFLIGHT_SECONDS,
        vary_header=True,
        always_send=False,  # only to a request that names its origin (browsers always do)
    )

    @app.after_request
    def vary_by_origin(response: Response) -> Response:
        # The answer depends on the Origin sent (headers or none): a cache must keep them apart.
        response.vary.add("Origin")
        return response
