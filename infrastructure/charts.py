"""Analytics charts drawn with matplotlib (Agg, no display): luck over time per participant, levels
of success against expected, and face histograms against the uniform line; as SVG or PNG bytes."""
from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")  # before pyplot: no display, safe in worker threads and processes
from matplotlib.figure import Figure  # noqa: E402 - after the backend is chosen

KINDS = ("luck", "levels", "faces")
FORMATS = {"svg": "image/svg+xml", "png": "image/png"}
WIDTH, HEIGHT, DPI = 8.0, 4.5, 100  # inches and dots per inch: a PNG is 800 x 450 pixels


def render(report: dict[str, Any], kind: str, fmt: str) -> bytes:
    """One chart of the report (its ``luck_over_time`` for "luck") as SVG or PNG."""
    fig = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)  # not pyplot: no global state between threads
    {"luck": _luck, "levels": _levels, "faces": _faces}[kind](fig, report)
    fig.suptitle(f"{report['scope']['name']} ({report['scope']['kind']})", fontsize=9, x=0.01, ha="left")
    fig.tight_layout(rect=(0, 0, 1, 0.95))  # room for the title above the panels' own
    out = io.BytesIO()
    fig.savefig(out, format=fmt, dpi=DPI)
    return out.getvalue()


def _luck(fig: Figure, report: dict[str, Any]) -> None:
    ax = fig.add_subplot()
    for name, series in (report.get("luck_over_time") or {}).items():
        if series:
            ax.plot([x for x, _ in series], [y for _, y in series], label=name, drawstyle="steps-post")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set(title="Luck over time: successes observed minus expected", xlabel="roll (each participant's own)",
           ylabel="observed - expected")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)


def _levels(fig: Figure, report: dict[str, Any]) -> None:
    ax = fig.add_subplot()
    levels = report["totals"]["levels"]
    names = list(levels)
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], [levels[n]["observed"] for n in names], width=0.4, label="observed")
    ax.bar([x + 0.2 for x in xs], [levels[n]["expected"] for n in names], width=0.4, label="expected")
    ax.set_xticks(list(xs), names, rotation=20, fontsize=8)
    ax.set(title="Levels of success: observed against expected (the rolls' own odds)", ylabel="rolls")
    ax.legend(fontsize=8)


def _faces(fig: Figure, report: dict[str, Any]) -> None:
    panels = [(source, label, test) for source, group in report["fairness"].items() for label, test in group["dice"].items()]
    if not panels:
        fig.add_subplot().set(title="No dice rolled")
        return
    cols = min(3, len(panels))
    rows = -(-len(panels) // cols)
    for i, (source, label, test) in enumerate(panels, 1):
        ax = fig.add_subplot(rows, cols, i)
        faces = list(test["faces"])
        ax.bar(range(len(faces)), [test["faces"][f] for f in faces], color="tab:blue")
        ax.axhline(test["expected_per_face"], color="tab:red", linewidth=1, label="uniform")
        ax.set_xticks(range(len(faces)), faces, fontsize=6)
        p = test["p_value"]
        ax.set_title(f"{label}, {source}\np = {p:.3g}" if p is not None else f"{label}, {source}", fontsize=7)
        ax.tick_params(labelsize=6)
