"""The composition root: builds the adapters once per process and injects them."""
from __future__ import annotations

from typing import Any, Mapping

from application.chases import ChaseLedger
from infrastructure.settings import POSTGRES, persistence_env
from infrastructure.transcodings import TRANSCODINGS


def _sqlite_views(factory: Any) -> Any:
    from infrastructure.views_sqlite import SQLiteChaseViews

    return factory.tracking_recorder(SQLiteChaseViews)


def _sqlite_seeds(factory: Any) -> Any:
    from infrastructure.views_sqlite import SQLiteSeedVault

    vault = SQLiteSeedVault(factory.datastore)
    vault.create_table()
    return vault


def _postgres_views(factory: Any) -> Any:
    from infrastructure.views_postgres import PostgresChaseViews

    return factory.tracking_recorder(PostgresChaseViews)


def _postgres_seeds(factory: Any) -> Any:
    from infrastructure.views_postgres import PostgresSeedVault

    vault = PostgresSeedVault(factory.datastore)
    vault.create_table()
    return vault


def build_ledger(environ: Mapping[str, str] | None = None) -> ChaseLedger:
    """A ChaseLedger on the configured store: SQLite file by default, PostgreSQL when asked."""
    env = persistence_env(environ)
    if env["PERSISTENCE_MODULE"] == POSTGRES:
        return ChaseLedger(env, seeds=_postgres_seeds, views=_postgres_views, transcodings=TRANSCODINGS)
    return ChaseLedger(env, seeds=_sqlite_seeds, views=_sqlite_views, transcodings=TRANSCODINGS)
