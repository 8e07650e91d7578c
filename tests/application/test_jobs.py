"""Background jobs on the embedded default (SQLite, inline executor): exactly-once effects.

Rebuilds resume from the views' tracking position, replays from their last frame, random
hazards are recorded once per idempotency key; a job outlives the worker running it (lease),
and the queue being away (Redis down) only delays it.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

import pytest

from application.dice import DiceChoice
from application.job_kinds import ViewRebuild
from application.jobs import JobRun, Jobs, JobSettings
from application.job_ports import JobQueueUnavailable
from application.systems.coc7e.hazards import roll_random_hazards
from infrastructure.bootstrap import build_ledger
from infrastructure.job_store import SQLiteEventCounter
from tests.application.test_views_and_snapshots import play_long_chase


class Clock:
    """A clock the test moves by hand (leases expire when the test says so)."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class FlakyQueue:
    """A queue that is away until ``up`` is set, and records what it was sent."""

    def __init__(self) -> None:
        self.up = False
        self.sent: list[tuple[str, str, int]] = []

    def dispatch(self, job_id: str, lane: str, dispatch: int) -> None:
        if not self.up:
            raise JobQueueUnavailable("Redis is down")
        self.sent.append((job_id, lane, dispatch))

    def holds(self, job_id: str, dispatch: int) -> bool | None:
        return False


def jobs_with(ledger: Any, queue: Any, clock: Clock | None = None, **settings: Any) -> Jobs:
    """Another Jobs service on the same ledger and store, with its own queue and clock."""
    return Jobs(ledger, ledger.jobs.store, queue, SQLiteEventCounter(ledger.recorder),
                JobSettings(heartbeat=False, **settings), worker_name="test-worker", clock=clock or Clock())


def views_of(ledger: Any, chase_ids: list[UUID]) -> dict[str, Any]:
    return {str(c): (ledger.track(c), ledger.vehicles(c), ledger.rolls(c)) for c in chase_ids}


# -- random hazards ----------------------------------------------------------------------------


def hazard_events(ledger: Any, chase_id: UUID) -> list[Any]:
    return [e for e in ledger.events.get(chase_id) if type(e).__name__ == "RandomHazardRolled"]


def test_a_random_hazards_job_records_one_roll_per_location_with_the_chase_dice(ledger):
    chase_id = UUID(ledger.create_chase("Rush hour", dice="server")["chase_id"])

    job = roll_random_hazards(ledger.jobs, chase_id, "round-1", locations=3, environment="hazardous", from_location=4)

    assert job["status"] == "done", job
    rolls = job["result"]["rolls"]
    assert [r["location"] for r in rolls] == [4, 5, 6]
    events = hazard_events(ledger, chase_id)
    assert [e.roll["sequence"] for e in events] == [1, 2, 3]
    for event, roll in zip(events, rolls):
        assert event.key == "round-1" and event.roll["source"]["kind"] == "server"
        assert len(event.roll["tens"]) == 2 and event.roll["penalty_dice"] == 1  # the penalty die
        assert event.outcome == roll["outcome"] and event.roll["result"] == roll["result"]
    # The rolls are in the roll history like any other.
    assert [r["sequence"] for r in ledger.rolls(chase_id)] == [1, 2, 3]


def test_the_same_key_submits_the_same_job_and_records_once(ledger):
    chase_id = UUID(ledger.create_chase("Twice")["chase_id"])

    first = roll_random_hazards(ledger.jobs, chase_id, "k", locations=2)
    again = roll_random_hazards(ledger.jobs, chase_id, "k", locations=2)

    assert again["job_id"] == first["job_id"]
    assert len(hazard_events(ledger, chase_id)) == 2
    assert again["result"] == first["result"]


def test_a_job_run_twice_records_once_and_reports_what_was_recorded(ledger):
    # Given the job ran and recorded its rolls, but its "done" was never written (the worker
    # died just after the commit): another job with the same key runs the command again.
    chase_id = UUID(ledger.create_chase("Run twice")["chase_id"])
    done = roll_random_hazards(ledger.jobs, chase_id, "k", locations=3)
    params = dict(done["params"], table_dice=None)
    rerun = ledger.jobs.submit("random_hazards", params, chase_id=str(chase_id))

    # Then the chase refused the key: nothing new, and the same rolls are reported.
    assert rerun["status"] == "done"
    assert rerun["result"]["recorded_now"] is False
    assert rerun["result"]["rolls"] == done["result"]["rolls"]
    assert len(hazard_events(ledger, chase_id)) == 3


def test_an_undo_does_not_give_a_key_back(ledger):
    chase_id = UUID(ledger.create_chase("Undo")["chase_id"])
    job = roll_random_hazards(ledger.jobs, chase_id, "k", locations=1)
    ledger.history.undo(chase_id, 1)

    rerun = ledger.jobs.submit("random_hazards", dict(job["params"], table_dice=None), chase_id=str(chase_id))

    assert rerun["result"]["recorded_now"] is False
    assert rerun["result"]["rolls"][0]["undone"] is True
    assert len(hazard_events(ledger, chase_id)) == 1


def test_a_refusal_by_the_rules_fails_the_job_for_good(ledger):
    chase_id = UUID(ledger.create_chase("Over")["chase_id"])
    ledger.end_chase(chase_id, "abandoned")

    job = roll_random_hazards(ledger.jobs, chase_id, "late", locations=1, table_dice=[70, 2])

    assert job["status"] == "failed" and job["attempts"] == 1
    assert job["error"] == "RuleBroken: the chase has ended"


# -- rebuilds ----------------------------------------------------------------------------------


def test_a_rebuild_job_gives_views_identical_to_the_live_ones_with_progress(ledger):
    chases = [play_long_chase(ledger, rounds=15) for _ in range(3)]
    ledger.history.undo(chases[0], 2)
    ledger.history.redo(chases[0])
    ledger.history.undo(chases[1], 1)
    live = views_of(ledger, chases)
    events = ledger.jobs.count_events()

    job = ledger.jobs.rebuild_views(["rolls"])

    assert job["status"] == "done", job
    assert job["progress"] == {"done": events, "total": events}
    assert job["result"]["events"] == events
    assert job["result"]["views"] == ["track", "vehicles", "rolls"]  # they share one position
    assert views_of(ledger, chases) == live


def test_a_rebuild_killed_mid_way_resumes_from_its_tracking_position(ledger):
    chases = [play_long_chase(ledger, rounds=12) for _ in range(2)]
    live = views_of(ledger, chases)
    clock = Clock()
    jobs = jobs_with(ledger, FlakyQueue(), clock, rebuild_batch=50, lease=30.0)
    batches: list[int] = []

    # The first worker dies (an exception stands in for SIGKILL) after three batches.
    def dying(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
        if not run.state.get("cleared"):
            ledger.views.clear(ledger.name)
            run.save_state(cleared=True)

        def progress(done: int, total: int) -> None:
            batches.append(done)
            if len(batches) == 3:
                raise SystemExit("killed")

        return ViewRebuild(ledger, jobs.count_events, 50).run(progress)

    job = jobs.submit("rebuild", {"views": ["track"]})
    jobs.handlers["rebuild"] = dying
    with pytest.raises(SystemExit):
        jobs.execute(job["job_id"], worker="first")
    position = ledger.views.max_tracking_id(ledger.name)
    assert batches == [50, 100, 150] and position == 150
    assert jobs.store.get(job["job_id"])["status"] == "running"  # its worker is gone, lease held

    # Once the lease has expired, the sweeper sends it again and the next worker resumes it.
    from application.job_kinds import rebuild

    jobs.handlers["rebuild"] = rebuild
    jobs.queue.up = True
    clock.now += 31
    assert jobs.sweep() == 1
    done = jobs.execute(job["job_id"], worker="second")

    assert done is not None and done["events"] == ledger.jobs.count_events()
    assert done["batches"] < ledger.jobs.count_events() // 50  # it did not start over
    assert jobs.get(job["job_id"])["attempts"] == 2
    assert views_of(ledger, chases) == live


def test_commands_during_a_rebuild_are_applied_exactly_once(ledger):
    chase_id = play_long_chase(ledger, rounds=10)
    ledger.views.clear(ledger.name)
    jobs = jobs_with(ledger, FlakyQueue(), rebuild_batch=40)
    seen: list[int] = []

    # While the rebuild runs, commands write their chase's views too (read-your-writes).
    def busy(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) in (1, 2):
            ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose="during the rebuild")

    result = ViewRebuild(ledger, jobs.count_events, 40).run(busy)

    assert result["events"] == ledger.jobs.count_events()
    rolls = ledger.rolls(chase_id)
    assert [r["sequence"] for r in rolls] == list(range(1, len(rolls) + 1))  # none twice, none missing
    version = ledger.track(chase_id)["version"]
    assert ledger.track(chase_id) == ledger.history.track_at(chase_id, version)  # the log folded afresh
    assert rolls == ledger.history.rolls_at(chase_id, version)


# -- replays and checks ------------------------------------------------------------------------


def test_a_replay_stores_one_frame_per_event_with_the_views_as_they_were(ledger):
    chase_id = play_long_chase(ledger, rounds=3)
    ledger.history.undo(chase_id, 1)
    version = ledger.track(chase_id)["version"]

    job = ledger.jobs.replay(chase_id)

    assert job["status"] == "done" and job["result"]["frames"] == version
    frames = ledger.jobs.frames(job["job_id"], chase_id, after=0, limit=1000)
    assert [f["step"] for f in frames] == list(range(1, version + 1))
    for frame in frames[:: max(1, version // 7)] + frames[-1:]:
        assert frame["views"]["track"] == ledger.history.track_at(chase_id, frame["version"])
        assert frame["event"]["version"] == frame["version"]
    assert frames[-1]["event"]["name"] == "Undone"
    assert ledger.jobs.frames(job["job_id"], chase_id, after=version - 2, limit=5) == frames[-2:]


def test_a_replay_resumes_after_its_last_frame(ledger):
    chase_id = play_long_chase(ledger, rounds=2)
    jobs = jobs_with(ledger, FlakyQueue())
    job = jobs.submit("replay", {"chase_id": str(chase_id)}, chase_id=str(chase_id))
    early = ledger.jobs.store
    # A first run stored five frames before it died.
    from application.history import chain_encoding, describe
    from application.views import fold

    events = list(ledger.events.get(chase_id))
    early.add_frames(job["job_id"], [
        {"step": i, "version": i, "event": describe(e, chain_encoding(events[0])), "views": ledger.renderers.all(fold(events[:i])[0])} for i, e in enumerate(events[:5], 1)
    ])
    jobs.queue.up = True

    result = jobs.execute(job["job_id"])

    frames = jobs.store.frames(job["job_id"], 0, 1000)
    assert result["frames"] == len(events) and [f["step"] for f in frames] == list(range(1, len(events) + 1))


def test_a_check_finds_the_live_views_equal_to_a_replay_at_every_version(ledger):
    chase_id = play_long_chase(ledger, rounds=12)  # long enough for snapshots
    ledger.history.undo(chase_id, 3)
    ledger.history.redo(chase_id)

    job = ledger.jobs.check(chase_id)

    result = job["result"]
    assert result["equal"] is True, result
    assert result["versions_checked"] == ledger.track(chase_id)["version"]
    assert result["snapshots_checked"] >= 1


def test_a_check_names_a_live_view_that_does_not_match_the_log(ledger):
    chase_id = play_long_chase(ledger, rounds=2)
    with ledger.views.datastore.transaction(commit=True) as c:  # a view row damaged behind our back
        c.execute("UPDATE roll_history SET undone = 1 WHERE chase_id = ? AND sequence = 3", (str(chase_id),))

    result = ledger.jobs.check(chase_id)["result"]

    assert result["equal"] is False
    assert result["mismatches"] == [{"version": ledger.track(chase_id)["version"], "against": "live", "views": ["rolls"]}]


def test_a_check_names_analytics_facts_that_do_not_match_the_log(ledger):
    chase_id = play_long_chase(ledger, rounds=2)
    with ledger.views.datastore.transaction(commit=True) as c:  # a fact row damaged behind our back
        c.execute("UPDATE analytics_facts SET undone = 1 WHERE chase_id = ? AND kind = 'roll'", (str(chase_id),))

    result = ledger.jobs.check(chase_id)["result"]

    assert result["equal"] is False
    assert result["mismatches"] == [{"version": ledger.track(chase_id)["version"], "against": "live", "views": ["analytics facts"]}]


# -- leases, the sweeper, retries ----------------------------------------------------------------


def test_a_job_submitted_while_the_queue_is_away_is_sent_once_it_is_back(ledger):
    chase_id = UUID(ledger.create_chase("Outage")["chase_id"])
    clock = Clock()
    jobs = jobs_with(ledger, FlakyQueue(), clock, grace=10.0)

    job = roll_random_hazards(jobs, chase_id, "k", locations=1)
    assert job["status"] == "pending" and jobs.queue.sent == []
    clock.now += 11
    assert jobs.sweep() == 0  # still away: still pending
    assert jobs.get(job["job_id"])["status"] == "pending"

    jobs.queue.up = True
    clock.now += 11
    assert jobs.sweep() == 1
    assert jobs.queue.sent == [(job["job_id"], "interactive", 3)]  # the third try to send it
    assert jobs.get(job["job_id"])["status"] == "queued"
    assert jobs.execute(job["job_id"])["recorded_now"] is True


def test_a_worker_presumed_dead_stops_when_it_finds_its_lease_taken(ledger):
    chase_id = play_long_chase(ledger, rounds=2)
    clock = Clock()
    jobs = jobs_with(ledger, FlakyQueue(), clock, lease=10.0)
    jobs.queue.up = True
    job = jobs.submit("replay", {"chase_id": str(chase_id)}, chase_id=str(chase_id))
    slow = jobs.store.claim(job["job_id"], "slow", clock(), 10.0, 5)
    assert slow is not None

    clock.now += 11  # the slow worker missed its renewals
    assert jobs.sweep() == 1
    assert jobs.execute(job["job_id"], worker="fresh")["frames"] > 0

    # The slow worker wakes up: its lease is gone, so it may not renew, finish or fail the job.
    run = JobRun(jobs, slow, "slow")
    from application.jobs import LeaseLost

    with pytest.raises(LeaseLost):
        run.progress(1, 2, force=True)
    assert not jobs.store.finish(job["job_id"], "slow", clock(), {"frames": -1})
    assert jobs.get(job["job_id"])["result"]["frames"] > 0


def test_a_failed_attempt_is_retried_and_gives_up_after_the_last(ledger):
    chase_id = play_long_chase(ledger, rounds=1)
    jobs = jobs_with(ledger, FlakyQueue(), max_attempts=3)
    jobs.queue.up = True
    calls: list[int] = []

    def flaky(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
        calls.append(run.job["attempts"])
        if len(calls) < 2:
            raise ConnectionError("database restarting")
        return {"ok": True}

    jobs.handlers["check"] = flaky
    job = jobs.submit("check", {"chase_id": str(chase_id)}, chase_id=str(chase_id))
    with pytest.raises(ConnectionError):
        jobs.execute(job["job_id"])
    assert jobs.get(job["job_id"])["status"] == "retrying"
    assert jobs.execute(job["job_id"]) == {"ok": True}
    assert calls == [1, 2] and jobs.get(job["job_id"])["status"] == "done"

    def broken(ledger: Any, run: JobRun, params: dict[str, Any]) -> dict[str, Any]:
        raise ConnectionError("still down")

    jobs.handlers["check"] = broken
    other = jobs.submit("check", {"chase_id": str(chase_id)}, chase_id=str(chase_id))
    for _ in range(3):
        with pytest.raises(ConnectionError):
            jobs.execute(other["job_id"])
    assert jobs.execute(other["job_id"]) is None
    final = jobs.get(other["job_id"])
    assert final["status"] == "failed" and final["attempts"] == 3 and final["error"] == "ConnectionError: still down"


def test_the_inline_executor_runs_jobs_in_the_background_on_a_file(tmp_path):
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    ledger = build_ledger(env)
    try:
        chase_id = UUID(ledger.create_chase("Background", dice="server")["chase_id"])
        ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
        job = ledger.jobs.rebuild_views()
        assert job["status"] in ("queued", "running", "done")
        done = ledger.jobs.wait(job["job_id"], timeout=10)
        assert done["status"] == "done" and done["result"]["events"] == 2
    finally:
        ledger.close()
