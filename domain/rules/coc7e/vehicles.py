"""Vehicles of coc7e-chases.txt "Vehicle Reference Charts" and what damage does to their Build.

Build 0.5 (the bicycle, "Other forms of transport") is kept exactly as printed, as a Fraction.
Build is lost only in whole points ("each full 10 hit points ... decreases build by one", the
collision table rolls whole Build), so a vehicle's Build is its starting Build less the whole
points lost, never below zero. Where a rule counts Build in points, only full points count:
"1D10 damage per point of build" gives a bicycle no dice (half a point is not a point), and
Build comparisons for fighting maneuvers count the full points of the difference
(domain.rules.coc7e.conflict). Losing any whole point in one incident is at least the bicycle's
full Build of 0.5, so such an incident wrecks it. Persist Build as text ("0.5") or as the whole
points lost; ``as_build`` reads it back and ``build_text`` writes it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from domain.rules.coc7e.errors import CHASES, InvalidCommand

BuildValue = int | Fraction

CHARTS_HEADING = "Vehicle Reference Charts"
# chart: (driving skill, the chart's printed heading); each chart's skill is the sentence above it.
CHARTS = {
    "ground": ("Drive Auto", "Vehicle"),
    "air": ("Pilot", "Air Vehicles"),
    # "require specialist training to operate; the skill Operate Heavy Machinery might be substituted"
    "heavy": ("Operate Heavy Machinery", "Heavy Vehicles"),
    "other transport": ("Ride", "Other forms of transport"),
    "water": ("Pilot", "Water Vehicles"),
}


@dataclass(frozen=True)
class Vehicle:
    """One row of a vehicle chart: numbers and passengers exactly as printed."""

    name: str
    chart: str
    skill: str
    mov: int
    build_printed: str
    armor: int  # "Armor for people": protects driver and passengers against external attacks
    passengers: str  # as printed: "3 or 4", "2+", "112+"
    source: str

    @property
    def build(self) -> Fraction:
        return Fraction(self.build_printed)

    @property
    def min_passengers(self) -> int:
        return int(re.match(r"\d+", self.passengers).group())  # type: ignore[union-attr]

    @property
    def max_passengers(self) -> int | None:
        """The most passengers printed; None for an open number such as "2+"."""
        if self.passengers.endswith("+"):
            return None
        return int(re.findall(r"\d+", self.passengers)[-1])

    def mov_in(self, era: str = "modern") -> int:
        """Chart MOV for "modern" vehicles, or reduced for "1920s" ones (see ``mov_1920s``)."""
        if era not in ERAS:
            raise InvalidCommand("era", f"must be one of {', '.join(ERAS)}")
        return self.mov if era == "modern" else mov_1920s(self.mov)


def _chart(chart: str, *rows: tuple[str, int, str, int, str]) -> list[Vehicle]:
    skill, heading = CHARTS[chart]
    source = f'{CHASES} "{CHARTS_HEADING}" ({heading})'
    return [Vehicle(name, chart, skill, mov, build, armor, passengers, source) for name, mov, build, armor, passengers in rows]


# Rows: name, MOV, Build, Armor for people, Passengers, in the charts' printed order.
VEHICLES: tuple[Vehicle, ...] = tuple(
    _chart(
        "ground",
        ("Car, economy", 13, "4", 1, "3 or 4"),
        ("Car, standard", 14, "5", 2, "4"),
        ("Car, deluxe", 15, "6", 2, "4"),
        ("Sports car", 16, "5", 2, "1"),
        ("Pickup truck", 14, "6", 2, "2+"),
        ("6-ton truck", 13, "7", 2, "2+"),
        ("18-wheeler", 13, "9", 2, "3+"),
        ("Motorcycle, light", 13, "1", 0, "1"),
        ("Motorcycle, heavy", 16, "3", 0, "1"),
    )
    + _chart(
        "air",
        ("Dirigible", 12, "10", 2, "112+"),
        ("Propeller plane", 15, "5", 1, "4+"),
        ("Bomber plane", 17, "11", 2, "10+"),
        ("Jet plane", 18, "11", 3, "50+"),
        ("Helicopter", 15, "5", 2, "15+"),
    )
    + _chart(
        "heavy",
        ("Tank", 11, "20", 24, "4"),
        ("Steam train", 12, "12", 1, "400+"),
        ("Modern train", 15, "14", 2, "400+"),
    )
    + _chart(
        "other transport",
        ("Horse (with rider)", 11, "4", 0, "1"),
        ("4-horse carriage", 10, "3", 0, "6+"),
        ("Bicycle", 10, "0.5", 0, "1"),
    )
    + _chart(
        "water",
        ("Row boat", 4, "2", 0, "3"),
        ("Hovercraft", 12, "4", 0, "22"),
        # Printed "Bicycle 14 3 0 6" among the boats: a known flaw of the extract
        # (rules/README.md), a motorboat. The numbers are kept as printed.
        ("Motorboat", 14, "3", 0, "6"),
        ("Cruise ship", 11, "32", 0, "2200+"),
        ("Battleship", 11, "65", 0, "1800+"),
        ("Aircraft carrier", 11, "75", 0, "3200+"),
        ("Submarine", 12, "24", 0, "120+"),
    )
)


def vehicle(name: str, chart: str | None = None) -> Vehicle:
    """A chart row by name (any case); ``chart`` tells apart rows that share a name."""
    wanted = name.strip().lower() if isinstance(name, str) else ""
    found = [v for v in VEHICLES if v.name.lower() == wanted and chart in (None, v.chart)]
    if not found:
        raise InvalidCommand("vehicle", f"no vehicle {name!r} in {CHASES} \"{CHARTS_HEADING}\"")
    return found[0]


# -- 1920s ---------------------------------------------------------------------------------------

ERAS = ("modern", "1920s")
# "MOV: ... These ratings are for modern vehicles and may be reduced by around 20% for 1920s
# vehicles": "around" leaves the exact cut to the Keeper, 20% by default.
REDUCTION_1920S = Fraction(1, 5)


def mov_1920s(mov: int, reduction: Fraction = REDUCTION_1920S) -> int:
    """MOV less about 20%, rounded to the nearest whole number (halves up), at least 1.

    MOV is a whole number everywhere in the chase (one point is one movement action), hence the
    rounding; at least 1 so that a slow vehicle still moves. With 20% no MOV lands on a half.
    """
    if isinstance(mov, bool) or not isinstance(mov, int) or mov < 1:
        raise InvalidCommand("mov", "must be a whole number, 1 or more")
    if not 0 <= reduction < 1:
        raise InvalidCommand("reduction", "must be at least 0 and less than 1")
    return max(1, math.floor(mov * (1 - Fraction(reduction)) + Fraction(1, 2)))


# -- Build -----------------------------------------------------------------------------------------

BUILD_NOTES = f'{CHASES} "{CHARTS_HEADING}" (notes: Build)'
HIT_POINTS_PER_BUILD = 10  # "Each full 10 hit points of damage decreases a vehicle's build by 1 point"


def as_build(value: object) -> Fraction:
    """Read a Build such as 5, "5", "0.5" or 0.5 exactly."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Fraction, Decimal)):
        raise InvalidCommand("build", "must be a number such as 5 or 0.5")
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        raise InvalidCommand("build", f"{value!r} is not a number such as 5 or 0.5") from None


def build_text(build: BuildValue) -> str:
    """Build as printed: "5", "0.5"."""
    value = Fraction(build)
    if value.denominator == 1:
        return str(value.numerator)
    return str(Decimal(value.numerator) / Decimal(value.denominator))


def full_points(build: BuildValue) -> int:
    """The whole points of a Build, for rules that count per point (0.5 counts as 0)."""
    return max(0, math.floor(build))


def damage_dice(build: BuildValue) -> str:
    """"Treat the vehicle as a weapon that inflicts 1D10 damage per point of build" (also
    "Breaking Down Barriers"); "0" when the vehicle has no full point of Build."""
    points = full_points(build)
    return f"{points}D10" if points else "0"


def build_lost_to(hit_points: int) -> int:
    """Whole Build points lost to one incident's hit points; the rest below 10 is ignored."""
    if isinstance(hit_points, bool) or not isinstance(hit_points, int) or hit_points < 0:
        raise InvalidCommand("damage", "must be a whole number of hit points, 0 or more")
    return hit_points // HIT_POINTS_PER_BUILD


STATUSES = ("sound", "impaired", "undrivable", "wrecked")


@dataclass(frozen=True)
class VehicleBuild:
    """A vehicle's Build in a chase: its starting Build and the whole points lost since."""

    starting: Fraction
    lost: int = 0
    wrecked: bool = False

    @property
    def current(self) -> Fraction:
        return max(self.starting - self.lost, Fraction(0))

    @property
    def status(self) -> str:
        if self.wrecked:
            return "wrecked"
        if self.current == 0:
            return "undrivable"
        # "reduced to half (round down) of its starting value or lower, it is impaired"
        if self.current <= math.floor(self.starting / 2):
            return "impaired"
        return "sound"

    @property
    def penalty_dice(self) -> int:
        """Penalty dice on its driving rolls: one while impaired."""
        return 1 if self.status == "impaired" else 0

    @property
    def drivable(self) -> bool:
        return self.status in ("sound", "impaired")


def starting_build(build: object) -> VehicleBuild:
    """A fresh vehicle of the given Build (more than 0: "When reduced to zero ... out of action")."""
    value = build if isinstance(build, Fraction) else as_build(build)
    if value <= 0:
        raise InvalidCommand("build", "a vehicle's Build must be more than 0")
    return VehicleBuild(value)


@dataclass(frozen=True)
class BuildLoss:
    """What one incident did to a vehicle's Build."""

    build_before: Fraction
    build_lost: int  # whole points taken off (never more than it had left)
    build_after: Fraction
    status_before: str
    status_after: str
    state: VehicleBuild
    hit_points: int | None = None  # the damage in hit points, when the loss came from hit points

    @property
    def wrecked(self) -> bool:
        return self.status_after == "wrecked" and self.status_before != "wrecked"

    @property
    def made_undrivable(self) -> bool:
        return self.status_after == "undrivable" and self.status_before != "undrivable"


def lose_build(state: VehicleBuild, points: int, hit_points: int | None = None) -> BuildLoss:
    """Take ``points`` of Build in one incident (a collision's Build dice, or converted damage).

    Notes under the charts: losing at least the vehicle's full (starting) Build "in one incident"
    wrecks it; reaching zero otherwise, "by cumulative damage", leaves it undrivable.
    """
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise InvalidCommand("build_lost", "must be a whole number of Build points, 0 or more")
    taken = min(points, math.ceil(state.current))
    wrecked = state.wrecked or (points > 0 and points >= state.starting)
    after = replace(state, lost=state.lost + taken, wrecked=wrecked)
    return BuildLoss(state.current, taken, after.current, state.status, after.status, after, hit_points)


def take_damage(state: VehicleBuild, hit_points: int) -> BuildLoss:
    """Hit points of damage in one incident: each full 10 is a point of Build, the rest ignored."""
    return lose_build(state, build_lost_to(hit_points), hit_points)


def wreck(state: VehicleBuild) -> BuildLoss:
    """Wrecked outright whatever its Build ("Breaking Down Barriers": failing to destroy one)."""
    after = replace(state, lost=state.lost + math.ceil(state.current), wrecked=True)
    return BuildLoss(state.current, math.ceil(state.current), after.current, state.status, after.status, after)


# -- Occupants -------------------------------------------------------------------------------------

# Notes under the charts: when wrecked, "All occupants ... are likely to die. Whether or not
# investigators have a chance of survival is up to the Keeper ... Those who are fortunate get
# thrown free, though it is recommended they take at least 2D10 damage."
WRECK_FATES = ("thrown free", "killed")
THROWN_FREE_DAMAGE = "2D10"
# "... undrivable ... this may lead to an accident resulting in 1D10 damage for the driver and
# each passenger": whether there is an accident is the Keeper's call, with no default.
UNDRIVABLE_ACCIDENT_DAMAGE = "1D10"


@dataclass(frozen=True)
class OccupantFate:
    fate: str
    damage: str | None  # dice each such occupant takes in hit points; None when killed


def wreck_fate(fate: str = "thrown free", damage: str = THROWN_FREE_DAMAGE) -> OccupantFate:
    """An occupant's fate when the vehicle is wrecked, as the Keeper rules (Luck rolls allowed)."""
    if fate not in WRECK_FATES:
        raise InvalidCommand("fate", f"must be one of {', '.join(WRECK_FATES)} ({BUILD_NOTES})")
    return OccupantFate(fate, damage if fate == "thrown free" else None)


def undrivable_accident(accident: bool, damage: str = UNDRIVABLE_ACCIDENT_DAMAGE) -> str | None:
    """Dice each occupant takes when the Keeper rules that grinding to a halt was an accident."""
    return damage if accident else None
