"""The load generator of bench/http.py: clients on keep-alive connections to 127.0.0.1.

A run is ``clients`` client threads spread over ``procs`` processes (forked), so that the
client's own Python work is not serialised behind one GIL on a small machine; each client keeps
one HTTP/1.1 connection open and sends one command at a time to a chase picked at random (or,
with one client, in turn), until ``seconds`` have passed or it sent ``limit`` commands. Every
command carries a request id that the server records in its event (the roll's purpose), so that
the run can be checked afterwards: each 2xx answer is exactly one recorded event.
"""
from __future__ import annotations

import http.client
import json
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from threading import Thread
from typing import Any

RID = "@RID@"  # replaced by the request id in each command's body


@dataclass(frozen=True)
class Command:
    """One chase's command: where to post it, with which headers and body (RID inside)."""

    path: str
    headers: dict[str, str]
    body: str


@dataclass
class RunResult:
    samples: list[tuple[int, str, int, float]] = field(default_factory=list)  # chase index, request id, status, ms
    elapsed: float = 0.0  # seconds from the common start to the last answer
    client_cpu: float = 0.0  # CPU seconds the client processes used while the run lasted
    errors: dict[int, str] = field(default_factory=dict)  # a sample body per non-2xx status

    @property
    def ok(self) -> int:
        return sum(1 for s in self.samples if 200 <= s[2] < 300)

    def statuses(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for s in self.samples:
            counts[s[2]] = counts.get(s[2], 0) + 1
        return counts

    def throughput(self) -> float:
        return self.ok / self.elapsed if self.elapsed else 0.0

    def latencies(self) -> list[float]:
        return [s[3] for s in self.samples if 200 <= s[2] < 300]


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (nearest rank)."""
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def median(samples: list[float]) -> float:
    return statistics.median(samples) if samples else float("nan")


def post(conn: http.client.HTTPConnection, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    conn.request("POST", path, body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read()


def _client(port: int, commands: list[Command], start_at: float, seconds: float, limit: int, tag: str, in_turn: bool, out: list) -> None:
    rng = random.Random(tag)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    deadline = start_at + seconds
    time.sleep(max(0.0, start_at - time.time()))
    n, last = 0, start_at
    while n < limit and time.time() < deadline:
        i = n % len(commands) if in_turn else rng.randrange(len(commands))
        command, rid = commands[i], f"{tag}-{n}"
        started = time.perf_counter()
        try:
            status, body = post(conn, command.path, command.body.replace(RID, rid).encode(), command.headers)
        except (OSError, http.client.HTTPException) as e:
            status, body = 0, repr(e).encode()  # 0: no answer (the command may or may not be recorded)
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        out.append((i, rid, status, (time.perf_counter() - started) * 1000, body if not 200 <= status < 300 else b""))
        last = time.time()
        n += 1
    conn.close()
    out.append(last)


def _process(port: int, commands: list[Command], threads: int, start_at: float, seconds: float, limit: int, tag: str, in_turn: bool) -> tuple[list, float, float]:
    outs: list[list] = [[] for _ in range(threads)]
    workers = [Thread(target=_client, args=(port, commands, start_at, seconds, limit, f"{tag}.{t}", in_turn, outs[t])) for t in range(threads)]
    time.sleep(max(0.0, start_at - time.time()))
    cpu = time.process_time()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    cpu = time.process_time() - cpu
    samples = [s for out in outs for s in out[:-1]]
    return samples, max(out[-1] for out in outs), cpu


def run(port: int, commands: list[Command], clients: int, procs: int, seconds: float, limit: int, tag: str) -> RunResult:
    """``clients`` clients for ``seconds`` (at most ``limit`` commands each), all starting together."""
    procs = max(1, min(procs, clients))
    shares = [clients // procs + (1 if p < clients % procs else 0) for p in range(procs)]
    start_at = time.time() + 0.3 + 0.05 * procs  # time for the processes to fork and connect
    with ProcessPoolExecutor(max_workers=procs, mp_context=get_context("fork")) as pool:
        futures = [pool.submit(_process, port, commands, n, start_at, seconds, limit, f"{tag}.p{p}", clients == 1) for p, n in enumerate(shares)]
        parts = [f.result() for f in futures]
    result = RunResult()
    for samples, last, cpu in parts:
        for i, rid, status, ms, body in samples:
            result.samples.append((i, rid, status, ms))
            if body and status not in result.errors:
                result.errors[status] = body[:300].decode(errors="replace")
        result.elapsed = max(result.elapsed, last - start_at)
        result.client_cpu += cpu
    return result


def get_json(port: int, path: str, headers: dict[str, str] | None = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {path}: {response.status} {body[:300]!r}")
        return json.loads(body)
    finally:
        conn.close()
