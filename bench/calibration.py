"""Analytics calibration: how often fair dice are flagged, and how often loaded dice are caught.

Run from the project folder::

    .venv/bin/python bench/calibration.py [--quick] [--sessions 2000] [--power-sessions 400]

Each simulated session is two chases of four characters (two players', two the Keeper plays) and
the Keeper's own rolls: Call of Cthulhu skill rolls at random skills with bonus and penalty dice,
d20 rolls and 1D6+1D4 damage, each made with the server's dice (HMAC of a random seed) or entered
at the table by the character's owner with fair dice. Its rolls become analytics facts through the
same fact reader a ledger uses, and the report is built by application/analytics/report.py.

* size: the share of fair sessions whose report flags anything (any test of its family suspect
  after Holm's adjustment), with a 95% upper bound; it must be at most ``ERROR_RATE``;
* power: the share of sessions flagged when a player's table die is loaded (a d20 whose 20 comes up
  twice as often; a d100 whose units die shows 0-4 1.5 times as often as 5-9), at 50, 200
  and 1,000 rolls of it, beside 60 fair server rolls by the others.

It prints figures, never asserts; the simulation count bounds its time (``--quick``: about a
minute on a quiet machine).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence
from uuid import UUID

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent.resolve()]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scipy import stats as scipy_stats  # noqa: E402

from application.analytics import inference, report  # noqa: E402
from application.analytics.facts import FactReader  # noqa: E402
from application.analytics.rolls import die_faces  # noqa: E402
from domain.dice import parse  # noqa: E402
from domain.dice.dice import Die, Draw  # noqa: E402
from domain.rules.coc7e import percentile  # noqa: E402
from infrastructure.dice import ServerDice  # noqa: E402
from infrastructure.systems import SYSTEMS, odds_of  # noqa: E402

READER = FactReader(odds_of, [s.game_counts for s in SYSTEMS])
PEOPLE = {"ann": ("Ann", "player (Ann)"), "ben": ("Ben", "player (Ben)"), "cultist": ("Cultist", None), "farmer": ("Farmer", None)}
Weights = Callable[[Die], "Sequence[float] | None"]  # a die's face weights (None: fair)


class TableDice:
    """Dice entered at the table by ``who``: fair, or loaded by ``weights``."""

    def __init__(self, rng: random.Random, who: str, weights: Weights = lambda die: None) -> None:
        self.rng, self.who, self.weights = rng, who, weights

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        faces = tuple(self.rng.choices(die_faces(d.label) or [], weights=self.weights(d))[0] for d in dice)
        return Draw(faces, {"kind": "table", "entered_by": self.who})


def skill_roll(rng: random.Random, dice: Any, sequence: int) -> dict[str, Any]:
    bonus = rng.choice((0, 0, 0, 1, 2))
    penalty = 0 if bonus else rng.choice((0, 0, 0, 1))
    record = percentile.roll(dice, sequence, rng.randint(20, 90), bonus=bonus, penalty=penalty)
    return {"sequence": sequence, "purpose": "skill roll", "skill": rng.choice(("Spot Hidden", "Drive Auto", "Dodge")), **record}


def dice_roll(dice: Any, sequence: int, expression: str, purpose: str) -> dict[str, Any]:
    return {"sequence": sequence, "purpose": purpose, **parse(expression).roll(dice, sequence)}


def fact(roll: dict[str, Any], chase: str, pid: str | None, n: int) -> dict[str, Any]:
    return {"chase_id": chase, "version": n, "index": 0, "action": n, "kind": "roll", "participant_id": pid,
            "at": f"2026-01-01T{n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}+00:00", "undone": False, "undone_by": None,
            "data": READER.roll(roll, "SkillRolled" if "tens" in roll else "DiceRolled")}


def fair_session(rng: random.Random, rolls: int) -> list[dict[str, Any]]:
    """Two chases; each roll by a random character (or the Keeper), server or table dice."""
    facts = []
    chases = [str(UUID(int=rng.getrandbits(128))) for _ in range(2)]
    server = {c: ServerDice(rng.randbytes(32), UUID(c)) for c in chases}
    for n in range(1, rolls + 1):
        chase = chases[0] if n <= rolls // 2 else chases[1]
        pid = rng.choice([*PEOPLE, None])
        owner = (PEOPLE[pid][1] if pid else None) or "keeper"
        dice = server[chase] if rng.random() < 0.5 else TableDice(rng, owner)
        kind = rng.random()
        if kind < 0.7:
            roll = skill_roll(rng, dice, n)
        elif kind < 0.9:
            roll = dice_roll(dice, n, "1D20", "dice roll")
        else:
            roll = dice_roll(dice, n, "1D6+1D4", "damage")
        facts.append(fact(roll, chase, pid, n))
    return facts


def loaded_session(rng: random.Random, die: str, rolls: int, background: int = 60) -> list[dict[str, Any]]:
    """Ann rolls ``rolls`` times with a loaded table die; the others make ``background`` fair server rolls."""
    chase = str(UUID(int=rng.getrandbits(128)))
    server = ServerDice(rng.randbytes(32), UUID(chase))
    if die == "d20":
        loaded = TableDice(rng, "player (Ann)", lambda d: [1.0] * 19 + [2.0] if d.label == "d20" else None)
    else:
        loaded = TableDice(rng, "player (Ann)", lambda d: [1.5] * 5 + [1.0] * 5 if d.label == "d100 units" else None)
    facts = []
    for n in range(1, rolls + background + 1):
        if n <= rolls:
            roll = dice_roll(loaded, n, "1D20", "dice roll") if die == "d20" else skill_roll(rng, loaded, n)
            facts.append(fact(roll, chase, "ann", n))
        else:
            facts.append(fact(skill_roll(rng, server, n), chase, rng.choice(("ben", "cultist", "farmer")), n))
    return facts


def flagged(facts: list[dict[str, Any]]) -> list[str]:
    people = {pid: {"name": name, "chase_id": None, "role": None, "player": player} for pid, (name, player) in PEOPLE.items()}
    built = report.build({"kind": "session", "id": "bench", "name": "bench", "chases": []}, facts, people)
    return [t["name"] for t in built["tests"]["family"] if t["suspect"]]


def upper_bound(hits: int, n: int) -> float:
    """The 95% one-sided Clopper-Pearson upper bound of a share."""
    return 1.0 if hits == n else float(scipy_stats.beta.ppf(0.95, hits + 1, n - hits))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 fair sessions, 40 a power cell")
    parser.add_argument("--sessions", type=int, default=2000, help="fair sessions simulated")
    parser.add_argument("--power-sessions", type=int, default=400, help="sessions a die and sample size")
    parser.add_argument("--rolls", type=int, default=120, help="rolls a fair session")
    args = parser.parse_args()
    sessions, power = (200, 40) if args.quick else (args.sessions, args.power_sessions)
    rng = random.Random(31)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; family-wise error rate {inference.ERROR_RATE} (Holm)")
    started, hits, which, family = time.perf_counter(), 0, {}, 0
    for _ in range(sessions):
        names = flagged(fair_session(rng, args.rolls))
        hits += bool(names)
        for name in names:
            kind = name.split(":")[0]
            which[kind] = which.get(kind, 0) + 1
    print(f"size: {hits} of {sessions} fair sessions of {args.rolls} rolls flagged = {hits / sessions:.4f} "
          f"(95% upper bound {upper_bound(hits, sessions):.4f}; stated rate {inference.ERROR_RATE}); by test: {which or 'none'} "
          f"[{time.perf_counter() - started:.0f} s]")
    for die in ("d20", "d100"):
        for n in (50, 200, 1000):
            started = time.perf_counter()
            caught = sum(bool(flagged(loaded_session(rng, die, n))) for _ in range(power))
            what = "d20 whose 20 comes up twice as often" if die == "d20" else "d100 whose units die shows 0-4 1.5x as often"
            print(f"power: {what}, {n:>4} rolls: {caught} of {power} sessions flagged = {caught / power:.3f} [{time.perf_counter() - started:.0f} s]")


if __name__ == "__main__":
    main()
