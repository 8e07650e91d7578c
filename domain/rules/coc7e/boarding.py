"""Getting into and out of a vehicle mid-chase (optional rule switching_modes): coc7e-chases.txt
"Switching Between Modes of Movement".

"Characters that switch from being on foot (or other self-propelled mode) to driving a car should
make a fresh speed roll using Drive Auto skill. When a character becomes a pedestrian, he or she
should make a fresh speed roll using CON." Boarding puts the vehicle on the track where the
character stands, with them at the wheel, and rolls the vehicle's speed with their driving skill;
alighting puts them on foot where the vehicle is and rolls CON. The text leaves the time it takes
to the Keeper; here it takes the rest of the turn, and the new MOV counts from the next round
(movement actions as for a joiner: joining.py).
"""
from __future__ import annotations

from typing import Any

from domain.dice import DiceSource
from domain.recorded_chase import RecordedChase
from domain.rules.coc7e import chase_events, keeper_rolls, rounds
from domain.rules.coc7e.establishing import SPEED_ROLL_MOV_CHANGE
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.modes import SWITCHING, ModesChase

Event = RecordedChase.Event


class VehicleBoarded(Event):
    """A character on foot took the wheel of a vehicle; the vehicle runs where they stood."""

    TOPIC = "coc7e:Chase.VehicleBoarded"
    participant_id: str
    vehicle_id: str
    location: int

    def apply(self, chase: Any) -> None:
        p, vehicle = chase.participants[self.participant_id], chase.participants[self.vehicle_id]
        p.vehicle, p.seat = self.vehicle_id, "driver"
        vehicle.status = "in_chase"
        chase.track.remove(self.participant_id)
        chase.track.place(self.vehicle_id, self.location)
        chase.modes.pop(self.participant_id, None)


class VehicleAlighted(Event):
    """A character got out of a vehicle and is on foot where it stands; a vehicle left without
    its driver stops: it leaves the chase, with anyone still aboard."""

    TOPIC = "coc7e:Chase.VehicleAlighted"
    participant_id: str
    vehicle_id: str
    location: int
    vehicle_stops: bool

    def apply(self, chase: Any) -> None:
        p = chase.participants[self.participant_id]
        p.vehicle, p.seat, p.movement_actions = None, None, 0
        chase.track.place(self.participant_id, self.location)
        chase.modes.pop(self.participant_id, None)
        if self.vehicle_stops:
            chase.track.remove(self.vehicle_id)
            for other in chase.participants.values():
                if other.id == self.vehicle_id or other.vehicle == self.vehicle_id:
                    other.status = "left"
            done = chase.turn_order[: chase.turn_index + 1]
            chase.turn_order = done + [pid for pid in chase.turn_order[chase.turn_index + 1 :] if pid != self.vehicle_id]


def check_board(chase: ModesChase, participant_id: str) -> Any:
    """The guard of ``board`` past the vehicle named: the rule in use, their turn, on foot."""
    chase.require_optional_rule("switching_modes")
    p = rounds.require_turn(chase, participant_id)
    if p.kind == "vehicle" or p.aboard:
        raise RuleBroken(f"{p.name} is not on foot", SWITCHING)
    return p


def check_alight(chase: ModesChase, participant_id: str) -> tuple[Any, Any, Any]:
    """The guard of ``alight``: the rule in use, one aboard, the turn of the one who acts (the
    vehicle for its driver, the passenger's own), and CON for the speed roll on foot.
    Answers the one getting out, their vehicle and the one whose turn it is."""
    chase.require_optional_rule("switching_modes")
    p = chase.participant(participant_id)
    if not p.aboard:
        raise RuleBroken(f"{p.name} is not in a vehicle", SWITCHING)
    vehicle = chase.participant(p.vehicle)  # type: ignore[arg-type]
    acting = rounds.require_turn(chase, vehicle.id if p.seat == "driver" else p.id)
    if p.con is None:
        raise InvalidCommand("con", f"{p.name} needs CON for the speed roll on foot")
    return p, vehicle, acting


def board(chase: ModesChase, participant_id: str, vehicle_id: str, dice: DiceSource) -> dict[str, Any]:
    """On their turn, a character on foot takes the wheel of a vehicle beside them (one not yet
    in the chase, or standing empty on their location) and makes a fresh speed roll with it."""
    p = check_board(chase, participant_id)
    vehicle = chase.participant(vehicle_id)
    if vehicle.kind != "vehicle":
        raise InvalidCommand("vehicle_id", f"{vehicle.name} is not a vehicle")
    if chase.driver_of(vehicle.id) is not None:
        raise RuleBroken(f"{vehicle.name} already has a driver", SWITCHING)
    here = chase.track.location_of(p.id)
    if vehicle.status == "in_chase" and chase.track.location_of(vehicle.id) != here:
        raise RuleBroken(f"{vehicle.name} is not where {p.name} stands", SWITCHING)
    if vehicle.status not in ("ready", "in_chase"):
        raise RuleBroken(f"{vehicle.name} cannot be driven off ({vehicle.status})", SWITCHING)
    if vehicle.role != p.role:
        raise RuleBroken(f"{vehicle.name} is on the other side of the chase ({vehicle.role})", SWITCHING)
    skill = vehicle.driving_skill or "Drive Auto"
    if skill not in p.skills:
        raise InvalidCommand("skills", f"{p.name} has no {skill} skill value for the speed roll")
    assert here is not None
    chase.trigger_event(VehicleBoarded, participant_id=p.id, vehicle_id=vehicle.id, location=here)
    record = _speed_roll(chase, dice, vehicle.id, p.id, skill, p.skills[skill], vehicle.mov)
    rounds.finish_turn(chase, p, "took the wheel")
    return record


def alight(chase: ModesChase, participant_id: str, dice: DiceSource) -> dict[str, Any]:
    """On the vehicle's turn (the driver) or their own (a passenger), a character gets out and
    makes a fresh speed roll with CON."""
    p, vehicle, acting = check_alight(chase, participant_id)
    here = chase.track.location_of(vehicle.id)
    assert here is not None
    stops = p.seat == "driver"
    chase.trigger_event(VehicleAlighted, participant_id=p.id, vehicle_id=vehicle.id, location=here, vehicle_stops=stops)
    record = _speed_roll(chase, dice, p.id, p.id, "CON", p.con, p.mov)
    if acting.status == "in_chase":
        rounds.finish_turn(chase, acting, "got out of the vehicle")
    else:
        rounds.turn_goes_on(chase, acting)
    return record


def _speed_roll(chase: ModesChase, dice: DiceSource, participant_id: str, roller_id: str, skill: str, target: int, mov: int) -> dict[str, Any]:
    record = keeper_rolls.roll_percentile(chase, dice, roller_id, "speed roll", skill, target)
    change = SPEED_ROLL_MOV_CHANGE[record["level"]]
    chase.trigger_event(chase_events.SpeedRolled, participant_id=participant_id, roll=record, mov_before=mov, mov_after=max(mov + change, 0))
    return record
