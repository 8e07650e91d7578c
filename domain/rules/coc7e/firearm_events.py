"""Events of firearms over several turns (issue 14): diving for cover, aiming, and the time
reloading takes (coc7e-combat.txt "Diving for Cover (Penalty die)", "Aiming (Bonus die)",
"Reloading Firearms (possible Penalty die)"; rules in shooting.py and reloading.py).

Stable topics "coc7e:Chase.<Name>", applied alike to a chase and to a fight without one.
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase

Event = RecordedChase.Event


class DivedForCover(Event):
    """A target fired upon dived for cover: its Dodge roll, whether it made the shot harder (a
    penalty die on the shooter), and the last round whose attacks it forfeits."""

    TOPIC = "coc7e:Chase.DivedForCover"
    participant_id: str
    attacker_id: str
    roll_sequence: int
    success: bool
    forfeits_round: int

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.dived_until_round = max(p.dived_until_round or 0, self.forfeits_round)


class AimTaken(Event):
    """A shooter's turn spent taking careful aim at a target with a gun, from where they stand."""

    TOPIC = "coc7e:Chase.AimTaken"
    participant_id: str
    target_id: str
    weapon: str
    round: int
    location: int | None

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].aim = {
            "target_id": self.target_id, "weapon": self.weapon, "round": self.round, "location": self.location,
        }


class AimEnded(Event):
    """An aim spent on the aimed shot (``bonus``: its bonus die), or lost (``reason``)."""

    TOPIC = "coc7e:Chase.AimEnded"
    participant_id: str
    bonus: bool
    reason: str

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].aim = None


class ReloadingTimeSpent(Event):
    """An action spent reloading a carried gun; a machine-gun belt takes two, the first leaving
    the change half done (``belt_progress``: actions spent on it so far, 0 when done)."""

    TOPIC = "coc7e:Chase.ReloadingTimeSpent"
    participant_id: str
    weapon: str
    movement_actions_left: int
    belt_progress: int

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.movement_actions = self.movement_actions_left
        carried = next(w for w in p.weapons if w["weapon"] == self.weapon)
        if self.belt_progress:
            carried["belt_progress"] = self.belt_progress
        else:
            carried.pop("belt_progress", None)


class RoundChambered(Event):
    """One round put in the chamber of an empty gun and fired at once, with a penalty die."""

    TOPIC = "coc7e:Chase.RoundChambered"
    participant_id: str
    weapon: str

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        carried = next(w for w in p.weapons if w["weapon"] == self.weapon)
        carried["loaded"] += 1


EVENTS = (DivedForCover, AimTaken, AimEnded, ReloadingTimeSpent, RoundChambered)
