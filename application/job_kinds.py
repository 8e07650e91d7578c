"""What each of the core's kinds of background job does: rebuild the views, replay or check a chase.

The machinery that submits, claims, retries and sweeps them is in application/jobs.py; a game
system adds its own kinds (GameSystem.job_kinds, such as coc7e's random hazards).
"""
from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from uuid import UUID

from application.analytics.service import REPORT_JOB, facts_of, report_job
from application.history import chain_encoding, describe
from application.job_ports import EventCounter
from application.job_run import VIEW_NAMES, JobRun
from application.plugins import JobKind
from application.ports import PositionMoved
from application.projections.rolls import apply_marks, roll_marks, roll_row
from application.replay_frames import stored_frame
from application.runner import ChaseNotFound
from application.views import fold

log = logging.getLogger(__name__)

FRAME_BATCH = 100  # replay frames stored per write
MAX_MISMATCHES = 20  # listed in a check's result
STATE_CACHE = 5_000  # chase states a rebuild keeps in memory between batches


class ViewRebuild:
    """Catches the views up from the log in large batches, reporting progress.

    The projector's batches (application/projector.py): each moves the tracking position from
    where it was read to its last notification, in the transaction that writes its rows, and
    each chase's write is a compare-and-set on its view version, so commands writing their
    chase's views meanwhile (read-your-writes) and this rebuild never apply an event twice; a
    chase that cannot be projected is set aside and the rebuild goes on. Between its own
    batches the rebuild keeps the chase states it folded, instead of loading them again.
    """

    def __init__(self, app: Any, count_events: EventCounter, batch: int = 20_000, throttle: float = 0.0) -> None:
        self.app = app
        self.count_events = count_events
        self.batch = batch
        self.throttle = throttle

    def run(self, progress: Callable[[int, int], None] = lambda done, total: None) -> dict[str, Any]:
        views, name = self.app.views, self.app.name
        states: dict[str, Any] = {}
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
                try:
                    self.app.updater.project(notifications, previous, states, unchained=True)
                except PositionMoved:
                    lost += 1
                    states, valid_at = {}, -1
                    continue
            batches += 1
            if len(states) > STATE_CACHE:
                states = {}
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
        return {"events": done, "notification_id": position, "batches": batches, "batches_lost_to_others": lost,
                "set_aside": len(views.set_aside_chases())}


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
    Most frames store only what changed in the views (application/replay_frames.py).
    """
    chase_id = UUID(params["chase_id"])
    events = list(ledger.events.get(chase_id))
    if not events:
        raise ChaseNotFound(f"no chase {chase_id}")
    total = len(events)
    start = run.store.last_frame(run.job_id)
    state, _ = fold(events[:start])
    frames: list[dict[str, Any]] = []
    encoding = chain_encoding(events[0])
    before = ledger.renderers.all(state) if start else None
    for step, event in enumerate(events[start:], start + 1):
        state = event.mutate(state)
        views = ledger.renderers.all(state)
        frames.append(stored_frame(step, event.originator_version, describe(event, encoding), views, before))
        before = views
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
    replayed views and roll history are compared with the live ones (the read models), and the
    analytics facts made again from the events with the kept ones.
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
        _compare(mismatches, version, "loaded at this version", ledger.renderers.all(replayed), ledger.renderers.all(loaded))
        if done % 200 == 0:
            run.progress(done, total)
    # The live views may have moved on while this ran: replay on to their version.
    for _ in range(10):
        # As stored, not as this process remembers writing it: what any process would serve.
        live = {name: ledger.read_side.view(chase_id, name, stored=True) for name in ledger.renderers.all(replayed)}
        live_version = live["track"]["version"]
        if live_version <= replayed.version:
            break
        for event in ledger.events.get(chase_id, gt=replayed.version, lte=live_version):
            replayed = event.mutate(replayed)
            row = roll_row(event)
            if row:
                rows.append(row)
            apply_marks(rows, roll_marks(event))
    _compare(mismatches, replayed.version, "live", ledger.renderers.all(replayed), live)
    live_rolls = [r for r in ledger.rolls(chase_id) if r["version"] <= replayed.version]
    if live_rolls != rows:
        mismatches.append({"version": replayed.version, "against": "live", "views": ["rolls"]})
    # The analytics facts made again from the events, against the kept ones (a set-aside chase
    # keeps none until it is projected again: nothing to compare).
    kept = [f for f in ledger.views.analytics_facts([str(chase_id)]) if f["version"] <= replayed.version]
    if kept and kept != facts_of(ledger.events.get(chase_id, lte=replayed.version), ledger.renderers.facts):
        mismatches.append({"version": replayed.version, "against": "live", "views": ["analytics facts"]})
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


# Lanes (queues): quick jobs a player waits for never wait behind a rebuild of every view.
CORE_KINDS = {
    "rebuild": JobKind(rebuild, "batch"),
    "replay": JobKind(replay, "interactive"),
    "check": JobKind(check, "batch"),
    REPORT_JOB: JobKind(report_job, "batch"),  # a session's or campaign's analytics (application/analytics/service.py)
}
