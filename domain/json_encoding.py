"""A JSON encoder's ``encode`` with its C encoder made once, for the encoders every command uses
(the hash chain's sorted JSON, domain/jcs.py; the dice derivation's, domain/dice/derivation.py;
the events' transcoder, infrastructure/transcodings.py); and a datetime's ISO text and a chase id's text, kept.

``json.JSONEncoder.encode`` makes a new C encoder (and a closure or two) on every call: a third
of the time it takes on an event's record. Made once here with the same arguments that
``JSONEncoder.iterencode`` passes, it writes the same text. It leans on CPython's own
``json.encoder.c_make_encoder`` and the order of its arguments, which the standard library does
not document: tests/unit/test_jcs.py and tests/unit/test_chase_transcoder.py compare the text
with ``json.dumps``'s and eventsourcing's on arbitrary values, so a Python that changes them
fails there first. Without the C accelerator it is ``encode`` itself.
"""
from __future__ import annotations

import json
from datetime import datetime
from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any, Callable
from uuid import UUID


def encoder_made_once(e: json.JSONEncoder) -> Callable[[Any], str]:
    """``e.encode`` with its C encoder made once; without the check for a value that holds
    itself, which a record (JSON, read from an event) never does."""
    if c_make_encoder is None or e.indent is not None:  # (no C accelerator, or indented: the standard library's way)
        return e.encode
    strings = encode_basestring_ascii if e.ensure_ascii else encode_basestring
    encoder = c_make_encoder(None, e.default, strings, None, e.key_separator, e.item_separator, e.sort_keys, e.skipkeys, e.allow_nan)
    return lambda value: "".join(encoder(value, 0))


_ISO_KEPT = 256  # datetimes whose text is kept
_iso: dict[int, tuple[datetime, str]] = {}


def isoformat(moment: datetime) -> str:
    """``moment.isoformat()``, kept for the last few datetimes asked of: an event's timestamp is
    written four or five times a command (its record's hash, its stored state, its roll history
    row and analytics fact), and an aware datetime's ``isoformat`` formats with printf, some
    12,000 instructions each. Kept by identity, not equality: two equal datetimes in different
    zones are written differently. The datetime is held with its text, so its id is not reused
    while it is kept."""
    kept = _iso.get(id(moment))
    if kept is not None and kept[0] is moment:
        return kept[1]
    text = moment.isoformat()
    if len(_iso) >= _ISO_KEPT:
        _iso.clear()  # (cheaper than keeping an order: a command asks of one or two datetimes)
    _iso[id(moment)] = (moment, text)
    return text


_ids: dict[int, tuple[UUID, str]] = {}


def id_text(value: UUID) -> str:
    """``str(value)``, kept for the last few UUIDs asked of, as ``isoformat`` keeps its texts: a
    command writes its chase's id as text eight or nine times (the event's hash, the views, the
    roll history row, the analytics fact, the live feed), each some 7,000 instructions of
    formatting in Python; the chase kept between commands (application/chase_cache.py) keeps the
    very UUID its events carry. Kept by identity, held with its text."""
    kept = _ids.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    text = str(value)
    if len(_ids) >= _ISO_KEPT:
        _ids.clear()
    _ids[id(value)] = (value, text)
    return text
