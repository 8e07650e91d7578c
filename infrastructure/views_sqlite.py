"""Chase views and seeds in the SQLite file, beside the events (the embedded default)."""
from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

from eventsourcing.persistence import IntegrityError
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder, SQLiteTrackingRecorder

from infrastructure.dice import BaseSeedVault, SeedNotFound

ROLL_FILTERS = ("participant_id", "purpose", "round", "source", "undone")


class SQLiteChaseViews(SQLiteTrackingRecorder):
    """Track views and roll history, written with their tracking in one transaction."""

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            "CREATE TABLE IF NOT EXISTS track_views ("
            "chase_id TEXT PRIMARY KEY, version INTEGER NOT NULL, doc TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS roll_history ("
            "chase_id TEXT NOT NULL, sequence INTEGER NOT NULL, version INTEGER NOT NULL, "
            "participant_id TEXT, purpose TEXT, round INTEGER, source TEXT, undone INTEGER NOT NULL, "
            "doc TEXT NOT NULL, PRIMARY KEY (chase_id, sequence))",
        ]

    def track_views(self, chase_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        ids = list(chase_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT chase_id, doc FROM track_views WHERE chase_id IN ({marks})", ids)
            return {row["chase_id"]: json.loads(row["doc"]) for row in c.fetchall()}

    def track_view(self, chase_id: str) -> dict[str, Any] | None:
        return self.track_views([chase_id]).get(chase_id)

    def save_views(
        self,
        tracks: dict[str, dict[str, Any]],
        rolls: Sequence[dict[str, Any]],
        application_name: str,
        notification_id: int,
        previous_id: int | None,
    ) -> None:
        with self.datastore.transaction(commit=True) as c:
            # Compare-and-set the tracking position first: the write takes SQLite's lock, and a
            # batch read from a position another process has already moved past is refused.
            if previous_id is None:
                c.execute("INSERT INTO tracking VALUES (?, ?)", (application_name, notification_id))
            else:
                c.execute(
                    "UPDATE tracking SET notification_id = ? WHERE application_name = ? AND notification_id = ? "
                    "RETURNING notification_id",
                    (notification_id, application_name, previous_id),
                )
                if c.fetchone() is None:
                    raise IntegrityError(f"the views of {application_name} moved on from {previous_id} while this batch was read")
            for chase_id, doc in sorted(tracks.items()):
                c.execute(
                    "INSERT INTO track_views VALUES (?, ?, ?) ON CONFLICT (chase_id) "
                    "DO UPDATE SET version = excluded.version, doc = excluded.doc",
                    (chase_id, doc.get("version", 0), json.dumps(doc)),
                )
            for row in rolls:
                c.execute(
                    "INSERT INTO roll_history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        row["chase_id"], row["sequence"], row["version"], row["participant_id"],
                        row["purpose"], row["round"], row["source"], int(row["undone"]), json.dumps(row),
                    ),
                )

    def roll_history(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]]:
        where, params = ["chase_id = ?"], [chase_id]
        for name in ROLL_FILTERS:
            if name in filters:
                where.append(f"{name} = ?")
                params.append(int(filters[name]) if name == "undone" else filters[name])
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT doc FROM roll_history WHERE {' AND '.join(where)} ORDER BY sequence", params)
            return [json.loads(row["doc"]) for row in c.fetchall()]

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
        return ["CREATE TABLE IF NOT EXISTS chase_seeds (chase_id TEXT PRIMARY KEY, seed BLOB NOT NULL)"]

    def _keep(self, chase_id: str, seed: bytes) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute("INSERT INTO chase_seeds VALUES (?, ?)", (chase_id, seed))

    def _seed(self, chase_id: str) -> bytes:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT seed FROM chase_seeds WHERE chase_id = ?", (chase_id,))
            row = c.fetchone()
        if row is None:
            raise SeedNotFound(chase_id)
        return bytes(row["seed"])
