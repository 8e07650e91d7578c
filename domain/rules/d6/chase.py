"""The D6 System race-or-chase aggregate (d6-movement.txt).

Participants stand at positions in metres along a course; each round each declares a movement
rate by type (running, swimming, climbing, flying, leaping) and rolls against its difficulty
(moving.py); the GM ends the round, when pursuers who reached a quarry catch up and those past
the finish escape or finish (rounds.py). The procedures are functions of their own modules, each
typed with a Protocol of what it uses of the chase, bound here as methods.
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase
from domain.rules.d6 import events as ev
from domain.rules.d6 import fatigue, moving, rolls, rounds
from domain.rules.d6.errors import InvalidValue, ParticipantNotFound, RuleBroken, rule
from domain.rules.d6.participants import D6Participant, validate

OUTCOMES = ("caught", "escaped", "finished", "abandoned")
SET_UP = rule("Accelerating and Decelerating", "a race or a chase scene")


class D6Chase(RecordedChase):
    """A D6 System race or chase: positions in metres, rates and difficulties, rounds."""

    TOPIC = "d6:Chase"
    SYSTEM = "d6"

    class Created(RecordedChase.Created):
        TOPIC = "d6:Chase.Created"

    # The record's own events (DESIGN.md 5 and 6), with this system's stable topics.
    class Undone(RecordedChase.Undone):
        TOPIC = "d6:Chase.Undone"

    class Rewound(RecordedChase.Rewound):
        TOPIC = "d6:Chase.Rewound"

    class Redone(RecordedChase.Redone):
        TOPIC = "d6:Chase.Redone"

    class UndoRequested(RecordedChase.UndoRequested):
        TOPIC = "d6:Chase.UndoRequested"

    class UndoRequestAnswered(RecordedChase.UndoRequestAnswered):
        TOPIC = "d6:Chase.UndoRequestAnswered"

    class SeedRevealed(RecordedChase.SeedRevealed):
        TOPIC = "d6:Chase.SeedRevealed"

    class SeedCommitted(RecordedChase.SeedCommitted):
        TOPIC = "d6:Chase.SeedCommitted"

    class EntropyContributed(RecordedChase.EntropyContributed):
        TOPIC = "d6:Chase.EntropyContributed"

    class ChaseEnded(RecordedChase.ChaseEnded):
        TOPIC = "d6:Chase.ChaseEnded"

    Event = RecordedChase.Event

    # The D6 events (events.py).
    ParticipantAdded = ev.ParticipantAdded
    ChaseBegan = ev.ChaseBegan
    RoundBegan = ev.RoundBegan
    Moved = ev.Moved
    FatigueRolled = ev.FatigueRolled
    FatigueLimitSet = ev.FatigueLimitSet
    SkillRolled = ev.SkillRolled
    RoundEnded = ev.RoundEnded

    # The procedures, bound as commands.
    move = moving.move
    fatigue_roll = rolls.fatigue_roll
    set_fatigue_limit = fatigue.set_fatigue_limit
    skill_roll = rolls.skill_roll
    begin = rounds.begin
    end_round = rounds.end_round

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        super().__init__(name, dice, seed_commitment)
        self.participants: dict[str, D6Participant] = {}
        self.settings: dict[str, Any] = {}
        self.course: dict[str, Any] = {"finish": None, "terrain": []}
        self.round = 0
        self.round_over = False

    # -- the shared view fields ----------------------------------------------------------------

    @property
    def turn_order(self) -> list[str]:
        """Everyone still in the chase declares a rate each round, in the order they joined."""
        return [p.id for p in sorted(self.participants.values(), key=lambda p: p.joined) if p.in_chase]

    @property
    def whose_turn(self) -> str | None:
        return None  # rates are declared by all in a round; the GM ends it

    # -- set-up and the end ----------------------------------------------------------------------

    def add_participant(self, participant_id: str, spec: dict[str, Any]) -> None:
        """A pursuer, quarry or racer, at a position on the course."""
        self.check_add_participant()
        if not isinstance(spec, dict):
            raise InvalidValue("participant", "must be an object of participant fields")
        p = validate(spec, participant_id, len(self.participants))
        self.trigger_event(self.ParticipantAdded, participant=p.as_dict())

    def end(self, outcome: str, note: str = "") -> None:
        """The GM's call: the chase ends (caught, escaped, finished or abandoned)."""
        if outcome not in OUTCOMES:
            raise InvalidValue("outcome", f"must be one of {', '.join(OUTCOMES)}")
        self.require_running()
        self.trigger_event(self.ChaseEnded, outcome=outcome, note=note or "")

    def recorded_rolls(self) -> list[dict[str, Any]]:
        """The rolls of the events not yet saved: what the command being run rolled."""
        return [e.roll for e in self._pending_events if isinstance(getattr(e, "roll", None), dict)]

    # -- queries and guards ----------------------------------------------------------------------

    def participant(self, participant_id: str) -> D6Participant:
        try:
            return self.participants[participant_id]
        except (KeyError, TypeError):
            raise ParticipantNotFound(f"no participant {participant_id} in this chase") from None

    def check_add_participant(self) -> None:
        if self.phase != "setup":
            raise RuleBroken("participants join before the chase begins", SET_UP)

    def require_running(self) -> None:
        if self.phase == "ended":
            raise RuleBroken("the chase has ended", SET_UP)
        if self.phase != "running":
            raise RuleBroken("the chase has not begun: add the participants, then begin it", SET_UP)

    def require_in_chase(self, participant_id: str) -> D6Participant:
        p = self.participant(participant_id)
        if not p.in_chase:
            raise RuleBroken(f"{p.name} is no longer in the chase ({p.status})", SET_UP)
        return p
