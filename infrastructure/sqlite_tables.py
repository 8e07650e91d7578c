"""Seeds, tokens and the session log in the SQLite file, beside the events (the embedded
default): the ledger's tables that are not views (those are infrastructure/sqlite_store.py)."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Sequence

from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder

from infrastructure.dice import BaseSeedVault, SeedNotFound


class SQLiteSeedVault(BaseSeedVault, SQLiteRecorder):
    """Secret seeds in a table of their own; never part of an event, view or export."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)  # BaseSeedVault's memory, then the recorder

    def construct_create_table_statements(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS chase_seeds ("
            "chase_id TEXT NOT NULL, commitment TEXT NOT NULL, seed BLOB NOT NULL, PRIMARY KEY (chase_id, commitment))"
        ]

    def _keep(self, chase_id: str, commitment: str, seed: bytes) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute("INSERT INTO chase_seeds VALUES (?, ?, ?)", (chase_id, commitment, seed))

    def _seed(self, chase_id: str, commitment: str) -> bytes:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT seed FROM chase_seeds WHERE chase_id = ? AND commitment = ?", (chase_id, commitment))
            row = c.fetchone()
        if row is None:
            raise SeedNotFound(f"{chase_id} {commitment}")
        return bytes(row["seed"])


class SQLiteTokenStore(SQLiteRecorder):
    """Access tokens, stored only as SHA-256 hashes."""

    def construct_create_table_statements(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS chase_tokens (token_hash TEXT PRIMARY KEY, chase_id TEXT NOT NULL, "
            "role TEXT NOT NULL, participant_ids TEXT NOT NULL, label TEXT NOT NULL, issued_at TEXT NOT NULL)"
        ]

    def keep(self, token_hash: str, chase_id: str, role: str, participant_ids: Sequence[str], label: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                "INSERT INTO chase_tokens VALUES (?, ?, ?, ?, ?, ?)",
                (token_hash, chase_id, role, json.dumps(list(participant_ids)), label, datetime.now(timezone.utc).isoformat()),
            )

    def issued(self, chase_id: str) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT role, participant_ids, label FROM chase_tokens WHERE chase_id = ? ORDER BY issued_at", (chase_id,))
            return [{"role": r["role"], "participant_ids": json.loads(r["participant_ids"]), "label": r["label"]} for r in c.fetchall()]

    def find(self, token_hash: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT chase_id, role, participant_ids, label FROM chase_tokens WHERE token_hash = ?", (token_hash,))
            row = c.fetchone()
        if row is None:
            return None
        return {"chase_id": row["chase_id"], "role": row["role"], "participant_ids": json.loads(row["participant_ids"]), "label": row["label"]}


class SQLiteSessionLog(SQLiteRecorder):
    """Sessions and campaigns as append-only entries (application/analytics/sessions.py)."""

    def construct_create_table_statements(self) -> list[str]:
        return [
            "CREATE TABLE IF NOT EXISTS analytics_groups (group_id TEXT NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, "
            "member TEXT, name TEXT, by TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (group_id, seq))"
        ]

    def append(self, group_id: str, entry: dict[str, Any]) -> int:
        with self.datastore.transaction(commit=True) as c:  # one statement: SQLite's write lock numbers it
            c.execute(
                "INSERT INTO analytics_groups SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ? FROM analytics_groups "
                "WHERE group_id = ? RETURNING seq",
                (group_id, entry["kind"], entry["member"], entry["name"], entry["by"], entry["at"], group_id),
            )
            return int(c.fetchone()[0])

    def entries(self, group_id: str) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT seq, kind, member, name, by, at FROM analytics_groups WHERE group_id = ? ORDER BY seq", (group_id,))
            return [dict(r) for r in c.fetchall()]
