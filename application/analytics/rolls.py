"""Roll statistics from analytics facts: luck against the rolls' own odds, levels of success
against expected, the numbers rolled against their means (damage luck), and dice fairness (server
dice and each person's table dice apart); the tests themselves are inference.py's."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Any, Iterable, Sequence

from application.analytics import inference

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

    __slots__ = ("rolls", "undone", "server", "table", "chances", "successes", "observed", "odds", "numbers")

    def __init__(self) -> None:
        self.rolls = self.undone = self.server = self.table = self.successes = 0
        self.chances: Counter[float] = Counter()  # chance of success -> rolls made with it (known odds only)
        self.observed: Counter[str] = Counter()
        # each distribution of outcomes (its (outcome, chance) pairs) -> rolls made with it: a few
        # hundred keys for 100,000 rolls, so the levels' figures are summed per distribution
        self.odds: Counter[tuple[tuple[str, float], ...]] = Counter()
        # all rolls with a number, and damage rolls: [rolls, observed sum, expected sum, variance sum]
        self.numbers: dict[str, list[float]] = {"all": [0, 0.0, 0.0, 0.0], "damage": [0, 0.0, 0.0, 0.0]}

    def add(self, roll: dict[str, Any]) -> None:
        data = roll["data"]
        self.rolls += 1
        self.undone += roll["undone"]
        source = data["source"]
        self.server += source == "server"
        self.table += source == "table"
        if data.get("total") is not None and data.get("expected_total") is not None:
            for kind in ("all", "damage") if is_damage(data) else ("all",):
                sums = self.numbers[kind]
                sums[0] += 1
                sums[1] += data["total"]
                sums[2] += data["expected_total"]
                sums[3] += data["total_variance"] or 0.0
        if data["p"] is None or data["success"] is None:
            return
        self.chances[data["p"]] += 1
        self.successes += data["success"]
        if data["outcome"] is not None:
            self.observed[data["outcome"]] += 1
        self.odds[tuple(data["outcomes"].items())] += 1

    def merge(self, *others: "Tally") -> "Tally":
        for other in others:
            self.rolls += other.rolls
            self.undone += other.undone
            self.server += other.server
            self.table += other.table
            self.successes += other.successes
            self.chances.update(other.chances)
            self.observed.update(other.observed)
            self.odds.update(other.odds)
            for kind, sums in other.numbers.items():
                self.numbers[kind] = [a + b for a, b in zip(self.numbers[kind], sums)]
        return self

    @property
    def expected(self) -> dict[str, float]:
        """Each outcome's expected count: the sum of the rolls' chances of it."""
        expected: dict[str, float] = defaultdict(float)
        for outcomes, rolls in self.odds.items():
            for name, p in outcomes:
                expected[name] += p * rolls
        return expected

    def level_chances(self) -> dict[str, Counter[float]]:
        """Each outcome: its chance -> the rolls made with that chance of it."""
        levels: dict[str, Counter[float]] = defaultdict(Counter)
        for outcomes, rolls in self.odds.items():
            for name, p in outcomes:
                levels[name][p] += rolls
        return levels

    def levels_test(self) -> dict[str, Any]:
        """Each level against its exact distribution over the rolls' own odds (inference.levels_test)."""
        return inference.levels_test(self.level_chances(), self.observed, sum(self.chances.values()))

    def luck(self) -> dict[str, Any]:
        """Successes against expected with both exact tails and the two-sided p-value; the z-score
        is the normal approximation, shown beside them (the exact p-values are the ones to read)."""
        rolls = sum(self.chances.values())
        expected = float(sum(p * n for p, n in self.chances.items()))
        variance = float(sum(p * (1 - p) * n for p, n in self.chances.items()))
        both = inference.tails(self.chances, self.successes)
        luck: dict[str, Any] = {
            "rolls": rolls, "successes": self.successes, "expected": expected, "difference": self.successes - expected,
            "z_score": (self.successes - expected) / variance ** 0.5 if variance > 0 else None,
            "p_this_well_or_worse": both["p_at_most"], "p_this_well_or_better": both["p_at_least"],
            "p_two_sided": both["p_two_sided"], "expected_range": both["expected_range"], "minimum_rolls": inference.MIN_ROLLS_WITH_ODDS}
        if rolls < inference.MIN_ROLLS_WITH_ODDS:
            luck["verdict"] = inference.TOO_FEW
        return luck

    def means(self, kind: str) -> dict[str, Any]:
        """The numbers rolled (``all``: every roll whose total or result has known odds; ``damage``:
        damage rolls) against their expected values: sums, means, and the spread of the sum."""
        n, observed, expected, variance = self.numbers[kind]
        return {"rolls": int(n), "observed": observed, "expected": expected, "difference": observed - expected,
                "observed_mean": observed / n if n else None, "expected_mean": expected / n if n else None,
                "sd_of_sum": variance ** 0.5 if n else None}

    def _names(self, expected: dict[str, float]) -> list[str]:
        return list(expected) + [n for n in self.observed if n not in expected]

    def summary(self) -> dict[str, Any]:
        """Rolls made, luck (exact tails, no verdict), and the numbers rolled against expected."""
        luck = self.luck()
        luck.pop("verdict", None)
        return {"rolls": self.rolls, "rolls_with_odds": sum(self.chances.values()), "luck": luck,
                "means": self.means("all"), "damage": self.means("damage")}

    def figures(self, streaks: dict[str, Any]) -> dict[str, Any]:
        """Rolls made; successes observed against expected (rolls with known odds only); each
        level of success against expected, exactly over the rolls' own odds; luck with both
        exact tails; the numbers rolled against expected (all, and damage); ``streaks``."""
        known = sum(self.chances.values())
        levels_test = self.levels_test()
        expected = self.expected
        return {
            "rolls": self.rolls, "undone": self.undone, "server_dice": self.server, "table_dice": self.table,
            "rolls_with_odds": known, "rolls_without_odds": self.rolls - known,
            "luck": self.luck(),
            "levels": {n: {"observed": self.observed.get(n, 0), "expected": expected.get(n, 0.0),
                           "expected_range": levels_test["levels"].get(n, {}).get("expected_range", [0, 0])} for n in self._names(expected)},
            "levels_test": levels_test,
            "streaks": streaks,
            "means": self.means("all"), "damage": self.means("damage"),
        }


def is_damage(data: dict[str, Any]) -> bool:
    """A damage roll, by its purpose or the event that recorded it (every system says "damage")."""
    return "damage" in str(data.get("purpose") or "").lower() or "damage" in str(data.get("event") or "").lower()


def dice_source(roll: dict[str, Any]) -> str:
    """Server dice, or table dice by who entered them: each person's physical dice are tested apart."""
    data = roll["data"]
    if data["source"] == "table":
        return f"table dice entered by {data['entered_by'] or 'unknown'}"
    return f"{data['source'] or 'unknown'} dice"


def fairness(rolls: Iterable[dict[str, Any]], tallies: dict[str, Tally] | None = None) -> dict[str, Any]:
    """Per dice source: each die size's faces against uniform (inference.uniform_test), and one
    test of every roll's outcome against its own odds (levels of success against expected).
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
        dice = {label: inference.uniform_test(counts, die_faces(label) or sorted(counts)) for label, counts in sorted(faces[source].items())}
        outcomes = tallies[source].levels_test() if source in tallies else inference.levels_test({}, {}, 0)
        # "suspect" is set for the source when the report's tests are adjusted together (report.py)
        report[source] = {"rolls": tallies[source].rolls if source in tallies else 0, "dice": dice, "outcomes_against_their_odds": outcomes}
    return report


def luck_series(rolls: Sequence[dict[str, Any]]) -> list[list[float]]:
    """Observed minus expected successes after each roll with known odds, and the standard
    deviation of that difference so far (the expected spread): [roll number, value, spread]."""
    total, variance, series = 0.0, 0.0, []
    for r in rolls:
        data = r["data"]
        if data["p"] is None or data["success"] is None:
            continue
        total += (1 if data["success"] else 0) - data["p"]
        variance += data["p"] * (1 - data["p"])
        series.append([len(series) + 1, total, variance ** 0.5])
    return series
