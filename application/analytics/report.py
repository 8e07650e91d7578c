"""A report of analytics over some chases (one chase, a session, a campaign), from their facts.

Broken down by participant, by player token and for the Keeper (the participants no player token
acts for, and rolls for no participant). A player's report never shows the Keeper's rolls: GM rolls
are kept private, so they leave every figure a player sees (totals, fairness, luck over time).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Mapping, Sequence

from application.analytics import inference, play, rolls as roll_figures, stats, verdicts

KEEPER_VIEW, PLAYER_VIEW = "keeper", "player"
KEEPER_OWN = "the Keeper's own rolls"  # rolls made for no character, apart from the characters the Keeper plays
NOTES = (
    "Luck counts every roll made, undone ones too (they were rolled; each is marked and counted in 'undone'); "
    "game counts and the clock leave undone actions out.",
    "Rolls whose exact odds are unknown, or that have no success to them (a damage total), count in rolls made "
    "and in dice fairness, not in expected successes, levels of success or the luck score ('rolls_without_odds'); "
    "their totals count in 'means' and 'damage' when the totals' odds are known.",
    "p_this_well_or_worse and p_this_well_or_better are the exact Poisson-binomial tails, over the rolls' own odds, of "
    "as many successes as observed or fewer, and or more; p_two_sided is twice the smaller. The z-score is the normal "
    "approximation, shown for scale only: read the exact p-values.",
    "Each level of success is tested against its exact distribution over the rolls' own chances of that level "
    "(two-sided), the levels together by Bonferroni; 'expected_range' holds 95% of the counts fair dice give.",
    f"A die's faces are tested against uniform exactly (every way the rolls could fall) up to {inference.EXACT_UP_TO} rolls, "
    f"by Monte Carlo ({inference.SIMULATIONS:,} draws) while a face is expected fewer than {inference.ASYMPTOTIC_FROM:g} "
    "times, and by Pearson's chi-square beyond; 'method' says which.",
    "Streaks are each character's in one chase; a group's is the longest of its characters' and chases'.",
)
PLAYER_NOTE = ("The Keeper's rolls are private: they are left out of every figure in a player's report, and so are the "
               "game counts and turns of the Keeper's participants (those no player token acts for).")
# A tally's key: (participant, dice source, skill, purpose, kind of roll (the event), chase)
Key = tuple[str, str, "str | None", "str | None", "str | None", str]
SOURCE, CHASE = 1, 5
BREAKDOWNS = {"by_skill": 2, "by_purpose": 3, "by_kind": 4}  # report key -> its part of a tally's key


def build(scope: Mapping[str, Any], facts: Sequence[dict[str, Any]], people: Mapping[str, Mapping[str, Any]],
          viewer: str = KEEPER_VIEW, series: bool = False, sessions: Mapping[str, Mapping[str, Any]] | None = None,
          per_roll: bool = False) -> dict[str, Any]:
    """The report. ``people``: participant id -> {"name", "chase_id", "player" (the label of the
    player token acting for them, None: the Keeper's)}; ``series``: add luck over time per
    participant (observed minus expected successes after each roll, and its expected spread), for
    charts; ``sessions``: chase id -> {"session_id", "name"}, for a campaign's figures by session;
    ``per_roll``: add one row per roll (the per-roll CSV)."""
    def keepers(f: dict[str, Any]) -> bool:
        return f["kind"] == "roll" and (people.get(f["participant_id"] or "") or {}).get("player") is None

    # In the order they happened, across chases (streaks, the clock and luck over time read it so).
    shown = sorted((f for f in facts if not (viewer == PLAYER_VIEW and keepers(f))), key=lambda f: (f["at"], f["chase_id"], f["version"], f["index"]))
    made = [f for f in shown if f["kind"] == "roll"]
    # One pass: a tally per participant, dice source, skill, purpose, kind of roll and chase (a few
    # hundred at most), merged below into every group and breakdown.
    tallies: dict[Key, roll_figures.Tally] = defaultdict(roll_figures.Tally)
    runs: dict[tuple[str, str], list[tuple[bool, float | None]]] = defaultdict(list)  # (participant, chase) -> rolls in order
    for r in made:
        pid, data = r["participant_id"] or "", r["data"]
        tallies[(pid, roll_figures.dice_source(r), data.get("skill"), data["purpose"], data["event"], r["chase_id"])].add(r)
        if data["success"] is not None:
            runs[(pid, r["chase_id"])].append((data["success"], data["p"]))
    own_streaks = {key: streaks_of(rolls) for key, rolls in runs.items()}

    def figures(pids: set[str]) -> dict[str, Any]:
        tally = roll_figures.Tally().merge(*(t for key, t in tallies.items() if key[0] in pids))
        mine = [(key[1], s) for key, s in own_streaks.items() if key[0] in pids]
        longest = {kind: max((s[kind] for _, s in mine), default=0) for kind in ("successes", "failures")}
        by_chase = [{"chase_id": chase, **s} for chase, s in mine] if len(pids) == 1 else []
        return tally.figures({**longest, "by_chase": by_chase})

    everyone = {key[0] for key in tallies}
    players: dict[str, set[str]] = defaultdict(set)
    for pid in everyone:
        player = (people.get(pid) or {}).get("player")
        if player:
            players[player].add(pid)
    sources = {key[SOURCE] for key in tallies}
    report: dict[str, Any] = {
        "scope": dict(scope),
        "viewer": viewer,
        "notes": list(NOTES) + ([PLAYER_NOTE] if viewer == PLAYER_VIEW else []),
        "totals": figures(everyone),
        "by_player": {label: figures(pids) for label, pids in sorted(players.items())},
        "by_participant": {
            pid: {"name": _name(people, pid), "player": (people.get(pid) or {}).get("player"),
                  "chase_id": (people.get(pid) or {}).get("chase_id"), **figures({pid})}
            for pid in sorted(everyone - {""}, key=lambda p: (_name(people, p), p))
        },
        "fairness": roll_figures.fairness(made, {s: roll_figures.Tally().merge(*(t for k, t in tallies.items() if k[SOURCE] == s)) for s in sources}),
        **{name: breakdown(tallies, lambda k, i=i: k[i]) for name, i in BREAKDOWNS.items()},
        "game": play.game(shown, people),
        "time": play.clock(shown),
    }
    if sessions is not None:
        report["by_session"] = {sid: {"name": name, **block} for (sid, name), block in
                                breakdown(tallies, lambda k: _session(sessions, k[CHASE]), keyed=True).items()}
    if viewer == PLAYER_VIEW:  # the Keeper's participants are as private as their rolls
        def players_own(pid: str) -> bool:
            return (people.get(pid) or {}).get("player") is not None
        report["game"]["by_participant"] = {pid: c for pid, c in report["game"]["by_participant"].items() if players_own(pid)}
        report["time"]["turns"] = {pid: t for pid, t in report["time"]["turns"].items() if players_own(pid)}
    if viewer == KEEPER_VIEW:
        report["keeper"] = figures({pid for pid in everyone if not pid or (people.get(pid) or {}).get("player") is None})
        if "" in everyone:
            report["keeper_own"] = figures({""})
    verdicts.judge(report)
    if series:
        mine: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in made:
            mine[_name(people, r["participant_id"]) if r["participant_id"] else KEEPER_OWN].append(r)
        report["luck_over_time"] = {name: roll_figures.luck_series(rs) for name, rs in sorted(mine.items())}
    if per_roll:
        report["roll_rows"] = [roll_row(r, people) for r in made]
    return report


def streaks_of(rolls: Sequence[tuple[bool, float | None]]) -> dict[str, Any]:
    """One character's longest runs in one chase, and the runs expected of their rolls' own odds."""
    expected = inference.expected_longest_runs([p for _, p in rolls if p is not None]) if all(p is not None for _, p in rolls) else {}
    return {"rolls": len(rolls), **stats.longest_streaks(s for s, _ in rolls),
            "expected_successes": expected.get("successes"), "expected_failures": expected.get("failures")}


def breakdown(tallies: Mapping[Key, roll_figures.Tally], key: Callable[[Key], Any], keyed: bool = False) -> dict[Any, dict[str, Any]]:
    """The rolls' figures by a part of their tally's key (skill, purpose, kind of roll, session):
    descriptive, not judged."""
    merged: dict[Any, roll_figures.Tally] = defaultdict(roll_figures.Tally)
    for k, tally in tallies.items():
        merged[key(k)].merge(tally)
    return {(k if keyed else str(k) if k is not None else "none"): t.summary() for k, t in sorted(merged.items(), key=lambda kv: str(kv[0]))}


def roll_row(r: dict[str, Any], people: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """One roll as a row of the per-roll CSV."""
    data, pid = r["data"], r["participant_id"]
    return {"chase_id": r["chase_id"], "sequence": data["sequence"], "at": r["at"], "who": _name(people, pid) if pid else KEEPER_OWN,
            "player": (people.get(pid or "") or {}).get("player"), "source": data["source"], "entered_by": data["entered_by"],
            "kind": data["event"], "purpose": data["purpose"], "skill": data.get("skill"), "outcome": data["outcome"],
            "success": data["success"], "chance": data["p"], "total": data.get("total"), "expected_total": data.get("expected_total"),
            "undone": r["undone"], "faces": " ".join(f"{label}:{face}" for label, face in data["faces"])}


def _session(sessions: Mapping[str, Mapping[str, Any]], chase_id: str) -> tuple[str, str]:
    found = sessions.get(chase_id) or {}
    return str(found.get("session_id")), str(found.get("name"))


def _name(people: Mapping[str, Mapping[str, Any]], pid: str | None) -> str:
    return str((people.get(pid or "") or {}).get("name") or pid)
