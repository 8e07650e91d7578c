"""Tamper evidence: each chase's events form a hash chain over a canonical encoding (DESIGN.md 6).

An event's record is what a client reads in the chase's log and export: chase id, version, type
(the event's stable topic), time recorded, and its data. The record is encoded canonically
(JSON, sorted keys, no spaces, UTF-8) and hashed with SHA-256; every event carries the hash of
the event before it in ``previous_hash``. The offline verifier uses this same module.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import datetime
from typing import Any
from uuid import UUID

GENESIS = "0" * 64  # the "previous hash" of a chase's first event
ENVELOPE = ("originator_id", "originator_version", "timestamp", "originator_topic")


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


def record_of(event: Any) -> dict[str, Any]:
    """The record of a domain event, as the chase's log and export show it."""
    data = {k: v for k, v in vars(event).items() if k not in ENVELOPE}
    return {
        "chase_id": str(event.originator_id),
        "version": event.originator_version,
        "type": type(event).TOPIC,
        "recorded_at": event.timestamp.isoformat(),
        "data": jsonable(data),
    }


def canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def hash_record(record: dict[str, Any]) -> str:
    """SHA-256 of a record's canonical encoding (a "hash" key, if present, is not part of it)."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(canonical(body)).hexdigest()


def hash_event(event: Any) -> str:
    return hash_record(record_of(event))
