"""Events of part 5's optional rules on the road and the trail (coc7e-chases.txt "Optional
Rules"; pure rules in pursuit.py): sudden hazards, accelerating, visibility, tracking, hiding,
navigating, shooting on the move and at tires, drivers losing control, hazards created.

Their state lives in one JSON dict on the chase, ``pursuit`` (``state``): chases and snapshots
written before these rules have none and read as a fresh one, so the chase's stored shape keeps
its schema; the chase's game_state always carries it, so undo and rewind restore it.
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase

Event = RecordedChase.Event


def fresh() -> dict[str, Any]:
    return {
        "sudden_hazards": {"last_called_by": None, "pending": None},
        "accelerations": {},  # participant id: {locations, to_location, penalty_dice, navigated, round}
        "visibility": {},  # participant id: {area, locations, from_location, sees_to}
        "revealed": {},  # location (as text): outcome of the random hazards roll for the stretch after it
        "navigation": {},  # vehicle id: {navigator_id, round}
        "burst_tires": {},  # vehicle id: tires burst
        "control_checked": {},  # driver id: their damage when they last rolled to keep control
        # Driver id: major wounds suffered at the wheel, and how many of them a roll to keep
        # control has answered. Counted per blow, as the Wounded event reads it, so lesser blows
        # adding up to half the hit points never call for a roll ("Driver Damage").
        "major_wounds": {},
        "control_answered": {},
    }


def state(chase: Any) -> dict[str, Any]:
    """The chase's optional-rule state, made on first use."""
    return chase.__dict__.setdefault("pursuit", fresh())


def read(chase: Any) -> dict[str, Any]:
    """The state without making it (views, queries)."""
    return vars(chase).get("pursuit") or fresh()


def with_state(game_state: dict[str, Any]) -> dict[str, Any]:
    game_state.setdefault("pursuit", fresh())
    return game_state


class SuddenHazardCalled(Event):
    """A group Luck roll for a sudden hazard ("Sudden Hazards"): who calls it, who places it."""

    TOPIC = "coc7e:Chase.SuddenHazardCalled"
    called_by: str
    roll_sequence: int
    luck_passed: bool
    placed_by: str
    difficulty: str

    def apply(self, chase: Any) -> None:
        sudden = state(chase)["sudden_hazards"]
        sudden["last_called_by"] = self.called_by
        sudden["pending"] = {"placed_by": self.placed_by, "difficulty": self.difficulty, "round": chase.round, "called_by": self.called_by}


class SuddenHazardPlaced(Event):
    """The sudden hazard put into play (its ObstaclePlaced precedes it)."""

    TOPIC = "coc7e:Chase.SuddenHazardPlaced"
    obstacle_id: str
    placed_by: str

    def apply(self, chase: Any) -> None:
        state(chase)["sudden_hazards"]["pending"] = None


class Accelerated(Event):
    """One movement action spent to cover 2 to 5 locations, announced before moving ("Pedal to the Metal")."""

    TOPIC = "coc7e:Chase.Accelerated"
    participant_id: str
    locations: int
    penalty_dice: int
    navigated: bool
    from_location: int
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].movement_actions = self.movement_actions_left
        s = state(chase)
        s["accelerations"][self.participant_id] = {
            "locations": self.locations, "to_location": self.from_location + self.locations, "penalty_dice": self.penalty_dice,
            "navigated": self.navigated, "round": chase.round,
        }
        if self.navigated:
            s["navigation"].pop(self.participant_id, None)


class Sped(Event):
    """Locations covered by an accelerated movement action already paid for."""

    TOPIC = "coc7e:Chase.Sped"
    participant_id: str
    from_location: int
    to_location: int

    def apply(self, chase: Any) -> None:
        chase.track.place(self.participant_id, self.to_location)


class AccelerationEnded(Event):
    """An accelerated move cut short: a failed hazard or barrier ("further movement must be paid
    for and started afresh"), or the vehicle out of the chase."""

    TOPIC = "coc7e:Chase.AccelerationEnded"
    participant_id: str
    locations_not_moved: int
    reason: str

    def apply(self, chase: Any) -> None:
        state(chase)["accelerations"].pop(self.participant_id, None)


class VisibilityJudged(Event):
    """How far a driver sees ahead, and the stretches in view now to be made (random hazards)."""

    TOPIC = "coc7e:Chase.VisibilityJudged"
    participant_id: str
    area: str  # "city", "suburbs", "country" or "keeper"
    locations: int
    roll_sequence: int | None
    from_location: int
    revealing: list

    def apply(self, chase: Any) -> None:
        s = state(chase)
        s["visibility"][self.participant_id] = {
            "area": self.area, "locations": self.locations, "from_location": self.from_location, "sees_to": self.from_location + self.locations,
            "round": chase.round,
        }
        for location in self.revealing:
            s["revealed"][str(location)] = None


class StretchRevealed(Event):
    """What a stretch in view turned out to be on the random hazards table (its RandomHazardRolled precedes it)."""

    TOPIC = "coc7e:Chase.StretchRevealed"
    location: int
    outcome: str
    roll_sequence: int

    def apply(self, chase: Any) -> None:
        state(chase)["revealed"][str(self.location)] = self.outcome


class TrailFollowed(Event):
    """A pursuer's roll to pick up the quarry's trail ("Escaping the Pursuer"); lost, they are left behind."""

    TOPIC = "coc7e:Chase.TrailFollowed"
    pursuer_id: str
    quarry_id: str
    skill: str
    roll_sequence: int
    kept: bool

    def apply(self, chase: Any) -> None:
        if not self.kept:
            _leave(chase, self.pursuer_id, "left_behind")


class HidingAttempted(Event):
    """A quarry (or a vehicle and those aboard) tried to hide; hidden, they have evaded capture."""

    TOPIC = "coc7e:Chase.HidingAttempted"
    participant_id: str
    skills: list
    roll_sequence: int
    difficulty: str
    hidden: bool
    searcher_id: str | None
    search_roll_sequence: int | None
    escaped: bool

    def apply(self, chase: Any) -> None:
        if self.escaped:
            _leave(chase, self.participant_id, "escaped")


class NavigationGiven(Event):
    """A passenger's Spot Hidden or Navigate roll to help the driver ("Passengers"): their action."""

    TOPIC = "coc7e:Chase.NavigationGiven"
    navigator_id: str
    vehicle_id: str
    skill: str
    roll_sequence: int
    success: bool

    def apply(self, chase: Any) -> None:
        chase.participants[self.navigator_id].attacks_made += 1  # a passenger acts once on their turn
        if self.success:
            state(chase)["navigation"][self.vehicle_id] = {"navigator_id": self.navigator_id, "round": chase.round}


class FiredOnTheMove(Event):
    """A shot taken while racing on: a penalty die, and no movement action for it ("Ranged
    Attacks During a Chase"); the attack that follows spends the one this event keeps."""

    TOPIC = "coc7e:Chase.FiredOnTheMove"
    participant_id: str
    penalty_dice: int
    movement_action_kept: bool

    def apply(self, chase: Any) -> None:
        if self.movement_action_kept:
            chase.participants[self.participant_id].movement_actions += 1


class TireShot(Event):
    """A shot at a vehicle's tire: an extra penalty die, armor 3, impaling weapons only, burst at 2."""

    TOPIC = "coc7e:Chase.TireShot"
    attacker_id: str
    vehicle_id: str
    weapon: str
    roll_sequence: int
    hit: bool
    rolled: int
    taken: int
    burst: bool
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        a = chase.participants[self.attacker_id]
        a.movement_actions = self.movement_actions_left
        a.attacks_made += 1
        if self.burst:
            tires = state(chase)["burst_tires"]
            tires[self.vehicle_id] = tires.get(self.vehicle_id, 0) + 1


class ControlRolled(Event):
    """A driver's major wound: the Hard roll to keep control, or control lost unconscious ("Driver Damage")."""

    TOPIC = "coc7e:Chase.ControlRolled"
    driver_id: str
    vehicle_id: str
    roll_sequence: int | None
    kept_control: bool
    damage: int

    def apply(self, chase: Any) -> None:
        pursuit = state(chase)
        pursuit["control_checked"][self.driver_id] = self.damage
        pursuit.setdefault("control_answered", {})[self.driver_id] = pursuit.get("major_wounds", {}).get(self.driver_id, 0)


def note_major_wound(chase: Any, driver_id: str) -> None:
    """A major wound at the wheel calls for a roll to keep control (Wounded.apply)."""
    wounds = state(chase).setdefault("major_wounds", {})
    wounds[driver_id] = wounds.get(driver_id, 0) + 1


class HazardCreated(Event):
    """A character's action to add a hazard or barrier ("Characters Creating Hazards"): its cost
    and roll; the ObstaclePlaced that follows a success is what it made. ``creation`` names the
    kind of creation; it is not called ``action``, the field every event carries for the
    command it belongs to (domain/recorded_chase.py), which undo and the roll log read."""

    TOPIC = "coc7e:Chase.HazardCreated"
    participant_id: str
    creation: str
    skill: str | None
    roll_sequence: int | None
    success: bool
    obstacle_id: str | None
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].movement_actions = self.movement_actions_left


def _leave(chase: Any, participant_id: str, status: str) -> None:
    """Out of the chase with those aboard (a vehicle hidden, a pursuer off the trail)."""
    chase.participants[participant_id].status = status
    for p in chase.participants.values():
        if p.vehicle == participant_id:
            p.status = status


EVENTS = (
    SuddenHazardCalled, SuddenHazardPlaced, Accelerated, Sped, AccelerationEnded, VisibilityJudged, StretchRevealed, TrailFollowed,
    HidingAttempted, NavigationGiven, FiredOnTheMove, TireShot, ControlRolled, HazardCreated,
)
