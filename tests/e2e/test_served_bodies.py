"""Request bodies as the ASGI host of `chase serve` receives them (api/asgi.py on uvicorn).

A body sent in chunks (no Content-Length) is the command as sent, not an empty body run with
its defaults; one past the limit is 413. A client that sends its body slowly, or never finishes
it, holds a socket on the event loop, not one of the threads every other request needs.
"""
from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from uuid import UUID

import pytest

from tests.e2e.test_stream import Served

D6_RACER = {"name": "Ann", "role": "racer", "move": 10, "physique": "3D"}


@pytest.fixture
def one_thread(tmp_path) -> Iterator[Served]:
    """The host with a single thread for requests: a request holding it would hold up all."""
    served = Served({"SQLITE_DBNAME": str(tmp_path / "chase.sqlite3")}, threads=1)
    yield served
    served.close()


def start_d6(served: Served) -> tuple[str, str]:
    view, token = served.ledger.start_chase("Bodies", dice="server", system="d6")
    return view["chase_id"], token


def send_chunked(served: Served, path: str, token: str, body: bytes) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    try:
        conn.request(
            "POST", path, body=iter([body[: len(body) // 2], body[len(body) // 2:]]), encode_chunked=True,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json", "Transfer-Encoding": "chunked"},
        )
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_a_command_sent_in_chunks_is_run_as_sent(one_thread: Served):
    chase_id, token = start_d6(one_thread)

    # When the GM adds a racer with a body sent in chunks (no Content-Length)
    status, answer = send_chunked(one_thread, f"/chases/{chase_id}/d6/participants", token, json.dumps(D6_RACER).encode())

    # Then the racer is added as sent, not refused as an empty body
    assert status == 201, answer
    assert answer["chase"]["participants"][answer["participant_id"]]["name"] == "Ann"


def test_a_body_sent_in_chunks_past_the_limit_is_413_and_records_nothing(one_thread: Served):
    chase_id, token = start_d6(one_thread)
    body = json.dumps({**D6_RACER, "name": "x" * 300_000}).encode()

    status, problem = send_chunked(one_thread, f"/chases/{chase_id}/d6/participants", token, body)

    assert status == 413 and problem["errors"][0]["field"] == "Content-Length"
    assert [e["name"] for e in one_thread.ledger.history.chase_events(UUID(chase_id))] == ["Created"]


def test_a_body_that_never_comes_holds_no_thread(one_thread: Served):
    chase_id, token = start_d6(one_thread)
    body = json.dumps(D6_RACER).encode()

    # Given a client that sends a command's headers and the first byte of its body, then stalls
    stalled = socket.create_connection(("127.0.0.1", one_thread.port), timeout=10)
    head = f"POST /chases/{chase_id}/d6/participants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
    stalled.sendall(f"{head}Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body[:1])
    try:
        # When another client reads the track, the only thread is free to answer it
        other = http.client.HTTPConnection("127.0.0.1", one_thread.port, timeout=10)
        other.request("GET", f"/chases/{chase_id}/track", headers={"Authorization": f"Bearer {token}"})
        assert other.getresponse().status == 200
        other.close()

        # And when the stalled client finally sends the rest, its command is run
        stalled.sendall(body[1:])
        assert stalled.recv(100).startswith(b"HTTP/1.1 201")
    finally:
        stalled.close()
