"""A report of analytics over some chases (one chase, a session, a campaign), from their facts.

Broken down by participant, by player token and for the Keeper (the participants no player token
acts for, and rolls for no participant). A player's report never shows the Keeper's rolls: GM rolls
are kept private, so they leave every figure a player sees (totals, fairness, luck over time).
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Mapping, Sequence

from application.analytics import play, rolls as roll_figures

KEEPER_VIEW, PLAYER_VIEW = "keeper", "player"
NOTES = (
    "Luck counts every roll made, undone ones too (they were rolled; each is marked and counted in 'undone'); "
    "game counts and the clock leave undone actions out.",
    "Rolls whose exact odds are unknown, or that have no success to them (a damage total), count in rolls made "
    "and in dice fairness, not in expected successes, levels of success or the luck score ('rolls_without_odds').",
    "p_this_well_or_worse is the exact Poisson-binomial probability, over the rolls' own odds, of as many "
    "successes as observed or fewer; a fairness test is 'suspect' when its p-value is below 0.001.",
)
PLAYER_NOTE = ("The Keeper's rolls are private: they are left out of every figure in a player's report, and so are the "
               "game counts and turns of the Keeper's participants (those no player token acts for).")


def build(scope: Mapping[str, Any], facts: Sequence[dict[str, Any]], people: Mapping[str, Mapping[str, Any]],
          viewer: str = KEEPER_VIEW, series: bool = False) -> dict[str, Any]:
    """The report. ``people``: participant id -> {"name", "chase_id", "player" (the label of the
    player token acting for them, None: the Keeper's)}; ``series``: add luck over time per
    participant (observed minus expected successes after each roll), for charts."""
    def keepers(f: dict[str, Any]) -> bool:
        return f["kind"] == "roll" and (people.get(f["participant_id"] or "") or {}).get("player") is None

    # In the order they happened, across chases (streaks, the clock and luck over time read it so).
    shown = sorted((f for f in facts if not (viewer == PLAYER_VIEW and keepers(f))), key=lambda f: (f["at"], f["chase_id"], f["version"], f["index"]))
    made = [f for f in shown if f["kind"] == "roll"]
    # One pass: a tally per participant and dice source, merged below into every group.
    tallies: dict[tuple[str, str], roll_figures.Tally] = defaultdict(roll_figures.Tally)
    in_order: list[tuple[str, bool]] = []  # (participant, success) in the order rolled, for streaks
    for r in made:
        pid = r["participant_id"] or ""
        tallies[(pid, roll_figures.dice_source(r))].add(r)
        if r["data"]["success"] is not None:
            in_order.append((pid, r["data"]["success"]))

    def merged(pids: set[str]) -> roll_figures.Tally:
        return roll_figures.Tally().merge(*(t for (pid, _), t in tallies.items() if pid in pids))

    own: dict[str, list[bool]] = defaultdict(list)  # each participant's successes in order, for streaks
    for pid, success in in_order:
        own[pid].append(success)

    def figures(pids: set[str]) -> dict[str, Any]:
        if len(pids) == 1:
            return merged(pids).figures(own[next(iter(pids))])
        return merged(pids).figures(success for pid, success in in_order if pid in pids)

    everyone = {pid for pid, _ in tallies}
    players: dict[str, set[str]] = defaultdict(set)
    for pid in everyone:
        player = (people.get(pid) or {}).get("player")
        if player:
            players[player].add(pid)
    sources = {source for _, source in tallies}
    report: dict[str, Any] = {
        "scope": dict(scope),
        "viewer": viewer,
        "notes": list(NOTES) + ([PLAYER_NOTE] if viewer == PLAYER_VIEW else []),
        "totals": figures(everyone),
        "by_player": {label: figures(pids) for label, pids in sorted(players.items())},
        "by_participant": {
            pid: {"name": _name(people, pid), "player": (people.get(pid) or {}).get("player"), **figures({pid})}
            for pid in everyone if pid
        },
        "fairness": roll_figures.fairness(made, {s: roll_figures.Tally().merge(*(t for (_, src), t in tallies.items() if src == s)) for s in sources}),
        "game": play.game(shown, people),
        "time": play.clock(shown),
    }
    if viewer == PLAYER_VIEW:  # the Keeper's participants are as private as their rolls
        def players_own(pid: str) -> bool:
            return (people.get(pid) or {}).get("player") is not None
        report["game"]["by_participant"] = {pid: c for pid, c in report["game"]["by_participant"].items() if players_own(pid)}
        report["time"]["turns"] = {pid: t for pid, t in report["time"]["turns"].items() if players_own(pid)}
    if viewer == KEEPER_VIEW:
        report["keeper"] = figures({pid for pid in everyone if not pid or (people.get(pid) or {}).get("player") is None})
    if series:
        mine: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in made:
            mine[_name(people, r["participant_id"]) if r["participant_id"] else "the Keeper"].append(r)
        report["luck_over_time"] = {name: roll_figures.luck_series(rs) for name, rs in mine.items()}
    return report


def _name(people: Mapping[str, Mapping[str, Any]], pid: str | None) -> str:
    return str((people.get(pid or "") or {}).get("name") or pid)
