"""Command latency with a thousand SSE streams open on one API host, beside a bare request.

Run from the project folder::

    .venv/bin/python bench/streams.py                       # 1,000 streams, 3 rounds of 100 commands a phase
    .venv/bin/python bench/streams.py --streams 2000 --commands 500 --redis redis://127.0.0.1:6379/0

It starts `chase serve` as the README's embedded default (SQLite file, jobs inline, no Redis
unless ``--redis``; ``--workers`` x ``--threads``, 2 x 4 by default), on a free port, and one
client that sends its requests one after another (latency, not throughput). In the same run:

1. no stream open: ``--commands`` dice rolls on chase A, and as many bare requests (``GET
   /health``: the floor, all the serving layers and no work);
2. ``--streams`` streams open on chase B: the same rolls on chase A and bare requests (what the
   open streams cost the others);
3. the same streams, and the rolls on chase B: each roll is sent to every stream (fan-out),
   and the bench checks that every stream was sent every roll; then the streams are closed.

``--rounds`` rounds of the three phases, figures pooled over the rounds. Beside each phase's
latencies, the server's CPU time per request in it (user + system, of every gunicorn worker, from
/proc; in the fan-out phase up to the moment every stream was sent every roll).

The streams are held by one event loop in a process of its own (tests/e2e/sse_crowd.py), which
shares the machine's cores with the server: figures from a busy machine are upper bounds.
Target (issue 12): with 1,000 streams open the median command under 10 ms.
"""
from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and bench/http.py would shadow the
# standard library's ``http`` package: take it off.
HERE, ROOT = Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from tests.e2e.served_process import ChaseServe, Client, allow_open_files  # noqa: E402
from tests.e2e.sse_crowd import StreamCrowd  # noqa: E402


def timed(call: Callable[[], tuple[int, object]], times: int) -> list[float]:
    seconds = []
    for _ in range(times):
        started = time.perf_counter()
        status, body = call()
        seconds.append(time.perf_counter() - started)
        if status >= 300:
            raise SystemExit(f"answered {status}: {body!r}")
    return seconds


def server_cpu(master: int) -> float:
    """CPU seconds (user + system) used so far by the gunicorn master's workers."""
    ticks = 0
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return 0.0
    for pid in children:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # (a worker that has just exited)
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (man 5 proc)
    return ticks / os.sysconf("SC_CLK_TCK")


def line(label: str, seconds: list[float], cpu: list[float] | None = None) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    spent = f"   server CPU {sum(cpu) / len(seconds) * 1000:5.2f} ms/request" if cpu else ""
    return f"  {label:<44} median {statistics.median(seconds) * 1000:7.2f} ms   p99 {p99 * 1000:7.2f} ms{spent}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=100, help="rolls (and bare requests) per phase and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--settle", type=float, default=1.0, help="seconds to wait after opening or closing the streams")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--redis", help="REDIS_URL for the server (default: none, as the embedded default)")
    args = parser.parse_args()
    allow_open_files(args.streams + 1024)
    with tempfile.TemporaryDirectory(prefix="chase-streams-") as folder:
        # A thousand streams opened at once from one address: its rate limit (api/limits.py) would
        # refuse most, and its cap on connections (api/guarded_http.py) all past the first few hundred.
        env = {"SQLITE_DBNAME": str(Path(folder) / "chase.sqlite3"), "CHASE_LEDGER_RATE_LIMITS": "off", "CHASE_LEDGER_CONNECTIONS_PER_ADDRESS": "0"}
        if args.redis:
            env["REDIS_URL"] = args.redis
            env["CHASE_LEDGER_QUEUE_PREFIX"] = f"bench-streams-{int(time.time())}"
        server = ChaseServe(env, Path(folder) / "serve.log", args.workers, args.threads)
        crowd = None
        try:
            keeper = Client(server.port)
            chases = {}
            for name in ("A", "B"):
                status, created = keeper.request("POST", "/chases", {"name": f"chase {name}", "dice": "server"})
                chases[name] = (created["chase"]["chase_id"], created["keeper_token"])

            def roll(name: str) -> Callable[[], tuple[int, object]]:
                chase_id, token = chases[name]
                keeper.token = token
                return lambda: keeper.request("POST", f"/chases/{chase_id}/dice-rolls", {"expression": "1D100"})

            bare = lambda: keeper.request("GET", "/health")  # noqa: E731
            for name in ("A", "B"):
                timed(roll(name), 20)  # warm up both workers' caches
            timed(bare, 20)
            print(f"chase serve: {args.workers} workers x {args.threads} threads, SQLite, {'Redis' if args.redis else 'no Redis'}; "
                  f"{args.rounds} rounds of {args.commands} requests a phase, one after another")
            chase_b, token_b = chases["B"]
            figures: dict[str, list[float]] = {}
            cpu: dict[str, list[float]] = {}
            master = server.proc.pid

            def phase(name: str, call: Callable[[], tuple[int, object]]) -> None:
                spent = server_cpu(master)
                figures.setdefault(name, []).extend(timed(call, args.commands))
                cpu.setdefault(name, []).append(server_cpu(master) - spent)

            rolled_b = 20
            for r in range(args.rounds):
                # Phases alternate within a round, so that a busy machine weighs on each alike.
                phase("quiet bare", bare)
                phase("quiet roll A", roll("A"))
                crowd = StreamCrowd(server.port, f"/chases/{chase_b}/stream", token_b, args.streams)
                started = time.perf_counter()
                crowd.open()
                figures.setdefault("opening", []).append(time.perf_counter() - started)
                time.sleep(args.settle)  # the streams' first reads done: measure the steady state
                if crowd.statuses != [200] * args.streams:
                    raise SystemExit(f"streams refused: {sorted(set(crowd.statuses), key=str)}")
                phase("crowded bare", bare)
                phase("crowded roll A", roll("A"))
                spent = server_cpu(master)
                figures.setdefault("fan-out roll B", []).extend(timed(roll("B"), args.commands))
                rolled_b += args.commands
                started = time.perf_counter()
                if not crowd.seen_by_all(rolled_b + 1, timeout=120):
                    raise SystemExit(f"{len(crowd.behind(rolled_b + 1))} streams were not sent every roll")
                figures.setdefault("caught up", []).append(time.perf_counter() - started)
                cpu.setdefault("fan-out roll B", []).append(server_cpu(master) - spent)
                crowd.close()
                crowd = None
                time.sleep(args.settle)  # the server has let the closed streams go
            print("no stream open:")
            print(line("bare request (GET /health): the floor", figures["quiet bare"], cpu["quiet bare"]))
            print(line("roll on chase A", figures["quiet roll A"], cpu["quiet roll A"]))
            print(f"{args.streams} streams open on chase B (opened in {statistics.median(figures['opening']):.1f} s):")
            print(line("bare request (GET /health): the floor", figures["crowded bare"], cpu["crowded bare"]))
            print(line("roll on chase A (no stream follows it)", figures["crowded roll A"], cpu["crowded roll A"]))
            print(line(f"roll on chase B (sent to all {args.streams})", figures["fan-out roll B"], cpu["fan-out roll B"]))
            print(f"  every stream was sent every roll, at most {max(figures['caught up']):.2f} s after the last answer")
        finally:
            if crowd is not None:
                crowd.close()
            server.stop()
        errors = server.errors_logged()
        if errors:
            print("server errors:", *errors[:10], sep="\n  ")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
