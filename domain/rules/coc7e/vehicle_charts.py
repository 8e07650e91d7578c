"""The vehicles of coc7e-chases.txt "Vehicle Reference Charts": each chart's rows as printed, the
skill that drives them, and their MOV in the 1920s.

Build is kept as printed (text: "0.5" for the bicycle) and read exactly as a Fraction; what
damage does to it is vehicles.py's.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from domain.rules.coc7e.errors import CHASES, InvalidCommand

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

