"""A JSON encoder's ``encode`` with its C encoder made once, for the encoders every command uses
(the hash chain's sorted JSON, domain/jcs.py; the dice derivation's, domain/dice/derivation.py;
the events' transcoder, infrastructure/transcodings.py).

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
from json.encoder import c_make_encoder, encode_basestring, encode_basestring_ascii  # type: ignore[attr-defined]
from typing import Any, Callable


def encoder_made_once(e: json.JSONEncoder) -> Callable[[Any], str]:
    """``e.encode`` with its C encoder made once; without the check for a value that holds
    itself, which a record (JSON, read from an event) never does."""
    if c_make_encoder is None or e.indent is not None:  # (no C accelerator, or indented: the standard library's way)
        return e.encode
    strings = encode_basestring_ascii if e.ensure_ascii else encode_basestring
    encoder = c_make_encoder(None, e.default, strings, None, e.key_separator, e.item_separator, e.sort_keys, e.skipkeys, e.allow_nan)
    return lambda value: "".join(encoder(value, 0))
