"""Views, seeds and tokens in the SQLite file, beside the events (the embedded default)."""
from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

from eventsourcing.persistence import IntegrityError
from eventsourcing.sqlite import SQLiteCursor, SQLiteDatastore, SQLiteRecorder, SQLiteTrackingRecorder

from infrastructure.dice import BaseSeedVault, SeedNotFound

ROLL_FILTERS = ("participant_id", "purpose", "round", "source", "undone")


class SQLiteChaseViews(SQLiteTrackingRecorder):
    """Track views and roll history, written with their tracking in one transaction."""

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            "CREATE TABLE IF NOT EXISTS track_views ("
            "chase_id TEXT PRIMARY KEY, version INTEGER NOT NULL, topic TEXT NOT NULL, "
            "state BLOB NOT NULL, doc TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS roll_history ("
            "chase_id TEXT NOT NULL, sequence INTEGER NOT NULL, version INTEGER NOT NULL, "
            "action INTEGER NOT NULL, participant_id TEXT, purpose TEXT, round INTEGER, source TEXT, "
            "undone INTEGER NOT NULL, undone_by TEXT, undone_at TEXT, doc TEXT NOT NULL, "
            "PRIMARY KEY (chase_id, sequence))",
        ]

    def track_states(self, chase_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        ids = list(chase_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT chase_id, version, topic, state FROM track_views WHERE chase_id IN ({marks})", ids)
            return {r["chase_id"]: {"version": r["version"], "topic": r["topic"], "state": bytes(r["state"])} for r in c.fetchall()}

    def chase_view(self, chase_id: str, name: str) -> dict[str, Any] | None:
        """One of the views rendered from the chase's state ("track", "vehicles")."""
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT doc FROM track_views WHERE chase_id = ?", (chase_id,))
            row = c.fetchone()
        return json.loads(row["doc"])[name] if row else None

    def track_view(self, chase_id: str) -> dict[str, Any] | None:
        return self.chase_view(chase_id, "track")

    def save_views(
        self,
        tracks: dict[str, dict[str, Any]],
        rolls: Sequence[dict[str, Any]],
        marks: Sequence[dict[str, Any]],
        application_name: str,
        notification_id: int,
        previous_id: int | None,
    ) -> None:
        with self.datastore.transaction(commit=True) as c:
            self._move_tracking(c, application_name, previous_id, notification_id)
            for chase_id, t in sorted(tracks.items()):
                c.execute(
                    "INSERT INTO track_views VALUES (?, ?, ?, ?, ?) ON CONFLICT (chase_id) DO UPDATE SET "
                    "version = excluded.version, topic = excluded.topic, state = excluded.state, doc = excluded.doc",
                    (chase_id, t["version"], t["topic"], t["state"], json.dumps(t["doc"])),
                )
            c.executemany(  # one call for the batch's rows (a view rebuild writes thousands)
                "INSERT INTO roll_history VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL, ?)",
                [
                    (row["chase_id"], row["sequence"], row["version"], row["action"], row["participant_id"],
                     row["purpose"], row["round"], row["source"], json.dumps(row))
                    for row in rolls
                ],
            )
            for mark in marks:
                places = ",".join("?" * len(mark["actions"]))
                c.execute(
                    f"UPDATE roll_history SET undone = ?, undone_by = ?, undone_at = ? WHERE chase_id = ? AND action IN ({places})",
                    (int(mark["undone"]), mark["by"], mark["at"], mark["chase_id"], *mark["actions"]),
                )

    def _move_tracking(self, c: SQLiteCursor, application_name: str, previous_id: int | None, notification_id: int) -> None:
        # Compare-and-set, first: the write takes SQLite's lock, and a batch read from a
        # position another process has already moved past is refused.
        if previous_id is None:
            c.execute("INSERT INTO tracking VALUES (?, ?)", (application_name, notification_id))
            return
        c.execute(
            "UPDATE tracking SET notification_id = ? WHERE application_name = ? AND notification_id = ? RETURNING notification_id",
            (notification_id, application_name, previous_id),
        )
        if c.fetchone() is None:
            raise IntegrityError(f"the views of {application_name} moved on from {previous_id} while this batch was read")

    def roll_history(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]]:
        where, params = ["chase_id = ?"], [chase_id]
        for name in ROLL_FILTERS:
            if name in filters:
                where.append(f"{name} = ?")
                params.append(int(filters[name]) if name == "undone" else filters[name])
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT doc, undone, undone_by, undone_at FROM roll_history WHERE {' AND '.join(where)} ORDER BY sequence",
                params,
            )
            return [
                dict(json.loads(r["doc"]), undone=bool(r["undone"]), undone_by=r["undone_by"], undone_at=r["undone_at"])
                for r in c.fetchall()
            ]

    def clear(self, application_name: str) -> None:
        """Empty the views and their tracking, for a rebuild by replay."""
        with self.datastore.transaction(commit=True) as c:
            c.execute("DELETE FROM track_views")
            c.execute("DELETE FROM roll_history")
            c.execute("DELETE FROM tracking WHERE application_name = ?", (application_name,))


class SQLiteSeedVault(BaseSeedVault, SQLiteRecorder):
    """Secret seeds in a table of their own; never part of an event, view or export."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        SQLiteRecorder.__init__(self, datastore)

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

    def find(self, token_hash: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT chase_id, role, participant_ids, label FROM chase_tokens WHERE token_hash = ?", (token_hash,))
            row = c.fetchone()
        if row is None:
            return None
        return {"chase_id": row["chase_id"], "role": row["role"], "participant_ids": json.loads(row["participant_ids"]), "label": row["label"]}
