"""Request and answer bodies as the ASGI host of `chase serve` serves them (api/asgi.py on uvicorn).

A body sent in chunks (no Content-Length) is the command as sent, not an empty body run with
its defaults; one past the limit is 413. A client that sends its body slowly, or never finishes
it, holds a socket on the event loop, not one of the threads every other request needs. An
answer Flask makes of many pieces (a big chase's blocks) is sent as those pieces, never copied
into one, and arrives whole.
"""
from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import threading
from collections.abc import Iterator
from uuid import UUID

import pytest
import uvicorn
from flask import Flask, Response

from api import web
from api.asgi import ChaseLedgerHost
from tests.e2e.test_stream import Served, wait_for

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


def ask(served: Served, method: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=10)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def test_answers_of_every_kind_come_through_the_host_whole(one_thread: Served):
    chase_id, token = start_d6(one_thread)
    auth = {"Authorization": f"Bearer {token}"}

    # A view comes whole, with the length it declares and its ETag
    status, headers, body = ask(one_thread, "GET", f"/chases/{chase_id}/track", auth)
    assert status == 200 and int(headers["content-length"]) == len(body) and json.loads(body)["chase"]["chase_id"] == chase_id

    # Asked again with that ETag, it is 304 with no body; asked with HEAD, the headers alone
    status, _, again = ask(one_thread, "GET", f"/chases/{chase_id}/track", {**auth, "If-None-Match": headers["etag"]})
    assert (status, again) == (304, b"")
    status, head, nothing = ask(one_thread, "HEAD", f"/chases/{chase_id}/track", auth)
    assert (status, nothing, head["etag"]) == (200, b"", headers["etag"])

    # A page of the browser table is the file as it is on disk
    status, _, page = ask(one_thread, "GET", "/app/")
    assert status == 200 and page == (web.STATIC / "app" / "index.html").read_bytes()


def scope_of(path: str) -> dict:
    """A GET of ``path`` as the ASGI server hands it to the host."""
    return {"type": "http", "method": "GET", "path": path, "query_string": b"", "headers": [], "http_version": "1.1", "root_path": ""}


def bounded_app(name: str) -> Flask:
    """An app with a bound on request bodies, as the API has (api/guards.py): the host reads each
    body on the event loop, then a thread answers it in one go (api/threaded_wsgi.py)."""
    app = Flask(name)
    app.config["MAX_CONTENT_LENGTH"] = 1_000
    return app


async def no_body() -> dict:
    return {"type": "http.request", "body": b"", "more_body": False}


def sent_for(host: ChaseLedgerHost, path: str) -> list[dict]:
    """What the host sends for a GET of ``path`` (then it is stopped, as a worker stops)."""
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    try:
        asyncio.run(host(scope_of(path), no_body, send))
    finally:
        host.close()
    return sent


def test_an_answer_of_unknown_length_is_sent_piece_by_piece():
    # Given an app whose answer is made as it is sent (no Content-Length)
    app = bounded_app("pieces")
    app.get("/pieces")(lambda: Response((f"piece {n}\n" for n in range(3)), mimetype="text/plain"))
    sent = sent_for(ChaseLedgerHost(app, threads=1), "/pieces")

    # Then it is sent in pieces, ended by an empty one, and reads whole
    assert sent[0]["status"] == 200 and not any(name == b"content-length" for name, _ in sent[0]["headers"])
    assert [m["body"] for m in sent[1:]] == [b"piece 0\n", b"piece 1\n", b"piece 2\n", b""]
    assert [m.get("more_body", False) for m in sent[1:]] == [True, True, True, False]


BLOCKS = [bytes([65 + n % 26]) * 10_000 for n in range(1_000)]  # 10 MB in 1,000 blocks, as a big chase's answer


def blocks_app() -> Flask:
    """An app whose answer is a list of blocks: Werkzeug gives it a Content-Length."""
    app = bounded_app("blocks")
    app.get("/blocks")(lambda: Response(BLOCKS, mimetype="application/octet-stream"))
    return app


def test_an_answer_made_of_many_blocks_is_sent_as_those_blocks_never_joined():
    # When the answer of 1,000 blocks is sent
    sent = sent_for(ChaseLedgerHost(blocks_app(), threads=1), "/blocks")

    # Then it declares its whole length, and each block goes out as it is (no 10 MB copy), the last ending it
    assert (b"content-length", str(len(BLOCKS) * 10_000).encode()) in sent[0]["headers"]
    assert len(sent) == 1 + len(BLOCKS) and all(m["body"] is block for m, block in zip(sent[1:], BLOCKS))
    assert [m.get("more_body", False) for m in sent[1:]] == [True] * (len(BLOCKS) - 1) + [False]


@contextlib.contextmanager
def on_uvicorn(app: Flask) -> Iterator[int]:
    """``app`` served by the host on uvicorn, as `chase serve` serves the API; yields its port."""
    host = ChaseLedgerHost(app, threads=1)
    listening = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(host, lifespan="off", log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: server.started, timeout=10), "the server did not start"
        yield listening.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)
        listening.close()
        host.close()


def test_an_answer_made_of_many_blocks_reaches_the_client_whole():
    with on_uvicorn(blocks_app()) as port:
        # When a client asks for the answer of 1,000 blocks
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/blocks")
        response = conn.getresponse()
        body = response.read()
        conn.close()

    # Then it has the whole answer, byte for byte, of the length declared
    assert response.status == 200 and int(response.getheader("Content-Length")) == len(body)
    assert body == b"".join(BLOCKS)
