"""What the operations layer (api/observability.py) costs each request, beside a floor.

Run from the project folder::

    .venv/bin/python bench/observability.py [--requests 5000]

In one process, through Flask's test client (no network), in the same run:

1. the floor: a bare Flask app answering ``GET /health`` (no hooks at all);
2. the API's ``GET /health``: request id, CORS check, counts and a JSON log line (written to
   memory) around the same trivial answer;
3. the pieces alone: counting a request in the Prometheus metrics, and writing one JSON line.

Figures are medians of per-request times in microseconds; on a busy machine, upper bounds.
"""
from __future__ import annotations

import argparse
import io
import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

# Run as a script, this file's folder comes first on sys.path, and bench/http.py would shadow the
# standard library's ``http`` package: take it off.
HERE, ROOT = Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from api import create_app  # noqa: E402
from infrastructure import metrics  # noqa: E402
from infrastructure.bootstrap import build_ledger  # noqa: E402
from infrastructure.logs import configure  # noqa: E402
from infrastructure.settings import WebSettings  # noqa: E402


def median_us(action: Callable[[], Any], n: int) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=5000)
    n = parser.parse_args().requests
    configure("json")
    logging.getLogger().handlers[0].stream = io.StringIO()  # JSON lines formatted, kept in memory

    bare = Flask("floor")
    bare.get("/health")(lambda: {"status": "ok"})
    floor = bare.test_client()
    ledger = build_ledger({"SQLITE_DBNAME": ":memory:"})
    ours = create_app(lambda: ledger, web=WebSettings(cors_origins=("https://table.example",))).test_client()
    request_log = logging.getLogger("chase_ledger.requests")
    line = {"request_id": "0" * 32, "method": "POST", "path": "/chases/x/rolls", "route": "/chases/<uuid:chase_id>/rolls",
            "status": 201, "duration_ms": 2.0, "chase_id": "x"}

    for _ in range(200):  # warm up
        floor.get("/health")
        ours.get("/health")
    print(f"{n} requests each, medians in microseconds")
    print(f"  floor: bare Flask GET /health          {median_us(lambda: floor.get('/health'), n):8.1f}")
    print(f"  API GET /health (ids, counts, a line)  {median_us(lambda: ours.get('/health', headers={'Origin': 'https://table.example'}), n):8.1f}")
    print(f"  counting one request (metrics)         {median_us(lambda: metrics.count('POST', line['route'], 201, 0.002, True), n):8.1f}")
    print(f"  one JSON request line                  {median_us(lambda: request_log.info('%s %s %s', 'POST', line['path'], 201, extra=line), n):8.1f}")
    ledger.close()


if __name__ == "__main__":
    main()
