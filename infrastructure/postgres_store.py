"""Views, seeds and tokens in PostgreSQL, beside the events (production)."""
from __future__ import annotations

import json
from typing import Any, Iterable, Sequence

from eventsourcing.persistence import IntegrityError
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder, PostgresTrackingRecorder
from psycopg.sql import SQL, Composed, Identifier
from psycopg.types.json import Jsonb

from infrastructure.dice import BaseSeedVault, SeedNotFound

ROLL_FILTERS = ("participant_id", "purpose", "round", "source", "undone")


def _table(datastore: PostgresDatastore, name: str) -> Composed:
    return SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier(name))


class PostgresChaseViews(PostgresTrackingRecorder):
    """Track views and roll history, written with their tracking in one transaction.

    A batch is projected onto the track views as they were at the tracking position the
    updater read. ``save_views`` locks the tracking row and checks it still holds that
    position (compare-and-set): if another process caught the views up meanwhile, it raises
    IntegrityError and the updater reads again, so no event is ever applied twice.
    """

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        self.tracks = _table(datastore, "chase_track_views")
        self.rolls = _table(datastore, "chase_roll_history")
        self.tracking = _table(datastore, self.tracking_table_name)
        self.sql_create_statements += [
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text PRIMARY KEY, version bigint NOT NULL, "
                "topic text NOT NULL, state bytea NOT NULL, doc jsonb NOT NULL)"
            ).format(self.tracks),
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text NOT NULL, sequence bigint NOT NULL, "
                "version bigint NOT NULL, action bigint NOT NULL, participant_id text, purpose text, "
                "round integer, source text, undone boolean NOT NULL, undone_by text, undone_at text, "
                "doc jsonb NOT NULL, PRIMARY KEY (chase_id, sequence))"
            ).format(self.rolls),
        ]

    def track_states(self, chase_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        ids = list(chase_ids)
        if not ids:
            return {}
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT chase_id, version, topic, state FROM {0} WHERE chase_id = ANY(%s)").format(self.tracks), (ids,))
            return {r["chase_id"]: {"version": r["version"], "topic": r["topic"], "state": bytes(r["state"])} for r in c.fetchall()}

    def chase_view(self, chase_id: str, name: str) -> dict[str, Any] | None:
        """One of the views rendered from the chase's state ("track", "vehicles")."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT doc -> %s AS view FROM {0} WHERE chase_id = %s").format(self.tracks), (name, chase_id))
            row = c.fetchone()
        return row["view"] if row else None

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
            c.execute(SQL("SELECT notification_id FROM {0} WHERE application_name = %s FOR UPDATE").format(self.tracking), (application_name,))
            row = c.fetchone()
            if (row["notification_id"] if row else None) != previous_id:
                raise IntegrityError(f"the views of {application_name} moved on from {previous_id} while this batch was read")
            # Rows in key order, so that two batches never lock the same rows in opposite orders.
            # executemany: psycopg pipelines the statements (one round trip, not one per row).
            if tracks:
                c.executemany(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, %s, %s, %s, %s) ON CONFLICT (chase_id) DO UPDATE SET "
                        "version = excluded.version, topic = excluded.topic, state = excluded.state, doc = excluded.doc"
                    ).format(self.tracks),
                    [(chase_id, t["version"], t["topic"], t["state"], Jsonb(t["doc"])) for chase_id, t in sorted(tracks.items())],
                )
            if rolls:  # one statement for the batch's rows, as arrays (a rebuild writes thousands)
                ordered = sorted(rolls, key=lambda r: (r["chase_id"], r["sequence"]))
                c.execute(
                    SQL(
                        "INSERT INTO {0} SELECT c, s, v, a, p, pu, r, so, false, NULL, NULL, d::jsonb FROM unnest("
                        "%b::text[], %b::bigint[], %b::bigint[], %b::bigint[], %b::text[], %b::text[], %b::integer[], "
                        "%b::text[], %b::text[]) AS t(c, s, v, a, p, pu, r, so, d)"
                    ).format(self.rolls),
                    [[r[k] for r in ordered] for k in ("chase_id", "sequence", "version", "action", "participant_id", "purpose", "round", "source")]
                    + [[json.dumps(r) for r in ordered]],  # %b: arrays sent binary, not escaped element by element
                )
            if marks:  # in the order they came: an undo, then the redo of it
                c.executemany(
                    SQL("UPDATE {0} SET undone = %s, undone_by = %s, undone_at = %s WHERE chase_id = %s AND action = ANY(%s)").format(self.rolls),
                    [(mark["undone"], mark["by"], mark["at"], mark["chase_id"], list(mark["actions"])) for mark in marks],
                )
            if row is None:
                c.execute(SQL("INSERT INTO {0} VALUES (%s, %s)").format(self.tracking), (application_name, notification_id))
            else:
                c.execute(SQL("UPDATE {0} SET notification_id = %s WHERE application_name = %s").format(self.tracking), (notification_id, application_name))

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

    def clear(self, application_name: str) -> None:
        """Empty the views and their tracking, for a rebuild by replay."""
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL("DELETE FROM {0}").format(self.tracks))
            c.execute(SQL("DELETE FROM {0}").format(self.rolls))
            c.execute(SQL("DELETE FROM {0} WHERE application_name = %s").format(self.tracking), (application_name,))


class PostgresSeedVault(BaseSeedVault, PostgresRecorder):
    """Secret seeds in a table of their own; never part of an event, view or export."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        PostgresRecorder.__init__(self, datastore)
        self.table = _table(datastore, "chase_seeds")
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text NOT NULL, commitment text NOT NULL, "
                "seed bytea NOT NULL, PRIMARY KEY (chase_id, commitment))"
            ).format(self.table)
        )

    def _keep(self, chase_id: str, commitment: str, seed: bytes) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL("INSERT INTO {0} VALUES (%s, %s, %s)").format(self.table), (chase_id, commitment, seed))

    def _seed(self, chase_id: str, commitment: str) -> bytes:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT seed FROM {0} WHERE chase_id = %s AND commitment = %s").format(self.table), (chase_id, commitment))
            row = c.fetchone()
        if row is None:
            raise SeedNotFound(f"{chase_id} {commitment}")
        return bytes(row["seed"])


class PostgresTokenStore(PostgresRecorder):
    """Access tokens, stored only as SHA-256 hashes."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore)
        self.table = _table(datastore, "chase_tokens")
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (token_hash text PRIMARY KEY, chase_id text NOT NULL, role text NOT NULL, "
                "participant_ids jsonb NOT NULL, label text NOT NULL, issued_at timestamptz NOT NULL DEFAULT now())"
            ).format(self.table)
        )

    def keep(self, token_hash: str, chase_id: str, role: str, participant_ids: Sequence[str], label: str) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                SQL("INSERT INTO {0} (token_hash, chase_id, role, participant_ids, label) VALUES (%s, %s, %s, %s, %s)").format(self.table),
                (token_hash, chase_id, role, Jsonb(list(participant_ids)), label),
            )

    def find(self, token_hash: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT chase_id, role, participant_ids, label FROM {0} WHERE token_hash = %s").format(self.table), (token_hash,))
            row = c.fetchone()
        return dict(row) if row else None
