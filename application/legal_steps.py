"""What may be done now, worked out from the last version's answer: only for the participants
whose inputs changed (issue 12 part 6: a chase of 1,000 participants answers about as fast as a
chase of 10).

A participant's legal actions (domain/affordances.py ``Judges.participant``) are the chase's own
guards asked of that participant. What those guards can read is the chase: its own fields, and
its participants. So the answer worked out for a participant at one version still holds at the
next when

* the chase's fields are as they were (compared as their pickled bytes), leaving out the
  record's bookkeeping that every command moves and no participant's guard reads (``BOOKKEEPING``:
  the version, the hash chain's head, the count of rolls, the actions that count, the entropy);
* the participant itself is as it was (its fields' bytes);
* and, when its guards read any other participant (each participant's guards are asked with the
  participants lent through ``_Watched``, which notes a read of anyone else's), no participant
  came, went or changed.

Anything else is worked out again; equal bytes always mean equal state (the bytes decode to
it), so at worst this works out more than it needs to. The chase's own commands are always
worked out again (a few dozen guards). tests/application/test_legal_steps.py plays chases of
every system and checks, after every command, that this is what working everything out from
scratch gives.
"""
from __future__ import annotations

import marshal
import pickle
import threading
from collections import OrderedDict
from typing import Any, Iterator
from uuid import UUID

from domain.affordances import Judges, Legal, Refusal

BOOKKEEPING = frozenset({
    "participants", "_version", "_modified_on", "_pending_events", "chain_head", "rolls_made", "effective_actions", "entropy",
})
KEPT = 32  # chases whose last answer is kept


def _bytes(value: Any) -> bytes:
    """The value as bytes that decode to it again: equal bytes, equal value."""
    try:
        return marshal.dumps(value)  # several times faster than pickle for a participant's plain fields
    except ValueError:  # an object marshal does not know (a dataclass inside, a Track)
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def chase_fields(chase: Any) -> bytes:
    return pickle.dumps({k: v for k, v in vars(chase).items() if k not in BOOKKEEPING}, protocol=pickle.HIGHEST_PROTOCOL)


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


class _Answer:
    """One chase's last answer, with the inputs it was worked out from."""

    __slots__ = ("fields", "states", "legal", "reads_others")

    def __init__(self, fields: bytes, states: dict[str, tuple[type, bytes]], legal: dict[str, dict[str, Refusal]], reads_others: set[str]) -> None:
        self.fields, self.states, self.legal, self.reads_others = fields, states, legal, reads_others


class LegalSteps:
    """Each chase's last answer of what its participants may do, and the next worked out from it."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._last: OrderedDict[UUID, _Answer] = OrderedDict()
        self._lock = threading.Lock()

    def legal(self, judges: Judges, chase: Any) -> Legal:
        """What may be done now in ``chase`` (borrowed: changed for a moment, given back as it
        was): the same as ``judges(chase)``; participants whose inputs did not change keep the
        very dict worked out before (so that what is shown of them can be kept too)."""
        fields = chase_fields(chase)
        states = {pid: participant_fields(p) for pid, p in chase.participants.items()}
        with self._lock:
            before = self._last.get(chase.id)
        if before is not None and before.fields != fields:
            before = None
        anyone_changed = before is None or before.states != states
        legal: dict[str, dict[str, Refusal]] = {}
        reads_others: set[str] = set()
        todo = []
        for pid, state in states.items():
            kept = before.legal.get(pid) if before is not None else None
            if kept is not None and before.states.get(pid) == state and not (anyone_changed and pid in before.reads_others):
                legal[pid] = kept
                if pid in before.reads_others:
                    reads_others.add(pid)
            else:
                legal[pid] = {}  # keeps the participants' order; worked out below
                todo.append(pid)
        if todo:
            self._work_out(judges, chase, todo, legal, reads_others)
        with self._lock:
            self._last[chase.id] = _Answer(fields, states, legal, reads_others)
            self._last.move_to_end(chase.id)
            while len(self._last) > self.kept:
                self._last.popitem(last=False)
        return {"chase": judges.chase(chase), "participants": dict(legal)}

    @staticmethod
    def _work_out(judges: Judges, chase: Any, pids: list[str], legal: dict[str, Any], reads_others: set[str]) -> None:
        participants = chase.participants
        watched = _Watched(participants)
        chase.participants = watched
        try:
            for pid in pids:
                watched.own, watched.others_read = pid, False
                legal[pid] = judges.participant(chase, pid)
                if watched.others_read:
                    reads_others.add(pid)
        finally:
            chase.participants = participants
