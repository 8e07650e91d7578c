"""What may be done now in a chase, and whether its last command ended a turn (DESIGN.md 10).

Worked out when a client reads the live track view, not when the view is written: the stored
views stay as they were (the write path of a big chase, the golden histories, time travel and
replay frames are untouched), and a command answered with ``Prefer: return=minimal`` pays
nothing. Each system's ``legal_actions`` (domain/rules/<system>/affordances.py) asks its
commands' own guards of the chase at the view's version, the chase this process keeps for its
commands (application/chase_cache.py), borrowed and given back unchanged; participants whose
inputs did not change since the last answer keep theirs (application/participant_steps.py).

The chase's own commands (add a participant, cut to the chase, deal cards, place a fork, ...)
are kept the same way: while the chase's fields and every participant are as they were
(compared as bytes: application/chase_digest.py), the last answer stands, but for the record's
commands whose guards read what every command moves (undo, rewind, redo:
domain/affordances.py ``bookkeeping_actions``), asked afresh each time. A dice roll changes
neither, so its answer asks four guards of the chase instead of some twenty.
tests/application/record/from_scratch.py checks both against the guards asked afresh after
every step of random chases of every system.

Whom a player's token acts for, in a system whose players act together (a unit in Savage
Worlds: application/permissions.py ``ActingFor``), is worked out from the same chase and kept
beside: the view's ``actions`` say allowed or not for a token by it, as the commands refuse; so
is whose a chase-level command is where that turns on the chase (a system's Permission with a
``now``: application/permissions.py ``decided_now``, which its command refuses by).
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Collection, Mapping
from uuid import UUID

from application.chase_digest import Digest, digest
from application.participant_steps import ParticipantSteps
from application.permissions import ActingFor, Permission, decided_now
from application.runner import CommandRunner
from domain.affordances import Judges, Legal, Refusal, bookkeeping_actions


Whose = Mapping[str, tuple[Permission, str | None]]  # a chase-level action -> decided_now's answer
Answer = tuple[Legal | None, Mapping[str, Collection[str]] | None, Whose]
KEPT = 16  # chase versions whose answer is kept: every reader of a version after a command pays once
CHASES_KEPT = 128  # chases whose chase-level answer is kept, with the digest it was worked out from


class Affordances:
    def __init__(self, runner: CommandRunner, events: Any, by_system: Mapping[str, Callable[[Any], Legal]], acting_for: Mapping[str, ActingFor] | None = None,
                 chase_now: Mapping[str, Mapping[str, Permission]] | None = None) -> None:
        self.runner = runner
        self.events = events
        self.by_system = dict(by_system)
        self.acting_for_by_system = dict(acting_for or {})
        # system -> its chase-level commands whose sender turns on the chase
        self.now_by_system = {system: {a: p for a, p in table.items() if p.now is not None} for system, table in (chase_now or {}).items()}
        self._kept: OrderedDict[tuple[UUID, int], Answer] = OrderedDict()
        self._lock = threading.Lock()
        self.steps = ParticipantSteps()
        self._chase_kept: OrderedDict[UUID, tuple[Digest, dict[str, Refusal]]] = OrderedDict()

    def legal_now(self, chase_id: UUID, version: int) -> Legal | None:
        """What each participant and the chase may do at ``version`` (the live view's); None when
        the chase's system tells nothing of it. A version never changes: its answer is kept
        (read-only: the API copies what it shows)."""
        return self._answer(chase_id, version)[0]

    def acting_for(self, chase_id: UUID, version: int) -> Mapping[str, Collection[str]] | None:
        """Each participant at ``version`` -> the participants a player's token may hold one of to
        act for it; None when the chase's system has players act for their own alone."""
        return self._answer(chase_id, version)[1]

    def whose_now(self, chase_id: UUID, version: int) -> Whose:
        """Each chase-level command whose sender turns on the chase -> the Permission that decides
        it at ``version`` and the participant it is for then (application/permissions.py)."""
        return self._answer(chase_id, version)[2]

    def _answer(self, chase_id: UUID, version: int) -> Answer:
        key = (chase_id, version)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
        answer = self._worked_out(chase_id, version)
        with self._lock:
            self._kept[key] = answer
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return answer

    def _worked_out(self, chase_id: UUID, version: int) -> Answer:
        cached = self.runner.cache.check_out(chase_id)
        try:
            if cached is not None and cached.version < version:
                cached = self.runner.projector(cached, self.runner.store.repository.event_store.get(chase_id, gt=cached.version, lte=version))
            at = cached if cached is not None and cached.version == version else self.runner.load_at(chase_id, version)
            acting_for = self.acting_for_by_system.get(at.SYSTEM)
            whose = {action: decided_now(p, at) for action, p in self.now_by_system.get(at.SYSTEM, {}).items()}
            answer = self._legal(at), (acting_for(at) if acting_for is not None else None), whose
        except BaseException:
            self.runner.cache.release(chase_id)
            raise
        if cached is not None:
            self.runner.cache.check_in(cached)  # only read: given back as it was
        else:
            self.runner.cache.release(chase_id)
        return answer

    def _legal(self, chase: Any) -> Legal | None:
        legal = self.by_system.get(chase.SYSTEM)
        if isinstance(legal, Judges):  # worked out from the last answer, for those whose inputs changed
            return {"participants": self.steps.each(chase, legal.participant), "chase": self._chase_level(chase, legal)}
        return legal(chase) if legal else None

    def _chase_level(self, chase: Any, judges: Judges) -> dict[str, Refusal]:
        """What may be done in the chase as a whole: kept while its inputs stand (see above)."""
        now = digest(chase)
        with self._lock:
            before = self._chase_kept.get(chase.id)
        if before is not None and before[0].fields == now.fields and before[0].states == now.states:
            actions = dict(before[1])  # the same order: the fresh answers take the places of the old
            actions.update(bookkeeping_actions(chase))
            return actions
        actions = judges.chase(chase)
        with self._lock:
            self._chase_kept[chase.id] = (now, actions)
            self._chase_kept.move_to_end(chase.id)
            while len(self._chase_kept) > CHASES_KEPT:
                self._chase_kept.popitem(last=False)
        return dict(actions)

    def turn_ended(self, chase_id: UUID, version: int) -> bool:
        """Whether the command that brought the chase to ``version`` ended a turn (its events,
        one action, hold one whose class says ENDS_TURN). An undo, redo or reveal ends none.
        A command's own answer reads its events as the runner saved them, not from the store."""
        saved = getattr(self.runner.read_side, "last_saved", None)
        events = saved(chase_id, version) if saved is not None else None
        last = events[-1] if events else next(iter(self.events.get(chase_id, lte=version, desc=True, limit=1)), None)
        if last is None or getattr(last, "meta", False):
            return False
        action = getattr(last, "action", last.originator_version)
        if events and events[0].originator_version <= action:  # the whole action is in the command's events
            return any(getattr(e, "ENDS_TURN", False) for e in events if e.originator_version >= action)
        return any(getattr(e, "ENDS_TURN", False) for e in self.events.get(chase_id, gt=action - 1, lte=version))
