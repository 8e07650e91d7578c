"""The schema steps of what a chase stores (DESIGN.md 3): its events' ``upcast_vN_vN+1`` and the
state's, run on load by eventsourcing (events, snapshots) and by ``RecordedChase.restore`` (the
``restored`` payload of undo, rewind and redo). An event upcaster is wrapped in
``domain.chain.keeps_record`` where it is used, so that an upcast event keeps its hash."""
from __future__ import annotations

from typing import Any

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
