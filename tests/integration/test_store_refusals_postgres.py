"""On PostgreSQL: what a client is told while the store refuses writes, is away or is locked by
someone else, and how the pooled connections come back after the server ended them.

Measured before: with every pooled connection set read-only, a roll was answered 500 and /ready
said ready; after ``pg_terminate_backend`` on every pooled connection (what a database restart
does to them), 4 of the next 40 requests were answered 500; an outside connection holding the
events table's lock made a roll wait until it let go (no lock timeout by default). Nothing was
lost in any of them.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Any

import psycopg
import pytest

from infrastructure import readiness
from tests.e2e.record_helpers import running
from tests.e2e.test_store_refusals import refused_for_now
from tests.integration.conftest import connect
from tests.integration.test_recorder_fallbacks_postgres import chase_client, roll

pytestmark = pytest.mark.postgres


def on_every_pooled_connection(ledger: Any, statement: str) -> list[int]:
    """Runs ``statement`` on every connection the ledger's pool can lend; their server pids."""
    pool = ledger.factory.datastore.pool
    conns = [pool.getconn() for _ in range(pool.max_size)]
    try:
        for conn in conns:
            conn.execute(statement)
        return [conn.info.backend_pid for conn in conns]
    finally:
        for conn in conns:
            pool.putconn(conn)


def events_recorded(pg: psycopg.Connection, chase_id: str) -> int:
    (count,) = pg.execute("SELECT count(*) FROM chaseledger_events WHERE originator_id = %s", (chase_id,)).fetchone()
    return count


def test_a_read_only_store_is_answered_503_and_not_ready_and_nothing_is_lost(pg, ledger, monkeypatch):
    # (Each /ready here probes the store: this test follows it from one check to the next.)
    monkeypatch.setattr(readiness, "PROBE_EVERY", 0.0)
    # Given a chase being played,
    keeper = chase_client(ledger)
    running(keeper)
    roll(keeper, 4)
    recorded = events_recorded(pg, keeper.chase_id)
    # when the server takes writes no more (as a standby does after a failover),
    on_every_pooled_connection(ledger, "SET default_transaction_read_only = on")
    # then a roll is answered 503 with Retry-After, saying the store refuses writes,
    body = refused_for_now(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [5]}), "store-unavailable")
    assert "read-only" in body["detail"]
    # /ready says not ready, naming the store,
    ready = keeper.http.get("/ready")
    assert ready.status_code == 503 and "read-only" in ready.get_json()["checks"]["store"]
    # the chase can still be read,
    assert keeper.track()["version"] == recorded
    # and nothing was recorded or lost.
    assert events_recorded(pg, keeper.chase_id) == recorded
    # Once the server takes writes again, so does the API.
    on_every_pooled_connection(ledger, "SET default_transaction_read_only = off")
    assert keeper.http.get("/ready").status_code == 200
    assert roll(keeper, 6)["chase"]["version"] == recorded + 1


def test_after_the_server_ends_every_pooled_connection_no_request_fails(pg, ledger):
    # Given a chase being played through a process whose pool has all its connections open,
    keeper = chase_client(ledger)
    running(keeper)
    recorded = events_recorded(pg, keeper.chase_id)
    pids = on_every_pooled_connection(ledger, "SELECT 1")
    # when the server ends every one of them (what a restart of the database does to them),
    pg.execute("SELECT pg_terminate_backend(pid, 10000) FROM unnest(%s::int[]) AS pid", (pids,))  # (each waits for its end)
    # then the next forty requests, reads and rolls in turn, are all answered as usual,
    answered: Counter[int] = Counter()
    for n in range(40):
        if n % 2:
            response = keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [n % 6 + 1]})
        else:
            response = keeper.http.get(f"/chases/{keeper.chase_id}/track")
        answered[response.status_code] += 1
    assert answered == {200: 40}
    # and each of the twenty rolls was recorded once.
    assert events_recorded(pg, keeper.chase_id) == recorded + 20
    assert keeper.http.get("/ready").status_code == 200


def test_a_roll_waiting_on_an_outside_holder_of_the_events_lock_is_answered_store_busy(pg, ledger):
    # Given a chase being played, with the lock timeout left at its default,
    keeper = chase_client(ledger)
    running(keeper)
    recorded = events_recorded(pg, keeper.chase_id)
    answered: list[Any] = []
    # when an outside connection takes the events table's lock and holds it,
    with connect() as holder:
        holder.execute("LOCK TABLE chaseledger_events IN EXCLUSIVE MODE")
        rolling = threading.Thread(target=lambda: answered.append(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]})))
        rolling.start()
        rolling.join(30)  # (a bound for the test, should the roll wait on)
        answered_while_held = list(answered)
        holder.rollback()
    rolling.join()
    # then the roll is answered while the lock is still held: 503 store-busy, to retry shortly,
    assert answered_while_held, "the roll waited for the outside holder to let go"
    refused_for_now(answered_while_held[0], "store-busy")
    # having recorded nothing,
    assert events_recorded(pg, keeper.chase_id) == recorded
    # and once the holder lets go, the same roll is recorded.
    assert roll(keeper, 3)["chase"]["version"] == recorded + 1


def waiting_for_the_events_lock(pg: psycopg.Connection) -> int:
    """The server pid of the connection that waits for the events table's lock, once one does."""
    for _ in range(400):
        row = pg.execute("SELECT pid FROM pg_locks WHERE relation = 'chaseledger_events'::regclass AND NOT granted").fetchone()
        if row:
            return row[0]
        time.sleep(0.05)
    raise AssertionError("no connection came to wait for the events table's lock")


def test_a_roll_whose_connection_the_server_ends_mid_command_is_answered_503_not_run_again(pg, postgres_env, ledger_factory):
    # Given a chase being played, by a process that waits long for the events table's lock,
    postgres_env["POSTGRES_LOCK_TIMEOUT"] = "60"
    keeper = chase_client(ledger_factory())
    running(keeper)
    recorded = events_recorded(pg, keeper.chase_id)
    answered: list[Any] = []
    with connect() as holder:
        # when a roll is sent while an outside connection holds that lock,
        holder.execute("LOCK TABLE chaseledger_events IN EXCLUSIVE MODE")
        rolling = threading.Thread(target=lambda: answered.append(keeper.post("/dice-rolls", {"expression": "1D6", "table_dice": [2]})))
        rolling.start()
        # and the server ends the roll's connection while it waits (a restart mid-command),
        pg.execute("SELECT pg_terminate_backend(%s)", (waiting_for_the_events_lock(pg),))
        rolling.join(30)
        answered_while_held = list(answered)
        holder.rollback()
    rolling.join()
    # then the roll is answered 503 at once, not sent again to wait behind the holder (a
    # command whose connection is lost may have been committed: it is never run twice),
    assert answered_while_held, "the roll was sent again and waited for the outside holder"
    refused_for_now(answered_while_held[0], "store-unavailable")
    # and it recorded nothing: the client's retry records it once.
    assert events_recorded(pg, keeper.chase_id) == recorded
    assert roll(keeper, 2)["chase"]["version"] == recorded + 1
