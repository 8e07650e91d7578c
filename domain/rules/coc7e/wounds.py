"""Wounds and healing, the pure rules: regular damage and major wounds, death, zero hit points and
dying, First Aid, Medicine and recovery.

coc7e-combat.txt "Tracking Damage", "Regular Damage: The Effects", "Major Wound: The Effects",
"Zero Hit Points: The Effects", "Dying", "First Aid", "Medicine", "Regular Damage Recovery",
"Major Wound Recovery". wound_procedures.py applies them to a chase by events.
"""
from __future__ import annotations

from dataclasses import dataclass

COMBAT = "coc7e-combat.txt"
TRACKING = f'{COMBAT} "Tracking Damage"'
MAJOR_WOUND = f'{COMBAT} "Major Wound: The Effects"'
ZERO_HIT_POINTS = f'{COMBAT} "Zero Hit Points: The Effects"'
DYING = f'{COMBAT} "Dying"'
FIRST_AID = f'{COMBAT} "First Aid"'
MEDICINE = f'{COMBAT} "Medicine"'
REGULAR_RECOVERY = f'{COMBAT} "Regular Damage Recovery"'
MAJOR_RECOVERY = f'{COMBAT} "Major Wound Recovery"'

FIRST_AID_HEALS = 1  # "it grants 1 hit point recovery"; a dying patient: 1 temporary hit point
MEDICINE_HEALS = "1D3"
MEDICINE_LATE_DIFFICULTY = "hard"  # "If this is not performed on the same day ... Hard success"
FIRST_AID_TRIES = 2  # "It may be attempted once, with subsequent attempts constituting a Pushed roll"
RECOVERY_DICE = {"regular": "1D3", "hard": "1D3", "extreme": "2D3", "critical": "2D3"}
HIT_POINTS_A_DAY = 1  # "the character recovers 1 hit point per day"


@dataclass(frozen=True)
class Blow:
    """What one attack's damage (after armor) does to a character."""

    taken: int
    major_wound: bool  # this blow: "equal to or more than half the character's maximum hit points"
    killed: bool  # "More than the character's maximum hit points, the result is death"
    hp_left: int
    unconscious: bool  # at zero hit points
    dying: bool  # at zero with the Major Wound box ticked
    con_roll: bool  # "Make a successful CON roll to avoid the character falling unconscious"


def blow(hp: int, hp_left: int, taken: int, *, major_wound_before: bool) -> Blow:
    """Read one blow of ``taken`` hit points on a character of ``hp`` maximum with ``hp_left``."""
    major = 2 * taken >= hp and taken > 0
    killed = taken > hp
    left = max(0, hp_left - taken)
    at_zero = left == 0
    dying = at_zero and (major or major_wound_before) and not killed
    return Blow(taken, major, killed, left, at_zero and not killed, dying, major and not at_zero and not killed)


def stabilised_by_first_aid(dying: bool) -> bool:
    """"The use of First Aid to stabilize a dying character grants 1 temporary hit point"."""
    return dying


def recovery_dice(level: str) -> str | None:
    """Hit points a week's CON roll recovers: none on a failure, 1D3, 2D3 on an Extreme success."""
    return RECOVERY_DICE.get(level)


def major_wound_healed(level: str, hp_left: int, hp: int) -> bool:
    """"A major wound is healed ... when the character either rolls an Extreme success for their
    recovery (CON roll), or when their current hit points have recovered to half or more"."""
    return level in ("extreme", "critical") or 2 * hp_left >= hp


def recovery_bonus_and_penalty(*, rest: bool, medical_care: str | None, poor_environment: bool) -> tuple[int, int]:
    """Bonus and penalty dice of a week's recovery roll: a bonus die for complete rest, one for
    effective medical care (the care giver's Medicine roll succeeded); a penalty die for a poor
    environment without rest, and one when the doctor's roll was a fumble."""
    bonus = int(rest) + int(medical_care in ("regular", "hard", "extreme", "critical"))
    penalty = int(poor_environment) + int(medical_care == "fumble")
    return bonus, penalty
