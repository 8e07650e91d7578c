"""What a running job sees (application/jobs.py runs it; application/job_kinds.py and each game
system's job kinds do the work): its parameters, its resumption notes, its progress and lease."""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from application.job_ports import JobStore

log = logging.getLogger(__name__)

# The views a rebuild can name. They share one tracking position (written in one transaction),
# so naming any of them rebuilds them all: clearing one alone would leave the position claiming
# rows that are gone.
VIEW_NAMES = ("track", "vehicles", "rolls")


class JobService(Protocol):
    """What a JobRun needs of the job service (application/jobs.py Jobs)."""

    store: JobStore
    settings: Any  # JobSettings
    clock: Callable[[], float]
    count_events: Any


class LeaseLost(Exception):
    """Another worker took the job over (this one was presumed dead): stop at once."""


@dataclass(frozen=True)
class JobSettings:
    lease: float = 30.0  # seconds a claim lasts unless renewed (renewed every lease / 3)
    max_attempts: int = 5
    grace: float = 10.0  # seconds before a pending or lost job is sent again by the sweeper
    rebuild_batch: int = 20_000  # notifications per rebuild transaction
    rebuild_throttle: float = 0.0  # seconds between rebuild batches, to spare a busy database
    progress_every: float = 1.0  # seconds between progress writes (each is a commit)
    heartbeat: bool = True  # renew leases from a thread (not on a database private to one thread)
    # Replays of one chase (application/replay_frames.py): at most this many in the window...
    replays_per_window: int = 10
    replay_window: float = 3600.0
    # ...and their frames removed once finished this many seconds ago, or behind this many newer.
    replay_retention: float = 7 * 24 * 3600.0
    replays_kept: int = 3


@dataclass
class JobRun:
    """What a running job sees: its parameters, its resumption notes and its progress."""

    jobs: JobService
    job: dict[str, Any]
    worker: str
    state: dict[str, Any] = field(default_factory=dict)
    _lost: threading.Event = field(default_factory=threading.Event)
    _stopped: threading.Event = field(default_factory=threading.Event)
    _last_progress: float = 0.0

    @property
    def job_id(self) -> str:
        return self.job["job_id"]

    @property
    def store(self) -> JobStore:
        return self.jobs.store

    def progress(self, done: int, total: int, force: bool = False) -> None:
        """Record progress (at most every ``progress_every`` seconds unless forced)."""
        self.check()
        now = self.jobs.clock()
        if force or now - self._last_progress >= self.jobs.settings.progress_every:
            self._last_progress = now
            self._renew(progress=(done, total))

    def save_state(self, **state: Any) -> None:
        """Keep resumption notes with the job (e.g. that the views were cleared)."""
        self.state.update(state)
        self._renew(state=self.state)

    def check(self) -> None:
        if self._lost.is_set():
            raise LeaseLost(f"job {self.job_id} was taken over by another worker")

    def _renew(self, progress: tuple[int, int] | None = None, state: dict[str, Any] | None = None) -> None:
        s = self.jobs.settings
        if not self.store.renew(self.job_id, self.worker, self.jobs.clock(), s.lease, progress, state):
            self._lost.set()
            self.check()

    def keep_lease(self) -> None:
        """Heartbeat (in a thread): renew the lease until the job ends."""
        interval = self.jobs.settings.lease / 3
        while not self._stopped.wait(interval):
            try:
                if not self.store.renew(self.job_id, self.worker, self.jobs.clock(), self.jobs.settings.lease):
                    self._lost.set()
                    return
            except Exception:
                log.warning("could not renew the lease of job %s", self.job_id, exc_info=True)

    def stop(self) -> None:
        self._stopped.set()
