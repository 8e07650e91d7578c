"""Events of setting up and running a Call of Cthulhu chase: parts 1 and 2 of coc7e-chases.txt.

Each event has a stable TOPIC "coc7e:Chase.<Name>"; the Chase aggregate binds them as its own
attributes. Applying one is deterministic: every number it sets was worked out (and every die
rolled) by the command that triggered it.
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e.participants import Participant

Event = RecordedChase.Event


class ParticipantAdded(Event):
    TOPIC = "coc7e:Chase.ParticipantAdded"
    participant: dict

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant["id"]] = Participant(**self.participant)

    def participants_changed(self) -> tuple[str, ...]:
        """The participants whose state applying this changes (application/participant_steps.py)."""
        return (self.participant["id"],)

    def chase_fields_changed(self) -> tuple[str, ...]:
        """The chase's own fields applying this changes (application/chase_digest.py)."""
        return ()


class SpeedRolled(Event):
    TOPIC = "coc7e:Chase.SpeedRolled"
    participant_id: str
    roll: dict
    mov_before: int
    mov_after: int

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]
        chase.participants[self.participant_id].speed_mov = self.mov_after

    def participants_changed(self) -> tuple[str, ...]:
        return (self.participant_id,)

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()


class ChaseEstablished(Event):
    """Cut to the chase: starting locations, escapes and pursuers left behind."""

    TOPIC = "coc7e:Chase.ChaseEstablished"
    opening_range: int
    placements: dict
    escaped: list
    left_behind: list

    def apply(self, chase: Any) -> None:
        chase.phase = "running"
        for pid, location in self.placements.items():
            chase.track.place(pid, location)
            chase.participants[pid].status = "in_chase"
        for pid in self.escaped:
            chase.participants[pid].status = "escaped"
        for pid in self.left_behind:
            chase.participants[pid].status = "left_behind"
        for p in chase.participants.values():
            if p.aboard:  # those aboard share their vehicle's fate: in the chase, escaped or left behind
                p.status = chase.participants[p.vehicle].status


class RoundBegan(Event):
    TOPIC = "coc7e:Chase.RoundBegan"
    round: int
    turn_order: list
    movement_actions: dict
    owed: dict
    slowest_mov: int

    def apply(self, chase: Any) -> None:
        chase.round = self.round
        chase.turn_order = list(self.turn_order)
        chase.turn_index = 0
        chase.waiting_on = {}
        chase.slowest_mov = self.slowest_mov
        for pid, actions in self.movement_actions.items():
            chase.participants[pid].movement_actions = actions
            chase.participants[pid].owed = self.owed.get(pid, 0)
        for p in chase.participants.values():
            p.attacks_made = 0  # "Characters are limited to their usual number of attacks per round"


class TurnDelayed(Event):
    TOPIC = "coc7e:Chase.TurnDelayed"
    participant_id: str
    until_after: str | None
    turn_order: list

    def apply(self, chase: Any) -> None:
        chase.turn_order = list(self.turn_order)
        if self.until_after is not None:
            chase.waiting_on[self.participant_id] = self.until_after


class Moved(Event):
    """Movement actions spent to move forward, one location per movement action."""

    TOPIC = "coc7e:Chase.Moved"
    participant_id: str
    from_location: int
    to_location: int
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        chase.track.place(self.participant_id, self.to_location)
        chase.participants[self.participant_id].movement_actions = self.movement_actions_left


class CaughtUp(Event):
    """A pursuer and a quarry now share a location; conflict may follow."""

    TOPIC = "coc7e:Chase.CaughtUp"
    pursuer_id: str
    quarry_id: str
    location: int

    def apply(self, chase: Any) -> None:
        chase.caught_up.append({"pursuer_id": self.pursuer_id, "quarry_id": self.quarry_id, "location": self.location, "round": chase.round})


class TurnEnded(Event):
    TOPIC = "coc7e:Chase.TurnEnded"
    ENDS_TURN = True  # not a field: the view's turn.ended_by_last_command looks for it
    participant_id: str
    movement_actions_unused: int
    reason: str

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].movement_actions = 0
        chase.turn_index += 1


class RoundEnded(Event):
    TOPIC = "coc7e:Chase.RoundEnded"
    round: int


class SkillRolled(Event):
    """A skill or characteristic roll the Keeper called for."""

    TOPIC = "coc7e:Chase.SkillRolled"
    participant_id: str | None
    roll: dict

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]

    def participants_changed(self) -> tuple[str, ...]:
        return ()

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()


class DiceRolled(Event):
    """A dice expression rolled, such as damage or lost movement actions."""

    TOPIC = "coc7e:Chase.DiceRolled"
    participant_id: str | None
    roll: dict

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]

    def participants_changed(self) -> tuple[str, ...]:
        return ()

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()
