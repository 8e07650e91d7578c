"""Live updates over Server-Sent Events, through a real HTTP server (embedded default: SQLite file).

The server is the ASGI host `chase serve` runs in each worker (api/asgi.py on uvicorn), here in a
thread of the test beside its ledger.

A front-end follows a chase with GET /chases/<id>/stream; when its connection drops it reconnects
with Last-Event-ID and gets exactly the events it had not seen: none missed, none twice.
"""
from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import pytest
import uvicorn

from api import create_app
from api.asgi import ChaseLedgerHost
from application.dice import DiceChoice
from infrastructure.bootstrap import build_ledger


class SSEClient:
    """A minimal EventSource: one HTTP connection, read event by event."""

    def __init__(self, port: int, path: str, token: str | None, last_event_id: int | None = None, timeout: float = 10) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.conn.request("GET", path, headers=headers)
        self.response = self.conn.getresponse()

    @property
    def status(self) -> int:
        return self.response.status

    def events(self) -> Iterator[dict[str, Any]]:
        """Each event as {"id", "event", "data"}; comments (keep-alives) are skipped."""
        fields: dict[str, Any] = {}
        while True:
            line = self.response.fp.readline()
            if not line:
                return
            line = line.decode().rstrip("\n")
            if not line:
                if "data" in fields:
                    yield {"id": int(fields["id"]), "event": fields.get("event"), "data": json.loads(fields["data"])}
                fields = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(": ")
                fields[name] = value

    def take(self, count: int) -> list[dict[str, Any]]:
        taken = []
        for event in self.events():
            taken.append(event)
            if len(taken) == count:
                break
        return taken

    def take_until(self, version: int) -> list[dict[str, Any]]:
        taken = []
        for event in self.events():
            taken.append(event)
            if event["id"] >= version:
                break
        return taken

    def close(self) -> None:
        """Drop the connection (the response's file holds the socket open until closed too)."""
        self.response.close()
        self.conn.close()


class Served:
    """The API served as `chase serve` serves it (api/asgi.py on uvicorn), with its ledger."""

    def __init__(self, env: dict[str, str], threads: int = 4) -> None:
        self.env = env
        self.ledger = build_ledger(env)
        ledger = self.ledger
        self.host = ChaseLedgerHost(create_app(lambda: ledger), threads)
        self.socket = socket.create_server(("127.0.0.1", 0), backlog=2048)
        self.port = self.socket.getsockname()[1]
        config = uvicorn.Config(self.host, lifespan="off", log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True)
        self.thread.start()
        assert wait_for(lambda: self.server.started, timeout=10), "the server did not start"

    def stream(self, chase_id: Any, token: str | None, last_event_id: int | None = None, query: str = "") -> SSEClient:
        return SSEClient(self.port, f"/chases/{chase_id}/stream{query}", token, last_event_id)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()
        self.host.close()  # no stream read may outlive the store it reads
        self.ledger.close()


def wait_for(predicate: Any, timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return bool(predicate())


@pytest.fixture
def served(tmp_path) -> Iterator[Served]:
    served = Served({
        "SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"),
        "CHASE_LEDGER_STREAM_POLL": "0.2",
        "CHASE_LEDGER_STREAM_HEARTBEAT": "0.3",
    })
    yield served
    served.close()


def start_chase(ledger: Any) -> tuple[UUID, str]:
    view, token = ledger.start_chase("Followed live", dice="server")
    return UUID(view["chase_id"]), token


def test_a_client_that_disconnects_and_resumes_misses_and_repeats_nothing(served: Served):
    ledger = served.ledger
    chase_id, token = start_chase(ledger)
    writing = threading.Event()

    def keep_playing() -> None:  # the table goes on while the client's connection drops
        for n in range(40):
            ledger.commands["coc7e"].roll_dice(chase_id, "1D6", purpose=f"roll {n}", dice=DiceChoice())
            time.sleep(0.01)
        writing.set()

    first = served.stream(chase_id, token)
    assert first.status == 200 and first.response.getheader("Content-Type").startswith("text/event-stream")
    writer = threading.Thread(target=keep_playing)
    writer.start()
    seen = first.take(12)
    first.close()  # the connection drops mid-chase

    time.sleep(0.1)  # events recorded while disconnected
    resumed = served.stream(chase_id, token, last_event_id=seen[-1]["id"])
    writer.join(10)
    assert writing.is_set()
    final = ledger.track(chase_id)["version"]
    seen += resumed.take_until(final)
    resumed.close()

    versions = [e["id"] for e in seen]
    assert versions == list(range(1, final + 1)), versions
    log = ledger.history.chase_events(chase_id)
    assert [e["data"] for e in seen] == log  # the events as recorded, each with its hash
    assert [e["event"] for e in seen] == [e["name"] for e in log]
    # The server notices each dropped connection and lets go of it.
    assert wait_for(lambda: served.host.open_streams == 0)


def test_last_event_id_wins_over_the_after_query_and_a_stream_starts_where_asked(served: Served):
    ledger = served.ledger
    chase_id, token = start_chase(ledger)
    for _ in range(5):
        ledger.commands["coc7e"].roll_dice(chase_id, "1D4", dice=DiceChoice())

    by_query = served.stream(chase_id, token, query="?after=3")
    assert [e["id"] for e in by_query.take(3)] == [4, 5, 6]
    by_query.close()
    by_header = served.stream(chase_id, token, last_event_id=5, query="?after=1")
    assert [e["id"] for e in by_header.take(1)] == [6]
    by_header.close()


def test_a_stream_hears_the_commands_of_another_process(served: Served):
    # Two API processes on one SQLite file (gunicorn workers): no Redis, so the stream of the
    # first learns of the second's commands by polling the store.
    chase_id, token = start_chase(served.ledger)
    other = build_ledger(served.env)
    try:
        stream = served.stream(chase_id, token, last_event_id=1)
        started = time.monotonic()
        other.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
        (event,) = stream.take(1)
        assert event["id"] == 2 and event["event"] == "DiceRolled"
        assert time.monotonic() - started < 2
        stream.close()
    finally:
        other.close()


def test_a_stream_needs_the_chase_token(served: Served):
    chase_id, token = start_chase(served.ledger)
    other_id, other_token = start_chase(served.ledger)

    assert served.stream(chase_id, None).status == 401
    assert served.stream(chase_id, other_token).status == 403
    assert served.stream(UUID(int=7), token).status == 404
    bad = served.stream(chase_id, token, last_event_id=None, query="?after=-1")
    assert bad.status == 422
    assert other_id


def test_a_replay_streams_every_frame_at_its_pace_then_its_end(served: Served):
    # A chase of a few rolls, replayed as a job.
    ledger = served.ledger
    chase_id, token = start_chase(ledger)
    for _ in range(4):
        ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
    job = ledger.jobs.replay(chase_id)

    # The stream sends every frame, a hundredth of a second apart, then "end"; and resumes after
    # the frame named by Last-Event-ID.
    stream = SSEClient(served.port, f"/chases/{chase_id}/replays/{job['job_id']}/stream?pace=0.01", token)
    events = list(stream.events())
    stream.close()
    assert [e["id"] for e in events] == [1, 2, 3, 4, 5, 5], events  # (the events, the end's error among them, if not)
    assert [e["event"] for e in events] == ["frame"] * 5 + ["end"] and events[-1]["data"]["status"] == "done"
    resumed = SSEClient(served.port, f"/chases/{chase_id}/replays/{job['job_id']}/stream", token, last_event_id=3)
    assert [e["id"] for e in resumed.events()] == [4, 5, 5]
    resumed.close()

    # An unknown replay is a 404 before any stream starts.
    assert SSEClient(served.port, f"/chases/{chase_id}/replays/nope/stream", token).status == 404


def test_a_quiet_stream_is_kept_alive_then_ends_and_the_client_resumes(tmp_path):
    served = Served({
        "SQLITE_DBNAME": str(tmp_path / "chase.sqlite3"),
        "CHASE_LEDGER_STREAM_HEARTBEAT": "0.2",
        "CHASE_LEDGER_STREAM_MAX_SECONDS": "1",
    })
    try:
        chase_id, token = start_chase(served.ledger)

        # Nothing happens at the table: the stream sends the chase's first event, keep-alive
        # comments while it is quiet, then ends by itself (the response completes).
        stream = served.stream(chase_id, token)
        body = stream.response.read().decode()
        stream.close()
        assert "id: 1\nevent: Created\n" in body
        assert body.count(": keep-alive\n\n") >= 2

        # The client reconnects with the last id it saw and gets what came since.
        served.ledger.commands["coc7e"].roll_dice(chase_id, "1D6", dice=DiceChoice())
        resumed = served.stream(chase_id, token, last_event_id=1)
        assert [(e["id"], e["event"]) for e in resumed.take(1)] == [(2, "DiceRolled")]
        resumed.close()
    finally:
        served.close()


def test_a_stopping_worker_waits_for_its_stream_reads_and_leaves_none_running(served: Served):
    def stream_reads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name.startswith("stream-read") and t.is_alive()]

    # A client follows a chase: the worker reads the store for it on threads of its own.
    chase_id, token = start_chase(served.ledger)
    stream = served.stream(chase_id, token)
    assert [e["id"] for e in stream.take(1)] == [1]
    assert stream_reads()

    # gunicorn stops the worker (the ASGI lifespan's shutdown, as uvicorn's worker sends it).
    told = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    answered: list[str] = []

    async def receive() -> dict[str, str]:
        return next(told)

    async def send(message: dict[str, str]) -> None:
        answered.append(message["type"])

    asyncio.run(served.host({"type": "lifespan"}, receive, send))

    # The worker said it had stopped only once no read was left to outlive the store.
    assert answered == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert stream_reads() == []
