"""Establishing the chase and cutting to it: coc7e-chases.txt parts 1 and 2.

- "Speed Roll": CON on foot, the driving skill for drivers; extreme +1 MOV, failure -1 MOV.
- "Compare speeds": the quarry escapes when faster than the pursuer.
- "Cut to the chase": pursuer two locations behind (one by the Keeper's choice).
- "Chases with Multiple Characters": who escapes, who is left behind, and placement.
"""
from __future__ import annotations

from dataclasses import dataclass, field

# coc7e-chases.txt "Speed Roll": a critical is at least an extreme success, a fumble a failure.
SPEED_ROLL_MOV_CHANGE = {
    "critical": +1,
    "extreme": +1,
    "hard": 0,
    "regular": 0,
    "failure": -1,
    "fumble": -1,
}
DEFAULT_OPENING_RANGE = 2  # "Cut to the chase": the Keeper would normally set two locations
OPENING_RANGES = (1, 2)  # ... may reduce it to one; "advised not to set the range beyond two"


@dataclass
class Establishment:
    """Where everyone starts, who escaped at once and which pursuers were left behind."""

    placements: dict[str, int] = field(default_factory=dict)
    escaped: list[str] = field(default_factory=list)
    left_behind: list[str] = field(default_factory=list)

    @property
    def chase_is_on(self) -> bool:
        return any(True for _ in self.placements)


def establish(
    pursuers: dict[str, int],
    quarries: dict[str, int],
    opening_range: int = DEFAULT_OPENING_RANGE,
    staying: frozenset[str] | set[str] = frozenset(),
) -> Establishment:
    """Place pursuers and quarries by adjusted MOV ("Chases with Multiple Characters")."""
    result = Establishment()
    if not pursuers:
        result.escaped = sorted(quarries, key=lambda q: quarries[q])
        return result
    fastest_pursuer = max(pursuers.values())
    # "Any fleeing characters who are faster than their fastest pursuer may escape the chase
    # entirely if they wish to": escaping is the default, staying is the player's choice.
    remaining_quarries = {}
    for quarry, mov in quarries.items():
        if mov > fastest_pursuer and quarry not in staying:
            result.escaped.append(quarry)
        else:
            remaining_quarries[quarry] = mov
    if not remaining_quarries:
        return result
    slowest_quarry = min(remaining_quarries.values())
    # "Any pursuers who are slower than the slowest fleeing character are left behind".
    remaining_pursuers = {}
    for pursuer, mov in pursuers.items():
        if mov < slowest_quarry:
            result.left_behind.append(pursuer)
        else:
            remaining_pursuers[pursuer] = mov
    if not remaining_pursuers:
        result.escaped.extend(remaining_quarries)
        return result
    # 1. "Place the pursuers": the slowest at the back, the others ahead by MOV difference.
    slowest_pursuer = min(remaining_pursuers.values())
    for pursuer, mov in remaining_pursuers.items():
        result.placements[pursuer] = mov - slowest_pursuer
    foremost = max(result.placements.values())
    # 2. "Place the fleeing characters": the slowest two (or one) ahead of the foremost pursuer.
    for quarry, mov in remaining_quarries.items():
        result.placements[quarry] = foremost + opening_range + (mov - slowest_quarry)
    return result
