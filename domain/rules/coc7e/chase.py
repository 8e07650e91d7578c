"""The Call of Cthulhu 7e chase aggregate, its events and its exceptions (coc7e-chases.txt)."""
from __future__ import annotations

from typing import Any

from domain.recorded_chase import RecordedChase
from domain.state_schema import StateStep, same_changes
from domain.rules.coc7e import (
    boarding, chase_events, chase_setup, combat_events, conflict_procedures, damage_events, fire_procedures, firearm_events, forks, joining,
    keeper_rolls, mishaps, modes, monsters, obstacle_events, obstacle_procedures, optional_rules, pedal_procedures, pursuit_events,
    random_hazards, road_procedures, rounds, routes, shooting, splitting, track_features, trail_procedures, wound_events, wound_procedures,
)
from domain.rules.coc7e.errors import CHASES, ChaseError, InvalidCommand, ObstacleNotFound, ParticipantNotFound, RuleBroken
from domain.rules.coc7e.participants import Participant
from domain.track import Track

OUTCOMES = ("caught", "escaped", "abandoned")

__all__ = ["Chase", "ChaseError", "InvalidCommand", "ObstacleNotFound", "ParticipantNotFound", "RuleBroken"]


class Chase(RecordedChase):
    """A Call of Cthulhu chase: its participants, its track and its rounds.

    Its procedures are functions of their own modules that take the chase as their first
    argument, typed with a Protocol naming what each uses of it; the chase binds the commands
    as its methods (a function is a method when a class holds it), so ``chase.move(...)`` is
    ``rounds.move(chase, ...)``.
    """

    TOPIC = "coc7e:Chase"
    SYSTEM = "coc7e"
    class_version = 3  # the stored state's schema; v3: optional_rules (optional_rules.py)
    upcast_v2_v3 = StateStep(state=optional_rules.state_v2_v3, changes=same_changes)  # adds keys only

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

    class ChaseEnded(RecordedChase.ChaseEnded):
        TOPIC = "coc7e:Chase.ChaseEnded"

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
    RandomHazardRolled = random_hazards.RandomHazardRolled
    # Part 5's optional rules: the table's choice (optional_rules.py), joining and leaving (joining.py),
    # modes of movement (modes.py, boarding.py), monsters (monsters.py).
    OptionalRulesChosen, OptionalRulesChanged = optional_rules.OptionalRulesChosen, optional_rules.OptionalRulesChanged
    ParticipantJoined, ParticipantLeft, SkillSubstituted = joining.ParticipantJoined, joining.ParticipantLeft, monsters.SkillSubstituted
    ModeSwitched, ObstacleFlownOver = modes.ModeSwitched, modes.ObstacleFlownOver
    VehicleBoarded, VehicleAlighted = boarding.VehicleBoarded, boarding.VehicleAlighted
    ForkPlaced, RouteChosen, ChaseSplit, SplitFrom = forks.ForkPlaced, forks.RouteChosen, splitting.ChaseSplit, splitting.SplitFrom  # routes, splitting up

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
    Defended = combat_events.Defended  # combat (combat_events.py)
    ShotsFired = combat_events.ShotsFired
    WeaponReloaded = combat_events.WeaponReloaded
    Fired = combat_events.Fired
    ManeuverSucceeded = combat_events.ManeuverSucceeded
    DivedForCover, AimTaken, AimEnded = firearm_events.DivedForCover, firearm_events.AimTaken, firearm_events.AimEnded  # firearm_events.py
    ReloadingTimeSpent, RoundChambered = firearm_events.ReloadingTimeSpent, firearm_events.RoundChambered
    Wounded = wound_events.Wounded  # wounds and healing (wound_events.py)
    ConsciousnessRolled = wound_events.ConsciousnessRolled
    DyingRolled = wound_events.DyingRolled
    FirstAidGiven = wound_events.FirstAidGiven
    MedicineGiven = wound_events.MedicineGiven
    Recovered = wound_events.Recovered
    ConditionRuled = wound_events.ConditionRuled
    # Part 5's optional rules on the road and the trail (pursuit_events.py).
    SuddenHazardCalled, SuddenHazardPlaced = pursuit_events.SuddenHazardCalled, pursuit_events.SuddenHazardPlaced
    Accelerated, Sped, AccelerationEnded = pursuit_events.Accelerated, pursuit_events.Sped, pursuit_events.AccelerationEnded
    VisibilityJudged, StretchRevealed = pursuit_events.VisibilityJudged, pursuit_events.StretchRevealed
    TrailFollowed, HidingAttempted, NavigationGiven = pursuit_events.TrailFollowed, pursuit_events.HidingAttempted, pursuit_events.NavigationGiven
    FiredOnTheMove, TireShot, ControlRolled, HazardCreated = pursuit_events.FiredOnTheMove, pursuit_events.TireShot, pursuit_events.ControlRolled, pursuit_events.HazardCreated

    # The procedures, bound as commands (each module's Protocol says what it uses of the chase).
    choose_optional_rules, change_optional_rules = optional_rules.choose_optional_rules, optional_rules.change_optional_rules  # part 5
    require_optional_rule, uses = optional_rules.require_optional_rule, optional_rules.uses
    join, leave, substitute_skill = joining.join, joining.leave, monsters.substitute_skill
    switch_mode, fly_over, board, alight = modes.switch_mode, modes.fly_over, boarding.board, boarding.alight
    place_fork, choose_route, split_off, begin_split = routes.place_fork, routes.choose_route, splitting.split_off, splitting.begin_split
    move = rounds.move  # rounds.py: moving, delaying, ending turns
    delay = rounds.delay
    end_turn = rounds.end_turn
    plan_round = rounds.chase_round
    roll_skill = keeper_rolls.roll_skill  # keeper_rolls.py: the rolls the Keeper calls for
    roll_dice = keeper_rolls.roll_dice
    roll_random_hazards = random_hazards.roll_random_hazards  # random_hazards.py
    name_location = track_features.name_location  # track_features.py: location names, obstacles
    remove_location_name = track_features.remove_location_name
    place_obstacle = track_features.place_obstacle
    change_obstacle = track_features.change_obstacle
    remove_obstacle = track_features.remove_obstacle
    obstacle = track_features.find_obstacle
    obstacle_ahead = track_features.obstacle_ahead
    negotiate = obstacle_procedures.negotiate  # obstacle_procedures.py: hazards and barriers
    break_barrier = obstacle_procedures.break_barrier
    attack = conflict_procedures.attack  # conflict_procedures.py: attacks and fighting maneuvers
    fire = fire_procedures.fire  # fire_procedures.py: several shots, bursts, full auto, reloading
    reload = fire_procedures.reload
    take_aim = shooting.take_aim  # shooting.py: aiming, diving for cover
    mishap_roll = mishaps.mishap_roll  # mishaps.py: mishaps, damage and Build
    rule_consequences = mishaps.rule_consequences
    inflict = wound_procedures.inflict  # wound_procedures.py: wounds and healing
    dying_roll = wound_procedures.dying_roll
    first_aid = wound_procedures.first_aid
    medicine = wound_procedures.medicine
    recover = wound_procedures.recover
    rule_condition = wound_procedures.rule_condition
    # Part 5 on the road and the trail: pedal_procedures.py (sudden hazards, acceleration, visibility),
    # trail_procedures.py (escaping and hiding), road_procedures.py (passengers, shooting, driver damage, created hazards).
    call_sudden_hazard, place_sudden_hazard = pedal_procedures.call_sudden_hazard, pedal_procedures.place_sudden_hazard
    accelerate, judge_visibility = pedal_procedures.accelerate, pedal_procedures.judge_visibility
    follow_trail, hide, navigate = trail_procedures.follow_trail, trail_procedures.hide, road_procedures.navigate
    shoot_tire, shoot_on_the_move = road_procedures.shoot_tire, road_procedures.shoot_on_the_move
    keep_control, create_hazard = road_procedures.keep_control, road_procedures.create_hazard

    # -- creation --------------------------------------------------------------------------

    def __init__(self, name: str, dice: str, seed_commitment: str) -> None:
        super().__init__(name, dice, seed_commitment)
        self.participants: dict[str, Participant] = {}
        self.track = Track()
        self.round = 0
        self.turn_order: list[str] = []
        self.turn_index = 0
        self.waiting_on: dict[str, str] = {}  # who delayed until after whom, this round
        self.caught_up: list[dict[str, Any]] = []
        self.slowest_mov: int | None = None
        vars(self).update(optional_rules.fresh_state())  # part 5's: optional_rules, modes, forks and paths
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

    # -- set-up (chase_setup.py) ---------------------------------------------------------------

    add_participant, roll_speed, cut_to_the_chase = chase_setup.add_participant, chase_setup.roll_speed, chase_setup.cut_to_the_chase
    check_speed_roll, check_cut_to_the_chase = chase_setup.check_speed_roll, chase_setup.check_cut_to_the_chase

    def end(self, outcome: str, note: str = "") -> None:
        """The Keeper ends the chase: the quarry caught, escaped, or the chase abandoned."""
        if outcome not in OUTCOMES:
            raise InvalidCommand("outcome", f"must be one of {', '.join(OUTCOMES)}")
        if self.phase == "ended":
            raise RuleBroken("the chase has already ended", f"{CHASES} \"Escaping the Pursuer\"")
        self.trigger_event(self.ChaseEnded, outcome=outcome, note=note or "")

    def game_fields(self) -> dict[str, Any]:
        return pursuit_events.with_state(random_hazards.without_keys(super().game_fields()))

    # -- guards ----------------------------------------------------------------------------

    def check_add_participant(self) -> None:
        joining.require_joining(self, None, "participants join")  # after the cut: "Characters Joining a Chase in Progress"

    def _require_phase(self, phase: str, message: str, heading: str) -> None:
        if self.phase == "ended":
            raise RuleBroken("the chase has ended", f"{CHASES} \"{heading}\"")
        if self.phase != phase:
            raise RuleBroken(message, f"{CHASES} \"{heading}\"")

    def require_not_ended(self) -> None:
        if self.phase == "ended":
            raise RuleBroken("the chase has ended", f"{CHASES} \"Escaping the Pursuer\"")
