"""Movement actions and the order of movement: coc7e-chases.txt part 2."""
from __future__ import annotations

from typing import Iterable


def movement_actions(mov: int, slowest_mov: int) -> int:
    """"Movement Actions": one by default plus the MOV difference to the slowest participant."""
    return 1 + mov - slowest_mov


def slowest_of_round(kept: int | None, movs: Iterable[int]) -> int:
    """The slowest MOV a round's movement actions are worked out against: the one the chase
    keeps, unless someone now runs slower (a joiner, a switch of mode). A leaver never raises it:
    "There is no need to recalculate speeds or movement actions when a character leaves a chase"
    (coc7e-chases.txt "Characters Joining a Chase in Progress")."""
    now = min(movs)
    return now if kept is None else min(kept, now)


def allotment(mov: int, slowest_mov: int, owed: int) -> tuple[int, int]:
    """This round's movement actions after paying what is owed; returns (actions, still owed).

    "Skills and Hazards" (the farmer in the mud): lost movement actions that could not be paid
    in the round they were lost are paid from the next round's movement actions.
    """
    actions = movement_actions(mov, slowest_mov) - owed
    if actions >= 0:
        return actions, 0
    return 0, -actions


def dex_order(entries: Iterable[tuple[str, int, int, int]]) -> list[str]:
    """"Dexterity and the Order of Movement": highest DEX first.

    Each entry is (participant id, DEX, combat skill, order of joining). Ties go to the higher
    combat skill (coc7e-combat.txt "Dexterity and the Order of Attack"), then to who joined first.
    """
    ranked = sorted(entries, key=lambda e: (-e[1], -e[2], e[3]))
    return [e[0] for e in ranked]
