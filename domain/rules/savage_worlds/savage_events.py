"""The events both Savage Worlds chases record, as base classes without a topic.

Each system's aggregate (swade_aggregate.py, swd_aggregate.py) re-declares every one of them with
its own stable TOPIC ("swade:Chase.<Name>", "swd:Chase.<Name>"), as coc7e/chase.py does for the
record's events, so the two systems' stored histories never share a topic. Applying an event is
deterministic: it sets state from the event's own data (DESIGN.md section 3).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain.recorded_chase import RecordedChase
from domain.rules.savage_worlds import play_events
from domain.rules.savage_worlds.conditions import Conditions
from domain.rules.savage_worlds.participants import loses_hold, participant_from

Event = RecordedChase.Event


class ParticipantAdded(Event):
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
    """Set-up is over: the chase's settings (the GM's choices, or the rules' defaults)."""

    settings: dict

    def apply(self, chase: Any) -> None:
        chase.phase = "running"
        chase.settings = dict(self.settings)
        for p in chase.participants.values():
            if p.status == "ready":
                p.status = "in_chase"


class DeckShuffled(Event):
    """A deck shuffled: the cards it holds (canonical order) and, for the server's deck, the roll
    sequence whose dice order it. The order itself is never recorded (cards.py)."""

    deck: str
    reason: str
    cards: list
    shuffle_sequence: int | None
    provenance: dict
    roll: dict | None

    def apply(self, chase: Any) -> None:
        chase.decks[self.deck] = {
            "cards": list(self.cards),
            "shuffle_sequence": self.shuffle_sequence,
            "dealt": [],
            "discards": [],
            "provenance": dict(self.provenance),
        }
        if self.roll:
            chase.rolls_made = self.roll["sequence"]


class ActionCardDealt(Event):
    """An Action card dealt to a participant: the card and its position in the shuffle."""

    participant_id: str
    card: str
    position: int
    shuffle_sequence: int | None
    source: dict

    def apply(self, chase: Any) -> None:
        chase.decks["action"]["dealt"].append(self.card)
        chase.action_cards.setdefault(self.participant_id, []).append(self.card)


class CardsDiscarded(Event):
    deck: str
    cards: list
    reason: str

    def apply(self, chase: Any) -> None:
        chase.decks[self.deck]["discards"].extend(self.cards)
        if self.deck == "action":
            gone = set(self.cards)
            held = {pid: [c for c in cards if c not in gone] for pid, cards in chase.action_cards.items()}
            chase.action_cards = {pid: cards for pid, cards in held.items() if cards}


class TraitRolled(Event):
    """A trait roll: maneuvering, an attack, recovering from Shaken, a cooperative roll. A roll
    that says what a benny's reroll would change ("benny", recorded since issue 17) is the
    roller's last roll, the one a benny may reroll (bennies.py)."""

    participant_id: str | None
    roll: dict

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]
        if "benny" in self.roll and self.participant_id in chase.participants:
            chase.participants[self.participant_id].last_roll = play_events.last_roll_of(self.roll)

    def participants_changed(self) -> tuple[str, ...]:
        return (self.participant_id,) if self.participant_id else ()

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()


class DamageRolled(Event):
    """A damage roll; one recorded since issue 17 ("benny": "soak") is the target's last damage,
    the one a benny may soak, with the Wounds, Shaken and status the target had before it."""

    participant_id: str | None
    target_id: str | None
    roll: dict

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]
        target = chase.participants.get(self.target_id)
        if "benny" in self.roll and target is not None:
            target.last_damage = {
                "sequence": self.roll["sequence"], "wounds": target.wounds, "shaken": target.conditions.shaken, "status": target.status,
            }

    def participants_changed(self) -> tuple[str, ...]:
        return (self.target_id,) if self.target_id else ()

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()


class TableRolled(Event):
    """A roll read off a table: Out of Control, Critical Hits, a critical failure's d6, d4 Wounds."""

    participant_id: str | None
    roll: dict

    def apply(self, chase: Any) -> None:
        chase.rolls_made = self.roll["sequence"]

    def participants_changed(self) -> tuple[str, ...]:
        return ()

    def chase_fields_changed(self) -> tuple[str, ...]:
        return ()


class ConditionsChanged(Event):
    """Shaken, Distracted, Vulnerable, Fatigue: the participant's conditions as they now are."""

    participant_id: str
    conditions: dict
    reason: str

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.conditions = Conditions(**self.conditions)
        if loses_hold(p):  # "Hold": lost if Shaken or Stunned (hold.py)
            chase.participants[p.with_id or p.id].on_hold = False


class CharacterDamaged(Event):
    participant_id: str
    damage: int
    toughness: int
    shaken: bool
    wounds_taken: int
    wounds: int
    incapacitated: bool

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.wounds = self.wounds
        if self.shaken:
            p.conditions = p.conditions.made_shaken()
        if self.incapacitated:
            chase.set_status(self.participant_id, "incapacitated")


class VehicleDamaged(Event):
    """Wounds to a vehicle, from damage against its Toughness or from an Out of Control result."""

    participant_id: str
    damage: int | None
    toughness: int | None
    wounds_taken: int
    wounds: int
    wrecked: bool
    cause: str

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.vehicle = replace(p.vehicle, wounds=self.wounds)
        chase.vehicle_log.setdefault(self.participant_id, []).append(
            {"event": "damage", "round": chase.round, "damage": self.damage, "toughness": self.toughness,
             "wounds_taken": self.wounds_taken, "wounds": self.wounds, "cause": self.cause}
        )
        if self.wrecked:
            chase.set_status(self.participant_id, "wrecked")


class StatusChanged(Event):
    """In the chase, escaped, out: the unit and everyone with it."""

    participant_id: str
    status: str
    reason: str

    def apply(self, chase: Any) -> None:
        chase.set_status(self.participant_id, self.status)


class FollowUpRequired(Event):
    """Something the rules call for next (a roll, a Bump's direction, a card to keep): the
    chase waits for it before anything else happens."""

    follow_up: dict

    def apply(self, chase: Any) -> None:
        chase.pending.append(dict(self.follow_up))
        chase.follow_ups_made = self.follow_up["id"]


class FollowUpResolved(Event):
    follow_up_id: int
    outcome: str

    def apply(self, chase: Any) -> None:
        chase.pending = [f for f in chase.pending if f["id"] != self.follow_up_id]


class RoundBegan(Event):
    round: int

    def apply(self, chase: Any) -> None:
        chase.begin_round_state(self.round)


class TurnOrderSet(Event):
    """The round's acting order: Action cards high to low, ties in suit order."""

    turn_order: list

    def apply(self, chase: Any) -> None:
        chase.turn_order = list(self.turn_order)
        chase.turn_index = 0
        chase.stage = "resolving"


class TurnBegan(Event):
    participant_id: str

    def apply(self, chase: Any) -> None:
        chase.begin_turn_state(self.participant_id)


# Counting actions, bennies and a changed turn order: play_events.py.
ActionTaken = play_events.ActionTaken
BenniesChanged = play_events.BenniesChanged
DamageSoaked = play_events.DamageSoaked
TurnOrderChanged = play_events.TurnOrderChanged
InjuryTaken = play_events.InjuryTaken


class TurnEnded(Event):
    ENDS_TURN = True  # not a field: the view's turn.ended_by_last_command looks for it
    participant_id: str
    reason: str

    def apply(self, chase: Any) -> None:
        for p in chase.members(self.participant_id):
            p.conditions = p.conditions.end_of_turn()
        chase.turn = {}
        chase.turn_index += 1


class RoundEnded(Event):
    round: int

    def apply(self, chase: Any) -> None:
        chase.round_over = True
        chase.stage = "over"
