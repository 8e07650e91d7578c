"""View rebuilds run by real ``chase worker`` processes on RQ, against PostgreSQL and Redis.

A rebuild clears the views and replays the log into them; its tracking position is written with
each batch of rows, so a worker killed mid-rebuild leaves a position the next worker resumes
from, with no event applied twice and none skipped.
"""
# ruff: noqa: F811 - the fixtures imported from workers_support are used as test arguments
from __future__ import annotations

import signal
from typing import Any

import pytest

from api import create_app
from tests.integration.workers_support import (  # noqa: F401 - fixtures
    clean_jobs,
    ledgers,
    live_views,
    processes,
    record_history,
    redis_url,
    wait_for_job,
    wait_until,
    worker_env,
)

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

EVENTS = 10_000
ADMIN = "operator-token"


def roll_rows_and_roll_events(pg: Any) -> tuple[int, int]:
    (rows,) = pg.execute("SELECT COUNT(*) FROM chase_roll_history").fetchone()
    (events,) = pg.execute(
        "SELECT COUNT(*) FROM chaseledger_events WHERE topic IN ('coc7e:Chase.DiceRolled', 'coc7e:Chase.SpeedRolled')"
    ).fetchone()
    return rows, events


def test_a_rebuild_after_10000_events_gives_views_identical_to_the_live_ones(postgres_env, redis_url, clean_jobs, processes, ledgers, pg):
    env = worker_env(postgres_env, redis_url, CHASE_LEDGER_ADMIN_TOKEN=ADMIN, CHASE_LEDGER_REBUILD_BATCH="1000",
                     CHASE_LEDGER_REBUILD_THROTTLE="0.1")
    ledger = ledgers(env)
    chases = record_history(ledger, EVENTS)
    total = ledger.jobs.count_events()
    assert total >= EVENTS
    live = live_views(ledger, chases)
    processes.chase(env, "worker")
    http = create_app(lambda: ledger).test_client()
    operator = {"Authorization": f"Bearer {ADMIN}"}

    # The operator starts the rebuild over HTTP and follows its progress there.
    accepted = http.post("/admin/rebuilds", json={"views": ["track", "vehicles", "rolls"]}, headers=operator)
    assert accepted.status_code == 202, accepted.get_json()
    seen: list[tuple[str, int, int]] = []

    def progress() -> dict[str, Any] | None:
        job = http.get(accepted.headers["Location"], headers=operator).get_json()["job"]
        seen.append((job["status"], job["progress"]["done"], job["progress"]["total"]))
        return job if job["status"] in ("done", "failed") else None

    job = wait_until(progress, 90, poll=0.1)

    assert job and job["status"] == "done", (job, processes.log(processes.started[0]))
    assert job["progress"] == {"done": total, "total": total}
    assert any(status == "running" and 0 < done < total == t for status, done, t in seen), seen  # progress as it went
    dones = [done for _, done, _ in seen]
    assert dones == sorted(dones)
    assert live_views(ledger, chases) == live
    rows, events = roll_rows_and_roll_events(pg)
    assert rows == events
    assert ledger.views.max_tracking_id(ledger.name) == ledger.recorder.max_notification_id()


def test_a_worker_killed_mid_rebuild_and_restarted_finishes_with_identical_views(postgres_env, redis_url, clean_jobs, processes, ledgers, pg):
    env = worker_env(postgres_env, redis_url, CHASE_LEDGER_REBUILD_BATCH="500", CHASE_LEDGER_REBUILD_THROTTLE="0.05")
    ledger = ledgers(env)
    chases = record_history(ledger, EVENTS)
    total = ledger.jobs.count_events()
    live = live_views(ledger, chases)
    first = processes.chase(env, "worker", name="first")

    job = ledger.jobs.rebuild_views()
    # Kill the worker (SIGKILL: no clean-up of any kind) in the middle of the rebuild.
    assert wait_until(lambda: 2_000 <= ledger.jobs.get(job["job_id"])["progress"]["done"] < total - 2_000, 60, poll=0.01), processes.log(first)
    processes.kill(first, signal.SIGKILL)
    killed_at = ledger.views.max_tracking_id(ledger.name)
    stuck = ledger.jobs.get(job["job_id"])
    assert stuck["status"] == "running" and stuck["attempts"] == 1
    assert 0 < killed_at < ledger.recorder.max_notification_id()

    # Another worker starts; once the dead one's lease expires, the job is sent again and resumed.
    second = processes.chase(env, "worker", name="second")
    done = wait_for_job(ledger, job["job_id"], timeout=90)

    assert done["status"] == "done", (done, processes.log(second))
    assert done["attempts"] == 2
    assert done["result"]["events"] == total
    assert done["result"]["batches"] < total // 500  # resumed from the position, not started over
    assert live_views(ledger, chases) == live
    rows, events = roll_rows_and_roll_events(pg)
    assert rows == events  # no roll row twice, none missing
    assert ledger.views.max_tracking_id(ledger.name) == ledger.recorder.max_notification_id()
