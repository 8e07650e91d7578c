"""Events of damage, Build, lost movement actions and conflict in a Call of Cthulhu chase (issue 3).

coc7e-chases.txt part 4 and the notes under the "Vehicle Reference Charts"; see
obstacle_events.py for how these events are made (stable topics, deterministic apply, JSON
payloads).
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase

Event = RecordedChase.Event


# -- Damage, Build and movement actions ------------------------------------------------------------


class DamageTaken(Event):
    """Hit points of damage to a character or creature, after armor."""

    TOPIC = "coc7e:Chase.DamageTaken"
    participant_id: str
    rolled: int
    armor: int
    taken: int
    cause: str
    roll_sequence: int | None

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].damage += self.taken


class BuildLost(Event):
    """Whole points of a vehicle's Build lost in one incident, and its condition after."""

    TOPIC = "coc7e:Chase.BuildLost"
    vehicle_id: str
    cause: str
    hit_points: int | None
    build_lost: int
    build_before: Any  # int, or 0.5 for a bicycle
    build_after: Any
    condition_before: str
    condition_after: str
    limited: bool
    roll_sequence: int | None

    def apply(self, chase: Any) -> None:
        v = chase.participants[self.vehicle_id]
        v.build = self.build_after
        v.build_lost += self.build_lost
        v.condition = self.condition_after
        chase.build_losses.setdefault(self.vehicle_id, []).append(
            {
                "version": self.originator_version,
                "round": chase.round,
                "cause": self.cause,
                "hit_points": self.hit_points,
                "build_lost": self.build_lost,
                "build_before": self.build_before,
                "build_after": self.build_after,
                "condition_after": self.condition_after,
                "limited": self.limited,
                "roll_sequence": self.roll_sequence,
            }
        )


class MovementActionsLost(Event):
    """1D3 movement actions lost: paid from those left this round, the rest owed."""

    TOPIC = "coc7e:Chase.MovementActionsLost"
    participant_id: str
    cause: str
    lost: int
    paid_now: int
    movement_actions_left: int
    owed: int
    roll_sequence: int | None

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.movement_actions = self.movement_actions_left
        p.owed = self.owed


class VehicleOutOfAction(Event):
    """A vehicle wrecked or undrivable: it and those aboard leave the chase."""

    TOPIC = "coc7e:Chase.VehicleOutOfAction"
    vehicle_id: str
    condition: str  # "wrecked" | "undrivable"
    cause: str
    occupants: list
    fates: dict  # occupant id: "thrown free" | "killed" (wrecked only)
    accident: bool  # undrivable: the Keeper ruled that grinding to a halt was an accident

    def apply(self, chase: Any) -> None:
        out = {self.vehicle_id, *self.occupants}
        for pid in out:
            chase.participants[pid].status = "out"
            chase.mishaps.pop(pid, None)  # nothing left to rule on: out of action
        for pid, fate in self.fates.items():
            chase.participants[pid].fate = fate
        done = chase.turn_order[: chase.turn_index + 1]
        chase.turn_order = done + [pid for pid in chase.turn_order[chase.turn_index + 1 :] if pid not in out]


class ParticipantDisplaced(Event):
    """The Keeper placed a participant elsewhere, e.g. thrown over a fence by a maneuver."""

    TOPIC = "coc7e:Chase.ParticipantDisplaced"
    participant_id: str
    from_location: int
    to_location: int
    reason: str

    def apply(self, chase: Any) -> None:
        chase.track.place(self.participant_id, self.to_location)


# -- Conflict --------------------------------------------------------------------------------------


class AttackMade(Event):
    """An attack or fighting maneuver and the target's response, read (part 4, "Conflict")."""

    TOPIC = "coc7e:Chase.AttackMade"
    attacker_id: str
    target_id: str
    method: str  # "fighting" | "firearm" | "maneuver"
    response: str
    attack_skill: str
    defence_skill: str | None
    attack_roll: int
    defence_roll: int | None
    winner: str | None
    target_hit: bool
    attacker_hit: bool
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        attacker = chase.participants[self.attacker_id]
        attacker.movement_actions = self.movement_actions_left
        attacker.attacks_made += 1


EVENTS = (
    DamageTaken,
    BuildLost,
    MovementActionsLost,
    VehicleOutOfAction,
    ParticipantDisplaced,
    AttackMade,
)
