"""Tamper evidence: each chase's events form a hash chain over a canonical encoding (DESIGN.md 6).

An event's record is what a client reads in the chase's log and export: chase id, version, type
(the event's stable topic), time recorded, and its data. The record is encoded canonically and
hashed with SHA-256; every event carries the hash of the event before it in ``previous_hash``.
The offline verifier uses this same module; VERIFYING.md specifies it byte for byte.

Two canonical encodings exist, and a chase keeps the one it was created with for its whole life,
so stored history is never re-hashed. Its first event names it: ``chain_encoding`` in the data of
Created (class_version 2); a Created first written without it (class_version 1) is of a chase
chained with ``sorted-json``, which its upcaster says. Why the first event and not each event:
the encoding is a property of the chain, not of an event (a chain that switched encodings half-way
would need a verifier to trust each event's own word on how to hash it), and the first event's
hash covers the name, so changing it breaks the link to event 2.

- ``sorted-json`` (chains of chases created before it was replaced): Python's
  ``json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` in UTF-8. Keys
  sort by code point and numbers are written as Python writes them, which a verifier in another
  language can only imitate.
- ``jcs`` (every chase created since): RFC 8785, the JSON Canonicalization Scheme (domain/jcs.py),
  which JSON.stringify and libraries in every language implement.

The record is the event as it was first written, whatever upcasting (DESIGN.md 3) later does to
its shape on load: an event upcast on load keeps its first record under AS_RECORDED, and that is
what its hash and the log show. So a new event version never breaks the chain of old events.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
from datetime import datetime
from typing import Any, Callable
from uuid import UUID

from domain.jcs import canonicalize, plain_json, sorted_compact
from domain.json_encoding import id_text, isoformat

GENESIS = "0" * 64  # the "previous hash" of a chase's first event
SORTED_JSON = "sorted-json"  # the encoding of chains begun before JCS: their Created names none
JCS = "jcs"  # RFC 8785: the encoding of every chain begun since
ENCODING_FIELD = "chain_encoding"  # where a chase's first event names its chain's encoding
ENVELOPE = ("originator_id", "originator_version", "timestamp", "originator_topic")
# Where an event upcast on load keeps the data of its record as first written (set by the event
# upcasters, domain/recorded_chase.py, and by the value-object transcodings' mapper, infrastructure/).
AS_RECORDED = "_as_recorded"


def jsonable(value: Any) -> Any:
    """The JSON form of a value as the log shows it: ids and times as text, objects as dicts."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or kind is float or value is None:
        return value  # (most of a record: asked first, by exact type, as every event is hashed)
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
        "recorded_at": isoformat(event.timestamp),
        "data": data,
    }


def sorted_json(record: dict[str, Any]) -> bytes:
    return sorted_compact(record).encode()


ENCODINGS: dict[str, Callable[[Any], bytes]] = {SORTED_JSON: sorted_json, JCS: canonicalize}


def canonical(record: dict[str, Any], encoding: str = JCS) -> bytes:
    """A record's canonical bytes in the chain encoding ``encoding``."""
    return ENCODINGS[encoding](record)


def encoding_named_by(first_data: dict[str, Any]) -> str:
    """The chain encoding a chase's first event names in its data, as first written."""
    return first_data.get(ENCODING_FIELD, SORTED_JSON)


def hash_record(record: dict[str, Any], encoding: str = JCS) -> str:
    """SHA-256 of a record's canonical encoding (a "hash" key, if present, is not part of it)."""
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(canonical(body, encoding)).hexdigest()


def hash_event(event: Any, encoding: str) -> str:
    """The hash of an event's record (``hash_record(record_of(event), encoding)``). Most records
    (every event a command makes) hold JSON values already, which either encoding writes as
    ``sorted_compact`` does: those are hashed without their JSON form made first
    (``jsonable``) and looked through a second time (domain/jcs.py ``canonicalize``)."""
    state = vars(event)
    if AS_RECORDED not in state:
        data = state.copy()  # (copied in C, the envelope taken out after: the data's order is not hashed)
        for name in ENVELOPE:
            data.pop(name, None)
        record = {
            "chase_id": id_text(event.originator_id),
            "version": event.originator_version,
            "type": type(event).TOPIC,
            "recorded_at": isoformat(event.timestamp),
            "data": data,
        }
        if plain_json(record):
            try:
                return hashlib.sha256(sorted_compact(record).encode("utf-8")).hexdigest()
            except UnicodeEncodeError:
                pass  # a lone surrogate: refused below, as each encoding refuses it
    return hash_record(record_of(event), encoding)
