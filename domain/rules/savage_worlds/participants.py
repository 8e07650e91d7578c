"""Who takes part in a Savage Worlds chase: characters, vehicles, and the groups they form.

swade-chases-reference.txt "SETUP": "Break all the participants into groups that will maneuver
together"; swd-chases.txt "Resolving a Chase": a character on their own makes the rolls and takes
the damage; in a vehicle the driver makes the rolls and the vehicle takes the damage ("the
participant"). Here a *unit* is what stands on the row of Chase Cards or holds an Action card: a
vehicle, or a character with the group that follows them. Everyone else rides in a vehicle
(driver or passenger) or follows a leader (member), and moves with their unit ("BUMP": "Groups
always stay together"). The *operator* of a unit rolls its maneuvering rolls: a vehicle's driver,
or the character at the head of the group.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from domain import names
from domain.rules.savage_worlds.conditions import Conditions
from domain.rules.savage_worlds.dice import trait_die
from domain.rules.savage_worlds.errors import CORE, SWADE, InvalidValue
from domain.rules.savage_worlds.swade_tables import SCALE_MODIFIERS, SIZE_SCALE
from domain.rules.savage_worlds.swade_vehicles import VehicleState
from domain.rules.savage_worlds.swd_chase import foot_speed

KINDS = ("character", "vehicle")
ROLES = ("chaser", "quarry")
SEATS = ("driver", "passenger", "member")  # driver/passenger of a vehicle; member of a group
# "ready" before the chase begins; "out" for a failed Disaster, "wrecked" for a vehicle beyond its
# Wounds (and those aboard), "incapacitated" for a character.
STATUSES = ("ready", "in_chase", "escaped", "out", "wrecked", "incapacitated")
WILD_CARD_WOUNDS = 3  # core rules "Damage": a Wild Card is Incapacitated beyond three Wounds
STARTING_BENNIES = 3  # core rules "Bennies": a player's Wild Card starts each session with three
MAX_BENNIES = 20
DEFAULT_SKILL = {"vehicle": "Driving", "mounted": "Riding", "foot": "Athletics"}


@dataclass
class SavageParticipant:
    """One character or vehicle in a Savage Worlds chase, with its state in this chase."""

    # 2: bennies and Hold (issue 17); a stored participant of schema 1 had neither.
    class_version = 2

    id: str
    name: str
    joined: int
    kind: str = "character"
    role: str | None = None
    with_id: str | None = None  # the vehicle they ride in, or the leader they follow
    seat: str | None = None
    wild_card: bool = True
    maneuver_die: str | None = None  # the maneuvering skill's die: Driving, Piloting, Riding, Athletics
    maneuver_skill: str = "Athletics"
    spirit: str | None = None
    mounted: bool = False
    toughness: int | None = None
    armor: int = 0
    scale: str = "Normal"
    top_speed: float | None = None  # mph for vehicles and mounts; a runner's Pace + Run die otherwise
    pace: int | None = None
    running_die: int = 6
    climb: int | None = None
    handling: int = 0
    max_wounds: int = WILD_CARD_WOUNDS
    weapons: int = 0
    has_systems: bool = False
    status: str = "ready"
    wounds: int = 0
    mount_fatigue: int = 0  # "the mount suffers Fatigue": a penalty to the rider's Riding rolls
    conditions: Conditions = field(default_factory=Conditions)
    vehicle: VehicleState | None = None
    bennies: int = 0  # swade-chases-reference.txt "BENNIES MAY BE USED TO.." (bennies.py)
    on_hold: bool = False  # a unit holding its Action Card ("Hold")
    last_roll: dict[str, Any] | None = None  # the trait roll a benny may reroll (bennies.py)
    last_damage: dict[str, Any] | None = None  # the damage a benny may soak (bennies.py)

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Schema 1 knew no bennies and no Hold: none held, not on Hold, nothing to reroll or soak
        (its rolls did not say what a benny would change)."""
        state.setdefault("bennies", 0)
        state.setdefault("on_hold", False)
        state.setdefault("last_roll", None)
        state.setdefault("last_damage", None)

    @property
    def aboard(self) -> bool:
        return self.with_id is not None

    @property
    def is_vehicle(self) -> bool:
        return self.kind == "vehicle"

    @property
    def in_chase(self) -> bool:
        return self.status == "in_chase"

    def speed(self) -> float | None:
        """Top Speed for the speed comparisons (a vehicle's after Locomotion hits)."""
        if self.is_vehicle and self.top_speed is not None and self.vehicle is not None:
            return self.vehicle.top_speed(self.top_speed)
        if self.top_speed is not None:
            return self.top_speed
        return foot_speed(self.pace, self.running_die) if self.pace is not None else None

    @property
    def critical_failure_mode(self) -> str:
        """swade-chases-reference.txt "CRITICAL FAILURE ON MANEUVERING SKILLS": by mode."""
        if self.is_vehicle:
            return "vehicle"
        return "mounted" if self.mounted else "foot"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def participant_from(data: dict[str, Any]) -> SavageParticipant:
    """A participant from its event record (nested conditions and vehicle state as dicts)."""
    data = dict(data)
    if isinstance(data.get("conditions"), dict):
        data["conditions"] = Conditions(**data["conditions"])
    if isinstance(data.get("vehicle"), dict):
        data["vehicle"] = VehicleState(**data["vehicle"])
    return SavageParticipant(**data)


def _text(spec: dict[str, Any], name: str, default: str | None = None, required: bool = False) -> str | None:
    value = spec.get(name, default)
    if value is None:
        if required:
            raise InvalidValue(name, "is required")
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise InvalidValue(name, "must be text of 1 to 200 characters")
    return value.strip()


def _number(spec: dict[str, Any], name: str, low: float, high: float, default: Any = None, whole_only: bool = True) -> Any:
    value = spec.get(name, default)
    if value is None:
        return None
    kinds = (int,) if whole_only else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not low <= value <= high:
        raise InvalidValue(name, f"must be a {'whole ' if whole_only else ''}number from {low} to {high}, not {value!r}")
    return value


def _flag(spec: dict[str, Any], name: str, default: bool) -> bool:
    value = spec.get(name, default)
    if not isinstance(value, bool):
        raise InvalidValue(name, "must be true or false")
    return value


def _die(spec: dict[str, Any], name: str) -> str | None:
    value = spec.get(name)
    if value is None:
        return None
    try:
        return trait_die(value).label
    except InvalidValue as e:
        raise InvalidValue(name, e.message) from None


def validate(spec: dict[str, Any], existing: dict[str, SavageParticipant]) -> dict[str, Any]:
    """A participant's fields from a spec, checked; refused with the field at fault."""
    known = set(SavageParticipant.__dataclass_fields__) - {"id", "joined", "status", "wounds", "mount_fatigue", "conditions", "vehicle", "on_hold", "last_roll", "last_damage"}
    unknown = sorted(set(spec) - known)
    if unknown:
        raise InvalidValue(unknown[0], f"is not a Savage Worlds participant field (known: {', '.join(sorted(known))})")
    kind = spec.get("kind", "character")
    if kind not in KINDS:
        raise InvalidValue("kind", f"must be one of {', '.join(KINDS)}")
    out: dict[str, Any] = {"name": names.screened_name(spec.get("name")), "kind": kind}
    with_id = spec.get("with_id")
    if with_id is not None:
        unit = existing.get(with_id) if isinstance(with_id, str) else None
        if unit is None or unit.aboard:
            raise InvalidValue("with_id", "must name a vehicle or a group's leader already in this chase")
        if kind == "vehicle":
            raise InvalidValue("kind", "a vehicle is a unit of its own: it rides in nothing and follows no one")
        seat = spec.get("seat", "passenger" if unit.is_vehicle else "member")
        allowed = ("driver", "passenger") if unit.is_vehicle else ("member",)
        if seat not in allowed:
            raise InvalidValue("seat", f"aboard {unit.name} the seat is one of {', '.join(allowed)}")
        if seat == "driver" and any(p.with_id == with_id and p.seat == "driver" for p in existing.values()):
            raise InvalidValue("seat", f"{unit.name} already has a driver")
        if spec.get("role") not in (None, unit.role):
            raise InvalidValue("role", f"those with {unit.name} share its role, {unit.role}")
        out.update(with_id=with_id, seat=seat, role=unit.role)
    else:
        if spec.get("seat") is not None:
            raise InvalidValue("seat", "a seat is taken aboard a vehicle or in a group: give with_id")
        if spec.get("role") not in ROLES:
            raise InvalidValue("role", f"must be one of {', '.join(ROLES)} (the chaser tries to catch the quarry)")
        out["role"] = spec["role"]
    mounted = _flag(spec, "mounted", False)
    mode = "vehicle" if kind == "vehicle" or out.get("seat") == "driver" else ("mounted" if mounted else "foot")
    scale = spec.get("scale", "Normal")
    if scale not in SCALE_MODIFIERS:
        raise InvalidValue("scale", f"must be one of {', '.join(SCALE_MODIFIERS)} ({SIZE_SCALE})")
    out.update(
        wild_card=_flag(spec, "wild_card", kind == "character"),
        maneuver_die=_die(spec, "maneuver_die"),
        maneuver_skill=_text(spec, "maneuver_skill", DEFAULT_SKILL[mode]),
        spirit=_die(spec, "spirit"),
        mounted=mounted,
        toughness=_number(spec, "toughness", 1, 200),
        armor=_number(spec, "armor", 0, 100, 0),
        scale=scale,
        top_speed=_number(spec, "top_speed", 0, 100_000, whole_only=False),
        pace=_number(spec, "pace", 0, 100),
        running_die=_number(spec, "running_die", 4, 12, 6),
        climb=_number(spec, "climb", -100, 100),
        handling=_number(spec, "handling", -10, 10, 0),
        max_wounds=_number(spec, "max_wounds", 0, 20, WILD_CARD_WOUNDS),
        weapons=_number(spec, "weapons", 0, 100, 0),
        has_systems=_flag(spec, "has_systems", False),
        bennies=_number(spec, "bennies", 0, MAX_BENNIES, STARTING_BENNIES if kind == "character" and _flag(spec, "wild_card", True) else 0),
    )
    if kind == "vehicle":
        if out["toughness"] is None:
            raise InvalidValue("toughness", "a vehicle needs its Toughness (swade-chases-reference.txt \"DAMAGE\")")
        if out["top_speed"] is None:
            raise InvalidValue("top_speed", "a vehicle needs its Top Speed in mph (\"Speed Bonus\", RAM)")
    return out


def new_participant(participant_id: str, checked: dict[str, Any], joined: int) -> SavageParticipant:
    vehicle = VehicleState() if checked["kind"] == "vehicle" else None
    return SavageParticipant(id=participant_id, joined=joined, vehicle=vehicle, **checked)


# --- damage to characters (core rules) ------------------------------------------------------------


@dataclass(frozen=True)
class CharacterHit:
    """What damage does to a character: Shaken, Wounds taken, Incapacitated."""

    shaken: bool
    wounds: int
    incapacitated: bool
    source: str = f"{CORE}, \"Damage\""


def damage_to_character(
    damage: int, toughness: int, *, shaken: bool, wounds: int, wild_card: bool, shaken_again_wounds: bool, max_wounds: int = WILD_CARD_WOUNDS
) -> CharacterHit:
    """Damage against Toughness: a success Shakes, each raise is a Wound (core rules, "Damage").

    A Shaken character Shaken again takes a Wound in Savage Worlds Deluxe (``shaken_again_wounds``);
    the Adventure Edition dropped that rule. An Extra is Incapacitated by any Wound; a Wild Card
    beyond ``max_wounds``.
    """
    if damage < toughness:
        return CharacterHit(False, 0, False)
    raises = (damage - toughness) // 4
    new = raises + (1 if shaken and raises == 0 and shaken_again_wounds else 0)
    limit = max_wounds if wild_card else 0
    return CharacterHit(True, new, new > 0 and wounds + new > limit)


def loses_hold(p: SavageParticipant) -> bool:
    """"Hold": she loses her Hold status if Shaken or Stunned (the unit's own operator: a
    vehicle's driver, the group's leader)."""
    return (p.conditions.shaken or p.conditions.stunned) and (p.with_id is None or p.seat == "driver")
