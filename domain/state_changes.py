"""The changes that turn one game state into another: what undo, rewind and redo store.

An undo restores the game state of an earlier version (DESIGN.md 5). Storing that whole state
made each undo as big as the chase (a quarter of a megabyte at 300 participants); what changed
between the state now and the one restored is usually a few participants and counters. So an
undo, a rewind and a redo store only the changes, key by key of the state, each in one of four
forms (plain JSON, so that the hash chain covers them as written):

* ``{"set": value}``: the key takes this value;
* ``{"drop": true}``: the key is no longer in the state;
* ``{"entries": {name: change, ...}}``: a dict whose entries changed, each by one of these forms;
* ``{"keep": n, "then": [...]}``: a list that keeps its first ``n`` items, then these.

Applying the changes to the state they were taken from gives the other state exactly, and the
state before an undo is itself the fold of the log, so applying stays deterministic (DESIGN.md 3).
"""
from __future__ import annotations

import copy
from typing import Any

MISSING: Any = object()  # a key the state does not have


class NoBase(ValueError):
    """A change of entries or of a list's items found no dict or list to change: the changes
    were not computed from a state of this shape (an older schema's, not upcast)."""


def changes_between(now: dict[str, Any], then: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The changes that turn state ``now`` into state ``then`` (values copied from ``then``)."""
    changes: dict[str, dict[str, Any]] = {}
    for key in sorted(now.keys() | then.keys(), key=str):
        change = change_of(now.get(key, MISSING), then.get(key, MISSING))
        if change is not None:
            changes[key] = change
    return changes


def change_of(old: Any, new: Any) -> dict[str, Any] | None:
    """The form that turns ``old`` into ``new``; None when they are equal."""
    if new is MISSING:
        return None if old is MISSING else {"drop": True}
    if old is not MISSING and type(old) is type(new) and old == new:
        return None
    if type(old) is dict and type(new) is dict and keeps_order(old, new):
        return {"entries": changes_between(old, new)}
    if type(old) is list and type(new) is list:
        kept = 0
        for before, after in zip(old, new):
            if type(before) is not type(after) or before != after:
                break
            kept += 1
        return {"keep": kept, "then": copy.deepcopy(new[kept:])}
    return {"set": copy.deepcopy(new)}


def keeps_order(old: dict[Any, Any], new: dict[Any, Any]) -> bool:
    """Whether changing ``old`` entry by entry gives ``new`` in its order (new entries come
    last), with text keys only (as JSON keeps them): otherwise ``new`` is set whole."""
    if not all(isinstance(name, str) for name in (*old, *new)):
        return False
    return [name for name in old if name in new] + [name for name in new if name not in old] == list(new)


def apply_change(old: Any, change: dict[str, Any]) -> Any:
    """``old`` changed by one form (MISSING when the form drops it); never changes ``old`` itself."""
    if "set" in change:
        return copy.deepcopy(change["set"])
    if "drop" in change:
        return MISSING
    if "entries" in change:
        if not isinstance(old, dict):
            raise NoBase(f"changes entries of a {describe(old)}, not of a dict")
        value = dict(old)
        for name, entry in change["entries"].items():
            changed = apply_change(value.get(name, MISSING), entry)
            if changed is MISSING:
                value.pop(name, None)
            else:
                value[name] = changed
        return value
    if not isinstance(old, list):
        raise NoBase(f"keeps the first items of a {describe(old)}, not of a list")
    return list(old)[: change["keep"]] + copy.deepcopy(list(change["then"]))


def describe(value: Any) -> str:
    """What a change found, in a refusal's words."""
    return "key that is not there" if value is MISSING else type(value).__name__
