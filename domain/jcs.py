"""RFC 8785 JSON Canonicalization Scheme (JCS): the hash chain's encoding since chain encoding 2.

Why it is written here and not imported: the domain imports only the standard library and
eventsourcing.domain (DESIGN.md 1), and the hash is taken where an event is applied
(RecordedChase.Event.mutate), which no constructor argument reaches; a library handed in through
a module-level hook would be hidden global state that every replay depends on. JCS is small
(ECMAScript number text, UTF-16 key order, JSON.stringify's string escapes), so it is written
out below, each rule citing RFC 8785, and tests/unit/test_jcs.py checks it against the
``rfc8785`` package (a well-kept implementation) on arbitrary JSON values with hypothesis.

Values are what a record holds: dicts with string keys, lists, strings, ints, floats (the D6
System records half metres, domain/rules/d6/movement.py), bools and None. Like the ``rfc8785``
package it refuses what I-JSON (RFC 7493) cannot carry exactly: integers beyond +-(2**53 - 1),
NaN and infinities, and strings with lone surrogates (not Unicode text).
"""
from __future__ import annotations

import json
import math
import re
from decimal import Decimal
from typing import Any

from domain.json_encoding import encoder_made_once

INTEGER_MAX = 2**53 - 1  # RFC 8785 3.2.2.3 / RFC 7493 2.2: integers a double holds exactly

# RFC 8785 3.2.2.2: JSON.stringify's escapes: the two-character ones where JSON has them, the
# other controls as \u00hh in lower-case hex; everything else (incl. U+007F, U+2028) as itself.
_SHORT = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_ESCAPED = re.compile(r'["\\\x00-\x1f]')
# json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False), its encoder made
# once: json.dumps makes a new one for every call with arguments of its own.
_SORTED_COMPACT = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


sorted_compact = encoder_made_once(_SORTED_COMPACT)


class NotCanonicalizable(ValueError):
    """A value JCS has no canonical form for (RFC 8785 3.2.2: I-JSON only)."""


def canonicalize(value: Any) -> bytes:
    """The RFC 8785 canonical UTF-8 bytes of a JSON value."""
    plain = value if plain_json(value) else _floats_as_python_writes_them(value)
    if plain is not None:
        # The standard library's C encoder writes JCS's bytes when nothing differs: no integer out
        # of range, no member name beyond the BMP (there, and only there, code point order and
        # UTF-16 order agree), no float but those Python writes as ECMAScript does. Most records
        # are such, and it is several times faster than the writer below.
        text = sorted_compact(plain)
    else:
        parts: list[str] = []
        _write(value, parts)
        text = "".join(parts)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise NotCanonicalizable("a string holds a lone surrogate, which is not Unicode text") from None


def plain_json(value: Any) -> bool:
    """Whether ``value`` is JSON that ``sorted_compact`` writes as JCS does, so that its one
    pass is the canonical form (``canonicalize``, and domain/chain.py ``hash_event``, which
    hashes such a record without its JSON form made first): exact types only (a subclass's text
    may differ, and ``jsonable`` passes it on as it is), no float, no integer beyond what a double
    holds (RFC 8785 3.2.2.3), no member name beyond the BMP (there, and only there, code point
    order and RFC 8785 3.2.3's UTF-16 order agree).

    Asked of every event a command records: its containers are looked through in one loop, not
    a call for each member (most members are strings and small ints)."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return -INTEGER_MAX <= value <= INTEGER_MAX
    if kind is not dict and kind is not list:
        return False
    containers = [value]
    for container in containers:  # (grows as nested containers are found)
        if type(container) is dict:
            for name in container:
                if type(name) is not str or not (name.isascii() or max(name) <= "\uffff"):  # (_ordered_as_utf16, inline)
                    return False
            members = container.values()
        else:
            members = container
        for member in members:
            kind = type(member)
            if kind is str or kind is int and -INTEGER_MAX <= member <= INTEGER_MAX or kind is bool or member is None:
                continue
            if kind is dict or kind is list:
                containers.append(member)
                continue
            return False
    return True


def _ordered_as_utf16(name: str) -> bool:
    return name.isascii() or max(name) <= "\uffff"


class _NotPlain(Exception):
    pass


def _floats_as_python_writes_them(value: Any) -> Any:
    """``value`` with each whole float as its int (JCS writes 60.0 as 60), when every other float
    is one Python's repr writes as ECMAScript does (not whole, from 1e-4 up to below 1e16) and the
    rest is plain; else None."""
    def copy(v: Any) -> Any:
        if isinstance(v, float):
            if not math.isfinite(v):
                raise _NotPlain
            if v == int(v):
                if abs(v) <= INTEGER_MAX:
                    return int(v)
                raise _NotPlain  # Python writes 2**53 as 9007199254740992.0, ECMAScript without ".0"
            if 1e-4 <= abs(v) < 1e16:
                return v
            raise _NotPlain
        if isinstance(v, (list, tuple)):
            return [copy(item) for item in v]
        if isinstance(v, dict):
            if not all(type(k) is str and _ordered_as_utf16(k) for k in v):
                raise _NotPlain
            return {k: copy(item) for k, item in v.items()}
        if plain_json(v):
            return v
        raise _NotPlain  # (a subclass: written below)

    try:
        return copy(value)
    except _NotPlain:
        return None


def _write(value: Any, parts: list[str]) -> None:
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int):
        if not -INTEGER_MAX <= value <= INTEGER_MAX:
            raise NotCanonicalizable(f"the integer {value} is beyond what a JSON number holds exactly (2**53 - 1)")
        parts.append(int.__repr__(value))  # its decimal digits, its shortest ECMAScript form (as json.dumps writes a subclass's)
    elif isinstance(value, float):
        parts.append(number(value))
    elif isinstance(value, str):
        parts.append(string(value))
    elif isinstance(value, (list, tuple)):
        parts.append("[")
        for i, item in enumerate(value):
            if i:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    elif isinstance(value, dict):
        # RFC 8785 3.2.3: members sorted by their names as arrays of UTF-16 code units; big-endian
        # UTF-16 bytes compare as the code units do.
        if not all(isinstance(k, str) for k in value):
            raise NotCanonicalizable("object member names must be strings")
        parts.append("{")
        for i, key in enumerate(sorted(value, key=lambda k: k.encode("utf-16-be", "surrogatepass"))):
            if i:
                parts.append(",")
            parts.append(string(key))
            parts.append(":")
            _write(value[key], parts)
        parts.append("}")
    else:
        raise NotCanonicalizable(f"{type(value).__name__} is not a JSON value")


def string(text: str) -> str:
    """RFC 8785 3.2.2.2: a string as JSON.stringify writes it."""
    return '"' + _ESCAPED.sub(lambda m: _SHORT.get(m.group()) or f"\\u{ord(m.group()):04x}", text) + '"'


def number(value: float) -> str:
    """RFC 8785 3.2.2.3: a double as ECMAScript's Number.prototype.toString writes it
    (ECMA-262 "Number::toString"): the shortest digits that read back to the same double,
    in plain notation for magnitudes from 1e-6 up to below 1e21, in exponent notation outside."""
    if not math.isfinite(value):
        raise NotCanonicalizable(f"{value} is not a JSON number")
    if value == 0:
        return "0"  # -0 too
    # Python's repr is the shortest round-tripping digit string as well (David Gay's algorithm):
    # only its layout differs from ECMAScript's, so take its digits and exponent and lay them out.
    sign, digits_tuple, exponent = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(map(str, digits_tuple))
    k = len(digits)
    n = k + int(exponent)  # the value is 0.digits * 10**n
    text = _layout(digits, k, n)
    return "-" + text if value < 0 else text


def _layout(digits: str, k: int, n: int) -> str:
    """ECMA-262 Number::toString steps for digits s (k of them) and exponent n."""
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    e = n - 1
    exponent = ("+" if e >= 0 else "-") + str(abs(e))
    return (digits if k == 1 else digits[0] + "." + digits[1:]) + "e" + exponent
