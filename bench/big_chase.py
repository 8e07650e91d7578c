"""A big chase stays fast (issue 12 part 6): commands at 10 and at 1,000 participants.

Run from the project folder::

    .venv/bin/python bench/big_chase.py             # SQLite file in a temporary folder
    .venv/bin/python bench/big_chase.py --repeat 21   # more runs per median (default 9)

It prints figures and never asserts. Two chases are built through the API (Flask test client,
the whole WSGI stack, server dice, the embedded default on a SQLite file): one with 10
participants, one with 1,000. On each, in turn (so a burst of outside load hits both alike),
it times, median of ``--repeat`` runs:

* adding one more participant (``POST .../participants``): each chase grows by two per run
  (10 becomes 28 after 9 runs, 1,000 becomes 1,018), which barely moves either figure; undoing
  each addition instead would time the commands after an undo at 1,000 participants, which
  restores a state of 1,000 participants and is far slower than the commands measured;
* rolling a die (``POST .../dice-rolls`` ``1D6``);

each answered in full (the default) and with ``Prefer: return=minimal``; and reading the track
view (``GET .../track``, always in full) after a roll, as a client that sent the roll with
``return=minimal`` would. It prints the answers' sizes, and beside each median wall-clock time
the median CPU time of the thread that served it, which other processes on a shared machine
disturb far less. What is timed ends when the app hands its answer to the server (the test
client's ``post`` returns): a full answer of 128 participants or more is a list of chunks, the
participants' kept blocks (api/joined.py), which the server then writes out one after another
(some 10 MB through the socket at 1,000 participants, whatever the app does): that writing is
not timed here, and neither is the test client's joining of the chunks (``response.data``, read
after the clock stops). A smaller answer is one bytes object, joined within the time. The
full answer's commands follow the same commands answered minimally, so a full answer also pays
for looking at what those changed (as a client that mixes the two would see). The target (issue 12): at 1,000 participants each command answers in under
2x its time at 10 (the floor: the same command at 10 participants, measured in the same run),
and the answer stays small.
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
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

os.environ.setdefault("CHASE_LEDGER_RATE_LIMITS", "off")  # thousands of commands a minute

from api import create_app  # noqa: E402
from infrastructure.bootstrap import build_ledger  # noqa: E402

SIZES = (10, 1_000)
MINIMAL = {"Prefer": "return=minimal"}


def pursuer(n: int) -> dict[str, Any]:
    return {"name": f"Pursuer {n}", "role": "pursuer", "dex": 40 + n % 50, "con": 50, "mov": 7}


class Chase:
    """One chase of ``size`` participants, driven through the API."""

    def __init__(self, client: Any, size: int) -> None:
        self.client, self.size, self.added = client, size, 0
        body = client.post("/chases", json={"name": f"{size} participants", "dice": "server"}).get_json()
        self.url = f"/chases/{body['chase']['chase_id']}"
        self.auth = {"Authorization": f"Bearer {body['keeper_token']}"}
        self.post("/participants", {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6})
        for n in range(size - 1):
            self.post("/participants", pursuer(n))

    def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> Any:
        response = self.client.post(self.url + path, json=body, headers={**self.auth, **(headers or {})})
        assert response.status_code in (200, 201), (path, response.status_code, response.get_json())
        return response

    def timed(self, path: str, body: dict[str, Any], headers: dict[str, str] | None) -> tuple[float, float, int]:
        started, cpu = time.perf_counter(), time.thread_time()
        response = self.post(path, body, headers)
        return (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000, len(response.data)

    def add_one(self, headers: dict[str, str] | None) -> tuple[float, float, int]:
        self.added += 1
        return self.timed("/participants", pursuer(self.size + self.added), headers)

    def roll(self, headers: dict[str, str] | None) -> tuple[float, float, int]:
        return self.timed("/dice-rolls", {"expression": "1D6", "purpose": "bench"}, headers)

    def read_after_roll(self) -> tuple[float, float, int]:
        self.roll(MINIMAL)
        started, cpu = time.perf_counter(), time.thread_time()
        response = self.client.get(self.url + "/track", headers=self.auth)
        assert response.status_code == 200, response.status_code
        return (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000, len(response.data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        ledger = build_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(folder) / "bench.sqlite3")})
        client = create_app(lambda: ledger).test_client()
        started = time.perf_counter()
        chases = {size: Chase(client, size) for size in SIZES}
        print(f"built chases of {', '.join(map(str, SIZES))} participants in {time.perf_counter() - started:.1f} s; load average {os.getloadavg()[0]:.2f}")
        rows = [(command, answer, size) for command in ("add a participant", "roll 1D6") for answer in ("full", "minimal") for size in SIZES]
        rows += [("GET track", "full", size) for size in SIZES]
        samples: dict[tuple[str, str, int], list[tuple[float, float, int]]] = {row: [] for row in rows}
        for _ in range(args.repeat):
            for command, answer, size in rows:  # interleaved: outside load hits every row alike
                chase, headers = chases[size], (MINIMAL if answer == "minimal" else None)
                run = {"add a participant": chase.add_one, "roll 1D6": chase.roll}.get(command)
                samples[(command, answer, size)].append(run(headers) if run else chase.read_after_roll())
        print(f"\n{'command':<20} {'answer':<8} {'participants':>12} {'median ms':>10} {'x floor':>8} {'cpu ms':>8} {'x floor':>8} {'answer bytes':>13}")
        for command, answer, size in rows:
            row = []
            for i in (0, 1):  # wall-clock time, and the CPU time of the thread that served it (steadier on a shared machine)
                median = statistics.median(sample[i] for sample in samples[(command, answer, size)])
                floor = statistics.median(sample[i] for sample in samples[(command, answer, SIZES[0])])
                row += [median, median / floor]
            size_bytes = samples[(command, answer, size)][-1][2]
            print(f"{command:<20} {answer:<8} {size:>12} {row[0]:>10.2f} {row[1]:>8.2f} {row[2]:>8.2f} {row[3]:>8.2f} {size_bytes:>13}")
        print(f"\nfloor: the same command and answer at {SIZES[0]} participants; target: x floor < 2 at {SIZES[-1]}; load average {os.getloadavg()[0]:.2f}")
        ledger.close()


if __name__ == "__main__":
    main()
