"""Ports of the background jobs (DESIGN.md section 8): the job rows, the queue that hands them to
an executor, and the count of events behind their progress figures; infrastructure supplies the
adapters (infrastructure/job_store.py, queues.py)."""
from __future__ import annotations

from typing import Any, Protocol, Sequence


class JobQueueUnavailable(Exception):
    """The executor cannot take a job now (Redis down): the job stays recorded, to be sent later."""


class JobQueue(Protocol):
    """Hands recorded jobs to an executor: RQ on Redis, or an inline executor in this process.

    A queue carries only job ids; what a job is, its progress and its result are in the JobStore,
    so that a job outlives its executor (a worker killed, Redis restarted empty).
    """

    def dispatch(self, job_id: str, lane: str, dispatch: int) -> None:
        """Send the job's ``dispatch``-th run request to the lane's queue; JobQueueUnavailable
        when the executor cannot be reached."""
        ...

    def holds(self, job_id: str, dispatch: int) -> bool | None:
        """Whether the executor still holds that run request (queued, scheduled for a retry
        or running); None when this queue cannot tell."""
        ...


class JobStore(Protocol):
    """Jobs, their progress, their leases and their results, beside the events.

    A job row: job_id, kind, chase_id, params, status (pending, queued, running, retrying, done,
    failed), attempts, dispatches, done, total, state (the job's own resumption notes), result,
    error, worker, lease_until (epoch seconds), created_at, updated_at (epoch seconds).
    Every change of status is a compare-and-set, so two workers never both hold a job.
    """

    def add(self, job: dict[str, Any]) -> tuple[dict[str, Any], bool]:
        """Record a new pending job, or find the one with that id; (job, whether added)."""
        ...

    def get(self, job_id: str) -> dict[str, Any] | None: ...

    def of_chase(self, chase_id: str, after: str | None, limit: int) -> list[dict[str, Any]]:
        """The chase's jobs, oldest first, after the job ``after`` (None: from the first)."""
        ...

    def mark_dispatched(self, job_id: str, now: float, *, status: str, dispatches: int | None = None, lease_expired_before: float | None = None) -> int | None:
        """``status`` (pending, or lost/abandoned: queued, retrying, running) -> queued, counting
        the dispatch; its number, or None if the job was no longer in ``status`` (with
        ``dispatches`` sends so far, when given; when running, with its lease expired)."""
        ...

    def undo_dispatch(self, job_id: str, dispatch: int, now: float) -> None:
        """Queued by that dispatch -> pending again: the executor could not be reached."""
        ...

    def claim(self, job_id: str, worker: str, now: float, lease: float, max_attempts: int) -> dict[str, Any] | None:
        """Take the job for ``worker`` (queued, pending, retrying, or running with its lease
        expired), counting the attempt; the job as claimed, or None if it cannot be taken."""
        ...

    def renew(self, job_id: str, worker: str, now: float, lease: float, progress: tuple[int, int] | None = None, state: dict[str, Any] | None = None) -> bool:
        """Extend the worker's lease, recording progress (done, total) and state; False if the
        worker no longer holds the job."""
        ...

    def finish(self, job_id: str, worker: str, now: float, result: dict[str, Any]) -> bool: ...

    def fail(self, job_id: str, worker: str, now: float, error: str, retry: bool) -> bool:
        """Record a failed attempt: retrying (released for the next attempt) or failed."""
        ...

    def stale(self, now: float, grace: float, limit: int = 100) -> list[dict[str, Any]]:
        """Jobs to dispatch again: pending or queued/retrying for longer than ``grace`` seconds,
        or running with an expired lease."""
        ...

    def add_frames(self, job_id: str, frames: Sequence[dict[str, Any]]) -> None:
        """Store replay frames by step (a step already stored is kept as it is)."""
        ...

    def frames(self, job_id: str, after: int = 0, limit: int = 100) -> list[dict[str, Any]]: ...

    def last_frame(self, job_id: str) -> int:
        """The highest step stored for the replay (0 when none)."""
        ...

    def recent(self, kind: str, chase_id: str, since: float) -> tuple[int, float | None]:
        """How many jobs of ``kind`` the chase has had created after ``since``, and when the
        oldest of them was (None when none)."""
        ...

    def remove_frames(self, finished_before: float, chase_id: str | None, keep: int) -> None:
        """Remove the frames of replays finished (done or failed) before ``finished_before``,
        and, for ``chase_id``, of its finished replays but the newest ``keep``."""
        ...


class EventCounter(Protocol):
    """How many events the application's notification log holds (for progress figures)."""

    def __call__(self, upto: int | None = None) -> int:
        """Events with notification id <= ``upto`` (all when None)."""
        ...

