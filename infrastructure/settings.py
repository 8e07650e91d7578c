"""Configuration from environment variables (documented in the README)."""
from __future__ import annotations

import os
from typing import Mapping

SQLITE = "eventsourcing.sqlite"
POSTGRES = "eventsourcing.postgres"
DEFAULT_SQLITE_FILE = "chase-ledger.sqlite3"

# Variables passed through to eventsourcing, which reads them itself.
PASSTHROUGH = (
    "SQLITE_DBNAME",
    "SQLITE_LOCK_TIMEOUT",
    "POSTGRES_DBNAME",
    "POSTGRES_HOST",
    "POSTGRES_PORT",
    "POSTGRES_USER",
    "POSTGRES_PASSWORD",
    "POSTGRES_SCHEMA",
    "POSTGRES_POOL_SIZE",
    "POSTGRES_MAX_OVERFLOW",
    "POSTGRES_CONNECT_TIMEOUT",
    "POSTGRES_LOCK_TIMEOUT",
    "AGGREGATE_CACHE_MAXSIZE",
)


class ConfigurationError(ValueError):
    """An environment variable with a value Chase Ledger cannot use."""


def persistence_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The eventsourcing environment: SQLite file by default, PostgreSQL when asked."""
    environ = os.environ if environ is None else environ
    module = environ.get("PERSISTENCE_MODULE", SQLITE)
    if module not in (SQLITE, POSTGRES):
        raise ConfigurationError(f"PERSISTENCE_MODULE must be {SQLITE} or {POSTGRES}, not {module!r}")
    env = {"PERSISTENCE_MODULE": module, "AGGREGATE_CACHE_MAXSIZE": "500"}
    for key in PASSTHROUGH:
        if key in environ:
            env[key] = environ[key]
    if module == SQLITE:
        env.setdefault("SQLITE_DBNAME", DEFAULT_SQLITE_FILE)
        env.setdefault("SQLITE_LOCK_TIMEOUT", "10")
    else:
        for key, default in (("POSTGRES_HOST", "127.0.0.1"), ("POSTGRES_PORT", "5432"), ("POSTGRES_USER", "postgres"), ("POSTGRES_PASSWORD", "")):
            env.setdefault(key, default)
        if "POSTGRES_DBNAME" not in env:
            raise ConfigurationError("POSTGRES_DBNAME is required with PERSISTENCE_MODULE=eventsourcing.postgres")
    return env
