"""Events of combat in a Call of Cthulhu chase (issue 14): defending, weapons and ammunition.

coc7e-combat.txt; see obstacle_events.py for how these events are made (stable topics,
deterministic apply, JSON payloads). Wounds and healing have theirs in wound_events.py.
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase

Event = RecordedChase.Event

# Responses that count as fighting back or dodging; a maneuver in return "Resolve[s] as for
# fighting back" (coc7e-combat.txt "Step 2: Make the Attack Roll").
DEFENDED = ("fight back", "dodge", "maneuver")


class Defended(Event):
    """The target fought back or dodged this round: later melee attacks on them get a bonus die
    (coc7e-combat.txt "Outnumbered")."""

    TOPIC = "coc7e:Chase.Defended"
    participant_id: str
    response: str
    round: int

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].defended_round = self.round


class ShotsFired(Event):
    """Rounds spent from a carried gun, and whether it malfunctioned ("Malfunctions")."""

    TOPIC = "coc7e:Chase.ShotsFired"
    participant_id: str
    weapon: str
    shots: int
    loaded_after: int
    malfunction: str | None  # None, "dud" (the round is spent) or "jam"

    def apply(self, chase: Any) -> None:
        carried = _carried(chase, self.participant_id, self.weapon)
        carried["loaded"] = self.loaded_after
        if self.malfunction == "jam":
            carried["jammed"] = True


class WeaponReloaded(Event):
    """Rounds loaded into a carried gun ("Reloading Firearms"), or a jam cleared ("Malfunctions")."""

    TOPIC = "coc7e:Chase.WeaponReloaded"
    participant_id: str
    weapon: str
    loaded_after: int
    jam_cleared: bool

    def apply(self, chase: Any) -> None:
        carried = _carried(chase, self.participant_id, self.weapon)
        carried["loaded"] = self.loaded_after
        if self.jam_cleared:
            carried["jammed"] = False


class Fired(Event):
    """Several shots or volleys in one attack ("Handguns, Multiple Shots", "Automatic Fire"): one
    attack of the round, whatever the rolls; each roll's hits and impales."""

    TOPIC = "coc7e:Chase.Fired"
    attacker_id: str
    weapon: str
    mode: str
    volleys: list  # each {"target_id", "bullets", "roll_sequence", "hits", "impales"}
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        attacker = chase.participants[self.attacker_id]
        attacker.movement_actions = self.movement_actions_left
        attacker.attacks_made += 1


class ManeuverSucceeded(Event):
    """A fighting maneuver's goal achieved (coc7e-combat.txt "Step 2: Make the Attack Roll")."""

    TOPIC = "coc7e:Chase.ManeuverSucceeded"
    attacker_id: str
    target_id: str
    goal: str
    weapon: str | None  # disarm: the weapon taken

    def apply(self, chase: Any) -> None:
        attacker, target = chase.participants[self.attacker_id], chase.participants[self.target_id]
        if self.goal == "disarm":
            target.weapons = [w for w in target.weapons if w["weapon"] != self.weapon]
        elif self.goal == "knock down":
            target.prone = True
        elif self.goal == "hold":
            target.held_by = attacker.id
        elif self.goal in ("penalty die", "bonus die"):
            target.disadvantage = self.goal
        elif self.goal == "escape":
            attacker.held_by, attacker.disadvantage = None, None
        elif self.goal == "knock out":
            target.unconscious, target.prone = True, True


def _carried(chase: Any, participant_id: str, weapon: str) -> dict[str, Any]:
    return next(w for w in chase.participants[participant_id].weapons if w["weapon"] == weapon)


EVENTS = (Defended, ShotsFired, WeaponReloaded, Fired, ManeuverSucceeded)
