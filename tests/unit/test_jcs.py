"""The hash chain's encoding is RFC 8785 (JCS): domain/jcs.py gives the bytes the ``rfc8785``
package gives, on the issue's example, the RFC's own examples and arbitrary JSON values."""
from __future__ import annotations

import enum
import json
import math
import struct
from datetime import datetime, timedelta, timezone
from uuid import uuid4

import pytest
import rfc8785
from hypothesis import example, given, settings, strategies as st

from domain.chain import JCS, SORTED_JSON, hash_event, hash_record, record_of, sorted_json
from domain.jcs import NotCanonicalizable, canonicalize

# I-JSON values: integers a double holds exactly, finite doubles, Unicode text (no lone surrogates).
text = st.text(st.characters(exclude_categories=("Cs",)))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.floats(allow_nan=False, allow_infinity=False) | text,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(text, inner, max_size=5),
    max_leaves=30,
)


def test_the_issues_participant_sorts_its_skills_by_utf16_code_units():
    # U+1F600 is the surrogate pair D83D DE00 in UTF-16, so it sorts before U+FB00; by code
    # point (the old sorted JSON) it sorted after.
    skills = {"\ufb00": 10, "\U0001f600": 20}

    assert canonicalize(skills) == rfc8785.dumps(skills) == '{"\U0001f600":20,"\ufb00":10}'.encode()
    assert json.dumps(skills, sort_keys=True, ensure_ascii=False).encode() != canonicalize(skills)


@pytest.mark.parametrize("value, text", [
    # RFC 8785 Appendix B: IEEE 754 doubles (given by their bits) and their canonical text.
    ("0000000000000000", "0"), ("8000000000000000", "0"), ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"), ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"), ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"), ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"), ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"), ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"), ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"), ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"), ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"), ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"), ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
])
def test_numbers_are_written_as_ecmascript_writes_them(value, text):
    number = struct.unpack(">d", bytes.fromhex(value))[0]
    assert canonicalize(number) == text.encode() == rfc8785.dumps(number)


def test_the_rfcs_sorting_example():
    # RFC 8785 3.2.3: names sorted by UTF-16 code units.
    value = {"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
             "1": "One", "\U0001f600": "Emoji: Grinning Face", "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"}
    expected = [json.loads(f'"{k}"') for k in ('\\r', '1', '\\u0080', '\\u00f6', '\\u20ac', '\\ud83d\\ude00', '\\ufb33')]
    assert list(json.loads(canonicalize(value))) == expected
    assert canonicalize(value) == rfc8785.dumps(value)


@given(json_values)
def test_any_json_value_canonicalizes_as_the_rfc8785_package_does(value):
    assert canonicalize(value) == rfc8785.dumps(value)


@pytest.mark.parametrize("value", [2**53, -(2**53), math.nan, math.inf, "\ud800", {"a": [1, {"b": -math.inf}]}, {1: "a"}, {1, 2}])
def test_what_jcs_cannot_carry_exactly_is_refused(value):
    with pytest.raises(NotCanonicalizable):
        canonicalize(value)


@settings(max_examples=500)
@given(st.dictionaries(text, st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**53) + 1, 2**53 - 1), max_size=6))
def test_records_with_floats_take_whichever_writer_and_give_the_packages_bytes(record):
    # Whole floats (60.0), halves (12.5), and floats whose text differs between Python and
    # ECMAScript (1e-05, 1e+16, 2**53) beside plain values.
    assert canonicalize(record) == rfc8785.dumps(record)


@given(st.dictionaries(text, json_values, max_size=5))
def test_a_sorted_json_chain_hashes_the_bytes_json_dumps_writes(record):
    # Chains begun before JCS (domain/chain.py ``sorted-json``) are verified by clients that
    # imitate Python's json.dumps: its encoder made once must write its very bytes.
    assert sorted_json(record) == json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


class _Mood(str, enum.Enum):
    CALM = "calm"


class _Rolled:
    """An event as the chain sees one: its envelope and its data as attributes."""

    TOPIC = "test:Rolled"

    def __init__(self, data: dict) -> None:
        self.originator_id = uuid4()
        self.originator_version = 7
        self.timestamp = datetime(2026, 11, 24, 16, 3, 11, 123456, tzinfo=timezone(timedelta(hours=1)))
        vars(self).update(data)


# What an event may hold beyond JSON: tuples, value objects' text, enum members, whole floats,
# integers beyond a double, member names beyond the BMP.
event_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | text | st.just(_Mood.CALM),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(text | st.just(_Mood.CALM), inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400)
@given(st.dictionaries(st.sampled_from(["roll", "participant_id", "purpose", "\U0001f600", "action"]), event_values, max_size=4))
@example({"roll": {"total": 2**53}})
@example({"roll": {"dice": [60.0]}})
@example({"roll": {_Mood.CALM: 1}, "purpose": ("a", 1)})
@example({"purpose": "\ud800"})
def test_an_events_hash_is_its_records_hash_in_either_encoding(data):
    # hash_event skips the record's JSON form for events that hold JSON already: the hash a
    # verifier takes of the record in the log must be the very same.
    event = _Rolled(data)
    for encoding in (JCS, SORTED_JSON):
        try:
            expected = hash_record(record_of(event), encoding)
        except (NotCanonicalizable, UnicodeEncodeError) as refused:
            with pytest.raises(type(refused)):
                hash_event(event, encoding)
        else:
            assert hash_event(event, encoding) == expected
