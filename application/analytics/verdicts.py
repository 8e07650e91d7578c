"""The verdicts of a report: its family of tests named, adjusted together by Holm's step-down, and
each test's verdict in words. A report shows several tests (luck of each person and group, each
die of each dice source, each source's outcomes against their odds); each tested alone against a
fixed threshold, a fair table would be flagged far more often than the threshold says.

The family is every test that gives a verdict: luck of every group and participant with at least
``MIN_ROLLS_WITH_ODDS`` rolls, every die with at least ``MIN_ROLLS_PER_FACE`` rolls a face, and
every dice source's levels of success. Breakdowns (by skill, purpose, kind, session) and the
per-level p-values are descriptive: shown, not judged.
"""
from __future__ import annotations

from typing import Any, Iterator

from application.analytics import inference

LUCKY, UNLUCKY, WITHIN = "luckier than fair dice allow", "unluckier than fair dice allow", "within what fair dice give"


def luck_blocks(report: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every luck test of the report, by the name the family gives it."""
    yield "luck: all rolls", report["totals"]["luck"]
    for key, name in (("keeper", "the Keeper (with the characters the Keeper plays)"), ("keeper_own", "the Keeper's own rolls")):
        if key in report:
            yield f"luck: {name}", report[key]["luck"]
    for label, block in report["by_player"].items():
        yield f"luck: player {label}", block["luck"]
    for block in report["by_participant"].values():
        chase = block.get("chase_id")
        yield f"luck: {block['name']}" + (f" (chase {chase[:8]})" if chase else ""), block["luck"]


def _same_rolls(luck: dict[str, Any]) -> tuple[Any, ...]:
    """What makes two luck tests one: the same count of rolls, successes, expected and p-value."""
    return luck["rolls"], luck["successes"], round(luck["expected"], 9), round(luck["p_two_sided"], 12)


def judge(report: dict[str, Any], error_rate: float = inference.ERROR_RATE) -> None:
    """Adjusts the report's tests together and writes each one's ``p_adjusted``, ``suspect`` and
    ``verdict``; adds ``tests``: the family, the method and the error rate."""
    family: list[tuple[str, dict[str, Any], str]] = []  # (name, the test's block, its p-value's key)
    same: dict[tuple[Any, ...], list[dict[str, Any]]] = {}  # one luck test of the same rolls under several names
    for name, luck in luck_blocks(report):
        if luck.get("p_two_sided") is not None and luck["rolls"] >= inference.MIN_ROLLS_WITH_ODDS:
            # A player's only character, or the Keeper's rolls when no player holds a token: the
            # same rolls are one test, counted once in the family (and judged alike).
            key = _same_rolls(luck)
            if key in same:
                same[key].append(luck)
                continue
            same[key] = [luck]
            family.append((name, luck, "p_two_sided"))
    for source, group in report["fairness"].items():
        for label, die in group["dice"].items():
            if die["p_value"] is not None:
                family.append((f"faces: {source}: {label}", die, "p_value"))
        if group["outcomes_against_their_odds"]["p_value"] is not None:
            family.append((f"levels of success: {source}", group["outcomes_against_their_odds"], "p_value"))
    entries: list[dict[str, Any]] = [{"name": name, "p_value": float(block[key])} for name, block, key in family]
    inference.holm(entries, error_rate)
    for entry, (name, block, key) in zip(entries, family):
        judged = {"p_adjusted": entry["p_adjusted"], "suspect": entry["suspect"]}
        if name.startswith("luck: "):
            judged["verdict"] = (LUCKY if block["difference"] > 0 else UNLUCKY) if entry["suspect"] else WITHIN
        else:
            judged["verdict"] = inference.SUSPECT if entry["suspect"] else inference.NO_SIGN
        for twin in same[_same_rolls(block)] if name.startswith("luck: ") else [block]:
            twin.update(judged)
    for name, luck in luck_blocks(report):  # too few rolls: said in words, never flagged
        luck.setdefault("verdict", inference.TOO_FEW)
        luck.setdefault("suspect", False)
        luck.setdefault("p_adjusted", None)
    for group in report["fairness"].values():
        for test in (*group["dice"].values(), group["outcomes_against_their_odds"]):
            test.setdefault("verdict", inference.TOO_FEW)
            test.setdefault("suspect", False)
            test.setdefault("p_adjusted", None)
        group["suspect"] = any(t["suspect"] for t in (*group["dice"].values(), group["outcomes_against_their_odds"]))
    report["tests"] = {
        "method": inference.HOLM, "error_rate": error_rate, "size": len(entries), "family": entries,
        "note": (f"{len(entries)} tests judged together by Holm's step-down: fair dice are flagged in at most "
                 f"{error_rate:g} of reports. Luck is tested two-sided (lucky or unlucky); fewer than "
                 f"{inference.MIN_ROLLS_WITH_ODDS} rolls with known odds, or fewer than {inference.MIN_ROLLS_PER_FACE} "
                 f"rolls a face of a die, are too few rolls to judge."),
    }
