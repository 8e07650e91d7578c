"""A thousand open streams on one API host, and the table goes on (issue 12 part 4).

`chase serve` with its defaults (two workers of four threads, SQLite, no Redis). Seven open
streams used to take every thread: /health and /openapi.json waited until they closed. Now a
thousand streams follow one chase while the Keeper rolls dice on it: every roll is answered, and
every stream is sent every roll. The command latencies are printed (``pytest -s``) beside a bare
request's, with no stream and with the thousand open; bench/streams.py measures them longer.
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from tests.e2e.served_process import ChaseServe, Client
from tests.e2e.sse_crowd import StreamCrowd

STREAMS, ROLLS = 1000, 20


def timed(call: Callable[[], tuple[int, object]], times: int) -> tuple[list[int], list[float]]:
    statuses, seconds = [], []
    for _ in range(times):
        started = time.perf_counter()
        status, _ = call()
        seconds.append(time.perf_counter() - started)
        statuses.append(status)
    return statuses, seconds


def ms(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds) * 1000:.1f} ms, max {max(seconds) * 1000:.1f} ms"


def test_a_thousand_open_streams_hold_no_thread_and_each_is_sent_every_roll(tmp_path: Path):
    server = ChaseServe(
        # A thousand streams from one address, as no one client opens: no cap on its connections
        {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"), "CHASE_LEDGER_STREAM_HEARTBEAT": "5", "CHASE_LEDGER_CONNECTIONS_PER_ADDRESS": "0"},
        tmp_path / "serve.log", workers=2, threads=4,
    )
    crowd = None
    try:
        # The Keeper starts a chase and rolls with nobody watching.
        keeper = Client(server.port)
        status, created = keeper.request("POST", "/chases", {"name": "Watched by a crowd", "dice": "server"})
        chase_id, keeper.token = created["chase"]["chase_id"], created["keeper_token"]
        roll = lambda: keeper.request("POST", f"/chases/{chase_id}/dice-rolls", {"expression": "1D100"})  # noqa: E731
        bare = lambda: keeper.request("GET", "/health")  # noqa: E731
        quiet_statuses, quiet = timed(roll, ROLLS)
        _, quiet_bare = timed(bare, ROLLS)
        assert set(quiet_statuses) == {200}

        # A thousand streams follow the chase: each is answered and sent the log so far.
        crowd = StreamCrowd(server.port, f"/chases/{chase_id}/stream", keeper.token, STREAMS)
        crowd.open()
        assert crowd.statuses == [200] * STREAMS
        assert crowd.seen_by_all(ROLLS + 1), f"{len(crowd.behind(ROLLS + 1))} streams did not get the backlog"

        # With them all open, the API still answers everything else at once.
        assert keeper.request("GET", "/health")[0] == 200
        assert keeper.request("GET", "/openapi.json")[0] == 200

        # The Keeper rolls on: every roll is answered, and sent to every stream.
        crowded_statuses, crowded = timed(roll, ROLLS)
        _, crowded_bare = timed(bare, ROLLS)
        assert set(crowded_statuses) == {200}
        final = 2 * ROLLS + 1
        assert crowd.seen_by_all(final), f"{len(crowd.behind(final))} streams were not sent every roll"
        assert crowd.ended == 0  # no stream was dropped by the server
        print(f"\n{ROLLS} rolls, no stream open: {ms(quiet)} (bare request: {ms(quiet_bare)})")
        print(f"{ROLLS} rolls, {STREAMS} streams open: {ms(crowded)} (bare request: {ms(crowded_bare)})")
    finally:
        if crowd is not None:
            crowd.close()
        server.stop()
    assert server.errors_logged() == []
