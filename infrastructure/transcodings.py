"""JSON transcodings for the value objects kept in chase events and snapshots (the core's and
every registered system's: GameSystem.value_types), and the mapper that keeps an upcast event's
record as first written.

Names are stable strings, not module paths, so moving a class never breaks a stored snapshot.
A value object's shape has a schema version like an event's (DESIGN.md 3): the dataclass's
``class_version`` (1 when not given), written into the encoded dict as ``class_version`` when
above 1, as eventsourcing does for events and snapshots; absent, it is 1. An older encoding is
brought up to date by the dataclass's ``upcast_vN_vN+1`` static methods before the dataclass is
made, so a changed value object never needs stored history rewritten.
"""
from __future__ import annotations

import dataclasses
from contextvars import ContextVar
from typing import Any, Sequence

from eventsourcing.domain import CanSnapshotAggregate
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, Mapper, StoredEvent, Transcoding

from application.plugins import GameSystem
from domain.chain import AS_RECORDED, recorded_data
from domain.json_encoding import encoder_made_once, isoformat
from domain.track import Track

VERSION_KEY = "class_version"
# Set while one stored event is decoded: whether a value in it was upcast (RecordKeepingMapper);
# and, while its record as first written is read back, that values are to stay as written.
_upcast_seen: ContextVar[bool] = ContextVar("upcast_seen", default=False)
_as_written: ContextVar[bool] = ContextVar("as_written", default=False)


class DataclassAsDict(Transcoding):
    """A dataclass stored as the dict of its fields, with its schema version when above 1."""

    def __init__(self, cls: type, name: str) -> None:
        self.type = cls
        self.name = name

    @property
    def class_version(self) -> int:
        return getattr(self.type, "class_version", 1)

    def encode(self, obj: Any) -> dict[str, Any]:
        data = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
        if self.class_version > 1:
            data[VERSION_KEY] = self.class_version
        return data

    def decode(self, data: dict[str, Any]) -> Any:
        version = data.pop(VERSION_KEY, 1)  # data is the transcoder's own fresh dict: changed in place
        if _as_written.get():
            return data  # the value as its record showed it when written (RecordKeepingMapper)
        if version > self.class_version:
            raise ValueError(f"a stored {self.name} of schema {version} is newer than this code's (schema {self.class_version})")
        if version < self.class_version:
            _upcast_seen.set(True)
            for step in range(version, self.class_version):
                getattr(self.type, f"upcast_v{step}_v{step + 1}")(data)
        return self.type(**data)


class KeptDatetimeAsISO(DatetimeAsISO):
    """eventsourcing's datetime transcoding (the same name, the same text), the text of an
    event's timestamp written once a command: its hash took it already (domain/json_encoding.py)."""

    def encode(self, obj: Any) -> str:
        return isoformat(obj)


class ChaseTranscoder(JSONTranscoder):
    """eventsourcing's JSON transcoder, its encoder's C part made once: ``JSONEncoder.encode``
    makes one (and its closures) for every event and snapshot saved. The same encoder with the
    same arguments writes the same bytes; it leaves out the check for a value that holds itself,
    which an event's state never does."""

    def __init__(self) -> None:
        super().__init__()
        self._encode = encoder_made_once(self.encoder)

    def encode(self, obj: Any) -> bytes:
        return self._encode(obj).encode("utf8")

    def register(self, transcoding: Transcoding) -> None:
        """eventsourcing's datetime transcoding (every event's timestamp) as KeptDatetimeAsISO."""
        super().register(KeptDatetimeAsISO() if type(transcoding) is DatetimeAsISO else transcoding)


class RecordKeepingMapper(Mapper):
    """eventsourcing's Mapper, but an event holding a value object of an older shape keeps its
    record as first written (domain/chain.py AS_RECORDED), so that its hash still checks out.

    An event class's own upcasters keep the record themselves (domain/chain.py keeps_record):
    only this mapper sees a value object being upcast inside the transcoder.
    """

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        token = _upcast_seen.set(False)
        try:
            event = super().to_domain_event(stored_event)
            values_upcast = _upcast_seen.get()
        finally:
            _upcast_seen.reset(token)
        if values_upcast and not isinstance(event, CanSnapshotAggregate):  # a snapshot has no record
            vars(event)[AS_RECORDED] = self.record_as_written(stored_event)
        return event

    def record_as_written(self, stored_event: StoredEvent) -> dict[str, Any]:
        """The data of the event's record as first written: its stored state, values unchanged."""
        state = stored_event.state
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        token = _as_written.set(True)
        try:
            decoded = self.transcoder.decode(state)
        finally:
            _as_written.reset(token)
        decoded.pop(VERSION_KEY, None)
        return recorded_data(decoded)


def transcodings(systems: Sequence[GameSystem]) -> list[Transcoding]:
    """The core's value types and those of every system."""
    found: list[Transcoding] = [DataclassAsDict(Track, "core.Track")]
    for plugin in systems:
        found += [DataclassAsDict(cls, name) for name, cls in plugin.value_types.items()]
    return found
