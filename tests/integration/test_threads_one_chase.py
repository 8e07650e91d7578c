"""Many threads of one API process (and a second process) rolling and adding participants on one chase at once.

Each API process serves requests on several threads. Loading a chase once deep-copied an
aggregate that another thread could be folding new events into at that moment ("RuntimeError:
dictionary changed size during iteration", a 500). Every load now gets its own copy of the
chase (application/chase_cache.py), so threads never share a chase object.
"""
from __future__ import annotations

import sys
import threading
from typing import Any

from api import create_app
from infrastructure.bootstrap import build_ledger
from tests.conftest import BearerClient
from tests.integration.test_concurrency import run_threads

THREADS, COMMANDS = 8, 12


def http(ledger: Any, token: str | None = None) -> BearerClient:
    app = create_app(lambda: ledger)
    app.config["TESTING"] = True
    return BearerClient(app.test_client(), token)


def test_threads_rolling_on_one_chase_all_succeed_and_every_roll_is_recorded_once(tmp_path):
    # Two API processes on one SQLite file; the Keeper creates a chase with server dice.
    env = {"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}
    first, second = build_ledger(env), build_ledger(env)
    owner = http(first)
    created = owner.post("/chases", json={"name": "dice storm", "dice": "server"}).get_json()
    chase_id, owner.token = created["chase"]["chase_id"], created["keeper_token"]
    processes = [http(first, owner.token), http(second, owner.token)]
    barrier = threading.Barrier(THREADS)
    answers: list[list[tuple[int, Any]]] = [[] for _ in range(THREADS)]
    joins: list[list[tuple[int, Any]]] = [[] for _ in range(THREADS)]

    # Eight threads, split over the two processes, roll at once on the same chase.
    def roll(i: int) -> None:
        barrier.wait()
        for n in range(COMMANDS):
            client = processes[i % 2]
            r = client.post(f"/chases/{chase_id}/dice-rolls", json={"expression": "1D6"})
            answers[i].append((r.status_code, r.get_json()))
            # Joining participants grow the chase's dicts while other threads load it.
            joined = client.post(f"/chases/{chase_id}/participants", json={"name": f"Cultist {i}-{n}", "role": "pursuer", "dex": 50, "con": 50, "mov": 7})
            joins[i].append((joined.status_code, joined.get_json()))

    # Threads switch as often as the interpreter allows, so that a load and a fold interleave.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        run_threads(THREADS, roll, timeout=240)
    finally:
        sys.setswitchinterval(interval)

    # Every roll was answered 200: no 500 from threads sharing a chase, no conflict given up.
    statuses = [status for rs in answers for status, _ in rs]
    problems = [body for rs in answers + joins for status, body in rs if status not in (200, 201)]
    assert problems == [] and len(statuses) == THREADS * COMMANDS

    # The rolls answered are the chase's rolls, each once: sequences 1..n without gap, and the
    # roll history shows each as its answer did.
    bodies = [body for rs in answers for _, body in rs]
    assert sorted(b["rolls"][0]["sequence"] for b in bodies) == list(range(1, THREADS * COMMANDS + 1))
    history = owner.get(f"/chases/{chase_id}/rolls").get_json()["rolls"]
    assert {r["roll"]["sequence"]: r["roll"] for r in history} == {b["rolls"][0]["sequence"]: b["rolls"][0] for b in bodies}

    # Both processes see the chase at its last version (created, then one event per roll and
    # per participant), with every participant who joined.
    for client in processes:
        chase = client.get(f"/chases/{chase_id}/track").get_json()["chase"]
        assert chase["version"] == 2 * THREADS * COMMANDS + 1
        assert len(chase["participants"]) == THREADS * COMMANDS
    first.close()
    second.close()
