"""Percentile skill and characteristic rolls of Call of Cthulhu 7e.

Levels of success, difficulty levels and bonus/penalty dice are the core mechanic that
coc7e-chases.txt ("Speed Roll", "Skills and Hazards") and coc7e-combat.txt ("Fist Fights",
"Resolving a Fighting Attack ...") build on; the combat text's opposed-roll tie rules are here too.
"""
from __future__ import annotations

from typing import Any

from domain.dice import TENS, UNITS, DiceSource, Die

# Levels of success, worst to best; the rank orders them for opposed rolls.
LEVELS = ("fumble", "failure", "regular", "hard", "extreme", "critical")
RANK = {level: rank for rank, level in enumerate(LEVELS)}
DIFFICULTIES = ("regular", "hard", "extreme", "critical")
MAX_BONUS_OR_PENALTY = 2  # coc7e-chases.txt "Skills and Hazards": 2 bonus dice is the maximum


class InvalidPercentileRoll(ValueError):
    """A percentile roll asked with impossible parameters."""


def net_dice(bonus: int, penalty: int) -> int:
    """Bonus and penalty dice cancel one for one; at most two of either remain."""
    for name, value in (("bonus", bonus), ("penalty", penalty)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidPercentileRoll(f"{name} dice must be a whole number 0 or more")
    net = bonus - penalty
    return max(-MAX_BONUS_OR_PENALTY, min(MAX_BONUS_OR_PENALTY, net))


def dice_for(bonus: int = 0, penalty: int = 0) -> list[Die]:
    """One tens die per roll plus one per net bonus or penalty die, then the units die."""
    return [TENS] * (1 + abs(net_dice(bonus, penalty))) + [UNITS]


def combine(tens: int, units: int) -> int:
    """A tens face and the units face read together; 00 with 0 is 100."""
    value = tens + units
    return 100 if value == 0 else value


def level_of(result: int, target: int) -> str:
    """Level of success of ``result`` against a skill or characteristic of ``target``."""
    if result == 1:
        return "critical"
    if result == 100 or (target < 50 and result >= 96):
        return "fumble"
    if result <= target // 5:
        return "extreme"
    if result <= target // 2:
        return "hard"
    if result <= target:
        return "regular"
    return "failure"


def meets(level: str, difficulty: str = "regular") -> bool:
    """Whether a level of success is a success at the asked difficulty."""
    return RANK[level] >= RANK[difficulty]


def resolve(target: int, faces: tuple[int, ...] | list[int], bonus: int = 0, penalty: int = 0) -> dict[str, Any]:
    """Read the faces of a percentile roll: tens dice first, then the units die."""
    net = net_dice(bonus, penalty)
    *tens_faces, units = faces
    results = [combine(t, units) for t in tens_faces]
    if net > 0:
        kept = min(results)
    elif net < 0:
        kept = max(results)
    else:
        kept = results[0]
    kept_index = results.index(kept)
    return {
        "tens": [{"face": t, "kept": i == kept_index} for i, t in enumerate(tens_faces)],
        "units": units,
        "result": kept,
        "level": level_of(kept, target),
    }


def roll(
    dice: DiceSource,
    sequence: int,
    target: int,
    *,
    difficulty: str = "regular",
    bonus: int = 0,
    penalty: int = 0,
) -> dict[str, Any]:
    """Roll percentile dice against ``target``; the record keeps every die face."""
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 999:
        raise InvalidPercentileRoll("the target value must be a whole number from 0 to 999")
    if difficulty not in DIFFICULTIES:
        raise InvalidPercentileRoll(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
    dice_needed = dice_for(bonus, penalty)
    draw = dice.draw(sequence, dice_needed)
    read = resolve(target, draw.faces, bonus, penalty)
    return {
        "target": target,
        "difficulty": difficulty,
        "bonus_dice": bonus,
        "penalty_dice": penalty,
        **read,
        "success": meets(read["level"], difficulty),
        "source": dict(draw.provenance, sequence=sequence),
    }


def compare(level_a: str, level_b: str) -> int:
    """1 when A's level of success is better, -1 when B's is, 0 on a tie."""
    return (RANK[level_a] > RANK[level_b]) - (RANK[level_a] < RANK[level_b])


def fight_back_winner(attacker_level: str, defender_level: str) -> str | None:
    """coc7e-combat.txt "Resolving a Fighting Attack Made Against a Target That is Fighting Back"."""
    if not meets(attacker_level) and not meets(defender_level):
        return None  # both fail: no damage
    return "defender" if compare(defender_level, attacker_level) > 0 else "attacker"


def dodge_winner(attacker_level: str, defender_level: str) -> str | None:
    """coc7e-combat.txt "Resolving a Fighting Attack Made Against a Target That is Dodging"."""
    if not meets(attacker_level) and not meets(defender_level):
        return None
    return "attacker" if compare(attacker_level, defender_level) > 0 else "defender"
