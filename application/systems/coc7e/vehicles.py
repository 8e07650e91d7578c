"""The vehicle-build view: each vehicle's Build, its state, its occupants and every Build lost.

coc7e-chases.txt "Vehicle Reference Charts" (the notes on Build, impaired, wrecked, undrivable).
A vehicle's ``condition`` is "sound", "impaired" (half its starting Build or lower, rounded down:
one penalty die on its driving rolls), "undrivable" (zero Build by cumulative damage) or
"wrecked" (damage equal to its full Build in one incident). ``build_losses`` lists every Build
lost, oldest first, with its cause, the hit points that caused it (when it came from hit
points), the Build before and after, and the roll it came from.
"""
from __future__ import annotations

import pickle
import threading
from collections import OrderedDict
from typing import Any

from application.chase_digest import Digest, digest
from domain.json_encoding import id_text


def render(chase: Any) -> dict[str, Any]:
    """The vehicle-build view of a chase's state."""
    losses = getattr(chase, "build_losses", {})
    now = digest(chase)
    lost = pickle.dumps(losses, protocol=pickle.HIGHEST_PROTOCOL)
    vehicles = _kept.unchanged(chase, now, lost)
    if vehicles is None:
        vehicles = _vehicles(chase, losses)
        _kept.keep(chase.id, now, lost, vehicles, frozenset(p.id for p in chase.participants.values() if _aboard_or_vehicle(p)))
    return {"chase_id": id_text(chase.id), "version": chase.version, "vehicles": vehicles}


def _aboard_or_vehicle(p: Any) -> bool:
    return p.kind == "vehicle" or p.vehicle is not None


class _Kept:
    """Each chase's vehicles as last rendered, with the state's digest (application/chase_digest.py),
    the Build lost (as bytes) and who is a vehicle or aboard one: the same vehicles while the
    events since changed none of those (a roll, a participant on foot joining; issue 12 part 6:
    never a walk through 1,000 participants for the few vehicles)."""

    def __init__(self) -> None:
        self._last: OrderedDict[Any, tuple[Digest, bytes, list[dict[str, Any]], frozenset[str]]] = OrderedDict()
        self._lock = threading.Lock()

    def unchanged(self, chase: Any, now: Digest, lost: bytes) -> list[dict[str, Any]] | None:
        with self._lock:
            last = self._last.get(chase.id)
        changed = now.changed_since(last[0]) if last is not None and last[1] == lost else None
        if changed is None:
            return None
        participants = chase.participants
        for pid in changed:
            p = participants.get(pid)
            if pid in last[3] or (p is not None and _aboard_or_vehicle(p)):
                return None
        self.keep(chase.id, now, lost, last[2], last[3])
        return last[2]

    def keep(self, chase_id: Any, now: Digest, lost: bytes, vehicles: list[dict[str, Any]], related: frozenset[str]) -> None:
        with self._lock:
            self._last[chase_id] = (now, lost, vehicles, related)
            self._last.move_to_end(chase_id)
            while len(self._last) > KEPT:
                self._last.popitem(last=False)


KEPT = 128  # chases whose vehicles are kept
_kept = _Kept()


def _vehicles(chase: Any, losses: dict[str, Any]) -> list[dict[str, Any]]:
    vehicles = []
    for p in chase.participants.values():
        if p.kind != "vehicle":
            continue
        starting = getattr(p, "starting_build", None)
        condition = getattr(p, "condition", None) or "sound"
        vehicles.append(
            {
                "id": p.id,
                "name": p.name,
                "chart_vehicle": getattr(p, "chart_vehicle", None),
                "era": getattr(p, "era", None),
                "role": p.role,
                "status": p.status,
                "driving_skill": p.driving_skill,
                "mov": p.mov,
                "starting_build": starting if starting is not None else p.build,
                "build": p.build,
                "build_lost": getattr(p, "build_lost", 0),
                "condition": condition,
                "impaired": condition == "impaired",
                "wrecked": condition == "wrecked",
                "undrivable": condition == "undrivable",
                "penalty_dice": 1 if condition == "impaired" else 0,
                "armor": p.armor,
                "occupants": [
                    {
                        "id": o.id,
                        "name": o.name,
                        "seat": o.seat,
                        "hp": o.hp,
                        "damage": getattr(o, "damage", 0),
                        "hp_left": getattr(o, "hp_left", o.hp),
                        "status": o.status,
                        "fate": getattr(o, "fate", None),
                    }
                    for o in chase.participants.values()
                    if o.vehicle == p.id
                ],
                "build_losses": list(losses.get(p.id, [])),
            }
        )
    return vehicles
