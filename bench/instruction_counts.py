"""What bench/http_instructions.py and bench/http_server_instructions.py share: their options, and
the run of each side (the API, the floor) on a store of its own, its instructions per command
printed as it is counted, then the API's beside the floor's."""
from __future__ import annotations

import argparse
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

# A side's count: (side, the run's folder, the side's store settings) -> (instructions per
# command, what else to say of it after its figure)
Count = Callable[[str, Path, dict[str, str]], tuple[float, str]]


def options(doc: str) -> argparse.ArgumentParser:
    """The options both benches take; each adds its own."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--sides", default="api,floor", help="comma-separated: api, floor")
    parser.add_argument("--commands", type=int, default=200, help="commands counted (and as many sent before, to warm up)")
    parser.add_argument("--chases", type=int, default=50)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (callgrind's output, server logs)")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--pg-database", default="chase_bench", help="dedicated database, dropped and created afresh")
    return parser


def each_side(args: argparse.Namespace, tools: tuple[str, ...], count: Count) -> None:
    """Counts each of ``args.sides`` on a store of its own: a SQLite file in a temporary folder,
    or ``--pg-database`` dropped and created afresh (as bench/http.py does); the database is
    dropped at the end, the folder removed unless ``--keep``."""
    from bench.http import _admin, postgres_env, sqlite_env

    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"{', '.join(missing)} not installed (apt-get install valgrind)")
    if args.pg_database == "test":
        raise SystemExit("--pg-database test is the test suite's database: name another")
    folder = Path(tempfile.mkdtemp(prefix="chase-instructions-"))
    pg = None
    try:
        counted: dict[str, float] = {}
        for side in [s.strip() for s in args.sides.split(",") if s.strip()]:
            if args.store == "postgresql":
                pg = postgres_env(args.pg_database)  # afresh for each side
                if pg is None:
                    return
            counted[side], said = count(side, folder, pg if pg is not None else sqlite_env(folder, side))
            print(f"{args.store} {side:<5} {counted[side] / 1e6:6.2f} million instructions per command{said}", flush=True)
        if "api" in counted and "floor" in counted:
            print(f"API / floor: {counted['api'] / counted['floor']:.2f}x; API - floor: {(counted['api'] - counted['floor']) / 1e6:.2f}M")
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
        if pg:
            _admin(pg, f'DROP DATABASE IF EXISTS "{args.pg_database}" WITH (FORCE)')
