"""Views in the SQLite file, beside the events (the embedded default); seeds, tokens and the
session log are in infrastructure/sqlite_tables.py."""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator, Sequence

from eventsourcing.sqlite import SQLiteCursor, SQLiteTrackingRecorder

from application.ports import PositionMoved
from infrastructure import json_docs, track_rows

ROLL_FILTERS = ("participant_id", "purpose", "round", "source", "undone")


class SQLiteChaseViews(SQLiteTrackingRecorder):
    """Chase views, roll history and set-aside chases, beside the events.

    ``track_views`` keeps the columns ``topic`` and ``state`` of databases written before the
    views were rendered from the saved aggregate (the projector kept a snapshot there to fold
    on from); they are now written empty and never read. Its ``doc`` is the views' head; the
    track's participants are rows of ``track_rows`` (infrastructure/track_rows.py).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept_rows = track_rows.KeptRows()

    def construct_create_table_statements(self) -> list[str]:
        return super().construct_create_table_statements() + [
            "CREATE TABLE IF NOT EXISTS track_views ("
            "chase_id TEXT PRIMARY KEY, version INTEGER NOT NULL, topic TEXT NOT NULL, "
            "state BLOB NOT NULL, doc TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS track_rows ("
            "chase_id TEXT NOT NULL, participant_id TEXT NOT NULL, ord INTEGER NOT NULL, doc TEXT NOT NULL, "
            "PRIMARY KEY (chase_id, participant_id))",
            "CREATE TABLE IF NOT EXISTS roll_history ("
            "chase_id TEXT NOT NULL, sequence INTEGER NOT NULL, version INTEGER NOT NULL, "
            "action INTEGER NOT NULL, participant_id TEXT, purpose TEXT, round INTEGER, source TEXT, "
            "undone INTEGER NOT NULL, undone_by TEXT, undone_at TEXT, doc TEXT NOT NULL, "
            "PRIMARY KEY (chase_id, sequence))",
            "CREATE TABLE IF NOT EXISTS analytics_facts ("
            "chase_id TEXT NOT NULL, version INTEGER NOT NULL, idx INTEGER NOT NULL, action INTEGER NOT NULL, "
            "kind TEXT NOT NULL, participant_id TEXT, at TEXT NOT NULL, undone INTEGER NOT NULL, undone_by TEXT, "
            "doc TEXT NOT NULL, PRIMARY KEY (chase_id, version, idx))",
            "CREATE TABLE IF NOT EXISTS projection_errors ("
            "chase_id TEXT PRIMARY KEY, version INTEGER NOT NULL, notification_id INTEGER, error TEXT NOT NULL, "
            "first_seen REAL NOT NULL, last_seen REAL NOT NULL, attempts INTEGER NOT NULL, retry_at REAL NOT NULL)",
        ]

    def view_versions(self, chase_ids: Iterable[str]) -> dict[str, int]:
        ids = list(chase_ids)
        if not ids:
            return {}
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT chase_id, version FROM track_views WHERE chase_id IN ({','.join('?' * len(ids))})", ids)
            return {r["chase_id"]: r["version"] for r in c.fetchall()}

    def read_views(self, chase_id: str, name: str | None = None, *, take_kept: bool = True) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                "SELECT (SELECT version FROM track_views WHERE chase_id = ?) AS version, "
                "(SELECT doc FROM track_views WHERE chase_id = ?) AS doc, "
                "EXISTS (SELECT 1 FROM projection_errors WHERE chase_id = ?) AS set_aside",
                (chase_id, chase_id, chase_id),
            )
            row = c.fetchone()
            if row["doc"] is None and not row["set_aside"]:
                return None
            doc = json_docs.loads(row["doc"]) if row["doc"] is not None else None
            doc = doc[name] if doc and name else doc
            if doc is not None and track_rows.wants_rows(name) and track_rows.in_rows(doc, name):
                kept = self.kept_rows.rows_at(chase_id, row["version"]) if take_kept else None
                if kept is None:  # in the same transaction: the rows of the head's version
                    c.execute("SELECT participant_id, doc FROM track_rows WHERE chase_id = ? ORDER BY ord", (chase_id,))
                doc = track_rows.assemble(doc, name, kept if kept is not None else c.fetchall())
        return {"version": row["version"], "doc": doc, "set_aside": bool(row["set_aside"])}

    def chase_view(self, chase_id: str, name: str) -> dict[str, Any] | None:
        """One of the views rendered from the chase's state ("track", "vehicles")."""
        row = self.read_views(chase_id, name)
        return row["doc"] if row else None

    def track_view(self, chase_id: str) -> dict[str, Any] | None:
        return self.chase_view(chase_id, "track")

    @contextmanager
    def _unsynced(self) -> Iterator[Any]:
        """A write transaction whose commit does not wait for the disk (synchronous=NORMAL).

        Safe for views, which are rebuildable, and only for them: in WAL mode commits are
        appended to the log in order, and the events' own commits still sync it (FULL), which
        syncs every frame before them too. So an application crash loses nothing, and a power
        loss can only lose view writes made after the last event commit: views behind their
        events, with a tracking position no further than them, which the projector (or the
        chase's next command) fills in. The pooled connection is set back before it is returned.
        """
        wal = self.datastore.pool.is_journal_mode_wal  # False in memory: nothing to sync there
        with self.datastore.get_connection(commit=True) as conn:
            if wal:
                conn.cursor().execute("PRAGMA synchronous = NORMAL")
            try:
                with conn.transaction(commit=True) as c:
                    yield c
            finally:
                if wal:
                    conn.cursor().execute("PRAGMA synchronous = FULL")

    def write_views(self, updates: Sequence[dict[str, Any]], tracking: tuple[str, int | None, int] | None = None) -> set[str]:
        encoded = [self.encode(u) for u in updates]  # before the transaction: the lock is held from its first write
        with self._unsynced() as c:
            if tracking:  # first: the write takes SQLite's lock, then nobody moves it meanwhile
                self._move_tracking(c, *tracking)
            refused = {u["chase_id"] for u, e in zip(updates, encoded) if not self._write(c, e)}
        for u, e in zip(updates, encoded):
            if u["chase_id"] not in refused:
                self.kept_rows.written(e["rows"])
        return refused

    def encode(self, update: dict[str, Any]) -> dict[str, Any]:
        """The update's statements' parameters, JSON encoded."""
        u = update
        head, rows = self.kept_rows.split(u)
        doc = json_docs.dumps(head)
        return {
            "rows": rows,
            "write": (u["version"], doc, u["chase_id"], u["expected"]) if u["expected"] else (u["chase_id"], u["version"], doc),
            "rolls": [
                (row["chase_id"], row["sequence"], row["version"], row["action"], row["participant_id"],
                 row["purpose"], row["round"], row["source"], json_docs.dumps(row))
                for row in u["rolls"]
            ],
            "marks": [  # in the order they came: an undo, then the redo of it
                (",".join("?" * len(m["actions"])), (int(m["undone"]), m["by"], m["at"], m["chase_id"], *m["actions"]))
                for m in u["marks"]
            ],
            "facts": [  # analytics facts (application/analytics/facts.py), idempotent by event and index
                (f["chase_id"], f["version"], f["index"], f["action"], f["kind"], f["participant_id"], f["at"], json_docs.std_dumps(f["data"]))
                for f in u.get("facts", ())
            ],
        }

    def write_in(self, cursor: SQLiteCursor, encoded: dict[str, Any]) -> Callable[[], bool]:
        written = self._write(cursor, encoded)

        def committed() -> bool:
            if written:
                self.kept_rows.written(encoded["rows"])
            return written
        return committed

    @staticmethod
    def _write(c: SQLiteCursor, e: dict[str, Any]) -> bool:
        """Write one chase's views if they are at the version expected; whether they were."""
        if len(e["write"]) == 4:
            c.execute("UPDATE track_views SET version = ?, doc = ? WHERE chase_id = ? AND version = ?", e["write"])
        else:
            c.execute("INSERT INTO track_views VALUES (?, ?, '', x'', ?) ON CONFLICT (chase_id) DO NOTHING", e["write"])
        if c.sqlite_cursor.rowcount != 1:
            return False
        rows = e["rows"]
        if rows is not None:
            if rows.full:
                c.execute("DELETE FROM track_rows WHERE chase_id = ?", (rows.chase_id,))
            elif rows.deleted:
                c.executemany("DELETE FROM track_rows WHERE chase_id = ? AND participant_id = ?", [(rows.chase_id, pid) for pid in rows.deleted])
            if rows.upserts:
                c.executemany(
                    "INSERT INTO track_rows VALUES (?, ?, ?, ?) ON CONFLICT (chase_id, participant_id) DO UPDATE SET ord = excluded.ord, doc = excluded.doc",
                    [(rows.chase_id, pid, place, text) for pid, place, text in rows.upserts],
                )
        insert = "INSERT INTO roll_history VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL, NULL, ?) ON CONFLICT DO NOTHING"
        if len(e["rolls"]) == 1:
            c.execute(insert, e["rolls"][0])
        elif e["rolls"]:
            c.executemany(insert, e["rolls"])  # one call for the rows (a rebuild writes thousands)
        if e["facts"]:
            c.executemany("INSERT INTO analytics_facts VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?) ON CONFLICT DO NOTHING", e["facts"])
        for places, params in e["marks"]:
            c.execute(f"UPDATE roll_history SET undone = ?, undone_by = ?, undone_at = ? WHERE chase_id = ? AND action IN ({places})", params)
            undone, by, _, chase_id, *actions = params  # the facts of the same actions, marked alike
            c.execute(f"UPDATE analytics_facts SET undone = ?, undone_by = ? WHERE chase_id = ? AND action IN ({places})", (undone, by, chase_id, *actions))
        return True

    def _move_tracking(self, c: SQLiteCursor, application_name: str, previous_id: int | None, notification_id: int) -> None:
        if previous_id is None:
            c.execute("INSERT INTO tracking VALUES (?, ?) ON CONFLICT DO NOTHING", (application_name, notification_id))
        else:
            c.execute(
                "UPDATE tracking SET notification_id = ? WHERE application_name = ? AND notification_id = ?",
                (notification_id, application_name, previous_id),
            )
        if c.sqlite_cursor.rowcount != 1:
            raise PositionMoved(f"the views of {application_name} moved on from {previous_id} while this batch was read")

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
                dict(json_docs.loads(r["doc"]), undone=bool(r["undone"]), undone_by=r["undone_by"], undone_at=r["undone_at"])
                for r in c.fetchall()
            ]

    def analytics_facts(self, chase_ids: Sequence[str]) -> list[dict[str, Any]]:
        ids = list(chase_ids)
        if not ids:
            return []
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                "SELECT chase_id, version, idx, action, kind, participant_id, at, undone, undone_by, doc FROM analytics_facts "
                f"WHERE chase_id IN ({','.join('?' * len(ids))}) ORDER BY chase_id, version, idx",
                ids,
            )
            return [
                {"chase_id": r[0], "version": r[1], "index": r[2], "action": r[3], "kind": r[4], "participant_id": r[5],
                 "at": r[6], "undone": bool(r[7]), "undone_by": r[8], "data": json.loads(r[9])}
                for r in c.fetchall()
            ]

    def set_aside(self, chase_id: str, version: int, notification_id: int | None, error: str, now: float, retry_at: float) -> dict[str, Any]:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                "INSERT INTO projection_errors VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (chase_id) DO UPDATE SET "
                "version = excluded.version, notification_id = coalesce(excluded.notification_id, notification_id), "
                "error = excluded.error, last_seen = excluded.last_seen, attempts = attempts + 1, retry_at = excluded.retry_at",
                (chase_id, version, notification_id, error, now, now, retry_at),
            )
            c.execute("SELECT * FROM projection_errors WHERE chase_id = ?", (chase_id,))
            return dict(c.fetchone())

    def set_aside_chases(self, chase_ids: Iterable[str] | None = None, due_by: float | None = None) -> list[dict[str, Any]]:
        where, params = ["1 = 1"], []
        if chase_ids is not None:
            ids = list(chase_ids)
            if not ids:
                return []
            where.append(f"chase_id IN ({','.join('?' * len(ids))})")
            params += ids
        if due_by is not None:
            where.append("retry_at <= ?")
            params.append(due_by)
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT * FROM projection_errors WHERE {' AND '.join(where)} ORDER BY first_seen, chase_id", params)
            return [dict(r) for r in c.fetchall()]

    def release(self, chase_id: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute("DELETE FROM projection_errors WHERE chase_id = ?", (chase_id,))

    def clear(self, application_name: str) -> None:
        """Empty the views, their tracking and the set-aside records, for a rebuild by replay."""
        with self.datastore.transaction(commit=True) as c:
            c.execute("DELETE FROM track_views")
            c.execute("DELETE FROM track_rows")
            c.execute("DELETE FROM roll_history")
            c.execute("DELETE FROM analytics_facts")
            c.execute("DELETE FROM projection_errors")
            c.execute("DELETE FROM tracking WHERE application_name = ?", (application_name,))
        self.kept_rows.forget_all()
