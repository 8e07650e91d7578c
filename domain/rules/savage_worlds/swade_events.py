"""Events of the Adventure Edition chase only (base classes; swade_aggregate.py gives their topics).

swade-chases-reference.txt: the row of Chase Cards ("SETUP"), positions and moves ("MANEUVERS",
"BUMP"), Out of Control and Vehicle Critical Hits.
"""
from __future__ import annotations

from typing import Any

from domain.rules.savage_worlds.savage_events import Event
from domain.rules.savage_worlds.swade_vehicles import VehicleState


class ChaseCardDealt(Event):
    """A Chase Card dealt from the extra deck to the front or the rear of the row."""

    card: str
    position: int
    shuffle_sequence: int | None
    source: dict
    end: str  # "front" | "rear"

    def apply(self, chase: Any) -> None:
        chase.decks["chase"]["dealt"].append(self.card)
        if self.end == "front":
            chase.row.append(self.card)
            return
        chase.row.insert(0, self.card)
        for pid in list(chase.track.positions):  # a card before the first: every index moves up one
            chase.track.place(pid, chase.track.positions[pid] + 1)


class ParticipantPlaced(Event):
    participant_id: str
    position: int

    def apply(self, chase: Any) -> None:
        chase.track.place(self.participant_id, self.position)


class ManeuverTaken(Event):
    """A maneuver used this turn (its roll, if any, is the TraitRolled before it)."""

    participant_id: str
    maneuver: str
    details: dict

    def apply(self, chase: Any) -> None:
        if self.maneuver == "Change Position":
            chase.turn["changed_position"] = True
        elif self.maneuver == "Dropping Back":
            chase.turn["dropped_back"] = True
        elif self.maneuver == "Evade":
            chase.evading[self.participant_id] = self.details["penalty"]
            chase.evaded_round[self.participant_id] = chase.round
        elif self.maneuver == "Hold Steady":
            chase.holding_steady.append(self.participant_id)


class Moved(Event):
    """A unit moved along the row: Change Position, Dropping Back, or a Bump (``by`` whom)."""

    participant_id: str
    from_position: int
    to_position: int
    maneuver: str
    by: str | None

    def apply(self, chase: Any) -> None:
        chase.track.place(self.participant_id, self.to_position)
        if self.maneuver == "Bump" and self.by is not None and chase.turn:
            chase.turn["bumped"].append([self.by, self.participant_id])


class TurnLost(Event):
    """A critical failure costs the unit its next turn."""

    participant_id: str
    reason: str

    def apply(self, chase: Any) -> None:
        chase.lose_turn.append(self.participant_id)


class MountFatigued(Event):
    participant_id: str
    mount_fatigue: int

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].mount_fatigue = self.mount_fatigue


class WentOutOfControl(Event):
    """The Out of Control row rolled for a vehicle (its effects are the events after it)."""

    participant_id: str
    total: int
    result: dict

    def apply(self, chase: Any) -> None:
        chase.vehicle_log.setdefault(self.participant_id, []).append(
            {"event": "out of control", "round": chase.round, "total": self.total, **self.result}
        )


class CriticalHitTaken(Event):
    participant_id: str
    total: int
    result: dict
    vehicle: dict
    weapons: int

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.vehicle = VehicleState(**self.vehicle)
        p.weapons = self.weapons
        chase.vehicle_log.setdefault(self.participant_id, []).append(
            {"event": "critical hit", "round": chase.round, "total": self.total, **self.result}
        )


class Rammed(Event):
    """A Ram succeeded: the damage each side causes the other (rolled as follow-ups)."""

    participant_id: str
    target_id: str
    with_raise: bool
    damage: dict


class WentOnHold(Event):
    """A unit Holds its Action Card (hold.py, "Hold"; ambushers start so, "Surprise")."""

    participant_id: str
    reason: str

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].on_hold = True


class CameOffHold(Event):
    """A unit on Hold takes its turn during another unit's (``during``): before it (``first``),
    whose turn is then suspended, or right after it (an interrupt the foe won)."""

    participant_id: str
    during: str
    first: bool
    interrupt: bool

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].on_hold = False
        order = list(chase.turn_order)
        if self.first:
            chase.suspended_turns = {**chase.suspended_turns, self.during: dict(chase.turn)}
            chase.turn = {}
            order.insert(chase.turn_index, self.participant_id)
        else:
            order.insert(chase.turn_index + 1, self.participant_id)
        chase.turn_order = order


class TurnResumed(Event):
    """A turn suspended by a unit coming off Hold before it goes on where it stopped."""

    participant_id: str

    def apply(self, chase: Any) -> None:
        suspended = dict(chase.suspended_turns)
        chase.turn = suspended.pop(self.participant_id)
        chase.suspended_turns = suspended
