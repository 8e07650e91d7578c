"""Job queues: RQ on Redis when REDIS_URL is set, an inline executor otherwise (DESIGN.md 8).

Both carry only job ids; the job itself (kind, parameters, status, progress, lease, result) is
in the JobStore. RQ runs ``infrastructure.process.perform`` (named by path): it hands the id to
this process's ledger.

RQ details that matter here:

* every dispatch of a job is its own RQ job, ``<job id>-<dispatch number>``, so a job sent again
  by the sweeper never collides with an RQ job that is still registered;
* a failed attempt is retried by RQ ``Retry`` with backoff (``RETRY_INTERVALS``), which needs
  RQ's scheduler: ``chase worker`` runs it in a thread (RQ would fork a process for it);
* ``chase worker`` uses a non-forking ``SimpleWorker``: the ledger (database pools, caches) is
  built once per worker process, never shared across a fork.
"""
from __future__ import annotations

import logging
import queue as stdlib_queue
import threading
import time
from collections.abc import Sequence
from typing import Any

import redis
from rq import Queue, Retry
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus

from application.job_ports import JobQueueUnavailable

PERFORM = "infrastructure.process.perform"  # the function RQ runs (infrastructure/process.py)

log = logging.getLogger(__name__)

LANES = ("interactive", "batch", "webhooks")  # in the order a worker takes jobs from them
# Webhook deliveries wait on strangers' servers: they have a lane of their own, worked apart
# from the others (a thread of the inline executor; a worker thread of `chase worker`), so a
# slow receiver never holds up a random hazard, a replay or a rebuild, nor waits behind them.
APART = ("webhooks",)
# Threads of the inline executor per lane: one receiver slow up to its deadline holds up only
# one of the webhooks lane's (two deliveries to one webhook never run at once: its lease).
INLINE_THREADS = {"webhooks": 4}
RETRY_INTERVALS = (2, 10, 30, 60)  # seconds before the 2nd, 3rd, ... attempt
TIMEOUTS = {"interactive": 15 * 60, "batch": 12 * 3600, "webhooks": 5 * 60}  # seconds an attempt may run
HELD = (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.STARTED, JobStatus.DEFERRED)


class CircuitBreaker:
    """After a failure, skip Redis for ``cooldown`` seconds: a command never waits on a dead Redis
    more than once per cooldown."""

    def __init__(self, cooldown: float = 2.0) -> None:
        self.cooldown = cooldown
        self._open_until = 0.0

    def allows(self) -> bool:
        return time.monotonic() >= self._open_until

    def trip(self) -> None:
        self._open_until = time.monotonic() + self.cooldown

    def reset(self) -> None:
        self._open_until = 0.0


def redis_client(url: str, **kw: Any) -> redis.Redis:
    """A client that gives up quickly when Redis is away (commands must not hang on it)."""
    options = {"socket_connect_timeout": 0.5, "socket_timeout": 5.0, "health_check_interval": 15, **kw}
    return redis.Redis.from_url(url, **options)


def queue_names(prefix: str, lanes: Sequence[str] = LANES) -> list[str]:
    return [f"{prefix}-{lane}" for lane in lanes]


class RQJobQueue:
    """Sends job ids to RQ queues on Redis, one queue per lane."""

    def __init__(self, url: str, prefix: str = "chase-ledger", max_attempts: int = 5, intervals: Sequence[int] = RETRY_INTERVALS) -> None:
        self.url = url
        self.prefix = prefix
        self.connection = redis_client(url)
        self.retries = max(0, max_attempts - 1)
        self.intervals = list(intervals)
        self.breaker = CircuitBreaker()

    def _queue(self, lane: str) -> Queue:
        return Queue(f"{self.prefix}-{lane}", connection=self.connection)

    def dispatch(self, job_id: str, lane: str, dispatch: int) -> None:
        if not self.breaker.allows():
            raise JobQueueUnavailable("Redis was unreachable moments ago")
        try:
            self._queue(lane).enqueue(
                PERFORM,  # by path: this module imports nothing that builds a ledger
                job_id,
                job_id=f"{job_id}-{dispatch}",
                retry=Retry(max=self.retries, interval=self.intervals) if self.retries else None,
                job_timeout=TIMEOUTS[lane],
                result_ttl=24 * 3600,
                failure_ttl=7 * 24 * 3600,
                description=f"chase-ledger job {job_id} (dispatch {dispatch})",
            )
        except redis.RedisError as e:
            self.breaker.trip()
            raise JobQueueUnavailable(f"Redis at {self.url}: {e}") from e
        self.breaker.reset()

    def holds(self, job_id: str, dispatch: int) -> bool | None:
        try:
            job = Job.fetch(f"{job_id}-{dispatch}", connection=self.connection)
            return job.get_status() in HELD
        except NoSuchJobError:
            return False
        except redis.RedisError as e:
            raise JobQueueUnavailable(f"Redis at {self.url}: {e}") from e

    def close(self) -> None:
        self.connection.close()


class InlineJobQueue:
    """Runs jobs in background threads of this process (the embedded default: no Redis), one
    thread per lane, so that no lane's job waits behind another lane's.

    A failed attempt is run again after the same backoff as with RQ. Jobs outlive the process
    in the JobStore: a job left pending or running by a process that died is sent again by the
    sweeper this queue runs when it starts and every ``sweep_interval`` seconds.
    """

    def __init__(
        self, intervals: Sequence[int] = RETRY_INTERVALS, sweep_interval: float = 30.0, synchronous: bool = False, max_attempts: int = 5
    ) -> None:
        self.jobs: Any = None  # the Jobs service, attached by the composition root
        self.max_attempts = max_attempts
        # Synchronous: run each job in the caller's thread as it is sent (a plain in-memory
        # SQLite database is private to one connection, so no other thread may touch it).
        # A failed attempt is then left "retrying", sent again by the next sweep.
        self.synchronous = synchronous
        self.intervals = list(intervals)
        self.sweep_interval = sweep_interval
        self._queues: dict[str, stdlib_queue.Queue[tuple[str, int, int] | None]] = {}
        self._held: set[tuple[str, int]] = set()
        self._timers: set[threading.Timer] = set()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._closed = threading.Event()

    def dispatch(self, job_id: str, lane: str, dispatch: int) -> None:
        if self._closed.is_set():
            raise JobQueueUnavailable("the inline executor is closed")
        if self.synchronous:
            try:
                self.jobs.execute(job_id)
            except Exception:
                log.warning("inline job %s failed", job_id, exc_info=True)
            return
        with self._lock:
            self._held.add((job_id, dispatch))
        self._lane(lane).put((job_id, dispatch, 1))

    def holds(self, job_id: str, dispatch: int) -> bool | None:
        with self._lock:
            return True if (job_id, dispatch) in self._held else None

    def _lane(self, lane: str) -> stdlib_queue.Queue[tuple[str, int, int] | None]:
        """The lane's queue, its thread started with it (and the sweeper with the first)."""
        with self._lock:
            found = self._queues.get(lane)
            if found is not None or self._closed.is_set():
                return found or stdlib_queue.Queue()
            if not self._threads:
                self._spawn(self._sweeps, "inline-jobs-sweeper")
            found = self._queues[lane] = stdlib_queue.Queue()
            for n in range(INLINE_THREADS.get(lane, 1)):
                self._spawn(lambda: self._work(lane, found), f"inline-jobs-{lane}-{n}")
            return found

    def _spawn(self, target: Any, name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def start(self) -> None:
        """Start the executor (and its first sweep) now rather than on the first job."""
        if not self.synchronous:
            self._lane(LANES[0])

    def _sweeps(self) -> None:
        self._sweep()
        while not self._closed.wait(self.sweep_interval):
            self._sweep()

    def _work(self, lane: str, jobs: stdlib_queue.Queue[tuple[str, int, int] | None]) -> None:
        while not self._closed.is_set():
            item = jobs.get()
            if item is None:
                return
            job_id, dispatch, attempt = item
            try:
                self.jobs.execute(job_id)
            except Exception:
                log.warning("inline job %s failed (attempt %s)", job_id, attempt, exc_info=True)
                if attempt < self.max_attempts and self.intervals and not self._closed.is_set():
                    # As RQ Retry does: the last interval again once the list runs out.
                    self._later(self.intervals[min(attempt, len(self.intervals)) - 1], jobs, (job_id, dispatch, attempt + 1))
                    continue
            with self._lock:
                self._held.discard((job_id, dispatch))

    def _later(self, delay: float, jobs: stdlib_queue.Queue[tuple[str, int, int] | None], item: tuple[str, int, int]) -> None:
        def put() -> None:
            with self._lock:
                self._timers.discard(timer)
            if not self._closed.is_set():
                jobs.put(item)

        timer = threading.Timer(delay, put)
        timer.daemon = True
        with self._lock:
            self._timers.add(timer)
        timer.start()

    def _sweep(self) -> None:
        try:
            if self.jobs is not None:
                self.jobs.sweep()
        except Exception:
            log.warning("inline sweep failed", exc_info=True)

    def close(self, timeout: float = 5.0) -> None:
        self._closed.set()
        with self._lock:
            timers, self._timers = list(self._timers), set()
            threads, lanes = list(self._threads), dict(self._queues)
        for timer in timers:
            timer.cancel()
        for lane, jobs in lanes.items():
            for _ in range(INLINE_THREADS.get(lane, 1)):  # one end for each of the lane's threads
                jobs.put(None)
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout)
