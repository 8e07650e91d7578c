"""What a hostile neighbour can do to `chase serve`, and what it no longer can (api/guarded_http.py).

A real `chase serve` (gunicorn, one uvicorn worker, a file limit of 128 as a small container's),
with short time limits so that each attack ends in seconds: a request's headers within 2 s, its
body within 2 s, at most 20 connections from one address. The attacker connects from 127.0.0.2,
the honest client from 127.0.0.1 (both this machine). Each attack is the one measured against the
server (bench/edge_attacks.py has the figures): trickled headers, a short body, a body far over
the limit, a flood of idle connections from one address, headers without end.
"""
from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.guarded_http import HEADER_BYTES
from infrastructure.server_settings import ServerSettings
from infrastructure.settings import ConfigurationError
from tests.e2e.served_process import ChaseServe, Client

ATTACKER = "127.0.0.2"
WAIT = 15  # seconds a test waits for the server to act, far past every limit set below
FILES = 128


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ChaseServe]:
    folder = tmp_path_factory.mktemp("bounds")
    served = ChaseServe(
        {
            "SQLITE_DBNAME": str(folder / "chase.sqlite3"),
            "CHASE_LEDGER_RATE_LIMITS": "off",
            "CHASE_LEDGER_HEADER_TIMEOUT": "2",
            "CHASE_LEDGER_BODY_TIMEOUT": "2",
            "CHASE_LEDGER_CONNECTIONS_PER_ADDRESS": "20",
            "CHASE_LEDGER_STREAM_HEARTBEAT": "0.5",
        },
        Path(folder) / "serve.log", workers=1, threads=2, files=FILES,
    )
    yield served
    served.stop()


def attacker(server: ChaseServe) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=WAIT, source_address=(ATTACKER, 0))


def read_all(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (a timeout if it never does)."""
    received = b""
    while chunk := s.recv(65536):
        received += chunk
    return received


def status_and_problem(answer: bytes) -> tuple[int, dict[str, str], dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body) if body else {}


def health(server: ChaseServe) -> int:
    return Client(server.port).request("GET", "/health")[0]


def test_a_client_trickling_its_headers_is_answered_408_and_let_go(server: ChaseServe):
    # Given a client that sends a request's headers a byte at a time, one every tenth of a second
    s = attacker(server)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    started = time.monotonic()
    try:
        while time.monotonic() - started < WAIT:
            s.sendall(b"X")
            time.sleep(0.1)
    except OSError:
        pass  # the server closed it

    # Then it is answered 408 and closed, long before it ran out of bytes to trickle
    status, headers, problem = status_and_problem(read_all(s))
    assert status == 408 and headers["connection"] == "close"
    assert headers["content-type"] == "application/problem+json" and problem["type"] == "/problems/request-timeout"
    s.close()


def test_a_connection_that_never_sends_a_request_is_closed(server: ChaseServe):
    # Given a client that connects and sends nothing
    s = attacker(server)

    # Then the server closes it, without a word
    assert read_all(s) == b""
    s.close()


def test_a_body_shorter_than_its_length_is_answered_408_instead_of_holding_the_connection(server: ChaseServe):
    # Given a command that says it has 100 bytes of body and sends 10
    s = attacker(server)
    s.sendall(b"POST /chases HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 100\r\n\r\n{\"name\": ")

    # Then it is answered 408 (a problem document naming the body) and closed
    status, headers, problem = status_and_problem(read_all(s))
    assert status == 408 and headers["connection"] == "close" and problem["status"] == 408
    assert "body" in problem["detail"]
    s.close()


@pytest.mark.parametrize("connection", ["close", "keep-alive"])
def test_a_body_far_over_the_limit_sent_whole_gets_a_readable_413(server: ChaseServe, connection: str):
    # Given a client that sends a 10 MB command to its end before it reads the answer
    s = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    size = 10 * 1024 * 1024
    s.sendall(b"POST /chases HTTP/1.1\r\nHost: x\r\nConnection: %s\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n" % (connection.encode(), size))
    s.sendall(b" " * size)  # (a reset here, as it was, fails the test)

    # Then it reads the 413 problem, which says the connection ends with it
    status, headers, problem = status_and_problem(read_all(s))
    assert status == 413 and headers["connection"] == "close"
    assert problem["errors"] == [{"field": "Content-Length", "message": "at most 262144 bytes"}]
    s.close()


def test_one_address_cannot_take_every_file_of_the_server(server: ChaseServe):
    # Given an attacker holding more idle connections than the server may open files
    held = []
    for _ in range(FILES + 50):
        s = attacker(server)
        s.sendall(b"GET /he")
        held.append(s)
    try:
        # Then another client is still answered
        assert health(server) == 200

        # And every one of the attacker's connections was ended: past its 20 at a time refused at
        # once (429), the others let go when their headers did not come (408); each a problem
        answers = [status_and_problem(read_all(s)) for s in held]
        assert {status for status, _, _ in answers} == {429, 408}
        refused = [problem for status, _, problem in answers if status == 429]
        assert refused[0]["type"] == "/problems/too-many-connections" and "20 connections" in refused[0]["detail"]
    finally:
        for s in held:
            s.close()

    # And once they are gone, the attacker's address may connect again
    s = attacker(server)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status_and_problem(read_all(s))[0] == 200
    s.close()


def test_headers_without_end_are_answered_431(server: ChaseServe):
    s = attacker(server)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    try:
        for _ in range(HEADER_BYTES // 1000 + 10):
            s.sendall(b"X-Filler: " + b"f" * 988 + b"\r\n")
    except OSError:
        pass  # the server closed it

    assert status_and_problem(read_all(s))[0] == 431
    s.close()


def one_answer(s: socket.socket) -> bytes:
    """One whole answer on a kept-alive connection: its head, then as many body bytes as its
    Content-Length says (the two may come in separate reads)."""
    answer = b""
    while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < _length(answer):
        piece = s.recv(65536)
        assert piece, f"the connection was closed after {answer!r}"
        answer += piece
    return answer


def _length(answer: bytes) -> int:
    head = answer.partition(b"\r\n\r\n")[0]
    return next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")), 0)


def test_honest_clients_are_not_cut_off(server: ChaseServe):
    # A kept-alive client pausing between its requests longer than a request's headers may take
    # (but not past the idle time, 5 s) is answered each time
    client = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    for pause in (2.5, 0):
        client.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        assert one_answer(client).startswith(b"HTTP/1.1 200")
        time.sleep(pause)
    client.close()

    # A live stream outlasts the header and body time limits: its keep-alives keep coming
    keeper = Client(server.port)
    _, created = keeper.request("POST", "/chases", {"name": "Watched", "dice": "server"})
    stream = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
    stream.sendall(f"GET /chases/{created['chase']['chase_id']}/stream HTTP/1.1\r\nHost: x\r\n"
                   f"Authorization: Bearer {created['keeper_token']}\r\n\r\n".encode())
    assert stream.recv(65536).startswith(b"HTTP/1.1 200")
    time.sleep(3)  # past both limits
    assert b": keep-alive" in stream.recv(65536)  # (what was sent meanwhile, and still coming)
    assert b": keep-alive" in stream.recv(65536)
    stream.close()


@pytest.mark.parametrize("name, value", [
    ("CHASE_LEDGER_HEADER_TIMEOUT", "0"), ("CHASE_LEDGER_BODY_TIMEOUT", "soon"),
    ("CHASE_LEDGER_IDLE_TIMEOUT", "0"), ("CHASE_LEDGER_CONNECTIONS_PER_ADDRESS", "-1"),
])
def test_a_bound_set_to_nonsense_stops_the_start_naming_it(name: str, value: str):
    with pytest.raises(ConfigurationError, match=name):
        ServerSettings.from_env({name: value})
