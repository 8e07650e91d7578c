"""Readiness: can this process serve now? The store answers, and Redis when it is configured.

Liveness (``GET /health``) says only that the process answers; readiness (``GET /ready``) is
what a load balancer or an orchestrator asks before sending traffic: a process whose database
or Redis is unreachable, or whose store takes no writes, is taken out of rotation until they are
back.

The store is asked with a write, committed: one row of a table of its own (``chase_ready_probe``
on PostgreSQL, ``ready_probe`` on SQLite), written over at every check. A query that answers
says nothing of writes: a standby after a failover, a database set read-only, a read-only file
and a full disk all answer reads. ``pg_is_in_recovery()`` or ``transaction_read_only`` would see
the first two alone; a full disk shows only when a write reaches it, which for SQLite is the
commit (the WAL is written then, never for a write rolled back). So the probe commits, as a
command does, and fails when a command would.

``/ready`` needs no credentials, and on SQLite each probe takes the one write lock that commands
queue for: so a process probes at most once every ``PROBE_EVERY`` seconds, and a check within
that time (or made while a probe runs) is answered with the last probe's result.
"""
from __future__ import annotations

import logging
import threading
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

from eventsourcing.postgres import PostgresDatastore
from psycopg.sql import SQL, Literal

from infrastructure import store_refusals
from infrastructure.postgres_tables import table

log = logging.getLogger(__name__)

REDIS_TIMEOUT = 2.0  # seconds a PING may take before Redis counts as down
PROBE_TIMEOUT = "2s"  # PostgreSQL: how long the probe may wait for its row's lock, or run

PROBE_EVERY = 1.0  # seconds a probe's result answers the checks after it: a load balancer asks every few seconds

_probed: weakref.WeakSet[Any] = weakref.WeakSet()  # the datastores whose probe table is made


@dataclass
class _LastProbe:
    """A datastore's last probe: when (time.monotonic) and its answer; one probe at a time."""

    at: float = float("-inf")
    answer: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)


_last: weakref.WeakKeyDictionary[Any, _LastProbe] = weakref.WeakKeyDictionary()
_last_lock = threading.Lock()  # guards _last itself


def check(ledger: Any) -> dict[str, str]:
    """Each dependency, "ok" or why not."""
    checks = {"store": _store(ledger)}
    if ledger.worker is not None and ledger.worker.redis_url:
        checks["redis"] = _redis(ledger.worker.redis_url)
    return checks


def _store(ledger: Any) -> str:
    """The store's probe, made at most once every PROBE_EVERY seconds; concurrent checks wait
    for the one probe under way and share its answer."""
    datastore = ledger.recorder.datastore
    with _last_lock:
        last = _last.setdefault(datastore, _LastProbe())
    with last.lock:
        if time.monotonic() - last.at >= PROBE_EVERY:
            last.answer = _probe(datastore)
            last.at = time.monotonic()
        return last.answer


def _probe(datastore: Any) -> str:
    try:
        if isinstance(datastore, PostgresDatastore):
            _probe_postgres(datastore)
        else:
            _probe_sqlite(datastore)
    except Exception as e:  # noqa: BLE001 - any failure means not ready; say which
        # The driver's words name hosts, ports and file paths: the log has them, not the
        # unauthenticated answer, which names the kind of refusal (api/problems.py does the same).
        log.warning("readiness probe failed: %s", store_refusals.reason(e))
        if store_refusals.refusal(e) is not None:
            return store_refusals.sentence(e)
        return f"{type(e).__name__} (the server's log says more)"
    return "ok"


def _probe_postgres(datastore: PostgresDatastore) -> None:
    probe = table(datastore, "chase_ready_probe")
    with datastore.transaction(commit=True) as c:
        # Bounded: a check that waits on a lock tells the load balancer nothing in time.
        c.execute(SQL("SET LOCAL lock_timeout = {0}; SET LOCAL statement_timeout = {0}").format(Literal(PROBE_TIMEOUT)))
        if datastore not in _probed:
            c.execute(SQL("CREATE TABLE IF NOT EXISTS {0} (id smallint PRIMARY KEY, checked_at timestamptz NOT NULL)").format(probe))
        c.execute(SQL("INSERT INTO {0} VALUES (1, now()) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at").format(probe))
    _probed.add(datastore)


def _probe_sqlite(datastore: Any) -> None:
    with datastore.transaction(commit=True) as c:
        if datastore not in _probed:
            c.execute("CREATE TABLE IF NOT EXISTS ready_probe (id INTEGER PRIMARY KEY, checked_at REAL NOT NULL)")
        c.execute("INSERT INTO ready_probe VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at", (time.time(),))
    _probed.add(datastore)


def _redis(url: str) -> str:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"[:300]
    return "ok"
