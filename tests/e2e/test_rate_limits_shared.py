"""Rate limits count every worker process of a server alike, say the right reset, and browsers may
read them (api/limits.py, infrastructure/limits_sqlite.py, api/cors.py).

Measured before, `chase serve` with 2 workers and no Redis, a limit of 4 per minute: remaining
3, 2, 3, 1, 0 (each process counted alone: up to 8 requests a minute), RateLimit-Reset 61 for a
60 s window, and no RateLimit-* header readable by a page on another origin.
"""
from __future__ import annotations

import http.client
from pathlib import Path

from api import create_app
from infrastructure.edge_settings import EdgeSettings
from infrastructure.settings import web_settings
from tests.e2e.served_process import ChaseServe

LIMIT = 4


def health(port: int) -> http.client.HTTPResponse:
    """A request on a connection of its own: the server's workers take them in turn."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/openapi.json")
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def test_two_workers_share_one_count_and_say_the_window_s_reset(tmp_path: Path):
    two_workers_share_one_count(tmp_path, {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")})


def two_workers_share_one_count(tmp_path: Path, store: dict[str, str]) -> None:
    env = {**store, "CHASE_LEDGER_RATE_LIMIT_ADDRESS": f"{LIMIT} per minute"}
    server = ChaseServe(env, tmp_path / "serve.log", workers=2, threads=4)
    try:
        # A client sends ten requests, each on a new connection (so both workers answer some).
        answers = [health(server.port) for _ in range(10)]

        # The first four are served, counting down as one count; every later one is refused.
        assert [a.status for a in answers] == [200] * LIMIT + [429] * (10 - LIMIT)
        assert [a.getheader("RateLimit-Remaining") for a in answers[:LIMIT]] == ["3", "2", "1", "0"]
        # The window is a minute: it frees its first request within 60 s, never "61".
        assert all(1 <= int(a.getheader("RateLimit-Reset")) <= 60 for a in answers)
        assert all(1 <= int(a.getheader("Retry-After")) <= 60 for a in answers[LIMIT:])
        assert server.errors_logged() == []
    finally:
        server.stop()


def test_a_page_on_another_origin_may_read_the_rate_limit_headers(ledger):
    settings = web_settings({"CHASE_LEDGER_CORS_ORIGINS": "https://table.example"})
    app = create_app(lambda: ledger, edge=EdgeSettings(address_limit="2 per minute"), web=settings)
    client = app.test_client()
    origin = {"Origin": "https://table.example"}

    # The page's requests carry the limit left, and the browser is told it may read it.
    served = client.get("/openapi.json", headers=origin)
    exposed = {h.strip() for h in served.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"} <= exposed
    assert served.headers["RateLimit-Remaining"] == "1"

    # Refused, it may read when to come back.
    client.get("/openapi.json", headers=origin)
    refused = client.get("/openapi.json", headers=origin)
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert "Retry-After" in refused.headers["Access-Control-Expose-Headers"]
