"""Dice, the dice-source port, and table dice entered by a person (DESIGN.md section 4)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence


@dataclass(frozen=True)
class Die:
    """One die: a plain dN, or the tens or units die of a percentile roll."""

    sides: int
    kind: str = "standard"  # "standard" | "tens" | "units"

    def face(self, index: int) -> int:
        """The face shown for index 0..sides-1 (how a derived number becomes a face)."""
        if self.kind == "tens":
            return index * 10
        if self.kind == "units":
            return index
        return index + 1

    def faces(self) -> range:
        if self.kind == "tens":
            return range(0, 100, 10)
        if self.kind == "units":
            return range(0, 10)
        return range(1, self.sides + 1)

    @property
    def label(self) -> str:
        if self.kind == "tens":
            return "d100 tens"
        if self.kind == "units":
            return "d100 units"
        return f"d{self.sides}"


TENS = Die(10, "tens")
UNITS = Die(10, "units")


def D(sides: int) -> Die:
    """A plain die with faces 1..sides, as the rules write 1D6."""
    return Die(sides)


@dataclass(frozen=True)
class Draw:
    """The faces a dice source gave for one roll, and how they were produced."""

    faces: tuple[int, ...]
    provenance: dict[str, Any] = field(default_factory=dict)


class DiceSource(Protocol):
    """Where dice faces come from: server dice or table dice."""

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        """Faces for roll number ``sequence`` of the chase, one per die, in order."""
        ...


class InvalidTableDice(ValueError):
    """Faces entered for table dice do not fit the roll (count or range)."""


class TableDice:
    """Faces of physical dice entered by a person, checked against the roll's dice."""

    def __init__(self, faces: Sequence[int], entered_by: str = "keeper") -> None:
        self.entered = list(faces)
        self.entered_by = entered_by

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        if len(self.entered) != len(dice):
            wanted = ", ".join(d.label for d in dice)
            raise InvalidTableDice(
                f"this roll takes {len(dice)} dice ({wanted}); {len(self.entered)} faces were entered"
            )
        for position, (face, die) in enumerate(zip(self.entered, dice)):
            if isinstance(face, bool) or not isinstance(face, int) or face not in die.faces():
                allowed = f"{die.faces()[0]}..{die.faces()[-1]}"
                if die.kind == "tens":
                    allowed = "00, 10, ..., 90"
                raise InvalidTableDice(
                    f"face {face!r} at position {position} is not a face of a {die.label} ({allowed})"
                )
        return Draw(tuple(self.entered), {"kind": "table", "entered_by": self.entered_by})
