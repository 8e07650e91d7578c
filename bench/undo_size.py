"""What an undo, a redo and a replay store, and how long an undo and a redo take, in a big chase.

Run from the project folder (bounded: builds two chases through the API, about a minute on a
loaded machine)::

    .venv/bin/python bench/undo_size.py                       # 300 participants for undo, 200 for replay
    .venv/bin/python bench/undo_size.py --undo 300 --replay 200

It prints figures and never asserts. A Call of Cthulhu chase of ``--undo`` participants is built
through the API (the embedded default on a SQLite file); a die is rolled, then undone, then
redone: for each of the undo and the redo, the wall-clock time of the command (the Flask test
client: the whole WSGI stack; the roll's time beside them, a floor any command pays) and the bytes of the event as stored (the events table's row). A
chase of ``--replay`` participants is then replayed (``POST .../replays``, inline jobs): the bytes
of all its stored frames, and a page of frames asked for with ``limit=1000``: its bytes, and the
most memory Python held while serving it (tracemalloc). The
target: an undo at 300 participants stores under 10 KB and takes under 50 ms.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import os  # noqa: E402
import sqlite3  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from typing import Any  # noqa: E402

os.environ.setdefault("CHASE_LEDGER_RATE_LIMITS", "off")  # hundreds of commands a minute

from api import create_app  # noqa: E402
from infrastructure.bootstrap import build_ledger  # noqa: E402

MINIMAL = {"Prefer": "return=minimal"}


class Chase:
    """A chase of ``size`` participants, driven through the API."""

    def __init__(self, client: Any, size: int) -> None:
        self.client = client
        created = client.post("/chases", json={"name": f"{size} participants", "dice": "server"}).get_json()
        self.id = created["chase"]["chase_id"]
        self.url = f"/chases/{self.id}"
        self.auth = {"Authorization": f"Bearer {created['keeper_token']}"}
        self.post("/participants", {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
        for n in range(size - 1):
            self.post("/participants", {"name": f"Pursuer {n}", "role": "pursuer", "dex": 40 + n % 50, "con": 50, "mov": 7})

    def post(self, path: str, body: dict[str, Any]) -> float:
        started = time.perf_counter()
        response = self.client.post(self.url + path, json=body, headers={**self.auth, **MINIMAL})
        took = (time.perf_counter() - started) * 1000
        assert response.status_code in (200, 201, 202), (path, response.status_code, response.data[:300])
        return took


def last_event_bytes(db: Path) -> int:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT length(state) FROM stored_events ORDER BY rowid DESC LIMIT 1").fetchone()[0]


def frame_bytes(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as c:
        count, size = c.execute("SELECT COUNT(*), SUM(length(doc)) FROM chase_replay_frames").fetchone()
    return count, size or 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--undo", type=int, default=300, help="participants of the chase undone")
    parser.add_argument("--replay", type=int, default=200, help="participants of the chase replayed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        ledger = build_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
        client = create_app(lambda: ledger).test_client()
        chase = Chase(client, args.undo)
        roll_ms = chase.post("/dice-rolls", {"expression": "1D6", "purpose": "bench"})
        undo_ms = chase.post("/undo", {"count": 1})
        undo_bytes = last_event_bytes(db)
        redo_ms = chase.post("/redo", {})
        redo_bytes = last_event_bytes(db)
        print(f"{args.undo} participants: undo {undo_bytes:,} bytes stored, {undo_ms:.0f} ms; redo {redo_bytes:,} bytes stored, "
              f"{redo_ms:.0f} ms (the roll undone: {roll_ms:.0f} ms)")
        replayed = chase if args.replay == args.undo else Chase(client, args.replay)
        started = time.perf_counter()
        response = client.post(replayed.url + "/replays", headers=replayed.auth)
        assert response.status_code == 202, response.data[:300]
        job = response.get_json()["job"]
        done = client.get(f"{replayed.url}/jobs/{job['job_id']}?wait=30", headers=replayed.auth).get_json()["job"]
        assert done["status"] == "done", done
        took = time.perf_counter() - started
        count, size = frame_bytes(db)
        tracemalloc.start()
        page = client.get(f"{replayed.url}/replays/{job['job_id']}/frames?limit=1000", headers=replayed.auth)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{args.replay} participants: replay of {count} frames stores {size:,} bytes of frames ({took:.1f} s); "
              f"a page of frames (limit=1000) is {len(page.data):,} bytes, {peak / 1e6:.1f} MB at its peak to serve; "
              f"load average {os.getloadavg()[0]:.2f}")
        ledger.close()


if __name__ == "__main__":
    main()
