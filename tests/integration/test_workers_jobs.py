"""Jobs on real workers, PostgreSQL and Redis: exactly once, retried with backoff, and riding
out a Redis outage; and the projection runner keeping the views current on its own.
"""
# ruff: noqa: F811 - the fixtures imported from workers_support are used as test arguments
from __future__ import annotations

import signal
from typing import Any
from uuid import UUID

import pytest

from api import create_app
from infrastructure import process
from infrastructure.queues import queue_names
from infrastructure.rq_workers import run_worker
from tests.conftest import ChaseClient
from tests.integration.workers_support import (  # noqa: F401 - fixtures
    clean_jobs,
    ledgers,
    own_redis,
    processes,
    redis_url,
    wait_for_job,
    wait_until,
    worker_env,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def hazard_events(pg: Any, chase_id: str) -> list[tuple[int, str]]:
    return pg.execute(
        "SELECT originator_version, topic FROM chaseledger_events WHERE originator_id = %s AND topic = 'coc7e:Chase.RandomHazardRolled' "
        "ORDER BY originator_version",
        (chase_id,),
    ).fetchall()


def keeper_over_http(ledger: Any) -> ChaseClient:
    app = create_app(lambda: ledger)
    app.config["TESTING"] = True
    return ChaseClient(app.test_client())


def test_a_random_hazard_job_enqueued_twice_records_once(postgres_env, redis_url, clean_jobs, processes, ledgers, pg):
    env = worker_env(postgres_env, redis_url)
    ledger = ledgers(env)
    processes.chase(env, "worker", name="first")
    processes.chase(env, "worker", name="second")
    keeper = keeper_over_http(ledger)
    keeper.create("Rush hour in Arkham", dice="server")

    # The front-end sends the request twice (a retry after a timeout), same key: one job.
    body = {"locations": 3, "environment": "hazardous", "from_location": 2}
    first = keeper.ok(keeper.post("/random-hazards", body, headers={"Idempotency-Key": "arkham-7"}), 202)["job"]
    again = keeper.ok(keeper.post("/random-hazards", body, headers={"Idempotency-Key": "arkham-7"}), 202)["job"]
    assert again["job_id"] == first["job_id"]
    # And the job itself is enqueued twice more on RQ, for both workers to take at once.
    for dispatch in (101, 102):
        ledger.jobs.queue.dispatch(first["job_id"], "interactive", dispatch)
    # A second job with the same key (submitted some other way) runs the command again too.
    twin = ledger.jobs.submit("random_hazards", dict(first["params"], table_dice=None), chase_id=keeper.chase_id)
    assert twin["job_id"] != first["job_id"]

    done = wait_for_job(ledger, first["job_id"])
    twin_done = wait_for_job(ledger, twin["job_id"])

    assert done["status"] == "done" and twin_done["status"] == "done"
    assert len(hazard_events(pg, keeper.chase_id)) == 3  # recorded once
    assert [r["sequence"] for r in done["result"]["rolls"]] == [1, 2, 3]
    assert twin_done["result"]["rolls"] == done["result"]["rolls"]
    assert {done["result"]["recorded_now"], twin_done["result"]["recorded_now"]} == {True, False}
    rolls = keeper.rolls()
    assert [(r["roll"]["location"], r["roll"]["outcome"]) for r in rolls] == [(r["location"], r["outcome"]) for r in done["result"]["rolls"]]


def test_commands_succeed_while_redis_is_down_and_jobs_run_once_it_is_back(postgres_env, own_redis, clean_jobs, processes, ledgers, pg):
    env = worker_env(postgres_env, own_redis.url)
    ledger = ledgers(env)
    processes.chase(env, "worker")
    keeper = keeper_over_http(ledger)
    keeper.create("Through the storm", dice="server")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)
    keeper.add(name="Farmer", role="pursuer", dex=50, con=55, mov=6)
    keeper.speed_roll("Harvey", [40, 0])
    keeper.speed_roll("Farmer", [40, 0])
    keeper.cut()
    before = keeper.ok(keeper.post("/random-hazards", {"locations": 1}, headers={"Idempotency-Key": "before"}), 202)["job"]
    assert wait_for_job(ledger, before["job_id"])["status"] == "done"

    own_redis.stop()  # Redis goes away; the table plays on
    version = keeper.track()["version"]
    for n in range(6):
        keeper.ok(keeper.post("/dice-rolls", {"expression": "1D6", "purpose": f"while Redis is down {n}"}))
        chase = keeper.track()
        who = next(name for name, pid in keeper.ids.items() if pid == chase["whose_turn"])
        keeper.move(who)
    during = keeper.post("/random-hazards", {"locations": 2}, headers={"Idempotency-Key": "during"})
    assert during.status_code == 202
    job = during.get_json()["job"]
    assert job["status"] == "pending"  # recorded, not yet sent: Redis is down
    assert keeper.track()["version"] > version + 12

    own_redis.start()  # back, empty: the pending job is sent again by the worker's sweeper
    done = wait_for_job(ledger, job["job_id"], timeout=60)

    assert done["status"] == "done", (done, processes.log(processes.started[0]))
    assert len(hazard_events(pg, keeper.chase_id)) == 3  # 1 before, 2 during: each once
    assert done["result"]["recorded_now"] is True


def test_a_failed_attempt_is_retried_by_rq_with_backoff(postgres_env, redis_url, clean_jobs, ledgers):
    env = worker_env(postgres_env, redis_url, CHASE_LEDGER_JOB_BACKOFF="1")
    ledger = ledgers(env)
    chase_id = UUID(ledger.create_chase("Flaky")["chase_id"])
    calls: list[int] = []

    def flaky(ledger: Any, run: Any, params: dict[str, Any]) -> dict[str, Any]:
        calls.append(run.job["attempts"])
        if len(calls) == 1:
            raise ConnectionError("the database restarted")
        return {"ok": True}

    ledger.jobs.handlers["check"] = flaky
    names = queue_names(ledger.worker.prefix)
    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    process.use_as_process_ledger(ledger)  # RQ runs the job with this process's ledger
    try:
        job = ledger.jobs.check(chase_id)
        run_worker(ledger.worker.redis_url, names, burst=True)  # the first attempt fails
        assert ledger.jobs.get(job["job_id"])["status"] == "retrying"
        from rq import Queue
        from rq.registry import ScheduledJobRegistry

        queue = Queue(names[1], connection=ledger.jobs.queue.connection)
        assert ScheduledJobRegistry(queue=queue).get_job_ids() == [f"{job['job_id']}-1"]  # RQ Retry, not at once

        from infrastructure.rq_workers import ThreadScheduler

        wait_until(lambda: ScheduledJobRegistry(queue=queue).get_jobs_to_schedule(), 5)
        scheduler = ThreadScheduler([queue], connection=ledger.jobs.queue.connection)
        scheduler.acquire_locks()
        scheduler.enqueue_scheduled_jobs()
        scheduler.release_locks()
        run_worker(ledger.worker.redis_url, names, burst=True)  # the retry succeeds
    finally:
        process._process.clear()
        for sig, handler in handlers.items():
            signal.signal(sig, handler)

    assert calls == [1, 2]
    done = ledger.jobs.get(job["job_id"])
    assert done["status"] == "done" and done["attempts"] == 2 and done["result"] == {"ok": True}


def test_the_projection_runner_keeps_the_views_current_on_its_own(postgres_env, redis_url, clean_jobs, processes, ledgers):
    env = worker_env(postgres_env, redis_url)
    ledger = ledgers(env)
    runner = processes.chase(env, "project", name="project")
    chase_id = UUID(ledger.create_chase("Followed")["chase_id"])
    assert wait_until(lambda: ledger.views.max_tracking_id(ledger.name) == ledger.recorder.max_notification_id(), 20)

    # Events saved without any command catching the views up (as a job or another service would).
    chase = ledger.runner.load(chase_id)
    chase.add_participant("p1", {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
    chase.roll_dice(ledger.dice.dice(chase, __import__("application.dice", fromlist=["DiceChoice"]).DiceChoice()), "1D6")
    ledger.save(chase)
    newest = ledger.recorder.max_notification_id()

    assert wait_until(lambda: ledger.views.max_tracking_id(ledger.name) == newest, 10), processes.log(runner)
    assert ledger.views.chase_view(str(chase_id), "track")["version"] == 3
    assert len(ledger.views.roll_history(str(chase_id), {})) == 1
    processes.kill(runner, signal.SIGTERM)
    assert runner.returncode == 0
