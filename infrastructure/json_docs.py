"""View documents as JSON text, encoded and decoded by orjson (the standard library's as fallback).

Every command writes its chase's views (application/read_side.py), the track's participants a
row each (infrastructure/track_rows.py); ``json.dumps`` of a 1,000-participant track view took
about 9 ms (bench/big_chase.py), orjson a tenth of that. The text is the same JSON: keys that are not
strings written as strings, as ``json`` writes them. What orjson refuses (an integer beyond 64
bits, a string with a lone surrogate, a type it does not know) is encoded by ``json`` as before,
and decoding falls back to ``json`` for what only it reads (NaN, Infinity).
"""
from __future__ import annotations

import json
from typing import Any

import orjson

from domain.json_encoding import encoder_made_once

OPTIONS = orjson.OPT_NON_STR_KEYS
# ``json.dumps(value)``'s text (", " and ": "), its encoder made once: an analytics fact's data
# is written so (every roll's, one a command), and ``json.dumps`` makes a new encoder each call.
std_dumps = encoder_made_once(json.JSONEncoder())


def dumps(doc: Any) -> str:
    try:
        return orjson.dumps(doc, option=OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError: what only json encodes
        return json.dumps(doc)


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN, Infinity: written by json before
        return json.loads(text)
