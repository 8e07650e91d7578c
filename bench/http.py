"""HTTP throughput and latency of the API under gunicorn, beside a floor, on SQLite and PostgreSQL.

Run from the project folder::

    .venv/bin/python bench/http.py                          # both stores, ~3-4 minutes
    .venv/bin/python bench/http.py --stores sqlite --seconds 5 --rounds 2

For each store it starts, each on its own 127.0.0.1 port and with the same gunicorn settings
(the command `chase serve` runs: CHASE_LEDGER_WORKERS x CHASE_LEDGER_THREADS, 2 x 4 by default):

* the API (``api.asgi:app``), jobs inline and no Redis, as the README's embedded default;
* the floor (``bench/floor_app.py``): Flask and one eventsourcing application on the same
  persistence settings, one aggregate per chase snapshotted every 20 events, one event per POST.

It sets up ``--chases`` chases on each (the API's with a participant, Harvey), warms both up,
then alternates runs (API, floor; the order swapped every round): ``--clients`` clients rolling
1D6 with the server dice on random chases for ``--seconds`` (throughput), then one client for
``--single-seconds`` (latency). The API command is ``POST /chases/{id}/dice-rolls``, the floor's
``POST /tallies/{id}/rolls``. After every run it reads the events recorded since the run began and
checks that every 2xx answer is exactly one event (its request id is the roll's purpose): none
lost, none duplicated, none recorded for a command that was not answered 2xx; at the end, that
each chase's roll history lists every roll. Any status other than 2xx is counted and shown.

SQLite runs on files in a temporary folder; PostgreSQL on ``--pg-database`` (default
``chase_bench``, dropped and created afresh, dropped at the end; POSTGRES_HOST/PORT/USER/PASSWORD
from the environment), never the test suite's ``test`` database. Targets (issue 11): with 16
clients over 50 chases the API's throughput at least 70% of the floor's; with one client its
median latency at most 1.5x the floor's; nothing lost or duplicated.
"""
from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path and this module would shadow the
# standard library's ``http`` package (http.client, and Flask's imports of it): take it off.
HERE, ROOT = Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from typing import Any  # noqa: E402

from bench.http_load import RID, Command, RunResult, get_json, post, run  # noqa: E402
from bench.http_report import report  # noqa: E402

HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
JSON = {"Content-Type": "application/json"}
OURS = ("PERSISTENCE_", "SQLITE_", "POSTGRES_", "AGGREGATE_", "CHASE_LEDGER_", "REDIS_URL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(port: int, workers: int, threads: int, app_spec: str) -> list[str]:
    """The gunicorn command `chase serve` execs (infrastructure/cli.py), for ``app_spec``."""
    from infrastructure import cli

    return cli.serve_command("127.0.0.1", port, workers, threads, app_spec)


class Server:
    """A gunicorn master and its workers, with the CPU time its workers used."""

    def __init__(self, app_spec: str, env: dict[str, str], log: Path, workers: int, threads: int) -> None:
        self.port = free_port()
        self.log = log
        with open(log, "wb") as out:
            env = {**env, "CHASE_LEDGER_THREADS": str(threads)}  # as `chase serve` sets it
            self.proc = subprocess.Popen(serve_command(self.port, workers, threads, app_spec), cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline and self.proc.poll() is None:
            try:
                get_json(self.port, "/health")
                return
            except (OSError, RuntimeError):
                time.sleep(0.1)
        self.stop()
        raise SystemExit(f"{app_spec} did not answer on /health: {log.read_text()[-2000:]}")

    def cpu(self) -> float:
        """CPU seconds used so far by the workers (children of the master)."""
        try:
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            return float("nan")
        total = 0
        for pid in children:
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
        return total / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Side:
    """One server under test: its chases, the command per chase, and how to read what it recorded."""

    name = ""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.port = server.port
        self.commands: list[Command] = []

    def version(self, i: int) -> int:
        raise NotImplementedError

    def recorded(self, i: int, after: int) -> list[str | None]:
        """The request ids of the events recorded after version ``after`` (None: not a roll)."""
        raise NotImplementedError


class Api(Side):
    name = "API"

    def set_up(self, chases: int) -> None:
        conn = _conn(self.port)
        self.ids: list[str] = []
        for n in range(chases):
            created = _post(conn, "/chases", {"name": f"Bench chase {n}"}, JSON)
            chase_id, auth = created["chase"]["chase_id"], {"Authorization": f"Bearer {created['keeper_token']}"}
            harvey = _post(conn, f"/chases/{chase_id}/participants", HARVEY, {**JSON, **auth})["participant_id"]
            body = json.dumps({"expression": "1D6", "participant_id": harvey, "purpose": RID})
            self.ids.append(chase_id)
            self.commands.append(Command(f"/chases/{chase_id}/dice-rolls", {**JSON, **auth}, body))
        conn.close()

    def version(self, i: int) -> int:
        return get_json(self.port, f"/chases/{self.ids[i]}", self.commands[i].headers)["chase"]["version"]

    def recorded(self, i: int, after: int) -> list[str | None]:
        ids: list[str | None] = []
        while True:
            page = get_json(self.port, f"/chases/{self.ids[i]}/events?after={after}&limit=5000", self.commands[i].headers)["events"]
            ids += [e["data"]["roll"]["purpose"] if e["name"] == "DiceRolled" else None for e in page]
            if len(page) < 5000:
                return ids
            after = page[-1]["version"]

    def rolls_listed(self, i: int) -> int:
        return len(get_json(self.port, f"/chases/{self.ids[i]}/rolls", self.commands[i].headers)["rolls"])


class Floor(Side):
    name = "floor"

    def set_up(self, chases: int) -> None:
        conn = _conn(self.port)
        self.ids = [_post(conn, "/tallies", {"name": f"Bench chase {n}"}, JSON)["tally_id"] for n in range(chases)]
        conn.close()
        self.commands = [Command(f"/tallies/{t}/rolls", JSON, json.dumps({"purpose": RID})) for t in self.ids]

    def version(self, i: int) -> int:
        return get_json(self.port, f"/tallies/{self.ids[i]}")["version"]

    def recorded(self, i: int, after: int) -> list[str | None]:
        return [e["purpose"] for e in get_json(self.port, f"/tallies/{self.ids[i]}/events?after={after}")["events"]]


def _conn(port: int) -> Any:
    import http.client

    return http.client.HTTPConnection("127.0.0.1", port, timeout=60)


def _post(conn: Any, path: str, body: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
    status, data = post(conn, path, json.dumps(body).encode(), headers)
    if not 200 <= status < 300:
        raise SystemExit(f"set-up: POST {path} answered {status}: {data[:300]!r}")
    return json.loads(data)


def check(side: Side, before: list[int], result: RunResult) -> dict[str, int]:
    """Every 2xx answer exactly one recorded event, and no event without a 2xx answer."""
    answered: dict[int, set[str]] = {}
    for i, rid, status, _ in result.samples:
        if 200 <= status < 300:
            answered.setdefault(i, set()).add(rid)
    lost = duplicated = unanswered = other = 0
    for i, version in enumerate(before):
        recorded = side.recorded(i, version)
        rolls = [r for r in recorded if r is not None]
        other += len(recorded) - len(rolls)
        duplicated += len(rolls) - len(set(rolls))
        ok = answered.get(i, set())
        lost += len(ok - set(rolls))
        unanswered += len(set(rolls) - ok)
    return {"lost": lost, "duplicated": duplicated, "recorded without 2xx": unanswered, "other events": other}


def measure(side: Side, clients: int, procs: int, seconds: float, limit: int, tag: str) -> dict[str, Any]:
    before = [side.version(i) for i in range(len(side.commands))]
    cpu = side.server.cpu()
    load = os.getloadavg()[0]
    result = run(side.port, side.commands, clients, procs, seconds, limit, tag)
    cpu = side.server.cpu() - cpu
    return {"side": side.name, "clients": clients, "result": result, "check": check(side, before, result), "server_cpu": cpu, "load": load}


# A load test is many clients on one address, far past the rate limits meant for play.
UNTHROTTLED = {"CHASE_LEDGER_RATE_LIMITS": "off"}


def sqlite_env(folder: Path, name: str) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(folder / f"{name}.sqlite3"), **UNTHROTTLED}


def postgres_env(database: str) -> dict[str, str] | None:
    """The dedicated database, dropped and created afresh (None when the server does not answer)."""
    import psycopg

    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": database,
        "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"), "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
        "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"), "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        **UNTHROTTLED,
    }
    try:
        _admin(env, f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)', f'CREATE DATABASE "{database}"')
    except psycopg.Error as e:
        print(f"\n== PostgreSQL: skipped ({type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''})")
        return None
    return env


def _admin(env: dict[str, str], *statements: str) -> None:
    import psycopg

    with psycopg.connect(dbname="postgres", host=env["POSTGRES_HOST"], port=env["POSTGRES_PORT"], user=env["POSTGRES_USER"],
                         password=env["POSTGRES_PASSWORD"], connect_timeout=5, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def bench_store(store: str, args: argparse.Namespace, folder: Path) -> dict[str, Any] | None:
    if args.pg_database == "test":
        raise SystemExit("--pg-database test is the test suite's database: name another")
    stores = {"sqlite": lambda side: sqlite_env(folder, side), "postgresql": lambda side: pg}
    pg = postgres_env(args.pg_database) if store == "postgresql" else None
    if store == "postgresql" and pg is None:
        return None
    base = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    print(f"\n== {store}: starting the API and the floor under gunicorn ({args.workers} workers x {args.threads} threads) ...", flush=True)
    api_server = Server("api.asgi:app", {**base, **stores[store]("api")}, folder / f"{store}-api.log", args.workers, args.threads)
    floor_server = None
    try:
        floor_server = Server("bench.floor_app:asgi", {**base, **stores[store]("floor")}, folder / f"{store}-floor.log", args.workers, args.threads)
        api, floor = Api(api_server), Floor(floor_server)
        api.set_up(args.chases)
        floor.set_up(args.chases)
        for side in (api, floor):  # every worker builds its application and fills its cache
            warm = run(side.port, side.commands, args.clients, args.client_procs, args.warmup, args.limit, f"warm-{side.name}")
            print(f"   warm-up {side.name}: {warm.ok} commands, statuses {warm.statuses()}", flush=True)
        runs = []
        for r in range(args.rounds):
            order = (api, floor) if r % 2 == 0 else (floor, api)
            for clients, seconds, procs in ((args.clients, args.seconds, args.client_procs), (1, args.single_seconds, 1)):
                for side in order:
                    m = measure(side, clients, procs, seconds, args.limit, f"r{r}-{side.name}-{clients}")
                    m["round"] = r + 1
                    runs.append(m)
                    res = m["result"]
                    print(f"   round {r + 1} {side.name:<5} {clients:>2} client(s): {res.throughput():7.1f} commands/s, "
                          f"{len(res.samples)} sent, statuses {res.statuses()}, check {m['check']}", flush=True)
        short = [i for i in range(args.chases) if api.rolls_listed(i) != api.version(i) - 2]  # 2: created, Harvey added
        return {"store": store, "runs": runs, "views_short": short}
    finally:
        api_server.stop()
        if floor_server:
            floor_server.stop()
        if pg and not args.keep:
            _admin(pg, f'DROP DATABASE IF EXISTS "{args.pg_database}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stores", default="sqlite,postgresql", help="comma-separated: sqlite, postgresql")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of alternating runs (default 3)")
    parser.add_argument("--seconds", type=float, default=10, help="length of each many-client run (default 10)")
    parser.add_argument("--single-seconds", type=float, default=5, help="length of each one-client run (default 5)")
    parser.add_argument("--warmup", type=float, default=3, help="seconds of load on each server before measuring")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--chases", type=int, default=50)
    parser.add_argument("--client-procs", type=int, default=2, help="processes the many clients are spread over (default 2)")
    parser.add_argument("--limit", type=int, default=20_000, help="most commands one client sends in a run")
    parser.add_argument("--workers", type=int, default=int(os.environ.get("CHASE_LEDGER_WORKERS", "2")))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("CHASE_LEDGER_THREADS", "4")))
    parser.add_argument("--pg-database", default="chase_bench", help="dedicated database, dropped and created afresh")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (server logs) and the database")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="chase-http-bench-"))
    started = time.perf_counter()
    results = []
    try:
        for store in [s.strip() for s in args.stores.split(",") if s.strip()]:
            if store not in ("sqlite", "postgresql"):
                raise SystemExit(f"unknown store {store!r}: sqlite or postgresql")
            outcome = bench_store(store, args, folder)
            if outcome:
                results.append(outcome)
    finally:
        if args.keep:
            print(f"server logs kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    sound = report(results, args)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end; total run time {time.perf_counter() - started:.0f} s")
    return 0 if sound else 1  # the figures are printed, not asserted; a lost or duplicated command is an error


if __name__ == "__main__":
    sys.exit(main())
