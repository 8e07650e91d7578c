"""Setting a chase up: adding participants, the speed rolls and "Cut to the chase"
(coc7e-chases.txt "Speed Roll", "Cut to the chase", "Chases with Multiple Characters").

Procedures as the chase's other modules have them: functions taking the chase first, bound as
its commands and guards by domain.rules.coc7e.chase.Chase (and, for adding participants, by the
fight without a chase, encounter.py).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any, Protocol

from domain.dice import DiceSource
from domain.rules.coc7e import chase_events, joining, keeper_rolls, rounds
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.establishing import DEFAULT_OPENING_RANGE, OPENING_RANGES, SPEED_ROLL_MOV_CHANGE, establish
from domain.rules.coc7e.participants import InvalidParticipant, Participant, validate


class AddingChase(Protocol):
    """What adding a participant uses of a chase, or of a fight (encounter.py)."""

    participants: dict[str, Participant]

    def driver_of(self, vehicle_id: str) -> Participant | None: ...

    def check_add_participant(self) -> None: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


class SetupChase(joining.JoiningChase, keeper_rolls.RollingChase, Protocol):
    """What the speed rolls and the cut use of a chase (domain.rules.coc7e.chase.Chase)."""

    SpeedRolled: Any
    ChaseEstablished: Any
    ChaseEnded: Any

    def check_speed_roll(self, participant_id: str) -> tuple[Participant, Participant, str, int]: ...

    def check_cut_to_the_chase(self) -> None: ...

    def _require_phase(self, phase: str, message: str, heading: str) -> None: ...


def add_participant(chase: AddingChase, participant_id: str, spec: dict[str, Any]) -> None:
    """Add a character, creature or vehicle, or a character aboard a vehicle."""
    chase.check_add_participant()
    vehicles = {pid: p for pid, p in chase.participants.items() if p.kind == "vehicle"}
    vehicle_id = spec.get("vehicle_id") if isinstance(spec, dict) else None
    aboard = sum(1 for p in chase.participants.values() if p.vehicle == vehicle_id and p.seat == "passenger") if vehicle_id else 0
    checked = validate(spec, vehicles, aboard)
    if checked["seat"] == "driver" and chase.driver_of(checked["vehicle"]):
        raise InvalidParticipant("seat", "that vehicle already has a driver")
    checked.update(id=participant_id, joined=len(chase.participants))
    chase.trigger_event(chase_events.ParticipantAdded, participant=asdict(Participant(**checked)))


def roll_speed(chase: SetupChase, participant_id: str, dice: DiceSource) -> dict[str, Any]:
    """"Speed Roll": CON on foot, the driver's driving skill for a vehicle."""
    p, roller, skill, target = chase.check_speed_roll(participant_id)
    record = keeper_rolls.roll_percentile(chase, dice, roller.id, "speed roll", skill, target)
    change = SPEED_ROLL_MOV_CHANGE[record["level"]]
    chase.trigger_event(
        chase.SpeedRolled,
        participant_id=participant_id,
        roll=record,
        mov_before=p.mov,
        mov_after=max(p.mov + change, 0),
    )
    return record


def cut_to_the_chase(chase: SetupChase, opening_range: int = DEFAULT_OPENING_RANGE, staying: list[str] | tuple = ()) -> None:
    """Compare speeds, place everyone and begin round 1 ("Cut to the chase")."""
    chase.check_cut_to_the_chase()
    if opening_range not in OPENING_RANGES:
        raise InvalidCommand("opening_range", f"the Keeper sets the pursuer one or two locations behind ({CHASES} \"Cut to the chase\")")
    runners = chase.on_track()
    pursuers = {p.id: p.chase_mov for p in runners if p.role == "pursuer"}
    quarries = {p.id: p.chase_mov for p in runners if p.role == "quarry"}
    for pid in staying:
        if chase.participant(pid).role != "quarry":
            raise InvalidCommand("staying", f"{pid} is not a quarry; only fleeing characters may choose to stay")
    result = establish(pursuers, quarries, opening_range, set(staying))
    chase.trigger_event(
        chase.ChaseEstablished,
        opening_range=opening_range,
        placements=result.placements,
        escaped=result.escaped,
        left_behind=result.left_behind,
    )
    if not result.placements:
        chase.trigger_event(chase.ChaseEnded, outcome="escaped", note="every quarry was faster than the pursuit (Compare speeds)")
        return
    rounds.begin_round(chase, 1)


# -- guards ----------------------------------------------------------------------------------


def check_speed_roll(chase: SetupChase, participant_id: str) -> tuple[Participant, Participant, str, int]:
    """The guard of ``roll_speed``: who rolls, with what skill and value."""
    rule = f"{CHASES} \"Speed Roll\""
    p = chase.participant(participant_id)
    joining.require_joining(chase, p, "speed rolls are made")
    if p.aboard:
        raise RuleBroken(f"{p.name} rides in a vehicle: passengers and drivers make no speed roll of their own; roll for the vehicle", rule)
    if p.speed_mov is not None:
        raise RuleBroken(f"{p.name} has already made the speed roll for this chase", rule)
    if p.kind != "vehicle":
        return p, p, "CON", p.con or 0
    driver = chase.driver_of(p.id)
    if driver is None:
        raise RuleBroken(f"{p.name} has no driver to make the speed roll", rule)
    skill = p.driving_skill or "Drive Auto"
    if skill not in driver.skills:
        raise InvalidCommand("skills", f"the driver {driver.name} has no {skill} skill value")
    return p, driver, skill, driver.skills[skill]


def check_cut_to_the_chase(chase: SetupChase) -> None:
    """The guard of ``cut_to_the_chase``: in set-up, every speed roll made, a quarry to chase."""
    chase._require_phase("setup", "the chase has already been cut to", "Cut to the chase")
    runners = chase.on_track()
    missing = [p.name for p in runners if p.speed_mov is None]
    if missing:
        raise RuleBroken(f"speed rolls still to make: {', '.join(missing)}", f"{CHASES} \"Speed Roll\"")
    if not any(p.role == "quarry" for p in runners):
        raise RuleBroken("a chase needs at least one quarry", f"{CHASES} \"Chases with Multiple Characters\"")
