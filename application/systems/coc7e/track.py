"""The track view: locations in order and who stands where, the round and the turn order.

The projection folds a chase's events into the chase's state with the events' own (pure,
deterministic) apply, then renders the view from that state. An undo, rewind or redo event
carries the state it restores, so the view follows them without reading anything else.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import compress
from operator import is_not
from typing import Any

from application.projections.record import record_fields
from application.projections.rows import participant_rows
from application.systems.coc7e import pursuit_view


def render(chase: Any) -> dict[str, Any]:
    """The track view of a Call of Cthulhu chase's state."""
    acted = set(chase.turn_order[: chase.turn_index]) if chase.phase == "running" else set()
    participants = participant_rows(chase, lambda chase, pid: _participant(chase, chase.participants[pid], pid in acted))
    return {
        **record_fields(chase),
        "slowest_mov": chase.slowest_mov,
        # The optional rules of part 5 in use (a fight without a chase has none of them).
        "optional_rules": list(getattr(chase, "optional_rules", ())),
        # Splitting up: the chase this one split from, those split from it, and its sister chases.
        "split_from": getattr(chase, "split_from", None),
        "split_into": list(getattr(chase, "split_into", ())),
        "split_sisters": list(getattr(chase, "split_sisters", ())),
        "forks": [{"at": int(at), "routes": list(names)} for at, names in sorted(getattr(chase, "forks", {}).items(), key=lambda kv: int(kv[0]))],
        "locations": _locations(chase, participants),
        "participants": participants,
        "location_names": [{"index": int(k), "name": v} for k, v in sorted(chase.location_names.items(), key=lambda kv: int(kv[0]))],
        "obstacles": [_obstacle(o) for o in sorted(chase.obstacles.values(), key=lambda o: (o["from_location"], o["destroyed"], o["name"]))],
        # Copies: a later event updates a mishap in place (MishapRolled), and a view must stay as
        # it was rendered (the replay job keeps a frame per event; issue 10 property test).
        "mishaps": [dict(m) for m in chase.mishaps.values()],
        "caught_up": list(chase.caught_up),
        "pursuit": pursuit_view.render(chase),  # part 5 on the road and the trail
    }


def _participant(chase: Any, p: Any, acted: bool) -> dict[str, Any]:
    carrier = p.vehicle or p.id
    return {
        "id": p.id,
        "name": p.name,
        "kind": p.kind,
        "role": p.role,
        "status": p.status,
        "mov": p.mov,
        "speed_mov": p.speed_mov,
        "dex": p.dex,
        "build": p.build,
        "hp": p.hp,
        "vehicle_id": p.vehicle,
        "seat": p.seat,
        "location": chase.track.location_of(carrier) if p.status == "in_chase" else None,
        "movement_actions": p.movement_actions,
        "owed": p.owed,
        "acted": acted,
        "damage": p.damage,
        "hp_left": p.hp_left,
        "armor": p.armor,
        "attacks_made": p.attacks_made,
        "condition": p.condition,
        "fate": p.fate,
        # Combat (issue 14): wounds and state, the attacks a round, the weapons carried, and
        # whether melee attacks on them now take the outnumbered bonus die.
        "major_wound": p.major_wound,
        "prone": p.prone,
        "unconscious": p.unconscious or (p.kind != "vehicle" and p.hp_left == 0),
        "dying": p.dying,
        "stabilised": p.stabilised,
        "dead": p.dead,
        "first_aid_tries": p.first_aid_tries,
        "attacks_per_round": p.attacks_per_round,
        "weapons": [dict(w) for w in p.weapons],
        "held_by": p.held_by,
        "disadvantage": p.disadvantage,
        "outnumbered": p.defended_round is not None and p.defended_round == chase.round,
        # Firearms over turns: the round through which a diver forfeits attacks ("Diving for
        # Cover"), the aim being taken ("Aiming"), and whether First Aid has succeeded.
        "dived_for_cover_until_round": p.dived_until_round if p.dived_until_round is not None and p.dived_until_round >= chase.round else None,
        "aiming": dict(p.aim) if p.aim else None,
        "first_aid_succeeded": p.first_aid_succeeded,
        "obstacle_ahead": _ahead(chase, p),
        # The routes taken at each fork passed ("Choosing a Route"): location -> route.
        "routes": dict(getattr(chase, "paths", {}).get(p.id, {})),
        "mishap": dict(chase.mishaps[p.id]) if p.id in chase.mishaps else None,
    }


def _ahead(chase: Any, p: Any) -> str | None:
    """The hazard or standing barrier between the participant's location and the next."""
    if p.status != "in_chase" or p.vehicle:
        return None
    found = chase.obstacle_ahead(chase.track.location_of(p.id))
    return found["id"] if found else None


def _obstacle(o: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": o["id"],
        "kind": o["kind"],
        "name": o["name"],
        "between": [o["from_location"], o["to_location"]],
        "skills": list(o["skills"]),
        "difficulty": o["difficulty"],
        "hit_points": o["hit_points"],
        "starting_hit_points": o["starting_hit_points"],
        "preset": o["preset"],
        "destroyed": o["destroyed"],
        "debris_of": o["debris_of"],
    }


def _locations(chase: Any, participants: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Every location from the back of the chase to one beyond the leader, with who is there.

    Locations behind the rearmost participant are left out: a long chase would otherwise
    carry every location it ever passed. ``index`` stays the location's place on the track.
    """
    found = _placements.of(chase.id, participants)
    if found is None:
        return []
    first, members = found
    return [
        {"index": i, "name": chase.location_names.get(str(i)), "participants": list(members[i - first]), "obstacle_ahead": (chase.obstacle_ahead(i) or {}).get("id")}
        for i in range(first, first + len(members))
    ]


def _placed(row: dict[str, Any]) -> tuple[Any, ...] | None:
    """What of a participant's row its place in ``locations`` comes from (None: nowhere)."""
    return None if row["location"] is None else (row["location"], not row["vehicle_id"], row["name"])


class _Placements:
    """Each chase's first location shown and who is listed at each, with the rows they came from:
    found again only when a row's place, name or seat changed (issue 12 part 6: a roll at 1,000
    participants does not sort 1,000 of them again)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Any, tuple[dict[str, dict[str, Any]], tuple[int, list[list[str]]] | None]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, chase_id: Any, participants: dict[str, dict[str, Any]]) -> tuple[int, list[list[str]]] | None:
        with self._lock:
            kept = self._kept.get(chase_id)
        if kept is not None and (kept[0] is participants or _same_places(kept[0], participants)):
            found = kept[1]
        else:
            found = _place(participants)
        with self._lock:
            self._kept[chase_id] = (participants, found)
            self._kept.move_to_end(chase_id)
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found


def _same_places(before: dict[str, dict[str, Any]], now: dict[str, dict[str, Any]]) -> bool:
    """Whether ``now`` places everyone as ``before`` did: the same participants in the same order
    (those added after them placed nowhere), the rows not the very ones placed alike."""
    if len(now) < len(before) or list(now)[:len(before)] != list(before):  # the order breaks ties between names
        return False
    # Compared in C first: the rows are mostly the very rows placed last.
    return all(_placed(now[pid]) == (_placed(before[pid]) if pid in before else None) for pid in compress(now, map(is_not, now.values(), map(before.get, now))))


def _place(participants: dict[str, dict[str, Any]]) -> tuple[int, list[list[str]]] | None:
    placed = [p for p in participants.values() if p["location"] is not None]
    if not placed:
        return None
    first = min(p["location"] for p in placed)
    members: list[list[str]] = [[] for _ in range(first, max(p["location"] for p in placed) + 2)]
    for p in sorted(placed, key=lambda p: p["name"]):
        if not p["vehicle_id"]:
            members[p["location"] - first].append(p["id"])
    return first, members


KEPT = 128  # chases whose placements are kept
_placements = _Placements()
