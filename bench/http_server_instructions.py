"""Instructions per dice-roll command of a whole gunicorn worker, the API's and the floor's (callgrind).

Run from the project folder (valgrind must be installed; each side takes a few minutes)::

    .venv/bin/python bench/http_server_instructions.py                  # API and floor, SQLite
    .venv/bin/python bench/http_server_instructions.py --sides api --commands 100
    .venv/bin/python bench/http_server_instructions.py --store postgresql --pg-database chase_bench_x

bench/http_instructions.py counts a command inside Flask's test client; this counts what the
server does for it end to end: the socket, uvicorn's HTTP parser and event loop, the ASGI host,
a2wsgi's threads, Flask, the request log line and the metrics. Each side is served as
bench/http.py serves it (`chase serve`'s gunicorn command, infrastructure/cli.py), with one
worker (``--timeout`` raised, as a worker under valgrind boots slowly: nothing on a request's
path reads it), under callgrind. Once the chases are set up and ``--commands`` commands have
warmed the worker up, its counts are zeroed (``callgrind_control -z <pid>``), ``--commands``
commands are sent by ``--clients`` clients on keep-alive connections (one: in turn over the
chases), and the counts dumped. The worker's idle ticks in that time (uvicorn's main loop wakes
every 0.1 s), counted for ``--idle`` seconds beforehand, are taken off.
"""
from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, where bench/http.py would shadow the
# standard library's http package: take the folder off.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import glob  # noqa: E402
import http.client  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from bench import http_server_conf  # noqa: E402
from bench.http import OURS, Api, Floor, free_port, get_json, serve_command  # noqa: E402
from bench.http_load import RID, post  # noqa: E402
from bench.instruction_counts import each_side, options  # noqa: E402

APPS = {"api": ("api.asgi:app", Api), "floor": ("bench.floor_app:asgi", Floor)}
BUILDS = {"api": "/ready", "floor": "/tallies/00000000-0000-0000-0000-000000000000"}  # a GET that builds the app's store
CONTROL = """
#include <valgrind/callgrind.h>
void zero(void) { CALLGRIND_ZERO_STATS; }
void dump(void) { CALLGRIND_DUMP_STATS; }
"""


def control_library(folder: Path) -> Path:
    """A shared library that zeroes or dumps callgrind's counts of the process that calls it."""
    source, library = folder / "control.c", folder / "control.so"
    source.write_text(CONTROL)
    subprocess.run(["cc", "-shared", "-fPIC", "-O1", "-o", str(library), str(source)], check=True)
    return library


class Served:
    """One side's gunicorn (one worker) under callgrind."""

    def __init__(self, side: str, env: dict[str, str], folder: Path, threads: int) -> None:
        self.port = free_port()
        self.out = folder / f"callgrind-{side}"
        command = serve_command(self.port, 1, threads, APPS[side][0])
        command[command.index("python:api.gunicorn_conf")] = "python:bench.http_server_conf"  # the same, and a way to dump
        command[-1:-1] = ["--timeout", "1800"]
        self.log = open(folder / f"{side}.log", "wb")  # noqa: SIM115 - closed by stop()
        self.proc = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={self.out}.%p", *command],
            cwd=ROOT, env={**env, "CHASE_LEDGER_THREADS": str(threads), "CHASE_BENCH_CALLGRIND_CONTROL": str(control_library(folder))}, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 900
        while time.time() < deadline and self.proc.poll() is None:
            try:
                get_json(self.port, "/health")
                return
            except (OSError, RuntimeError):
                time.sleep(1)
        self.stop()
        raise SystemExit(f"{side} did not answer on /health: {(folder / f'{side}.log').read_text()[-2000:]}")

    def worker(self) -> int:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        if len(children) != 1:
            raise SystemExit(f"expected one worker, found {children}")
        return int(children[0])

    def zero(self, pid: int) -> None:
        os.kill(pid, http_server_conf.ZERO)
        time.sleep(1)  # (the worker's event loop wakes to it at once; counted with the idle ticks)

    def dump(self, pid: int) -> int:
        """The instructions the worker ran since it was last zeroed: the dump's ``totals`` (the sum of
        its functions' own costs; its ``summary`` also counts calls begun before the zero)."""
        before = set(glob.glob(f"{self.out}.{pid}.*"))
        os.kill(pid, http_server_conf.DUMP)
        deadline = time.time() + 300
        while time.time() < deadline:
            for dump in set(glob.glob(f"{self.out}.{pid}.*")) - before:
                for line in Path(dump).read_text().splitlines():
                    if line.startswith("totals:"):
                        return int(line.split()[1])
            time.sleep(0.5)
        raise SystemExit(f"the worker {pid} wrote no dump")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def send(port: int, commands: list[Any], count: int, clients: int) -> None:
    """``count`` commands from ``clients`` clients, each on one keep-alive connection."""
    failures: list[str] = []

    def client(c: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        for n in range(c, count, clients):
            command = commands[n % len(commands)]
            status, body = post(conn, command.path, command.body.replace(RID, f"c{c}-{n}-{time.time_ns()}").encode(), command.headers)
            if not 200 <= status < 300:
                failures.append(f"{status} {body[:300]!r}")
        conn.close()

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise SystemExit(f"{len(failures)} commands failed, e.g. {failures[0]}")


def measure(side: str, args: argparse.Namespace, folder: Path, store_env: dict[str, str]) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(OURS) and k != "PROMETHEUS_MULTIPROC_DIR"}
    env.update(store_env)
    if args.multiprocess_metrics:  # as `chase serve` runs (infrastructure/cli.py)
        env["PROMETHEUS_MULTIPROC_DIR"] = str(folder / f"metrics-{side}")
        os.makedirs(env["PROMETHEUS_MULTIPROC_DIR"], exist_ok=True)
    served = Served(side, env, folder, args.threads)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=900)  # slow under valgrind: longer than set-up waits
        conn.request("GET", BUILDS[side])
        conn.getresponse().read()
        conn.close()
        client = APPS[side][1](served)  # type: ignore[arg-type]
        client.set_up(args.chases)
        send(served.port, client.commands, args.commands, args.clients)  # warm-up
        pid = served.worker()
        served.zero(pid)
        served.dump(pid)  # (the first dump after the start counts some one-off work: left out)
        served.zero(pid)
        started = time.time()
        time.sleep(args.idle)
        idle = served.dump(pid) / (time.time() - started)
        served.zero(pid)
        started = time.time()
        send(served.port, client.commands, args.commands, args.clients)
        counted = served.dump(pid)
        idle *= time.time() - started
        return (counted - idle) / args.commands, idle / args.commands
    finally:
        served.stop()


def main() -> None:
    parser = options(__doc__)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("CHASE_LEDGER_THREADS", "4")))
    parser.add_argument("--idle", type=float, default=5, help="seconds the idle worker is counted for")
    parser.add_argument("--multiprocess-metrics", action="store_true", help="with PROMETHEUS_MULTIPROC_DIR set, as `chase serve` runs")
    args = parser.parse_args()

    def per_command(side: str, folder: Path, store_env: dict[str, str]) -> tuple[float, str]:
        counted, idle = measure(side, args, folder, store_env)
        return counted, (f" in the worker (idle ticks left out: {idle / 1e6:.2f}; {args.commands} commands, "
                         f"{args.clients} client(s), {args.chases} chases)")

    each_side(args, ("valgrind", "callgrind_control"), per_command)


if __name__ == "__main__":
    main()
