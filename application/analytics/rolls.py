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


def roll_stats(rolls: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Rolls made; successes observed against expected (rolls with known odds only); each level
    of success against expected with a chi-square over the rolls' own distributions; the luck
    score and the exact chance of doing this well or worse; the longest streaks."""
    chances: list[float] = []
    successes = undone = server = table = 0
    outcomes: list[bool] = []
    for r in rolls:  # one pass: a session report reads 100,000 of these several times
        data = r["data"]
        undone += r["undone"]
        server += data["source"] == "server"
        table += data["source"] == "table"
        if data["success"] is not None:
            outcomes.append(data["success"])
            if data["p"] is not None:
                chances.append(data["p"])
                successes += data["success"]
    observed, expected = levels(rolls)
    names = list(expected) + [n for n in observed if n not in expected]
    return {
        "rolls": len(rolls), "undone": undone, "server_dice": server, "table_dice": table,
        "rolls_without_odds": len(rolls) - len(chances),
        "luck": stats.luck(chances, successes),
        "levels": {n: {"observed": observed.get(n, 0), "expected": expected.get(n, 0.0)} for n in names},
        "levels_test": levels_test(observed, expected),
        "streaks": stats.longest_streaks(outcomes),
    }


def levels(rolls: Iterable[dict[str, Any]]) -> tuple[Counter[str], dict[str, float]]:
    """Each outcome's count and its expected count (the sum of every roll's own chance of it)."""
    observed: Counter[str] = Counter()
    expected: dict[str, float] = defaultdict(float)
    for r in rolls:
        data = r["data"]
        if data["p"] is None or data["success"] is None:
            continue
        if data["outcome"] is not None:
            observed[data["outcome"]] += 1
        for name, p in data["outcomes"].items():
            expected[name] += p
    return observed, expected


def levels_test(observed: Counter[str], expected: dict[str, float]) -> dict[str, Any]:
    names = list(expected) + [n for n in observed if n not in expected]
    return stats.chi_square([observed.get(n, 0) for n in names], [expected.get(n, 0.0) for n in names])


def dice_source(roll: dict[str, Any]) -> str:
    """Server dice, or table dice by who entered them: each person's physical dice are tested apart."""
    data = roll["data"]
    if data["source"] == "table":
        return f"table dice entered by {data['entered_by'] or 'unknown'}"
    return f"{data['source'] or 'unknown'} dice"


def fairness(rolls: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Per dice source: each die size's faces against uniform (chi-square, p-value), and one test
    of every roll's outcome against its own odds (levels of success against expected)."""
    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rolls:
        by_source[dice_source(r)].append(r)
    report: dict[str, Any] = {}
    for source, group in sorted(by_source.items()):
        faces: dict[str, Counter[int]] = defaultdict(Counter)
        for r in group:
            for label, face in r["data"]["faces"]:
                faces[label][face] += 1
        dice = {label: stats.uniform_test(counts, die_faces(label) or sorted(counts)) for label, counts in sorted(faces.items())}
        outcomes = levels_test(*levels(group))
        report[source] = {
            "rolls": len(group), "dice": dice, "outcomes_against_their_odds": outcomes,
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
