"""The vehicle-build view: each vehicle's Build, its state, its occupants and every Build lost.

coc7e-chases.txt "Vehicle Reference Charts" (the notes on Build, impaired, wrecked, undrivable).
A vehicle's ``condition`` is "sound", "impaired" (half its starting Build or lower, rounded down:
one penalty die on its driving rolls), "undrivable" (zero Build by cumulative damage) or
"wrecked" (damage equal to its full Build in one incident). ``build_losses`` lists every Build
lost, oldest first, with its cause, the hit points that caused it (when it came from hit
points), the Build before and after, and the roll it came from.
"""
from __future__ import annotations

from typing import Any


def render(chase: Any) -> dict[str, Any]:
    """The vehicle-build view of a chase's state."""
    losses = getattr(chase, "build_losses", {})
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
    return {"chase_id": str(chase.id), "version": chase.version, "vehicles": vehicles}
