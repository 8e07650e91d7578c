"""The optional hit locations: "Rather than using Luck to determine if an armored part of the body
has been hit, roll 1D20 and consult the table" (coc7e-combat.txt "Optional Hit Locations").

Armor covering some locations only (a helmet: the head) counts against a blow that lands there.
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e.errors import InvalidCommand

COMBAT = "coc7e-combat.txt"
HIT_LOCATIONS = f'{COMBAT} "Optional Hit Locations"'
DIE = "1D20"
# (highest roll, location), as printed: 1-3, 4-6, 7-10, 11-15, 16-17, 18-19, 20.
TABLE = ((3, "right leg"), (6, "left leg"), (10, "abdomen"), (15, "chest"), (17, "right arm"), (19, "left arm"), (20, "head"))
LOCATIONS = tuple(name for _, name in TABLE)


def location_of(roll: int) -> str:
    """The location a 1D20 roll names."""
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 20:
        raise InvalidCommand("rolls.location", "a 1D20 roll is 1 to 20")
    return next(name for top, name in TABLE if roll <= top)


def check(covered: Any, armor_luck: int | None) -> tuple[str, ...] | None:
    """The locations the target's worn armor covers, when the optional rule is used (None: not)."""
    if covered is None:
        return None
    if isinstance(covered, str) or not isinstance(covered, (list, tuple)) or not all(isinstance(c, str) for c in covered):
        raise InvalidCommand("hit_locations", f"a list of the locations the armor covers: {', '.join(LOCATIONS)}")
    unknown = [c for c in covered if c not in LOCATIONS]
    if unknown or len(set(covered)) != len(covered):
        raise InvalidCommand("hit_locations", f"each of {', '.join(LOCATIONS)} at most once, not {', '.join(unknown) or 'twice'}")
    if armor_luck is not None:
        raise InvalidCommand("hit_locations", "hit locations are rolled instead of the Luck roll for armor (armor_luck): give one of them")
    return tuple(covered)
