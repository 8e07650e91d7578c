"""The reverse proxy of the compose stack (deploy/nginx.conf), run here in front of two API processes.

Debian's nginx runs the very file docker-compose.yml's proxy runs, with only its listen port and
its upstream line replaced: the upstream is two `chase serve` processes on one SQLite file, as
`docker-compose up --scale api=2` puts two API containers on one database. Requests pass and are
spread over both; a live stream passes event by event; a client trickling its headers is dropped
by the proxy; a 10 MB body is refused by the proxy with the API's 413 problem. Skipped where nginx
is not installed, except in CI (.ci/run installs Debian's nginx-light).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from infrastructure.edge_settings import EdgeSettings
from tests.e2e.served_process import ChaseServe, Client, free_port
from tests.e2e.test_stream import SSEClient

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
WAIT = 20  # seconds a test waits for the proxy to act, far past its 5 s header time limit

pytestmark = pytest.mark.skipif(
    NGINX is None and os.environ.get("CI") != "true", reason="nginx is not installed (Debian: apt-get install nginx-light)",
)


@dataclass
class Stack:
    port: int  # the proxy's
    apis: list[ChaseServe]


def templated(api_ports: list[int], port: int) -> str:
    """deploy/nginx.conf, listening on ``port``, in front of the API processes on ``api_ports``."""
    text = CONFIG.read_text()
    upstream = re.search(r"^(\s*)server api:8000( [^;]*);$", text, re.MULTILINE)
    assert upstream is not None, "deploy/nginx.conf names its upstream `server api:8000 ...;`"
    indent, options = upstream.groups()
    servers = "".join(f"{indent}server 127.0.0.1:{p}{options};" for p in api_ports)
    text = text[: upstream.start()] + servers + text[upstream.end():]
    assert "listen 8000;" in text
    return text.replace("listen 8000;", f"listen 127.0.0.1:{port};")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    assert NGINX is not None, "CI runs the proxy's tests: install Debian's nginx-light (.ci/run does)"
    folder = tmp_path_factory.mktemp("proxy")
    env = {
        "SQLITE_DBNAME": str(folder / "chase.sqlite3"),
        "CHASE_LEDGER_STREAM_POLL": "0.2",
        "CHASE_LEDGER_STREAM_HEARTBEAT": "5",
    }
    apis: list[ChaseServe] = []
    proxy = None
    try:
        with ThreadPoolExecutor(2) as starting:  # (both start at once: each takes seconds)
            apis += starting.map(lambda name: ChaseServe(env, folder / f"api-{name}.log", workers=1, threads=2), "ab")
        port = free_port()
        (folder / "nginx.conf").write_text(templated([api.port for api in apis], port))
        with open(folder / "nginx.log", "wb") as log:
            proxy = subprocess.Popen(
                [NGINX, "-e", "stderr", "-p", f"{folder}/", "-c", str(folder / "nginx.conf"),
                 "-g", f"daemon off; pid {folder}/nginx.pid;"],
                stdout=log, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and proxy.poll() is None:
            try:
                if Client(port).request("GET", "/health")[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError(f"nginx did not start: {(folder / 'nginx.log').read_text()[-2000:]}")
        yield Stack(port, apis)
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        for api in apis:
            api.stop()


def logged_request_ids(api: ChaseServe) -> set[str]:
    ids = set()
    for line in api.log.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            ids.add(json.loads(line).get("request_id"))
    return ids


def test_requests_pass_through_the_proxy_and_are_spread_over_the_api_processes(stack: Stack):
    # When a Keeper starts a chase and reads its track ten times, through the proxy
    keeper = Client(stack.port)
    status, created = keeper.request("POST", "/chases", {"name": "Behind the proxy", "dice": "server"})
    assert status == 201
    chase_id = created["chase"]["chase_id"]
    for i in range(10):
        keeper.conn.request("GET", f"/chases/{chase_id}", headers={
            "Authorization": f"Bearer {created['keeper_token']}", "X-Request-ID": f"spread-{i}",
        })
        response = keeper.conn.getresponse()
        response.read()
        # Then each is answered, with the chase as it is
        assert response.status == 200 and response.getheader("X-Request-ID") == f"spread-{i}"

    # And both API processes answered some of them
    sent = {f"spread-{i}" for i in range(10)}
    answered_by = [logged_request_ids(api) & sent for api in stack.apis]
    assert all(answered_by), f"one API process answered every request: {answered_by}"
    assert set.union(*answered_by) == sent


def test_a_live_stream_passes_through_the_proxy_event_by_event(stack: Stack):
    keeper = Client(stack.port)
    _, created = keeper.request("POST", "/chases", {"name": "Watched through the proxy", "dice": "server"})
    keeper.token = created["keeper_token"]
    chase_id = created["chase"]["chase_id"]

    # Given a stream opened through the proxy, sent the chase's first event
    stream = SSEClient(stack.port, f"/chases/{chase_id}/stream", keeper.token, timeout=WAIT)
    events = stream.events()
    assert stream.status == 200 and next(events)["id"] == 1

    # When the Keeper rolls, the stream is sent the roll while it stays open (none is held back
    # in the proxy's buffers until the stream ends)
    assert keeper.request("POST", f"/chases/{chase_id}/dice-rolls", {"expression": "1D100"})[0] == 200
    assert next(events)["id"] == 2

    # And past the proxy's time limits on a client (5 s), the stream is still open and live
    time.sleep(6)
    assert keeper.request("POST", f"/chases/{chase_id}/dice-rolls", {"expression": "1D100"})[0] == 200
    assert next(events)["id"] == 3
    stream.conn.close()


def test_a_client_trickling_its_headers_is_dropped_by_the_proxy(stack: Stack):
    # Given a client sending a request's headers a byte every fifth of a second
    s = socket.create_connection(("127.0.0.1", stack.port), timeout=WAIT)
    s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    started, dropped = time.monotonic(), False
    try:
        while time.monotonic() - started < WAIT:
            s.sendall(b"X")
            time.sleep(0.2)
    except OSError:
        dropped = True  # the proxy closed it

    # Then the proxy dropped it long before it ran out of bytes: nothing reached the API
    if not dropped:
        try:
            dropped = s.recv(100) == b""
        except OSError:
            dropped = True
    s.close()
    assert dropped


def test_a_body_over_the_limit_is_refused_by_the_proxy_with_the_apis_problem(stack: Stack):
    # Given a client that sends a 10 MB command to its end before it reads the answer
    s = socket.create_connection(("127.0.0.1", stack.port), timeout=WAIT)
    size = 10 * 1024 * 1024
    s.sendall(b"POST /chases HTTP/1.1\r\nHost: x\r\nX-Request-ID: ten-megabytes\r\nContent-Type: application/json\r\n"
              b"Content-Length: %d\r\n\r\n" % size)
    s.sendall(b" " * size)
    answer = b""
    while chunk := s.recv(65536):
        answer += chunk
    s.close()

    # Then it reads the 413 problem the API would have answered, and no API process saw it
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413") and b"application/problem+json" in head
    problem = json.loads(body)
    assert problem["type"] == "/problems/body-too-large" and problem["max_bytes"] == EdgeSettings().max_body_bytes
    assert all("ten-megabytes" not in logged_request_ids(api) for api in stack.apis)


def test_the_proxy_refuses_bodies_over_the_apis_own_limit_no_sooner():
    # The proxy's body limit is the API's default (CHASE_LEDGER_MAX_BODY_BYTES)
    limit = re.search(r"client_max_body_size (\d+)k;", CONFIG.read_text())
    assert limit is not None and int(limit.group(1)) * 1024 == EdgeSettings().max_body_bytes


def test_the_compose_stack_publishes_the_proxy_alone_so_that_the_api_scales():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    # The api service publishes no host port: `docker-compose up --scale api=3` starts three
    assert "ports" not in services["api"]
    # The proxy publishes the port, runs deploy/nginx.conf, and starts once the api is up
    assert services["proxy"]["ports"] == ["8000:8000"]
    assert services["proxy"]["build"]["dockerfile"] == "deploy/proxy.Dockerfile"
    assert "COPY deploy/nginx.conf /etc/nginx/nginx.conf" in (ROOT / "deploy" / "proxy.Dockerfile").read_text()
    assert "api" in services["proxy"]["depends_on"]
    if shutil.which("docker-compose"):  # (its own check of the file, where it is installed)
        subprocess.run(["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"], check=True, cwd=ROOT)
