"""Analytics reports as CSV (one figure a row: section, group, figure, value) and as Markdown."""
from __future__ import annotations

import csv
import io
from typing import Any, Iterator

FORMATS = {"json": "application/json", "csv": "text/csv", "md": "text/markdown"}
STAT_FIGURES = ("rolls", "undone", "server_dice", "table_dice", "rolls_without_odds")
LUCK_FIGURES = ("successes", "expected", "difference", "z_score", "p_this_well_or_worse")


def groups(report: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each roll-statistics block: the totals, the Keeper's, each player token's, each participant's."""
    yield "all rolls", report["totals"]
    if "keeper" in report:
        yield "the Keeper", report["keeper"]
    for label, block in report["by_player"].items():
        yield f"player: {label}", block
    for block in report["by_participant"].values():
        yield f"participant: {block['name']}", block


def rows(report: dict[str, Any]) -> Iterator[tuple[str, str, str, Any]]:
    for name, block in groups(report):
        for figure in STAT_FIGURES:
            yield "rolls", name, figure, block[figure]
        for figure in LUCK_FIGURES:
            yield "luck", name, figure, block["luck"][figure]
        for level, counts in block["levels"].items():
            yield "levels", name, f"{level} observed", counts["observed"]
            yield "levels", name, f"{level} expected", counts["expected"]
        yield "streaks", name, "longest successes", block["streaks"]["successes"]
        yield "streaks", name, "longest failures", block["streaks"]["failures"]
    for source, group in report["fairness"].items():
        for label, test in group["dice"].items():
            for face, count in test["faces"].items():
                yield "faces", f"{source}: {label}", face, count
            yield "fairness", f"{source}: {label}", "p_value", test["p_value"]
        yield "fairness", source, "outcomes p_value", group["outcomes_against_their_odds"]["p_value"]
    game = report["game"]
    for pid, counts in game["by_participant"].items():
        for figure, value in counts.items():
            yield "game", _who(report, pid), figure, value
    for figure, value in game["chase"].items():
        yield "game", "the chases", figure, value
    for outcome, n in game["chases_ended"].items():
        yield "game", "chases ended", outcome, n
    for figure in ("undos", "rewinds", "redos"):
        yield "record", "the chases", figure, game[figure]
    for by, r in game["undo_requests"].items():
        yield "record", f"undo requests by {by}", "made / granted / refused", f"{r['made']} / {r['granted']} / {r['refused']}"
    t = report["time"]
    yield "time", "the chases", "rounds", t["rounds"]
    yield "time", "the chases", "mean round seconds", t["mean_round_seconds"]
    for pid, turns in t["turns"].items():
        yield "time", _who(report, pid), "turns / mean seconds", f"{turns['turns']} / {turns['mean_seconds']:.3f}"


def to_csv(report: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("section", "group", "figure", "value"))
    writer.writerows(rows(report))
    return out.getvalue()


def to_markdown(report: dict[str, Any]) -> str:
    scope = report["scope"]
    lines = [f"# {scope['name']} ({scope['kind']})", "", f"Chases: {', '.join(c['name'] for c in scope['chases']) or 'none'}. "
             f"Seen as: {report['viewer']}.", ""]
    lines += ["## Luck", "", "| who | rolls | undone | successes | expected | z | P(this well or worse) | streaks (S/F) |",
              "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, b in groups(report):
        luck = b["luck"]
        lines.append(f"| {name} | {b['rolls']} | {b['undone']} | {luck['successes']} | {luck['expected']:.2f} | "
                     f"{_num(luck['z_score'])} | {_num(luck['p_this_well_or_worse'])} | {b['streaks']['successes']}/{b['streaks']['failures']} |")
    lines += ["", "## Levels of success (all rolls)", "", "| level | observed | expected |", "|---|---:|---:|"]
    lines += [f"| {n} | {c['observed']} | {c['expected']:.2f} |" for n, c in report["totals"]["levels"].items()]
    lines += ["", "## Dice fairness", "", "| dice | die | rolls | chi-square | p | suspect |", "|---|---|---:|---:|---:|---|"]
    for source, group in report["fairness"].items():
        for label, t in group["dice"].items():
            lines.append(f"| {source} | {label} | {t['rolls']} | {_num(t['chi_square'])} | {_num(t['p_value'])} | {'yes' if t['suspect'] else 'no'} |")
    lines += ["", "## The game and the clock", "", "| section | who | figure | value |", "|---|---|---|---|"]
    lines += [f"| {s} | {g} | {f} | {_num(v)} |" for s, g, f, v in rows(report) if s in ("game", "record", "time")]
    lines += ["", "## Notes", ""] + [f"- {note}" for note in report["notes"]]
    return "\n".join(lines) + "\n"


def _who(report: dict[str, Any], pid: str) -> str:
    block = report["by_participant"].get(pid)
    return f"participant: {block['name']}" if block else f"participant: {pid}"


def _num(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)
