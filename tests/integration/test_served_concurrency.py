"""A thousand commands from eight clients on one chase, through `chase serve` (issue 12 part 2).

A real gunicorn master runs two workers of four threads each, as `chase serve` does by default,
on SQLite and on PostgreSQL. Eight clients roll dice and add participants on the same chase at
once. Threads of a worker once shared the cached chase, one deep-copying it while another folded
new events into it: a few answers were 500. Now no answer is 5xx, and the chase's log holds
exactly the commands that were answered: every roll and every participant once, nothing else.
"""
from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from infrastructure.bootstrap import build_ledger
from tests.e2e.served_process import ChaseServe, Client
from tests.integration.test_concurrency import run_threads

CLIENTS, COMMANDS = 8, 125  # 1,000 commands in all
JOIN_EVERY = 4  # every fourth command of a client adds a participant, the others roll


def play_together(server: ChaseServe) -> tuple[str, dict[str, tuple[int, Any]]]:
    """Eight clients send their commands at once; every answer, by the command's own name."""
    keeper = Client(server.port)
    status, created = keeper.request("POST", "/chases", {"name": "Crowded", "dice": "server"})
    assert status == 201, created
    chase_id, token = created["chase"]["chase_id"], created["keeper_token"]
    answers: dict[str, tuple[int, Any]] = {}
    lock = threading.Lock()
    barrier = threading.Barrier(CLIENTS)

    def play(i: int) -> None:
        client = Client(server.port, token)
        barrier.wait()
        for n in range(COMMANDS):
            name = f"c{i}-{n}"
            if n % JOIN_EVERY == JOIN_EVERY - 1:
                answer = client.request("POST", f"/chases/{chase_id}/participants", {"name": name, "role": "pursuer", "dex": 50, "con": 50, "mov": 7})
            else:
                answer = client.request("POST", f"/chases/{chase_id}/dice-rolls", {"expression": "1D6", "purpose": name})
            with lock:
                answers[name] = answer
        client.close()

    run_threads(CLIENTS, play, timeout=600)
    return chase_id, answers


def check_the_log(env: dict[str, str], chase_id: str, answers: dict[str, tuple[int, Any]]) -> None:
    # No answer is 5xx, and every command was answered 2xx (none refused, none given up).
    statuses = Counter(status for status, _ in answers.values())
    assert len(answers) == CLIENTS * COMMANDS
    assert sum(n for status, n in statuses.items() if status >= 500) == 0, statuses
    assert set(statuses) <= {200, 201}, {name: a for name, a in answers.items() if a[0] not in (200, 201)}

    # The log holds each command's event once and nothing else: the chase's creation, then one
    # roll per roll command (sequences 1..n, no gap) and one participant per join.
    ledger = build_ledger(env)
    try:
        events = ledger.history.chase_events(UUID(chase_id))
    finally:
        ledger.close()
    assert [e["version"] for e in events] == list(range(1, CLIENTS * COMMANDS + 2))
    kinds = Counter(e["name"] for e in events)
    rolls = [e["data"]["roll"] for e in events if e["name"] == "DiceRolled"]
    joined = [e["data"]["participant"]["name"] for e in events if e["name"] == "ParticipantAdded"]
    assert kinds == {"Created": 1, "DiceRolled": len(rolls), "ParticipantAdded": len(joined)}
    rolled = {name for name in answers if int(name.split("-")[1]) % JOIN_EVERY != JOIN_EVERY - 1}
    assert Counter(r["purpose"] for r in rolls) == Counter(rolled)  # none lost, none doubled
    assert Counter(joined) == Counter(set(answers) - rolled)
    assert sorted(r["sequence"] for r in rolls) == list(range(1, len(rolled) + 1))
    # Each roll answered is the roll recorded.
    assert {r["purpose"]: r for r in rolls} == {name: answers[name][1]["rolls"][0] for name in rolled}


def run_on(env: dict[str, str], log: Path) -> None:
    server = ChaseServe(env, log, workers=2, threads=4)
    try:
        chase_id, answers = play_together(server)
    finally:
        server.stop()
    assert server.errors_logged() == []
    check_the_log(env, chase_id, answers)


def test_eight_clients_on_one_chase_on_sqlite(tmp_path: Path):
    run_on({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}, tmp_path / "serve.log")


@pytest.mark.postgres
def test_eight_clients_on_one_chase_on_postgresql(postgres_env: dict[str, str], tmp_path: Path):
    run_on(postgres_env, tmp_path / "serve.log")
