"""The track view: locations in order and who stands where, the round and the turn order.

The projection folds a chase's events into the chase's state with the events' own (pure,
deterministic) apply, then renders the view from that state. An undo, rewind or redo event
carries the state it restores, so the view follows them without reading anything else.
"""
from __future__ import annotations

from typing import Any


def render(chase: Any) -> dict[str, Any]:
    """The track view of a Call of Cthulhu chase's state."""
    acted = set(chase.turn_order[: chase.turn_index]) if chase.phase == "running" else set()
    participants = {pid: _participant(chase, p, pid in acted) for pid, p in chase.participants.items()}
    return {
        "chase_id": str(chase.id),
        "name": chase.name,
        "system": "coc7e",
        "dice": chase.dice,
        "phase": chase.phase,
        "outcome": chase.outcome,
        "end_note": chase.end_note,
        "version": chase.version,
        "chain_head": chase.chain_head,
        "round": chase.round,
        "turn_order": list(chase.turn_order),
        "whose_turn": chase.whose_turn,
        "slowest_mov": chase.slowest_mov,
        "locations": _locations(participants),
        "participants": participants,
        "caught_up": list(chase.caught_up),
        "seed_commitment": chase.seed_commitment,
        "seed_epoch": chase.seed_epoch,
        "revealed_seeds": list(chase.revealed_seeds),
        "entropy": chase.entropy,
        "rolls_made": chase.rolls_made,
        "actions": len(chase.effective_actions),
        "can_redo": bool(chase.redo_stack),
        "undo_requests": [
            {"request_id": int(rid), **req} for rid, req in chase.undo_requests.items() if req["answer"] is None
        ],
        "created_at": chase.created_on.isoformat(),
    }


def _participant(chase: Any, p: Any, acted: bool) -> dict[str, Any]:
    carrier = p.vehicle or p.id
    return {
        "id": p.id,
        "name": p.name,
        "kind": p.kind,
        "role": p.role,
        "status": p.status,
        "mov": p.mov,
        "speed_mov": p.speed_mov,
        "dex": p.dex,
        "build": p.build,
        "hp": p.hp,
        "vehicle_id": p.vehicle,
        "seat": p.seat,
        "location": chase.track.location_of(carrier) if p.status == "in_chase" else None,
        "movement_actions": p.movement_actions,
        "owed": p.owed,
        "acted": acted,
    }


def _locations(participants: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every location from the back of the chase to one beyond the leader, with who is there.

    Locations behind the rearmost participant are left out: a long chase would otherwise
    carry every location it ever passed. ``index`` stays the location's place on the track.
    """
    placed = [p for p in participants.values() if p["location"] is not None]
    if not placed:
        return []
    first = min(p["location"] for p in placed)
    rows = [{"index": i, "participants": []} for i in range(first, max(p["location"] for p in placed) + 2)]
    for p in sorted(placed, key=lambda p: p["name"]):
        if not p["vehicle_id"]:
            rows[p["location"] - first]["participants"].append(p["id"])
    return rows
