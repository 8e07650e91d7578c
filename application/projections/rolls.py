"""The roll history: one row per roll, with its context and its dice."""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e.chase import Chase

ROLL_EVENTS = (Chase.SpeedRolled, Chase.SkillRolled, Chase.DiceRolled)


def roll_row(event: Any) -> dict[str, Any] | None:
    """The roll history row an event adds, if it records a roll."""
    if not isinstance(event, ROLL_EVENTS):
        return None
    roll = dict(event.roll)
    return {
        "chase_id": str(event.originator_id),
        "sequence": roll["sequence"],
        "version": event.originator_version,
        "event": type(event).__name__,
        "participant_id": event.participant_id,
        "purpose": roll.get("purpose"),
        "round": roll.get("round", 0),
        "source": roll["source"]["kind"],
        "undone": False,
        "recorded_at": event.timestamp.isoformat(),
        "roll": roll,
    }
