"""Command latency and aggregate load time on the embedded default, beside bare eventsourcing.

Run from the project folder::

    .venv/bin/python bench/commands.py              # Flask test client (the whole WSGI stack)
    .venv/bin/python bench/commands.py --gunicorn   # also through a real gunicorn on 127.0.0.1

It prints figures and never asserts. Everything runs on SQLite *files* in a temporary folder
(the embedded default, not ``:memory:``), deleted afterwards. For chases with 10, 1,000 and
10,000 events of history it prints:

* HTTP command latency, median and p99 in ms: ``POST .../dice-rolls`` (``1D6``, server dice),
  ``.../move`` and ``.../end-turn`` following the turn order (each turn: a roll, a move of one
  location, then end-turn when the move did not end the turn), one request at a time through
  ``api.create_app(...).test_client()``; the same commands called on the application directly;
* aggregate load time, median in ms: ``Repository.get`` without the aggregate cache (the latest
  snapshot plus the events after it) at exactly N events, and at N+25 and N+49 events (halfway
  to, and just before, the next snapshot: the interval is 50);
* the same operations done with bare eventsourcing in the same run, and the ratios ours / bare:
  an ``Aggregate`` and an ``Application`` with no snapshots, no cache and no views, on a SQLite
  file of its own, appending events that carry the same roll records (``save`` of one new event)
  and loading the aggregate (replay of every event).

The history is built through the application (domain commands on the chase saved in batches by
``ChaseLedger.save``, so snapshots are taken as in normal use; then the views are caught up), in
two shapes: ``rolls`` (1D6 rolls and ended turns; nobody moves, so the track view stays small)
and ``moves`` (each participant moves one location a turn: the gap between them stays 2 but the
track view grows by one location every 6 events, with the distance run). So that "N events of
history" stays true while commands are timed, the commands at N = 10 are spread over 50 chases
and those at N = 1,000 over 4; the "history" column gives the range actually covered.

The machine may be shared: measurements of the different rows are interleaved (one command or
one load per row in turn) so that a burst of outside load hits every row alike, and the load
average is printed. The figures to reach (issue): at 10,000 events, HTTP command median < 5 ms
and p99 < 20 ms, and aggregate load at 10,000 events no more than 2x the load at 10.
"""
from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder comes first on sys.path, where bench/http.py would shadow the
# standard library's http package: take the folder off.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import argparse
import gc
import http.client
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import version as dist_version
from typing import Any, Callable
from uuid import UUID

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("CHASE_LEDGER_RATE_LIMITS", "off")  # thousands of commands a minute: far past the limits for play
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from eventsourcing.application import Application, Repository  # noqa: E402
from eventsourcing.domain import Aggregate, event  # noqa: E402

from api import create_app  # noqa: E402
from application.chases import SNAPSHOT_INTERVAL
from application.dice import DiceChoice  # noqa: E402
from infrastructure.bootstrap import build_ledger  # noqa: E402

SIZES = (10, 1_000, 10_000)
SCENARIOS = ((10, "start"), (1_000, "rolls"), (1_000, "moves"), (10_000, "rolls"), (10_000, "moves"))
CHASES_PER_SIZE = {10: 50, 1_000: 4, 10_000: 1}  # keeps the history within N..N+12% while timing
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}
BUILD_BATCH = 100  # domain commands per save while building history
TARGET_MEDIAN_MS, TARGET_P99_MS, TARGET_LOAD_RATIO = 5.0, 20.0, 2.0


# -- measuring ------------------------------------------------------------------------------


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile of samples (nearest rank)."""
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def stats(samples: list[float]) -> dict[str, float]:
    return {"median": statistics.median(samples), "p99": percentile(samples, 99), "n": len(samples)}


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return (time.perf_counter() - start) * 1000, value


def interleaved(targets: dict[Any, Callable[[], Any]], rounds: int, budget_s: float, warmup: int = 2) -> dict[Any, list[float]]:
    """Milliseconds per call of each target, one call per target per round, for up to budget_s."""
    for fn in targets.values():
        for _ in range(warmup):
            fn()
    samples: dict[Any, list[float]] = {key: [] for key in targets}
    deadline = time.perf_counter() + budget_s
    for i in range(rounds):
        for key, fn in targets.items():
            samples[key].append(timed(fn)[0])
        if time.perf_counter() > deadline and i >= 4:
            break
    return samples


# -- our side: history and commands ---------------------------------------------------------


TOKENS: dict[UUID, str] = {}  # each chase's Keeper token, for the HTTP commands


def new_chase(ledger: Any) -> UUID:
    """Harvey and the farmer, speed-rolled and cut to: round 1 begins (7 events).

    The speed rolls use table dice so that every chase runs (Harvey 72 against CON 60: failure,
    MOV 5; the farmer 40 against CON 55: success, MOV 7); on server dice Harvey sometimes outruns
    the farmer and the chase ends at the cut. Every later roll uses the chase's server dice.
    """
    view, token = ledger.start_chase("Harvey and the farmer (bench)", "server")
    chase_id = UUID(view["chase_id"])
    TOKENS[chase_id] = token
    harvey, _ = ledger.commands["coc7e"].add_participant(chase_id, HARVEY)
    farmer, _ = ledger.commands["coc7e"].add_participant(chase_id, FARMER)
    ledger.commands["coc7e"].roll_speed(chase_id, harvey, DiceChoice(faces=[70, 2]))
    ledger.commands["coc7e"].roll_speed(chase_id, farmer, DiceChoice(faces=[40, 0]))
    ledger.commands["coc7e"].cut_to_the_chase(chase_id, 2)
    return chase_id


def grow(ledger: Any, chase_id: UUID, events: int, shape: str = "rolls") -> int:
    """Append domain commands until the chase has exactly ``events`` events, saved in batches.

    ``rolls``: 1D6 rolls on the server dice and ended turns; nobody moves. ``moves``: each
    participant moves one location in its turn and ends it, so both advance a location a round
    (the farmer staying 2 behind Harvey) and the track grows by a location every 6 events.
    Either way the history ends with single-event rolls to land exactly on ``events``.
    """
    chase = ledger.repository.get(chase_id)
    dice = ledger.seeds.server_dice(chase_id, chase.seed_commitment)
    pending = 0
    moved: tuple[int, str] | None = None
    while chase.version < events:
        left = events - chase.version
        who = chase.whose_turn
        # A move can append 5 events (moved, caught up, turn ended, round ended, round began);
        # an ended turn 3.
        if shape == "moves" and left >= 6 and moved != (chase.round, who):
            chase.move(who, 1)
            moved = (chase.round, who)
        elif left >= 4 and (shape == "moves" or chase.version % 2):
            chase.end_turn(who)
        else:
            chase.roll_dice(dice, "1D6", None, "bench history")
        pending += 1
        if pending >= BUILD_BATCH:
            ledger.save(chase)
            pending = 0
    if pending:
        ledger.save(chase)
    ledger.updater.catch_up()
    return chase.version


class Driver:
    """Picks a chase's next command from the track view its last command answered with."""

    def __init__(self, chase_id: UUID, view: dict[str, Any]) -> None:
        self.chase_id = chase_id
        self.view = view
        self.owner: str | None = None
        self.phase = 0

    def next(self) -> tuple[str, str | None]:
        """Each turn: a 1D6 roll, a move of one location (which may end the turn), then end-turn."""
        who = self.view["whose_turn"]
        if who != self.owner:
            self.owner, self.phase = who, 0
        if self.phase == 0:
            self.phase = 1
            return "dice", who
        if self.phase == 1 and self.view["participants"][who]["movement_actions"] >= 1:
            self.phase = 2
            return "move", who
        return "end", who

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {TOKENS[self.chase_id]}"}

    def request(self, kind: str, who: str | None) -> tuple[str, dict[str, Any]]:
        base = f"/chases/{self.chase_id}"
        if kind == "dice":
            return f"{base}/dice-rolls", {"expression": "1D6"}
        if kind == "move":
            return f"{base}/participants/{who}/move", {"locations": 1}
        return f"{base}/participants/{who}/end-turn", {}

    def call(self, ledger: Any, kind: str, who: str | None) -> dict[str, Any]:
        if kind == "dice":
            return ledger.commands["coc7e"].roll_dice(self.chase_id, "1D6")[1]
        if kind == "move":
            return ledger.commands["coc7e"].move(self.chase_id, who, 1)
        return ledger.commands["coc7e"].end_turn(self.chase_id, who)


@dataclass
class Row:
    """One size and history shape: its chases, and what was measured on them."""

    size: int
    shape: str
    chases: list[UUID]
    built_s: float = 0.0
    locations: int = 0
    drivers: list[Driver] = field(default_factory=list)
    offsets: dict[int, UUID] = field(default_factory=dict)  # events after N -> chase with N+offset events
    http: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=lambda: {"dice": [], "move": [], "end": []})
    app: list[float] = field(default_factory=list)
    gunicorn: list[float] = field(default_factory=list)
    loads: dict[int, list[float]] = field(default_factory=dict)  # offset (0 = at N) -> samples
    history: dict[str, str] = field(default_factory=dict)

    def span(self) -> str:
        versions = [d.view["version"] for d in self.drivers]
        return f"{min(versions)}..{max(versions)}"


def run_commands(rows: list[Row], count: int, one: Callable[[Row, Driver, str, str | None], tuple[float, dict]], into: str) -> None:
    """count commands per row, rows taking turns; each row's commands go round its chases."""
    for i in range(count):
        for row in rows:
            driver = row.drivers[i % len(row.drivers)]
            kind, who = driver.next()
            elapsed, view = one(row, driver, kind, who)
            driver.view = view
            getattr(row, into).append(elapsed)
            if into == "http":
                row.by_kind[kind].append(elapsed)


def via_client(client: Any) -> Callable[[Row, Driver, str, str | None], tuple[float, dict]]:
    def one(row: Row, driver: Driver, kind: str, who: str | None) -> tuple[float, dict]:
        path, body = driver.request(kind, who)
        elapsed, response = timed(lambda: client.post(path, json=body, headers=driver.headers))
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code}: {response.get_data(as_text=True)}")
        return elapsed, response.get_json()["chase"]

    return one


def via_application(ledger: Any) -> Callable[[Row, Driver, str, str | None], tuple[float, dict]]:
    def one(row: Row, driver: Driver, kind: str, who: str | None) -> tuple[float, dict]:
        return timed(lambda: driver.call(ledger, kind, who))

    return one


# -- bare eventsourcing ---------------------------------------------------------------------


class Tally(Aggregate):
    """The barest aggregate: one event type carrying a roll record, counted on apply."""

    def __init__(self) -> None:
        self.rolls = 0

    @event("Rolled")
    def rolled(self, roll: dict) -> None:
        self.rolls += 1


class BareApplication(Application):
    """No snapshots, no aggregate cache, no views: append and replay only."""

    name = "BareBench"


def bare_grow(app: BareApplication, tally: Tally, events: int, records: list[dict]) -> None:
    pending = 0
    while tally.version < events:
        tally.rolled(records[tally.version % len(records)])
        pending += 1
        if pending >= BUILD_BATCH:
            app.save(tally)
            pending = 0
    if pending:
        app.save(tally)


# -- gunicorn (optional) --------------------------------------------------------------------


class GunicornClient:
    """Posts to a real gunicorn on 127.0.0.1 over one keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def post(self, path: str, json: dict[str, Any], headers: dict[str, str] | None = None) -> "_Response":
        self.conn.request("POST", path, body=_dumps(json), headers={"Content-Type": "application/json", **(headers or {})})
        response = self.conn.getresponse()
        return _Response(response.status, response.read())

    def close(self) -> None:
        self.conn.close()


def _dumps(value: Any) -> bytes:
    return json.dumps(value).encode()


class _Response:
    def __init__(self, status: int, body: bytes) -> None:
        self.status_code = status
        self.body = body

    def get_json(self) -> Any:
        return json.loads(self.body)

    def get_data(self, as_text: bool = False) -> Any:
        return self.body.decode() if as_text else self.body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(db: str, log: Path) -> tuple[subprocess.Popen, int]:
    """gunicorn on 127.0.0.1 as `chase serve` runs it (2 workers x 4 threads) on the bench's file."""
    port = free_port()
    env = dict(os.environ, PERSISTENCE_MODULE="eventsourcing.sqlite", SQLITE_DBNAME=db)
    env.pop("AGGREGATE_CACHE_MAXSIZE", None)
    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", "4",
             "--log-level", "warning", "api.wsgi:app"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err,
        )
    deadline = time.time() + 30
    while time.time() < deadline and proc.poll() is None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            conn.request("GET", "/health")
            if conn.getresponse().status == 200:
                conn.close()
                return proc, port
        except OSError:
            time.sleep(0.1)
    stop(proc)
    raise SystemExit(f"gunicorn did not answer on /health: {log.read_text()[-2000:]}")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def measure_gunicorn(ledger: Any, db: str, rows: list[Row], count: int, log: Path) -> None:
    """The same HTTP mix through gunicorn, on the same chases (now a little longer)."""
    proc, port = start_gunicorn(db, log)
    try:
        _gunicorn_rows(ledger, rows, count, port)
    except SystemExit as e:
        stop(proc)
        raise SystemExit(f"{e}\n--- gunicorn log (tail) ---\n{log.read_text()[-4000:]}") from None
    finally:
        stop(proc)


def _gunicorn_rows(ledger: Any, rows: list[Row], count: int, port: int) -> None:
    client = GunicornClient(port)
    for row in rows:
        for d in row.drivers:
            d.view = ledger.track(d.chase_id)
        for i in range(max(10, len(row.drivers))):  # untimed: the worker builds its ledger, fills its cache
            d = row.drivers[i % len(row.drivers)]
            response = client.post(*d.request("dice", None), headers=d.headers)
            if response.status_code != 200:
                raise SystemExit(f"gunicorn answered {response.status_code}: {response.get_data(as_text=True)[:2000]}")
            d.view = response.get_json()["chase"]
    starts = {id(row): row.span().split("..")[0] for row in rows}
    run_commands(rows, count, via_client(client), "gunicorn")
    for row in rows:
        row.history["gunicorn"] = f"{starts[id(row)]}..{row.span().split('..')[1]}"
    client.close()


# -- the run --------------------------------------------------------------------------------


def avg_state_bytes(recorder: Any, originator_id: UUID, limit: int = 200) -> float:
    records = recorder.select_events(originator_id, limit=limit)
    return statistics.mean(len(r.state) for r in records) if records else 0.0


def run(args: argparse.Namespace) -> None:
    started = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="chase-bench-"))
    try:
        _run(args, tmp, started)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _run(args: argparse.Namespace, tmp: Path, started: float) -> None:
    db = str(tmp / "bench.sqlite3")
    ledger = build_ledger({"SQLITE_DBNAME": db})  # the embedded default, as `chase serve` builds it
    client = create_app(lambda: ledger).test_client()
    # The same store read with no aggregate cache: every get is the latest snapshot + the events after it.
    uncached = Repository(ledger.repository.event_store, snapshot_store=ledger.repository.snapshot_store)
    bare = BareApplication({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp / "bare.sqlite3")})
    mid, worst = SNAPSHOT_INTERVAL // 2, SNAPSHOT_INTERVAL - 1

    print(f"Chase Ledger command benchmark: python {platform.python_version()}, eventsourcing {dist_version('eventsourcing')}, "
          f"flask {dist_version('flask')}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    print(f"SQLite files in {tmp}; snapshot interval {SNAPSHOT_INTERVAL}; aggregate cache {type(ledger.repository.cache).__name__} "
          f"(default AGGREGATE_CACHE_MAXSIZE); {args.commands} timed commands per row")
    print("history shapes: 'rolls' = 1D6 rolls and ended turns, nobody moves (the track view stays 4 locations long);")
    print("                'moves' = each participant moves 1 location a turn (the gap stays 2, the track view grows 1 location")
    print("                          every 6 events); 'start' = the 7 events of set-up and 3 rolls")
    print()

    # 1. History: our chases at N (and at N+25, N+49), bare aggregates at N.
    rows: list[Row] = []
    for size, shape in SCENARIOS:
        t0 = time.perf_counter()
        row = Row(size, shape, [new_chase(ledger) for _ in range(CHASES_PER_SIZE[size])])
        for chase_id in row.chases:
            grown = grow(ledger, chase_id, size, shape)
            assert grown == size, (grown, size)
        row.built_s = time.perf_counter() - t0
        row.locations = len(ledger.track(row.chases[0])["locations"])
        if shape != "moves":  # the aggregate's own state is as small in both shapes
            for offset in (mid, worst):
                row.offsets[offset] = new_chase(ledger)
                grow(ledger, row.offsets[offset], size + offset, shape)
        rows.append(row)
        print(f"  built {size:>6,} {shape:<5} in {row.built_s:5.1f} s ({len(row.chases)} chase(s) at N; "
              f"{len(row.offsets)} more at N+{mid}, N+{worst})", flush=True)
    rolls_row = next(r for r in rows if r.shape == "rolls")  # its history is half 1D6 rolls
    records = [e.roll for e in ledger.events.get(rolls_row.chases[0], limit=400) if type(e).__name__ == "DiceRolled"]
    tallies: dict[int, Tally] = {}
    for size in SIZES:
        tallies[size] = Tally()
        bare_grow(bare, tallies[size], size, records)
    state_bytes = (avg_state_bytes(ledger.recorder, rolls_row.chases[0]), avg_state_bytes(bare.recorder, tallies[SIZES[-1]].id))

    # 2. Aggregate loads, rows taking turns.
    t0 = time.perf_counter()
    ours = {(row.size, row.shape, 0): row.chases[0] for row in rows}
    ours.update({(row.size, row.shape, off): cid for row in rows for off, cid in row.offsets.items()})
    load_samples = interleaved({key: (lambda cid=cid: uncached.get(cid)) for key, cid in ours.items()}, args.loads, 20)
    for (size, shape, offset), samples in load_samples.items():
        next(r for r in rows if (r.size, r.shape) == (size, shape)).loads[offset] = samples
    bare_loads = interleaved({size: (lambda t=t: bare.repository.get(t.id)) for size, t in tallies.items()}, args.loads, 12, warmup=1)
    print(f"  loads measured in {time.perf_counter() - t0:.1f} s", flush=True)

    # 3. Commands: HTTP (test client), then the application directly, then bare appends.
    t0 = time.perf_counter()
    for row in rows:
        row.drivers = [Driver(cid, ledger.track(cid)) for cid in row.chases]
        for d in row.drivers:  # the first use of a chase reads it into the aggregate cache
            ledger.repository.get(d.chase_id)
        row.history["http"] = f"{row.size}.."
    gc.collect()
    run_commands(rows, args.commands, via_client(client), "http")
    for row in rows:
        row.history["http"] += row.span().split("..")[1]
    run_commands(rows, args.commands, via_application(ledger), "app")
    bare_append: dict[int, list[float]] = {size: [] for size in SIZES}
    for i in range(args.commands):
        for size, tally in tallies.items():
            tally.rolled(records[i % len(records)])
            bare_append[size].append(timed(lambda: bare.save(tally))[0])
    print(f"  commands measured in {time.perf_counter() - t0:.1f} s", flush=True)

    if args.gunicorn:
        t0 = time.perf_counter()
        measure_gunicorn(ledger, db, rows, args.commands, tmp / "gunicorn.log")
        print(f"  gunicorn measured in {time.perf_counter() - t0:.1f} s", flush=True)

    report(rows, {s: stats(v) for s, v in bare_append.items()}, {s: stats(v) for s, v in bare_loads.items()}, state_bytes)
    ledger.close()
    bare.close()
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end; total run time {time.perf_counter() - started:.1f} s")


def report(rows: list[Row], bare_append: dict[int, dict], bare_load: dict[int, dict], state_bytes: tuple[float, float]) -> None:
    mid, worst = SNAPSHOT_INTERVAL // 2, SNAPSHOT_INTERVAL - 1

    def ratio(a: float | None, b: float | None) -> str:
        return f"{a / b:.1f}x" if a is not None and b else "-"

    def ms(x: float | None, width: int = 8, places: int = 2) -> str:
        return f"{x:{width}.{places}f}" if x is not None else "-".rjust(width)

    print()
    print("Commands, ms. HTTP = Flask test client (whole WSGI stack); app = the same commands called on the application")
    print("(run after the HTTP ones, so on a slightly longer history); bare = Application.save of one new event")
    print(f"{'events':>7} {'shape':<5} {'HTTP history':>13} {'track locs':>10} | {'HTTP med':>8} {'HTTP p99':>8} | "
          f"{'app med':>8} {'app p99':>8} | {'bare med':>8} {'bare p99':>8} | {'HTTP/bare med':>13} {'p99':>6}")
    for r in rows:
        h, a, b = stats(r.http), stats(r.app), bare_append[r.size]
        locs = f"{r.locations}..{max(len(d.view['locations']) for d in r.drivers)}"
        print(f"{r.size:>7,} {r.shape:<5} {r.history['http']:>13} {locs:>10} | {ms(h['median'])} {ms(h['p99'])} | "
              f"{ms(a['median'])} {ms(a['p99'])} | {ms(b['median'])} {ms(b['p99'])} | "
              f"{ratio(h['median'], b['median']):>13} {ratio(h['p99'], b['p99']):>6}")
    print()
    print("HTTP command latency by kind, ms (median / p99)")
    for r in rows:
        parts = [f"{k:<4} {stats(v)['median']:6.2f} / {stats(v)['p99']:6.2f} (n={len(v)})" for k, v in r.by_kind.items() if v]
        print(f"{r.size:>7,} {r.shape:<5}  " + "   ".join(parts))

    print()
    print("Aggregate load, ms (median). ours = Repository.get without the aggregate cache (latest snapshot + the events after")
    print(f"it) at N, N+{mid} and N+{worst} events; bare = replay of every event (no snapshots); ours@10 = ours at 10 events")
    print(f"{'events':>7} {'shape':<5} | {'ours N':>8} {f'N+{mid}':>8} {f'N+{worst}':>8} | {'bare N':>8} | {'ours/bare':>9} | "
          f"{'vs ours@10':>10} {f'N+{mid}':>6} {f'N+{worst}':>6} | {'n':>4}")
    base = statistics.median(rows[0].loads[0])
    for r in rows:
        o = statistics.median(r.loads[0])
        m = statistics.median(r.loads[mid]) if mid in r.loads else None
        w = statistics.median(r.loads[worst]) if worst in r.loads else None
        b = bare_load[r.size]["median"]
        print(f"{r.size:>7,} {r.shape:<5} | {ms(o, 8, 3)} {ms(m, 8, 3)} {ms(w, 8, 3)} | {ms(b, 8, 3)} | {ratio(o, b):>9} | "
              f"{ratio(o, base):>10} {ratio(m, base):>6} {ratio(w, base):>6} | {len(r.loads[0]):>4}")
    print(f"stored event size, bytes (mean of 200, 'rolls' history): ours {state_bytes[0]:.0f}, bare {state_bytes[1]:.0f}; "
          f"bare loads per size: {', '.join(str(v['n']) for v in bare_load.values())}")

    if any(r.gunicorn for r in rows):
        print()
        print("HTTP through gunicorn on 127.0.0.1 (api.wsgi:app, 2 workers x 4 threads, one keep-alive connection), ms")
        print(f"{'events':>7} {'shape':<5} {'history':>13} | {'median':>8} {'p99':>8} | {'vs bare med':>11}")
        for r in rows:
            g = stats(r.gunicorn)
            print(f"{r.size:>7,} {r.shape:<5} {r.history['gunicorn']:>13} | {ms(g['median'])} {ms(g['p99'])} | "
                  f"{ratio(g['median'], bare_append[r.size]['median']):>11}")

    print()
    print(f"Targets at {SIZES[-1]:,} events (embedded default, SQLite file):")
    for r in rows:
        if r.size != SIZES[-1]:
            continue
        tag = f"[{r.shape}]"
        h = stats(r.http)
        checks = [
            (f"{tag} HTTP command median < {TARGET_MEDIAN_MS:g} ms", h["median"], h["median"] < TARGET_MEDIAN_MS, "ms"),
            (f"{tag} HTTP command p99    < {TARGET_P99_MS:g} ms", h["p99"], h["p99"] < TARGET_P99_MS, "ms"),
        ]
        for offset in sorted(r.loads):
            value = statistics.median(r.loads[offset]) / base
            label = "N" if offset == 0 else f"N+{offset}"
            checks.append((f"{tag} load at {label} / load at 10 <= {TARGET_LOAD_RATIO:g}x", value, value <= TARGET_LOAD_RATIO, "x"))
        for label, value, ok, unit in checks:
            print(f"  {label:<44} {value:8.2f} {unit:<2}  {'met' if ok else 'MISSED'}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Chase Ledger command latency and aggregate load benchmark")
    parser.add_argument("--commands", type=int, default=300, help="timed commands per row (default 300)")
    parser.add_argument("--loads", type=int, default=200, help="aggregate loads per measurement (default 200, time-boxed)")
    parser.add_argument("--gunicorn", action="store_true", help="also time the HTTP commands through gunicorn on 127.0.0.1")
    run(parser.parse_args(argv))


if __name__ == "__main__":
    main()
