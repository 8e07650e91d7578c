"""The game and its clock from analytics facts: what each participant's actions counted (movement,
locations, hazards, damage, Build, raises, aces, cards), how chases ended, undo and rewind, undo
requests made and granted (who asked), and rounds and turns with how long each took."""
from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any, Mapping, Sequence

from application.analytics.facts import CLOCK, ROUND_BEGAN, ROUND_ENDED, TURN_BEGAN, TURN_ENDED


def game(facts: Sequence[dict[str, Any]], people: Mapping[str, Mapping[str, Any]] = {}) -> dict[str, Any]:
    """Counts that still count (undone actions left out), by participant and for the chases; a
    chase won or lost by each participant whose role won it or not (``people``: id -> chase_id, role)."""
    rollers = {(f["chase_id"], f["data"]["sequence"]): f["participant_id"] for f in facts if f["kind"] == "roll"}
    by_participant: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    chases: dict[str, float] = defaultdict(float)
    outcomes: dict[str, int] = defaultdict(int)
    latest: dict[tuple[str, int, str], str | None] = {}  # (chase, action, event name) -> who made its latest roll
    for f in facts:
        data = f["data"]
        if f["kind"] == "roll":
            latest[(f["chase_id"], f["action"], data["event"])] = f["participant_id"]
        if f["undone"]:
            continue
        if f["kind"] == "count" and data["name"] not in CLOCK:
            if f["participant_id"]:
                by_participant[f["participant_id"]][data["name"]] += data["amount"]
            else:
                chases[data["name"]] += data["amount"]
            credited = rollers.get((f["chase_id"], data.get("by_roll")))
            if data.get("by_event"):
                credited = latest.get((f["chase_id"], f["action"], data["by_event"]))
            if credited:
                by_participant[credited][data["name"]] += data["amount"]
        elif f["kind"] == "ended":
            outcomes[data["outcome"]] += 1
            for pid, who in people.items():
                if data.get("won_by") and who.get("chase_id") == f["chase_id"] and who.get("role"):
                    by_participant[pid]["chases won" if who["role"] == data["won_by"] else "chases lost"] += 1
    return {"by_participant": {pid: dict(c) for pid, c in by_participant.items()}, "chase": dict(chases),
            "chases_ended": dict(outcomes), **record(facts)}


def record(facts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Undo, rewind and redo counts; undo requests made and granted, by who asked."""
    kinds = defaultdict(int)
    asked: dict[tuple[str, int], str] = {}
    requests: dict[str, dict[str, int]] = defaultdict(lambda: {"made": 0, "granted": 0, "refused": 0})
    for f in facts:
        kinds[f["kind"]] += 1
        if f["kind"] == "undo requested":
            asked[(f["chase_id"], f["data"]["request_id"])] = f["data"]["by"]
            requests[f["data"]["by"]]["made"] += 1
        elif f["kind"] == "undo answered":
            by = asked.get((f["chase_id"], f["data"]["request_id"]), "unknown")
            requests[by]["granted" if f["data"]["accepted"] else "refused"] += 1
    return {"undos": kinds["undo"], "rewinds": kinds["rewind"], "redos": kinds["redo"],
            "undo_requests": {by: dict(r) for by, r in requests.items()}}


def clock(facts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Rounds played and how long each round and each turn took, from the events' timestamps: a
    round from its beginning to its end (or the next round, or the chase's end); a turn from the
    last mark of the clock before it (the round's beginning, the turn's own beginning or the
    previous turn's end) to its end. Undone rounds and turns are left out."""
    rounds: list[dict[str, Any]] = []
    turns: dict[str, list[float]] = defaultdict(list)
    last_mark: dict[str, datetime] = {}
    for f in facts:
        if f["undone"] or not (f["kind"] == "ended" or (f["kind"] == "count" and f["data"]["name"] in CLOCK)):
            continue
        chase, at, name = f["chase_id"], datetime.fromisoformat(f["at"]), f["data"].get("name")
        open_round = next((r for r in reversed(rounds) if r["chase_id"] == chase and r["seconds"] is None), None)
        if open_round and name in (ROUND_ENDED, ROUND_BEGAN, None):  # None: the chase ended
            open_round["seconds"] = (at - open_round["began"]).total_seconds()
        if name == ROUND_BEGAN:
            rounds.append({"chase_id": chase, "round": int(f["data"]["amount"]), "began": at, "seconds": None})
        if name == TURN_ENDED and chase in last_mark:
            turns[f["participant_id"]].append((at - last_mark[chase]).total_seconds())
        last_mark[chase] = at
    took = [r["seconds"] for r in rounds if r["seconds"] is not None]
    return {
        "rounds": len(rounds),
        "round_seconds": [{"chase_id": r["chase_id"], "round": r["round"], "seconds": r["seconds"]} for r in rounds],
        "mean_round_seconds": sum(took) / len(took) if took else None,
        "turns": {pid: {"turns": len(t), "mean_seconds": sum(t) / len(t), "longest_seconds": max(t), "seconds": t}
                  for pid, t in turns.items()},
    }
