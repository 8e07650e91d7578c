"""Fighting maneuvers' goals, and the standing dice of prone and disadvantaged combatants.

coc7e-combat.txt "Step 2: Make the Attack Roll" (a successful maneuver achieves one goal:
disarming, an on-going penalty die on the target's actions or bonus die to allies' actions
against it, knocking down, holding; escaping a hold), "Knock-Out Blows" (optional: unconscious
and 1 hit point), "Prone". In a chase the default goal is the chase's ("Using Fighting Maneuvers
in a Chase": the outcome of a failed hazard, a mishap for the Keeper).
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e import combat_events, damage_events
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken

COMBAT = "coc7e-combat.txt"
GOALS_HEADING = f'{COMBAT} "Step 2: Make the Attack Roll"'
PRONE = f'{COMBAT} "Prone"'
KNOCK_OUT = f'{COMBAT} "Knock-Out Blows"'
GOALS = ("mishap", "disarm", "knock down", "hold", "penalty die", "bonus die", "escape", "knock out")
KNOCK_OUT_DAMAGE = 1  # "the opponent is rendered unconsciousness and suffers only 1 hit point of damage"


def check_goal(attacker: Any, target: Any, method: str, goal: str | None, seize: str | None) -> str | None:
    """The goal of a maneuver, refused when it cannot be had."""
    if goal is None:
        return None
    if goal not in GOALS:
        raise InvalidCommand("goal", f"must be one of {', '.join(GOALS)}")
    if method != "maneuver":
        raise InvalidCommand("goal", "a goal is what a fighting maneuver achieves: method maneuver")
    if target.kind == "vehicle" and goal not in ("mishap", "penalty die", "bonus die"):
        raise InvalidCommand("goal", f"{goal} is not to be had against a vehicle")
    if goal == "escape" and attacker.held_by != target.id:
        raise RuleBroken(f"{attacker.name} is not held by {target.name}", GOALS_HEADING)
    if goal == "disarm":
        carried = [w["weapon"] for w in target.weapons]
        if not carried or (seize is not None and seize not in carried):
            raise RuleBroken(f"{target.name} holds no {seize or 'weapon'} to take", GOALS_HEADING)
    elif seize is not None:
        raise InvalidCommand("seize", "only a disarming maneuver seizes a weapon")
    return goal


def achieve(chase: Any, attacker: Any, target: Any, goal: str, seize: str | None) -> None:
    """A successful maneuver's goal, by event (a knock-out also deals its 1 hit point)."""
    weapon = (seize or target.weapons[0]["weapon"]) if goal == "disarm" else None
    chase.trigger_event(combat_events.ManeuverSucceeded, attacker_id=attacker.id, target_id=target.id, goal=goal, weapon=weapon)
    if goal == "knock out" and target.hp is not None:
        chase.trigger_event(
            damage_events.DamageTaken, participant_id=target.id, rolled=KNOCK_OUT_DAMAGE, armor=0, taken=KNOCK_OUT_DAMAGE,
            cause=f"knocked out by {attacker.name}", roll_sequence=None,
        )


def attack_dice(attacker: Any, target: Any, *, firearm: bool) -> tuple[int, int]:
    """Bonus and penalty dice from standing conditions: "fighting attacks made against a prone
    character gain one bonus die"; "a prone character gets one bonus die when making a Firearms
    roll"; "those targeting a prone character with a firearm get one penalty die" ("Prone"); an
    on-going penalty die on a maneuvered attacker's actions, or bonus die against its target."""
    bonus = int(target.prone and not firearm) + int(attacker.prone and firearm) + int(target.disadvantage == "bonus die")
    penalty = int(target.prone and firearm) + int(attacker.disadvantage == "penalty die")
    return bonus, penalty
