"""Switching between modes of movement (optional rule switching_modes) and monsters' movement
(optional rule monsters: fliers need no Jump or Climb): coc7e-chases.txt "Switching Between Modes
of Movement", "Monsters in a Chase".

Self-propelled modes (on foot, swimming, flying) need no fresh speed roll: the MOV of the new mode
(the one listed, else half the standard MOV for a mode the character can perform) keeps the speed
roll's +1 or -1. The new MOV counts from the next round's movement actions, and a MOV below the
chase's slowest makes the slowest anew ("Refer to Characters Joining a Chase in Progress":
joining.py, movement.slowest_of_round). Getting into or out of a vehicle is boarding.py.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e import obstacles, rounds, track_features
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.participants import LIMITS, Participant

SWITCHING = f'{CHASES} "Switching Between Modes of Movement"'
MONSTERS = f'{CHASES} "Monsters in a Chase"'
MODES = ("on foot", "swimming", "flying")  # self-propelled; "on foot" is the standard MOV
HALF_MOV_MODES = ("swimming",)  # "the Keeper may allow ... half of their standard MOV": not flying ("would not have a MOV rating for flying")
FLIERS_SKIP = ("Jump", "Climb")  # "those that fly would not need to make Jump or Climb rolls"

Event = RecordedChase.Event


class ModesChase(rounds.RoundsChase, Protocol):
    modes: dict[str, dict[str, Any]]

    def require_optional_rule(self, name: str) -> Any: ...


class ModeSwitched(Event):
    """A participant moves on in another self-propelled mode, at that mode's MOV."""

    TOPIC = "coc7e:Chase.ModeSwitched"
    participant_id: str
    mode: str
    mode_mov: int  # the mode's MOV before the speed roll's adjustment
    adjustment: int  # the speed roll's +1, 0 or -1, kept
    mov_before: int
    mov_after: int

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].speed_mov = self.mov_after
        chase.modes[self.participant_id] = {"mode": self.mode, "mode_mov": self.mode_mov, "adjustment": self.adjustment}


class ObstacleFlownOver(Event):
    """A flier crossed a hazard or barrier of Jump or Climb without a roll."""

    TOPIC = "coc7e:Chase.ObstacleFlownOver"
    participant_id: str
    obstacle_id: str
    from_location: int
    to_location: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        chase.track.place(self.participant_id, self.to_location)
        chase.participants[self.participant_id].movement_actions = self.movement_actions_left


def mode_of(chase: ModesChase, participant_id: str) -> str:
    return chase.modes.get(participant_id, {}).get("mode", "on foot")


def adjustment_of(chase: ModesChase, p: Participant) -> int:
    """The speed roll's change to MOV ("either +1 or -1, depending on whether they achieved an
    Extreme success on or failed their speed roll"), kept from mode to mode."""
    if p.id in chase.modes:
        return chase.modes[p.id]["adjustment"]
    return (p.speed_mov if p.speed_mov is not None else p.mov) - p.mov


def switch_mode(chase: ModesChase, participant_id: str, mode: str, mov: int | None = None) -> dict[str, Any]:
    """Switch to ``mode`` at its listed ``mov`` (None: on foot, the standard MOV; swimming, half of it)."""
    chase.require_optional_rule("switching_modes")
    chase.require_not_ended()
    if mode not in MODES:
        raise InvalidCommand("mode", f"must be one of {', '.join(MODES)}")
    if mov is not None and (isinstance(mov, bool) or not isinstance(mov, int) or not LIMITS["mov"][0] <= mov <= LIMITS["mov"][1]):
        raise InvalidCommand("mov", f"must be a whole number from {LIMITS['mov'][0]} to {LIMITS['mov'][1]}")
    p = check_switch_mode(chase, participant_id)
    if mode == mode_of(chase, p.id) and mov is None:
        raise RuleBroken(f"{p.name} already moves {mode}", SWITCHING)
    if mov is None:
        if mode == "on foot":
            mov = p.mov
        elif mode in HALF_MOV_MODES:
            mov = p.mov // 2  # "a human with MOV 8 would have MOV 4 when swimming"
        else:
            raise InvalidCommand("mov", f"{mode} needs the MOV listed for it: one with no listed MOV has none for {mode} ({SWITCHING})")
    adjustment = adjustment_of(chase, p)
    after = max(mov + adjustment, 0)
    chase.trigger_event(ModeSwitched, participant_id=p.id, mode=mode, mode_mov=mov, adjustment=adjustment, mov_before=p.chase_mov, mov_after=after)
    return {"mode": mode, "mov": after, "adjustment": adjustment}


def check_switch_mode(chase: ModesChase, participant_id: str) -> Participant:
    """The guard of ``switch_mode`` past the mode named: the rule in use, one on their own feet, speed rolled."""
    chase.require_optional_rule("switching_modes")
    chase.require_not_ended()
    p = chase.participant(participant_id)
    if p.kind == "vehicle" or p.aboard:
        raise RuleBroken(f"{p.name} is a vehicle or rides in one: getting in or out of a vehicle takes a fresh speed roll (board or alight)", SWITCHING)
    if p.speed_mov is None:
        raise RuleBroken(f"{p.name} makes the speed roll first: the new mode keeps its adjustment", SWITCHING)
    if p.status not in ("ready", "in_chase"):
        raise RuleBroken(f"{p.name} is not in the chase ({p.status})", SWITCHING)
    return p


def check_fly_over(chase: ModesChase, participant_id: str) -> tuple[Participant, int, dict[str, Any]]:
    """The guard of ``fly_over`` (it takes no input): a flier on its turn, before a Jump or Climb
    obstacle, with a movement action left. Answers the flier, where it stands and the obstacle."""
    chase.require_optional_rule("monsters")
    p = rounds.require_turn(chase, participant_id)
    if p.aboard or p.kind == "vehicle":
        raise RuleBroken(f"{p.name} does not fly", MONSTERS)
    if mode_of(chase, p.id) != "flying":
        raise RuleBroken(f"{p.name} is not flying: switch to flying first (switching_modes)", MONSTERS)
    start = chase.track.location_of(p.id)
    o = track_features.obstacle_ahead(chase, start)
    if o is None:
        raise RuleBroken(f"there is no hazard or barrier between {p.name}'s location and the next", obstacles.HAZARDS)
    if not set(o["skills"]) <= set(FLIERS_SKIP):
        raise RuleBroken(f"{o['name']} calls for {', '.join(o['skills'])}: fliers skip only Jump and Climb rolls", MONSTERS)
    if p.movement_actions < obstacles.MOVE_COST:
        raise RuleBroken(f"{p.name} has no movement action left", f'{CHASES} "Movement Actions"')
    return p, start, o


def fly_over(chase: ModesChase, participant_id: str) -> None:
    """A flier crosses the hazard or barrier ahead that calls for Jump or Climb, without a roll
    ("Monsters in a Chase"), for the usual movement action."""
    p, start, o = check_fly_over(chase, participant_id)
    chase.trigger_event(
        ObstacleFlownOver, participant_id=p.id, obstacle_id=o["id"], from_location=start, to_location=start + 1,
        movement_actions_left=p.movement_actions - obstacles.MOVE_COST,
    )
    rounds.record_caught_up(chase, p, start + 1)
    rounds.turn_goes_on(chase, p)
