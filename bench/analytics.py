"""Analytics: what keeping it current costs a command, and how fast a report over a big session is.

Run from the project folder::

    .venv/bin/python bench/analytics.py [--rolls 100000] [--commands 400]

It prints figures beside a floor measured in the same run, and never asserts. On SQLite files in a
temporary folder (the embedded default), deleted afterwards:

* command latency, median and p90 in ms, on a SQLite file and in memory (the CPU cost alone, no
  disk flush), of a coc7e skill roll (server dice, a roll fact with its
  exact odds) and of a dice roll (``1D10+1D4+2``), on two ledgers side by side: one keeping the
  analytics facts (as shipped) and one whose view pipeline writes none (the floor: the same
  ledger with ``renderers.facts`` returning nothing). Commands alternate between the two, so
  outside load hits both alike. Issue 13 asks for the overhead to be under 10%;
* a session report over ``--rolls`` roll facts in 10 chases (made by the fact reader from
  percentile roll records with skills of 5 to 95, bonus and penalty dice, written through the
  views' compare-and-set like a command's), beside the floor of reading its facts from the store.
  Issue 13 asks for under 5 s at 100,000 rolls.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from uuid import UUID

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from application.access import SYSTEM, Principal  # noqa: E402
from application.projections import no_facts  # noqa: E402
from infrastructure.bootstrap import build_ledger  # noqa: E402
from infrastructure.systems import odds_of  # noqa: E402


def ms(samples: list[float]) -> str:
    s = sorted(samples)
    return f"median {statistics.median(s) * 1000:6.2f} ms  p90 {s[int(len(s) * 0.9)] * 1000:6.2f} ms"


def command_latency(folder: str | None, commands: int) -> None:
    where = (lambda name: os.path.join(folder, f"{name}.sqlite3")) if folder else (lambda name: ":memory:")
    ledgers = {name: build_ledger({"SQLITE_DBNAME": where(name)}) for name in ("analytics", "floor")}
    ledgers["floor"].renderers.facts = no_facts  # the floor: the same pipeline, no analytics facts
    chases = {name: UUID(ledger.create_chase("bench")["chase_id"]) for name, ledger in ledgers.items()}
    timings: dict[tuple[str, str], list[float]] = {}
    for i in range(commands):
        for name in (("analytics", "floor") if i % 2 else ("floor", "analytics")):
            coc7e = ledgers[name].commands["coc7e"]
            for what, run in (("skill roll", lambda: coc7e.roll_skill(chases[name], "Spot Hidden", target=random.randint(5, 95), bonus=i % 2)),
                              ("dice roll", lambda: coc7e.roll_dice(chases[name], "1D10+1D4+2"))):
                started = time.perf_counter()
                run()
                timings.setdefault((name, what), []).append(time.perf_counter() - started)
    print(f"command latency, {commands} of each per ledger ({'SQLite file' if folder else 'SQLite in memory: no disk, the CPU cost alone'}):")
    for what in ("skill roll", "dice roll"):
        with_facts, floor = timings[("analytics", what)], timings[("floor", what)]
        overhead = statistics.median(with_facts) / statistics.median(floor) - 1
        print(f"  {what:<10}  with analytics {ms(with_facts)}   floor (no facts) {ms(floor)}   overhead {overhead:+.1%} (issue: < 10%)")
    for ledger in ledgers.values():
        ledger.close()


def roll_record(sequence: int) -> dict:
    """A percentile roll as coc7e records it (percentile.py), with random dice and skill."""
    target, bonus, penalty = random.randint(5, 95), random.choice((0, 0, 0, 1, 2)), 0
    if not bonus:
        penalty = random.choice((0, 0, 0, 1))
    tens = [random.randrange(10) * 10 for _ in range(1 + bonus + penalty)]
    units = random.randrange(10)
    results = [(t + units) or 100 for t in tens]
    kept = min(results) if bonus else max(results)
    level = ("critical" if kept == 1 else "fumble" if kept >= (100 if target >= 50 else 96) else "extreme" if kept <= target // 5
             else "hard" if kept <= target // 2 else "regular" if kept <= target else "failure")
    return {"sequence": sequence, "roller": None, "purpose": "skill roll", "skill": "Spot Hidden", "round": 0, "target": target,
            "difficulty": "regular", "bonus_dice": bonus, "penalty_dice": penalty,
            "tens": [{"face": t, "kept": (t + units or 100) == kept} for t in tens], "units": units, "result": kept,
            "level": level, "success": level in ("regular", "hard", "extreme", "critical"),
            "source": {"kind": "server", "sequence": sequence}}


def session_report(folder: str, rolls: int) -> None:
    ledger = build_ledger({"SQLITE_DBNAME": os.path.join(folder, "session.sqlite3")})
    coc7e = ledger.commands["coc7e"]
    group, _ = ledger.analytics.sessions.create("session", "A long campaign night")
    session_id = group["session_id"]
    per_chase = rolls // 10
    started = time.perf_counter()
    for c in range(10):
        chase_id = ledger.create_chase(f"chase {c}")["chase_id"]
        pid, view = coc7e.add_participant(UUID(chase_id), {"name": f"Investigator {c}", "role": "quarry", "dex": 50, "con": 50, "mov": 8})
        ledger.analytics.sessions.add_chase(session_id, chase_id, ledger.access.issue(chase_id, "keeper"), Principal("keeper", session_id))
        version = view["version"]
        doc = ledger.read_side.views_of(chase_id)
        for start in range(0, per_chase, 5000):
            facts = []
            for seq in range(start + 1, min(per_chase, start + 5000) + 1):
                fact = ledger.renderers.facts.roll(roll_record(seq))
                facts.append({"chase_id": chase_id, "version": 10_000_000 + seq, "index": 0, "action": 10_000_000 + seq,
                              "kind": "roll", "participant_id": pid, "at": f"2026-01-01T00:00:{seq % 60:02d}+00:00", "data": fact})
            ledger.views.write_views([{"chase_id": chase_id, "expected": version, "version": version, "doc": doc,
                                       "rolls": [], "marks": [], "facts": facts}])
    print(f"session of {rolls:,} rolls in 10 chases written in {time.perf_counter() - started:.1f} s (set-up, not timed below)")
    chase_ids = ledger.analytics.sessions.chases(ledger.analytics.sessions.group(session_id, "session"))
    started = time.perf_counter()
    rows = sum(1 for c in chase_ids for f in ledger.views.analytics_facts([c]) if f["kind"] == "roll")
    floor = time.perf_counter() - started
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        report = ledger.analytics.group_report(session_id, "session", SYSTEM)
        timings.append(time.perf_counter() - started)
    print(f"session report over {report['totals']['rolls']:,} rolls (of {rows:,} stored): best {min(timings):.2f} s, median {statistics.median(timings):.2f} s of 3 "
          f"(issue: < 5 s); floor (reading its facts from SQLite) {floor:.2f} s")
    luck = report["totals"]["luck"]
    print(f"  its luck: {luck['successes']:,} successes against {luck['expected']:,.1f} expected, z = {luck['z_score']:.2f}, "
          f"P(this well or worse) = {luck['p_this_well_or_worse']:.3f}")
    ledger.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=100_000)
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--only", choices=("commands", "report"), help="run one of the two measures")
    args = parser.parse_args()
    random.seed(13)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        if args.only != "report":
            command_latency(folder, args.commands)
            command_latency(None, args.commands)
        if args.only != "commands":
            session_report(folder, args.rolls)


if __name__ == "__main__":
    main()
