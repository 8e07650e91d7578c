"""Events of wounds and healing in a Call of Cthulhu chase (issue 14; rules in wounds.py).

Each sets what its command worked out; hit points restored are given as the hit points left
after, since damage beyond zero is not tracked ("do not record negative hit points").
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e.pursuit_events import note_major_wound

Event = RecordedChase.Event


class Wounded(Event):
    """A blow read: a major wound (prone), death, or zero hit points (unconscious, dying)."""

    TOPIC = "coc7e:Chase.Wounded"
    participant_id: str
    taken: int
    major_wound: bool
    killed: bool
    unconscious: bool
    dying: bool
    cause: str

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.major_wound = p.major_wound or self.major_wound
        p.prone = p.prone or self.major_wound or self.unconscious or self.killed
        p.unconscious = p.unconscious or self.unconscious
        p.dead = p.dead or self.killed
        if self.dying:
            p.dying, p.stabilised = True, False
        if self.killed:
            p.dying = False
        p.first_aid_tries, p.medicine_given, p.first_aid_succeeded = 0, False, False  # a new injury to treat
        if self.major_wound and getattr(p, "seat", None) == "driver":
            note_major_wound(chase, p.id)
        if self.major_wound or self.unconscious or self.killed:
            # A hold lasts "until their attacker releases them, is incapacitated or suffers a
            # major wound" (coc7e-combat.txt "Step 2: Make the Attack Roll").
            for held in chase.participants.values():
                if held.held_by == p.id:
                    held.held_by = None


class ConsciousnessRolled(Event):
    """The CON roll of a major wound: failed, the character falls unconscious."""

    TOPIC = "coc7e:Chase.ConsciousnessRolled"
    participant_id: str
    roll_sequence: int
    conscious: bool

    def apply(self, chase: Any) -> None:
        if not self.conscious:
            chase.participants[self.participant_id].unconscious = True


class DyingRolled(Event):
    """A dying character's CON roll for the round (or, stabilised, for the hour)."""

    TOPIC = "coc7e:Chase.DyingRolled"
    participant_id: str
    roll_sequence: int
    survived: bool
    hp_after: int

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.damage = p.hp - self.hp_after
        if not self.survived:
            if p.stabilised:
                # "they lose the temporary hit point and revert to the start of the Dying process,
                # in need of First Aid": a fresh First Aid, as for a new injury.
                p.stabilised, p.first_aid_tries, p.first_aid_succeeded = False, 0, False
            else:
                p.dying, p.dead = False, True


class FirstAidGiven(Event):
    """A First Aid roll (or its pushed retry) and what it did."""

    TOPIC = "coc7e:Chase.FirstAidGiven"
    participant_id: str
    healer_id: str | None
    roll_sequence: int
    pushed: bool
    success: bool
    hp_after: int
    stabilised: bool

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.first_aid_tries += 1
        p.first_aid_succeeded = p.first_aid_succeeded or self.success
        p.damage = p.hp - self.hp_after
        p.stabilised = p.stabilised or self.stabilised
        if self.success and not p.dying and p.hp_left > 0:
            p.unconscious = False


class MedicineGiven(Event):
    """A Medicine roll and what it did: 1D3 hit points, and a stabilised dying character saved."""

    TOPIC = "coc7e:Chase.MedicineGiven"
    participant_id: str
    healer_id: str | None
    roll_sequence: int
    success: bool
    hp_after: int
    saved: bool

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.damage = p.hp - self.hp_after
        if self.success:
            p.medicine_given = True
        if self.saved:
            p.dying, p.stabilised = False, False


class Recovered(Event):
    """Natural recovery: days of regular healing, or a week's recovery roll for a major wound."""

    TOPIC = "coc7e:Chase.Recovered"
    participant_id: str
    days: int
    weeks: int
    roll_sequence: int | None
    hp_after: int
    major_wound_healed: bool
    lasting_injury: bool  # a fumbled recovery roll: "a lasting injury, complication, or worse"

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.damage = p.hp - self.hp_after
        if self.major_wound_healed:
            p.major_wound = False
        if p.hp_left > 0 and not p.dying:
            p.unconscious = False


class ConditionRuled(Event):
    """The Keeper's ruling that a character comes to, or stands up ("Prone": on their turn)."""

    TOPIC = "coc7e:Chase.ConditionRuled"
    participant_id: str
    conscious: bool | None
    standing: bool | None
    reason: str

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        if self.conscious:
            p.unconscious = False
        if self.standing:
            p.prone = False


EVENTS = (Wounded, ConsciousnessRolled, DyingRolled, FirstAidGiven, MedicineGiven, Recovered, ConditionRuled)
