"""The record's property test (issue 10), run much longer than CI runs it.

Run from the project folder::

    .venv/bin/python bench/record_properties.py                  # 200 chases of 80 commands per system
    .venv/bin/python bench/record_properties.py --examples 1000 --steps 120 --systems swade
    .venv/bin/python bench/record_properties.py --postgres record_properties   # on PostgreSQL (a database of its own)

The same state machines as tests/application/test_record_properties.py (tests/application/record/)
play random but legal sequences of commands on chases of every system through the HTTP API, with
fresh randomness on every run (CI's run is derandomized), and check each chase at its end: the
export verifies, every version renders, the check job passes, the views equal a rebuild. It
prints, per system, how many chases, commands (accepted / refused) and versions it covered, how
long it took, and the first failure hypothesis found (shrunk to a short sequence of commands,
unless --no-shrink), then exits non-zero if any system failed.
"""
from __future__ import annotations

import argparse
import logging
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# bench/http.py would hide the standard library's http package from anything run from this folder.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import Phase  # noqa: E402
from hypothesis.stateful import run_state_machine_as_test  # noqa: E402

from tests.application.record.coc7e import Coc7eMachine  # noqa: E402
from tests.application.record.machine import TALLIES, RecordMachine, machine_settings  # noqa: E402
from tests.application.record.play import Tally  # noqa: E402
from tests.application.record.swade import SwadeMachine  # noqa: E402
from tests.application.record.swd import SwdMachine  # noqa: E402

MACHINES = {"coc7e": Coc7eMachine, "swade": SwadeMachine, "swd": SwdMachine}


# Every table a ledger creates on PostgreSQL (tests/integration/conftest.py TABLES, and the jobs').
TABLES = ("chaseledger_events", "chaseledger_snapshots", "chaseledger_tracking", "chase_track_views", "chase_track_rows", "chase_roll_history",
          "chase_seeds", "chase_tokens", "chase_jobs", "chase_replay_frames")


def on_postgres(dbname: str) -> None:
    """Play every chase on PostgreSQL: what production runs (jobs then run on the inline executor's thread)."""
    import psycopg

    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_DBNAME": dbname, "POSTGRES_HOST": "127.0.0.1",
           "POSTGRES_PORT": "5432", "POSTGRES_USER": "postgres", "POSTGRES_PASSWORD": ""}

    def empty() -> None:
        with psycopg.connect(host="127.0.0.1", port=5432, dbname=dbname, user="postgres", autocommit=True) as conn:
            for table in TABLES:
                conn.execute(f"DROP TABLE IF EXISTS {table} CASCADE")

    RecordMachine.STORE = env
    RecordMachine.fresh_store = staticmethod(empty)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=200, help="chases per system (hypothesis max_examples)")
    parser.add_argument("--steps", type=int, default=80, help="steps per chase (stateful_step_count); a step may send a few commands")
    parser.add_argument("--systems", default=",".join(MACHINES), help="which systems, separated by commas")
    parser.add_argument("--no-shrink", action="store_true", help="report a failure as found, without shrinking it")
    parser.add_argument("--postgres", metavar="DBNAME", help="play on this PostgreSQL database (127.0.0.1:5432, user postgres), "
                        "emptied before each chase, instead of SQLite in memory; not the tests' shared database")
    args = parser.parse_args(argv)
    if args.postgres:
        on_postgres(args.postgres)
    logging.disable(logging.WARNING)  # refused random-hazard jobs log a warning each
    phases = [Phase.explicit, Phase.reuse, Phase.generate] + ([] if args.no_shrink else [Phase.shrink])
    failed = []
    total = Tally()
    started = time.perf_counter()
    for system in args.systems.split(","):
        machine = MACHINES[system.strip()]
        TALLIES[machine.SYSTEM] = tally = Tally()
        begun = time.perf_counter()
        try:
            run_state_machine_as_test(machine, settings=machine_settings(args.examples, args.steps, phases=phases))
            verdict = "the record checked out"
        except Exception:  # noqa: BLE001 - report whatever hypothesis found, then go on to the next system
            failed.append(system)
            verdict = "FAILED:\n" + traceback.format_exc()
        print(f"{tally.line(system)}; {time.perf_counter() - begun:.0f} s; {verdict}", flush=True)
        played = sorted(tally.accepted_kinds())
        print(f"  commands accepted at least once: {', '.join(played)}", flush=True)
        print(f"  events recorded: {', '.join(f'{name} {n}' for name, n in tally.events.most_common())}", flush=True)
        for name in ("chases", "accepted", "refused", "versions"):
            setattr(total, name, getattr(total, name) + getattr(tally, name))
        total.events.update(tally.events)
    print(f"{total.line('all systems')}; {time.perf_counter() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
