"""Jobs and replay frames in the database, beside the events (SQLite and PostgreSQL).

The job rows are the truth about a job (application/jobs.py): the queue carries only ids.
Every change of status is a single UPDATE with its condition in the WHERE clause (a
compare-and-set), so two workers never both hold a job and two sweepers never both resend one.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Composed, Identifier
from psycopg.types.json import Jsonb

CLAIMABLE = ("pending", "queued", "retrying")
JSON_COLUMNS = ("params", "state", "result")
COLUMNS = (
    "job_id, kind, chase_id, params, status, attempts, dispatches, done, total, state, result, error, "
    "worker, lease_until, created_at, updated_at"
)

# The jobs after a cursor (a job id) are those created after it; ties in time by job id.
AFTER_JOB = "SELECT created_at, job_id FROM {table} WHERE job_id = {p}"


def _row(row: Any, decode: bool) -> dict[str, Any] | None:
    if row is None:
        return None
    job = dict(row)
    for name in JSON_COLUMNS:
        if decode and job[name] is not None:
            job[name] = json.loads(job[name])
    return job


class SQLiteJobStore(SQLiteRecorder):
    """Job rows and replay frames in the SQLite file."""

    def __init__(self, datastore: SQLiteDatastore) -> None:
        super().__init__(datastore)

    def construct_create_table_statements(self) -> list[str]:
        return [
            (
                "CREATE TABLE IF NOT EXISTS chase_jobs (job_id TEXT PRIMARY KEY, kind TEXT NOT NULL, chase_id TEXT, "
                "params TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, "
                "dispatches INTEGER NOT NULL DEFAULT 0, done INTEGER NOT NULL DEFAULT 0, total INTEGER NOT NULL DEFAULT 0, "
                "state TEXT, result TEXT, error TEXT, worker TEXT, lease_until REAL, created_at REAL NOT NULL, "
                "updated_at REAL NOT NULL)"
            ),
            "CREATE INDEX IF NOT EXISTS chase_jobs_by_status ON chase_jobs (status, updated_at)",
            "CREATE INDEX IF NOT EXISTS chase_jobs_by_chase ON chase_jobs (chase_id, created_at, job_id)",
            (
                "CREATE TABLE IF NOT EXISTS chase_replay_frames (job_id TEXT NOT NULL, step INTEGER NOT NULL, "
                "doc TEXT NOT NULL, PRIMARY KEY (job_id, step))"
            ),
        ]

    def _one(self, sql: str, params: Sequence[Any], commit: bool = True) -> Any:
        with self.datastore.transaction(commit=commit) as c:
            c.execute(sql, params)
            return c.fetchone()

    def add(self, job: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                "INSERT INTO chase_jobs (job_id, kind, chase_id, params, status, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT (job_id) DO NOTHING RETURNING job_id",
                (job["job_id"], job["kind"], job["chase_id"], json.dumps(job["params"]), job["created_at"], job["created_at"]),
            )
            added = c.fetchone() is not None
        stored = self.get(job["job_id"])
        assert stored is not None
        return stored, added

    def get(self, job_id: str) -> dict[str, Any] | None:
        return _row(self._one(f"SELECT {COLUMNS} FROM chase_jobs WHERE job_id = ?", (job_id,), commit=False), True)

    def of_chase(self, chase_id: str, after: str | None, limit: int) -> list[dict[str, Any]]:
        where, params = "chase_id = ?", [chase_id]
        if after is not None:
            where += f" AND (created_at, job_id) > ({AFTER_JOB.format(table='chase_jobs', p='?')})"
            params.append(after)
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT {COLUMNS} FROM chase_jobs WHERE {where} ORDER BY created_at, job_id LIMIT ?", (*params, limit))
            return [_row(r, True) for r in c.fetchall()]

    def mark_dispatched(self, job_id: str, now: float, *, status: str, dispatches: int | None = None, lease_expired_before: float | None = None) -> int | None:
        where, params = ["job_id = ?", "status = ?"], [now, job_id, status]
        if dispatches is not None:
            where.append("dispatches = ?")
            params.append(dispatches)
        if status == "running":
            where.append("lease_until < ?")
            params.append(lease_expired_before if lease_expired_before is not None else now)
        row = self._one(
            f"UPDATE chase_jobs SET status = 'queued', dispatches = dispatches + 1, updated_at = ? WHERE {' AND '.join(where)} RETURNING dispatches",
            params,
        )
        return None if row is None else row["dispatches"]

    def undo_dispatch(self, job_id: str, dispatch: int, now: float) -> None:
        self._one(
            "UPDATE chase_jobs SET status = 'pending', updated_at = ? WHERE job_id = ? AND status = 'queued' AND dispatches = ? RETURNING job_id",
            (now, job_id, dispatch),
        )

    def claim(self, job_id: str, worker: str, now: float, lease: float, max_attempts: int) -> dict[str, Any] | None:
        claimable = "(status IN ('pending', 'queued', 'retrying') OR (status = 'running' AND lease_until < ?))"
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                f"UPDATE chase_jobs SET status = 'failed', error = COALESCE(error, '') || ' (gave up after ' || attempts || ' attempts)', "
                f"worker = NULL, lease_until = NULL, updated_at = ? WHERE job_id = ? AND attempts >= ? AND {claimable}",
                (now, job_id, max_attempts, now),
            )
            c.execute(
                f"UPDATE chase_jobs SET status = 'running', attempts = attempts + 1, worker = ?, lease_until = ?, updated_at = ? "
                f"WHERE job_id = ? AND attempts < ? AND {claimable} RETURNING {COLUMNS}",
                (worker, now + lease, now, job_id, max_attempts, now),
            )
            return _row(c.fetchone(), True)

    def renew(self, job_id: str, worker: str, now: float, lease: float, progress: tuple[int, int] | None = None, state: dict[str, Any] | None = None) -> bool:
        sets, params = ["lease_until = ?", "updated_at = ?"], [now + lease, now]
        if progress is not None:
            sets += ["done = ?", "total = ?"]
            params += list(progress)
        if state is not None:
            sets.append("state = ?")
            params.append(json.dumps(state))
        row = self._one(
            f"UPDATE chase_jobs SET {', '.join(sets)} WHERE job_id = ? AND worker = ? AND status = 'running' RETURNING job_id",
            params + [job_id, worker],
        )
        return row is not None

    def finish(self, job_id: str, worker: str, now: float, result: dict[str, Any]) -> bool:
        row = self._one(
            "UPDATE chase_jobs SET status = 'done', result = ?, error = NULL, lease_until = NULL, updated_at = ? "
            "WHERE job_id = ? AND worker = ? AND status = 'running' RETURNING job_id",
            (json.dumps(result), now, job_id, worker),
        )
        return row is not None

    def fail(self, job_id: str, worker: str, now: float, error: str, retry: bool) -> bool:
        row = self._one(
            "UPDATE chase_jobs SET status = ?, error = ?, lease_until = NULL, updated_at = ? "
            "WHERE job_id = ? AND worker = ? AND status = 'running' RETURNING job_id",
            ("retrying" if retry else "failed", error, now, job_id, worker),
        )
        return row is not None

    def stale(self, now: float, grace: float, limit: int = 100) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT {COLUMNS} FROM chase_jobs WHERE (status IN ('pending', 'queued', 'retrying') AND updated_at < ?) "
                "OR (status = 'running' AND lease_until < ?) ORDER BY updated_at LIMIT ?",
                (now - grace, now, limit),
            )
            return [_row(r, True) for r in c.fetchall()]  # type: ignore[misc]

    def add_frames(self, job_id: str, frames: Sequence[dict[str, Any]]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.executemany(
                "INSERT INTO chase_replay_frames VALUES (?, ?, ?) ON CONFLICT (job_id, step) DO NOTHING",
                [(job_id, f["step"], json.dumps(f)) for f in frames],
            )

    def frames(self, job_id: str, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT doc FROM chase_replay_frames WHERE job_id = ? AND step > ? ORDER BY step LIMIT ?", (job_id, after, limit))
            return [json.loads(r["doc"]) for r in c.fetchall()]

    def last_frame(self, job_id: str) -> int:
        row = self._one("SELECT MAX(step) AS step FROM chase_replay_frames WHERE job_id = ?", (job_id,), commit=False)
        return row["step"] or 0

    def counts(self) -> list[tuple[str, str, int]]:
        """How many jobs of each kind are in each status (the operator's metrics)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute("SELECT kind, status, COUNT(*) AS n FROM chase_jobs GROUP BY kind, status")
            return [(row["kind"], row["status"], row["n"]) for row in c.fetchall()]


class SQLiteEventCounter:
    """Counts the application's events (the notification id is the events table's rowid)."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder

    def __call__(self, upto: int | None = None) -> int:
        table = self.recorder.events_table_name
        with self.recorder.datastore.transaction(commit=False) as c:
            if upto is None:
                c.execute(f"SELECT COUNT(*) AS n FROM {table}")
            else:
                c.execute(f"SELECT COUNT(*) AS n FROM {table} WHERE rowid <= ?", (upto,))
            return c.fetchone()["n"]


def _table(datastore: PostgresDatastore, name: str) -> Composed:
    return SQL("{0}.{1}").format(Identifier(datastore.schema), Identifier(name))


class PostgresJobStore(PostgresRecorder):
    """Job rows and replay frames in PostgreSQL."""

    def __init__(self, datastore: PostgresDatastore) -> None:
        super().__init__(datastore)
        self.jobs = _table(datastore, "chase_jobs")
        self.frames_table = _table(datastore, "chase_replay_frames")
        self.sql_create_statements += [
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (job_id text PRIMARY KEY, kind text NOT NULL, chase_id text, "
                "params jsonb NOT NULL, status text NOT NULL, attempts integer NOT NULL DEFAULT 0, "
                "dispatches integer NOT NULL DEFAULT 0, done bigint NOT NULL DEFAULT 0, total bigint NOT NULL DEFAULT 0, "
                "state jsonb, result jsonb, error text, worker text, lease_until double precision, "
                "created_at double precision NOT NULL, updated_at double precision NOT NULL)"
            ).format(self.jobs),
            SQL("CREATE INDEX IF NOT EXISTS {0} ON {1} (status, updated_at)").format(
                Identifier("chase_jobs_by_status"), self.jobs
            ),
            SQL("CREATE INDEX IF NOT EXISTS {0} ON {1} (chase_id, created_at, job_id)").format(Identifier("chase_jobs_by_chase"), self.jobs),
            SQL(
                "CREATE TABLE IF NOT EXISTS {0} (job_id text NOT NULL, step integer NOT NULL, doc jsonb NOT NULL, "
                "PRIMARY KEY (job_id, step))"
            ).format(self.frames_table),
        ]
        self.columns = SQL(COLUMNS)

    def _one(self, sql: Any, params: Sequence[Any], commit: bool = True) -> Any:
        with self.datastore.transaction(commit=commit) as c:
            c.execute(sql, params)
            return c.fetchone()

    def add(self, job: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        row = self._one(
            SQL(
                "INSERT INTO {0} (job_id, kind, chase_id, params, status, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, 'pending', %s, %s) ON CONFLICT (job_id) DO NOTHING RETURNING job_id"
            ).format(self.jobs),
            (job["job_id"], job["kind"], job["chase_id"], Jsonb(job["params"]), job["created_at"], job["created_at"]),
        )
        stored = self.get(job["job_id"])
        assert stored is not None
        return stored, row is not None

    def get(self, job_id: str) -> dict[str, Any] | None:
        return _row(self._one(SQL("SELECT {0} FROM {1} WHERE job_id = %s").format(self.columns, self.jobs), (job_id,), commit=False), False)

    def of_chase(self, chase_id: str, after: str | None, limit: int) -> list[dict[str, Any]]:
        where, params = SQL("chase_id = %s"), [chase_id]
        if after is not None:
            where = SQL(" AND ").join([where, SQL("(created_at, job_id) > (" + AFTER_JOB.format(table="{0}", p="%s") + ")").format(self.jobs)])
            params.append(after)
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT {0} FROM {1} WHERE {2} ORDER BY created_at, job_id LIMIT %s").format(self.columns, self.jobs, where), (*params, limit))
            return [_row(r, False) for r in c.fetchall()]

    def mark_dispatched(self, job_id: str, now: float, *, status: str, dispatches: int | None = None, lease_expired_before: float | None = None) -> int | None:
        where, params = [SQL("job_id = %s"), SQL("status = %s")], [now, job_id, status]
        if dispatches is not None:
            where.append(SQL("dispatches = %s"))
            params.append(dispatches)
        if status == "running":
            where.append(SQL("lease_until < %s"))
            params.append(lease_expired_before if lease_expired_before is not None else now)
        row = self._one(
            SQL("UPDATE {0} SET status = 'queued', dispatches = dispatches + 1, updated_at = %s WHERE {1} RETURNING dispatches").format(
                self.jobs, SQL(" AND ").join(where)
            ),
            params,
        )
        return None if row is None else row["dispatches"]

    def undo_dispatch(self, job_id: str, dispatch: int, now: float) -> None:
        self._one(
            SQL("UPDATE {0} SET status = 'pending', updated_at = %s WHERE job_id = %s AND status = 'queued' AND dispatches = %s RETURNING job_id").format(self.jobs),
            (now, job_id, dispatch),
        )

    def claim(self, job_id: str, worker: str, now: float, lease: float, max_attempts: int) -> dict[str, Any] | None:
        claimable = SQL("(status IN ('pending', 'queued', 'retrying') OR (status = 'running' AND lease_until < %s))")
        with self.datastore.transaction(commit=True) as c:
            c.execute(
                SQL(
                    "UPDATE {0} SET status = 'failed', error = COALESCE(error, '') || ' (gave up after ' || attempts || ' attempts)', "
                    "worker = NULL, lease_until = NULL, updated_at = %s WHERE job_id = %s AND attempts >= %s AND {1}"
                ).format(self.jobs, claimable),
                (now, job_id, max_attempts, now),
            )
            c.execute(
                SQL(
                    "UPDATE {0} SET status = 'running', attempts = attempts + 1, worker = %s, lease_until = %s, updated_at = %s "
                    "WHERE job_id = %s AND attempts < %s AND {1} RETURNING {2}"
                ).format(self.jobs, claimable, self.columns),
                (worker, now + lease, now, job_id, max_attempts, now),
            )
            return _row(c.fetchone(), False)

    def renew(self, job_id: str, worker: str, now: float, lease: float, progress: tuple[int, int] | None = None, state: dict[str, Any] | None = None) -> bool:
        sets, params = [SQL("lease_until = %s"), SQL("updated_at = %s")], [now + lease, now]
        if progress is not None:
            sets += [SQL("done = %s"), SQL("total = %s")]
            params += list(progress)
        if state is not None:
            sets.append(SQL("state = %s"))
            params.append(Jsonb(state))
        row = self._one(
            SQL("UPDATE {0} SET {1} WHERE job_id = %s AND worker = %s AND status = 'running' RETURNING job_id").format(self.jobs, SQL(", ").join(sets)),
            params + [job_id, worker],
        )
        return row is not None

    def finish(self, job_id: str, worker: str, now: float, result: dict[str, Any]) -> bool:
        row = self._one(
            SQL(
                "UPDATE {0} SET status = 'done', result = %s, error = NULL, lease_until = NULL, updated_at = %s "
                "WHERE job_id = %s AND worker = %s AND status = 'running' RETURNING job_id"
            ).format(self.jobs),
            (Jsonb(result), now, job_id, worker),
        )
        return row is not None

    def fail(self, job_id: str, worker: str, now: float, error: str, retry: bool) -> bool:
        row = self._one(
            SQL(
                "UPDATE {0} SET status = %s, error = %s, lease_until = NULL, updated_at = %s "
                "WHERE job_id = %s AND worker = %s AND status = 'running' RETURNING job_id"
            ).format(self.jobs),
            ("retrying" if retry else "failed", error, now, job_id, worker),
        )
        return row is not None

    def stale(self, now: float, grace: float, limit: int = 100) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                SQL(
                    "SELECT {0} FROM {1} WHERE (status IN ('pending', 'queued', 'retrying') AND updated_at < %s) "
                    "OR (status = 'running' AND lease_until < %s) ORDER BY updated_at LIMIT %s"
                ).format(self.columns, self.jobs),
                (now - grace, now, limit),
            )
            return [_row(r, False) for r in c.fetchall()]  # type: ignore[misc]

    def add_frames(self, job_id: str, frames: Sequence[dict[str, Any]]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.executemany(
                SQL("INSERT INTO {0} VALUES (%s, %s, %s) ON CONFLICT (job_id, step) DO NOTHING").format(self.frames_table),
                [(job_id, f["step"], Jsonb(f)) for f in frames],
            )

    def frames(self, job_id: str, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT doc FROM {0} WHERE job_id = %s AND step > %s ORDER BY step LIMIT %s").format(self.frames_table), (job_id, after, limit))
            return [r["doc"] for r in c.fetchall()]

    def last_frame(self, job_id: str) -> int:
        row = self._one(SQL("SELECT MAX(step) AS step FROM {0} WHERE job_id = %s").format(self.frames_table), (job_id,), commit=False)
        return row["step"] or 0

    def counts(self) -> list[tuple[str, str, int]]:
        """How many jobs of each kind are in each status (the operator's metrics)."""
        with self.datastore.transaction(commit=False) as c:
            c.execute(SQL("SELECT kind, status, COUNT(*) AS n FROM {0} GROUP BY kind, status").format(self.jobs))
            return [(row["kind"], row["status"], row["n"]) for row in c.fetchall()]


class PostgresEventCounter:
    """Counts the application's events by notification id."""

    def __init__(self, recorder: Any) -> None:
        self.recorder = recorder
        self.table = _table(recorder.datastore, recorder.events_table_name)

    def __call__(self, upto: int | None = None) -> int:
        with self.recorder.datastore.transaction(commit=False) as c:
            if upto is None:
                c.execute(SQL("SELECT COUNT(*) AS n FROM {0}").format(self.table))
            else:
                c.execute(SQL("SELECT COUNT(*) AS n FROM {0} WHERE notification_id <= %s").format(self.table), (upto,))
            return c.fetchone()["n"]
