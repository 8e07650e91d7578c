"""Events of the Deluxe action-card chase only (base classes; swd_aggregate.py gives their topics).

swd-chases.txt "Get an Action card" (cards earned by the maneuver roll, the one kept, passengers'
cooperative rolls) and "Resolve Actions" (Complications on Clubs, who may not attack this round).
"""
from __future__ import annotations

from typing import Any

from domain.rules.savage_worlds.savage_events import Event


class CardsEarned(Event):
    """The maneuver roll's Action cards: one for a success and one per raise (none on a failure)."""

    participant_id: str
    count: int

    def apply(self, chase: Any) -> None:
        chase.maneuvered[self.participant_id] = self.count


class ActionCardKept(Event):
    """The one card kept of those dealt; the others are discarded."""

    participant_id: str
    card: str
    discarded: list

    def apply(self, chase: Any) -> None:
        chase.action_cards[self.participant_id] = [self.card]
        chase.decks["action"]["discards"].extend(self.discarded)


class CooperationCounted(Event):
    """A passenger's cooperative roll: what it adds to the unit's maneuver roll this round."""

    participant_id: str
    helper_id: str
    contribution: int
    bonus: int

    def apply(self, chase: Any) -> None:
        chase.cooperative[self.participant_id] = {
            "bonus": self.bonus,
            "helpers": chase.cooperative.get(self.participant_id, {}).get("helpers", []) + [self.helper_id],
        }


class AttackBarred(Event):
    """This participant may not attack this round (Distracted, a failed Disaster, still Shaken)."""

    participant_id: str
    reason: str

    def apply(self, chase: Any) -> None:
        chase.barred[self.participant_id] = self.reason


class AttackBarLifted(Event):
    """A bar lifted: the recovery from Shaken that failed became a success (a benny's reroll)."""

    participant_id: str
    reason: str

    def apply(self, chase: Any) -> None:
        chase.barred = {pid: why for pid, why in chase.barred.items() if pid != self.participant_id}


class ComplicationFaced(Event):
    """A Club's Complication by its value, and how it went."""

    participant_id: str
    card: str
    complication: dict
    result: str


class RecoveriesCalled(Event):
    """The turns are over: those without an Action card now try to recover from Shaken."""

    participant_ids: list

    def apply(self, chase: Any) -> None:
        chase.stage = "recovering"
