"""Fixtures for tests against a real PostgreSQL server (tests/integration).

Every test here gets a clean database: the tables Chase Ledger creates are dropped before it
runs. When no server answers at 127.0.0.1:5432 the tests skip with a reason, except in CI
(``CI=true``), where they fail: a CI run must never pass by skipping its PostgreSQL tests.

The ``ledger`` fixture of tests/conftest.py (SQLite in memory) is overridden here, so the
``client`` and ``keeper`` fixtures, and any test function imported from tests/e2e, run on
PostgreSQL when collected under this folder.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from psycopg.sql import SQL, Identifier

from infrastructure.bootstrap import build_ledger

# CHASE_TEST_POSTGRES_DBNAME lets two checkouts run their suites at once, each on its own database.
HOST, PORT, USER = "127.0.0.1", "5432", "postgres"
DBNAME = os.environ.get("CHASE_TEST_POSTGRES_DBNAME", "test")
APPLICATION_NAME = "ChaseLedger"

# The tables an application named "ChaseLedger" creates: eventsourcing names its own tables
# after the application (lower-cased), the views and the seed vault have fixed names.
TABLES = (
    "chaseledger_events",
    "chaseledger_snapshots",
    "chaseledger_tracking",
    "chase_track_views",
    "chase_track_rows",
    "chase_roll_history",
    "chase_projection_errors",
    "chase_seeds",
    "chase_tokens",
    "chase_analytics_facts",
    "chase_analytics_groups",
    "idempotency_keys",
    "chase_server_secrets",
    "chase_webhooks",
    "chase_webhook_deliveries",
)

# Held by the test that uses the database, so that parallel runs (pytest-xdist workers, or two
# pytest runs at once) take turns on the shared "test" database instead of dropping each
# other's tables.
ADVISORY_LOCK_KEY = 0x43484153  # "CHAS"


def postgres_env_dict() -> dict[str, str]:
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": DBNAME,
        "POSTGRES_HOST": HOST,
        "POSTGRES_PORT": PORT,
        "POSTGRES_USER": USER,
        "POSTGRES_PASSWORD": "",
    }


def connect(**kwargs: Any) -> psycopg.Connection:
    return psycopg.connect(host=HOST, port=PORT, dbname=DBNAME, user=USER, password="", connect_timeout=3, **kwargs)


@pytest.fixture(scope="session")
def _postgres_reachable() -> str | None:
    """None when the server answers, else why not (checked once per session)."""
    try:
        with connect() as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as e:
        first_line = (str(e).strip().splitlines() or [""])[0]
        return f"PostgreSQL not reachable at {HOST}:{PORT} ({type(e).__name__}: {first_line})"
    return None


@pytest.fixture
def pg(_postgres_reachable: str | None) -> Iterator[psycopg.Connection]:
    """An autocommit connection to the (cleaned) test database, for looking at the tables."""
    if _postgres_reachable is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{_postgres_reachable}; CI=true, so PostgreSQL tests must run, not skip", pytrace=False)
        pytest.skip(_postgres_reachable)
    with connect(autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (ADVISORY_LOCK_KEY,))
        try:
            drop_tables(conn)
            yield conn
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (ADVISORY_LOCK_KEY,))


def drop_tables(conn: psycopg.Connection) -> None:
    for table in TABLES:
        conn.execute(SQL("DROP TABLE IF EXISTS {0}.{1} CASCADE").format(Identifier("public"), Identifier(table)))


@pytest.fixture
def postgres_env(pg: psycopg.Connection) -> dict[str, str]:
    """The build_ledger environment for the test database, with every table dropped first."""
    return postgres_env_dict()


@pytest.fixture
def ledger_factory(postgres_env: dict[str, str]) -> Iterator[Callable[[], Any]]:
    """Builds more ledgers on the same database (as other API processes would); all closed after."""
    built: list[Any] = []

    def build() -> Any:
        app = build_ledger(postgres_env)
        built.append(app)
        return app

    yield build
    for app in reversed(built):
        app.close()


@pytest.fixture
def ledger(ledger_factory: Callable[[], Any]) -> Any:
    """The real application on PostgreSQL (overrides the SQLite ledger of tests/conftest.py)."""
    return ledger_factory()
