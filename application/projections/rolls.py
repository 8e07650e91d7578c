"""The roll history: one row per roll, with its context, its dice and whether it still counts."""
from __future__ import annotations

from typing import Any

from domain.json_encoding import id_text, isoformat
from domain.odds import RollOdds
from domain.recorded_chase import RecordedChase

def roll_row(event: Any) -> dict[str, Any] | None:
    """The roll history row an event adds, if it records a roll (a ``roll`` with a sequence)."""
    roll = getattr(event, "roll", None)
    if not isinstance(roll, dict) or "sequence" not in roll:
        return None
    roll = dict(roll)
    return {
        "chase_id": id_text(event.originator_id),
        "sequence": roll["sequence"],
        "version": event.originator_version,
        "action": event.action,
        "event": type(event).__name__,
        "participant_id": getattr(event, "participant_id", None),
        "purpose": roll.get("purpose"),
        "round": roll.get("round", 0),
        "source": roll["source"]["kind"],
        "undone": False,
        "undone_by": None,
        "undone_at": None,
        "recorded_at": isoformat(event.timestamp),
        "roll": roll,
    }


def roll_marks(event: Any) -> list[dict[str, Any]]:
    """Which actions' rolls stop or start counting with an undo, rewind or redo."""
    if not isinstance(event, (RecordedChase.Undone, RecordedChase.Rewound, RecordedChase.Redone)):
        return []  # (most events: asked of every event a command records)
    chase_id, at = str(event.originator_id), isoformat(event.timestamp)
    if isinstance(event, RecordedChase.Undone):
        return [{"chase_id": chase_id, "actions": list(event.actions), "undone": True, "by": event.by, "at": at}]
    if isinstance(event, RecordedChase.Rewound):
        return [
            {"chase_id": chase_id, "actions": list(event.actions), "undone": True, "by": event.by, "at": at},
            {"chase_id": chase_id, "actions": list(event.restored_actions), "undone": False, "by": None, "at": None},
        ]
    if isinstance(event, RecordedChase.Redone):
        return [
            {"chase_id": chase_id, "actions": list(event.actions), "undone": False, "by": None, "at": None},
            {"chase_id": chase_id, "actions": list(event.undone_again), "undone": True, "by": event.by, "at": at},
        ]
    return []


def apply_marks(rows: list[dict[str, Any]], marks: list[dict[str, Any]]) -> None:
    """Mark rows (in memory) as undone or counting again, in the order the marks came."""
    for mark in marks:
        for row in rows:
            if row["chase_id"] == mark["chase_id"] and row["action"] in mark["actions"]:
                row.update(undone=mark["undone"], undone_by=mark["by"], undone_at=mark["at"])


def with_odds(rows: list[dict[str, Any]], odds_of: RollOdds) -> list[dict[str, Any]]:
    """Each row with the odds its roll had (``odds``: each outcome's chance as {p, exact}, the
    chance of success and the outcome it had; None for a roll no system has odds for: a
    shuffle). Worked out from the recorded roll when read, so nothing stored changes and a
    better odds function shows on every roll ever made."""
    shown = []
    for row in rows:
        odds = odds_of(row["roll"])
        shown.append({**row, "odds": None if odds is None else odds.as_json()})
    return shown
