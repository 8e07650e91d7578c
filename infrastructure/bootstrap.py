"""The composition root: builds the adapters once per process and injects them."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from application.chases import ChaseLedger
from infrastructure.settings import POSTGRES, persistence_env
from infrastructure.transcodings import TRANSCODINGS


def _create(recorder: Any) -> Any:
    recorder.create_table()
    return recorder


def _sqlite_views(factory: Any) -> Any:
    from infrastructure.sqlite_store import SQLiteChaseViews

    return factory.tracking_recorder(SQLiteChaseViews)


def _sqlite_seeds(factory: Any) -> Any:
    from infrastructure.sqlite_store import SQLiteSeedVault

    return _create(SQLiteSeedVault(factory.datastore))


def _sqlite_tokens(factory: Any) -> Any:
    from infrastructure.sqlite_store import SQLiteTokenStore

    return _create(SQLiteTokenStore(factory.datastore))


def _postgres_views(factory: Any) -> Any:
    from infrastructure.postgres_store import PostgresChaseViews

    return factory.tracking_recorder(PostgresChaseViews)


def _postgres_seeds(factory: Any) -> Any:
    from infrastructure.postgres_store import PostgresSeedVault

    return _create(PostgresSeedVault(factory.datastore))


def _postgres_tokens(factory: Any) -> Any:
    from infrastructure.postgres_store import PostgresTokenStore

    return _create(PostgresTokenStore(factory.datastore))


# Key (two-int form) of the advisory lock that API processes take while they create tables.
STARTUP_LOCK = (0x43484C47, 1)  # "CHLG"


@contextmanager
def _postgres_startup_lock(env: Mapping[str, str]) -> Iterator[None]:
    """Hold a PostgreSQL advisory lock while this process creates (or checks) the tables.

    Building a ledger runs CREATE TABLE IF NOT EXISTS, CREATE OR REPLACE FUNCTION and the
    tracking-table migration check; PostgreSQL does not make these safe to run at once, so API
    processes starting together (gunicorn workers, scaled containers) failed with "duplicate key
    value violates unique constraint pg_type_typname_nsp_index", "relation ... already exists"
    or "tuple concurrently updated". Holding this lock, they create the tables one at a time.
    """
    import psycopg

    conn = psycopg.connect(
        dbname=env["POSTGRES_DBNAME"], host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"], password=env["POSTGRES_PASSWORD"],
        connect_timeout=int(float(env.get("POSTGRES_CONNECT_TIMEOUT") or 30)), autocommit=True,
    )
    try:
        conn.execute("SELECT pg_advisory_lock(%s, %s)", STARTUP_LOCK)
        yield
    finally:
        conn.close()  # ends the session, which releases the lock


def build_ledger(environ: Mapping[str, str] | None = None) -> ChaseLedger:
    """A ChaseLedger on the configured store: SQLite file by default, PostgreSQL when asked."""
    env = persistence_env(environ)
    if env["PERSISTENCE_MODULE"] == POSTGRES:
        with _postgres_startup_lock(env):
            return ChaseLedger(env, seeds=_postgres_seeds, views=_postgres_views, tokens=_postgres_tokens, transcodings=TRANSCODINGS)
    return ChaseLedger(env, seeds=_sqlite_seeds, views=_sqlite_views, tokens=_sqlite_tokens, transcodings=TRANSCODINGS)
