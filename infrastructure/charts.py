"""Analytics charts drawn with matplotlib (Agg, no display): luck over time per participant, levels
of success against expected, and face histograms against the uniform line; as SVG or PNG bytes."""
from __future__ import annotations

import io
import zlib
from typing import Any, Iterable

import matplotlib

matplotlib.use("Agg")  # before pyplot: no display, safe in worker threads and processes
from matplotlib.figure import Figure  # noqa: E402 - after the backend is chosen
from matplotlib.ticker import MaxNLocator  # noqa: E402

KINDS = ("luck", "levels", "faces")
FORMATS = {"svg": "image/svg+xml", "png": "image/png"}
WIDTH, HEIGHT, DPI = 8.0, 4.5, 100  # inches and dots per inch: a PNG is 800 x 450 pixels


def render(report: dict[str, Any], kind: str, fmt: str) -> bytes:
    """One chart of the report (its ``luck_over_time`` for "luck") as SVG or PNG."""
    fig = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)  # not pyplot: no global state between threads
    {"luck": _luck, "levels": _levels, "faces": _faces}[kind](fig, report)
    fig.suptitle(f"{report['scope']['name']} ({report['scope']['kind']})", fontsize=9, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0.04, 1, 0.95))  # room for the title above the panels' own
    out = io.BytesIO()
    fig.savefig(out, format=fmt, dpi=DPI)
    return out.getvalue()


PALETTE = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan", "tab:gray")


def colours(names: Iterable[str]) -> dict[str, str]:
    """One colour per person, the same in every chart and every report: each name's own slot of
    the palette (a hash of the name), the next free one when two names share it."""
    taken: dict[str, str] = {}
    for name in sorted(set(names)):
        slot = zlib.crc32(name.encode()) % len(PALETTE)
        free = [PALETTE[(slot + i) % len(PALETTE)] for i in range(len(PALETTE)) if PALETTE[(slot + i) % len(PALETTE)] not in taken.values()]
        taken[name] = free[0] if free else PALETTE[slot]
    return taken


def _luck(fig: Figure, report: dict[str, Any]) -> None:
    ax = fig.add_subplot()
    lines = {name: series for name, series in (report.get("luck_over_time") or {}).items() if series}
    colour = colours(lines)
    for name, series in lines.items():
        xs, ys, spread = [p[0] for p in series], [p[1] for p in series], [p[2] if len(p) > 2 else 0.0 for p in series]
        # Two standard deviations either side of zero, dotted in the person's colour: where about 95%
        # of fair luck stays (lines, not fills: several people's bands overlap).
        for sign in (-2, 2):
            ax.plot(xs, [sign * s for s in spread], drawstyle="steps-post", color=colour[name], linestyle=":", linewidth=1)
        ax.plot(xs, ys, label=name, drawstyle="steps-post", marker="o", markersize=3, color=colour[name])
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set(title="Luck over time: successes observed minus expected (dotted: 2 standard deviations of fair luck)",
           xlabel="roll with known odds (each person's own count)", ylabel="observed - expected")
    ax.title.set_fontsize(9)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


def _levels(fig: Figure, report: dict[str, Any]) -> None:
    ax = fig.add_subplot()
    levels = report["totals"]["levels"]
    names = list(levels)
    xs = range(len(names))
    expected = [levels[n]["expected"] for n in names]
    low = [max(0.0, e - levels[n]["expected_range"][0]) for e, n in zip(expected, names)]
    high = [max(0.0, levels[n]["expected_range"][1] - e) for e, n in zip(expected, names)]
    ax.bar([x - 0.2 for x in xs], [levels[n]["observed"] for n in names], width=0.4, label="observed", color="tab:blue")
    ax.bar([x + 0.2 for x in xs], expected, width=0.4, label="expected (whisker: 95% of fair counts)", color="tab:orange",
           yerr=[low, high], capsize=3, ecolor="black")
    ax.set_xticks(list(xs), names, rotation=20, fontsize=8)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    test = report["totals"]["levels_test"]
    together = f"all levels together p = {test['p_value']:.3g}" if test["p_value"] is not None else test.get("verdict", "")
    ax.set(title=f"Levels of success against the rolls' own odds ({together})", ylabel="rolls")
    ax.title.set_fontsize(9)
    ax.legend(fontsize=8)


def _faces(fig: Figure, report: dict[str, Any]) -> None:
    tests = [(source, label, test) for source, group in report["fairness"].items() for label, test in group["dice"].items()]
    panels = [(source, label, test) for source, label, test in tests if test["p_value"] is not None]
    too_few = [f"{label} ({source}): {test['rolls']} of {test['minimum_rolls']} rolls" for source, label, test in tests if test["p_value"] is None]
    if too_few:  # said in words, not drawn: a few rolls show nothing about a die
        fig.text(0.01, 0.01, "Too few rolls to judge: " + "; ".join(too_few), fontsize=6, ha="left", va="bottom", wrap=True)
    if not panels:
        fig.add_subplot().set(title="No die rolled often enough to judge")
        return
    cols = min(3, len(panels))
    rows = -(-len(panels) // cols)
    for i, (source, label, test) in enumerate(panels, 1):
        ax = fig.add_subplot(rows, cols, i)
        faces = list(test["faces"])
        ax.bar(range(len(faces)), [test["faces"][f] for f in faces], color="tab:red" if test["suspect"] else "tab:blue")
        ax.axhline(test["expected_per_face"], color="black", linewidth=1, label="uniform")
        ax.set_xticks(range(len(faces)), faces, fontsize=6)
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        adjusted = test.get("p_adjusted")
        ax.set_title(f"{label}, {source}\np = {test['p_value']:.3g} ({test['method']})"
                     + (f", adjusted {adjusted:.3g}" if adjusted is not None else "") + f"\n{test['verdict']}", fontsize=6)
        ax.tick_params(labelsize=6)
