"""Rate limits per token and per client address, with flask-limiter.

Two limits hold for every request: one per bearer token (keyed by the token's SHA-256, never the
token itself, which would then sit in Redis or memory in clear), one per client address. A
request over either is answered 429 (problem+json) with ``Retry-After``; every answer carries
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds until the window
frees a request; draft-ietf-httpapi-ratelimit-headers) for the limit nearest to running out. Counts are kept in Redis when ``REDIS_URL`` is set (shared by every
API process of every server), else in a SQLite file shared by the worker processes of the server
(``chase serve`` makes one; infrastructure/limits_sqlite.py), else in the process's memory. The limits are read on each request from the app's config
(``RATE_LIMIT_TOKEN``, ``RATE_LIMIT_ADDRESS``, set from the environment), so a test or an
operator's hook can change them on a running app.
"""
from __future__ import annotations

import math
import time

from flask import Flask, Response, current_app, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.errors import RateLimitExceeded

from api.client_keys import address_key, bearer_token, token_key
from api.job_waits import WAITED
from api.limits_memory import make_thread_safe
from api.problems import problem
from infrastructure import limits_sqlite  # noqa: F401 - registers its storage with limits
from infrastructure.edge_settings import EdgeSettings

UNLIMITED_PATHS = frozenset({"/health"})  # a load balancer's probe is never throttled


def install(app: Flask, settings: EdgeSettings) -> Limiter:
    make_thread_safe()
    app.config.setdefault("RATE_LIMIT_TOKEN", settings.token_limit)
    app.config.setdefault("RATE_LIMIT_ADDRESS", settings.address_limit)
    # A request answered again once its job wait ended (api/job_waits.py) was counted the first time.
    exempt = lambda: request.path in UNLIMITED_PATHS or WAITED in request.environ  # noqa: E731
    limiter = Limiter(
        address_key,
        app=app,
        application_limits=[
            ApplicationLimit(
                limit_provider=lambda: current_app.config["RATE_LIMIT_TOKEN"], key_function=token_key, scope="token",
                exempt_when=lambda: exempt() or bearer_token() is None,
                error_message="too many requests with this token",
            ),
            ApplicationLimit(
                limit_provider=lambda: current_app.config["RATE_LIMIT_ADDRESS"], key_function=address_key, scope="address",
                exempt_when=exempt, error_message="too many requests from this client address",
            ),
        ],
        headers_enabled=False,  # written below: flask-limiter would put Retry-After on every answer
        storage_uri=settings.storage_uri,
        # Redis down: count in this process's memory meanwhile, never fail the request (jobs
        # likewise wait for Redis to come back, README "Workers and live updates").
        swallow_errors=True,
        in_memory_fallback_enabled=True,
        strategy="moving-window",  # no burst of twice the limit across a window's edge
        key_prefix="chase-ledger",
        enabled=settings.rate_limits,
    )

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(e: RateLimitExceeded) -> Response:
        field = "Authorization" if e.limit.key_func is token_key else "client address"
        return problem(
            429, "rate-limited", "Too many requests", f"{e.description}: at most {e.limit.limit}; retry after the Retry-After seconds",
            errors=[{"field": field, "message": f"at most {e.limit.limit}"}],
        )

    @app.after_request
    def rate_limit_headers(response: Response) -> Response:
        if not limiter.enabled:  # (CHASE_LEDGER_RATE_LIMITS=off: no limit was looked at)
            return response
        current = limiter.current_limit
        if current is None:
            return response
        # Seconds until the window frees a request (flask-limiter's reset_at adds a second).
        reset = max(0, math.ceil(current.window.reset_time - time.time()))
        response.headers["RateLimit-Limit"] = str(current.limit.amount)
        response.headers["RateLimit-Remaining"] = str(current.remaining)
        response.headers["RateLimit-Reset"] = str(reset)
        if response.status_code == 429 and "Retry-After" not in response.headers:  # (a cap's or a quota's own 429 says its own)
            response.headers["Retry-After"] = str(max(1, reset))
        return response

    return limiter
