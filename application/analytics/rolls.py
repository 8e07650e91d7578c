"""Roll statistics from analytics facts: luck against the rolls' own odds, levels of success
against expected, streaks, and dice fairness (server dice and each person's table dice apart)."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any, Iterable, Sequence

from application.analytics import stats

DIE = re.compile(r"^d(\d+)$")


def die_faces(label: str) -> list[int] | None:
    """Every face of a die by its label (domain/dice/dice.py Die.label); None for one unknown."""
    if label == "d100 tens":
        return list(range(0, 100, 10))
    if label == "d100 units":
        return list(range(10))
    match = DIE.match(label)
    return list(range(1, int(match.group(1)) + 1)) if match else None


class Tally:
    """What the figures of a set of rolls need, gathered in one pass and merged between sets: a
    session report reads each of 100,000 rolls once, then merges participants into players, the
    Keeper and the totals (and dice sources into fairness)."""

    __slots__ = ("rolls", "undone", "server", "table", "chances", "successes", "observed", "expected")

    def __init__(self) -> None:
        self.rolls = self.undone = self.server = self.table = self.successes = 0
        self.chances: Counter[float] = Counter()  # chance of success -> rolls made with it (known odds only)
        self.observed: Counter[str] = Counter()
        self.expected: dict[str, float] = defaultdict(float)

    def add(self, roll: dict[str, Any]) -> None:
        data = roll["data"]
        self.rolls += 1
        self.undone += roll["undone"]
        source = data["source"]
        self.server += source == "server"
        self.table += source == "table"
        if data["p"] is None or data["success"] is None:
            return
        self.chances[data["p"]] += 1
        self.successes += data["success"]
        if data["outcome"] is not None:
            self.observed[data["outcome"]] += 1
        expected = self.expected
        for name, p in data["outcomes"].items():
            expected[name] += p

    def merge(self, *others: "Tally") -> "Tally":
        for other in others:
            self.rolls += other.rolls
            self.undone += other.undone
            self.server += other.server
            self.table += other.table
            self.successes += other.successes
            self.chances.update(other.chances)
            self.observed.update(other.observed)
            for name, p in other.expected.items():
                self.expected[name] += p
        return self

    def levels_test(self) -> dict[str, Any]:
        names = self._names()
        return stats.chi_square([self.observed.get(n, 0) for n in names], [self.expected.get(n, 0.0) for n in names])

    def _names(self) -> list[str]:
        return list(self.expected) + [n for n in self.observed if n not in self.expected]

    def figures(self, in_order: Iterable[bool]) -> dict[str, Any]:
        """Rolls made; successes observed against expected (rolls with known odds only); each
        level of success against expected with a chi-square over the rolls' own distributions;
        the luck score and the exact chance of doing this well or worse; the longest streaks of
        ``in_order``, the rolls' successes in the order they were made."""
        known = sum(self.chances.values())
        return {
            "rolls": self.rolls, "undone": self.undone, "server_dice": self.server, "table_dice": self.table,
            "rolls_without_odds": self.rolls - known,
            "luck": stats.luck(self.chances, self.successes),
            "levels": {n: {"observed": self.observed.get(n, 0), "expected": self.expected.get(n, 0.0)} for n in self._names()},
            "levels_test": self.levels_test(),
            "streaks": stats.longest_streaks(in_order),
        }


def roll_stats(rolls: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of these rolls (Tally.figures), in the order given."""
    tally = Tally()
    for r in rolls:
        tally.add(r)
    return tally.figures(r["data"]["success"] for r in rolls if r["data"]["success"] is not None)


def dice_source(roll: dict[str, Any]) -> str:
    """Server dice, or table dice by who entered them: each person's physical dice are tested apart."""
    data = roll["data"]
    if data["source"] == "table":
        return f"table dice entered by {data['entered_by'] or 'unknown'}"
    return f"{data['source'] or 'unknown'} dice"


def fairness(rolls: Iterable[dict[str, Any]], tallies: dict[str, Tally] | None = None) -> dict[str, Any]:
    """Per dice source: each die size's faces against uniform (chi-square, p-value), and one test
    of every roll's outcome against its own odds (levels of success against expected).
    ``tallies``: each source's Tally when the caller has them (else they are made here)."""
    faces: dict[str, dict[str, Counter[int]]] = defaultdict(lambda: defaultdict(Counter))
    made: dict[str, Tally] = defaultdict(Tally)
    for r in rolls:
        source = dice_source(r)
        for label, face in r["data"]["faces"]:
            faces[source][label][face] += 1
        if tallies is None:
            made[source].add(r)
    tallies = made if tallies is None else tallies
    report: dict[str, Any] = {}
    for source in sorted(set(faces) | {s for s, t in tallies.items() if t.rolls}):
        dice = {label: stats.uniform_test(counts, die_faces(label) or sorted(counts)) for label, counts in sorted(faces[source].items())}
        outcomes = tallies[source].levels_test() if source in tallies else stats.chi_square([], [])
        report[source] = {
            "rolls": tallies[source].rolls if source in tallies else 0, "dice": dice, "outcomes_against_their_odds": outcomes,
            "suspect": any(d["suspect"] for d in dice.values()) or bool(outcomes["suspect"]),
        }
    return report


def luck_series(rolls: Sequence[dict[str, Any]]) -> list[list[float]]:
    """Observed minus expected successes after each roll with known odds: [roll number, value]."""
    total, series = 0.0, []
    for r in rolls:
        data = r["data"]
        if data["p"] is None or data["success"] is None:
            continue
        total += (1 if data["success"] else 0) - data["p"]
        series.append([len(series) + 1, total])
    return series
