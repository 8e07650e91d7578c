"""A big chase stays fast (issue 12 part 6): commands at 10 and at 1,000 participants.

Run from the project folder::

    .venv/bin/python bench/big_chase.py               # in-process, SQLite file in a temporary folder
    .venv/bin/python bench/big_chase.py --repeat 21   # more runs per median (default 9)
    .venv/bin/python bench/big_chase.py --http        # end to end, under gunicorn as `chase serve` runs it

It prints figures and never asserts. Two chases are built through the API (server dice, the
embedded default on a SQLite file): one with 10 participants, one with 1,000. On each, in turn
(so a burst of outside load hits both alike), it times, median of ``--repeat`` runs:

* adding one more participant (``POST .../participants``): each chase grows by three per run
  (10 becomes 37 after 9 runs, 1,000 becomes 1,027), which barely moves either figure; undoing
  each addition instead would time the commands after an undo at 1,000 participants, which
  restores a state of 1,000 participants and is far slower than the commands measured;
* rolling a die (``POST .../dice-rolls`` ``1D6``);

each answered in the default form (the track view, each action said once: api/compact_actions.py),
with ``Prefer: return=minimal`` and with ``Prefer: actions=full`` (each participant's actions
listed, for clients written before); and reading the track view (``GET .../track``, default and
full) after a roll, as a client that sent the roll with ``return=minimal`` would.
It prints the answers' sizes. The target (issue 12): at 1,000 participants each command answers
in under 2x its time at 10 (the floor: the same command and answer at 10 participants, measured
in the same run), and the answer stays small.

In-process (the default): the Flask test client, the whole WSGI stack. Beside each median
wall-clock time, the median CPU time of the thread that served it, which other processes on a
shared machine disturb far less. What is timed ends when the app hands its answer to the server
(the test client's ``post`` returns): a full answer of 128 participants or more is a list of
chunks, the participants' kept blocks (api/joined.py), which a server then writes out one after
another; that writing is not timed here, nor the test client's joining of the chunks
(``response.data``, read after the clock stops).

``--http``: end to end. The API runs under gunicorn with the command and settings `chase serve`
uses (infrastructure/cli.py: uvicorn workers, ``--workers`` x ``--threads``, 2 x 4 by default, as
the README), on a SQLite file; the client (Python's http.client, one keep-alive connection per
chase, as a front-end keeps one) times from sending the request to having read the whole answer
(what the server wrote through the socket, the client's read of it). Its CPU column is the CPU
time of every thread of the server's workers meanwhile (/proc schedstat, in nanoseconds). The
default and full answers' commands follow commands answered in other forms, so each also pays
for looking at what those changed (as a client that mixes them would).
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
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
ANSWERS = {"default": None, "minimal": MINIMAL, "full": {"Prefer": "actions=full"}}


def pursuer(n: int) -> dict[str, Any]:
    return {"name": f"Pursuer {n}", "role": "pursuer", "dex": 40 + n % 50, "con": 50, "mov": 7}


class InProcess:
    """The Flask test client: timed until the app hands its answer over (see above)."""

    cpu = True

    def __init__(self, client: Any) -> None:
        self.client = client

    def send(self, method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, bytes, float, float]:
        started, cpu = time.perf_counter(), time.thread_time()
        response = self.client.open(path, method=method, json=body, headers=headers)
        took, cpu = (time.perf_counter() - started) * 1000, (time.thread_time() - cpu) * 1000
        return response.status_code, response.data, took, cpu


class OverHTTP:
    """One keep-alive connection to the server, a chase's: timed until the whole answer is read,
    with the CPU time the server's workers spent meanwhile (every thread's, from /proc: the
    request's work, writing the answer out, and whatever else the workers did then)."""

    cpu = True

    def __init__(self, server: Any) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
        self.master = server.proc.pid

    def server_ns(self) -> int:
        total = 0
        for worker in Path(f"/proc/{self.master}/task/{self.master}/children").read_text().split():
            for task in Path(f"/proc/{worker}/task").iterdir():
                try:
                    total += int((task / "schedstat").read_text().split()[0])  # ns on a CPU
                except (OSError, ValueError, IndexError):
                    continue  # a thread that ended meanwhile
        return total

    def send(self, method: str, path: str, body: Any, headers: dict[str, str]) -> tuple[int, bytes, float, float]:
        encoded = json.dumps(body).encode() if body is not None else None
        headers = {**headers, "Content-Type": "application/json"} if encoded is not None else headers
        for attempt in (1, 2):
            cpu = self.server_ns()
            started = time.perf_counter()
            try:
                self.conn.request(method, path, body=encoded, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                took = (time.perf_counter() - started) * 1000
                return response.status, data, took, (self.server_ns() - cpu) / 1e6
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                # The server closed the connection while it sat idle (uvicorn's keep-alive
                # timeout, 5 s, while the other chase was built): opened again, timed afresh.
                self.conn.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


class Chase:
    """One chase of ``size`` participants, driven through the API."""

    def __init__(self, client: Any, size: int) -> None:
        self.client, self.size, self.added = client, size, 0
        body = self.json("POST", "/chases", {"name": f"{size} participants", "dice": "server"}, {})
        self.url = f"/chases/{body['chase']['chase_id']}"
        self.auth = {"Authorization": f"Bearer {body['keeper_token']}"}
        self.post("/participants", {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}, MINIMAL)
        for n in range(size - 1):
            self.post("/participants", pursuer(n), MINIMAL)

    def json(self, method: str, path: str, body: Any, headers: dict[str, str]) -> Any:
        status, data, _, _ = self.client.send(method, path, body, headers)
        assert status in (200, 201), (path, status, data[:300])
        return json.loads(data)

    def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> tuple[float, float, int]:
        status, data, took, cpu = self.client.send("POST", self.url + path, body, {**self.auth, **(headers or {})})
        assert status in (200, 201), (path, status, data[:300])
        return took, cpu, len(data)

    def add_one(self, headers: dict[str, str] | None) -> tuple[float, float, int]:
        self.added += 1
        return self.post("/participants", pursuer(self.size + self.added), headers)

    def roll(self, headers: dict[str, str] | None) -> tuple[float, float, int]:
        return self.post("/dice-rolls", {"expression": "1D6", "purpose": "bench"}, headers)

    def read_after_roll(self, headers: dict[str, str] | None) -> tuple[float, float, int]:
        self.roll(MINIMAL)
        status, data, took, cpu = self.client.send("GET", self.url + "/track", None, {**self.auth, **(headers or {})})
        assert status == 200, status
        return took, cpu, len(data)


def measure(clients: dict[int, Any], repeat: int) -> None:
    started = time.perf_counter()
    chases = {size: Chase(clients[size], size) for size in SIZES}
    print(f"built chases of {', '.join(map(str, SIZES))} participants in {time.perf_counter() - started:.1f} s; load average {os.getloadavg()[0]:.2f}")
    rows = [(command, answer, size) for command in ("add a participant", "roll 1D6") for answer in ANSWERS for size in SIZES]
    rows += [("GET track", answer, size) for answer in ("default", "full") for size in SIZES]
    samples: dict[tuple[str, str, int], list[tuple[float, float, int]]] = {row: [] for row in rows}
    for _ in range(repeat):
        for command, answer, size in rows:  # interleaved: outside load hits every row alike
            chase = chases[size]
            run = {"add a participant": chase.add_one, "roll 1D6": chase.roll, "GET track": chase.read_after_roll}[command]
            samples[(command, answer, size)].append(run(ANSWERS[answer]))
    cpu = clients[SIZES[0]].cpu
    print(f"\n{'command':<20} {'answer':<8} {'participants':>12} {'median ms':>10} {'x floor':>8}" + (f" {'cpu ms':>8} {'x floor':>8}" if cpu else "") + f" {'answer bytes':>13}")
    for command, answer, size in rows:
        row = []
        for i in (0, 1) if cpu else (0,):  # wall-clock time, and the CPU time of the thread that served it (steadier on a shared machine)
            median = statistics.median(sample[i] for sample in samples[(command, answer, size)])
            floor = statistics.median(sample[i] for sample in samples[(command, answer, SIZES[0])])
            row.append(f"{median:>10.2f} {median / floor:>8.2f}" if i == 0 else f"{median:>8.2f} {median / floor:>8.2f}")
        size_bytes = samples[(command, answer, size)][-1][2]
        print(f"{command:<20} {answer:<8} {size:>12} {' '.join(row)} {size_bytes:>13}")
    print(f"\nfloor: the same command and answer at {SIZES[0]} participants; target: x floor < 2 at {SIZES[-1]}; load average {os.getloadavg()[0]:.2f}")


def main() -> None:
    global SIZES
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--http", action="store_true", help="end to end under gunicorn, as `chase serve` runs it")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="participants of each chase, the floor first")
    args = parser.parse_args()
    SIZES = tuple(int(size) for size in args.sizes.split(","))
    with tempfile.TemporaryDirectory() as folder:
        if args.http:
            from bench.http import Server, sqlite_env

            server = Server("api.asgi:app", {**os.environ, **sqlite_env(Path(folder), "big_chase")}, Path(folder) / "server.log", args.workers, args.threads)
            try:
                print(f"gunicorn: {args.workers} workers x {args.threads} threads, SQLite; timed until the whole answer is read")
                measure({size: OverHTTP(server) for size in SIZES}, args.repeat)
            finally:
                server.stop()
            return
        ledger = build_ledger({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(folder) / "bench.sqlite3")})
        client = InProcess(create_app(lambda: ledger).test_client())
        print("in-process (Flask test client): timed until the app hands its answer over")
        measure({size: client for size in SIZES}, args.repeat)
        ledger.close()


if __name__ == "__main__":
    main()
