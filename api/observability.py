"""Operations (issue 18 part 7): request ids, a JSON log line and metrics per request,
``GET /metrics`` (Prometheus) and ``GET /ready`` (readiness; ``GET /health`` stays liveness).

Each request gets an id: the client's ``X-Request-ID`` when it sends a sensible one (a proxy's,
say), else a new one; the answer carries it back, and every log record written while the
request is handled names it (infrastructure/logs.py).
"""
from __future__ import annotations

import hmac
import logging
import re
import secrets
import time

from flask import Flask, Response, g, request

from api.job_waits import PARK
from api.problems import problem
from api.runtime import ledger
from infrastructure import metrics, readiness
from infrastructure.logs import REQUEST_ID

log = logging.getLogger("chase_ledger.requests")

REQUEST_ID_HEADER = "X-Request-ID"
# Request headers are read from the WSGI environ, as Werkzeug's EnvironHeaders reads them: its
# ``get`` of a header not sent raises and catches a KeyError, at every request.
REQUEST_ID_ENVIRON = "HTTP_X_REQUEST_ID"
ACCEPTED_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")  # anything else is replaced, never logged
READS = ("GET", "HEAD", "OPTIONS")


def install(app: Flask, metrics_token: str | None) -> None:
    """Request ids, the request log and counts, and the /metrics and /ready endpoints."""

    # The request and g are looked up once per hook: each use of Flask's proxies is a lookup of
    # the context (a command made some eighty, bench/http_profile.py).
    @app.before_request
    def start() -> None:
        state = g._get_current_object()  # type: ignore[attr-defined]
        offered = request._get_current_object().environ.get(REQUEST_ID_ENVIRON, "")  # type: ignore[attr-defined]
        state.request_id = offered if ACCEPTED_ID.match(offered) else secrets.token_hex(16)  # as uuid4().hex: 32 hex digits
        state.request_started = time.perf_counter()
        state.request_id_token = REQUEST_ID.set(state.request_id)

    @app.after_request
    def finish(response: Response) -> Response:
        state = g._get_current_object()  # type: ignore[attr-defined]
        request_id = state.get("request_id")
        if request_id is None:  # (a request answered before ``start``: another hook's short cut)
            return response
        req = request._get_current_object()  # type: ignore[attr-defined]
        if PARK in req.environ:  # a job wait's first answer, never sent: Flask answers it again once the wait ends
            return response
        response.headers[REQUEST_ID_HEADER] = request_id
        elapsed = time.perf_counter() - state.request_started
        method, path = req.method, req.path
        route = req.url_rule.rule if req.url_rule is not None else "unmatched"
        status = response.status_code
        try:
            metrics.count(method, route, status, elapsed, command=method not in READS and route.startswith("/chases/<uuid:chase_id>") and not route.endswith("/stream-tickets"))
        except Exception:  # noqa: BLE001 - counting never fails a request
            log.warning("request not counted in the metrics", exc_info=True)
        if log.isEnabledFor(logging.INFO):
            # The path only: a query may hold a stream ticket, which has no business in the logs.
            # The record is made as ``log.info`` makes it, without looking up the stack for the
            # caller's file and line (always this function: named here, for a format that shows
            # them), and its extras put in at once: ``makeRecord`` checks each against the
            # record's own attributes, which these names never are.
            record = logging.getLogRecordFactory()(log.name, logging.INFO, __file__, LOG_LINE, "%s %s %s", (method, path, status), None, FINISH)
            record.__dict__.update({
                "request_id": request_id, "method": method, "path": path, "route": route, "status": status,
                "duration_ms": round(elapsed * 1000, 3), "chase_id": str((req.view_args or {}).get("chase_id") or "") or None,
            })
            log.handle(record)
        return response

    LOG_LINE, FINISH = finish.__code__.co_firstlineno, finish.__name__  # where the request log line is made: this hook (its first line)

    @app.teardown_request
    def forget(_: BaseException | None) -> None:
        token = g._get_current_object().pop("request_id_token", None)  # type: ignore[attr-defined]
        if token is not None:
            REQUEST_ID.reset(token)

    @app.get("/metrics")
    def prometheus_metrics() -> Response:
        if metrics_token is not None:
            scheme, _, offered = request.headers.get("Authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(offered.strip().encode(), metrics_token.encode()):
                return problem(401, "unauthenticated", "Unauthenticated", "send Authorization: Bearer <CHASE_LEDGER_METRICS_TOKEN>")
        return Response(metrics.exposition(ledger), mimetype=None, content_type=metrics.CONTENT_TYPE)

    @app.get("/ready")
    def ready() -> Response | dict[str, object]:
        try:
            checks = readiness.check(ledger())
        except Exception as e:  # noqa: BLE001 - the ledger cannot even be built: the store is down
            checks = {"store": f"{type(e).__name__}: {e}"[:300]}
        failing = {name: state for name, state in checks.items() if state != "ok"}
        if failing:
            return problem(503, "not-ready", "Not ready", "not ready: " + ", ".join(sorted(failing)), checks=checks)
        return {"status": "ready", "checks": checks}
