"""Events of a Call of Cthulhu fight without a chase (coc7e-combat.txt): the fight begins, an
initiative's bonus die is spent, a combatant joins the fight in progress.

Each has a stable TOPIC "coc7e:Encounter.<Name>"; the attacks, fire, wounds and rounds of a fight
are the chase's own events (combat_events.py, wound_events.py, chase_events.py), applied alike.
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase

Event = RecordedChase.Event

# Where the fight happens: everyone at one place (a fight has no track of locations).
THE_FIGHT = 0


class FightBegan(Event):
    """Combat rounds begin: everyone in the fight, how the order of attack is set (``dex``, or
    ``dex roll``: the optional "Rolling for Initiative"), who holds a readied firearm, each DEX
    roll's level, and what a critical or fumbled DEX roll brings to the first attack."""

    TOPIC = "coc7e:Encounter.FightBegan"
    initiative: str
    readied: list
    initiative_levels: dict
    first_attack: dict

    def apply(self, encounter: Any) -> None:
        encounter.phase = "running"
        for pid, p in encounter.participants.items():
            encounter.track.place(pid, THE_FIGHT)
            p.status = "in_chase"
        encounter.initiative = self.initiative
        encounter.readied = list(self.readied)
        encounter.initiative_levels = dict(self.initiative_levels)
        encounter.first_attack = dict(self.first_attack)


class FirstAttackSpent(Event):
    """A critical DEX roll's bonus die went to the participant's first attack ("Rolling for Initiative")."""

    TOPIC = "coc7e:Encounter.FirstAttackSpent"
    participant_id: str
    effect: str

    def apply(self, encounter: Any) -> None:
        encounter.first_attack.pop(self.participant_id, None)


class JoinedFight(Event):
    """A combatant joined the fight in progress, placed in the order of attack: this round's
    ``turn_order`` when their place is still to come (``actions`` this round), else from the next
    round; with the DEX-roll initiative, their roll's level ("Rolling for Initiative")."""

    TOPIC = "coc7e:Encounter.JoinedFight"
    participant_id: str
    readied: bool
    initiative_level: str | None
    first_attack: str | None
    turn_order: list
    actions: int

    def apply(self, encounter: Any) -> None:
        p = encounter.participants[self.participant_id]
        encounter.track.place(self.participant_id, THE_FIGHT)
        p.status, p.movement_actions = "in_chase", self.actions
        if self.readied:
            encounter.readied = [*encounter.readied, self.participant_id]
        if self.initiative_level is not None:
            encounter.initiative_levels = {**encounter.initiative_levels, self.participant_id: self.initiative_level}
        if self.first_attack is not None:
            encounter.first_attack = {**encounter.first_attack, self.participant_id: self.first_attack}
        encounter.turn_order = list(self.turn_order)


class FirearmReadied(Event):
    """A combatant drew a firearm during the fight: readied from the next round ("Firearms and the
    DEX Order"); with the DEX-roll initiative, the level they keep after re-rolling ("Rolling for
    Initiative": the better of the two)."""

    TOPIC = "coc7e:Encounter.FirearmReadied"
    participant_id: str
    initiative_level: str | None

    def apply(self, encounter: Any) -> None:
        encounter.readied = [*encounter.readied, self.participant_id]
        if self.initiative_level is not None:
            encounter.initiative_levels = {**encounter.initiative_levels, self.participant_id: self.initiative_level}


class FledFight(Event):
    """A combatant used their action to flee the fight ("Escaping Close Combat"): out of it."""

    TOPIC = "coc7e:Encounter.FledFight"
    participant_id: str

    def apply(self, encounter: Any) -> None:
        encounter.participants[self.participant_id].status = "escaped"
        for held in encounter.participants.values():
            if held.held_by == self.participant_id:
                held.held_by = None  # held "until their attacker releases them": gone, they let go
