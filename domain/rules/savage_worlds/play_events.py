"""Events of issue 17 both Savage Worlds chases record, as base classes without a topic (as
savage_events.py): actions counted (multi_actions.py), bennies given and spent, damage soaked and
a turn order changed by a new Action Card (bennies.py).
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase

Event = RecordedChase.Event


def last_roll_of(roll: dict) -> dict:
    """What a benny's reroll needs of a trait roll: how it was rolled and how it came out, and
    the roll that counts, the better of it and those it rerolled ("best_before"): the higher
    total, the earlier on a tie (bennies.py)."""
    keys = ("sequence", "purpose", "benny", "trait_die", "modifiers", "target_number", "total", "success", "raises", "critical_failure")
    out = {k: roll.get(k) for k in keys} | {"extra": {k: roll[k] for k in ("target", "unit", "action_card") if k in roll}}
    if roll.get("kind") == "rate of fire roll":  # rolled again as it was (rate_of_fire.py)
        out["rate_of_fire"] = roll["rate_of_fire"]
    mine = {k: roll.get(k) for k in ("sequence", "total", "success", "raises")}
    before = roll.get("best_before")
    return out | {"best": dict(before) if before and before["total"] >= mine["total"] else mine}


class InjuryTaken(Event):
    """A roll on the Injury table for an Incapacitated character (injuries.py), kept in their log."""

    participant_id: str
    injury: dict

    def apply(self, chase: Any) -> None:
        chase.vehicle_log.setdefault(self.participant_id, []).append({"event": "injury", "round": chase.round, **self.injury})


class TurnOrderChanged(Event):
    """The order of those still to act, after a new Action Card (a benny): who has acted keeps
    their place."""

    turn_order: list

    def apply(self, chase: Any) -> None:
        chase.turn_order = list(self.turn_order)


class BenniesChanged(Event):
    """A participant's bennies: given by the GM, or one spent (and on what)."""

    participant_id: str
    bennies: int
    change: int
    reason: str

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].bennies = self.bennies


class DamageSoaked(Event):
    """A benny spent to soak: the Wounds the last damage caused, fewer by the soak roll's success
    and raises; soaking them all also takes back the Shaken it caused (core rules, "Soak Rolls")."""

    participant_id: str
    soaked: int
    wounds: int
    shaken: bool
    status: str

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.wounds = self.wounds
        p.last_damage = None
        if not self.shaken:
            p.conditions = p.conditions.recovered()
        if self.status != p.status:
            chase.set_status(self.participant_id, self.status)


class ActionTaken(Event):
    """A character takes an action on their unit's turn: its number this turn and how many they
    declared (multi_actions.py, "Multi-Actions")."""

    participant_id: str
    what: str  # the action ("action" names the undo group of every event: recorded_chase.py)
    number: int
    declared: int

    def apply(self, chase: Any) -> None:
        counts = dict(chase.turn.get("actions", {}))
        counts[self.participant_id] = {"taken": self.number, "declared": self.declared}
        chase.turn = {**chase.turn, "actions": counts}
