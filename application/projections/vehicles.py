"""The vehicle-build view: each vehicle's Build, its state, its occupants and every Build lost.

coc7e-chases.txt "Vehicle Reference Charts" (the notes on Build, impaired, wrecked, undrivable).
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
        vehicles.append(
            {
                "id": p.id,
                "name": p.name,
                "role": p.role,
                "status": p.status,
                "driving_skill": p.driving_skill,
                "starting_build": starting if starting is not None else p.build,
                "build": p.build,
                "condition": getattr(p, "condition", "sound"),
                "armor": p.armor,
                "occupants": [
                    {"id": o.id, "name": o.name, "seat": o.seat, "hp": o.hp}
                    for o in chase.participants.values()
                    if o.vehicle == p.id
                ],
                "build_losses": list(losses.get(p.id, [])),
            }
        )
    return {"chase_id": str(chase.id), "version": chase.version, "vehicles": vehicles}
