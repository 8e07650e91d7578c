"""The Call of Cthulhu 7e chase aggregate, its events and its exceptions (coc7e-chases.txt)."""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.dice import DiceSource
from domain.recorded_chase import RecordedChase
from domain.rules.coc7e.establishing import (
    DEFAULT_OPENING_RANGE,
    OPENING_RANGES,
    SPEED_ROLL_MOV_CHANGE,
    establish,
)
from domain.rules.coc7e import chase_events, damage_events, obstacle_events
from domain.rules.coc7e.conflict_procedures import ConflictProcedures
from domain.rules.coc7e.errors import CHASES, ChaseError, InvalidCommand, ObstacleNotFound, ParticipantNotFound, RuleBroken
from domain.rules.coc7e.keeper_rolls import KeeperRolls
from domain.rules.coc7e.mishaps import MishapProcedures
from domain.rules.coc7e.obstacle_procedures import ObstacleProcedures
from domain.rules.coc7e.participants import InvalidParticipant, Participant, validate
from domain.rules.coc7e.random_hazards import RandomHazards
from domain.rules.coc7e.rounds import ChaseRounds
from domain.track import Track

OUTCOMES = ("caught", "escaped", "abandoned")


__all__ = ["Chase", "ChaseError", "InvalidCommand", "ObstacleNotFound", "ParticipantNotFound", "RuleBroken"]


class Chase(ChaseRounds, KeeperRolls, RandomHazards, ObstacleProcedures, ConflictProcedures, MishapProcedures, RecordedChase):
    """A Call of Cthulhu chase: its participants, its track and its rounds."""

    TOPIC = "coc7e:Chase"
    SYSTEM = "coc7e"

    class Created(RecordedChase.Created):
        TOPIC = "coc7e:Chase.Created"

    # The record's own events (DESIGN.md 5 and 6), with this system's stable topics.
    class Undone(RecordedChase.Undone):
        TOPIC = "coc7e:Chase.Undone"

    class Rewound(RecordedChase.Rewound):
        TOPIC = "coc7e:Chase.Rewound"

    class Redone(RecordedChase.Redone):
        TOPIC = "coc7e:Chase.Redone"

    class UndoRequested(RecordedChase.UndoRequested):
        TOPIC = "coc7e:Chase.UndoRequested"

    class UndoRequestAnswered(RecordedChase.UndoRequestAnswered):
        TOPIC = "coc7e:Chase.UndoRequestAnswered"

    class SeedRevealed(RecordedChase.SeedRevealed):
        TOPIC = "coc7e:Chase.SeedRevealed"

    class SeedCommitted(RecordedChase.SeedCommitted):
        TOPIC = "coc7e:Chase.SeedCommitted"

    class EntropyContributed(RecordedChase.EntropyContributed):
        TOPIC = "coc7e:Chase.EntropyContributed"

    class RandomHazardRolled(RandomHazards.RandomHazardRolled):  # random_hazards.py (the mixin)
        TOPIC = "coc7e:Chase.RandomHazardRolled"

    Event = RecordedChase.Event

    # Setting up and running the chase (chase_events.py).
    ParticipantAdded = chase_events.ParticipantAdded
    SpeedRolled = chase_events.SpeedRolled
    ChaseEstablished = chase_events.ChaseEstablished
    RoundBegan = chase_events.RoundBegan
    TurnDelayed = chase_events.TurnDelayed
    Moved = chase_events.Moved
    CaughtUp = chase_events.CaughtUp
    TurnEnded = chase_events.TurnEnded
    RoundEnded = chase_events.RoundEnded
    SkillRolled = chase_events.SkillRolled
    DiceRolled = chase_events.DiceRolled
    ChaseEnded = chase_events.ChaseEnded

    # Hazards, barriers and mishaps (obstacle_events.py); damage, Build and conflict (damage_events.py).
    LocationNamed = obstacle_events.LocationNamed
    LocationNameRemoved = obstacle_events.LocationNameRemoved
    ObstaclePlaced = obstacle_events.ObstaclePlaced
    ObstacleChanged = obstacle_events.ObstacleChanged
    ObstacleRemoved = obstacle_events.ObstacleRemoved
    ObstacleReached = obstacle_events.ObstacleReached
    ObstacleNegotiated = obstacle_events.ObstacleNegotiated
    BarrierDamaged = obstacle_events.BarrierDamaged
    MishapIncurred = obstacle_events.MishapIncurred
    MishapRolled = obstacle_events.MishapRolled
    ConsequencesRuled = obstacle_events.ConsequencesRuled
    DamageTaken = damage_events.DamageTaken
    BuildLost = damage_events.BuildLost
    MovementActionsLost = damage_events.MovementActionsLost
    VehicleOutOfAction = damage_events.VehicleOutOfAction
    ParticipantDisplaced = damage_events.ParticipantDisplaced
    AttackMade = damage_events.AttackMade

    # -- creation --------------------------------------------------------------------------

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        super().__init__(name, dice, seed_commitment)
        self.phase = "setup"  # setup | running | ended
        self.outcome: str | None = None
        self.participants: dict[str, Participant] = {}
        self.track = Track()
        self.round = 0
        self.turn_order: list[str] = []
        self.turn_index = 0
        self.waiting_on: dict[str, str] = {}  # who delayed until after whom, this round
        self.caught_up: list[dict[str, Any]] = []
        self.slowest_mov: int | None = None
        self.end_note = ""
        # Ordinary attributes, so that undo and rewind restore them with the rest of the game state.
        self.location_names: dict[str, str] = {}  # location index (as text): the Keeper's name for it
        self.obstacles: dict[str, dict[str, Any]] = {}  # hazards and barriers by id
        self.mishaps: dict[str, dict[str, Any]] = {}  # participant id: mishap awaiting the Keeper
        self.build_losses: dict[str, list[dict[str, Any]]] = {}  # vehicle id: every Build lost

    # -- queries ---------------------------------------------------------------------------

    def participant(self, participant_id: str) -> Participant:
        try:
            return self.participants[participant_id]
        except KeyError:
            raise ParticipantNotFound(f"no participant {participant_id} in this chase") from None

    @property
    def whose_turn(self) -> str | None:
        if self.phase != "running" or self.turn_index >= len(self.turn_order):
            return None
        return self.turn_order[self.turn_index]

    def on_track(self) -> list[Participant]:
        """Pursuers and quarries that run the chase themselves (not riding in a vehicle)."""
        return [p for p in self.participants.values() if not p.aboard]

    def driver_of(self, vehicle_id: str) -> Participant | None:
        return next(
            (p for p in self.participants.values() if p.vehicle == vehicle_id and p.seat == "driver"),
            None,
        )

    def dex_of(self, p: Participant) -> int:
        if p.kind == "vehicle":
            driver = self.driver_of(p.id)
            return driver.dex if driver and driver.dex is not None else 0
        return p.dex or 0

    # -- set-up ----------------------------------------------------------------------------

    def add_participant(self, participant_id: str, spec: dict[str, Any]) -> None:
        """Add a character, creature or vehicle, or a character aboard a vehicle."""
        self._require_phase("setup", "participants join before the cut to the chase", "Establishing the Chase")
        vehicles = {pid: p for pid, p in self.participants.items() if p.kind == "vehicle"}
        vehicle_id = spec.get("vehicle_id") if isinstance(spec, dict) else None
        aboard = sum(1 for p in self.participants.values() if p.vehicle == vehicle_id and p.seat == "passenger") if vehicle_id else 0
        checked = validate(spec, vehicles, aboard)
        if checked["seat"] == "driver" and self.driver_of(checked["vehicle"]):
            raise InvalidParticipant("seat", "that vehicle already has a driver")
        checked.update(id=participant_id, joined=len(self.participants))
        self.trigger_event(self.ParticipantAdded, participant=asdict(Participant(**checked)))

    def roll_speed(self, participant_id: str, dice: DiceSource) -> dict[str, Any]:
        """"Speed Roll": CON on foot, the driver's driving skill for a vehicle."""
        rule = f"{CHASES} \"Speed Roll\""
        p = self.participant(participant_id)
        self._require_phase("setup", "speed rolls are made before the cut to the chase", "Speed Roll")
        if p.aboard:
            raise RuleBroken(f"{p.name} rides in a vehicle: passengers and drivers make no speed roll of their own; roll for the vehicle", rule)
        if p.speed_mov is not None:
            raise RuleBroken(f"{p.name} has already made the speed roll for this chase", rule)
        if p.kind == "vehicle":
            driver = self.driver_of(p.id)
            if driver is None:
                raise RuleBroken(f"{p.name} has no driver to make the speed roll", rule)
            skill = p.driving_skill or "Drive Auto"
            if skill not in driver.skills:
                raise InvalidCommand("skills", f"the driver {driver.name} has no {skill} skill value")
            target, roller = driver.skills[skill], driver
        else:
            skill, target, roller = "CON", p.con or 0, p
        record = self._roll_percentile(dice, roller.id, "speed roll", skill, target)
        change = SPEED_ROLL_MOV_CHANGE[record["level"]]
        self.trigger_event(
            self.SpeedRolled,
            participant_id=participant_id,
            roll=record,
            mov_before=p.mov,
            mov_after=max(p.mov + change, 0),
        )
        return record

    def cut_to_the_chase(self, opening_range: int = DEFAULT_OPENING_RANGE, staying: list[str] | tuple = ()) -> None:
        """Compare speeds, place everyone and begin round 1 ("Cut to the chase")."""
        self._require_phase("setup", "the chase has already been cut to", "Cut to the chase")
        if opening_range not in OPENING_RANGES:
            raise InvalidCommand("opening_range", f"the Keeper sets the pursuer one or two locations behind ({CHASES} \"Cut to the chase\")")
        runners = self.on_track()
        missing = [p.name for p in runners if p.speed_mov is None]
        if missing:
            raise RuleBroken(f"speed rolls still to make: {', '.join(missing)}", f"{CHASES} \"Speed Roll\"")
        pursuers = {p.id: p.chase_mov for p in runners if p.role == "pursuer"}
        quarries = {p.id: p.chase_mov for p in runners if p.role == "quarry"}
        if not quarries:
            raise RuleBroken("a chase needs at least one quarry", f"{CHASES} \"Chases with Multiple Characters\"")
        for pid in staying:
            if self.participant(pid).role != "quarry":
                raise InvalidCommand("staying", f"{pid} is not a quarry; only fleeing characters may choose to stay")
        result = establish(pursuers, quarries, opening_range, set(staying))
        self.trigger_event(
            self.ChaseEstablished,
            opening_range=opening_range,
            placements=result.placements,
            escaped=result.escaped,
            left_behind=result.left_behind,
        )
        if not result.placements:
            self.trigger_event(self.ChaseEnded, outcome="escaped", note="every quarry was faster than the pursuit (Compare speeds)")
            return
        self._begin_round(1)

    def end(self, outcome: str, note: str = "") -> None:
        """The Keeper ends the chase: the quarry caught, escaped, or the chase abandoned."""
        if outcome not in OUTCOMES:
            raise InvalidCommand("outcome", f"must be one of {', '.join(OUTCOMES)}")
        if self.phase == "ended":
            raise RuleBroken("the chase has already ended", f"{CHASES} \"Escaping the Pursuer\"")
        self.trigger_event(self.ChaseEnded, outcome=outcome, note=note or "")

    # -- internals -------------------------------------------------------------------------

    def _require_phase(self, phase: str, message: str, heading: str) -> None:
        if self.phase == "ended":
            raise RuleBroken("the chase has ended", f"{CHASES} \"{heading}\"")
        if self.phase != phase:
            raise RuleBroken(message, f"{CHASES} \"{heading}\"")

    def _require_not_ended(self) -> None:
        if self.phase == "ended":
            raise RuleBroken("the chase has ended", f"{CHASES} \"Escaping the Pursuer\"")
