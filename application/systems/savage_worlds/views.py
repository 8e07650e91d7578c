"""What the Savage Worlds views share: the record's fields, participants, the deck, vehicles.

Rendered from a Savage Worlds chase's state (domain/rules/savage_worlds), like the Call of
Cthulhu views (application/systems/coc7e): pure functions of the folded events.
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from application.projections.record import record_fields
from domain.rules.savage_worlds.cards import card
from domain.rules.savage_worlds.conditions import FATIGUE_LEVELS


def header(chase: Any) -> dict[str, Any]:
    """What every chase shows (application/projections/record.py) and the round's stage."""
    return {**record_fields(chase), "stage": chase.stage}


def bookkeeping(chase: Any) -> dict[str, Any]:
    return {"pending": [dict(f) for f in chase.pending]}


def card_dict(code: str) -> dict[str, Any]:
    c = card(code)
    return {"card": c.code, "label": c.label, "suit": c.suit, "value": c.value, "joker": c.is_joker}


def conditions(p: Any) -> dict[str, Any]:
    c = p.conditions
    return {
        "shaken": c.shaken,
        "distracted": c.is_distracted,
        "vulnerable": c.is_vulnerable,
        "fatigue": FATIGUE_LEVELS[c.fatigue],
        "turn_ends_left": {"distracted": c.distracted, "vulnerable": c.vulnerable},
        "stunned": c.stunned,
        "bound": c.bound,
        "entangled": c.entangled,
        "prone": c.prone,
    }


def participant(chase: Any, p: Any) -> dict[str, Any]:
    unit = p.with_id or p.id
    held = chase.action_cards.get(unit, [])
    return {
        "id": p.id,
        "name": p.name,
        "kind": p.kind,
        "role": p.role,
        "status": p.status,
        "unit": unit,
        "with_id": p.with_id,
        "seat": p.seat,
        "wild_card": p.wild_card,
        "maneuver_skill": p.maneuver_skill,
        "maneuver_die": p.maneuver_die,
        "speed": p.speed(),
        "toughness": p.toughness,
        "wounds": p.vehicle.wounds if p.vehicle is not None else p.wounds,
        "conditions": conditions(p),
        "mount_fatigue": FATIGUE_LEVELS[min(p.mount_fatigue, len(FATIGUE_LEVELS) - 1)] if p.mounted else None,
        "action_cards": [card_dict(c) for c in held],
        "acted": unit in chase.turn_order[: chase.turn_index],
        "injuries": [dict(e) for e in chase.vehicle_log.get(p.id, []) if e["event"] == "injury"],  # "INJURY TABLE"
        "bennies": p.bennies,
        "on_hold": p.on_hold,
        "actions_this_turn": dict(chase.turn.get("actions", {}).get(p.id, {"taken": 0, "declared": 1})),  # Multi-Actions
    }


def deck(chase: Any, name: str) -> dict[str, Any] | None:
    d = chase.decks.get(name)
    if d is None:
        return None
    return {
        "mode": chase.settings.get("deck"),
        "cards_left": len(d["cards"]) - len(d["dealt"]),
        "dealt": len(d["dealt"]),
        "discards": list(d["discards"]),
        "shuffle_sequence": d["shuffle_sequence"],
    }


def render_vehicles(chase: Any) -> dict[str, Any]:
    """The vehicle view: Toughness, Wounds, Handling and Top Speed after Critical Hits, occupants,
    and every damage, Out of Control and Critical Hit (swade-chases-reference.txt "DAMAGE")."""
    vehicles = []
    for p in chase.participants.values():
        if not p.is_vehicle:
            continue
        state = asdict(p.vehicle)
        vehicles.append(
            {
                "id": p.id,
                "name": p.name,
                "role": p.role,
                "status": p.status,
                "scale": p.scale,
                "toughness": p.toughness,
                "armor": p.armor,
                "wounds": state["wounds"],
                "max_wounds": p.max_wounds,
                "wrecked": p.status == "wrecked",
                "handling": p.handling,
                "handling_penalty": state["handling_penalty"],
                "top_speed": p.top_speed,
                "top_speed_percent": state["top_speed_percent"],
                "top_speed_now": p.speed(),
                "weapons": p.weapons,
                "position": chase.track.location_of(p.id),
                "occupants": [
                    {"id": o.id, "name": o.name, "seat": o.seat, "conditions": conditions(o)}
                    for o in chase.occupants(p.id)
                ],
                "critical_hits": [e for e in chase.vehicle_log.get(p.id, []) if e["event"] == "critical hit"],
                "log": list(chase.vehicle_log.get(p.id, [])),
            }
        )
    return {"chase_id": str(chase.id), "version": chase.version, "vehicles": vehicles}
