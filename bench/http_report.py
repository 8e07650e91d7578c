"""The tables bench/http.py prints: API against floor per store, with the issue's targets."""
from __future__ import annotations

import argparse
import os
from typing import Any

from bench.http_load import median, percentile

TARGET_THROUGHPUT = 0.70  # API / floor, many clients: at least
TARGET_MEDIAN = 1.5  # API / floor, one client's median latency: at most
LABELS = {"sqlite": "SQLite (file)", "postgresql": "PostgreSQL"}


def _pooled(runs: list[dict[str, Any]], side: str, clients: int) -> dict[str, Any]:
    mine = [m for m in runs if m["side"] == side and m["clients"] == clients]
    ok = sum(m["result"].ok for m in mine)
    elapsed = sum(m["result"].elapsed for m in mine)
    latencies = [x for m in mine for x in m["result"].latencies()]
    statuses: dict[int, int] = {}
    checks: dict[str, int] = {}
    for m in mine:
        for status, n in m["result"].statuses().items():
            if not 200 <= status < 300:
                statuses[status] = statuses.get(status, 0) + n
        for key, n in m["check"].items():
            checks[key] = checks.get(key, 0) + n
    return {
        "throughput": ok / elapsed if elapsed else 0.0,
        "rounds": [m["result"].throughput() for m in mine],
        "median": median(latencies), "p99": percentile(latencies, 99) if latencies else float("nan"),
        "ok": ok, "statuses": statuses, "checks": checks,
        "server_cpu_ms": 1000 * sum(m["server_cpu"] for m in mine) / ok if ok else float("nan"),
        "client_cpu_us": 1e6 * sum(m["result"].client_cpu for m in mine) / max(1, sum(len(m["result"].samples) for m in mine)),
        "client_share": sum(m["result"].client_cpu for m in mine) / (elapsed * (os.cpu_count() or 1)) if elapsed else 0.0,
        "errors": {s: e for m in mine for s, e in m["result"].errors.items()},
    }


def report(results: list[dict[str, Any]], args: argparse.Namespace) -> bool:
    """Print the tables; true when nothing was lost, duplicated or answered 5xx."""
    sound = True
    many = args.clients
    print()
    print(f"API: POST /chases/{{id}}/dice-rolls (1D6, server dice, by Harvey); floor: POST /tallies/{{id}}/rolls (bench/floor_app.py).")
    print(f"Both under gunicorn as `chase serve` runs it ({args.workers} workers x {args.threads} threads), on 127.0.0.1, "
          f"{args.chases} chases; {args.rounds} rounds of alternating runs: {many} clients x {args.seconds:g} s "
          f"(over {args.client_procs} client processes), 1 client x {args.single_seconds:g} s; keep-alive connections.")
    for outcome in results:
        runs = outcome["runs"]
        a, f = _pooled(runs, "API", many), _pooled(runs, "floor", many)
        a1, f1 = _pooled(runs, "API", 1), _pooled(runs, "floor", 1)
        per_round = [x / y for x, y in zip(a["rounds"], f["rounds"]) if y]
        t_ratio = a["throughput"] / f["throughput"] if f["throughput"] else 0.0
        m_ratio = a1["median"] / f1["median"] if f1["median"] else float("inf")
        print(f"\n{LABELS[outcome['store']]}")
        print(f"  {'figure':<40} {'API':>9} {'floor':>9} {'API/floor':>10} {'target':>9}  result")
        rows = [
            (f"throughput, {many} clients (commands/s)", a["throughput"], f["throughput"], f"{t_ratio:.2f}", f">= {TARGET_THROUGHPUT:.2f}", t_ratio >= TARGET_THROUGHPUT),
            (f"  median latency, {many} clients (ms)", a["median"], f["median"], f"{a['median'] / f['median']:.2f}x", "", None),
            (f"  p99 latency, {many} clients (ms)", a["p99"], f["p99"], f"{a['p99'] / f['p99']:.2f}x", "", None),
            ("median latency, 1 client (ms)", a1["median"], f1["median"], f"{m_ratio:.2f}x", f"<= {TARGET_MEDIAN:.1f}x", m_ratio <= TARGET_MEDIAN),
            ("  p99 latency, 1 client (ms)", a1["p99"], f1["p99"], f"{a1['p99'] / f1['p99']:.2f}x", "", None),
            (f"  server CPU per command, {many} clients (ms)", a["server_cpu_ms"], f["server_cpu_ms"], f"{a['server_cpu_ms'] / f['server_cpu_ms']:.2f}x", "", None),
            ("  server CPU per command, 1 client (ms)", a1["server_cpu_ms"], f1["server_cpu_ms"], f"{a1['server_cpu_ms'] / f1['server_cpu_ms']:.2f}x", "", None),
        ]
        for label, x, y, ratio, target, ok in rows:
            verdict = "" if ok is None else ("PASS" if ok else "FAIL")
            print(f"  {label:<40} {x:9.2f} {y:9.2f} {ratio:>10} {target:>9}  {verdict}")
        print(f"  throughput ratio per round: {', '.join(f'{r:.2f}' for r in per_round)} "
              f"(API {', '.join(f'{x:.0f}' for x in a['rounds'])}; floor {', '.join(f'{x:.0f}' for x in f['rounds'])} commands/s)")
        for name, s, s1 in (("API", a, a1), ("floor", f, f1)):
            checks = {k: s["checks"].get(k, 0) + s1["checks"].get(k, 0) for k in s["checks"]}
            statuses = {k: s["statuses"].get(k, 0) + s1["statuses"].get(k, 0) for k in {**s["statuses"], **s1["statuses"]}}
            fine = checks.get("lost", 0) == checks.get("duplicated", 0) == checks.get("recorded without 2xx", 0) == 0
            bad = {k: v for k, v in statuses.items() if k >= 500 or k == 0}
            sound = sound and fine and not bad
            print(f"  {name:<5} {s['ok'] + s1['ok']} commands answered 2xx; {checks}: {'PASS' if fine else 'FAIL'}; "
                  f"other answers {statuses or 'none'}{' (5xx or no answer: FAIL)' if bad else ''}")
            for status, body in {**s["errors"], **s1["errors"]}.items():
                print(f"        {status}: {body[:200]}")
        short = outcome["views_short"]
        print(f"  API roll history lists every recorded roll: {'yes' if not short else f'NO, {len(short)} chases short'}")
        print(f"  client: {a['client_cpu_us']:.0f} us CPU per command, {a['client_share']:.0%} of the machine's CPU during the "
              f"API's {many}-client runs ({f['client_share']:.0%} during the floor's)")
    return sound
