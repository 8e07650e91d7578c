"""Tamper evidence: each chase's events form a hash chain over a canonical encoding (DESIGN.md 6).

An event's record is what a client reads in the chase's log and export: chase id, version, type
(the event's stable topic), time recorded, and its data. The record is encoded canonically
(JSON, sorted keys, no spaces, UTF-8) and hashed with SHA-256; every event carries the hash of
the event before it in ``previous_hash``. The offline verifier uses this same module.

The record is the event as it was first written, whatever upcasting (DESIGN.md 3) later does to
its shape on load: an event upcast on load keeps its first record under AS_RECORDED, and that is
what its hash and the log show. So a new event version never breaks the chain of old events.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
from datetime import datetime
from typing import Any, Callable
from uuid import UUID

GENESIS = "0" * 64  # the "previous hash" of a chase's first event
ENVELOPE = ("originator_id", "originator_version", "timestamp", "originator_topic")
# Where an event upcast on load keeps the data of its record as first written (set by the event
# upcasters, domain/recorded_chase.py, and by the value-object transcodings' mapper, infrastructure/).
AS_RECORDED = "_as_recorded"


def jsonable(value: Any) -> Any:
    """The JSON form of a value as the log shows it: ids and times as text, objects as dicts."""
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def recorded_data(state: dict[str, Any]) -> dict[str, Any]:
    """The data part of a record, from an event's state (its attributes, or its stored state)."""
    return jsonable({k: v for k, v in state.items() if k not in ENVELOPE and k != AS_RECORDED})


def keeps_record(step: Callable[[dict[str, Any]], None]) -> Any:
    """An event upcaster that keeps the event's record as first written (its hash covers that).

    The first step run on a loaded event keeps the record, before anything changes its shape.
    """

    @functools.wraps(step)
    def upcast(state: dict[str, Any]) -> None:
        if AS_RECORDED not in state:
            state[AS_RECORDED] = recorded_data(state)
        step(state)

    upcast.keeps_record = True  # type: ignore[attr-defined]  # checked for every event upcaster by the tests
    return staticmethod(upcast)


def record_of(event: Any) -> dict[str, Any]:
    """The record of a domain event, as the chase's log and export show it: as first written."""
    state = vars(event)
    data = state[AS_RECORDED] if AS_RECORDED in state else recorded_data(state)
    return {
        "chase_id": str(event.originator_id),
        "version": event.originator_version,
        "type": type(event).TOPIC,
        "recorded_at": event.timestamp.isoformat(),
        "data": data,
    }


def canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def hash_record(record: dict[str, Any]) -> str:
    """SHA-256 of a record's canonical encoding (a "hash" key, if present, is not part of it)."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(canonical(body)).hexdigest()


def hash_event(event: Any) -> str:
    return hash_record(record_of(event))
