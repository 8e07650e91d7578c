"""Where a dice-roll command's time goes: the API under gunicorn sampled by py-spy, or cProfile.

Run from the project folder::

    .venv/bin/pip install py-spy                               # not a dependency of the project
    .venv/bin/python bench/http_profile.py                     # py-spy, SQLite, one client
    .venv/bin/python bench/http_profile.py --store postgresql --clients 16
    .venv/bin/python bench/http_profile.py --cprofile          # cProfile of the Flask test client
    .venv/bin/python bench/http_profile.py --gil               # py-spy, the thread holding the GIL only

py-spy: the API is started as bench/http.py starts it (`chase serve`'s gunicorn command, on a
SQLite file or the dedicated PostgreSQL database), ``--chases`` chases are set up and warmed up,
then py-spy samples every gunicorn worker while clients send ``POST /chases/{id}/dice-rolls``
for ``--seconds``. Idle threads are not sampled, so the figures are shares of the time the
workers were busy. It prints the functions with the largest cumulative share (in the stack of a
sample) and the largest own share (at the top of it). With ``--gil`` py-spy samples only the
thread holding Python's GIL: where the CPU goes, without the threads waiting on the disk, the
network or each other (a commit's fsync, a2wsgi's hand-over to the event loop), which then
count as busy; ``--raw`` keeps the samples (folded stacks). cProfile: the same commands through
``create_app().test_client()`` in this process, the top functions by cumulative time.
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
import os  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402

from bench.http import OURS, Api, Server, _admin, postgres_env, sqlite_env  # noqa: E402
from bench.http_load import run  # noqa: E402

FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^:()]*)(?::\d+)?\)$")


def frame_name(frame: str) -> str:
    """``func (path/to/module.py:12)`` as ``module.py:func``, lines merged."""
    match = FRAME.match(frame.strip())
    if not match:
        return frame.strip()
    path = match["file"]
    short = path.split("site-packages/")[-1] if "site-packages/" in path else path.replace(str(ROOT) + "/", "")
    return f"{short}:{match['func']}"


REQUEST, ENDPOINT = "flask/app.py:Flask.wsgi_app", "api/systems/coc7e/chases.py:DiceRolls.post"


def summarise(raw: Path, top: int) -> None:
    """Shares of the samples taken while a worker thread was serving a request (inside
    Flask.wsgi_app): the endpoint's callees by cumulative share, and every function by own share."""
    cumulative: Counter[str] = Counter()
    own: Counter[str] = Counter()
    requests = endpoint = busy = 0
    for line in raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = [frame_name(f) for f in stack.split(";") if "(" in f]  # drops the process and thread labels
        busy += n
        if REQUEST not in frames:
            continue  # gunicorn's own loop, or a thread py-spy took for busy while it waited
        requests += n
        own[frames[-1]] += n
        if ENDPOINT in frames:
            endpoint += n
            for name in set(frames[frames.index(ENDPOINT):]):
                cumulative[name] += n
    print(f"\n{busy} samples of worker threads not idle, {requests} of them serving a request (100% below); "
          f"{100 * endpoint / requests:.1f}% in the endpoint {ENDPOINT} (the rest: Flask, webargs and marshmallow "
          f"around it, JSON, the response)")
    print(f"\nTop {top} by cumulative share inside the endpoint (the function or something it called was running)")
    for name, n in cumulative.most_common(top):
        print(f"  {100 * n / requests:5.1f}%  {name}")
    print(f"\nTop {top} by own share (running in the function itself)")
    for name, n in own.most_common(top):
        print(f"  {100 * n / requests:5.1f}%  {name}")


def pyspy(args: argparse.Namespace, folder: Path) -> None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        raise SystemExit("py-spy is not installed: .venv/bin/pip install py-spy (or use --cprofile)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    pg = postgres_env(args.pg_database) if args.store == "postgresql" else None
    env.update(pg or sqlite_env(folder, "api"))
    server = Server("api.asgi:app", env, folder / "api.log", args.workers, args.threads)
    try:
        api = Api(server)
        api.set_up(args.chases)
        run(server.port, api.commands, 16, 2, 3, 100_000, "warm")
        raw = folder / "pyspy.txt"
        spy_proc = subprocess.Popen([spy, "record", "--pid", str(server.proc.pid), "--subprocesses", "--rate", str(args.rate),
                                     "--duration", str(int(args.seconds) + 2), "--format", "raw", "--output", str(raw)] + (["--gil"] if args.gil else []),
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(1.0)  # py-spy attaches to the master and finds its workers
        result = run(server.port, api.commands, args.clients, min(2, args.clients), args.seconds, 100_000, "profiled")
        _, err = spy_proc.communicate(timeout=60)
        print(f"{args.store}, {args.clients} client(s): {result.ok} dice-roll commands in {result.elapsed:.1f} s "
              f"({result.throughput():.0f}/s), statuses {result.statuses()}")
        if not raw.exists():
            raise SystemExit(f"py-spy wrote nothing: {err.decode()[-1000:]}")
        if args.raw:
            shutil.copy(raw, args.raw)
        summarise(raw, args.top)
    finally:
        server.stop()
        if pg:
            _admin(pg, f'DROP DATABASE IF EXISTS "{args.pg_database}" WITH (FORCE)')


def cprofile(args: argparse.Namespace, folder: Path) -> None:
    import cProfile
    import json
    import pstats

    from api import create_app
    from infrastructure.bootstrap import build_ledger

    pg = postgres_env(args.pg_database) if args.store == "postgresql" else None
    env = pg or sqlite_env(folder, "api")
    client = create_app(lambda: build_ledger(env)).test_client()
    commands = []
    for n in range(args.chases):
        created = client.post("/chases", json={"name": f"Bench chase {n}"}).get_json()
        auth = {"Authorization": f"Bearer {created['keeper_token']}"}
        path = f"/chases/{created['chase']['chase_id']}"
        harvey = client.post(f"{path}/participants", json={"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}, headers=auth).get_json()["participant_id"]
        commands.append((f"{path}/dice-rolls", auth, {"expression": "1D6", "participant_id": harvey, "purpose": "profiled"}))

    def roll(count: int) -> None:
        for i in range(count):
            path, auth, body = commands[i % len(commands)]
            response = client.post(path, json=body, headers=auth)
            assert response.status_code == 200, json.dumps(response.get_json())

    try:
        roll(2 * args.chases)
        profiler = cProfile.Profile()
        started = time.perf_counter()
        profiler.runcall(roll, args.commands)
        print(f"{args.store}: {args.commands} dice-roll commands through the Flask test client, "
              f"{1000 * (time.perf_counter() - started) / args.commands:.2f} ms each under cProfile")
        stats = pstats.Stats(profiler)
        # The request's own code and the store's: Flask's and webargs' wrappers would fill the list.
        ours = rf"{ROOT}/(api|application|domain|infrastructure)/|eventsourcing/|sqlite3|psycopg"
        stats.sort_stats("cumulative").print_stats(ours, args.top)
        stats.sort_stats("tottime").print_stats(args.top)
        if os.environ.get("PROFILE_CALLERS"):
            stats.print_callers(os.environ["PROFILE_CALLERS"])
    finally:
        if pg:
            _admin(pg, f'DROP DATABASE IF EXISTS "{args.pg_database}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--cprofile", action="store_true", help="cProfile the Flask test client instead of py-spy on gunicorn")
    parser.add_argument("--gil", action="store_true", help="py-spy samples only the thread holding the GIL: where the CPU goes")
    parser.add_argument("--raw", help="keep py-spy's raw samples in this file (folded stacks)")
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--commands", type=int, default=1000, help="commands profiled by --cprofile")
    parser.add_argument("--chases", type=int, default=50)
    parser.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--workers", type=int, default=int(os.environ.get("CHASE_LEDGER_WORKERS", "2")))
    parser.add_argument("--threads", type=int, default=int(os.environ.get("CHASE_LEDGER_THREADS", "4")))
    parser.add_argument("--pg-database", default="chase_bench")
    args = parser.parse_args()
    if args.pg_database == "test":
        raise SystemExit("--pg-database test is the test suite's database: name another")
    folder = Path(tempfile.mkdtemp(prefix="chase-http-profile-"))
    try:
        (cprofile if args.cprofile else pyspy)(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
