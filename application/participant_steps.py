"""What is worked out for each participant of a chase (what they may do now, their row of the
track view), kept from one version to the next and worked out again only for the participants
whose inputs changed (issue 12 part 6: a chase of 1,000 participants answers about as fast as a
chase of 10).

What is worked out for a participant (a guard of the domain asked of them, a view's row of them)
reads the chase: its own fields, and its participants. So the value worked out for a
participant at one version still holds at the next when

* the chase's fields are as they were, but for the record's bookkeeping that every command
  moves and no participant's guard reads (compared as bytes: application/chase_digest.py);
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

import threading
from collections import OrderedDict
from typing import Any, Callable, Iterator
from uuid import UUID

from application.chase_digest import Digest, digest

KEPT = 128  # chases whose last answer is kept (more than a server's chases in play: a bench's 50 at random all hit)...
PARTICIPANTS_KEPT = 20_000  # ... and at most this many participants' answers in all (twenty chases of 1,000)


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


