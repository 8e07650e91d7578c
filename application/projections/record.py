"""What every chase's track view shows of its record, whatever the game system."""
from __future__ import annotations

from typing import Any


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
        "created_at": chase.created_on.isoformat(),
    }
