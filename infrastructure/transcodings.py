"""JSON transcodings for the value objects kept in chase snapshots.

Names are stable strings, not module paths, so moving a class never breaks a stored snapshot.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from eventsourcing.persistence import Transcoding

from domain.rules.coc7e.participants import Participant
from domain.rules.savage_worlds.conditions import Conditions
from domain.rules.savage_worlds.participants import SavageParticipant
from domain.rules.savage_worlds.swade_vehicles import VehicleState
from domain.track import Track


class DataclassAsDict(Transcoding):
    """A dataclass stored as the dict of its fields."""

    def __init__(self, cls: type, name: str) -> None:
        self.type = cls
        self.name = name

    def encode(self, obj: Any) -> dict[str, Any]:
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}

    def decode(self, data: dict[str, Any]) -> Any:
        return self.type(**data)


TRANSCODINGS = [
    DataclassAsDict(Participant, "coc7e.Participant"),
    DataclassAsDict(Track, "core.Track"),
    DataclassAsDict(SavageParticipant, "savage_worlds.Participant"),
    DataclassAsDict(Conditions, "savage_worlds.Conditions"),
    DataclassAsDict(VehicleState, "savage_worlds.VehicleState"),
]
