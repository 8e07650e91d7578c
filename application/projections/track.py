"""The track view: locations in order and who stands where, the round and the turn order."""
from __future__ import annotations

import copy
from typing import Any, Callable

from domain.rules.coc7e.chase import Chase


def _participant(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": p["id"],
        "name": p["name"],
        "kind": p["kind"],
        "role": p["role"],
        "status": p["status"],
        "mov": p["mov"],
        "speed_mov": p["speed_mov"],
        "dex": p["dex"],
        "build": p["build"],
        "hp": p["hp"],
        "vehicle_id": p["vehicle"],
        "seat": p["seat"],
        "location": None,
        "movement_actions": 0,
        "owed": 0,
        "acted": False,
    }


def _created(view: dict, e: Any) -> None:
    view.update(
        chase_id=str(e.originator_id),
        name=e.name,
        system="coc7e",
        dice=e.dice,
        seed_commitment=e.seed_commitment,
        phase="setup",
        outcome=None,
        round=0,
        turn_order=[],
        whose_turn=None,
        locations=[],
        participants={},
        caught_up=[],
        created_at=e.timestamp.isoformat(),
    )


def _added(view: dict, e: Any) -> None:
    view["participants"][e.participant["id"]] = _participant(e.participant)


def _speed(view: dict, e: Any) -> None:
    view["participants"][e.participant_id]["speed_mov"] = e.mov_after


def _established(view: dict, e: Any) -> None:
    view["phase"] = "running"
    parts = view["participants"]
    for pid, location in e.placements.items():
        parts[pid].update(status="in_chase", location=location)
    for pid in e.escaped:
        parts[pid]["status"] = "escaped"
    for pid in e.left_behind:
        parts[pid]["status"] = "left_behind"
    for p in parts.values():
        if p["vehicle_id"]:
            vehicle = parts[p["vehicle_id"]]
            p.update(status=vehicle["status"], location=vehicle["location"])


def _round_began(view: dict, e: Any) -> None:
    view["round"] = e.round
    view["turn_order"] = list(e.turn_order)
    view["whose_turn"] = e.turn_order[0] if e.turn_order else None
    view["slowest_mov"] = e.slowest_mov
    for pid, actions in e.movement_actions.items():
        view["participants"][pid].update(movement_actions=actions, owed=e.owed.get(pid, 0), acted=False)


def _delayed(view: dict, e: Any) -> None:
    view["turn_order"] = list(e.turn_order)
    view["whose_turn"] = next(
        (pid for pid in e.turn_order if not view["participants"][pid]["acted"]), None
    )


def _moved(view: dict, e: Any) -> None:
    parts = view["participants"]
    parts[e.participant_id].update(location=e.to_location, movement_actions=e.movement_actions_left)
    for p in parts.values():
        if p["vehicle_id"] == e.participant_id:
            p["location"] = e.to_location


def _caught_up(view: dict, e: Any) -> None:
    view["caught_up"].append(
        {"pursuer_id": e.pursuer_id, "quarry_id": e.quarry_id, "location": e.location, "round": view["round"]}
    )


def _turn_ended(view: dict, e: Any) -> None:
    view["participants"][e.participant_id].update(movement_actions=0, acted=True)
    view["whose_turn"] = next(
        (pid for pid in view["turn_order"] if not view["participants"][pid]["acted"]), None
    )


def _ended(view: dict, e: Any) -> None:
    view.update(phase="ended", outcome=e.outcome, whose_turn=None, end_note=e.note)


HANDLERS: dict[type, Callable[[dict, Any], None]] = {
    Chase.Created: _created,
    Chase.ParticipantAdded: _added,
    Chase.SpeedRolled: _speed,
    Chase.ChaseEstablished: _established,
    Chase.RoundBegan: _round_began,
    Chase.TurnDelayed: _delayed,
    Chase.Moved: _moved,
    Chase.CaughtUp: _caught_up,
    Chase.TurnEnded: _turn_ended,
    Chase.ChaseEnded: _ended,
}


def project(view: dict[str, Any] | None, event: Any) -> dict[str, Any]:
    """The track view after ``event``; a new dict, the given one is left as it was."""
    return apply(copy.deepcopy(view) if view else {}, event)


def apply(view: dict[str, Any], event: Any) -> dict[str, Any]:
    """Bring ``view`` up to ``event`` in place and return it."""
    handler = HANDLERS.get(type(event))
    if handler:
        handler(view, event)
    view["version"] = event.originator_version
    view["locations"] = _locations(view)
    return view


def _locations(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Every location from the back of the chase to one beyond the leader, with who is there."""
    placed = [p for p in view.get("participants", {}).values() if p["location"] is not None and p["status"] == "in_chase"]
    if not placed:
        return []
    last = max(p["location"] for p in placed) + 1
    rows = [{"index": i, "participants": []} for i in range(last + 1)]
    for p in sorted(placed, key=lambda p: p["name"]):
        if not p["vehicle_id"]:
            rows[p["location"]]["participants"].append(p["id"])
    return rows
