"""A track of locations in a row and who stands where: shared by every chase system."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Track:
    """Locations 0..length-1 from the back of the chase to the front; positions by participant."""

    length: int = 0
    positions: dict[str, int] = field(default_factory=dict)

    def place(self, participant_id: str, location: int) -> None:
        self.positions[participant_id] = location
        self.length = max(self.length, location + 1)

    def remove(self, participant_id: str) -> None:
        self.positions.pop(participant_id, None)

    def location_of(self, participant_id: str) -> int | None:
        return self.positions.get(participant_id)

    def occupants(self, location: int) -> list[str]:
        return [pid for pid, loc in self.positions.items() if loc == location]
