"""A chase's inputs as bytes (its digest), worked out once per state of one chase object and
stepped from the state before by what its events say they changed: what
application/participant_steps.py compares to tell whose kept values still hold.

* The chase's fields, compared as their pickled bytes, leave out the record's bookkeeping that
  every command moves and no participant's guard reads (``BOOKKEEPING``: the version, the hash
  chain's head, the count of rolls, the actions that count, the entropy). Pickling them is the
  largest part of stepping a digest (bench/http_profile.py), so the bytes are kept when every
  event in between says it changed none of them (``chase_fields_changed``, as events say whom
  they changed: ``participants_changed``); the fields every action moves (``VOLATILE``: the redo
  stack, which any new action clears) are read again each time.
* Each participant's fields, as bytes.

Equal bytes always mean equal state (the bytes decode to it). tests/application/record/
from_scratch.py checks after every command of random chases that each digest kept is what the
chase's fields and participants hold: an event that changed a field it did not declare fails it.
"""
from __future__ import annotations

import marshal
import pickle
import threading
import weakref
from collections import OrderedDict
from typing import Any
from uuid import UUID

BOOKKEEPING = frozenset({
    "participants", "_version", "_modified_on", "_pending_events", "chain_head", "rolls_made", "effective_actions", "entropy",
})
VOLATILE = ("redo_stack",)


def _bytes(value: Any) -> bytes:
    """The value as bytes that decode to it again: equal bytes, equal value."""
    try:
        return marshal.dumps(value)  # several times faster than pickle for a participant's plain fields
    except ValueError:  # an object marshal does not know (a dataclass inside, a Track)
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def chase_fields(chase: Any, kept: bytes | None = None) -> tuple[bytes, bytes]:
    """The chase's fields as bytes: those but the bookkeeping and the volatile ones (``kept``,
    when known to be as they were), and the volatile ones."""
    fields = vars(chase)
    if kept is None:
        kept = pickle.dumps({k: v for k, v in fields.items() if k not in BOOKKEEPING and k not in VOLATILE}, protocol=pickle.HIGHEST_PROTOCOL)
    return kept, _bytes([fields.get(k) for k in VOLATILE])


def participant_fields(participant: Any) -> tuple[type, bytes]:
    fields = getattr(participant, "__dict__", None)
    return type(participant), _bytes(fields if fields is not None else participant)


class Digest:
    """A chase's inputs as bytes: its fields (``fields``, the bookkeeping left out) and each
    participant's (``states``)."""

    __slots__ = ("fields", "states", "base", "changed")

    def __init__(self, fields: tuple[bytes, bytes], states: dict[str, tuple[type, bytes]], base: "Digest | None" = None, changed: frozenset[str] = frozenset()) -> None:
        self.fields, self.states = fields, states
        self.base, self.changed = base, changed  # the digest this one was stepped from, and whom the events changed

    @classmethod
    def of(cls, chase: Any) -> "Digest":
        return cls(chase_fields(chase), {pid: participant_fields(p) for pid, p in chase.participants.items()})

    def after(self, chase: Any, events: list[Any]) -> "Digest | None":
        """The digest of ``chase``, which is this digest's state with ``events`` applied, from
        this one: the participants the events say they changed (``participants_changed``) read
        again, the others kept; the chase's fields kept when no event changed any
        (``chase_fields_changed``: those it does not say are read again). None when an event
        does not say whom it changed."""
        changed: set[str] = set()
        fields_kept = True
        for event in events:
            named = getattr(event, "participants_changed", None)
            found = named() if named is not None else None
            if found is None:
                return None
            changed.update(found)
            if fields_kept:
                said = getattr(event, "chase_fields_changed", None)
                fields_kept = said is not None and said() == ()
        states = dict(self.states)
        for pid in changed:
            p = chase.participants.get(pid)
            if p is None:
                states.pop(pid, None)
            else:
                states[pid] = participant_fields(p)
        if list(states) != list(chase.participants):
            return None  # not what was expected: taken whole
        stepped = oldest = Digest(chase_fields(chase, self.fields[0] if fields_kept else None), states, self, frozenset(changed))
        for _ in range(STEPS_BACK - 1):  # a few steps back are all that is asked of: no chain of every state kept
            oldest = oldest.base or oldest
        oldest.base = None
        return stepped

    def changed_since(self, then: "Digest") -> frozenset[str] | None:
        """Whom the events changed since ``then``, this digest or one a few steps back (answers
        with ``return=minimal`` between: none stepped); None when ``then`` is neither."""
        changed: frozenset[str] = frozenset()
        found: Digest | None = self
        while found is not None and found is not then:
            changed, found = changed | found.changed, found.base
        return changed if found is then else None


# Each digest is kept with the chase object it was worked out of, and only that object is given
# it back: two objects of one state key (the state folded event by event and the same state
# loaded from a snapshot, in the replay job) are digested each for itself, so that a difference
# between them is seen, never hidden behind the other's digest.
_digests: OrderedDict[tuple[Any, ...], tuple[weakref.ref[Any], Digest]] = OrderedDict()
_latest: dict[UUID, tuple[tuple[Any, ...], weakref.ref[Any], Digest]] = {}  # each chase's last digest, to step from
_digests_lock = threading.Lock()


def state_key(chase: Any) -> tuple[Any, ...]:
    """What names one state of a chase: its id, version and chain head (the head hashes every
    event that led to it)."""
    return chase.id, chase.version, getattr(chase, "chain_head", None)


def digest(chase: Any) -> Digest:
    """The chase's digest, worked out once per state of one chase object (a command's views and
    its answer both ask of it), and from that object's state before when its pending events say
    whom they changed."""
    key = state_key(chase)
    if key[2] is None:
        return Digest.of(chase)
    with _digests_lock:
        kept = _digests.get(key)
        latest = _latest.get(chase.id)
    if kept is not None and kept[0]() is chase:
        return kept[1]
    found = None
    events = list(chase.pending_events)
    if latest is not None and events and latest[1]() is chase:
        then = (chase.id, events[0].originator_version - 1, getattr(events[0], "previous_hash", None))
        found = latest[2].after(chase, events) if latest[0] == then else None
    if found is None:
        found = Digest.of(chase)
    ref = weakref.ref(chase)
    with _digests_lock:
        _digests[key] = (ref, found)
        _latest[chase.id] = (key, ref, found)
        while len(_digests) > DIGESTS_KEPT:
            _digests.popitem(last=False)
        while len(_latest) > DIGESTS_KEPT:
            _latest.pop(next(iter(_latest)))
    return found


DIGESTS_KEPT = 64
STEPS_BACK = 4  # digests a digest is kept stepped from
