"""Analytics reports as CSV (one figure a row: section, group, figure, value), as a per-roll CSV
(one roll a row) and as Markdown. Names are people's own text: escaped in Markdown (a ``|`` would
cut a table, a ``![..](..)`` would show an image) and in CSV (a cell starting with ``=`` is a
formula to a spreadsheet)."""
from __future__ import annotations

import csv
import io
import re
from typing import Any, Iterable, Iterator

FORMATS = {"json": "application/json", "csv": "text/csv", "md": "text/markdown", "rolls": "text/csv"}
STAT_FIGURES = ("rolls", "rolls_with_odds", "undone", "server_dice", "table_dice", "rolls_without_odds")
LUCK_FIGURES = ("successes", "expected", "difference", "z_score", "p_this_well_or_worse", "p_this_well_or_better",
                "p_two_sided", "p_adjusted", "verdict")
MEAN_FIGURES = ("rolls", "observed", "expected", "observed_mean", "expected_mean", "sd_of_sum")
ROLL_COLUMNS = ("chase_id", "sequence", "at", "who", "player", "source", "entered_by", "kind", "purpose", "skill",
                "outcome", "success", "chance", "total", "expected_total", "undone", "faces")
MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()<>#+!|~])")
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def md(text: Any) -> str:
    """Text as it shows in Markdown, never as markup: each special character escaped, lines joined."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", " ".join(str(text).splitlines()))


def cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a string that would start a formula gets a quote."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def groups(report: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each roll-statistics block: the totals, the Keeper's, each player token's, each participant's."""
    yield "all rolls", report["totals"]
    if "keeper" in report:
        yield "the Keeper (with the characters the Keeper plays)", report["keeper"]
    if "keeper_own" in report:
        yield "the Keeper's own rolls", report["keeper_own"]
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
        for run in block["streaks"]["by_chase"]:
            yield "streaks", f"{name} in chase {run['chase_id']}", "longest successes / expected", f"{run['successes']} / {_num(run['expected_successes'])}"
            yield "streaks", f"{name} in chase {run['chase_id']}", "longest failures / expected", f"{run['failures']} / {_num(run['expected_failures'])}"
        for kind in ("means", "damage"):
            for figure in MEAN_FIGURES:
                yield kind, name, figure, block[kind][figure]
    for key in ("by_skill", "by_purpose", "by_kind", "by_session"):
        for value, block in (report.get(key) or {}).items():
            label = f"{key[3:]}: {block.get('name', value)}"
            yield key, label, "rolls / with odds", f"{block['rolls']} / {block['rolls_with_odds']}"
            yield key, label, "successes / expected", f"{block['luck']['successes']} / {block['luck']['expected']:.3f}"
            yield key, label, "total / expected", f"{_num(block['means']['observed'])} / {_num(block['means']['expected'])}"
    for source, group in report["fairness"].items():
        for label, test in group["dice"].items():
            for face, count in test["faces"].items():
                yield "faces", f"{source}: {label}", face, count
            for figure in ("method", "p_value", "simulation_error", "p_adjusted", "verdict"):
                yield "fairness", f"{source}: {label}", figure, test[figure]
        yield "fairness", source, "outcomes p_value", group["outcomes_against_their_odds"]["p_value"]
        yield "fairness", source, "outcomes verdict", group["outcomes_against_their_odds"]["verdict"]
    tests = report["tests"]
    for entry in tests["family"]:
        yield "tests", entry["name"], f"p / {tests['method']} adjusted", f"{entry['p_value']:.4g} / {entry['p_adjusted']:.4g}"
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
    return _csv(("section", "group", "figure", "value"), rows(report))


def to_rolls_csv(report: dict[str, Any]) -> str:
    """One roll a row (the report made with ``per_roll``): who, what for, the dice, the odds."""
    return _csv(ROLL_COLUMNS, ([row[c] for c in ROLL_COLUMNS] for row in report["roll_rows"]))


def _csv(header: Iterable[str], lines: Iterable[Iterable[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(tuple(header))
    writer.writerows([cell(v) for v in line] for line in lines)
    return out.getvalue()


def to_markdown(report: dict[str, Any]) -> str:
    scope = report["scope"]
    lines = [f"# {md(scope['name'])} ({scope['kind']})", "", f"Chases: {', '.join(md(c['name']) for c in scope['chases']) or 'none'}. "
             f"Seen as: {report['viewer']}.", ""]
    lines += ["## Luck", "", "Successes count rolls with known odds only; damage and other totals are under Means.", "",
              "| who | rolls | with odds | undone | successes | expected | P(this or worse) | P(this or better) | two-sided | verdict | streaks (S/F) |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for name, b in groups(report):
        luck = b["luck"]
        lines.append(f"| {md(name)} | {b['rolls']} | {b['rolls_with_odds']} | {b['undone']} | {luck['successes']} | {luck['expected']:.2f} | "
                     f"{_num(luck['p_this_well_or_worse'])} | {_num(luck['p_this_well_or_better'])} | {_num(luck['p_two_sided'])} | "
                     f"{luck['verdict']} | {b['streaks']['successes']}/{b['streaks']['failures']} |")
    lines += ["", "## Means and damage (observed against expected)", "",
              "| who | rolls | mean | expected mean | damage rolls | damage | expected damage |", "|---|---:|---:|---:|---:|---:|---:|"]
    for name, b in groups(report):
        m, d = b["means"], b["damage"]
        lines.append(f"| {md(name)} | {m['rolls']} | {_num(m['observed_mean'])} | {_num(m['expected_mean'])} | {d['rolls']} | "
                     f"{_num(d['observed'])} | {_num(d['expected'])} |")
    lines += ["", "## Levels of success (all rolls)", "", "| level | observed | expected | 95% of fair counts | P(this or more) |",
              "|---|---:|---:|---|---:|"]
    per_level = report["totals"]["levels_test"]["levels"]
    lines += [f"| {md(n)} | {c['observed']} | {c['expected']:.2f} | {c['expected_range'][0]} to {c['expected_range'][1]} | "
              f"{_num(per_level.get(n, {}).get('p_at_least'))} |" for n, c in report["totals"]["levels"].items()]
    names = list(report["totals"]["levels"])
    if names:  # each group's levels: observed / expected
        lines += ["", "## Levels of success by who rolled (observed / expected)", "",
                  "| who | " + " | ".join(md(n) for n in names) + " |", "|---|" + "---:|" * len(names)]
        for name, b in groups(report):
            cells = (f"{b['levels'][n]['observed']} / {b['levels'][n]['expected']:.2f}" if n in b["levels"] else "-" for n in names)
            lines.append(f"| {md(name)} | " + " | ".join(cells) + " |")
    lines += ["", "## Dice fairness", "", "| dice | die | rolls | method | p | adjusted p | verdict |", "|---|---|---:|---|---:|---:|---|"]
    for source, group in report["fairness"].items():
        for label, t in group["dice"].items():
            lines.append(f"| {md(source)} | {label} | {t['rolls']} | {t['method'] or '-'} | {_num(t['p_value'])} | {_num(t['p_adjusted'])} | {t['verdict']} |")
    lines += ["", "## By skill, purpose, kind of roll and session", "", "| by | rolls | with odds | successes | expected | total | expected total |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for key in ("by_skill", "by_purpose", "by_kind", "by_session"):
        for value, b in (report.get(key) or {}).items():
            lines.append(f"| {key[3:]}: {md(b.get('name', value))} | {b['rolls']} | {b['rolls_with_odds']} | {b['luck']['successes']} | "
                         f"{b['luck']['expected']:.2f} | {_num(b['means']['observed'])} | {_num(b['means']['expected'])} |")
    lines += ["", "## The game and the clock", "", "| section | who | figure | value |", "|---|---|---|---|"]
    lines += [f"| {s} | {md(g)} | {md(f)} | {md(_num(v))} |" for s, g, f, v in rows(report) if s in ("game", "record", "time")]
    lines += ["", "## Tests", "", md(report["tests"]["note"]), ""] + [f"- {md(e['name'])}: p {e['p_value']:.4g}, adjusted {e['p_adjusted']:.4g}"
                                                                   for e in report["tests"]["family"]]
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
