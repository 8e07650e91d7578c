"""What exact odds cost: the roll history with odds beside the plain roll history (its floor), and
a dry run beside the real command.

Run from the project folder::

    .venv/bin/python bench/odds.py                 # a chase of 500 rolls, 5 rounds
    .venv/bin/python bench/odds.py --rolls 2000 --rounds 3

It records a Call of Cthulhu chase (SQLite in memory) whose rolls mix skill rolls (every target
from 5 to 95, 0 to 2 bonus or penalty dice, every difficulty) and dice expressions, and a Savage
Worlds chase of trait rolls (d4..d12, Wild Cards and Extras, modifiers) and damage rolls; then,
interleaved ``--rounds`` times:

* floor: ``ledger.rolls`` (the roll history as the views keep it);
* with odds: ``ledger.roll_history`` (the same rows, each with its exact odds worked out from the
  recorded roll, as GET /rolls answers), with the odds' caches cleared first (cold) and kept (warm);
* a dry run of a skill roll (``ledger.try_out``) beside the same command recorded.

It prints rows/s (best round; outside load only slows a round down) and the ratio to the floor.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse
import time
from typing import Any, Callable
from uuid import UUID

from application.dice import DiceChoice
from domain.dice import odds as dice_odds
from domain.rules.coc7e import odds as coc7e_odds
from domain.rules.savage_worlds import odds as savage_odds
from infrastructure.bootstrap import build_ledger

CACHES = (coc7e_odds.skill_odds, coc7e_odds.result_chances, dice_odds.expression_odds, savage_odds.trait_odds, savage_odds.damage_odds)


def coc7e_chase(ledger: Any, rolls: int) -> UUID:
    chase_id = UUID(ledger.create_chase("Odds bench", dice="server")["chase_id"])
    commands = ledger.commands["coc7e"]
    for n in range(rolls):
        if n % 5 == 4:
            commands.roll_dice(chase_id, ("1D3", "1D6+1", "2D6", "1D10+1D4+2")[n % 4])
        else:
            net = n % 5 - 2
            commands.roll_skill(
                chase_id, "Luck", target=5 + n % 91, difficulty=("regular", "hard", "extreme", "critical")[n % 4],
                bonus=max(net, 0), penalty=max(-net, 0),
            )
    return chase_id


def savage_chase(ledger: Any, rolls: int) -> UUID:
    chase_id = UUID(ledger.create_chase("Odds bench", "server", "swade")["chase_id"])
    savage = ledger.commands["savage_worlds"]
    hero, _, _ = savage.add_savage_participant(chase_id, "swade", {"name": "Hero", "role": "chaser", "maneuver_die": "d8", "toughness": 30})
    goon, _, _ = savage.add_savage_participant(chase_id, "swade", {"name": "Goon", "role": "quarry", "maneuver_die": "d6", "wild_card": False, "toughness": 30})
    savage.begin_swade(chase_id, "foot", {hero: 3, goon: 5})
    for n in range(rolls):
        who = (hero, goon)[n % 2]
        if n % 4 == 3:
            savage.savage_damage(chase_id, "swade", (goon, hero)[n % 2], ("2d6", "d8+d6", "d10")[n % 3], roller_id=who)
            continue
        savage.savage_trait_roll(chase_id, "swade", who, ("d4", "d6", "d8", "d10", "d12", "d12+2")[n % 6], modifier=n % 5 - 2)
    return chase_id


def best(rounds: int, run: Callable[[], Any]) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def clear_caches() -> None:
    for cached in CACHES:
        cached.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ledger = build_ledger({"SQLITE_DBNAME": ":memory:"})
    for name, chase_id in (("coc7e", coc7e_chase(ledger, args.rolls)), ("swade", savage_chase(ledger, args.rolls))):
        rows = len(ledger.rolls(chase_id))
        floor = best(args.rounds, lambda: ledger.rolls(chase_id))
        cold = best(args.rounds, lambda: (clear_caches(), ledger.roll_history(chase_id)))
        warm = best(args.rounds, lambda: ledger.roll_history(chase_id))
        print(f"{name}: {rows} rolls")
        print(f"  roll history (floor)   {rows / floor:10.0f} rows/s")
        print(f"  with odds, cold caches {rows / cold:10.0f} rows/s  ({cold / floor:.1f}x the floor's time)")
        print(f"  with odds, warm caches {rows / warm:10.0f} rows/s  ({warm / floor:.1f}x the floor's time)")
    chase_id = coc7e_chase(ledger, 1)
    commands = ledger.commands["coc7e"]
    real = best(args.rounds * 10, lambda: commands.roll_skill(chase_id, "Luck", target=50, bonus=2, dice=DiceChoice(faces=[10, 20, 30, 5])))
    dry = best(args.rounds * 10, lambda: ledger.try_out(lambda: commands.roll_skill(chase_id, "Luck", target=50, bonus=2)))
    print(f"skill roll recorded {real * 1000:.2f} ms; its dry run {dry * 1000:.2f} ms ({dry / real:.2f}x)")
    ledger.close()


if __name__ == "__main__":
    main()
