"""Webhooks and their deliveries in the database, beside the events (SQLite and PostgreSQL).

``delivered_version`` is the last event the receiver took; it only moves on by a compare-and-set
(application/webhooks.py), so two delivery jobs never both move it.
"""
from __future__ import annotations

from typing import Any

from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Composed, Identifier

HOOK = "webhook_id, chase_id, url, secret, delivered_version, created_at"
DELIVERY = "event_id, version, event_type, attempt, status, response_status, error, at"
DELIVERY_COLUMNS = f"webhook_id, {DELIVERY}"
UNBOUNDED = 2**63 - 1  # past every delivery number (SQLite INTEGER and PostgreSQL bigserial)
LISTED = f"delivery_id, {DELIVERY}"  # a listed delivery carries its number: the cursor of the next page


class SQLiteWebhookStore(SQLiteRecorder):
    """Webhooks and deliveries in the SQLite file."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)

    def construct_create_table_statements(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS chase_webhooks (webhook_id TEXT PRIMARY KEY, chase_id TEXT NOT NULL, url TEXT NOT NULL, "
            "secret TEXT NOT NULL, delivered_version INTEGER NOT NULL, created_at REAL NOT NULL)",
            "CREATE INDEX IF NOT EXISTS chase_webhooks_by_chase ON chase_webhooks (chase_id)",
            "CREATE TABLE IF NOT EXISTS chase_webhook_deliveries (delivery_id INTEGER PRIMARY KEY AUTOINCREMENT, "
            "webhook_id TEXT NOT NULL, event_id TEXT NOT NULL, version INTEGER NOT NULL, event_type TEXT NOT NULL, "
            "attempt INTEGER NOT NULL, status TEXT NOT NULL, response_status INTEGER, error TEXT, at REAL NOT NULL)",
            "CREATE INDEX IF NOT EXISTS chase_webhook_deliveries_by_hook ON chase_webhook_deliveries (webhook_id, delivery_id)",
        ]

    def _rows(self, sql: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return [dict(row) for row in c.fetchall()]

    def add(self, hook: dict[str, Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"INSERT INTO chase_webhooks ({HOOK}) VALUES (?, ?, ?, ?, ?, ?)",
                      tuple(hook[k] for k in HOOK.split(", ")))

    def get(self, webhook_id: str) -> dict[str, Any] | None:
        rows = self._rows(f"SELECT {HOOK} FROM chase_webhooks WHERE webhook_id = ?", (webhook_id,))
        return rows[0] if rows else None

    def for_chase(self, chase_id: str) -> list[dict[str, Any]]:
        return self._rows(f"SELECT {HOOK} FROM chase_webhooks WHERE chase_id = ? ORDER BY created_at", (chase_id,))

    def any_hooks(self) -> bool:
        return bool(self._rows("SELECT EXISTS (SELECT 1 FROM chase_webhooks) AS found", ())[0]["found"])

    def advance(self, webhook_id: str, delivered: int, to: int) -> bool:
        with self.datastore.transaction(commit=True) as c:
            c.execute("UPDATE chase_webhooks SET delivered_version = ? WHERE webhook_id = ? AND delivered_version = ? RETURNING webhook_id",
                      (to, webhook_id, delivered))
            return c.fetchone() is not None

    def record(self, delivery: dict[str, Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(f"INSERT INTO chase_webhook_deliveries ({DELIVERY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      tuple(delivery[k] for k in DELIVERY_COLUMNS.split(", ")))

    def deliveries(self, webhook_id: str, limit: int, before: int | None = None) -> list[dict[str, Any]]:
        return self._rows(
            f"SELECT {LISTED} FROM chase_webhook_deliveries WHERE webhook_id = ? AND delivery_id < ? ORDER BY delivery_id DESC LIMIT ?",
            (webhook_id, UNBOUNDED if before is None else before, limit),
        )


def _table(datastore: PostgresDatastore, name: str) -> Composed:
    return SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier(name))


class PostgresWebhookStore(PostgresRecorder):
    """Webhooks and deliveries in PostgreSQL."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore)
        self.hooks = _table(datastore, "chase_webhooks")
        self.sent = _table(datastore, "chase_webhook_deliveries")
        self.sql_create_statements += [
            SQL("CREATE TABLE IF NOT EXISTS {0} (webhook_id text PRIMARY KEY, chase_id text NOT NULL, url text NOT NULL, "
                "secret text NOT NULL, delivered_version bigint NOT NULL, created_at double precision NOT NULL)").format(self.hooks),
            SQL("CREATE INDEX IF NOT EXISTS {0} ON {1} (chase_id)").format(Identifier("chase_webhooks_by_chase"), self.hooks),
            SQL("CREATE TABLE IF NOT EXISTS {0} (delivery_id bigserial PRIMARY KEY, webhook_id text NOT NULL, "
                "event_id text NOT NULL, version bigint NOT NULL, event_type text NOT NULL, attempt integer NOT NULL, "
                "status text NOT NULL, response_status integer, error text, at double precision NOT NULL)").format(self.sent),
            SQL("CREATE INDEX IF NOT EXISTS {0} ON {1} (webhook_id, delivery_id)").format(Identifier("chase_webhook_deliveries_by_hook"), self.sent),
        ]

    def _rows(self, sql: Composed, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return [dict(row) for row in c.fetchall()]

    def add(self, hook: dict[str, Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL(f"INSERT INTO {{0}} ({HOOK}) VALUES (%s, %s, %s, %s, %s, %s)").format(self.hooks),
                      tuple(hook[k] for k in HOOK.split(", ")))

    def get(self, webhook_id: str) -> dict[str, Any] | None:
        rows = self._rows(SQL(f"SELECT {HOOK} FROM {{0}} WHERE webhook_id = %s").format(self.hooks), (webhook_id,))
        return rows[0] if rows else None

    def for_chase(self, chase_id: str) -> list[dict[str, Any]]:
        return self._rows(SQL(f"SELECT {HOOK} FROM {{0}} WHERE chase_id = %s ORDER BY created_at").format(self.hooks), (chase_id,))

    def any_hooks(self) -> bool:
        return bool(self._rows(SQL("SELECT EXISTS (SELECT 1 FROM {0}) AS found").format(self.hooks), ())[0]["found"])

    def advance(self, webhook_id: str, delivered: int, to: int) -> bool:
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL("UPDATE {0} SET delivered_version = %s WHERE webhook_id = %s AND delivered_version = %s RETURNING webhook_id").format(self.hooks),
                      (to, webhook_id, delivered))
            return c.fetchone() is not None

    def record(self, delivery: dict[str, Any]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL(f"INSERT INTO {{0}} ({DELIVERY_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)").format(self.sent),
                      tuple(delivery[k] for k in DELIVERY_COLUMNS.split(", ")))

    def deliveries(self, webhook_id: str, limit: int, before: int | None = None) -> list[dict[str, Any]]:
        return self._rows(
            SQL(f"SELECT {LISTED} FROM {{0}} WHERE webhook_id = %s AND delivery_id < %s ORDER BY delivery_id DESC LIMIT %s").format(self.sent),
            (webhook_id, UNBOUNDED if before is None else before, limit),
        )
