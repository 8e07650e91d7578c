"""The events of a D6 race or chase, each with a stable TOPIC "d6:Chase.<Name>".

Applying one is deterministic: every number it sets (a distance, a rate, who is caught) was worked
out, and every die rolled, by the command that triggered it (DESIGN.md section 3).
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase
from domain.rules.d6.participants import participant_from

Event = RecordedChase.Event


class ParticipantAdded(Event):
    TOPIC = "d6:Chase.ParticipantAdded"
    participant: dict

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant["id"]] = participant_from(self.participant)

    def participants_changed(self) -> tuple[str, ...]:
        """The participants whose state applying this changes (application/participant_steps.py)."""
        return (self.participant["id"],)

    def chase_fields_changed(self) -> tuple[str, ...]:
        """The chase's own fields applying this changes (application/chase_digest.py)."""
        return ()


class ChaseBegan(Event):
    """Set-up is over: the course (finish, terrain by stretch) and the GM's optional rules."""

    TOPIC = "d6:Chase.ChaseBegan"
    settings: dict
    course: dict

    def apply(self, chase: Any) -> None:
        chase.phase = "running"
        chase.settings = dict(self.settings)
        chase.course = {"finish": self.course["finish"], "terrain": [dict(s) for s in self.course["terrain"]]}
        for p in chase.participants.values():
            p.status = "in_chase"


class RoundBegan(Event):
    TOPIC = "d6:Chase.RoundBegan"
    round: int

    def apply(self, chase: Any) -> None:
        chase.round = self.round
        chase.round_over = False
        for p in chase.participants.values():
            p.this_round = {"moved": [], "fast": False, "tripped": False}


class Moved(Event):
    """One movement action (or a free short move): the rate asked, its difficulty, the roll, and
    where it left the participant and at what rate."""

    TOPIC = "d6:Chase.Moved"
    participant_id: str
    movement: str
    rate: float  # the rate declared (metres this round, or the leap's distance)
    difficulty: int | None  # None for a free short move
    difficulty_parts: dict
    roll: dict | None
    outcome: str  # moved | covered only the base rate | fell short | slowed | stopped | tripped | free
    distance: float  # metres covered
    position: float  # where it left the participant
    new_rate: float | None  # the movement type's rate from now (None for a leap)
    fast: bool  # fast movement for fatigue: a rate beyond one movement
    explanation: str

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        if self.roll:
            chase.rolls_made = self.roll["sequence"]
        p.position = self.position
        p.this_round["moved"].append(self.movement)
        if self.new_rate is not None:
            p.rates[self.movement] = self.new_rate
        if self.fast and not p.this_round["fast"]:
            p.this_round["fast"] = True
            p.fast_rounds += 1
        if self.outcome == "tripped":
            p.this_round["tripped"] = True
        if self.movement == "running" and self.roll and self.roll["success"]:
            p.running_beaten.append(chase.round)


class FatigueRolled(Event):
    """A stamina or willpower roll against 5 plus the fatigue modifier; beaten, the modifier is gone."""

    TOPIC = "d6:Chase.FatigueRolled"
    participant_id: str
    roll: dict
    overcome: bool
    fast_rounds: int  # the rounds of fast movement counted from now

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]
        chase.participants[self.participant_id].fast_rounds = self.fast_rounds


class FatigueLimitSet(Event):
    """The GM set or changed a participant's fatigue limit (None: fatigue not tracked)."""

    TOPIC = "d6:Chase.FatigueLimitSet"
    participant_id: str
    fatigue_limit: int | None

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].fatigue_limit = self.fatigue_limit

    def participants_changed(self) -> tuple[str, ...]:
        return (self.participant_id,)

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()


class SkillRolled(Event):
    """Any other roll the GM calls for ("Other Movement Options": an additional related skill roll)."""

    TOPIC = "d6:Chase.SkillRolled"
    participant_id: str | None
    roll: dict

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]

    def participants_changed(self) -> tuple[str, ...]:
        return ()

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()


class RoundEnded(Event):
    """The round is over: who was caught (and by whom), escaped or finished; fatigue and rates
    of those who did not keep moving go back to rest."""

    ENDS_TURN = True  # D6 has no turns: everyone's round is their turn (the view's turn.ended_by_last_command)

    TOPIC = "d6:Chase.RoundEnded"
    round: int
    caught: list  # [{"participant_id", "by"}]
    escaped: list
    finished: list

    def apply(self, chase: Any) -> None:
        for entry in self.caught:
            p = chase.participants[entry["participant_id"]]
            p.status, p.caught_by = "caught", entry["by"]
        for pid in self.escaped:
            chase.participants[pid].status = "escaped"
        for pid in self.finished:
            p = chase.participants[pid]
            p.status, p.finished_round = "finished", self.round
        for p in chase.participants.values():
            moved = p.this_round.get("moved", [])
            if not p.this_round.get("fast"):
                p.fast_rounds = 0  # a round without fast movement: the run is over
            p.rates = {movement: rate for movement, rate in p.rates.items() if movement in moved}
        chase.round_over = True
