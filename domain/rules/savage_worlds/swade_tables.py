"""The tables of swade-chases-reference.txt as data, each row citing its heading.

Range increments, Complications by the suit of the Chase Card, critical failures on maneuvering
skills by mode, Ram damage by Scale, Out of Control (2d6), Vehicle Critical Hits (2d6) and the
Injury table (2d6, with its d6 sub-tables). Lookups refuse a total the table does not cover.
"""
from __future__ import annotations

from dataclasses import dataclass

from domain.rules.savage_worlds.errors import SWADE, InvalidValue

_SETUP = f"{SWADE} \"SETUP\", RANGE INCREMENTS"
_COMPLICATIONS = f"{SWADE} \"COMPLICATIONS\""
_CRITICAL = f"{SWADE} \"CRITICAL FAILURE ON MANEUVERING SKILLS\""
_RAM = f"{SWADE} \"MANEUVERS\", RAM"
_OOC = f"{SWADE} \"OUT OF CONTROL\""
_HITS = f"{SWADE} \"VEHICLE CRITICAL HITS\""
_INJURY = f"{SWADE} \"INJURY TABLE\""

# -- "SETUP": the Range Increment by type of chase (in the units of weapon Ranges) --------------
RANGE_INCREMENTS: dict[str, tuple[int, str]] = {
    "foot": (5, _SETUP),
    "mounted": (5, _SETUP),
    "vehicular": (5, _SETUP),
    "airplane": (25, _SETUP),
    "sailing ship": (25, _SETUP),
    "jet": (50, _SETUP),
    "starship": (50, _SETUP),
}
DEFAULT_CHASE_CARDS = 9  # "SETUP": "nine is a good number for most chases, add more as needed"


@dataclass(frozen=True)
class ComplicationRow:
    """A suit of the current Chase Card: the maneuvering roll's modifier and what failure does."""

    suit: str
    modifier: int
    failure: str  # "critical failure" | "bumped"
    bump_cards: int  # Chase Cards a failure Bumps (0 when it is a critical failure instead)
    source: str = _COMPLICATIONS


# The extract prints Spades' modifier as "-" and leaves Hearts' blank: both read as no modifier
# (a dash is the table's "none"; the penalties it does print are "-2").
COMPLICATIONS: dict[str, ComplicationRow] = {
    "Spades": ComplicationRow("Spades", 0, "critical failure", 0),
    "Hearts": ComplicationRow("Hearts", 0, "bumped", 1),
    "Diamonds": ComplicationRow("Diamonds", -2, "bumped", 1),
    "Clubs": ComplicationRow("Clubs", -2, "critical failure", 0),
    "Joker": ComplicationRow("Joker", +2, "bumped", 2),  # "Bumped up to two Chase Cards"
}


@dataclass(frozen=True)
class CriticalFailureRow:
    """A result of a Critical Failure on a maneuvering roll, by mode and die face."""

    mode: str
    faces: tuple[int, ...]
    effect: str  # "loses turn" | "mount fatigue" | "rider fatigue" | "fatigue" | "out of control"
    source: str = _CRITICAL


CRITICAL_FAILURES: tuple[CriticalFailureRow, ...] = (
    CriticalFailureRow("mounted", (1, 2), "loses turn"),
    # "applies to the animal's rolls and the rider's Riding rolls"
    CriticalFailureRow("mounted", (3, 4), "mount fatigue"),
    CriticalFailureRow("mounted", (5, 6), "rider fatigue"),
    # "Roll a die. Even, he loses the rest of his turn ... Odd, he suffers Fatigue": any die
    # has as many even as odd faces; the engine rolls a d6 like the mounted row.
    CriticalFailureRow("foot", (2, 4, 6), "loses turn"),
    CriticalFailureRow("foot", (1, 3, 5), "fatigue"),
    # "Vehicle: The operator must roll on the Out of Control table": no die of its own.
    CriticalFailureRow("vehicle", (), "out of control"),
)
CRITICAL_FAILURE_MODES = ("mounted", "foot", "vehicle")

# -- "Size/Scale": the attack modifier by Scale (Normal, a man-sized target: 0) ----------------------
SIZE_SCALE = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Size/Scale"
SCALE_MODIFIERS: dict[str, int] = {
    "Tiny": -6, "Very Small": -4, "Small": -2, "Normal": 0, "Large": +2, "Huge": +4, "Gargantuan": +6,
}

# -- "RAM": base damage by Scale ----------------------------------------------------------------
SCALE_DAMAGE: dict[str, tuple[str, str]] = {
    "Small": ("1d6", _RAM),
    "Normal": ("2d6", _RAM),
    "Large": ("3d6", _RAM),
    "Huge": ("4d6", _RAM),
    "Gargantuan": ("5d6", _RAM),
}


@dataclass(frozen=True)
class OutOfControlRow:
    """A 2d6 row of Out of Control: what happens to the vehicle and everyone on board."""

    low: int
    high: int
    name: str
    wounds: int | str  # Wounds the vehicle takes; "d4" is rolled
    critical_hits: int
    distracted: bool  # everyone on board Distracted (until the end of their next turn)
    vulnerable: bool  # the vehicle and everyone on board Vulnerable (same)
    reroll_crew: bool  # the Critical Hit rerolls Crew results
    collision: bool  # a Collision: a Crew result Shakes the occupants ("VEHICLE CRITICAL HITS")
    source: str = _OOC


OUT_OF_CONTROL: tuple[OutOfControlRow, ...] = (
    OutOfControlRow(2, 2, "Major Collision", "d4", 1, True, False, False, True),
    OutOfControlRow(3, 4, "Minor Collision", 1, 1, False, False, False, True),
    OutOfControlRow(5, 9, "Distracted", 0, 0, True, False, False, False),
    OutOfControlRow(10, 11, "Vulnerable", 0, 0, False, True, False, False),
    OutOfControlRow(12, 12, "Glitch", 0, 1, False, False, True, False),
)


@dataclass(frozen=True)
class CriticalHitRow:
    """A 2d6 row of Vehicle Critical Hits."""

    low: int
    high: int
    name: str
    effect: str  # "none" | "handling" | "top speed" | "chassis" | "crew" | "weapon" | "system"
    source: str = _HITS


VEHICLE_CRITICAL_HITS: tuple[CriticalHitRow, ...] = (
    CriticalHitRow(2, 2, "Scratch and Dent", "none"),
    CriticalHitRow(3, 3, "Guidance/Traction", "handling"),  # Handling -1, to -4 at most
    CriticalHitRow(4, 5, "Locomotion", "top speed"),  # Top Speed -10%, to 60% at least
    CriticalHitRow(6, 8, "Chassis", "chassis"),
    CriticalHitRow(9, 10, "Crew", "crew"),
    CriticalHitRow(11, 11, "Weapon", "weapon"),  # no weapon: a Chassis hit instead
    CriticalHitRow(12, 12, "System", "system"),  # no special features: a Chassis hit instead
)
HANDLING_PENALTY_LIMIT = -4  # "Guidance/Traction": "to a maximum penalty of -4"
TOP_SPEED_STEP_PERCENT = 10  # "Locomotion": "reduced by 10% each time"
TOP_SPEED_FLOOR_PERCENT = 60  # "to a minimum of 60% Top Speed"


@dataclass(frozen=True)
class InjuryRow:
    """A 2d6 row of the Injury table; Guts and Head roll a d6 on their own sub-table."""

    low: int
    high: int
    name: str
    effect: str
    source: str = _INJURY


# The extract's layout is broken ("2 / 12 / Unmentionables", "5–9 3–4 Battered"): the rows are
# 2 Unmentionables, 3-4 Arm, 5-9 Guts, 10-11 Leg, 12 Head, as the sub-tables' order shows.
INJURIES: tuple[InjuryRow, ...] = (
    InjuryRow(2, 2, "Unmentionables", "no other effect unless permanent"),
    InjuryRow(3, 4, "Arm", "cannot use the left or right arm (random unless targeted)"),
    InjuryRow(5, 9, "Guts", "roll 1d6 on the Guts sub-table"),
    InjuryRow(10, 11, "Leg", "Slow Hindrance (Minor; Major if already Slow or injured in either leg)"),
    InjuryRow(12, 12, "Head", "roll 1d6 on the Head sub-table"),
)
GUTS: tuple[InjuryRow, ...] = (
    InjuryRow(1, 2, "Broken", "Agility reduced a die type (minimum d4)"),
    InjuryRow(3, 4, "Battered", "Vigor reduced a die type (minimum d4)"),
    InjuryRow(5, 6, "Busted", "Strength reduced a die type (minimum d4)"),
)
HEAD: tuple[InjuryRow, ...] = (
    InjuryRow(1, 3, "Hideous Scar", "Ugly (Major) Hindrance"),
    InjuryRow(4, 5, "Blinded", "One Eye Hindrance (Blind if he only had one good eye)"),
    InjuryRow(6, 6, "Brain Damage", "Smarts reduced one die type (minimum d4)"),
)


def row_for(table, total: int):
    """The row of a rolled table (Out of Control, Critical Hits, Injury) covering ``total``."""
    for row in table:
        if row.low <= total <= row.high:
            return row
    low, high = table[0].low, table[-1].high
    raise InvalidValue("total", f"{total} is not on the table ({low}-{high}; {table[0].source})")


def range_increment(mode: str) -> int:
    """The Range Increment of a type of chase ("SETUP")."""
    if mode not in RANGE_INCREMENTS:
        raise InvalidValue("mode", f"{mode!r} is not a type of chase: {', '.join(RANGE_INCREMENTS)} ({_SETUP})")
    return RANGE_INCREMENTS[mode][0]


def complication_row(suit: str) -> ComplicationRow:
    """The Complications row for the suit of the current Chase Card ("Joker" for a Joker)."""
    if suit not in COMPLICATIONS:
        raise InvalidValue("suit", f"{suit!r} is not a suit of the Complications table ({_COMPLICATIONS})")
    return COMPLICATIONS[suit]


def critical_failure_row(mode: str, face: int | None = None) -> CriticalFailureRow:
    """The Critical Failure result for a mode; ``face`` is the d6 for mounted and on foot."""
    if mode not in CRITICAL_FAILURE_MODES:
        raise InvalidValue("mode", f"{mode!r}: one of {', '.join(CRITICAL_FAILURE_MODES)} ({_CRITICAL})")
    rows = [r for r in CRITICAL_FAILURES if r.mode == mode]
    if mode == "vehicle":
        return rows[0]
    match = [r for r in rows if face in r.faces]
    if not match:
        raise InvalidValue("face", f"a {mode} Critical Failure rolls a d6, not {face!r} ({_CRITICAL})")
    return match[0]


def scale_damage(scale: str) -> str:
    """Ram base damage for a Scale: Small d6 .. Gargantuan 5d6 ("RAM")."""
    if scale not in SCALE_DAMAGE:
        raise InvalidValue("scale", f"{scale!r}: one of {', '.join(SCALE_DAMAGE)} ({_RAM})")
    return SCALE_DAMAGE[scale][0]


def scale_modifier(attacker_scale: str, target_scale: str) -> int:
    """"Size/Scale": the difference of the two Scales' modifiers, added against a larger target
    and subtracted against a smaller one (a man shooting at a Large truck: +2)."""
    for field_name, scale in (("attacker scale", attacker_scale), ("target scale", target_scale)):
        if scale not in SCALE_MODIFIERS:
            raise InvalidValue(field_name, f"{scale!r}: one of {', '.join(SCALE_MODIFIERS)} ({SIZE_SCALE})")
    return SCALE_MODIFIERS[target_scale] - SCALE_MODIFIERS[attacker_scale]
