"""The JavaScript verifier encodes records as the Python one does: RFC 8785 as the ``rfc8785``
package writes it, and the old sorted JSON as Python's json module wrote it, on arbitrary JSON
values (hypothesis), the issue's participant among them. Needs Node.js, as the verifiers' test."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import rfc8785
from hypothesis import HealthCheck, given, settings, strategies as st

from domain.chain import sorted_json
from tests.e2e.test_two_verifiers_agree import node

HELPER = Path(__file__).with_name("encode_many.mjs")
text = st.text(st.characters(exclude_categories=("Cs",)))
scalars = st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats(allow_nan=False, allow_infinity=False) | text
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4), max_leaves=20)


def in_javascript(values: list) -> list[dict]:
    done = subprocess.run([node(), str(HELPER)], input=json.dumps(values, ensure_ascii=False), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def python_jcs(value) -> str | None:
    try:
        return rfc8785.dumps(value).hex()
    except rfc8785.CanonicalizationError:
        return None  # an integer beyond 2**53 - 1: no canonical form, in either language


def test_the_issues_participant_in_both_encodings():
    skills = {"\ufb00": 10, "\U0001f600": 20, "top_speed": 60.0, "half": 12.5}
    [encoded] = in_javascript([skills])
    assert bytes.fromhex(encoded["jcs"]).decode() == '{"half":12.5,"top_speed":60,"\U0001f600":20,"\ufb00":10}'
    assert bytes.fromhex(encoded["sorted_json"]) == sorted_json(skills)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(json_values, min_size=50, max_size=50))
def test_any_json_value_is_encoded_as_python_and_the_rfc8785_package_encode_it(values):
    encoded = in_javascript(values)
    assert [e["jcs"] for e in encoded] == [python_jcs(v) for v in values]
    assert [e["sorted_json"] for e in encoded] == [sorted_json(v).hex() for v in values]
