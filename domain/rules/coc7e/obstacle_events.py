"""Events of the track, its hazards and barriers, and mishaps in a Call of Cthulhu chase (issue 3).

coc7e-chases.txt part 3 ("Hazards", "Barriers", "Breaking Down Barriers") and the fighting
maneuvers of part 4. Each event has a stable TOPIC "coc7e:Chase.<Name>"; the Chase aggregate
binds them as its own attributes. Applying one is deterministic: every number it sets was worked
out (and every die rolled, with its own SkillRolled or DiceRolled event) by the command that
triggered it. Payloads hold only JSON values (lists, str-keyed dicts, ints, floats) so that
snapshots and undo restore them as they were.
"""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase

Event = RecordedChase.Event


# -- The track: location names, hazards and barriers ---------------------------------------------


class LocationNamed(Event):
    """The Keeper named (or renamed) a location of the track."""

    TOPIC = "coc7e:Chase.LocationNamed"
    location: int
    name: str
    previous: str | None

    def apply(self, chase: Any) -> None:
        chase.location_names[str(self.location)] = self.name


class LocationNameRemoved(Event):
    TOPIC = "coc7e:Chase.LocationNameRemoved"
    location: int
    name: str

    def apply(self, chase: Any) -> None:
        chase.location_names.pop(str(self.location), None)


class ObstaclePlaced(Event):
    """A hazard or barrier placed between two adjacent locations ("Hazards", "Barriers")."""

    TOPIC = "coc7e:Chase.ObstaclePlaced"
    obstacle: dict

    def apply(self, chase: Any) -> None:
        chase.obstacles[self.obstacle["id"]] = dict(self.obstacle)


class ObstacleChanged(Event):
    TOPIC = "coc7e:Chase.ObstacleChanged"
    obstacle_id: str
    before: dict
    after: dict

    def apply(self, chase: Any) -> None:
        chase.obstacles[self.obstacle_id] = dict(self.after)


class ObstacleRemoved(Event):
    TOPIC = "coc7e:Chase.ObstacleRemoved"
    obstacle_id: str
    obstacle: dict
    reason: str

    def apply(self, chase: Any) -> None:
        chase.obstacles.pop(self.obstacle_id, None)


class ObstacleReached(Event):
    """A move stopped in front of a hazard or barrier: it must be negotiated to go on."""

    TOPIC = "coc7e:Chase.ObstacleReached"
    participant_id: str
    obstacle_id: str
    location: int
    locations_not_moved: int


class ObstacleNegotiated(Event):
    """The roll to negotiate a hazard or barrier was made; on (or not) to the next location."""

    TOPIC = "coc7e:Chase.ObstacleNegotiated"
    participant_id: str
    obstacle_id: str
    kind: str
    skill: str
    approach: str
    bonus_dice: int
    penalty_dice: int
    roll_sequence: int
    passed: bool
    from_location: int
    to_location: int
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        chase.track.place(self.participant_id, self.to_location)
        chase.participants[self.participant_id].movement_actions = self.movement_actions_left


class BarrierDamaged(Event):
    """A blow or a ramming against a barrier ("Breaking Down Barriers"); through it if destroyed."""

    TOPIC = "coc7e:Chase.BarrierDamaged"
    participant_id: str
    obstacle_id: str
    damage: int
    roll_sequence: int | None
    hit_points_before: int
    hit_points_after: int
    destroyed: bool
    from_location: int
    to_location: int
    movement_actions_spent: int
    movement_actions_left: int

    def apply(self, chase: Any) -> None:
        obstacle = chase.obstacles[self.obstacle_id]
        obstacle["hit_points"] = self.hit_points_after
        obstacle["destroyed"] = self.destroyed
        chase.track.place(self.participant_id, self.to_location)
        chase.participants[self.participant_id].movement_actions = self.movement_actions_left


# -- Mishaps: a failed hazard or a fighting maneuver suffered, awaiting the Keeper's ruling -------


class MishapIncurred(Event):
    """A failed hazard or a successful maneuver against a participant: the Keeper rules next."""

    TOPIC = "coc7e:Chase.MishapIncurred"
    participant_id: str
    cause: str
    kind: str  # "hazard" | "maneuver"
    difficulty: str
    vehicle: bool
    default_incident: str
    obstacle_id: str | None

    def apply(self, chase: Any) -> None:
        chase.mishaps[self.participant_id] = {
            "participant_id": self.participant_id,
            "cause": self.cause,
            "kind": self.kind,
            "difficulty": self.difficulty,
            "vehicle": self.vehicle,
            "default_incident": self.default_incident,
            "obstacle_id": self.obstacle_id,
            "rolled": False,
            "round": chase.round,
        }


class MishapRolled(Event):
    """A roll "as if encountering a hazard" after a maneuver; passed, no harm done."""

    TOPIC = "coc7e:Chase.MishapRolled"
    participant_id: str
    skill: str
    roll_sequence: int
    passed: bool

    def apply(self, chase: Any) -> None:
        if self.passed:
            chase.mishaps.pop(self.participant_id, None)
        else:
            chase.mishaps[self.participant_id]["rolled"] = True


class ConsequencesRuled(Event):
    """The Keeper's ruling: a damage table row (or own dice, or none) and whether 1D3 is lost."""

    TOPIC = "coc7e:Chase.ConsequencesRuled"
    participant_id: str
    cause: str
    table: str | None
    incident: str | None
    damage: str | None
    occupant_damage: str | None
    delay: bool
    mishap: bool

    def apply(self, chase: Any) -> None:
        chase.mishaps.pop(self.participant_id, None)


EVENTS = (
    LocationNamed,
    LocationNameRemoved,
    ObstaclePlaced,
    ObstacleChanged,
    ObstacleRemoved,
    ObstacleReached,
    ObstacleNegotiated,
    BarrierDamaged,
    MishapIncurred,
    MishapRolled,
    ConsequencesRuled,
)
