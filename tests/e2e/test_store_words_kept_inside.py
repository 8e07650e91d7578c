"""On SQLite: what an unauthenticated client can make the store do, and learn of it.

``/ready`` asks the store with a committed write (infrastructure/readiness.py); on SQLite that
write takes the one lock commands queue for. Measured before: 40 checks made 40 probe writes, and
a refusal's 503 told the client the driver's own words (a PostgreSQL host and port).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg

from api import create_app
from infrastructure import readiness
from infrastructure.bootstrap import build_ledger
from tests.conftest import ChaseClient
from tests.e2e.record_helpers import running

CHECKS = 40  # /ready calls, sent by 8 callers at once
DRIVER_WORDS = 'connection to server at "10.0.3.7", port 5432 failed: /var/lib/chase/chase.sqlite3'


def test_many_ready_checks_make_few_probe_writes(tmp_path: Path, monkeypatch: Any) -> None:
    # Given a ledger on SQLite whose readiness probe writes are counted,
    ledger = build_ledger({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")})
    writes: list[int] = []
    probe = readiness._probe_sqlite

    def counted(datastore: Any) -> None:
        writes.append(1)
        probe(datastore)

    monkeypatch.setattr(readiness, "_probe_sqlite", counted)
    try:
        app = create_app(lambda: ledger)

        def check(_: int) -> int:
            return app.test_client().get("/ready").status_code

        # when /ready is asked 40 times by 8 callers at once,
        with ThreadPoolExecutor(8) as callers:
            answers = list(callers.map(check, range(CHECKS)))
        # then every check says ready,
        assert answers == [200] * CHECKS
        # and the store was written a few times at most, not once per check.
        assert 1 <= len(writes) <= 3, len(writes)
    finally:
        ledger.close()


def test_a_refusal_names_no_host_or_path_to_the_client(tmp_path: Path, monkeypatch: Any) -> None:
    # Given a chase being played,
    ledger = build_ledger({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")})
    try:
        app = create_app(lambda: ledger)
        keeper = ChaseClient(app.test_client())
        running(keeper)

        # when the store's connection is lost, in the driver's words naming its host and a path,
        def lost(*args: Any, **kwargs: Any) -> Any:
            raise psycopg.OperationalError(DRIVER_WORDS)

        monkeypatch.setattr(ledger.recorder, "insert_events", lost)
        monkeypatch.setattr(readiness, "_probe_sqlite", lost)
        monkeypatch.setattr(readiness, "PROBE_EVERY", 0.0)  # this check probes now
        answer = keeper.http.post(f"/chases/{keeper.chase_id}/dice-rolls", json={"expression": "1D6", "table_dice": [3]})
        ready = keeper.http.get("/ready")

        # then the roll is answered 503 saying the connection was lost, naming no host, port or path,
        assert answer.status_code == 503, answer.get_json()
        detail = answer.get_json()["detail"]
        assert "connection" in detail and "lost" in detail
        # and /ready says not ready in the same fixed words;
        assert ready.status_code == 503
        store = ready.get_json()["checks"]["store"]
        assert "connection" in store
        for said in (detail, store, answer.get_data(as_text=True), ready.get_data(as_text=True)):
            assert "10.0.3.7" not in said and "5432" not in said and "/var/lib" not in said
    finally:
        ledger.close()
