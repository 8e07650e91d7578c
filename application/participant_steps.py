"""What is worked out for each participant of a chase (what they may do now, their row of the
track view), kept from one version to the next and worked out again only for the participants
whose inputs changed (issue 12 part 6: a chase of 1,000 participants answers about as fast as a
chase of 10).

What is worked out for a participant (a guard of the domain asked of them, a view's row of them)
reads the chase: its own fields, and its participants. So the value worked out for a
participant at one version still holds at the next when

* the chase's fields are as they were (compared as their pickled bytes), leaving out the
  record's bookkeeping that every command moves and no participant's guard reads (``BOOKKEEPING``:
  the version, the hash chain's head, the count of rolls, the actions that count, the entropy);
  pickling them all is the largest part of stepping a digest (bench/http_profile.py), so the
  bytes are kept when every event in between says it changed none of them
  (``chase_fields_changed``, as events say whom they changed), and the fields every action
  moves (``VOLATILE``: the redo stack, which any new action clears) are read again each time;
* the participant itself is as it was (its fields' bytes);
* and, when working it out read any other participant (it is worked out with the participants
  lent through ``_Watched``, which notes a read of anyone else's), no participant came, went or
  changed.

Anything else is worked out again; equal bytes always mean equal state (the bytes decode to
it), so at worst this works out more than it needs to. tests/application/record/from_scratch.py
plays chases of every system and checks, after every command, that this is what working
everything out from scratch gives, and that each digest kept is what the chase's fields and
participants hold: an event that changed a field it did not declare fails it.
"""
from __future__ import annotations

import marshal
import pickle
import threading
import weakref
from collections import OrderedDict
from typing import Any, Callable, Iterator
from uuid import UUID


BOOKKEEPING = frozenset({
    "participants", "_version", "_modified_on", "_pending_events", "chain_head", "rolls_made", "effective_actions", "entropy",
})
VOLATILE = ("redo_stack",)
KEPT = 128  # chases whose last answer is kept (more than a server's chases in play: a bench's 50 at random all hit)...
PARTICIPANTS_KEPT = 20_000  # ... and at most this many participants' answers in all (twenty chases of 1,000)


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


class _Watched(dict):  # type: ignore[type-arg]
    """The chase's participants, lent to one participant's guards (``own``): notes whether they
    read any other participant, or the participants as a whole."""

    own: str | None = None
    others_read = False

    def _note(self, key: Any = None) -> None:
        if key is None or key != self.own:
            self.others_read = True

    def __getitem__(self, key: Any) -> Any:
        self._note(key)
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        self._note(key)
        return dict.get(self, key, default)

    def __contains__(self, key: Any) -> bool:
        self._note(key)
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[Any]:
        self._note()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._note()
        return dict.__len__(self)

    def keys(self) -> Any:
        self._note()
        return dict.keys(self)

    def values(self) -> Any:
        self._note()
        return dict.values(self)

    def items(self) -> Any:
        self._note()
        return dict.items(self)

    def copy(self) -> dict[Any, Any]:
        self._note()
        return dict(dict.items(self))

    def __eq__(self, other: Any) -> bool:
        self._note()
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]


class _Last:
    """What was worked out for each participant of one chase, with the inputs it came from."""

    __slots__ = ("digest", "values", "reads_others")

    def __init__(self, digest: Digest, values: dict[str, Any], reads_others: set[str]) -> None:
        self.digest, self.values, self.reads_others = digest, values, reads_others


class ParticipantSteps:
    """Something worked out for each participant of a chase (``work(chase, pid)``), kept from one
    version to the next: worked out again only for those whose inputs changed."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._last: OrderedDict[UUID, _Last] = OrderedDict()
        self._participants = 0  # in all the answers kept
        self._lock = threading.Lock()

    def each(self, chase: Any, work: Callable[[Any, str], Any]) -> dict[str, Any]:
        """``{pid: work(chase, pid)}`` for every participant, in order, each either worked out now
        or the very value worked out for the same inputs before. ``chase`` is borrowed: changed
        for a moment (its participants lent through ``_Watched``), given back as it was."""
        now = digest(chase)
        with self._lock:
            before = self._last.get(chase.id)
        if before is not None and before.digest.fields != now.fields:
            before = None
        reads_others: set[str] = set()
        changed = now.changed_since(before.digest) if before is not None else None
        if before is not None and changed is not None:
            # A state a few steps after the one worked out last (or the same): the digests name
            # whom the events in between changed, and nobody else is looked at.
            values = dict(before.values)
            for pid in changed:
                if pid not in now.states:
                    values.pop(pid, None)
            # Whom the events changed, and when anyone changed those who read others: never a walk
            # through every participant (worked out in any order: each value is its own).
            todo = [pid for pid in changed if pid in now.states]
            if changed:
                todo += [pid for pid in before.reads_others if pid in values and pid not in changed]
            reads_others = set(before.reads_others) - set(todo)
            for pid in todo:
                values[pid] = None
            if changed and list(values) != list(now.states):  # several came, or went and came back: in the participants' order
                values = {pid: values.get(pid) for pid in now.states}
        else:
            anyone_changed = before is None or before.digest.states != now.states
            values = {}
            todo = []
            for pid, state in now.states.items():
                if before is not None and pid in before.values and before.digest.states.get(pid) == state and not (anyone_changed and pid in before.reads_others):
                    values[pid] = before.values[pid]
                    if pid in before.reads_others:
                        reads_others.add(pid)
                else:
                    values[pid] = None  # keeps the participants' order; worked out below
                    todo.append(pid)
        if todo:
            _work_out(chase, work, todo, values, reads_others)
        with self._lock:
            replaced = self._last.get(chase.id)
            self._participants += len(values) - (len(replaced.values) if replaced is not None else 0)
            self._last[chase.id] = _Last(now, values, reads_others)
            self._last.move_to_end(chase.id)
            while len(self._last) > 1 and (len(self._last) > self.kept or self._participants > PARTICIPANTS_KEPT):
                self._participants -= len(self._last.popitem(last=False)[1].values)
        return dict(values)


def _work_out(chase: Any, work: Callable[[Any, str], Any], pids: list[str], values: dict[str, Any], reads_others: set[str]) -> None:
    participants = chase.participants
    watched = _Watched(participants)
    chase.participants = watched
    try:
        for pid in pids:
            watched.own, watched.others_read = pid, False
            values[pid] = work(chase, pid)
            if watched.others_read:
                reads_others.add(pid)
    finally:
        chase.participants = participants


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
