"""Helpers for the worker tests (tests/integration/test_workers_*.py): Redis, worker processes.

Workers are real ``chase worker`` processes, each in its own process group so that a test can
SIGKILL one (and its children) by id. Each test gets its own queue and channel prefix on the
shared Redis (127.0.0.1:6379), so tests never take each other's jobs; the outage test starts
its own redis-server on port 6390 and stops it, never touching the shared one.

Like PostgreSQL, Redis tests skip with a reason when no server answers, and fail when CI=true.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import pytest
import redis

from application.dice import DiceChoice

ROOT = Path(__file__).resolve().parents[2]
REDIS_URL = "redis://127.0.0.1:6379/0"
OWN_TABLES = ("chase_jobs", "chase_replay_frames")
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 6}


def unreachable(reason: str) -> None:
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason}; CI=true, so these tests must run, not skip", pytrace=False)
    pytest.skip(reason)


def redis_answers(url: str) -> str | None:
    try:
        redis.Redis.from_url(url, socket_connect_timeout=1).ping()
    except redis.RedisError as e:
        return f"Redis not reachable at {url} ({type(e).__name__}: {e})"
    return None


@pytest.fixture
def redis_url() -> str:
    reason = redis_answers(REDIS_URL)
    if reason:
        unreachable(reason)
    return REDIS_URL


@pytest.fixture
def clean_jobs(pg: Any) -> None:
    """The job tables too (tests/integration/conftest.py drops the others)."""
    from psycopg.sql import SQL, Identifier

    for table in OWN_TABLES:
        pg.execute(SQL("DROP TABLE IF EXISTS {0}.{1} CASCADE").format(Identifier("public"), Identifier(table)))


@pytest.fixture
def ledgers() -> Iterator[Callable[[dict[str, str]], Any]]:
    """Builds ledgers (API processes of the test) from an environment; all closed after."""
    from infrastructure.bootstrap import build_ledger

    built: list[Any] = []

    def build(env: dict[str, str]) -> Any:
        built.append(build_ledger(env))
        return built[-1]

    yield build
    for ledger in reversed(built):
        ledger.close()


def worker_env(postgres_env: dict[str, str], redis: str, **extra: str) -> dict[str, str]:
    """The environment of the test's API ledger and of its workers."""
    return {
        **postgres_env,
        "REDIS_URL": redis,
        "CHASE_LEDGER_QUEUE_PREFIX": f"test-{uuid4().hex[:10]}",
        "CHASE_LEDGER_JOB_LEASE": "2",
        "CHASE_LEDGER_SWEEP_INTERVAL": "0.3",
        "CHASE_LEDGER_JOB_GRACE": "1",
        "CHASE_LEDGER_JOB_BACKOFF": "1,1,1,1",
        "CHASE_LEDGER_STREAM_POLL": "0.2",
        "CHASE_LEDGER_STREAM_HEARTBEAT": "0.3",
        **extra,
    }


class Processes:
    """Processes a test started, each in its own group; all stopped at the end of the test."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.started: list[subprocess.Popen[bytes]] = []

    def chase(self, env: dict[str, str], *args: str, name: str = "worker") -> subprocess.Popen[bytes]:
        """Start ``chase <args>`` (e.g. ``worker``) with ``env`` on top of this environment."""
        log = open(self.tmp_path / f"{name}-{len(self.started)}.log", "wb")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(
            [sys.executable, "-c", "import sys; from infrastructure.cli import main; sys.exit(main())", *args],
            cwd=ROOT, env={**os.environ, **env, "PYTHONUNBUFFERED": "1"}, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        process.log_file = log  # type: ignore[attr-defined]
        self.started.append(process)
        return process

    def kill(self, process: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
        """Signal the process's whole group (the worker and anything it started)."""
        if process.poll() is None:
            os.killpg(process.pid, sig)
        process.wait(timeout=15)

    def log(self, process: subprocess.Popen[bytes]) -> str:
        process.log_file.flush()  # type: ignore[attr-defined]
        return Path(process.log_file.name).read_text(errors="replace")  # type: ignore[attr-defined]

    def stop_all(self) -> None:
        for process in self.started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=5)
            process.log_file.close()  # type: ignore[attr-defined]


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[Processes]:
    started = Processes(tmp_path)
    yield started
    started.stop_all()


class RedisServer:
    """A redis-server of the test's own, on its own port, that the test stops and starts."""

    def __init__(self, port: int, tmp_path: Path) -> None:
        self.port = port
        self.dir = tmp_path
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            unreachable("redis-server is not installed: the outage test starts one of its own")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(self.dir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        if not wait_until(lambda: redis_answers(self.url) is None, 10):
            self.stop()
            unreachable(f"could not start redis-server on port {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    server = RedisServer(6390, tmp_path)
    if redis_answers(server.url) is None:
        unreachable("port 6390 is already taken by another Redis: the outage test needs it for its own")
    server.start()
    yield server
    server.stop()


def wait_until(predicate: Callable[[], Any], timeout: float, poll: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(poll)
    return predicate()


def wait_for_job(ledger: Any, job_id: str, timeout: float = 60, status: tuple[str, ...] = ("done", "failed")) -> dict[str, Any]:
    job = wait_until(lambda: (j := ledger.jobs.get(job_id))["status"] in status and j, timeout)
    assert job, f"job {job_id} still {ledger.jobs.get(job_id)['status']} after {timeout}s"
    return job


# -- a long history ----------------------------------------------------------------------------------


def record_history(ledger: Any, events: int, chases: int = 10) -> list[UUID]:
    """About ``events`` events over ``chases`` chases, as tables play them: each turn a 1D6 roll,
    a move and end-turn, commands of the chases interleaved; then undos and a redo here and
    there, so that some rolls are marked undone (and one redone)."""
    ids = []
    for n in range(chases):
        chase_id = UUID(ledger.create_chase(f"Chase {n}", dice="server")["chase_id"])
        harvey, _ = ledger.commands["coc7e"].add_participant(chase_id, dict(HARVEY))
        farmer, _ = ledger.commands["coc7e"].add_participant(chase_id, dict(FARMER))
        ledger.commands["coc7e"].roll_speed(chase_id, harvey, DiceChoice(faces=[40, 0]))
        ledger.commands["coc7e"].roll_speed(chase_id, farmer, DiceChoice(faces=[40, 0]))
        ledger.commands["coc7e"].cut_to_the_chase(chase_id)
        ids.append(chase_id)
    per_chase = max(-(-events // chases), 1)  # at least ``events`` in all
    steps = {chase_id: 0 for chase_id in ids}
    while any(ledger.repository.get(c).version < per_chase for c in ids):
        for chase_id in ids:
            chase = ledger.repository.get(chase_id)
            dice = ledger.dice.dice(chase, DiceChoice())
            for _ in range(30):  # commands per save
                if chase.version >= per_chase:
                    break
                who = chase.whose_turn
                step = steps[chase_id] % 3
                if step == 0:
                    chase.roll_dice(dice, "1D6", None, "history")
                elif step == 1:
                    chase.move(who, 1)
                else:
                    chase.end_turn(who) if chase.whose_turn == who else chase.roll_dice(dice, "1D6", None, "history")
                steps[chase_id] += 1
            ledger.save(chase)
    for n, chase_id in enumerate(ids):  # the record's own events, with roll marks to replay
        for _ in range(2):
            ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose="to undo", dice=DiceChoice())
        ledger.history.undo(chase_id, 2)
        if n % 2:
            ledger.history.redo(chase_id)
    ledger.updater.catch_up()
    return ids


def live_views(ledger: Any, chase_ids: list[UUID]) -> dict[str, Any]:
    return {str(c): (ledger.track(c), ledger.vehicles(c), ledger.rolls(c)) for c in chase_ids}
