"""The rate limits' counts in a SQLite file, shared by every worker process of one server.

Without Redis each API process kept its own counts in memory, so a client spread over two
workers had twice its limit (a limit of 4 answered remaining 3, 2, 3, 1, 0). The `limits`
library (under flask-limiter) keeps counts in memory, Redis, Memcached, MongoDB or etcd, and
none of those is there in the embedded default; SQLite (the standard library's) is, and a file
is what the processes of one server share. This is a `limits` storage for it: flask-limiter and
limits keep the rules (the moving window, the headers), this keeps only the counts, in WAL mode so that a count never waits on a reader. The
moving window is kept to a six-hundredth of its length (0.1 s of a minute, 6 s of an hour): the
requests of each such slice are one row, so a count reads at most 600 rows however many
requests a limit allows (one row per request read 20,000 rows at an hour's limit). ``chase serve`` makes the
file for each server run (api/gunicorn_conf.py); ``CHASE_LEDGER_RATE_LIMIT_FILE`` names one.
Redis (``REDIS_URL``) is still the choice for several servers.
"""
from __future__ import annotations

import os
import sqlite3
import threading
import time
from typing import Any
from urllib.parse import unquote, urlparse

from limits.storage import MovingWindowSupport, Storage

SCHEME = "chase-ledger-sqlite"
PURGE_EVERY = 1000  # requests counted by a process between deletions of the expired slices
SLICES = 600  # a window's slices: each one row of counts

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS slices (key TEXT NOT NULL, at REAL NOT NULL, count INTEGER NOT NULL, expires REAL NOT NULL, PRIMARY KEY (key, at))",
    "CREATE INDEX IF NOT EXISTS slices_by_expiry ON slices (expires)",
    "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, count INTEGER NOT NULL, expires REAL NOT NULL)",
)


def storage_uri(path: str) -> str:
    return f"{SCHEME}://{os.path.abspath(path)}"


class SQLiteStorage(Storage, MovingWindowSupport):
    """`limits` storage on a SQLite file: one connection per thread of each process."""

    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self.path = unquote(urlparse(uri).path)
        self.local = threading.local()
        self.counted = 0
        with self.connection() as db:
            for statement in SCHEMA:
                db.execute(statement)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sqlite3.Error

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (a new one after a fork: a connection never crosses processes)."""
        db: sqlite3.Connection | None = getattr(self.local, "db", None)
        if db is None or getattr(self.local, "pid", None) != os.getpid():
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None, check_same_thread=True)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")  # a count lost in a power cut is no harm
            self.local.db, self.local.pid = db, os.getpid()
        return db

    # -- the moving window (flask-limiter's strategy) ---------------------------------------

    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        width = expiry / SLICES
        at = now - now % width  # the start of this request's slice: it counts from there
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")  # one writer at a time: two processes never both take the last place
        try:
            (count,) = db.execute("SELECT coalesce(sum(count), 0) FROM slices WHERE key = ? AND at > ?", (key, now - expiry)).fetchone()
            if count + amount > limit:
                db.execute("ROLLBACK")
                return False
            db.execute(
                "INSERT INTO slices (key, at, count, expires) VALUES (?, ?, ?, ?) ON CONFLICT (key, at) DO UPDATE SET count = count + excluded.count",
                (key, at, amount, at + expiry),
            )
            self.counted += 1
            if self.counted % PURGE_EVERY == 0:
                db.execute("DELETE FROM slices WHERE expires <= ?", (now,))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        """(When the oldest slice in the window began, the requests in it); (now, 0) when empty."""
        now = time.time()
        oldest, count = self.connection().execute(
            "SELECT min(at), coalesce(sum(count), 0) FROM slices WHERE key = ? AND at > ?", (key, now - expiry),
        ).fetchone()
        return (oldest, count) if count else (now, 0)

    # -- plain counters (the other strategies; `limits` asks every storage for them) ----------

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        db = self.connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM counters WHERE key = ? AND expires <= ?", (key, now))
            db.execute(
                "INSERT INTO counters (key, count, expires) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET count = count + excluded.count",
                (key, amount, now + expiry),
            )
            (count,) = db.execute("SELECT count FROM counters WHERE key = ?", (key,)).fetchone()
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return int(count)

    def get(self, key: str) -> int:
        row = self.connection().execute("SELECT count FROM counters WHERE key = ? AND expires > ?", (key, time.time())).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self.connection().execute("SELECT expires FROM counters WHERE key = ?", (key,)).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            self.connection().execute("SELECT 1").fetchone()
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        db = self.connection()
        (entries,) = db.execute("SELECT count(*) FROM slices").fetchone()
        db.execute("DELETE FROM slices")
        db.execute("DELETE FROM counters")
        return int(entries)

    def clear(self, key: str) -> None:
        db = self.connection()
        db.execute("DELETE FROM slices WHERE key = ?", (key,))
        db.execute("DELETE FROM counters WHERE key = ?", (key,))
