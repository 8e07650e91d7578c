"""Background jobs (DESIGN.md section 8): view rebuilds, replays, replay checks, random hazards.

A job is first recorded in the JobStore (beside the events), then handed to the JobQueue (RQ on
Redis, or the inline executor). The queue carries only the job id, so:

* a job submitted while Redis is down stays ``pending`` and the sweeper (``Jobs.sweep``, run by
  every ``chase worker``) sends it once Redis is back;
* a worker runs a job only after claiming it: a compare-and-set that also takes a lease, which
  a heartbeat renews while the job runs. A worker killed mid-job (SIGKILL) stops renewing; once
  the lease has expired the sweeper sends the job again and the next worker resumes it;
* each kind of job is idempotent: a rebuild resumes from the views' tracking position (written
  in the same transaction as the view rows), a replay from its last stored frame, a check is
  read-only, and random hazards are recorded under an idempotency key the chase refuses twice;
* a failed attempt is retried with backoff (RQ ``Retry``, or the inline executor's own timer),
  up to ``max_attempts``; refusals by the rules are final and not retried.

Progress (events or versions done / total) is written to the job's row as the job goes, so any
API process can answer ``GET .../jobs/<id>`` whichever worker runs it.
"""
from __future__ import annotations

import logging
import os
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from uuid import UUID, uuid4

from application.access import Forbidden
from application.job_kinds import CORE_KINDS
from application.job_ports import EventCounter, JobQueue, JobQueueUnavailable, JobStore
from application.job_run import VIEW_NAMES, JobRun, JobSettings, LeaseLost
from application.plugins import JobHandler, JobKind
from application.replay_frames import FramesRemoved, TooManyReplays, frames_after
from application.runner import ChaseNotFound
from domain.errors import InvalidInput, RuleBroken
from domain.errors import WrongSystem
from domain.recorded_chase import HistoryRefused

log = logging.getLogger(__name__)

__all__ = ["FramesRemoved", "JobRun", "JobSettings", "Jobs", "JobNotFound", "LeaseLost", "TooManyReplays", "VIEW_NAMES"]
REBUILD, REPLAY, CHECK = "rebuild", "replay", "check"
REPLAY_LOCKS = 64

PENDING, QUEUED, RUNNING, RETRYING, DONE, FAILED = "pending", "queued", "running", "retrying", "done", "failed"
FINAL = (DONE, FAILED)
# Failures that another attempt cannot fix: the rules refused, the chase is unknown, bad input.
# (Every game system's refusals are core RuleBroken, InvalidInput (a ValueError) or NotFound
# (a LookupError): domain/errors.py.)
PERMANENT: tuple[type[BaseException], ...] = (RuleBroken, HistoryRefused, ChaseNotFound, Forbidden, LookupError, ValueError)


class JobNotFound(LookupError):
    """No job with that id (or not one of this chase's)."""


class Jobs:
    """Submits, runs and sweeps the jobs of one ChaseLedger."""

    def __init__(
        self,
        ledger: Any,
        store: JobStore,
        queue: JobQueue,
        count_events: EventCounter,
        settings: JobSettings = JobSettings(),
        worker_name: str | None = None,
        clock: Callable[[], float] = time.time,
        kinds: Mapping[str, JobKind] | None = None,
    ) -> None:
        """``kinds``: the game systems' own kinds of job (ChaseLedger.job_kinds), beside the core's."""
        self.ledger = ledger
        self.store = store
        self.queue = queue
        self.count_events = count_events
        self.settings = settings
        self.worker_name = worker_name or f"{socket.gethostname()}:{os.getpid()}:{uuid4().hex[:6]}"
        self.clock = clock
        every: dict[str, JobKind] = {**CORE_KINDS, **(kinds if kinds is not None else ledger.job_kinds)}
        self.handlers: dict[str, JobHandler] = {kind: job.handler for kind, job in every.items()}
        self.lanes: dict[str, str] = {kind: job.lane for kind, job in every.items()}
        # The replays of a chase are asked for one at a time in this process (``replay``): a
        # lock for each of a fixed number of stripes of chases, so that none is made per chase.
        self.replay_locks = tuple(threading.Lock() for _ in range(REPLAY_LOCKS))

    # -- submitting ------------------------------------------------------------------------

    def rebuild_views(self, views: Sequence[str] = VIEW_NAMES) -> dict[str, Any]:
        """Clear the views and rebuild them from the log, as a job."""
        unknown = [v for v in views if v not in VIEW_NAMES]
        if unknown or not views:
            raise ValueError(f"views must be some of {', '.join(VIEW_NAMES)}; unknown: {', '.join(unknown) or 'none given'}")
        return self.submit(REBUILD, {"views": list(VIEW_NAMES), "asked_for": list(views)})

    def replay(self, chase_id: UUID) -> dict[str, Any]:
        """Replay the chase event by event into frames of fresh views, as a job; TooManyReplays
        when the chase has had its quota of replays (JobSettings) lately."""
        self.require_chase(chase_id)
        # Counted and recorded under the chase's lock: two requests at once would otherwise both
        # count the replays before either is recorded, and both pass the quota.
        with self.replay_locks[hash(chase_id) % len(self.replay_locks)]:
            s, now = self.settings, self.clock()
            count, oldest = self.store.recent(REPLAY, str(chase_id), now - s.replay_window)
            if count >= s.replays_per_window and oldest is not None:
                raise TooManyReplays(count, s.replay_window, oldest + s.replay_window - now)
            self.remove_old_frames(str(chase_id))
            return self.submit(REPLAY, {"chase_id": str(chase_id)}, chase_id=str(chase_id))

    def remove_old_frames(self, chase_id: str | None = None) -> None:
        """Remove the frames of finished replays older than the retention time, and (for
        ``chase_id``) of all but its newest ``replays_kept`` finished replays."""
        s = self.settings
        self.store.remove_frames(self.clock() - s.replay_retention, chase_id, s.replays_kept)

    def check(self, chase_id: UUID) -> dict[str, Any]:
        """Re-run the chase's state at every version and compare with the live views, as a job."""
        self.require_chase(chase_id)
        return self.submit(CHECK, {"chase_id": str(chase_id)}, chase_id=str(chase_id))

    def submit(self, kind: str, params: dict[str, Any], *, chase_id: str | None = None, job_id: str | None = None) -> dict[str, Any]:
        """Record a job (or find the one with that id) and send it to the queue."""
        if kind not in self.handlers:
            raise ValueError(f"no job kind {kind!r}")
        now = self.clock()
        job = {"job_id": job_id or str(uuid4()), "kind": kind, "chase_id": chase_id, "params": params, "created_at": now}
        stored, added = self.store.add(job)
        if added:
            self.dispatch(stored["job_id"], PENDING)
        return public(self.store.get(stored["job_id"]) or stored)

    def dispatch(self, job_id: str, status: str, *, dispatches: int | None = None) -> bool:
        """Send a job (in ``status``) to its lane's queue; False if it was not sent now."""
        now = self.clock()
        job = self.store.get(job_id)
        if job is None:
            return False
        number = self.store.mark_dispatched(job_id, now, status=status, dispatches=dispatches, lease_expired_before=now)
        if number is None:
            return False
        try:
            self.queue.dispatch(job_id, self.lanes[job["kind"]], number)
        except JobQueueUnavailable as e:
            log.warning("job %s stays pending: %s", job_id, e)
            self.store.undo_dispatch(job_id, number, self.clock())
            return False
        return True

    # -- reading ---------------------------------------------------------------------------

    def get(self, job_id: str, chase_id: UUID | None = None) -> dict[str, Any]:
        job = self.store.get(job_id)
        if job is None or (chase_id is not None and job["chase_id"] != str(chase_id)):
            raise JobNotFound(f"no job {job_id}" + (f" for chase {chase_id}" if chase_id else ""))
        return public(job)

    def of_chase(self, chase_id: UUID, after: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """The chase's jobs, oldest first, a page after the job ``after``."""
        self.require_chase(chase_id)
        found = None if after is None else self.store.get(after)
        if after is not None and (found is None or found["chase_id"] != str(chase_id)):
            # A cursor that is no job of this chase is refused, not read as "from the start".
            raise InvalidInput("after", f"no job {after} of this chase: follow the `next` link of the page before")
        return [public(job) for job in self.store.of_chase(str(chase_id), after, limit)]

    def wait(self, job_id: str, timeout: float, chase_id: UUID | None = None, poll: float = 0.05) -> dict[str, Any]:
        """The job once done or failed, or as it is after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.get(job_id, chase_id)
            if job["status"] in FINAL or time.monotonic() >= deadline:
                return job
            time.sleep(min(poll, max(0.0, deadline - time.monotonic())))

    def statuses(self, job_ids: Sequence[str]) -> dict[str, str | None]:
        """Each job's status (None: no such job), read together: the API's waits on its event
        loop ask this a few times a second for every job waited for (api/job_waits.py)."""
        found: dict[str, str | None] = {}
        for job_id in job_ids:
            job = self.store.get(job_id)
            found[job_id] = None if job is None else str(job["status"])
        return found

    def frames(self, job_id: str, chase_id: UUID, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        """Up to ``limit`` frames after step ``after``, within a page's bytes (application/replay_frames.py)."""
        return self.frame_page(job_id, chase_id, after, limit)[0]

    def frame_page(self, job_id: str, chase_id: UUID, after: int = 0, limit: int = 100) -> tuple[list[dict[str, Any]], bool]:
        """Up to ``limit`` frames after step ``after``, and whether more follow; FramesRemoved
        when the retention removed those the finished replay had."""
        job = self.get(job_id, chase_id)
        if job["kind"] != REPLAY:
            raise JobNotFound(f"job {job_id} is not a replay")
        frames, more = frames_after(lambda step, n: self.store.frames(job_id, step, n), after, limit)
        if not frames and job["status"] == DONE and after < (job["result"] or {}).get("frames", 0):
            raise FramesRemoved(f"the frames of replay {job_id} were removed (a replay's frames are kept for a while, and only the chase's newest): replay the chase again")
        return frames, more

    # -- running ---------------------------------------------------------------------------

    def execute(self, job_id: str, worker: str | None = None) -> dict[str, Any] | None:
        """Run a job if it can be claimed (the executors call this); its result, or None.

        Raises on a failure another attempt may fix (after recording it), so that the executor
        retries with backoff; a refusal by the rules is recorded as final and not raised.
        """
        worker = worker or self.worker_name
        s = self.settings
        job = self.store.claim(job_id, worker, self.clock(), s.lease, s.max_attempts)
        if job is None:
            current = self.store.get(job_id)
            if current is None:
                raise JobNotFound(f"no job {job_id}")
            log.info("job %s not run by %s: it is %s", job_id, worker, current["status"])
            return current["result"] if current["status"] == DONE else None
        run = JobRun(self, job, worker, dict(job.get("state") or {}))
        beat = threading.Thread(target=run.keep_lease, name=f"lease-{job_id}", daemon=True)
        if s.heartbeat:
            beat.start()
        try:
            result = self.handlers[job["kind"]](self.ledger, run, job["params"])
        except LeaseLost:
            log.warning("job %s: lease lost by %s, leaving it to the worker that took it", job_id, worker)
            return None
        except PERMANENT as e:
            log.warning("job %s failed for good: %s", job_id, e)
            self.store.fail(job_id, worker, self.clock(), describe_error(e), retry=False)
            return None
        except Exception as e:
            retry = job["attempts"] < s.max_attempts
            log.warning("job %s failed (attempt %s of %s): %s", job_id, job["attempts"], s.max_attempts, e)
            self.store.fail(job_id, worker, self.clock(), describe_error(e), retry=retry)
            raise
        finally:
            run.stop()
            if beat.is_alive():
                beat.join(timeout=5)
        if not self.store.finish(job_id, worker, self.clock(), result):
            log.warning("job %s finished by %s after its lease was taken over", job_id, worker)
        return result

    def sweep(self) -> int:
        """Send again the jobs that are pending, lost by the queue, or abandoned by a dead
        worker (lease expired); returns how many were sent. Removes old replays' frames too."""
        now = self.clock()
        sent = 0
        for job in self.store.stale(now, self.settings.grace):
            status = job["status"]
            if status in (QUEUED, RETRYING):
                held = self.queue.holds(job["job_id"], job["dispatches"])
                # An executor that cannot tell (another process's inline queue) gets much longer.
                if held or (held is None and now - job["updated_at"] < 10 * self.settings.grace):
                    continue
            if self.dispatch(job["job_id"], status, dispatches=job["dispatches"]):
                log.info("sweeper sent job %s again (%s)", job["job_id"], status)
                sent += 1
        self.remove_old_frames()
        return sent

    def require_chase(self, chase_id: UUID, systems: tuple[str, ...] | None = None) -> None:
        """ChaseNotFound unless the chase has events; WrongSystem (409) when the job is for chases
        of other game systems, refused now rather than failing in the worker."""
        if systems is None:
            if not self.ledger.recorder.select_events(chase_id, limit=1):
                raise ChaseNotFound(f"no chase {chase_id}")
            return
        chase = self.ledger.runner.load(chase_id)
        if chase.SYSTEM not in systems:
            raise WrongSystem(chase.SYSTEM, systems)


def public(job: dict[str, Any]) -> dict[str, Any]:
    """A job as clients read it."""
    return {
        "job_id": job["job_id"],
        "kind": job["kind"],
        "chase_id": job["chase_id"],
        "status": job["status"],
        "progress": {"done": job["done"], "total": job["total"]},
        "attempts": job["attempts"],
        "params": job["params"],
        "result": job["result"],
        "error": without_urls(job["error"]),
        "created_at": job["created_at"],
        "updated_at": job["updated_at"],
    }


URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)


def without_urls(error: str | None) -> str | None:
    """A job's error as every player of its chase may read it: no URL (a webhook's path is a
    secret), even in errors recorded before delivery errors stopped naming it."""
    return None if error is None else URL.sub("<URL>", error)


def describe_error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"[:2000]


# -- the jobs --------------------------------------------------------------------------------
