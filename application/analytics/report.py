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
    "Rolls whose exact odds are unknown count in rolls made and in dice fairness, not in expected successes, "
    "levels of success or the luck score ('rolls_without_odds').",
    "p_this_well_or_worse is the exact Poisson-binomial probability, over the rolls' own odds, of as many "
    "successes as observed or fewer; a fairness test is 'suspect' when its p-value is below 0.001.",
)
PLAYER_NOTE = "The Keeper's rolls are private: they are left out of every figure in a player's report."


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
    by_participant: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_player: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in made:
        if r["participant_id"]:
            by_participant[r["participant_id"]].append(r)
        player = (people.get(r["participant_id"] or "") or {}).get("player")
        if player:
            by_player[player].append(r)
    report: dict[str, Any] = {
        "scope": dict(scope),
        "viewer": viewer,
        "notes": list(NOTES) + ([PLAYER_NOTE] if viewer == PLAYER_VIEW else []),
        "totals": roll_figures.roll_stats(made),
        "by_player": {label: roll_figures.roll_stats(rs) for label, rs in sorted(by_player.items())},
        "by_participant": {
            pid: {"name": _name(people, pid), "player": (people.get(pid) or {}).get("player"), **roll_figures.roll_stats(rs)}
            for pid, rs in by_participant.items()
        },
        "fairness": roll_figures.fairness(made),
        "game": play.game(shown),
        "time": play.clock(shown),
    }
    if viewer == KEEPER_VIEW:
        report["keeper"] = roll_figures.roll_stats([r for r in made if keepers(r)])
    if series:
        mine: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in made:
            mine[_name(people, r["participant_id"]) if r["participant_id"] else "the Keeper"].append(r)
        report["luck_over_time"] = {name: roll_figures.luck_series(rs) for name, rs in mine.items()}
    return report


def _name(people: Mapping[str, Mapping[str, Any]], pid: str | None) -> str:
    return str((people.get(pid or "") or {}).get("name") or pid)
