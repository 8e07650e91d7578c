"""The API as `chase serve` runs it: a real gunicorn master with its uvicorn workers, in a child
process on a free port, with the environment given; and a small keep-alive HTTP client for it."""
from __future__ import annotations

import http.client
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from infrastructure.cli import serve_command

ROOT = Path(__file__).resolve().parents[2]
OURS = ("PERSISTENCE_", "SQLITE_", "POSTGRES_", "AGGREGATE_", "CHASE_LEDGER_", "REDIS_URL", "PROMETHEUS_")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def allow_open_files(wanted: int) -> None:
    """Raise this process's limit of open files (each stream a test holds open is a socket)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


class ChaseServe:
    """`chase serve` (gunicorn, ``workers`` uvicorn workers of ``threads`` threads each; ``files``:
    the server's limit of open files, soft and hard, as a container's ``ulimits`` sets it)."""

    def __init__(self, env: dict[str, str], log: Path, workers: int = 2, threads: int = 4, files: int | None = None) -> None:
        self.port = free_port()
        self.log = log
        base = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
        env = {**base, **env, "CHASE_LEDGER_THREADS": str(threads), "PYTHONPATH": str(ROOT)}
        allow_open_files(8192)  # inherited by the server: its streams are sockets too
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                serve_command("127.0.0.1", self.port, workers, threads), cwd=ROOT, env=env,
                stdout=out, stderr=subprocess.STDOUT,
                # (one system call in the child, no lock taken: safe beside the caller's threads)
                preexec_fn=None if files is None else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (files, files)),  # noqa: PLW1509
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if Client(self.port).request("GET", "/health")[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"chase serve did not answer on /health: {log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def errors_logged(self) -> list[str]:
        """Tracebacks and errors in the server's log (gunicorn's own lines, and the JSON lines)."""
        return [line for line in self.log.read_text(errors="replace").splitlines()
                if "Traceback" in line or "[ERROR]" in line or '"level": "ERROR"' in line]


class Client:
    """One keep-alive HTTP connection, sending a bearer token once it has one."""

    def __init__(self, port: int, token: str | None = None) -> None:
        self.port = port
        self.token = token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.used = time.monotonic()

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if time.monotonic() - self.used > 1:
            self.conn.close()  # the server lets idle keep-alive connections go (CHASE_LEDGER_IDLE_TIMEOUT)
        payload = json.dumps(body) if body is not None else None
        try:
            self.conn.request(method, path, body=payload, headers=headers)
        except (BrokenPipeError, ConnectionResetError):
            # The server let this kept-alive connection go before the request reached it (a
            # starved machine can miss the idle margin above): nothing was read, send it anew.
            self.conn.close()
            self.conn.request(method, path, body=payload, headers=headers)
        response = self.conn.getresponse()
        self.used = time.monotonic()
        data = response.read()
        kind = response.getheader("Content-Type", "")
        return response.status, json.loads(data) if data and "json" in kind else data

    def close(self) -> None:
        self.conn.close()
