"""Movement by difficulty: each type's rate, the difficulty of a distance, and what a total allows
(d6-movement.txt, every rule cited where it is encoded). Pure functions of numbers: no chase.

Distances are metres, whole or half ("2.5 meters in the water", "Short Distances"): every rate is
a whole number of metres and half a rate is the most the rules halve, so sums stay exact.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from domain.rules.d6.errors import InvalidValue, rule

MAX_METRES = 100000  # a course longer than 100 km is no chase
# "Movement Difficulty Modifiers": the terrain table, as data; "+25 or more" takes a modifier.
TERRAIN = {
    "easy": 0,  # flat surface, smooth water, using a ladder, light breeze, light rain or fog
    "moderate": 5,  # uneven surface, small obstacles, choppy water, climbing a tree, strong winds, heavy rain or fog
    "rough": 10,  # large but negotiable obstacles, strong undercurrent, climbing a rough wall, pillars and trees to flight
    "very rough": 15,  # dense and large obstacles, stormy weather, a few airborne hazards, hail
    "hazardous": 20,  # minefield, narrow walkway, many airborne hazards, large waves, climbing a smooth surface, complete darkness
    "very hazardous": 25,  # falling debris and explosions, swimming or flying in a hurricane: "+25 or more"
}
FATIGUE_STEP = 3  # "Fatigue": +3 to the difficulty per round beyond the limit, cumulative
FATIGUE_BASE = 5  # "Fatigue": stamina or willpower against a base difficulty of 5 plus the modifier
RUNNING_START_BONUS = 5  # "Leaping": +5 to the skill total per round of running start ...
RUNNING_START_ROUNDS = 2  # ... up to a maximum of +10 (two rounds)
SPEED_LIMIT = 4  # "Maximum Movement": the GM may limit each type to 4 times its Move


@dataclass(frozen=True)
class MovementType:
    """One type of movement: its base difficulty, and what raises it by how much.

    A rate beyond the base rate costs ``increase`` per ``step`` metres (rounded up): a whole
    movement (the base rate itself) for running, swimming and flying, half the base climbing
    Move for climbing, two metres for leaping.
    """

    name: str
    base_difficulty: int
    increase: int
    source: str
    rate: bool = True  # a rate per round (acceleration applies); a leap is one jump


MOVEMENT = {
    "running": MovementType("running", 0, 5, rule("What's in this Chapter", "running")),  # "add 5 to the base difficulty of zero"
    "swimming": MovementType("swimming", 5, 5, rule("What's in this Chapter", "swimming")),  # "the base difficulty of 5 by +5"
    "climbing": MovementType("climbing", 5, 10, rule("What's in this Chapter", "climbing")),  # "base difficulty of 5"
    # Flying has a Move of its own ("Short Distances": swimming, flying, or base Move) and no
    # procedure of its own in the text: it is read as running is, movement by movement.
    "flying": MovementType("flying", 0, 5, rule("Short Distances", "a flying Move, moved as running is")),
    "leaping": MovementType("leaping", 5, 10, rule("What's in this Chapter", "leaping"), rate=False),
}
MOVEMENT_TYPES = tuple(MOVEMENT)


def metres(value: Any, field_name: str, *, minimum: float = 0) -> int | float:
    """A distance in whole or half metres (an int when whole), within the course's bounds."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidValue(field_name, f"must be a number of metres, not {value!r}")
    if value * 2 != int(value * 2):
        raise InvalidValue(field_name, "distances are whole or half metres")
    if not minimum <= value <= MAX_METRES:
        raise InvalidValue(field_name, f"must be from {minimum} to {MAX_METRES} metres, not {value}")
    return whole_or_half(value)


def whole_or_half(value: float) -> int | float:
    return int(value) if value == int(value) else float(value)


def base_rate(movement: str, move: int, flying_move: int | None = None, climbing_skill: bool = False) -> int | None:
    """The rate one movement covers (None: the participant cannot move so)."""
    if movement == "running":
        return move  # "One movement equals the character's Move value"
    if movement == "swimming":
        return math.ceil(move / 2)  # "half his normal Move (rounded up)"
    if movement == "climbing":
        # "Characters who have the climbing skill can move up a surface at their normal Move ...
        # Those without such a skill move at half their normal movement rate" (rounded up, as
        # the example's 10 m gives 5 m).
        return move if climbing_skill else math.ceil(move / 2)
    if movement == "flying":
        return flying_move
    if movement == "leaping":
        return math.ceil(move / 4)  # "one-quarter of his Move in meters (rounded up)"
    raise InvalidValue("movement", f"is one of {', '.join(MOVEMENT_TYPES)}")


def step(movement: str, base: int) -> int:
    """Metres each increase of the difficulty buys beyond the base rate."""
    if movement == "climbing":
        return math.ceil(base / 2)  # "each additional one-half of the base climbing Move (rounded up)"
    if movement == "leaping":
        return 2  # "+10 for each additional two meters"
    return base  # "For each movement beyond the first, add 5"


def steps_beyond(movement: str, base: int, distance: float) -> int:
    """How many increases a distance costs: movements beyond the first, half-Moves, two metres."""
    if distance <= base:
        return 0
    return math.ceil((distance - base) / step(movement, base))


def difficulty(movement: str, base: int, distance: float) -> int:
    """The difficulty of covering ``distance`` in a round (or one leap), before modifiers.

    Running: 20 m at Move 10 is 5, 40 m is 15; swimming at twice the swimming Move is 10; the
    tree climb without the skill (base climbing Move 5) to 8 m adds 10 (the worked examples).
    """
    kind = MOVEMENT[movement]
    return kind.base_difficulty + kind.increase * steps_beyond(movement, base, distance)


def farthest(movement: str, base: int, reached: int) -> int:
    """The farthest distance whose difficulty (before modifiers) is ``reached`` or less; 0 when
    even one movement is beyond it."""
    kind = MOVEMENT[movement]
    if reached < kind.base_difficulty:
        return 0
    return base + step(movement, base) * ((reached - kind.base_difficulty) // kind.increase)


def free_distance(base: int) -> float:
    """"Short Distances": up to 50% of the movement rate without it counting as an action."""
    return whole_or_half(base / 2)


def acceleration_limits(current: float, base: int) -> tuple[float, float]:
    """"Accelerating and Decelerating": the slowest and fastest rate this round from ``current``.

    "A character may increase or decrease his current movement rate by up to 2 times that rate
    ... The minimum increase or decrease is 2 times the character's base Move." The thief example
    decides the reading: from 20 m (Move 10) she "can increase her speed to 40 meters" and no
    more, so the rate may double (or halve), and change by 2 x base Move when that is more.
    """
    fastest = max(2 * current, current + 2 * base)
    slowest = max(0, min(current / 2, current - 2 * base))
    return whole_or_half(slowest), whole_or_half(fastest)


def slowed(current: float, base: int) -> float:
    """A failed roll to hold the previous rate: "subtract two times the base Move" (zero: stops;
    below zero: trips)."""
    return whole_or_half(current - 2 * base)


def terrain_modifier(stretches: list[dict[str, Any]], start: float, end: float) -> tuple[int, str | None]:
    """The worst terrain modifier over the stretches the path [start, end] crosses, and its name."""
    worst, name = 0, None
    low, high = min(start, end), max(start, end)
    for stretch in stretches:
        if stretch["from"] <= high and stretch["to"] >= low and (name is None or stretch["modifier"] > worst):
            worst, name = stretch["modifier"], stretch["terrain"]
    return worst, name


def fatigue_modifier(fast_rounds: int, limit: int | None) -> int:
    """"Fatigue": +3 for each round of fast movement beyond the limit the GM set, cumulative."""
    if limit is None:
        return 0
    return FATIGUE_STEP * max(0, fast_rounds - limit)
