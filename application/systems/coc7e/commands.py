"""The Call of Cthulhu 7e commands (coc7e-chases.txt): participants, speed rolls, cutting to the
chase, movement and turns, skill and dice rolls, the track's locations and obstacles, negotiating
and breaking barriers, conflict and mishaps.

Each command authorises, then runs the aggregate's procedure through the core's CommandRunner
(load, the system check, retries, save, views) and answers with its outcome and the track view.
Dice come from the core's DiceResolver: one roll's DiceChoice, or a RollChoices for a command
that rolls several times (rolls.py).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar
from uuid import UUID, uuid4

from application.access import SYSTEM, Principal
from application.dice import SERVER_DICE, DiceChoice, DiceResolver
from application.runner import CommandRunner, Done
from application.systems.coc7e.pursuit_commands import PursuitCommands
from application.systems.coc7e.part5 import OptionalRuleCommands
from application.systems.coc7e.permissions import PARTICIPANT, permit, permit_chase
from application.permissions import HEALER
from application.systems.coc7e.rolls import SERVER_ROLLS, RollChoices, roll_sources
from domain.rules.coc7e.chase import Chase
from domain.rules.coc7e.damage import DEFAULT
from domain.rules.coc7e.encounter import Encounter

T = TypeVar("T")
View = dict[str, Any]


class Coc7eCommands:
    """The commands of Call of Cthulhu chases."""

    SYSTEMS = (Chase.SYSTEM, Encounter.SYSTEM)  # a fight without a chase takes every command but the track's

    def __init__(self, runner: CommandRunner, dice: DiceResolver) -> None:
        self.runner = runner
        self.dice = dice
        self.pursuit = PursuitCommands(runner, dice)  # part 5 on the road and the trail (pursuit_commands.py)
        self.optional = OptionalRuleCommands(runner, dice)  # part 5's optional rules (part5.py)

    def _run(self, chase_id: UUID, expected_version: int | None, command: Callable[[Chase], T]) -> Done[T]:
        return self.runner.run(chase_id, command, expected_version=expected_version, systems=self.SYSTEMS)

    def _run_chase(self, chase_id: UUID, expected_version: int | None, command: Callable[[Chase], T]) -> Done[T]:
        """A command of chases only: speed rolls, movement, the track's locations and obstacles."""
        return self.runner.run(chase_id, command, expected_version=expected_version, systems=(Chase.SYSTEM,))

    # -- setting up and playing rounds -----------------------------------------------------

    def add_participant(self, chase_id: UUID, spec: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[str, View]:
        permit_chase(by, "add_participant")
        participant_id = str(uuid4())
        return participant_id, self._run(chase_id, expected_version, lambda c: c.add_participant(participant_id, spec)).track

    def roll_speed(self, chase_id: UUID, participant_id: str, dice: DiceChoice = SERVER_DICE, expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[dict[str, Any], View]:
        permit(by, participant_id, "speed_roll")
        done = self._run_chase(chase_id, expected_version, lambda c: c.roll_speed(participant_id, self.dice.dice(c, dice)))
        return done.result, done.track

    def cut_to_the_chase(self, chase_id: UUID, opening_range: int = 2, staying: Sequence[str] = (), expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit_chase(by, "cut_to_the_chase")
        return self._run_chase(chase_id, expected_version, lambda c: c.cut_to_the_chase(opening_range, list(staying))).track

    def begin_fight(
        self, chase_id: UUID, *, readied: Sequence[str] = (), initiative: str = "dex", rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], View]:
        """The Keeper switches a fight without a chase to combat rounds (Encounter.begin_fight)."""
        permit_chase(by, "begin_fight")
        done = self.runner.run(
            chase_id, lambda c: c.begin_fight(roll_sources(self.dice, c, rolls), list(readied), initiative),
            expected_version=expected_version, systems=(Encounter.SYSTEM,),
        )
        return done.result, done.track

    def join_fight(
        self, chase_id: UUID, participant_id: str, *, readied: bool = False, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], View]:
        """The Keeper brings a combatant added during the fight into it (Encounter.join_fight)."""
        permit(by, participant_id, "join_fight")
        done = self.runner.run(
            chase_id, lambda c: c.join_fight(participant_id, roll_sources(self.dice, c, rolls), readied),
            expected_version=expected_version, systems=(Encounter.SYSTEM,),
        )
        return done.result, done.track

    def ready_firearm(
        self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], View]:
        """A combatant draws a firearm during the fight (Encounter.ready_firearm)."""
        permit(by, participant_id, "ready_firearm")
        done = self.runner.run(
            chase_id, lambda c: c.ready_firearm(participant_id, roll_sources(self.dice, c, rolls)), expected_version=expected_version, systems=(Encounter.SYSTEM,),
        )
        return done.result, done.track

    def flee(
        self, chase_id: UUID, participant_id: str, *, escape_route: bool = True, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], View]:
        """A combatant flees the fight on their turn (Encounter.flee); whether there is an escape route is the Keeper's word."""
        permit(by, participant_id, "flee")
        done = self.runner.run(chase_id, lambda c: c.flee(participant_id, escape_route), expected_version=expected_version, systems=(Encounter.SYSTEM,))
        return done.result, done.track

    def move(self, chase_id: UUID, participant_id: str, locations: int = 1, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit(by, participant_id, "move")
        return self._run_chase(chase_id, expected_version, lambda c: c.move(participant_id, locations)).track

    def delay(self, chase_id: UUID, participant_id: str, until_after: str | None = None, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit(by, participant_id, "delay")
        return self._run(chase_id, expected_version, lambda c: c.delay(participant_id, until_after)).track

    def end_turn(self, chase_id: UUID, participant_id: str, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit(by, participant_id, "end_turn")
        return self._run(chase_id, expected_version, lambda c: c.end_turn(participant_id)).track

    def roll_skill(
        self, chase_id: UUID, skill: str, *, participant_id: str | None = None, target: int | None = None, difficulty: str = "regular",
        bonus: int = 0, penalty: int = 0, purpose: str = "skill roll", dice: DiceChoice = SERVER_DICE,
        expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], View]:
        permit_chase(by, "skill_roll", {"participant_id": participant_id})
        done = self._run(chase_id, expected_version, lambda c: c.roll_skill(
            self.dice.dice(c, dice), participant_id, skill, target, difficulty=difficulty, bonus=bonus, penalty=penalty, purpose=purpose,
        ))
        return done.result, done.track

    def roll_dice(
        self, chase_id: UUID, expression: str, *, participant_id: str | None = None, purpose: str = "dice roll",
        dice: DiceChoice = SERVER_DICE, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], View]:
        permit_chase(by, "dice_roll", {"participant_id": participant_id})
        done = self._run(chase_id, expected_version, lambda c: c.roll_dice(self.dice.dice(c, dice), expression, participant_id, purpose))
        return done.result, done.track

    # -- the track: location names and obstacles (the Keeper's) ----------------------------

    def name_location(self, chase_id: UUID, location: int, name: str, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit_chase(by, "name_location")
        return self._run_chase(chase_id, expected_version, lambda c: c.name_location(location, name)).track

    def remove_location_name(self, chase_id: UUID, location: int, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit_chase(by, "remove_location_name")
        return self._run_chase(chase_id, expected_version, lambda c: c.remove_location_name(location)).track

    def place_obstacle(self, chase_id: UUID, spec: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[str, View]:
        """A hazard or barrier between two adjacent locations; answers with its id."""
        permit_chase(by, "place_obstacle")
        obstacle_id = str(uuid4())
        return obstacle_id, self._run_chase(chase_id, expected_version, lambda c: c.place_obstacle(obstacle_id, spec)).track

    def change_obstacle(self, chase_id: UUID, obstacle_id: str, changes: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit_chase(by, "change_obstacle")
        return self._run_chase(chase_id, expected_version, lambda c: c.change_obstacle(obstacle_id, changes)).track

    def remove_obstacle(self, chase_id: UUID, obstacle_id: str, reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        permit_chase(by, "remove_obstacle")
        return self._run_chase(chase_id, expected_version, lambda c: c.remove_obstacle(obstacle_id, reason)).track

    # -- negotiating and breaking down, conflict, mishaps ------------------------------------

    def negotiate(
        self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
        by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """Roll to negotiate the hazard or barrier ahead (options: obstacle_id, approach,
        bonus_dice, skill, target, penalty_dice, keeper_accepts_skill)."""
        permit(by, participant_id, "negotiate", options)
        done = self._run_chase(chase_id, expected_version, lambda c: c.negotiate(participant_id, roll_sources(self.dice, c, rolls), **options))
        return done.result, done.track

    def break_barrier(
        self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
        by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """Break down the barrier ahead (options: obstacle_id, damage, debris, aftermath)."""
        permit(by, participant_id, "break_barrier", options)
        done = self._run_chase(chase_id, expected_version, lambda c: c.break_barrier(participant_id, roll_sources(self.dice, c, rolls), **options))
        return done.result, done.track

    def attack(
        self, chase_id: UUID, participant_id: str, target_id: str, *, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """An attack or fighting maneuver and the target's response (see Chase.attack)."""
        permit(by, participant_id, "attack", options)
        done = self._run(chase_id, expected_version, lambda c: c.attack(participant_id, target_id, roll_sources(self.dice, c, rolls), **options))
        return done.result, done.track

    def fire(
        self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
        by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """Several shots, a burst or full auto with a carried gun (see Chase.fire)."""
        permit(by, participant_id, "fire", options)
        done = self._run(chase_id, expected_version, lambda c: c.fire(participant_id, roll_sources(self.dice, c, rolls), **options))
        return done.result, done.track

    def reload(
        self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
        by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """Load a carried gun, or try to clear its jam (see Chase.reload)."""
        permit(by, participant_id, "reload")
        done = self._run(chase_id, expected_version, lambda c: c.reload(participant_id, roll_sources(self.dice, c, rolls), **options))
        return done.result, done.track

    def take_aim(
        self, chase_id: UUID, participant_id: str, *, target_id: str, weapon: str, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> tuple[dict[str, Any], View]:
        """Take careful aim with a carried gun at a target, spending the turn (see Chase.take_aim)."""
        permit(by, participant_id, "aim")
        done = self._run(chase_id, expected_version, lambda c: c.take_aim(participant_id, target_id, weapon))
        return done.result, done.track

    def mishap_roll(
        self, chase_id: UUID, participant_id: str, skill: str, *, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """A roll as if encountering a hazard, after a maneuver (options: target, difficulty, bonus_dice, penalty_dice)."""
        permit(by, participant_id, "mishap_roll")
        done = self._run(chase_id, expected_version, lambda c: c.mishap_roll(participant_id, roll_sources(self.dice, c, rolls), skill, **options))
        return done.result, done.track

    def rule_consequences(
        self, chase_id: UUID, participant_id: str, *, incident: str | None = DEFAULT, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """The Keeper's ruling on a mishap (options: damage, delay, difficulty, to_location, aftermath, cause)."""
        permit(by, participant_id, "consequences")
        done = self._run(chase_id, expected_version, lambda c: c.rule_consequences(participant_id, roll_sources(self.dice, c, rolls), incident=incident, **options))
        return done.result, done.track


    # -- wounds and healing (coc7e-combat.txt "Wounds and Healing"; Chase.inflict and on) -----

    def wounds(
        self, chase_id: UUID, participant_id: str, treatment: str, *, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], View]:
        """A wound procedure on a participant: "damage", "dying-roll", "first-aid", "medicine",
        "recovery"; who may ask for each is permissions.py's (first aid and medicine: the player of
        the healer named, ``healer_id``; none named, the Keeper)."""
        procedure, action = WOUND_PROCEDURES[treatment]
        permit(by, options.get("healer_id") if PARTICIPANT[action].who == HEALER else participant_id, action)
        done = self._run(chase_id, expected_version, lambda c: getattr(c, procedure)(participant_id, roll_sources(self.dice, c, rolls), **options))
        return done.result, done.track

    def rule_condition(self, chase_id: UUID, participant_id: str, expected_version: int | None = None, *, by: Principal = SYSTEM, **options: Any) -> View:
        """The Keeper rules that a character comes to or stands up."""
        permit(by, participant_id, "condition")
        return self._run(chase_id, expected_version, lambda c: c.rule_condition(participant_id, **options)).track


# Wound procedures by the path that names them: the chase's procedure and the action (who may ask: permissions.py).
WOUND_PROCEDURES = {
    "damage": ("inflict", "damage"),
    "dying-roll": ("dying_roll", "dying_roll"),
    "first-aid": ("first_aid", "first_aid"),
    "medicine": ("medicine", "medicine"),
    "recovery": ("recover", "recovery"),
}
