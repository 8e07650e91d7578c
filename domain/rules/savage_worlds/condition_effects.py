"""What Stunned, Bound, Entangled and Prone do to actions and attacks (both chases).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES": "Stunned: ... can't move or take
actions ... and are subject to the Drop" ("The Drop: +4 to attack and damage", which "Does not
stack" with Vulnerable); "Bound & Entangled: Entangled characters can't move ... Bound characters
... cannot take physical actions other than trying to break free"; "Prone: Medium Cover from
ranged attacks 3" or greater; -2 Fighting and -2 Parry" (Cover: Medium -4). Distracted and
Vulnerable while Stunned, Bound or Entangled are conditions.py's.
"""
from __future__ import annotations

from typing import Any

from domain.rules.savage_worlds.conditions import THE_DROP
from domain.rules.savage_worlds.errors import SWADE, RuleBroken

OPTIONS = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\""
MEDIUM_COVER = -4  # "Cover: Light -2, Medium -4, Heavy -6, Near Total -8"
PRONE_FIGHTING = -2  # "-2 Fighting"
PRONE_PARRY = +2  # "-2 Parry": a melee attack against him is made as if at +2
PRONE_COVER_FROM = 3  # "ranged attacks 3\" or greater"


def require_able(p: Any, what: str, *, moves: bool = False) -> None:
    """Refuse an action (or a move) that the character's condition forbids."""
    c = p.conditions
    if c.stunned:
        raise RuleBroken(f"{p.name} is Stunned: no moves and no actions, not {what}", f"{OPTIONS}, Stunned")
    if c.bound:
        raise RuleBroken(f"{p.name} is Bound: no physical action but breaking free, not {what}", f"{OPTIONS}, Bound & Entangled")
    if moves and c.entangled:
        raise RuleBroken(f"{p.name} is Entangled and can't move: not {what}", f"{OPTIONS}, Bound & Entangled")


def attack_modifiers(attacker: Any, target: Any, *, ranged: bool, distance: int) -> dict[str, int]:
    """The named modifiers of an attack the conditions of both sides give: the Drop against the
    Stunned (else Vulnerable's +2, which does not stack with it), Prone on either side."""
    mods: dict[str, int] = {}
    if target.conditions.stunned:
        mods["The Drop (Stunned)"] = THE_DROP
    elif target.conditions.is_vulnerable:
        mods["Vulnerable"] = target.conditions.against_modifier()
    if target.conditions.prone:
        if ranged and distance >= PRONE_COVER_FROM:
            mods["Prone (Medium Cover)"] = MEDIUM_COVER
        elif not ranged:
            mods["Prone (Parry -2)"] = PRONE_PARRY
    if attacker.conditions.prone and not ranged:
        mods["Prone (Fighting)"] = PRONE_FIGHTING
    return mods
