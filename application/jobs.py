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

import gc
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.persistence import IntegrityError

from application.access import Forbidden, Principal
from application.chases import ChaseNotFound, DiceChoice
from application.history import describe
from application.ports import EventCounter, JobQueue, JobQueueUnavailable, JobStore
from application.projections import render_all
from application.projections.rolls import apply_marks, roll_marks, roll_row
from application.views import fold
from domain.dice import InvalidTableDice, TableDice
from domain.recorded_chase import HistoryRefused
from domain.rules.coc7e.errors import ChaseError
from domain.rules.coc7e.random_hazards import (
    ENVIRONMENTS,
    MAX_LOCATIONS,
    RandomHazardsAlreadyRolled,
    used_keys,
)

log = logging.getLogger(__name__)

REBUILD, REPLAY, CHECK, RANDOM_HAZARDS = "rebuild", "replay", "check", "random_hazards"
# Lanes (queues): quick jobs a player waits for never wait behind a rebuild of every view.
INTERACTIVE, BATCH = "interactive", "batch"
LANES = {RANDOM_HAZARDS: INTERACTIVE, REPLAY: INTERACTIVE, CHECK: BATCH, REBUILD: BATCH}
# The views a rebuild can name. They share one tracking position (written in one transaction),
# so naming any of them rebuilds them all: clearing one alone would leave the position claiming
# rows that are gone.
VIEW_NAMES = ("track", "vehicles", "rolls")

PENDING, QUEUED, RUNNING, RETRYING, DONE, FAILED = "pending", "queued", "running", "retrying", "done", "failed"
FINAL = (DONE, FAILED)
# Failures that another attempt cannot fix: the rules refused, the chase is unknown, bad input.
PERMANENT: tuple[type[BaseException], ...] = (ChaseError, HistoryRefused, ChaseNotFound, Forbidden, LookupError, ValueError)

FRAME_BATCH = 100  # replay frames stored per write
MAX_MISMATCHES = 20  # listed in a check's result
STATE_CACHE = 5_000  # chase states a rebuild keeps in memory between batches


class JobNotFound(LookupError):
    """No job with that id (or not one of this chase's)."""


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


@dataclass
class JobRun:
    """What a running job sees: its parameters, its resumption notes and its progress."""

    jobs: Jobs
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


Handler = Callable[[Any, JobRun, dict[str, Any]], dict[str, Any]]


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
    ) -> None:
        self.ledger = ledger
        self.store = store
        self.queue = queue
        self.count_events = count_events
        self.settings = settings
        self.worker_name = worker_name or f"{socket.gethostname()}:{os.getpid()}:{uuid4().hex[:6]}"
        self.clock = clock
        self.handlers: dict[str, Handler] = {REBUILD: rebuild, REPLAY: replay, CHECK: check, RANDOM_HAZARDS: random_hazards}

    # -- submitting ------------------------------------------------------------------------

    def rebuild_views(self, views: Sequence[str] = VIEW_NAMES) -> dict[str, Any]:
        """Clear the views and rebuild them from the log, as a job."""
        unknown = [v for v in views if v not in VIEW_NAMES]
        if unknown or not views:
            raise ValueError(f"views must be some of {', '.join(VIEW_NAMES)}; unknown: {', '.join(unknown) or 'none given'}")
        return self.submit(REBUILD, {"views": list(VIEW_NAMES), "asked_for": list(views)})

    def replay(self, chase_id: UUID) -> dict[str, Any]:
        """Replay the chase event by event into frames of fresh views, as a job."""
        self._require_chase(chase_id)
        return self.submit(REPLAY, {"chase_id": str(chase_id)}, chase_id=str(chase_id))

    def check(self, chase_id: UUID) -> dict[str, Any]:
        """Re-run the chase's state at every version and compare with the live views, as a job."""
        self._require_chase(chase_id)
        return self.submit(CHECK, {"chase_id": str(chase_id)}, chase_id=str(chase_id))

    def roll_random_hazards(
        self,
        chase_id: UUID,
        key: str,
        locations: int = 1,
        environment: str = "normal",
        from_location: int | None = None,
        table_dice: Sequence[int] | None = None,
        *,
        by: Principal | None = None,
    ) -> dict[str, Any]:
        """Roll the random hazards table for ``locations`` locations ahead, as a job.

        The job's id is derived from the chase and the idempotency key: the same key submits
        the same job, and the chase refuses a key already used, so it is recorded once.
        """
        if by is not None:
            by.require_keeper("roll random hazards")
        if not isinstance(key, str) or not key.strip():
            raise ValueError("an idempotency key is required")
        if environment not in ENVIRONMENTS or not 1 <= locations <= MAX_LOCATIONS:
            raise ValueError("bad environment or number of locations")
        self._require_chase(chase_id)
        params = {
            "chase_id": str(chase_id), "key": key, "locations": locations, "environment": environment,
            "from_location": from_location, "table_dice": list(table_dice) if table_dice is not None else None,
            "by": by.name if by is not None else "keeper",
        }
        job_id = str(uuid5(NAMESPACE_URL, f"chase-ledger:random-hazards:{chase_id}:{key}"))
        return self.submit(RANDOM_HAZARDS, params, chase_id=str(chase_id), job_id=job_id)

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
            self.queue.dispatch(job_id, LANES[job["kind"]], number)
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

    def wait(self, job_id: str, timeout: float, chase_id: UUID | None = None, poll: float = 0.05) -> dict[str, Any]:
        """The job once done or failed, or as it is after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            job = self.get(job_id, chase_id)
            if job["status"] in FINAL or time.monotonic() >= deadline:
                return job
            time.sleep(min(poll, max(0.0, deadline - time.monotonic())))

    def frames(self, job_id: str, chase_id: UUID, after: int = 0, limit: int = 100) -> list[dict[str, Any]]:
        job = self.get(job_id, chase_id)
        if job["kind"] != REPLAY:
            raise JobNotFound(f"job {job_id} is not a replay")
        return self.store.frames(job_id, after, limit)

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
        worker (lease expired); returns how many were sent."""
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
        return sent

    def _require_chase(self, chase_id: UUID) -> None:
        if not self.ledger.recorder.select_events(chase_id, limit=1):
            raise ChaseNotFound(f"no chase {chase_id}")


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
        "error": job["error"],
        "created_at": job["created_at"],
        "updated_at": job["updated_at"],
    }


def describe_error(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}"[:2000]


# -- the jobs --------------------------------------------------------------------------------


class ViewRebuild:
    """Catches the views up from the log in large batches, reporting progress.

    The same compare-and-set as the live ViewUpdater: each batch moves the tracking position
    from where it was read to its last notification, in the transaction that writes its rows,
    so commands catching the views up meanwhile (read-your-writes) and this rebuild never apply
    an event twice; whoever loses a batch reads on from the new position. Between its own
    batches the rebuild keeps the chase states it folded, instead of reading them back.
    """

    def __init__(self, app: Any, count_events: EventCounter, batch: int = 20_000, throttle: float = 0.0) -> None:
        self.app = app
        self.count_events = count_events
        self.batch = batch
        self.throttle = throttle

    def run(self, progress: Callable[[int, int], None] = lambda done, total: None) -> dict[str, Any]:
        views, name = self.app.views, self.app.name
        states: dict[UUID, Any] = {}
        valid_at: int | None = -1  # the position ``states`` is valid at (-1: none yet)
        done, total = 0, self.count_events()
        batches = lost = 0
        while True:
            previous = views.max_tracking_id(name)
            if previous != valid_at:
                states = {}  # someone else moved the position (or this is the start): recount
                done = self.count_events(previous) if previous else 0
            with paused_gc():
                notifications = self.app.recorder.select_notifications(start=(previous or 0) + 1, limit=self.batch)
                if not notifications:
                    break
                events = [self.app.mapper.to_domain_event(n) for n in notifications]
                tracks, rolls, marks, folded = self._project(events, states)
                del events
            try:
                views.save_views(tracks, rolls, marks, name, notifications[-1].id, previous)
            except IntegrityError:
                lost += 1
                states, valid_at = {}, -1
                continue
            batches += 1
            states = folded if len(folded) <= STATE_CACHE else {}
            valid_at = notifications[-1].id
            done += len(notifications)
            if done > total:
                total = self.count_events()
            progress(done, max(total, done))
            if self.throttle:
                time.sleep(self.throttle)
        position = views.max_tracking_id(name) or 0
        done = self.count_events(position) if position else 0
        progress(done, done)
        return {"events": done, "notification_id": position, "batches": batches, "batches_lost_to_others": lost}

    def _project(self, events: list[Any], cached: dict[UUID, Any]) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]], dict[UUID, Any]]:
        updater = self.app.updater
        last = {e.originator_id: i for i, e in enumerate(events)}  # each chase's last event in the batch
        missing = [str(chase_id) for chase_id in last.keys() - cached.keys()]
        states = dict(cached)
        if missing:
            states.update({UUID(cid): updater._thaw(cid, saved) for cid, saved in self.app.views.track_states(missing).items()})
        rolls: list[dict[str, Any]] = []
        marks: list[dict[str, Any]] = []
        for i, event in enumerate(events):
            chase_id = event.originator_id
            state = states.get(chase_id)
            if state is not None and state.version >= event.originator_version:
                continue  # already in the views (save_views will refuse the batch)
            # Only the chase's last event of the batch is hashed for its chain head: the hashes
            # in between would be overwritten unread (the live updater hashes every event).
            if last[chase_id] != i and hasattr(event, "mutate_unchained"):
                states[chase_id] = event.mutate_unchained(state)
            else:
                states[chase_id] = event.mutate(state)
            row = roll_row(event)
            if row:
                rolls.append(row)
            if getattr(event, "meta", True):  # only record events (undo, rewind, redo) mark rolls
                marks += roll_marks(event)
        tracks = {str(chase_id): updater._freeze(states[chase_id]) for chase_id in last if chase_id in states}
        return tracks, rolls, marks, states


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while a batch is read and folded, then collect.

    Decoding a batch allocates hundreds of thousands of objects, and each allocation burst
    made the collector traverse everything alive (the folded chase states, the batch itself):
    with it running, reading the log inside a rebuild took half as long again as the same read
    outside one (bench/rebuild.py). Events and states hold no reference cycles worth chasing
    mid-batch; reference counting frees them, and the young generation is collected after.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
            gc.collect(0)


def rebuild(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
    """Clear the views (once per job, even when resumed) and rebuild them from the log."""
    if not run.state.get("cleared"):
        ledger.views.clear(ledger.name)
        run.save_state(cleared=True)
    s = run.jobs.settings
    result = ViewRebuild(ledger, run.jobs.count_events, s.rebuild_batch, s.rebuild_throttle).run(
        lambda done, total: run.progress(done, total)
    )
    run.progress(result["events"], result["events"], force=True)
    return {"views": list(VIEW_NAMES), **result}


def replay(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
    """Fold the chase event by event into fresh views, one stored frame per event.

    A front-end steps through the frames, or streams them at a pace it chooses. Resumes after
    the last stored frame; frames are stored by step, so a step written twice is kept once.
    """
    chase_id = UUID(params["chase_id"])
    events = list(ledger.events.get(chase_id))
    if not events:
        raise ChaseNotFound(f"no chase {chase_id}")
    total = len(events)
    start = run.store.last_frame(run.job_id)
    state, _ = fold(events[:start])
    frames: list[dict[str, Any]] = []
    for step, event in enumerate(events[start:], start + 1):
        state = event.mutate(state)
        frames.append({"step": step, "version": event.originator_version, "event": describe(event), "views": render_all(state)})
        if len(frames) >= FRAME_BATCH:
            run.store.add_frames(run.job_id, frames)
            frames = []
            run.progress(step, total)
    if frames:
        run.store.add_frames(run.job_id, frames)
    run.progress(total, total, force=True)
    return {"chase_id": str(chase_id), "frames": total, "version": events[-1].originator_version}


def check(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
    """Re-run the chase's state at every version and compare the views.

    At every version, the views rendered from the state replayed event by event from the first
    event are compared with those rendered from the state as the application loads it (the
    latest snapshot at or before that version, then the events after it). At the end, the
    replayed views and roll history are compared with the live ones (the read models).
    """
    chase_id = UUID(params["chase_id"])
    replayed_events = list(ledger.events.get(chase_id))
    if not replayed_events:
        raise ChaseNotFound(f"no chase {chase_id}")
    loaded_events = list(ledger.events.get(chase_id))  # other objects: the two folds share nothing
    snapshots = {s.originator_version: s for s in ledger.snapshots.get(chase_id)} if ledger.snapshots else {}
    total = len(replayed_events)
    mismatches: list[dict[str, Any]] = []
    replayed = loaded = None
    rows: list[dict[str, Any]] = []
    for done, (event, twin) in enumerate(zip(replayed_events, loaded_events), 1):
        replayed = event.mutate(replayed)
        row = roll_row(event)
        if row:
            rows.append(row)
        apply_marks(rows, roll_marks(event))
        version = event.originator_version
        snapshot = snapshots.get(version)
        loaded = snapshot.mutate(None) if snapshot is not None else twin.mutate(loaded)
        _compare(mismatches, version, "loaded at this version", render_all(replayed), render_all(loaded))
        if done % 200 == 0:
            run.progress(done, total)
    # The live views may have moved on while this ran: replay on to their version.
    for _ in range(10):
        live = {name: ledger.view(chase_id, name) for name in render_all(replayed)}
        live_version = live["track"]["version"]
        if live_version <= replayed.version:
            break
        for event in ledger.events.get(chase_id, gt=replayed.version, lte=live_version):
            replayed = event.mutate(replayed)
            row = roll_row(event)
            if row:
                rows.append(row)
            apply_marks(rows, roll_marks(event))
    _compare(mismatches, replayed.version, "live", render_all(replayed), live)
    live_rolls = [r for r in ledger.rolls(chase_id) if r["version"] <= replayed.version]
    if live_rolls != rows:
        mismatches.append({"version": replayed.version, "against": "live", "views": ["rolls"]})
    run.progress(total, total, force=True)
    return {
        "chase_id": str(chase_id),
        "versions_checked": total,
        "live_version": replayed.version,
        "snapshots_checked": len(snapshots),
        "equal": not mismatches,
        "mismatches": mismatches[:MAX_MISMATCHES],
        "mismatch_count": len(mismatches),
    }


def _compare(mismatches: list[dict[str, Any]], version: int, against: str, replayed: dict[str, Any], other: dict[str, Any]) -> None:
    differ = sorted(name for name in set(replayed) | set(other) if replayed.get(name) != other.get(name))
    if differ:
        mismatches.append({"version": version, "against": against, "views": differ})


class TableDiceRolls:
    """Faces entered at the table for several rolls in a row, taken roll by roll (each roll's
    faces checked like TableDice); faces left over are refused."""

    def __init__(self, faces: Sequence[int], entered_by: str = "keeper") -> None:
        self.left = list(faces)
        self.entered_by = entered_by

    def draw(self, sequence: int, dice: Sequence[Any]) -> Any:
        taken, self.left = self.left[: len(dice)], self.left[len(dice):]
        return TableDice(taken, self.entered_by).draw(sequence, dice)

    def finish(self) -> None:
        if self.left:
            raise InvalidTableDice(f"{len(self.left)} faces were entered beyond those the rolls take")


def random_hazards(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
    """Roll the random hazards table (the server dice, or faces entered at the table);
    recorded once per idempotency key."""
    chase_id, key = UUID(params["chase_id"]), params["key"]
    faces = params.get("table_dice")

    def command(chase: Any) -> list[dict[str, Any]]:
        dice = TableDiceRolls(faces) if faces is not None else ledger._dice(chase, DiceChoice(source="server"))
        records = chase.roll_random_hazards(
            dice, key, params["locations"], params["environment"], params.get("from_location"), params.get("by", "keeper")
        )
        if isinstance(dice, TableDiceRolls):
            dice.finish()
        return records

    try:
        ledger._execute(chase_id, None, command)
        recorded_now = True
    except RandomHazardsAlreadyRolled:
        recorded_now = False  # an earlier run recorded them: report what it recorded
    sequences = set(used_keys(ledger._chase(chase_id)).get(key, []))
    rolls = [r for r in ledger.rolls(chase_id) if r["sequence"] in sequences]  # catches the views up too
    return {
        "chase_id": str(chase_id),
        "key": key,
        "recorded_now": recorded_now,
        "rolls": [
            {"sequence": r["sequence"], "version": r["version"], "location": r["roll"].get("location"),
             "result": r["roll"]["result"], "outcome": r["roll"]["outcome"], "undone": r["undone"]}
            for r in rolls
        ],
    }

