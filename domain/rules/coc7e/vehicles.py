"""What damage does to a vehicle's Build (coc7e-chases.txt "Vehicle Reference Charts", the notes
under the charts; the charts themselves are vehicle_charts.py's).

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
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction

from domain.rules.coc7e.errors import CHASES, InvalidCommand
from domain.rules.coc7e.vehicle_charts import CHARTS_HEADING

BuildValue = int | Fraction


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
