"""What every chase keeps, whatever its game system: actions, undo and redo, the hash chain, the seed.

DESIGN.md sections 4 to 6. The log is append-only: undo, rewind and redo are new events that
restore the game state of an earlier version (carried in the event as the changes from the state
before it, domain/state_changes.py, so applying it stays deterministic); undone events stay in
the log, and roll sequence numbers are never reused.
A system's chase aggregate subclasses RecordedChase and gives each of these events its own
stable topic. The lifecycle every chase shares (created with a seed commitment, a phase of
set-up, running and ended, the end with its outcome, the seed revealed and committed anew)
lives here once; a system says which outcomes it knows and when its chase ends.

History outlives the code (DESIGN.md 3). Every persisted event class has a ``class_version``
(1 when not given) and the ``upcast_vN_vN+1`` steps eventsourcing runs on load; an event upcaster
is wrapped in ``keeps_record`` so that an upcast event keeps its hash (domain/chain.py). The state
a chase stores, in its snapshots and in the ``restored`` payload of undo, rewind and redo, has one
schema: the aggregate class's ``class_version``, with the aggregate's ``upcast_vN_vN+1`` steps.
Eventsourcing runs them on a snapshot; ``restore`` runs the same steps on the state an older
undo restores, whose events say which schema they wrote (``restored_schema``; absent, in events
written before it was recorded, it is 1). Up to version 2 those events stored the whole state
restored (``restored``); from version 3 they store only the changes, and their upcaster reads an
old whole state as changes that set every key of it. An undo of an older schema has its changes
upcast first (each step is a ``StateStep``, domain/state_schema.py, which says how the changes
of its version are upcast as well as the state), then restores the keys it changed, upcast as a
part of a state: an aggregate upcaster must work on part of a state (no TIMELESS keys, and only
the keys an undo changed, already of the step's new schema).
"""
from __future__ import annotations

import copy
from typing import Any, Sequence

from eventsourcing.domain import Aggregate

from domain import rewinding, seed_record, undo_requests
from domain.chain import GENESIS, JCS, hash_event, keeps_record
from domain import names
from domain.errors import HistoryRefused, InvalidInput  # noqa: F401 - HistoryRefused: where the record's refusals are imported from
from domain.rewinding import MAX_UNDO  # noqa: F401 - the bound the API's schemas take from here
from domain.state_schema import StateStep, chained_with_sorted_json, chase_state_v1_v2, restored_as_changes, restored_schema_1, same_changes, steps_between

# Kept across undo, rewind and redo: the record itself is never rolled back.
TIMELESS = frozenset(
    {"rolls_made", "redo_stack", "chain_head", "chain_encoding", "seed_commitment", "seed_epoch", "revealed_seeds", "entropy", "undo_requests"}
)
DICE_MODES = ("server", "table")  # a chase's default dice: the server's, or faces entered from the table


class InvalidChase(InvalidInput):
    """A chase created with a bad name or dice; ``field`` names it."""


class RecordedChase(Aggregate):
    """Base of every chase: groups events into actions, chains them, undoes and redoes them."""

    class_version = 2  # the schema of the state a chase stores (snapshots, restored payloads); v2: chain_encoding
    upcast_v1_v2 = StateStep(state=chase_state_v1_v2, changes=same_changes)  # adds a TIMELESS key only

    class Event(Aggregate.Event):
        # Version of the first event of the command that produced this one: the events of one
        # command (a move and the turn it ends, say) form one action, undone and redone together.
        action: int
        previous_hash: str
        meta = False  # undo, redo, reveals: about the record, not actions in the game

        def apply(self, chase: Any) -> None:
            pass

        def mutate(self, aggregate: Any) -> Any:
            aggregate = self.mutate_unchained(aggregate)
            aggregate.chain_head = hash_event(self, aggregate.chain_encoding)
            return aggregate

        def mutate_unchained(self, aggregate: Any) -> Any:
            """``mutate`` but for the chain head, left as it was: a fold of many events hashes
            only the last one (application/jobs.py, view rebuilds), since applying an event
            never reads the chain head and each hash in between would be overwritten unread."""
            aggregate = super().mutate(aggregate)
            if not self.meta:
                if not aggregate.effective_actions or aggregate.effective_actions[-1] != self.action:
                    aggregate.effective_actions.append(self.action)
                aggregate.redo_stack.clear()  # something new was recorded: nothing left to redo
            return aggregate

    class Created(Aggregate.Created):
        """The chase was created; carries the commitment to its server-dice seed and names the
        encoding its hash chain is taken in (domain/chain.py)."""

        class_version = 2  # v2: chain_encoding
        upcast_v1_v2 = keeps_record(chained_with_sorted_json)

        meta = True  # the chase itself: not an action that undo could take back
        name: str
        dice: str
        seed_commitment: str
        chain_encoding: str

        def apply(self, chase: Any) -> None:
            # Set here, not by __init__, so that no system's __init__ has to pass it on.
            chase.chain_encoding = self.chain_encoding

    class ChaseEnded(Event):
        """The chase is over: its outcome (in the system's words) and why."""

        outcome: str
        note: str

        def apply(self, chase: Any) -> None:
            chase.phase = "ended"
            chase.outcome = self.outcome
            chase.end_note = self.note

    class Undone(Event):
        """The last actions no longer count; the state is as before them."""

        class_version = 3  # v2: restored_schema; v3: the changes restored, not the whole state
        upcast_v1_v2 = keeps_record(restored_schema_1)
        upcast_v2_v3 = keeps_record(restored_as_changes)

        meta = True
        actions: list
        restored_version: int
        changes: dict  # from the state before this event to the one restored (domain/state_changes.py)
        restored_schema: int  # the aggregate's class_version when ``changes`` was written
        by: str
        reason: str

        def apply(self, chase: Any) -> None:
            chase.restore(self.changes, self.restored_schema, f"{type(self).__name__} at version {self.originator_version}")
            chase.redo_stack.append({"undo_version": self.originator_version, "actions": list(self.actions)})

    class Rewound(Event):
        """The chase is back at an earlier version; what came after no longer counts."""

        class_version = 3  # v2: restored_schema; v3: the changes restored, not the whole state
        upcast_v1_v2 = keeps_record(restored_schema_1)
        upcast_v2_v3 = keeps_record(restored_as_changes)

        meta = True
        to_version: int
        actions: list
        restored_actions: list
        changes: dict
        restored_schema: int
        by: str
        reason: str

        def apply(self, chase: Any) -> None:
            chase.restore(self.changes, self.restored_schema, f"{type(self).__name__} at version {self.originator_version}")
            chase.redo_stack.append(
                {"undo_version": self.originator_version, "actions": list(self.actions), "restored_actions": list(self.restored_actions)}
            )

    class Redone(Event):
        """An undone or rewound stretch counts again, with its original dice."""

        class_version = 3  # v2: restored_schema; v3: the changes restored, not the whole state
        upcast_v1_v2 = keeps_record(restored_schema_1)
        upcast_v2_v3 = keeps_record(restored_as_changes)

        meta = True
        undo_version: int
        actions: list  # count again
        undone_again: list  # a redone rewind had brought these back: they no longer count
        changes: dict
        restored_schema: int
        by: str

        def apply(self, chase: Any) -> None:
            chase.restore(self.changes, self.restored_schema, f"{type(self).__name__} at version {self.originator_version}")
            chase.redo_stack.pop()

    class UndoRequested(Event):
        meta = True
        request_id: int
        count: int
        actions: list  # the actions the player saw as the last ones: only these may be undone
        by: str
        note: str

        def apply(self, chase: Any) -> None:
            chase.undo_requests[str(self.request_id)] = {
                "count": self.count, "actions": list(self.actions), "by": self.by, "note": self.note, "answer": None,
            }

    class UndoRequestAnswered(Event):
        meta = True
        request_id: int
        accepted: bool
        by: str

        def apply(self, chase: Any) -> None:
            chase.undo_requests[str(self.request_id)]["answer"] = "accepted" if self.accepted else "refused"

    class SeedRevealed(Event):
        """The server-dice seed, revealed: anyone can now recompute every server roll."""

        meta = True
        seed: str
        commitment: str
        epoch: int
        by: str

        def apply(self, chase: Any) -> None:
            chase.revealed_seeds.append({"epoch": self.epoch, "seed": self.seed, "commitment": self.commitment})
            chase.seed_commitment = None

    class SeedCommitted(Event):
        """A fresh secret seed for the rolls still to come, after a reveal mid-chase."""

        meta = True
        commitment: str
        epoch: int

        def apply(self, chase: Any) -> None:
            chase.seed_commitment = self.commitment
            chase.seed_epoch = self.epoch

    class EntropyContributed(Event):
        """A player's entropy, mixed into every later server roll."""

        meta = True
        by: str
        entropy: str
        combined: str

        def apply(self, chase: Any) -> None:
            chase.entropy = self.combined

    @classmethod
    def start(cls, chase_id: Any, name: str, dice: str, seed_commitment: str, optional_rules: Sequence[str] | None = None) -> Any:
        """Create a chase in set-up, committed to its server-dice seed; ``optional_rules``, when
        given, are the optional rules of its system the table uses (choose_optional_rules)."""
        name = names.screened_name(name)
        if dice not in DICE_MODES:
            raise InvalidChase("dice", f"must be one of {', '.join(DICE_MODES)}")
        chase = cls._create(
            cls.Created, id=chase_id, name=name, dice=dice, seed_commitment=seed_commitment, chain_encoding=JCS,
            action=1, previous_hash=GENESIS,
        )
        if optional_rules is not None:
            chase.choose_optional_rules(optional_rules)
        return chase

    def choose_optional_rules(self, names: Sequence[str]) -> None:
        """The optional rules the table uses, chosen at creation. A system that has some records
        the choice (its own event, after Created); by default a system has none to choose."""
        if list(names):
            raise InvalidChase("optional_rules", f"{getattr(self, 'SYSTEM', 'this')} chases have no optional rules to choose")

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        self.name = name
        self.dice = dice
        self.phase = "setup"  # setup | running | ended (ChaseEnded)
        self.outcome: str | None = None
        self.end_note = ""
        self.seed_commitment: str | None = seed_commitment
        self.seed_epoch = 0
        self.revealed_seeds: list[dict[str, Any]] = []
        self.entropy = ""
        self.rolls_made = 0
        self.effective_actions: list[int] = []
        self.redo_stack: list[dict[str, Any]] = []
        self.undo_requests: dict[str, dict[str, Any]] = {}
        self.chain_encoding = JCS  # how this chase's events are hashed, for its whole life: as Created names it
        self.chain_head = GENESIS

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None:
        pending = self._pending_events
        kwargs.setdefault("action", pending[0].originator_version if pending else self.version + 1)
        kwargs.setdefault("previous_hash", self.chain_head)
        super().trigger_event(event_class, **kwargs)

    # -- game state ------------------------------------------------------------------------

    def game_state(self) -> dict[str, Any]:
        """What undo and rewind restore: everything but the record's own bookkeeping (a copy)."""
        return copy.deepcopy(self.game_fields())

    def game_fields(self) -> dict[str, Any]:
        """The game state as the chase holds it, not copied: to be read, never changed."""
        return {k: v for k, v in vars(self).items() if not k.startswith("_") and k not in TIMELESS}

    @classmethod
    def upcast_state(cls, state: dict[str, Any], schema: int) -> dict[str, Any]:
        """A state payload of an earlier schema in this class's: the aggregate's own
        ``upcast_vN_vN+1`` steps, the ones eventsourcing runs on an older snapshot."""
        for step in cls.state_steps(schema):
            step.state(state)
        return state

    @classmethod
    def upcast_changes(cls, changes: dict[str, dict[str, Any]], schema: int) -> dict[str, dict[str, Any]]:
        """Changes an undo, rewind or redo stored in state schema ``schema`` (domain/state_changes.py),
        as changes to a state of this class's schema: each step's ``changes`` (domain/state_schema.py)."""
        for step in cls.state_steps(schema):
            step.changes(changes)
        return changes

    @classmethod
    def state_steps(cls, schema: int) -> list[StateStep]:
        """The steps from state schema ``schema`` to this class's (domain/state_schema.py)."""
        return steps_between(cls, schema)

    # -- undo, rewind, redo (domain/rewinding.py) ----------------------------------------

    restore = rewinding.restore
    undo_target = rewinding.undo_target
    undo = rewinding.undo
    rewind = rewinding.rewind
    redo_target = rewinding.redo_target
    redo = rewinding.redo

    # A player's undo requests and the Keeper's answers (domain/undo_requests.py).
    request_undo = undo_requests.request_undo
    undo_request = undo_requests.undo_request
    undo_request_target = undo_requests.undo_request_target
    answer_undo_request = undo_requests.answer_undo_request

    # -- the server-dice seed and the players' entropy (domain/seed_record.py) ---------------

    reveal_seed = seed_record.reveal_seed
    commit_seed = seed_record.commit_seed
    contribute_entropy = seed_record.contribute_entropy
