"""The schema steps of what a chase stores (DESIGN.md 3): its events' ``upcast_vN_vN+1`` and the
state's, run on load by eventsourcing (events, snapshots) and by ``RecordedChase.restore`` (the
changes undo, rewind and redo stored). An event upcaster is wrapped in
``domain.chain.keeps_record`` where it is used, so that an upcast event keeps its hash.

A step of the chase's state schema is a ``StateStep``: how a stored state of version N becomes
one of N+1, and how the changes an undo, rewind or redo of version N stored become changes to a
state of N+1 (domain/state_changes.py). Those changes are applied to the state as today's code
holds it, so they must name its keys in its shapes: a step that renames or reshapes a key says
how in its changes too, or an old undo would change a key that is no longer there. Both are
required, so that a new step cannot forget the undos already stored."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

Changes = dict[str, dict[str, Any]]  # the changes an undo, rewind or redo stores


@dataclass(frozen=True)
class StateStep:
    """A chase's state schema N -> N+1, declared as the aggregate's ``upcast_vN_vN+1``.

    ``state`` upcasts a stored state in place: a snapshot (eventsourcing calls the step itself),
    or the keys an older undo changed, after they were changed (``restore``: it adds the defaults
    a value set by that undo lacks). So it must work on part of a state, and leave what is
    already of schema N+1 as it is (``setdefault``; a rename only where the old key is there).
    ``changes`` upcasts in place the changes an undo, rewind or redo of schema N stored, before
    they are applied: ``same_changes`` for a step that only adds keys or defaults."""

    state: Callable[[dict[str, Any]], None]
    changes: Callable[[Changes], None]

    def __call__(self, state: dict[str, Any]) -> None:
        self.state(state)


def steps_between(aggregate: type, schema: int) -> list[StateStep]:
    """``aggregate``'s state steps from schema ``schema`` to its ``class_version``; a step
    declared otherwise than as a StateStep is refused, as it would forget the stored changes."""
    today: int = getattr(aggregate, "class_version")
    if schema > today:
        raise ValueError(f"a state of schema {schema} is newer than this code's {aggregate.__name__} (schema {today})")
    steps = []
    for version in range(schema, today):
        step = getattr(aggregate, f"upcast_v{version}_v{version + 1}")
        if not isinstance(step, StateStep):
            raise TypeError(f"{aggregate.__name__}.upcast_v{version}_v{version + 1} must be a StateStep (domain/state_schema.py)")
        steps.append(step)
    return steps


def same_changes(changes: Changes) -> None:
    """The changes of a step that only adds keys or defaults: the same. They name the keys the
    new schema has, in their shapes; a value they set gets its defaults from the state step."""


def renamed_in_changes(changes: Changes, old: str, new: str) -> None:
    """A top-level key renamed from ``old`` to ``new`` in stored changes: for a step that renames
    a key of the state, the same rename of what an older undo changes."""
    if old in changes:
        changes[new] = changes.pop(old)

from domain.chain import ENCODING_FIELD, SORTED_JSON


def restored_schema_1(state: dict[str, Any]) -> None:
    """Undone, Rewound and Redone v1 -> v2: v1 did not say which state schema ``restored`` has;
    every v1 event was written when the state schema of every chase was 1."""
    state["restored_schema"] = 1


def chained_with_sorted_json(state: dict[str, Any]) -> None:
    """Created v1 -> v2: v1 named no chain encoding; every chase created then was chained with
    sorted JSON (domain/chain.py), and keeps it: its first record, as written, still names none."""
    state[ENCODING_FIELD] = SORTED_JSON


def chase_state_v1_v2(state: dict[str, Any]) -> None:
    """A chase's stored state, schema 1 -> 2: schema 2 keeps the chain's encoding. A snapshot of
    schema 1 is of a chase chained with sorted JSON; a restored payload (undo, rewind, redo) holds
    no TIMELESS keys, so there is nothing to add to it (the chase keeps its own encoding)."""
    if "chain_head" in state:
        state.setdefault("chain_encoding", SORTED_JSON)


def restored_as_changes(state: dict[str, Any]) -> None:
    """Undone, Rewound and Redone v2 -> v3: v2 stored the whole state restored (``restored``);
    v3 stores the changes to it (domain/state_changes.py). A whole state is the change that sets
    each of its keys, as restoring it always did (a key it lacks is left as it is)."""
    state["changes"] = {key: {"set": value} for key, value in state.pop("restored").items()}
