"""View documents as JSON text, encoded and decoded by orjson (the standard library's as fallback).

Every command writes its chase's views as one JSON document (application/read_side.py); at 1,000
participants the track view is some 420 KB, and ``json.dumps`` took about 9 ms of each command
(bench/big_chase.py), orjson a tenth of that. The text is the same JSON: keys that are not
strings written as strings, as ``json`` writes them. What orjson refuses (an integer beyond 64
bits, a string with a lone surrogate, a type it does not know) is encoded by ``json`` as before,
and decoding falls back to ``json`` for what only it reads (NaN, Infinity).
"""
from __future__ import annotations

import json
import threading
from typing import Any

import orjson

OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(doc: Any) -> str:
    try:
        return orjson.dumps(_with_rows_kept(doc), option=OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError: what only json encodes
        return json.dumps(doc)


# A chase's views as a command writes them: a participant's row of the track view that did not
# change is the very row rendered before (application/projections/rows.py), so its text is kept
# too, by the row's identity (the row kept alive beside it, so its id is never another's): a
# command on a chase of 1,000 participants encodes the rows it changed (issue 12 part 6).
_rows: dict[int, tuple[Any, bytes]] = {}  # the oldest encoded first dropped
_rows_lock = threading.Lock()
ROWS_KEPT = 20_000
FEW = 50  # participants below which every row is simply encoded again


def _with_rows_kept(doc: Any) -> Any:
    track = doc.get("track") if type(doc) is dict else None
    rows = track.get("participants") if type(track) is dict else None
    if type(rows) is not dict or len(rows) < FEW:
        return doc
    encoded = {}
    with _rows_lock:
        for pid, row in rows.items():
            found = _rows.get(id(row))
            if found is None or found[0] is not row:
                found = _rows[id(row)] = (row, orjson.dumps(row, option=OPTIONS))
            encoded[pid] = orjson.Fragment(found[1])
        while len(_rows) > ROWS_KEPT:
            del _rows[next(iter(_rows))]
    return {**doc, "track": {**track, "participants": encoded}}


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # NaN, Infinity: written by json before
        return json.loads(text)
