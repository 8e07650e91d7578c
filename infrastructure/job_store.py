"""Jobs and replay frames in the database, beside the events (SQLite and PostgreSQL).

The job rows are the truth about a job (application/jobs.py): the queue carries only ids.
Every change of status is a single UPDATE with its condition in the WHERE clause (a
compare-and-set), so two workers never both hold a job and two sweepers never both resend one.
Both databases run the same statements (``JobRows``); only the placeholders, the table names
and how JSON is kept differ.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from eventsourcing.postgres import PostgresDatastore, PostgresRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteRecorder
from psycopg.sql import SQL, Composed, Identifier
from psycopg.types.json import Jsonb

COLUMNS = (
    "job_id, kind, chase_id, params, status, attempts, dispatches, done, total, state, result, error, "
    "worker, lease_until, created_at, updated_at"
)
# A job may be claimed (or resent by the sweeper) when it waits, or when its worker's lease ran out.
CLAIMABLE = "(status IN ('pending', 'queued', 'retrying') OR (status = 'running' AND lease_until < {p}))"
HELD = "WHERE job_id = {p} AND worker = {p} AND status = 'running' RETURNING job_id"

# The statements, with {jobs} and {frames} for the tables and {p} for each placeholder.
ADD = (
    "INSERT INTO {jobs} (job_id, kind, chase_id, params, status, created_at, updated_at) "
    "VALUES ({p}, {p}, {p}, {p}, 'pending', {p}, {p}) ON CONFLICT (job_id) DO NOTHING RETURNING job_id"
)
GET = f"SELECT {COLUMNS} FROM {{jobs}} WHERE job_id = {{p}}"
# The jobs after a cursor (a job id) are those created after it; ties in time by job id.
OF_CHASE = f"SELECT {COLUMNS} FROM {{jobs}} WHERE {{where}} ORDER BY created_at, job_id LIMIT {{p}}"
AFTER_JOB = "(created_at, job_id) > (SELECT created_at, job_id FROM {jobs} WHERE job_id = {p})"
DISPATCHED = "UPDATE {jobs} SET status = 'queued', dispatches = dispatches + 1, updated_at = {p} WHERE {where} RETURNING dispatches"
UNDO_DISPATCH = "UPDATE {jobs} SET status = 'pending', updated_at = {p} WHERE job_id = {p} AND status = 'queued' AND dispatches = {p} RETURNING job_id"
GIVE_UP = (
    "UPDATE {jobs} SET status = 'failed', error = COALESCE(error, '') || ' (gave up after ' || attempts || ' attempts)', "
    f"worker = NULL, lease_until = NULL, updated_at = {{p}} WHERE job_id = {{p}} AND attempts >= {{p}} AND {CLAIMABLE}"
)
CLAIM = (
    "UPDATE {jobs} SET status = 'running', attempts = attempts + 1, worker = {p}, lease_until = {p}, updated_at = {p} "
    f"WHERE job_id = {{p}} AND attempts < {{p}} AND {CLAIMABLE} RETURNING {COLUMNS}"
)
RENEW = "UPDATE {jobs} SET {sets} " + HELD
FINISH = "UPDATE {jobs} SET status = 'done', result = {p}, error = NULL, lease_until = NULL, updated_at = {p} " + HELD
FAIL = "UPDATE {jobs} SET status = {p}, error = {p}, lease_until = NULL, updated_at = {p} " + HELD
STALE = (
    f"SELECT {COLUMNS} FROM {{jobs}} WHERE (status IN ('pending', 'queued', 'retrying') AND updated_at < {{p}}) "
    "OR (status = 'running' AND lease_until < {p}) ORDER BY updated_at LIMIT {p}"
)
ADD_FRAMES = "INSERT INTO {frames} VALUES ({p}, {p}, {p}) ON CONFLICT (job_id, step) DO NOTHING"
FRAMES = "SELECT doc FROM {frames} WHERE job_id = {p} AND step > {p} ORDER BY step LIMIT {p}"
LAST_FRAME = "SELECT MAX(step) AS step FROM {frames} WHERE job_id = {p}"
COUNTS = "SELECT kind, status, COUNT(*) AS n FROM {jobs} GROUP BY kind, status"
RECENT = "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM {jobs} WHERE kind = {p} AND chase_id = {p} AND created_at > {p}"
# Frames of finished replays (the kind "replay" of application/jobs.py): long finished, or
# behind the chase's newest ones. A replay still running keeps its frames, to resume from them.
FINISHED_REPLAYS = "SELECT job_id FROM {jobs} WHERE kind = 'replay' AND status IN ('done', 'failed')"
REMOVE_OLD_FRAMES = f"DELETE FROM {{frames}} WHERE job_id IN ({FINISHED_REPLAYS} AND updated_at < {{p}})"
REMOVE_FRAMES_BEHIND = (
    f"DELETE FROM {{frames}} WHERE job_id IN ({FINISHED_REPLAYS} AND chase_id = {{p}} AND job_id NOT IN "
    f"({FINISHED_REPLAYS} AND chase_id = {{p}} ORDER BY created_at DESC, job_id DESC LIMIT {{p}}))"
)


class JobRows(ABC):
    """The job store's reads and compare-and-sets, on whichever database ``statement`` speaks."""

    datastore: Any
    JSON_COLUMNS = ("params", "state", "result")

    @abstractmethod
    def statement(self, template: str, **parts: str) -> Any:
        """The template as this database runs it (its tables and placeholders, ``parts`` filled in)."""

    @abstractmethod
    def encode_json(self, value: Any) -> Any:
        """A JSON value as this database keeps it."""

    @abstractmethod
    def decode_json(self, value: Any) -> Any:
        """A JSON value as this database reads it back."""

    def _one(self, sql: Any, params: Sequence[Any], commit: bool = True) -> Any:
        with self.datastore.transaction(commit=commit) as c:
            c.execute(sql, params)
            return c.fetchone()

    def _all(self, sql: Any, params: Sequence[Any]) -> list[Any]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(sql, params)
            return c.fetchall()

    def _row(self, row: Any) -> dict[str, Any] | None:
        if row is None:
            return None
        job = dict(row)
        for name in self.JSON_COLUMNS:
            if job[name] is not None:
                job[name] = self.decode_json(job[name])
        return job

    def add(self, job: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        row = self._one(
            self.statement(ADD),
            (job["job_id"], job["kind"], job["chase_id"], self.encode_json(job["params"]), job["created_at"], job["created_at"]),
        )
        stored = self.get(job["job_id"])
        assert stored is not None
        return stored, row is not None

    def get(self, job_id: str) -> dict[str, Any] | None:
        return self._row(self._one(self.statement(GET), (job_id,), commit=False))

    def of_chase(self, chase_id: str, after: str | None, limit: int) -> list[dict[str, Any]]:
        where, params = ["chase_id = {p}"], [chase_id]
        if after is not None:
            where.append(AFTER_JOB)
            params.append(after)
        rows = self._all(self.statement(OF_CHASE, where=" AND ".join(where)), (*params, limit))
        return [self._row(r) for r in rows]  # type: ignore[misc]

    def mark_dispatched(self, job_id: str, now: float, *, status: str, dispatches: int | None = None, lease_expired_before: float | None = None) -> int | None:
        where, params = ["job_id = {p}", "status = {p}"], [now, job_id, status]
        if dispatches is not None:
            where.append("dispatches = {p}")
            params.append(dispatches)
        if status == "running":
            where.append("lease_until < {p}")
            params.append(lease_expired_before if lease_expired_before is not None else now)
        row = self._one(self.statement(DISPATCHED, where=" AND ".join(where)), params)
        return None if row is None else row["dispatches"]

    def undo_dispatch(self, job_id: str, dispatch: int, now: float) -> None:
        self._one(self.statement(UNDO_DISPATCH), (now, job_id, dispatch))

    def claim(self, job_id: str, worker: str, now: float, lease: float, max_attempts: int) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(self.statement(GIVE_UP), (now, job_id, max_attempts, now))
            c.execute(self.statement(CLAIM), (worker, now + lease, now, job_id, max_attempts, now))
            return self._row(c.fetchone())

    def renew(self, job_id: str, worker: str, now: float, lease: float, progress: tuple[int, int] | None = None, state: dict[str, Any] | None = None) -> bool:
        sets, params = ["lease_until = {p}", "updated_at = {p}"], [now + lease, now]
        if progress is not None:
            sets += ["done = {p}", "total = {p}"]
            params += list(progress)
        if state is not None:
            sets.append("state = {p}")
            params.append(self.encode_json(state))
        return self._one(self.statement(RENEW, sets=", ".join(sets)), params + [job_id, worker]) is not None

    def finish(self, job_id: str, worker: str, now: float, result: dict[str, Any]) -> bool:
        return self._one(self.statement(FINISH), (self.encode_json(result), now, job_id, worker)) is not None

    def fail(self, job_id: str, worker: str, now: float, error: str, retry: bool) -> bool:
        return self._one(self.statement(FAIL), ("retrying" if retry else "failed", error, now, job_id, worker)) is not None

    def stale(self, now: float, grace: float, limit: int = 100) -> list[dict[str, Any]]:
        return [self._row(r) for r in self._all(self.statement(STALE), (now - grace, now, limit))]  # type: ignore[misc]

    def add_frames(self, job_id: str, frames: Sequence[dict[str, Any]]) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.executemany(self.statement(ADD_FRAMES), [(job_id, f["step"], self.encode_json(f)) for f in frames])

    def frames(self, job_id: str, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        return [self.decode_json(r["doc"]) for r in self._all(self.statement(FRAMES), (job_id, after, limit))]

    def last_frame(self, job_id: str) -> int:
        row = self._one(self.statement(LAST_FRAME), (job_id,), commit=False)
        return row["step"] or 0

    def recent(self, kind: str, chase_id: str, since: float) -> tuple[int, float | None]:
        row = self._one(self.statement(RECENT), (kind, chase_id, since), commit=False)
        return row["n"], row["oldest"]

    def remove_frames(self, finished_before: float, chase_id: str | None, keep: int) -> None:
        with self.datastore.transaction(commit=True) as c:
            c.execute(self.statement(REMOVE_OLD_FRAMES), (finished_before,))
            if chase_id is not None:
                c.execute(self.statement(REMOVE_FRAMES_BEHIND), (chase_id, chase_id, keep))

    def counts(self) -> list[tuple[str, str, int]]:
        """How many jobs of each kind are in each status (the operator's metrics)."""
        return [(row["kind"], row["status"], row["n"]) for row in self._all(self.statement(COUNTS), ())]


class SQLiteJobStore(JobRows, SQLiteRecorder):
    """Job rows and replay frames in the SQLite file (JSON kept as text)."""

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

    def statement(self, template: str, **parts: str) -> str:
        text = template.format(jobs="{jobs}", frames="{frames}", p="{p}", **parts)  # the parts hold placeholders too
        return text.format(jobs="chase_jobs", frames="chase_replay_frames", p="?")

    def encode_json(self, value: Any) -> str:
        return json.dumps(value)

    def decode_json(self, value: Any) -> Any:
        return json.loads(value)


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


class PostgresJobStore(JobRows, PostgresRecorder):
    """Job rows and replay frames in PostgreSQL (JSON kept as jsonb)."""

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

    def statement(self, template: str, **parts: str) -> Composed:
        text = template.format(jobs="{jobs}", frames="{frames}", p="{p}", **parts)
        return SQL(text.format(jobs="{jobs}", frames="{frames}", p="%s")).format(jobs=self.jobs, frames=self.frames_table)

    def encode_json(self, value: Any) -> Jsonb:
        return Jsonb(value)

    def decode_json(self, value: Any) -> Any:
        return value  # psycopg reads jsonb as Python values


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
