"""SQLite connections that keep their statements prepared (infrastructure/sqlite_recorder.py)."""
from __future__ import annotations

import sqlite3

from eventsourcing.persistence import InterfaceError
from eventsourcing.sqlite import (
    SQLITE3_DEFAULT_LOCK_TIMEOUT,
    SQLiteConnection,
    SQLiteConnectionPool,
)

STATEMENTS_CACHED = 64  # prepared statements kept per connection (a command runs about ten different ones)


def connect(pool: SQLiteConnectionPool) -> SQLiteConnection:
    """eventsourcing's ``SQLiteConnectionPool._create_connection``, but with a statement cache.
    eventsourcing 9.5 passes ``cached_statements=True``, which the sqlite3 module reads as a
    cache of one statement: every statement of a command was parsed and planned again (some
    130,000 instructions a command, bench/http_instructions.py under callgrind)."""
    try:
        c = sqlite3.connect(
            database=pool.db_name, uri=True, check_same_thread=False, isolation_level=None,  # autocommit, as eventsourcing's
            cached_statements=STATEMENTS_CACHED, timeout=pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT,
        )
    except (sqlite3.Error, TypeError) as e:
        raise InterfaceError(e) from e
    if not pool.is_sqlite_memory_mode and not pool.is_journal_mode_wal:
        cursor = c.cursor()
        cursor.execute("PRAGMA journal_mode;")
        if cursor.fetchone()[0].lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL;")
            pool.journal_mode_was_changed_to_wal = True
        pool.is_journal_mode_wal = True
    c.row_factory = sqlite3.Row
    return SQLiteConnection(sqlite_conn=c, max_age=pool.max_age)
