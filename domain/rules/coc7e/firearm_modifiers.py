"""Firearm attack modifiers as named inputs of an attack (coc7e-combat.txt "Firearm Attack
Modifiers"): each a bonus or penalty die, refused (409) where its rule's condition does not hold.

Prone targets already give shooters their penalty die ("Prone", maneuvers.attack_dice).
"""
from __future__ import annotations

from typing import Any, Sequence

from domain.rules.coc7e import vehicles
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.participants import Participant

COMBAT = "coc7e-combat.txt"
COVER = f'{COMBAT} "Cover and Concealment (Penalty die)"'
POINT_BLANK = f'{COMBAT} "Point-Blank Range (Bonus die)"'
FAST_MOVING = f'{COMBAT} "Fast-Moving Targets (Penalty die)"'
TARGET_SIZE = f'{COMBAT} "Target Size (Bonus or Penalty die)"'
INTO_MELEE = f'{COMBAT} "Firing into Melee Combat"'
MODIFIERS = ("cover", "point blank", "fast-moving target", "target size", "into melee")
FULL_SPEED_MOV = 8  # "moving at full speed (MOV 8 or more)"
SMALL_BUILD, LARGE_BUILD = -2, 4  # "Build -2 or smaller": a penalty die; "Build 4 or larger": a bonus die
FEET_PER_YARD = 3


def dice(shooter: Participant, target: Participant, named: Sequence[str], distance_yards: int | None, *, firearm: bool) -> tuple[int, int, list[dict[str, Any]]]:
    """(bonus dice, penalty dice, each modifier applied with its die and rule) for ``named``."""
    if isinstance(named, str) or not all(isinstance(n, str) for n in named):
        raise InvalidCommand("modifiers", f"a list of: {', '.join(MODIFIERS)}")
    if len(set(named)) != len(named):
        raise InvalidCommand("modifiers", "each modifier once")
    unknown = [n for n in named if n not in MODIFIERS]
    if unknown:
        raise InvalidCommand("modifiers", f"unknown {', '.join(unknown)}; known: {', '.join(MODIFIERS)}")
    if named and not firearm:
        raise RuleBroken("these modifiers are a firearm attack's", f'{COMBAT} "Firearm Attack Modifiers"')
    applied = [_modifier(shooter, target, name, distance_yards) for name in named]
    bonus = sum(1 for m in applied if m["die"] == "bonus")
    return bonus, len(applied) - bonus, applied


def _modifier(shooter: Participant, target: Participant, name: str, distance_yards: int | None) -> dict[str, Any]:
    if name == "cover":
        # "Concealment of at least half of the target adds one penalty die": the Keeper's call.
        return {"modifier": name, "die": "penalty", "rule": COVER}
    if name == "point blank":
        # "within a fifth of the shooter's DEX in feet"
        reach = (shooter.dex or 0) / 5
        if distance_yards is None:
            raise InvalidCommand("distance_yards", "point blank: give the distance to the target")
        if distance_yards * FEET_PER_YARD > reach:
            raise RuleBroken(f"{target.name} is {distance_yards * FEET_PER_YARD} feet away, beyond a fifth of {shooter.name}'s DEX ({reach:g} feet)", POINT_BLANK)
        return {"modifier": name, "die": "bonus", "rule": POINT_BLANK}
    if name == "fast-moving target":
        if target.mov < FULL_SPEED_MOV:
            raise RuleBroken(f"{target.name} has MOV {target.mov}: full speed is MOV {FULL_SPEED_MOV} or more", FAST_MOVING)
        return {"modifier": name, "die": "penalty", "rule": FAST_MOVING}
    if name == "target size":
        build = vehicles.as_build(target.build)
        if build <= SMALL_BUILD:
            return {"modifier": name, "die": "penalty", "rule": TARGET_SIZE}
        if build >= LARGE_BUILD:
            return {"modifier": name, "die": "bonus", "rule": TARGET_SIZE}
        raise RuleBroken(f"{target.name} has Build {target.build}: neither small (-2 or less) nor large (4 or more)", TARGET_SIZE)
    # "One penalty die is applied when targeting a combatant involved in melee combat. A fumble
    # indicates an ally has been hit."
    return {"modifier": name, "die": "penalty", "rule": INTO_MELEE}


def ally_hit(applied: list[dict[str, Any]], level: str) -> bool:
    """Firing into melee, a fumble hits an ally ("Firing into Melee Combat"; the Keeper names
    which: "the one with the lowest Luck score")."""
    return level == "fumble" and any(m["modifier"] == "into melee" for m in applied)
