"""Who takes part in a Call of Cthulhu chase: characters, creatures and vehicles.

Characters and creatures run on their own MOV and make the speed roll with CON; vehicles run on
their chart MOV and their driver makes the speed roll with the vehicle's driving skill
(coc7e-chases.txt "Speed Roll", "Vehicle Reference Charts"). Characters aboard a vehicle are its
driver or its passengers ("Passengers": no speed roll and no movement actions of their own).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("character", "creature", "vehicle")
ROLES = ("pursuer", "quarry")
SEATS = ("driver", "passenger")
DRIVING_SKILLS = ("Drive Auto", "Pilot", "Operate Heavy Machinery", "Ride")

# Ranges that keep out typing mistakes, wide enough for monsters and battleships
# (coc7e-chases.txt "MOV Rates" tops at MOV 20; "Water Vehicles": Build 75, "Heavy Vehicles": armor 24).
LIMITS = {
    "mov": (1, 30),
    "dex": (1, 500),
    "con": (1, 500),
    "hp": (1, 999),
    "build": (-2, 100),
    "armor": (0, 50),
    "skill": (0, 200),
}


class InvalidParticipant(ValueError):
    """A participant described with a missing, impossible or contradictory value."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


@dataclass
class Participant:
    """One character, creature or vehicle in a chase, with its state in this chase."""

    id: str
    name: str
    kind: str
    role: str
    mov: int
    joined: int
    dex: int | None = None
    con: int | None = None
    hp: int | None = None
    build: int = 0
    damage_bonus: str = "0"
    skills: dict[str, int] = field(default_factory=dict)
    armor: int = 0
    driving_skill: str | None = None
    vehicle: str | None = None
    seat: str | None = None
    speed_mov: int | None = None
    status: str = "ready"  # ready | in_chase | escaped | left_behind
    movement_actions: int = 0
    owed: int = 0

    @property
    def aboard(self) -> bool:
        return self.vehicle is not None

    @property
    def chase_mov(self) -> int:
        """MOV for this chase: adjusted by the speed roll once it is made."""
        return self.speed_mov if self.speed_mov is not None else self.mov

    def combat_skill(self) -> int:
        """Best Fighting or Firearms skill, for DEX ties (coc7e-combat.txt)."""
        values = [v for k, v in self.skills.items() if k.startswith(("Fighting", "Firearms"))]
        return max(values, default=0)


def _whole(spec: dict[str, Any], name: str, *, required: bool, limit: str | None = None) -> int | None:
    value = spec.get(name)
    if value is None:
        if required:
            raise InvalidParticipant(name, "is required")
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidParticipant(name, "must be a whole number")
    low, high = LIMITS[limit or name]
    if not low <= value <= high:
        raise InvalidParticipant(name, f"must be from {low} to {high}, not {value}")
    return value


def validate(spec: dict[str, Any], vehicles: dict[str, Participant]) -> dict[str, Any]:
    """Check a participant description and return it complete, ready for the event."""
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidParticipant("name", "is required")
    kind = spec.get("kind", "character")
    if kind not in KINDS:
        raise InvalidParticipant("kind", f"must be one of {', '.join(KINDS)}")
    skills = spec.get("skills") or {}
    if not isinstance(skills, dict):
        raise InvalidParticipant("skills", "must map skill names to values")
    for skill, value in skills.items():
        _whole({f"skills.{skill}": value}, f"skills.{skill}", required=True, limit="skill")
    out: dict[str, Any] = {
        "name": name.strip(),
        "kind": kind,
        "skills": dict(skills),
        "build": _whole(spec, "build", required=False) or 0,
        "armor": _whole(spec, "armor", required=False) or 0,
        "damage_bonus": str(spec.get("damage_bonus") or "0"),
        "hp": _whole(spec, "hp", required=False),
        "vehicle": None,
        "seat": None,
        "driving_skill": None,
    }
    vehicle_id = spec.get("vehicle_id")
    if kind == "vehicle":
        out["role"] = _role(spec)
        out["mov"] = _whole(spec, "mov", required=True)
        out["dex"] = None
        out["con"] = None
        skill = spec.get("driving_skill") or "Drive Auto"
        if skill not in DRIVING_SKILLS:
            raise InvalidParticipant("driving_skill", f"must be one of {', '.join(DRIVING_SKILLS)}")
        out["driving_skill"] = skill
        if vehicle_id is not None:
            raise InvalidParticipant("vehicle_id", "a vehicle cannot ride in another vehicle")
        return out
    out["dex"] = _whole(spec, "dex", required=True)
    out["con"] = _whole(spec, "con", required=vehicle_id is None)
    out["mov"] = _whole(spec, "mov", required=True)
    if vehicle_id is None:
        if spec.get("seat") is not None:
            raise InvalidParticipant("vehicle_id", "a seat needs the vehicle it is in")
        out["role"] = _role(spec)
        return out
    vehicle = vehicles.get(vehicle_id)
    if vehicle is None:
        raise InvalidParticipant("vehicle_id", f"no vehicle {vehicle_id} in this chase")
    seat = spec.get("seat", "passenger")
    if seat not in SEATS:
        raise InvalidParticipant("seat", f"must be one of {', '.join(SEATS)}")
    out.update(role=vehicle.role, vehicle=vehicle_id, seat=seat)
    return out


def _role(spec: dict[str, Any]) -> str:
    role = spec.get("role")
    if role not in ROLES:
        raise InvalidParticipant("role", f"must be one of {', '.join(ROLES)}")
    return role
