"""JSON transcodings for the value objects kept in chase snapshots: the core's and every
registered system's (GameSystem.value_types).

Names are stable strings, not module paths, so moving a class never breaks a stored snapshot.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Sequence

from eventsourcing.persistence import Transcoding

from application.plugins import GameSystem
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


def transcodings(systems: Sequence[GameSystem]) -> list[Transcoding]:
    """The core's value types and those of every system."""
    found: list[Transcoding] = [DataclassAsDict(Track, "core.Track")]
    for plugin in systems:
        found += [DataclassAsDict(cls, name) for name, cls in plugin.value_types.items()]
    return found
