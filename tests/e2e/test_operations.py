"""Operable (issue 18 part 7): request ids in answers and logs, Prometheus metrics, readiness.

What the operator of a running API sees: each answer and each log line names its request; the
metrics count requests, latencies, commands, events, jobs and the views' lag, added up over
every gunicorn worker; /ready says whether the store (and Redis) answer, /health only that the
process does.
"""
from __future__ import annotations

import dataclasses
import json
import logging
import re
from pathlib import Path
from uuid import UUID

import pytest

from api import create_app
from infrastructure.settings import WebSettings
from tests.e2e.coc7e_table import HARVEY
from tests.e2e.served_process import ChaseServe, Client


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one series in Prometheus text, or None."""
    for line in text.splitlines():
        if not line.startswith(name + "{") and not line.startswith(name + " "):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line.split("}")[0])) if "{" in line else {}
        if all(found.get(k) == v for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return None


def test_each_answer_and_its_log_line_carry_the_request_id(client, caplog):
    caplog.set_level(logging.INFO, logger="chase_ledger.requests")

    # A proxy's request id is kept; a request without one gets a fresh one.
    given = client.get("/chases", headers={"X-Request-ID": "edge-7f3a.1"})
    fresh = client.post("/chases", json={"name": "Logged", "dice": "table"})
    nonsense = client.get("/health", headers={"X-Request-ID": "no spaces; nor <markup>"})

    assert given.headers["X-Request-ID"] == "edge-7f3a.1"
    assert re.fullmatch(r"[0-9a-f]{32}", fresh.headers["X-Request-ID"])
    assert re.fullmatch(r"[0-9a-f]{32}", nonsense.headers["X-Request-ID"])  # replaced, never logged
    lines = {r.request_id: r for r in caplog.records if r.name == "chase_ledger.requests"}
    assert lines["edge-7f3a.1"].path == "/chases" and lines["edge-7f3a.1"].status == given.status_code
    created = lines[fresh.headers["X-Request-ID"]]
    assert created.method == "POST" and created.status == 201 and created.duration_ms >= 0


def test_log_lines_are_json_with_the_request_id(capsys):
    from infrastructure.logs import REQUEST_ID, configure

    root = logging.getLogger()
    kept = list(root.handlers), root.level
    configure("json")
    try:
        token = REQUEST_ID.set("req-42")
        logging.getLogger("chase_ledger.test").info("chase %s recorded", "c-1", extra={"version": 3})
        REQUEST_ID.reset(token)
    finally:
        root.handlers[:], root.level = kept
    line = json.loads(capsys.readouterr().err.strip().splitlines()[-1])
    assert line["message"] == "chase c-1 recorded" and line["request_id"] == "req-42"
    assert line["level"] == "INFO" and line["version"] == 3 and "time" in line


def test_metrics_count_requests_commands_events_and_the_views_lag(ledger, client):
    # A chase and a command on it.
    created = client.post("/chases", json={"name": "Counted", "dice": "table"}).get_json()
    chase_id, token = created["chase"]["chase_id"], created["keeper_token"]
    auth = {"Authorization": f"Bearer {token}"}
    added = client.post(f"/chases/{chase_id}/participants", json=HARVEY, headers=auth)
    assert added.status_code == 201
    refused = client.post(f"/chases/{chase_id}/participants", json={"name": ""}, headers=auth)
    assert refused.status_code == 422

    scraped = client.get("/metrics")
    assert scraped.status_code == 200 and scraped.content_type.startswith("text/plain")
    text = scraped.get_data(as_text=True)
    route = "/chases/<uuid:chase_id>/participants"
    assert sample(text, "chase_http_requests_total", method="POST", route=route, status="201") >= 1
    assert sample(text, "chase_http_request_duration_seconds_count", method="POST", route=route) >= 2
    assert sample(text, "chase_commands_total", route=route, outcome="2xx") >= 1
    assert sample(text, "chase_commands_total", route=route, outcome="4xx") >= 1
    assert sample(text, "chase_events_recorded") == ledger.recorder.max_notification_id()
    assert sample(text, "chase_projection_lag_events") is not None
    # A job, counted by kind and status wherever it ran.
    job = ledger.jobs.check(UUID(chase_id))
    ledger.jobs.wait(job["job_id"], timeout=10)
    text = client.get("/metrics").get_data(as_text=True)
    assert sample(text, "chase_jobs", kind="check", status="done") == 1


def test_metrics_can_ask_for_a_token(ledger):
    app = create_app(lambda: ledger, web=WebSettings(metrics_token="scrape-me"))
    client = app.test_client()

    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer scrape-me"}).status_code == 200


def test_ready_when_the_store_answers_and_not_when_redis_does_not(ledger, client):
    # Liveness says only that the process answers; readiness asks the store.
    assert client.get("/health").get_json() == {"status": "ok"}
    ready = client.get("/ready")
    assert ready.status_code == 200 and ready.get_json()["checks"] == {"store": "ok"}

    # Configured for a Redis that does not answer: not ready, and the problem says why.
    ledger.worker = dataclasses.replace(ledger.worker, redis_url="redis://127.0.0.1:1/0")
    ready = client.get("/ready")
    assert ready.status_code == 503 and ready.content_type == "application/problem+json"
    body = ready.get_json()
    assert body["checks"]["store"] == "ok" and body["checks"]["redis"] != "ok" and "redis" in body["detail"]


def test_not_ready_while_the_store_cannot_be_reached():
    def unreachable() -> None:
        raise OSError("connection refused: 127.0.0.1:5432")

    client = create_app(unreachable).test_client()

    ready = client.get("/ready")
    assert ready.status_code == 503 and ready.content_type == "application/problem+json"
    assert "connection refused" in ready.get_json()["checks"]["store"]
    assert client.get("/health").status_code == 200  # alive all the same: restarting it would not help


def test_chase_serve_adds_up_every_workers_counts(tmp_path: Path):
    (tmp_path / "metrics").mkdir()  # (`chase serve` makes it; here its command runs directly)
    served = ChaseServe({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"), "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")},
                        tmp_path / "serve.log", workers=2, threads=2)
    try:
        # Forty requests, each on a new connection, so both workers answer some.
        for _ in range(40):
            client = Client(served.port)
            assert client.request("GET", "/ready")[0] == 200
            client.close()
        # Whichever worker answers the scrape, it counts all forty.
        for _ in range(4):
            client = Client(served.port)
            status, text = client.request("GET", "/metrics")
            client.close()
            assert status == 200
            assert sample(text.decode(), "chase_http_requests_total", method="GET", route="/ready", status="200") == 40
        # The log is JSON lines, one per request, each with its request id.
        lines = [json.loads(line) for line in (tmp_path / "serve.log").read_text().splitlines() if line.startswith("{")]
        ready_lines = [line for line in lines if line.get("route") == "/ready"]
        assert len(ready_lines) == 40 and all(line["request_id"] for line in ready_lines)
        assert served.errors_logged() == []
    finally:
        served.stop()


def test_log_lines_are_python_json_loggers_own_lines():
    from pythonjsonlogger.json import JsonFormatter

    from infrastructure.logs import JsonLines

    # Given our formatter and python-json-logger's own, set up as configure() sets ours
    fmt = "%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s"
    options = {"rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"}, "datefmt": "%Y-%m-%dT%H:%M:%S%z"}
    ours, library = JsonLines(fmt, **options), JsonFormatter(fmt, **options)
    log = logging.getLogger("chase_ledger.requests")

    def record(msg: object, *args: object, exc_info: object = None, **extra: object) -> logging.LogRecord:
        return log.makeRecord(log.name, logging.INFO, __file__, 1, msg, args, exc_info, "finish", {"request_id": "r-1", **extra})

    try:
        raise ValueError("spoilt")
    except ValueError:
        import sys

        failure = sys.exc_info()
    # When each writes a request's line, a line in other words, a dict, an exception
    records = [
        record("%s %s %s", "POST", "/chases/c-1/dice-rolls", 200, method="POST", path="/chases/c-1/dice-rolls", route="/chases/<uuid:chase_id>/dice-rolls", status=200, duration_ms=1.25, chase_id=None),
        record("rolled %s for %s", "1D6", "Élodie ✓", version=3, _hidden=1),
        record({"event": "replayed", "keys": [1, 2]}),
        record("failed", exc_info=failure),
    ]
    # Then the lines are the same text: keys, their order and values
    assert [ours.format(r) for r in records] == [library.format(r) for r in records]
