"""Waiting for a job holds no thread (api/job_waits.py), and waits are capped per token and address.

Measured before, under `chase serve` (2 workers x 4 threads): 24 requests
``GET /chases/<id>/jobs/<job>?wait=30`` on a job no worker had taken made another client's
``GET /health`` take 91 s; about 8 such requests every 30 s kept every thread busy.
"""
from __future__ import annotations

import json
import logging
import os
import select
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from prometheus_client.registry import REGISTRY

from tests.e2e.served_process import ROOT, ChaseServe, Client
from tests.e2e.test_stream import Served

WAITS = 24  # three times the server's threads (2 workers x 4)


def redis_url() -> str:
    url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip("Redis is not reachable")
    return url


def open_wait(port: int, path: str, token: str) -> socket.socket:
    """A client that asks to wait for the job and does not read the answer yet."""
    s = socket.create_connection(("127.0.0.1", port), timeout=60)
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode())
    return s


def settle() -> None:
    """Gives the server a moment to take the waits just sent (on connections of their own, which
    it may read in any order) before the next request."""
    time.sleep(1.5)


def answered(s: socket.socket) -> bool:
    return bool(select.select([s], [], [], 0)[0])


def read_answer(s: socket.socket) -> tuple[int, dict]:
    data = b""
    while chunk := s.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


def test_many_open_job_waits_leave_the_threads_to_everyone_else(tmp_path: Path):
    many_waits_leave_the_threads(tmp_path, {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")})


def many_waits_leave_the_threads(tmp_path: Path, store: dict[str, str]) -> None:
    env = {
        **store,
        "REDIS_URL": redis_url(),
        "CHASE_LEDGER_QUEUE_PREFIX": f"waits-{uuid.uuid4().hex[:8]}",  # no other worker takes these jobs
        "CHASE_LEDGER_JOB_WAITS_PER_TOKEN": "64",
        "CHASE_LEDGER_JOB_WAITS_PER_ADDRESS": "64",
    }
    server = ChaseServe(env, tmp_path / "serve.log", workers=2, threads=4)
    waits: list[socket.socket] = []
    try:
        # The Keeper starts a chase and asks for a replay, which no worker has taken yet.
        keeper = Client(server.port)
        _, created = keeper.request("POST", "/chases", {"name": "Waited on", "dice": "server"})
        chase_id, keeper.token = created["chase"]["chase_id"], created["keeper_token"]
        status, accepted = keeper.request("POST", f"/chases/{chase_id}/replays")
        assert status == 202 and accepted["job"]["status"] in ("pending", "queued")
        job_path = f"/chases/{chase_id}/jobs/{accepted['job']['job_id']}"

        # A hostile neighbour opens 24 waits of 30 s on it.
        waits = [open_wait(server.port, f"{job_path}?wait=30", keeper.token) for _ in range(WAITS)]
        assert keeper.request("GET", job_path)[0] == 200  # (every wait has reached the server)

        # Another client is answered at once while every wait is still open.
        other = Client(server.port)
        other.conn.timeout = 20  # a held pool would keep it for 30 s and more
        assert other.request("GET", "/health")[0] == 200
        assert other.request("GET", "/openapi.json")[0] == 200
        assert keeper.request("GET", f"/chases/{chase_id}")[0] == 200
        assert not any(answered(s) for s in waits), "a wait was answered before its job ended"

        # A worker runs the job: every wait is answered with the job done.
        worker = subprocess.run(
            [sys.executable, "-m", "infrastructure.cli", "worker", "--burst", "--no-sweep"],
            cwd=ROOT, env={**os.environ, **env, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=120,
        )
        assert worker.returncode == 0, worker.stderr.decode()[-2000:]
        answers = [read_answer(s) for s in waits]
        assert [status for status, _ in answers] == [200] * WAITS
        assert {body["job"]["status"] for _, body in answers} == {"done"}
        assert server.errors_logged() == []
    finally:
        for s in waits:
            s.close()
        server.stop()


def test_waits_beyond_the_cap_are_refused_and_a_group_s_job_route_checks_the_job_first(tmp_path: Path):
    env = {
        "SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"),
        "REDIS_URL": redis_url(),
        "CHASE_LEDGER_QUEUE_PREFIX": f"waits-{uuid.uuid4().hex[:8]}",
        "CHASE_LEDGER_JOB_WAITS_PER_TOKEN": "2",
        "CHASE_LEDGER_JOB_WAITS_PER_ADDRESS": "3",
    }
    server = ChaseServe(env, tmp_path / "serve.log", workers=1, threads=4)  # one process: its caps are the server's
    waits: list[socket.socket] = []
    try:
        # Three Keepers each start a chase with a replay no worker has taken yet.
        keepers, jobs = [], []
        for name in ("Arkham", "Dunwich", "Innsmouth"):
            keeper = Client(server.port)
            _, created = keeper.request("POST", "/chases", {"name": name, "dice": "server"})
            chase_id, keeper.token = created["chase"]["chase_id"], created["keeper_token"]
            _, accepted = keeper.request("POST", f"/chases/{chase_id}/replays")
            keepers.append(keeper)
            jobs.append(f"/chases/{chase_id}/jobs/{accepted['job']['job_id']}?wait=30")

        # The first Keeper opens two waits, the most one token may hold open.
        waits = [open_wait(server.port, jobs[0], keepers[0].token) for _ in range(2)]
        settle()

        # A third with the same token is refused at once, naming the token, with Retry-After.
        keepers[0].conn.timeout = 20  # a wait would keep it 30 s
        keepers[0].conn.request("GET", jobs[0], headers={"Authorization": f"Bearer {keepers[0].token}"})
        refused = keepers[0].conn.getresponse()
        problem = json.loads(refused.read())
        assert refused.status == 429 and refused.getheader("Content-Type") == "application/problem+json"
        assert problem["errors"] == [{"field": "Authorization", "message": "at most 2 open job waits"}]
        assert 1 <= int(refused.getheader("Retry-After")) <= 30

        # Another token from the same address may open one more; a third token then meets the
        # address's cap.
        waits.append(open_wait(server.port, jobs[1], keepers[1].token))
        settle()
        status, problem = keepers[2].request("GET", jobs[2])
        assert status == 429 and problem["errors"] == [{"field": "client address", "message": "at most 3 open job waits"}]

        # The clients waiting hang up: their places are given back at once, not when their
        # waits would have ended.
        for waiting in waits:
            waiting.close()
        waits = []
        settle()
        status, answer = keepers[2].request("GET", jobs[2].replace("wait=30", "wait=1"))
        assert status == 200 and answer["job"]["status"] in ("pending", "queued")

        # A session's Keeper asking to wait on another session's report job is told 404 at
        # once, before any wait (and without taking a wait's place).
        groups = []
        for name in ("Game night", "Other night"):
            group = Client(server.port)
            _, made = group.request("POST", "/sessions", {"name": name})
            group.token = made["keeper_token"]
            groups.append((group, made["group"]["session_id"]))
        (ours, our_id), (theirs, their_id) = groups
        status, accepted = theirs.request("POST", f"/sessions/{their_id}/reports")
        assert status == 202 and accepted["job"]["status"] in ("pending", "queued")
        ours.conn.timeout = 20
        status, problem = ours.request("GET", f"/sessions/{our_id}/jobs/{accepted['job']['job_id']}?wait=30")
        assert status == 404 and problem["type"] == "/problems/not-found"
        assert server.errors_logged() == []
    finally:
        for s in waits:
            s.close()
        server.stop()


def test_a_job_wait_is_logged_and_counted_once(tmp_path: Path, caplog: pytest.LogCaptureFixture):
    served = Served({
        "SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"),
        "REDIS_URL": redis_url(),
        "CHASE_LEDGER_QUEUE_PREFIX": f"waits-{uuid.uuid4().hex[:8]}",
    })
    try:
        # A Keeper asks for a replay that no worker takes (none runs here).
        view, token = served.ledger.start_chase("Arkham")
        keeper = Client(served.port)
        keeper.token = token
        _, accepted = keeper.request("POST", f"/chases/{view['chase_id']}/replays")
        path = f"/chases/{view['chase_id']}/jobs/{accepted['job']['job_id']}"
        counted = {"method": "GET", "route": "/chases/<uuid:chase_id>/jobs/<job_id>", "status": "200"}
        before = REGISTRY.get_sample_value("chase_http_requests_total", counted) or 0

        # The Keeper waits a second for it: the wait ends with the job still pending.
        caplog.set_level(logging.INFO, logger="chase_ledger.requests")
        status, answer = keeper.request("GET", path + "?wait=1")
        assert status == 200 and answer["job"]["status"] in ("pending", "queued")

        # The operator's log and metrics show that one request once, as it was answered.
        logged = [r for r in caplog.records if r.name == "chase_ledger.requests" and getattr(r, "path", None) == path]
        assert [r.status for r in logged] == [200]
        assert REGISTRY.get_sample_value("chase_http_requests_total", counted) == before + 1
    finally:
        served.close()
