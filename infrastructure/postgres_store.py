"""Views in PostgreSQL, beside the events (production); seeds, tokens and the session log are in
infrastructure/postgres_tables.py."""
from __future__ import annotations

from typing import Any, Callable, Iterable, Sequence

import psycopg
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.sql import SQL, Identifier

from application.ports import PositionMoved
from infrastructure import json_docs, track_rows
from infrastructure.postgres_tables import lasting, table as _table
from infrastructure.postgres_view_sql import ROLL_FILTERS, VIEW_TABLES, WRITE_VIEWS, UNSYNCED, MARK_WRITTEN, MARK_FACTS_WRITTEN

class PostgresChaseViews(PostgresTrackingRecorder):
    """Chase views, roll history and set-aside chases, beside the events.

    ``chase_track_views`` keeps the columns ``topic`` and ``state`` of databases written before
    the views were rendered from the saved aggregate; they are now written empty, never read.
    Its ``doc`` is the views' head; the track's participants are rows of ``chase_track_rows``
    (infrastructure/track_rows.py).
    """

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.tracks = _table(datastore, VIEW_TABLES["tracks"])
        self.track_rows = _table(datastore, VIEW_TABLES["track_rows"])
        self.kept_rows = track_rows.KeptRows()
        self.rolls = _table(datastore, VIEW_TABLES["rolls"])
        self.errors = _table(datastore, "chase_projection_errors")
        self.facts = _table(datastore, VIEW_TABLES["facts"])
        self.tracking = _table(datastore, self.tracking_table_name)
        self.sql_create_statements += [
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text PRIMARY KEY, version bigint NOT NULL, "
                "topic text NOT NULL, state bytea NOT NULL, doc jsonb NOT NULL)"
            ).format(self.tracks),
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text NOT NULL, participant_id text NOT NULL, "
                "ord integer NOT NULL, doc jsonb NOT NULL, PRIMARY KEY (chase_id, participant_id))"
            ).format(self.track_rows),
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text NOT NULL, sequence bigint NOT NULL, "
                "version bigint NOT NULL, action bigint NOT NULL, participant_id text, purpose text, "
                "round integer, source text, undone boolean NOT NULL, undone_by text, undone_at text, "
                "doc jsonb NOT NULL, PRIMARY KEY (chase_id, sequence))"
            ).format(self.rolls),
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text NOT NULL, version bigint NOT NULL, idx integer NOT NULL, "
                "action bigint NOT NULL, kind text NOT NULL, participant_id text, at text NOT NULL, undone boolean NOT NULL, "
                "undone_by text, doc jsonb NOT NULL, PRIMARY KEY (chase_id, version, idx))"
            ).format(self.facts),
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text PRIMARY KEY, version bigint NOT NULL, "
                "notification_id bigint, error text NOT NULL, first_seen double precision NOT NULL, "
                "last_seen double precision NOT NULL, attempts integer NOT NULL, retry_at double precision NOT NULL)"
            ).format(self.errors),
        ]

    def view_versions(self, chase_ids: Iterable[str]) -> dict[str, int]:
        ids = list(chase_ids)
        if not ids:
            return {}
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT chase_id, version FROM {0} WHERE chase_id = ANY(%s)").format(self.tracks), (ids,))
            return {r["chase_id"]: r["version"] for r in c.fetchall()}

    def read_views(self, chase_id: str, name: str | None = None, *, take_kept: bool = True) -> dict[str, Any] | None:
        doc = SQL("doc -> %s") if name else SQL("doc")
        # The track's rows in the same statement (one snapshot): the rows of the head's version;
        # none when the head is at the version whose rows this store wrote last (taken as kept).
        wanted = track_rows.wants_rows(name)
        kept_at = self.kept_rows.last_version(chase_id) if wanted and take_kept else None
        rows = SQL("CASE WHEN v.version = %s THEN NULL ELSE (SELECT json_agg(json_build_array(participant_id, doc) ORDER BY ord) FROM {0} WHERE chase_id = %s) END").format(self.track_rows) \
            if wanted else SQL("NULL")
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                SQL(
                    "SELECT v.version, v.{2} AS doc, EXISTS (SELECT 1 FROM {1} WHERE chase_id = %s) AS set_aside, {3} AS rows "
                    "FROM (SELECT 1) AS one LEFT JOIN {0} AS v ON v.chase_id = %s"
                ).format(self.tracks, self.errors, doc, rows),
                (*([name] if name else []), chase_id, *([kept_at if kept_at is not None else -1, chase_id] if wanted else []), chase_id),
            )
            row = c.fetchone()
        if row["doc"] is None and not row["set_aside"]:
            return None
        found = None
        if row["doc"] is not None:
            kept = self.kept_rows.rows_at(chase_id, row["version"]) if kept_at is not None and row["version"] == kept_at else None
            if kept is None and kept_at is not None and row["version"] == kept_at:  # written on meanwhile: read the rows
                return self.read_views(chase_id, name, take_kept=False)
            found = track_rows.assemble(row["doc"], name, kept if kept is not None else row["rows"])
        return {"version": row["version"], "doc": found, "set_aside": row["set_aside"]}

    def chase_view(self, chase_id: str, name: str) -> dict[str, Any] | None:
        """One of the views rendered from the chase's state ("track", "vehicles")."""
        row = self.read_views(chase_id, name)
        return row["doc"] if row else None

    def track_view(self, chase_id: str) -> dict[str, Any] | None:
        return self.chase_view(chase_id, "track")

    def write_views(self, updates: Sequence[dict[str, Any]], tracking: tuple[str, int | None, int] | None = None) -> set[str]:
        # One statement writes every chase's views (compare-and-set) and the roll rows of the
        # chases written: a rebuild batch of thousands of rows as a command's one chase (one JSON
        # parameter, _params). Alone (a command's write without undo marks), it runs as its own
        # transaction: one round trip, where BEGIN, statement, COMMIT took three.
        ids = sorted(u["chase_id"] for u in updates)
        by_id = {u["chase_id"]: u for u in updates}
        heads = {cid: self.kept_rows.split(by_id[cid]) for cid in ids}
        if not tracking and not any(u["marks"] for u in updates):
            with self.datastore.get_connection() as conn:  # autocommit: the statement is the transaction
                written = self._write(conn.cursor(), ids, by_id, heads)
            return self._kept(heads, written, set(by_id))
        with self.datastore.transaction(commit=True) as c:
            if tracking:  # first: this row's lock makes projectors take turns
                self._move_tracking(c, *tracking)
            written = self._write(c, ids, by_id, heads) if ids else set()
            marks = [mark for cid in ids if cid in written for mark in by_id[cid]["marks"]]
            if marks:  # after the rows they mark; each chase's in the order they came (an undo, then its redo)
                c.executemany(
                    SQL("UPDATE {0} SET undone = %s, undone_by = %s, undone_at = %s WHERE chase_id = %s AND action = ANY(%s)").format(self.rolls),
                    [(mark["undone"], mark["by"], mark["at"], mark["chase_id"], list(mark["actions"])) for mark in marks],
                )
                c.executemany(
                    SQL("UPDATE {0} SET undone = %s, undone_by = %s WHERE chase_id = %s AND action = ANY(%s)").format(self.facts),
                    [(mark["undone"], mark["by"], mark["chase_id"], list(mark["actions"])) for mark in marks],
                )
        return self._kept(heads, written, set(by_id))

    def _kept(self, heads: dict[str, tuple[Any, Any]], written: set[str], chase_ids: set[str]) -> set[str]:
        """Committed: the rows of the chases written are what their next writes diff from."""
        for cid in written:
            self.kept_rows.written(heads[cid][1])
        return chase_ids - written

    def encode(self, update: dict[str, Any]) -> dict[str, Any]:
        """One chase's statements' parameters, JSON encoded (for write_in)."""
        chase_id = update["chase_id"]
        heads = {chase_id: self.kept_rows.split(update)}
        return {
            "rows": heads[chase_id][1],
            "views": self._params([chase_id], {chase_id: update}, heads),
            "marks": [(m["undone"], m["by"], m["at"], chase_id, list(m["actions"]), chase_id, update["version"]) for m in update["marks"]],
            "fact_marks": [(m["undone"], m["by"], chase_id, list(m["actions"]), chase_id, update["version"]) for m in update["marks"]],
        }

    def write_in(self, cursor: Any, encoded: dict[str, Any]) -> Callable[[], bool]:
        # Sent in the events' pipeline (infrastructure/postgres_recorder.py), read after its sync;
        # the events' commit waits for the WAL flush, so the views' does too. Without undo marks
        # the recorder's function runs the same statement, in the events' one statement.
        fold = getattr(cursor, "fold_views", None)
        if fold is not None:
            fold(encoded["views"][0], foldable=not encoded["marks"])

            def folded() -> bool:
                if cursor.views_written:
                    self.kept_rows.written(encoded["rows"])
                return bool(cursor.views_written)
            return folded
        query = self.__dict__.get("_write_in_query")
        if query is None:  # composed and rendered once: psycopg would render it again for every command
            query = self._write_in_query = SQL(WRITE_VIEWS).format(
                tracks=self.tracks, track_rows=self.track_rows, rolls=self.rolls, facts=self.facts, unsynced=SQL("")).as_bytes(cursor.connection)
        cursor.execute(query, encoded["views"])
        if encoded["marks"]:  # in the order they came: an undo, then the redo of it
            cursor.connection.cursor().executemany(SQL(MARK_WRITTEN).format(rolls=self.rolls, tracks=self.tracks), encoded["marks"])
            cursor.connection.cursor().executemany(SQL(MARK_FACTS_WRITTEN).format(facts=self.facts, tracks=self.tracks), encoded["fact_marks"])

        def committed() -> bool:
            written = bool(cursor.fetchall())
            if written:
                self.kept_rows.written(encoded["rows"])
            return written
        return committed

    def _write(self, c: Any, ids: list[str], by_id: dict[str, dict[str, Any]], heads: dict[str, tuple[Any, Any]]) -> set[str]:
        statement = SQL(WRITE_VIEWS).format(tracks=self.tracks, track_rows=self.track_rows, rolls=self.rolls, facts=self.facts, unsynced=SQL(UNSYNCED))
        try:
            c.execute(statement, self._params(ids, by_id, heads))
        except psycopg.Error as e:  # a row over an index's size limit: refused for good, the chase set aside (the projector)
            raise lasting(e)
        return {r["chase_id"] for r in c.fetchall()}

    @staticmethod
    def _params(ids: list[str], by_id: dict[str, dict[str, Any]], heads: dict[str, tuple[Any, Any]]) -> list[Any]:
        # One JSON text, its arrays unpacked by the statement (infrastructure/postgres_view_sql.py):
        # psycopg adapting 28 array parameters cost this process some 720,000 instructions a
        # command (5.83M to 5.11M, bench/http_instructions.py). The documents stay JSON texts
        # inside it, cast to jsonb by the statement as before: what jsonb refuses is refused alike.
        rows = [heads[cid][1] for cid in ids if heads[cid][1] is not None]
        return [json_docs.dumps((
            [(cid, by_id[cid]["expected"], by_id[cid]["version"], json_docs.dumps(heads[cid][0])) for cid in ids],
            [(r.chase_id, *up) for r in rows for up in r.upserts],
            [(r.chase_id, pid) for r in rows for pid in r.deleted],
            [r.chase_id for r in rows if r.full],
            [(r["chase_id"], r["sequence"], r["version"], r["action"], r["participant_id"], r["purpose"], r["round"], r["source"], json_docs.dumps(r))
             for cid in ids for r in by_id[cid]["rolls"]],
            [(f["chase_id"], f["version"], f["index"], f["action"], f["kind"], f["participant_id"], f["at"], json_docs.std_dumps(f["data"]))
             for cid in ids for f in by_id[cid].get("facts", ())],
        ))]

    def _move_tracking(self, c: Any, application_name: str, previous_id: int | None, notification_id: int) -> None:
        if previous_id is None:
            c.execute(SQL("INSERT INTO {0} VALUES (%s, %s) ON CONFLICT DO NOTHING").format(self.tracking), (application_name, notification_id))
        else:
            c.execute(
                SQL("UPDATE {0} SET notification_id = %s WHERE application_name = %s AND notification_id = %s").format(self.tracking),
                (notification_id, application_name, previous_id),
            )
        if c.rowcount != 1:
            raise PositionMoved(f"the views of {application_name} moved on from {previous_id} while this batch was read")

    def roll_history(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]]:
        where, params = [SQL("chase_id = %s")], [chase_id]
        for name in ROLL_FILTERS:
            if name in filters:
                where.append(SQL("{0} = %s").format(Identifier(name)))
                params.append(bool(filters[name]) if name == "undone" else filters[name])
        query = SQL("SELECT doc, undone, undone_by, undone_at FROM {0} WHERE {1} ORDER BY sequence").format(self.rolls, SQL(" AND ").join(where))
        with self.datastore.transaction(commit=False) as c:
            c.execute(query, params)
            return [dict(r["doc"], undone=r["undone"], undone_by=r["undone_by"], undone_at=r["undone_at"]) for r in c.fetchall()]

    def analytics_facts(self, chase_ids: Sequence[str]) -> list[dict[str, Any]]:
        query = SQL(
            "SELECT chase_id, version, idx AS index, action, kind, participant_id, at, undone, undone_by, doc AS data "
            "FROM {0} WHERE chase_id = ANY(%s) ORDER BY chase_id, version, idx"
        ).format(self.facts)
        with self.datastore.transaction(commit=False) as c:
            c.execute(query, (list(chase_ids),))
            return [dict(r) for r in c.fetchall()]

    def set_aside(self, chase_id: str, version: int, notification_id: int | None, error: str, now: float, retry_at: float) -> dict[str, Any]:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                SQL(
                    "INSERT INTO {0} AS e VALUES (%s, %s, %s, %s, %s, %s, 1, %s) ON CONFLICT (chase_id) DO UPDATE SET "
                    "version = excluded.version, notification_id = coalesce(excluded.notification_id, e.notification_id), "
                    "error = excluded.error, last_seen = excluded.last_seen, attempts = e.attempts + 1, retry_at = excluded.retry_at "
                    "RETURNING *"
                ).format(self.errors),
                (chase_id, version, notification_id, error.replace("\x00", "\\0"), now, now, retry_at),
            )
            return dict(c.fetchone())

    def set_aside_chases(self, chase_ids: Iterable[str] | None = None, due_by: float | None = None) -> list[dict[str, Any]]:
        where: list[Any] = [SQL("true")]
        params: list[Any] = []
        if chase_ids is not None:
            where.append(SQL("chase_id = ANY(%s)"))
            params.append(list(chase_ids))
        if due_by is not None:
            where.append(SQL("retry_at <= %s"))
            params.append(due_by)
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT * FROM {0} WHERE {1} ORDER BY first_seen, chase_id").format(self.errors, SQL(" AND ").join(where)), params)
            return [dict(r) for r in c.fetchall()]

    def release(self, chase_id: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL("DELETE FROM {0} WHERE chase_id = %s").format(self.errors), (chase_id,))

    def clear(self, application_name: str) -> None:
        """Empty the views, their tracking and the set-aside records, for a rebuild by replay."""
        with self.datastore.transaction(commit=True) as c:
            # Lock in the order the projector takes them (tracking, then the view rows), so a
            # rebuild never deadlocks with it; commands' view writes wait for the few deletes.
            c.execute(SQL("LOCK TABLE {0}, {1}, {2}, {3}, {4}, {5} IN EXCLUSIVE MODE").format(
                self.tracking, self.tracks, self.track_rows, self.rolls, self.errors, self.facts))
            c.execute(SQL("DELETE FROM {0} WHERE application_name = %s").format(self.tracking), (application_name,))
            c.execute(SQL("DELETE FROM {0}").format(self.rolls))
            c.execute(SQL("DELETE FROM {0}").format(self.facts))
            c.execute(SQL("DELETE FROM {0}").format(self.tracks))
            c.execute(SQL("DELETE FROM {0}").format(self.track_rows))
            c.execute(SQL("DELETE FROM {0}").format(self.errors))
        self.kept_rows.forget_all()
