"""Seeds, tokens and the session log in PostgreSQL, beside the events (production): the ledger's
tables that are not views (those are infrastructure/postgres_store.py)."""
from __future__ import annotations

from typing import Any, Sequence

import psycopg
from eventsourcing.persistence import DataError
from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from psycopg.sql import SQL, Composed, Identifier
from psycopg.types.json import Jsonb

from infrastructure.dice import BaseSeedVault, SeedNotFound

APPEND_TRIES = 20  # a session entry numbered at the same time as another is numbered again


def table(datastore: PostgresDatastore, name: str) -> Composed:
    """A table of the datastore's schema, quoted."""
    return SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier(name))


def over_a_limit(exc: BaseException) -> bool:
    """PostgreSQL's class 54, program limit exceeded (an index row over its maximum size, a
    statement too complex): the same write is refused every time it is made."""
    return isinstance(exc, psycopg.Error) and (exc.sqlstate or "").startswith("54")


def lasting(exc: BaseException) -> BaseException:
    """The error to raise for ``exc``: over a program limit, eventsourcing's DataError, which no
    one tries again (psycopg's OperationalError becomes eventsourcing's, taken for a store busy
    and tried again: ``retry``, the projector's TRANSIENT); any other, itself."""
    if not over_a_limit(exc):
        return exc
    error = DataError(str(exc))
    error.__cause__ = exc
    return error


class PostgresSeedVault(BaseSeedVault, PostgresRecorder):
    """Secret seeds in a table of their own; never part of an event, view or export."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore)  # BaseSeedVault's memory, then the recorder
        self.table = table(datastore, "chase_seeds")
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
        self.table = table(datastore, "chase_tokens")
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

    def issued(self, chase_id: str) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT role, participant_ids, label FROM {0} WHERE chase_id = %s ORDER BY issued_at").format(self.table), (chase_id,))
            return [dict(r) for r in c.fetchall()]

    def find(self, token_hash: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT chase_id, role, participant_ids, label FROM {0} WHERE token_hash = %s").format(self.table), (token_hash,))
            row = c.fetchone()
        return dict(row) if row else None


class PostgresSessionLog(PostgresRecorder):
    """Sessions and campaigns as append-only entries (application/analytics/sessions.py)."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore)
        self.table = table(datastore, "chase_analytics_groups")
        self.sql_create_statements.append(
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (group_id text NOT NULL, seq bigint NOT NULL, kind text NOT NULL, "
                "member text, name text, by text NOT NULL, at text NOT NULL, PRIMARY KEY (group_id, seq))"
            ).format(self.table)
        )

    def append(self, group_id: str, entry: dict[str, Any]) -> int:
        for _ in range(APPEND_TRIES):  # two appends at once: the loser numbers its entry again
            with self.datastore.transaction(commit=True) as c:
                c.execute(
                    SQL(
                        "INSERT INTO {0} SELECT %s, coalesce(max(seq), 0) + 1, %s, %s, %s, %s, %s FROM {0} WHERE group_id = %s "
                        "ON CONFLICT DO NOTHING RETURNING seq"
                    ).format(self.table),
                    (group_id, entry["kind"], entry["member"], entry["name"], entry["by"], entry["at"], group_id),
                )
                row = c.fetchone()
            if row is not None:
                return int(row["seq"])
        raise RuntimeError(f"could not append to group {group_id}: too many writers at once")

    def entries(self, group_id: str) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT seq, kind, member, name, by, at FROM {0} WHERE group_id = %s ORDER BY seq").format(self.table), (group_id,))
            return [dict(r) for r in c.fetchall()]
