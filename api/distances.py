"""Each participant's distance to every rival (api/affordances.py), worked out again only for
those a command's change reaches (issue 12 part 6).

A pack of 999 pursuers after one quarry has 1,998 distances; worked out afresh for every answer,
they were a good part of a big chase's full answer. The distances last shown for a chase are
kept with the rows they came from. When the rows are those rows (the same objects, or rows whose
place, role and standing are the same) the distances are the ones kept, the very lists, so an
answer's participants are found unchanged by identity; when participants were only added at
the end (a participant joining), only the rivals of those added and the added themselves are
worked out; anything else works every distance out again. tests/application/record/from_scratch.py
checks the answers against those worked out with nothing kept.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import compress
from operator import is_not
from typing import Any, Mapping

Entry = tuple[str, Any, str, bool]  # role, where, unit ("locations" or "metres"), moves itself
KEPT = 64  # chases whose distances are kept


class _Distances:
    """One chase's distances (``out``: pid -> list), with the rows and rivals they came from."""

    __slots__ = ("rows", "entries", "by_role", "out")

    def __init__(self, rows: Mapping[str, Any], entries: dict[str, Entry], by_role: dict[str, list[tuple[str, Any, str, bool]]], out: dict[str, list[dict[str, Any]]]) -> None:
        self.rows, self.entries, self.by_role, self.out = rows, entries, by_role, out


_kept: OrderedDict[str, _Distances] = OrderedDict()
_lock = threading.Lock()


def rivals(chase_id: str, participants: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each participant in the chase's distance to every rival: roles that differ (pursuer and
    quarry), or racers, who race each other. A track counts locations; D6 counts metres."""
    with _lock:
        before = _kept.get(chase_id)
    now = _from(before, participants) if before is not None else None
    if now is None:
        now = _afresh(participants)
    with _lock:
        _kept[chase_id] = now
        _kept.move_to_end(chase_id)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return now.out


def _entry(pid: str, p: Mapping[str, Any]) -> Entry | None:
    where, unit = (p.get("location"), "locations") if p.get("location") is not None else (p.get("position"), "metres")
    if where is None or not p.get("role") or p.get("status") != "in_chase":
        return None
    # Those riding in a vehicle have its distances; they are not counted as rivals of their own.
    return p["role"], where, unit, p.get("vehicle_id") is None and p.get("unit", pid) == pid


def _afresh(participants: Mapping[str, Any]) -> _Distances:
    entries: dict[str, Entry] = {}
    by_role: dict[str, list[tuple[str, Any, str, bool]]] = {}
    for pid, p in participants.items():
        entry = _entry(pid, p)
        if entry is not None:
            entries[pid] = entry
            by_role.setdefault(entry[0], []).append((pid, *entry[1:]))
    out: dict[str, list[dict[str, Any]]] = {}
    for role, members in by_role.items():
        _work_out(by_role, role, members, out)
    return _Distances(participants, entries, by_role, out)


def _work_out(by_role: dict[str, list[tuple[str, Any, str, bool]]], role: str, members: list[tuple[str, Any, str, bool]], out: dict[str, list[dict[str, Any]]]) -> None:
    """The distances of ``members`` (of ``role``) to every rival that moves itself."""
    rivals = [m for other, others in by_role.items() if other != role or role == "racer" for m in others if m[3]]
    for pid, where, unit, _ in members:
        out[pid] = [{"to": other, unit: abs(there - where)} for other, there, _, _ in rivals if other != pid]


def _from(before: _Distances, participants: Mapping[str, Any]) -> _Distances | None:
    """The distances from those kept when every participant kept stands as it stood (its place,
    role and standing) and any others were added after them; None otherwise."""
    if participants is before.rows:  # the very rows (application/projections/rows.py): every distance stands
        return before
    if len(participants) < len(before.rows):
        return None
    entries = before.entries
    kept = len(before.rows)
    ids = list(participants)
    if ids[:kept] != list(before.rows):
        return None
    # Compared in C first: the rows are mostly the very rows of the last answer.
    for pid in compress(ids, map(is_not, participants.values(), before.rows.values())):
        if pid in before.rows and _entry(pid, participants[pid]) != entries.get(pid):
            return None
    added = []
    for pid in ids[kept:]:
        entry = _entry(pid, participants[pid])
        if entry is not None:
            added.append((pid, *entry[1:], entry[0]))
    if not added:
        return _Distances(participants, entries, before.by_role, before.out)
    entries = dict(entries)
    by_role = {role: list(members) for role, members in before.by_role.items()}
    for pid, where, unit, moves_itself, role in added:
        entries[pid] = (role, where, unit, moves_itself)
        by_role.setdefault(role, []).append((pid, where, unit, moves_itself))
    out = dict(before.out)
    # Those whose rivals now include an added one that moves itself, and the added themselves.
    again = {role for role in by_role for _, _, _, moves_itself, added_role in added if moves_itself and (role != added_role or role == "racer")}
    for role in again:
        _work_out(by_role, role, by_role[role], out)
    for pid, where, unit, moves_itself, role in added:
        if role not in again:
            _work_out(by_role, role, [(pid, where, unit, moves_itself)], out)
    return _Distances(participants, entries, by_role, out)
