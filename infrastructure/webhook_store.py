"""Webhooks and their deliveries in the database, beside the events (SQLite and PostgreSQL).

``delivered_version`` is the last event the receiver took; it only moves on by a compare-and-set
(application/webhooks.py), so two delivery jobs never both move it. ``sender`` and
``sending_until`` say which delivery job is sending to the webhook now (a lease), so that two
jobs never send at once; ``wanted_version`` is the latest event a job was asked to deliver, so
that the job holding the lease sends it too before letting go. ``failures`` counts failed
attempts in a row since the webhook was last switched on (it is switched off at a limit);
``tries`` the attempts at the first event not yet taken, whatever happened meanwhile.

Both stores run the same statements: ``?`` marks a parameter and ``{hooks}`` / ``{sent}`` the
two tables (PostgreSQL's in the configured schema).
"""
from __future__ import annotations

import json
from typing import Any

from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Composed, Identifier

HOOK = "webhook_id, chase_id, url, secret, delivered_version, created_at"
# Columns added since the first version (each with a default, so older rows read the same).
ADDED = {
    "events": "TEXT", "enabled": "INTEGER NOT NULL DEFAULT 1", "disabled_reason": "TEXT",
    "failures": "INTEGER NOT NULL DEFAULT 0", "tries": "INTEGER NOT NULL DEFAULT 0", "retry_at": "REAL NOT NULL DEFAULT 0",
    "wanted_version": "BIGINT NOT NULL DEFAULT 0", "sender": "TEXT", "sending_until": "REAL NOT NULL DEFAULT 0",
}
READ = f"{HOOK}, events, enabled, disabled_reason, failures, tries, retry_at"
CHANGEABLE = ("url", "secret", "events", "enabled", "disabled_reason", "failures", "retry_at")
DELIVERY = "event_id, version, event_type, attempt, status, response_status, error, at"
DELIVERY_COLUMNS = f"webhook_id, {DELIVERY}"
UNBOUNDED = 2**63 - 1  # past every delivery number (SQLite INTEGER and PostgreSQL bigserial)
LISTED = f"delivery_id, {DELIVERY}"  # a listed delivery carries its number: the cursor of the next page


def _hook(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "events": None if row["events"] is None else json.loads(row["events"]), "enabled": bool(row["enabled"])}


class _WebhookStatements:
    """What both stores do, in SQL both understand; each store says how to run a statement."""

    def _run(self, sql: str, params: tuple[Any, ...], commit: bool = False) -> list[dict[str, Any]]:
        raise NotImplementedError

    def add(self, hook: dict[str, Any], most: int) -> bool:
        """Add the webhook unless its chase has ``most`` already."""
        return bool(self._run(*_adding(hook, most), commit=True))

    def get(self, webhook_id: str) -> dict[str, Any] | None:
        rows = self._run(f"SELECT {READ} FROM {{hooks}} WHERE webhook_id = ?", (webhook_id,))
        return _hook(rows[0]) if rows else None

    def for_chase(self, chase_id: str) -> list[dict[str, Any]]:
        return [_hook(r) for r in self._run(f"SELECT {READ} FROM {{hooks}} WHERE chase_id = ? ORDER BY created_at", (chase_id,))]

    def any_hooks(self) -> bool:
        return bool(self._run("SELECT EXISTS (SELECT 1 FROM {hooks}) AS found", ())[0]["found"])

    def change(self, webhook_id: str, changes: dict[str, Any]) -> bool:
        unknown = set(changes) - set(CHANGEABLE)
        if unknown:
            raise ValueError(f"not a changeable column: {', '.join(sorted(unknown))}")
        values = tuple(_events(v) if k == "events" else int(v) if k == "enabled" else v for k, v in changes.items())
        sets = ", ".join(f"{k} = ?" for k in changes)
        return bool(self._run(f"UPDATE {{hooks}} SET {sets} WHERE webhook_id = ? RETURNING webhook_id", values + (webhook_id,), commit=True))

    def delete(self, webhook_id: str) -> bool:
        self._run("DELETE FROM {sent} WHERE webhook_id = ? RETURNING webhook_id", (webhook_id,), commit=True)
        return bool(self._run("DELETE FROM {hooks} WHERE webhook_id = ? RETURNING webhook_id", (webhook_id,), commit=True))

    def advance(self, webhook_id: str, delivered: int, to: int) -> bool:
        """Compare-and-set of the last version delivered; an event taken clears the failures."""
        return bool(self._run(
            "UPDATE {hooks} SET delivered_version = ?, failures = 0, tries = 0, retry_at = 0 WHERE webhook_id = ? AND delivered_version = ? "
            "RETURNING webhook_id", (to, webhook_id, delivered), commit=True))

    def want(self, webhook_id: str, version: int) -> None:
        self._run("UPDATE {hooks} SET wanted_version = ? WHERE webhook_id = ? AND wanted_version < ? RETURNING webhook_id",
                  (version, webhook_id, version), commit=True)

    def claim(self, webhook_id: str, sender: str, now: float, until: float) -> bool:
        return bool(self._run(
            "UPDATE {hooks} SET sender = ?, sending_until = ? WHERE webhook_id = ? AND (sender IS NULL OR sender = ? OR sending_until < ?) "
            "RETURNING webhook_id", (sender, until, webhook_id, sender, now), commit=True))

    def release(self, webhook_id: str, sender: str, when_done: bool) -> bool:
        done = " AND delivered_version >= wanted_version" if when_done else ""
        return bool(self._run(
            f"UPDATE {{hooks}} SET sender = NULL, sending_until = 0 WHERE webhook_id = ? AND sender = ?{done} RETURNING webhook_id",
            (webhook_id, sender), commit=True))

    def failed(self, webhook_id: str, retry_at: float, disable_after: int, reason: str) -> int:
        """One more failed attempt in a row (the webhook switched off at ``disable_after``); how many now."""
        rows = self._run(
            "UPDATE {hooks} SET failures = failures + 1, tries = tries + 1, retry_at = ?, "
            "enabled = CASE WHEN failures + 1 >= ? THEN 0 ELSE enabled END, "
            "disabled_reason = CASE WHEN failures + 1 >= ? THEN ? ELSE disabled_reason END "
            "WHERE webhook_id = ? RETURNING failures",
            (retry_at, disable_after, disable_after, reason, webhook_id), commit=True)
        return int(rows[0]["failures"]) if rows else 0

    def record(self, delivery: dict[str, Any]) -> None:
        self._run(f"INSERT INTO {{sent}} ({DELIVERY_COLUMNS}) VALUES ({', '.join('?' * 9)}) RETURNING webhook_id",
                  tuple(delivery[k] for k in DELIVERY_COLUMNS.split(", ")), commit=True)

    def deliveries(self, webhook_id: str, limit: int, before: int | None = None) -> list[dict[str, Any]]:
        return self._run(
            f"SELECT {LISTED} FROM {{sent}} WHERE webhook_id = ? AND delivery_id < ? ORDER BY delivery_id DESC LIMIT ?",
            (webhook_id, UNBOUNDED if before is None else before, limit),
        )


def _adding(hook: dict[str, Any], most: int) -> tuple[str, tuple[Any, ...]]:
    columns = f"{HOOK}, events"
    values = tuple(hook[k] for k in HOOK.split(", ")) + (_events(hook.get("events")),)
    return (f"INSERT INTO {{hooks}} ({columns}) SELECT {', '.join('?' * len(values))} "
            "WHERE (SELECT COUNT(*) FROM {hooks} WHERE chase_id = ?) < ? RETURNING webhook_id", values + (hook["chase_id"], most))


def _events(events: list[str] | None) -> str | None:
    return None if events is None else json.dumps(events)


HOOKS_TABLE = ("CREATE TABLE IF NOT EXISTS {hooks} (webhook_id TEXT PRIMARY KEY, chase_id TEXT NOT NULL, url TEXT NOT NULL, "
               "secret TEXT NOT NULL, delivered_version BIGINT NOT NULL, created_at {real} NOT NULL)")
DELIVERIES_TABLE = ("CREATE TABLE IF NOT EXISTS {sent} (delivery_id {serial} PRIMARY KEY, webhook_id TEXT NOT NULL, "
                    "event_id TEXT NOT NULL, version BIGINT NOT NULL, event_type TEXT NOT NULL, attempt INTEGER NOT NULL, "
                    "status TEXT NOT NULL, response_status INTEGER, error TEXT, at {real} NOT NULL)")


class SQLiteWebhookStore(_WebhookStatements, SQLiteRecorder):
    """Webhooks and deliveries in the SQLite file."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)

    def construct_create_table_statements(self) -> list[str]:
        names = {"hooks": "chase_webhooks", "sent": "chase_webhook_deliveries", "real": "REAL", "serial": "INTEGER"}
        return [
            HOOKS_TABLE.format(**names),
            "CREATE INDEX IF NOT EXISTS chase_webhooks_by_chase ON chase_webhooks (chase_id)",
            DELIVERIES_TABLE.format(**names).replace("INTEGER PRIMARY KEY", "INTEGER PRIMARY KEY AUTOINCREMENT"),
            "CREATE INDEX IF NOT EXISTS chase_webhook_deliveries_by_hook ON chase_webhook_deliveries (webhook_id, delivery_id)",
        ]

    def create_table(self) -> None:
        super().create_table()
        with self.datastore.transaction(commit=True) as c:  # SQLite has no ADD COLUMN IF NOT EXISTS
            c.execute("PRAGMA table_info(chase_webhooks)")
            present = {row["name"] for row in c.fetchall()}
            for name, kind in ADDED.items():
                if name not in present:
                    c.execute(f"ALTER TABLE chase_webhooks ADD COLUMN {name} {kind}")

    def _run(self, sql: str, params: tuple[Any, ...], commit: bool = False) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=commit) as c:
            c.execute(sql.format(hooks="chase_webhooks", sent="chase_webhook_deliveries"), params)
            return [dict(row) for row in c.fetchall()]


class PostgresWebhookStore(_WebhookStatements, PostgresRecorder):
    """Webhooks and deliveries in PostgreSQL."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore)
        self.tables = {
            "hooks": SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier("chase_webhooks")).as_string(None),
            "sent": SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier("chase_webhook_deliveries")).as_string(None),
        }
        kinds = {**self.tables, "real": "double precision", "serial": "bigserial"}
        statements = [
            HOOKS_TABLE.format(**kinds),
            "CREATE INDEX IF NOT EXISTS chase_webhooks_by_chase ON {0} (chase_id)".format(self.tables["hooks"]),
            DELIVERIES_TABLE.format(**kinds),
            "CREATE INDEX IF NOT EXISTS chase_webhook_deliveries_by_hook ON {0} (webhook_id, delivery_id)".format(self.tables["sent"]),
        ] + [
            f"ALTER TABLE {self.tables['hooks']} ADD COLUMN IF NOT EXISTS {name} {kind.replace('REAL', 'double precision')}"
            for name, kind in ADDED.items()
        ]
        self.sql_create_statements += [Composed([SQL(text)]) for text in statements]

    def add(self, hook: dict[str, Any], most: int) -> bool:
        """As on SQLite; two Keepers' registrations on one chase at once are counted one after the
        other (under PostgreSQL's read-committed isolation both would see the same count)."""
        sql, params = _adding(hook, most)
        with self.datastore.transaction(commit=True) as c:
            c.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (hook["chase_id"],))
            c.execute(self._statement(sql), params)
            return c.fetchone() is not None

    def _statement(self, sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s").format(**self.tables)

    def _run(self, sql: str, params: tuple[Any, ...], commit: bool = False) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=commit) as c:
            c.execute(self._statement(sql), params)
            return [dict(row) for row in c.fetchall()] if c.description else []
