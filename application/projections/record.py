"""What every chase's track view shows of the chase and its record, whatever the game system:
the one renderer of the shared fields (each system's track view adds its own)."""
from __future__ import annotations

from typing import Any

from domain.json_encoding import id_text, isoformat


def record_fields(chase: Any) -> dict[str, Any]:
    """The chase (id, name, system, dice, phase and outcome, version and chain head, round and
    turn) and its record (record_state)."""
    return {
        "chase_id": id_text(chase.id),
        "name": chase.name,
        "system": chase.SYSTEM,
        "dice": chase.dice,
        "phase": chase.phase,
        "outcome": chase.outcome,
        "end_note": chase.end_note,
        "version": chase.version,
        "chain_head": chase.chain_head,
        "round": chase.round,
        "turn_order": list(chase.turn_order),
        "whose_turn": chase.whose_turn,
        **record_state(chase),
    }


def record_state(chase: Any) -> dict[str, Any]:
    """The seed, entropy, roll count, undo state and pending undo requests (domain/recorded_chase.py)."""
    return {
        "seed_commitment": chase.seed_commitment,
        "seed_epoch": chase.seed_epoch,
        "revealed_seeds": list(chase.revealed_seeds),
        "entropy": chase.entropy,
        "rolls_made": chase.rolls_made,
        "actions": len(chase.effective_actions),
        "can_redo": bool(chase.redo_stack),
        "undo_requests": [{"request_id": int(rid), **req} for rid, req in chase.undo_requests.items() if req["answer"] is None],
        "created_at": isoformat(chase.created_on),
    }
