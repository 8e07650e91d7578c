"""Who takes part in a Call of Cthulhu chase: characters, creatures and vehicles.

Characters and creatures run on their own MOV and make the speed roll with CON; vehicles run on
their chart MOV and their driver makes the speed roll with the vehicle's driving skill
(coc7e-chases.txt "Speed Roll", "Vehicle Reference Charts"). Characters aboard a vehicle are its
driver or its passengers ("Passengers": no speed roll and no movement actions of their own).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.errors import InvalidInput
from domain import names
from domain.rules.coc7e import arms
from domain.rules.coc7e import vehicle_charts as charts
from domain.rules.coc7e.errors import InvalidCommand
from domain.rules.coc7e.vehicles import as_build

KINDS = ("character", "creature", "vehicle")
# "ready" before the cut; "out" for a wrecked or undrivable vehicle and those who were aboard
# (coc7e-chases.txt "Vehicle Reference Charts", notes: "out of action"); "left" for one who left
# the chase ("Characters Joining a Chase in Progress"); "split_off" for one now in a chase of
# their own ("Splitting Up").
STATUSES = ("ready", "in_chase", "escaped", "left_behind", "out", "left", "split_off")
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
    "attacks_per_round": (1, 10),
    "str": (1, 999),
    "siz": (1, 999),
}


class InvalidParticipant(InvalidInput):
    """A participant described with a missing, impossible or contradictory value."""


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
    build: int | float = 0  # a vehicle's current Build (0.5 for a bicycle, as printed)
    damage_bonus: str = "0"
    skills: dict[str, int] = field(default_factory=dict)
    armor: int = 0
    driving_skill: str | None = None
    vehicle: str | None = None
    seat: str | None = None
    speed_mov: int | None = None
    status: str = "ready"  # one of STATUSES
    movement_actions: int = 0
    owed: int = 0
    # Added with hazards, conflict and vehicles (issue 3); defaults keep older events and
    # snapshots readable. Vehicles: chart row, era, Build at the start and whole points lost,
    # condition (vehicles.STATUSES). Everyone: hit points of damage taken, attacks this round,
    # and the Keeper's ruling on their fate when their vehicle was wrecked.
    chart_vehicle: str | None = None
    era: str | None = None
    starting_build: int | float | None = None
    build_lost: int = 0
    condition: str | None = None
    damage: int = 0
    attacks_made: int = 0
    fate: str | None = None
    # Added with combat (issue 14), schema 2 (upcast_v1_v2 gives older ones these defaults):
    # the round in which they last fought back or dodged (coc7e-combat.txt "Outnumbered"); their
    # wounds and state ("Major Wound: The Effects", "Dying", "Prone"); the First Aid tries and
    # Medicine given since their last wound ("First Aid", "Medicine"); the attacks they may make a
    # round ("Actions in a Combat Round": monsters' several attacks); the weapons they carry, each
    # {"weapon": name, "loaded": rounds or None, "jammed": bool} (weapons.py); who holds them, and
    # the ongoing disadvantage a fighting maneuver left ("Step 2: Make the Attack Roll").
    defended_round: int | None = None
    major_wound: bool = False
    prone: bool = False
    unconscious: bool = False
    dying: bool = False
    stabilised: bool = False
    dead: bool = False
    first_aid_tries: int = 0
    medicine_given: bool = False
    attacks_per_round: int = 1
    weapons: list[dict[str, Any]] = field(default_factory=list)
    held_by: str | None = None
    disadvantage: str | None = None
    # Schema 3 (upcast_v2_v3): whether First Aid succeeded since their last wound ("First Aid":
    # pushing is a further attempt after a failed roll, never after a success).
    first_aid_succeeded: bool = False
    # Also schema 3: the last round whose attacks they forfeit for diving for cover ("Diving for
    # Cover (Penalty die)"), and the aim they are taking ("Aiming (Bonus die)": {"target_id",
    # "weapon", "round", "location"}; firearm_events.py).
    dived_until_round: int | None = None
    aim: dict[str, Any] | None = None

    class_version = 3

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        """Schema 1 had no combat state: no one had defended, been wounded or carried weapons."""
        data.update(
            defended_round=None, major_wound=False, prone=False, unconscious=False, dying=False, stabilised=False, dead=False,
            first_aid_tries=0, medicine_given=False, attacks_per_round=1, weapons=[], held_by=None, disadvantage=None,
        )

    @staticmethod
    def upcast_v2_v3(data: dict[str, Any]) -> None:
        """Schema 2 kept no First Aid success (read as none, as that code did), no dive for cover and no aim."""
        data.update(first_aid_succeeded=data.get("first_aid_succeeded", False), dived_until_round=data.get("dived_until_round"), aim=data.get("aim"))

    @property
    def aboard(self) -> bool:
        return self.vehicle is not None

    @property
    def chase_mov(self) -> int:
        """MOV for this chase: adjusted by the speed roll once it is made."""
        return self.speed_mov if self.speed_mov is not None else self.mov

    @property
    def hp_left(self) -> int | None:
        return None if self.hp is None else max(0, self.hp - self.damage)

    @property
    def incapacitated(self) -> bool:
        """Out of the fight though still where they fell: unconscious (at zero hit points, or after
        failing the CON roll of a major wound), dying or dead; they stop acting (coc7e-combat.txt
        "Zero Hit Points: The Effects", "Major Wound: The Effects", "Dying")."""
        return self.kind != "vehicle" and (self.hp_left == 0 or self.unconscious or self.dying or self.dead)

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


def build_number(build: Any) -> int | float:
    """A Build as a JSON number: whole points as int, the bicycle's 0.5 as float (exact in binary)."""
    value = as_build(build)
    return value.numerator if value.denominator == 1 else float(value)


def from_chart(spec: dict[str, Any]) -> dict[str, Any]:
    """Fill a vehicle's MOV, Build, armor and driving skill from its chart row; given values win.

    coc7e-chases.txt "Vehicle Reference Charts": ``era`` "1920s" reduces MOV by about 20%.
    """
    if spec.get("chart_vehicle") is None:
        if spec.get("era") is not None:
            raise InvalidParticipant("era", "applies to a chart_vehicle")
        return spec
    if spec.get("kind", "character") != "vehicle":
        raise InvalidParticipant("chart_vehicle", "only a vehicle comes from the vehicle charts; give kind vehicle")
    try:
        row = charts.vehicle(spec["chart_vehicle"])
        era = spec.get("era") or "modern"
        mov = row.mov_in(era)
    except InvalidCommand as e:
        raise InvalidParticipant("era" if e.field == "era" else "chart_vehicle", e.message) from None
    filled = {"name": row.name, "mov": mov, "armor": row.armor, "driving_skill": row.skill}
    filled.update({k: v for k, v in spec.items() if v is not None})
    filled.update(chart_vehicle=row.name, era=era)
    return filled


def validate(spec: dict[str, Any], vehicles: dict[str, Participant], aboard: int = 0) -> dict[str, Any]:
    """Check a participant description and return it complete, ready for the event.

    ``aboard``: how many passengers already ride in the vehicle named by ``vehicle_id``.
    """
    spec = from_chart(spec)
    name = names.screened_name(spec.get("name"))
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
        if spec.get("chart_vehicle") is not None and spec.get("build") is None:
            out["build"] = build_number(charts.vehicle(spec["chart_vehicle"]).build_printed)  # "0.5" as printed
        if out["build"] <= 0:
            raise InvalidParticipant("build", "a vehicle needs its Build, more than 0 (or a chart_vehicle): at zero it is out of action")
        out.update(
            chart_vehicle=spec.get("chart_vehicle"),
            era=spec.get("era"),
            starting_build=out["build"],
            condition="sound",
        )
        out["dex"] = None
        out["con"] = None
        skill = spec.get("driving_skill") or "Drive Auto"
        if skill not in DRIVING_SKILLS:
            raise InvalidParticipant("driving_skill", f"must be one of {', '.join(DRIVING_SKILLS)}")
        out["driving_skill"] = skill
        if vehicle_id is not None:
            raise InvalidParticipant("vehicle_id", "a vehicle cannot ride in another vehicle")
        return out
    out.update(arms.combat_fields(spec, out, _whole))
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
    if vehicle.chart_vehicle is not None and seat == "passenger":
        # The chart's Passengers column, read as passengers besides the driver (a sports car: 1).
        most = charts.vehicle(vehicle.chart_vehicle).max_passengers
        if most is not None and aboard >= most:
            raise InvalidParticipant("vehicle_id", f"{vehicle.name} carries {most} passenger(s) besides the driver ({charts.CHARTS_HEADING}: Passengers)")
    out.update(role=vehicle.role, vehicle=vehicle_id, seat=seat)
    return out


def _role(spec: dict[str, Any]) -> str:
    role = spec.get("role")
    if role not in ROLES:
        raise InvalidParticipant("role", f"must be one of {', '.join(ROLES)}")
    return role
