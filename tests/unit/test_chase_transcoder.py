"""Stored events and snapshots are the bytes eventsourcing's own JSON transcoder writes: the
ledger's (infrastructure/transcodings.py ChaseTranscoder) only makes its encoder once."""
from __future__ import annotations

from datetime import timedelta, timezone

from eventsourcing.persistence import JSONTranscoder
from hypothesis import given, strategies as st

from domain.track import Track
from infrastructure.bootstrap import build_ledger
from infrastructure.transcodings import ChaseTranscoder

LEDGER = build_ledger({"SQLITE_DBNAME": ":memory:"})
text = st.text(st.characters(exclude_categories=("Cs",)))
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | text
    | st.uuids() | st.datetimes(timezones=st.just(timezone(timedelta(hours=2))))
    | st.builds(Track, length=st.integers(0, 20), positions=st.dictionaries(text, st.integers(0, 20), max_size=3)),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=20,
)


def transcoders() -> tuple[JSONTranscoder, ChaseTranscoder]:
    theirs, ours = JSONTranscoder(), ChaseTranscoder()
    LEDGER.register_transcodings(theirs)
    LEDGER.register_transcodings(ours)
    return theirs, ours


def test_the_ledger_stores_with_its_transcoder():
    assert isinstance(LEDGER.mapper.transcoder, ChaseTranscoder)


@given(st.dictionaries(text, values, max_size=6))
def test_an_event_state_is_stored_as_eventsourcing_writes_it(state):
    theirs, ours = transcoders()
    assert ours.encode(state) == theirs.encode(state)
    assert ours.decode(ours.encode(state)) == theirs.decode(theirs.encode(state))
