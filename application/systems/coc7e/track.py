"""The track view: locations in order and who stands where, the round and the turn order.

The projection folds a chase's events into the chase's state with the events' own (pure,
deterministic) apply, then renders the view from that state. An undo, rewind or redo event
carries the state it restores, so the view follows them without reading anything else.
"""
from __future__ import annotations

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
    placed = [p for p in participants.values() if p["location"] is not None]
    if not placed:
        return []
    first = min(p["location"] for p in placed)
    rows = [
        {"index": i, "name": chase.location_names.get(str(i)), "participants": [], "obstacle_ahead": (chase.obstacle_ahead(i) or {}).get("id")}
        for i in range(first, max(p["location"] for p in placed) + 2)
    ]
    for p in sorted(placed, key=lambda p: p["name"]):
        if not p["vehicle_id"]:
            rows[p["location"] - first]["participants"].append(p["id"])
    return rows
