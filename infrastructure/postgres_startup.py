"""The settings each PostgreSQL connection of this process starts with, unless they are refused,
and the pool's check that a connection it lends has not been ended by the server.

They go in libpq's ``options``, sent with the connection's start-up: no statement, no round
trip. A pooler may refuse them (PgBouncer does, unless told ``ignore_startup_parameters =
options``), and the API then could not connect at all: a connection refused for them is made
again without them, and from then on every connection of the pool is (logged once).
``CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS=off`` (infrastructure/settings.py) sends none at all.
"""
from __future__ import annotations

import logging
import os
import select
import threading
from typing import Any

import psycopg
import psycopg_pool

log = logging.getLogger(__name__)

# - plan_cache_mode: psycopg prepares every statement run five times, but PostgreSQL still
#   planned the three of every command afresh each time (a custom plan: its estimate for a
#   constant beat the generic plan's, ``originator_version > $2``, ``unnest($1)``): some 30% of
#   the backend's time in GetCachedPlan (perf). Every statement of the recorder looks rows up by
#   their keys, which a generic plan does as well.
# The lock timeout is not one of them: set for the session, it held for every statement of every
# store on the pool; it is set in the transactions that lock the events table instead
# (infrastructure/postgres_recorder.py).
STARTUP_SETTINGS = {"plan_cache_mode": "force_generic_plan"}

# How a server or a pooler refuses them, in the error that ends the connection: PgBouncer's
# "unsupported startup parameter: options" (1.20 on: "... in options: plan_cache_mode"), RDS
# Proxy's "doesn't support command-line options", a server that does not know the setting
# "unrecognized configuration parameter "plan_cache_mode"".
REFUSALS = ("startup parameter", "command-line option", *STARTUP_SETTINGS)


class StartupOptions:
    """Has a pool's connections start with settings, and without them once they are refused."""

    def __init__(self, pool: Any, settings: dict[str, str]) -> None:
        self.pool = pool
        self._connect = pool._connect
        self.given = pool.kwargs.get("options") or os.environ.get("PGOPTIONS", "")  # libpq takes one or the other
        self.sent = " ".join([self.given, *(f"-c {name}={value}" for name, value in settings.items())]).strip()
        self.refused = False
        self._lock = threading.Lock()  # (the pool's workers connect at once)
        pool.kwargs["options"] = self.sent
        pool._connect = self.connect

    @classmethod
    def start(cls, datastore: Any, settings: dict[str, str]) -> StartupOptions | None:
        """Have the datastore's connections start with these settings; None when there are none,
        or when too late (its pool has opened, its connections made)."""
        pool = datastore.pool
        if not settings or not getattr(pool, "_closed", False) or pool.kwargs is None:
            return None
        return cls(pool, settings)

    def connect(self, timeout: float | None = None) -> Any:
        """The pool's own connect; again without the settings when they were what was refused."""
        try:
            return self._connect(timeout=timeout)
        except psycopg.OperationalError as e:
            if not any(refusal in str(e) for refusal in REFUSALS):
                raise
            self._refuse(e)  # (or another connection did, since this one set out)
        return self._connect(timeout=timeout)

    def _refuse(self, error: BaseException) -> None:
        with self._lock:
            if self.refused:
                return
            self.refused = True
            if self.given:
                self.pool.kwargs["options"] = self.given
            else:
                self.pool.kwargs.pop("options", None)
        log.warning(
            "PostgreSQL (or a pooler before it) refused the connection's startup options %r: connecting without them "
            "(set CHASE_LEDGER_POSTGRES_STARTUP_OPTIONS=off to send none): %s", self.sent, str(error).strip().splitlines()[-1],
        )


def lend_live_connections(pool: Any) -> None:
    """Has ``pool`` lend no connection the server has ended: one it finds ended it takes back
    (which discards it and makes another) and lends the next.

    A server that ends a connection (a restart, ``pg_terminate_backend``, an idle timeout) says
    so on it and closes it; the pool, which never reads an idle connection, lent it on, and the
    next statement failed (4 requests of the next 40 answered 500). An idle connection in
    autocommit has nothing to read, so one whose socket has something is asked (an empty query,
    psycopg_pool's own check). This costs one ``select`` a loan, where checking every loan
    (eventsourcing's POSTGRES_PRE_PING) costs a round trip for each of a command's several loans.
    Not the pool's ``check`` callback: after a failed check it sleeps 1, 2, 4 ... seconds before
    the next connection, and a restart ends them all (65 s for 40 requests, measured). Nor a
    ``ConnectionPool`` subclass overriding ``getconn``: eventsourcing's PostgresDatastore makes
    its pool itself, of its own class, and takes no other; so the pool's ``getconn`` (the method
    its ``connection()`` calls) is replaced on this one pool.
    """
    getconn = pool.getconn

    def getconn_live(timeout: float | None = None) -> Any:
        for _ in range(pool.max_size):  # (every one ended: the next is a new one)
            conn = getconn(timeout)
            if not _ended(conn):
                return conn
            pool.putconn(conn)
        return getconn(timeout)

    pool.getconn = getconn_live


def _ended(conn: psycopg.Connection[Any]) -> bool:
    if conn.closed or conn.broken:
        return True
    readable, _, _ = select.select([conn.pgconn.socket], [], [], 0)
    if not readable:
        return False
    try:
        psycopg_pool.ConnectionPool.check_connection(conn)
    except psycopg.Error:
        return True
    return False
