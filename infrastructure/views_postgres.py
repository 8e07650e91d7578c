"""Chase views and seeds in PostgreSQL, beside the events (production)."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder, PostgresTrackingRecorder
from psycopg.sql import SQL, Identifier
from psycopg.types.json import Jsonb

from infrastructure.dice import BaseSeedVault, SeedNotFound

ROLL_FILTERS = ("participant_id", "purpose", "round", "source", "undone")


class PostgresChaseViews(PostgresTrackingRecorder):
    """Track views and roll history, written with their tracking in one transaction.

    A batch is projected onto the track views as they were at the tracking position the
    updater read. ``save_views`` locks the tracking row and checks it still holds that
    position (compare-and-set): if another process caught the views up meanwhile, it raises
    IntegrityError and the updater reads again, so no event is ever applied twice.
    """

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any) -> None:
        super().__init__(datastore, **kwargs)
        schema = Identifier(self.datastore.schema)
        self.tracks = SQL("{0}.{1}").format(schema, Identifier("chase_track_views"))
        self.rolls = SQL("{0}.{1}").format(schema, Identifier("chase_roll_history"))
        self.sql_create_statements += [
            SQL("CREATE TABLE IF NOT EXISTS {0} (chase_id text PRIMARY KEY, version bigint NOT NULL, doc jsonb NOT NULL)").format(self.tracks),
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (chase_id text NOT NULL, sequence bigint NOT NULL, "
                "version bigint NOT NULL, participant_id text, purpose text, round integer, source text, "
                "undone boolean NOT NULL, doc jsonb NOT NULL, PRIMARY KEY (chase_id, sequence))"
            ).format(self.rolls),
        ]

    def track_views(self, chase_ids: Iterable[str]) -> dict[str, dict[str, Any]]:
        ids = list(chase_ids)
        if not ids:
            return {}
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT chase_id, doc FROM {0} WHERE chase_id = ANY(%s)").format(self.tracks), (ids,))
            return {row["chase_id"]: row["doc"] for row in c.fetchall()}

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
            c.execute(
                SQL("SELECT notification_id FROM {0}.{1} WHERE application_name = %s FOR UPDATE").format(
                    Identifier(self.datastore.schema), Identifier(self.tracking_table_name)
                ),
                (application_name,),
            )
            row = c.fetchone()
            if (row["notification_id"] if row else None) != previous_id:
                raise IntegrityError(f"the views of {application_name} moved on from {previous_id} while this batch was read")
            # Rows in key order, so that two batches never lock the same rows in opposite orders.
            for chase_id, doc in sorted(tracks.items()):
                c.execute(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, %s, %s) ON CONFLICT (chase_id) "
                        "DO UPDATE SET version = excluded.version, doc = excluded.doc"
                    ).format(self.tracks),
                    (chase_id, doc.get("version", 0), Jsonb(doc)),
                )
            for row in sorted(rolls, key=lambda r: (r["chase_id"], r["sequence"])):
                c.execute(
                    SQL("INSERT INTO {0} VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)").format(self.rolls),
                    (
                        row["chase_id"], row["sequence"], row["version"], row["participant_id"],
                        row["purpose"], row["round"], row["source"], bool(row["undone"]), Jsonb(row),
                    ),
                )
            self._insert_tracking(c, Tracking(application_name, notification_id))

    def roll_history(self, chase_id: str, filters: dict[str, Any]) -> list[dict[str, Any]]:
        where, params = [SQL("chase_id = %s")], [chase_id]
        for name in ROLL_FILTERS:
            if name in filters:
                where.append(SQL("{0} = %s").format(Identifier(name)))
                params.append(bool(filters[name]) if name == "undone" else filters[name])
        query = SQL("SELECT doc FROM {0} WHERE {1} ORDER BY sequence").format(self.rolls, SQL(" AND ").join(where))
        with self.datastore.transaction(commit=False) as c:
            c.execute(query, params)
            return [row["doc"] for row in c.fetchall()]

    def clear(self, application_name: str) -> None:
        """Empty the views and their tracking, for a rebuild by replay."""
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL("DELETE FROM {0}").format(self.tracks))
            c.execute(SQL("DELETE FROM {0}").format(self.rolls))
            c.execute(
                SQL("DELETE FROM {0}.{1} WHERE application_name = %s").format(
                    Identifier(self.datastore.schema), Identifier(self.tracking_table_name)
                ),
                (application_name,),
            )


class PostgresSeedVault(BaseSeedVault, PostgresRecorder):
    """Secret seeds in a table of their own; never part of an event, view or export."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        PostgresRecorder.__init__(self, datastore)
        self.table = SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier("chase_seeds"))
        self.sql_create_statements.append(
            SQL("CREATE TABLE IF NOT EXISTS {0} (chase_id text PRIMARY KEY, seed bytea NOT NULL)").format(self.table)
        )

    def _keep(self, chase_id: str, seed: bytes) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(SQL("INSERT INTO {0} VALUES (%s, %s)").format(self.table), (chase_id, seed))

    def _seed(self, chase_id: str) -> bytes:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT seed FROM {0} WHERE chase_id = %s").format(self.table), (chase_id,))
            row = c.fetchone()
        if row is None:
            raise SeedNotFound(chase_id)
        return bytes(row["seed"])
