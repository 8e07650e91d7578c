"""The commands of part 5's optional rules on the road and the trail (coc7e-chases.txt "Sudden
Hazards", "Pedal to the Metal", "Escaping the Pursuer", "Passengers", "Ranged Attacks During a
Chase", "Driver Damage", "Characters Creating Hazards"): each authorises, then runs the chase's
procedure through the core's CommandRunner, like every Call of Cthulhu command (commands.py).
Each is refused (409, naming the rule) when the chase does not use its optional rule.
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar
from uuid import UUID, uuid4

from application.access import SYSTEM, Principal
from application.dice import DiceResolver
from application.runner import CommandRunner, Done
from application.permissions import decided_now, require
from application.systems.coc7e.permissions import CHASE, permit, permit_chase
from application.systems.coc7e.rolls import SERVER_ROLLS, RollChoices, roll_sources
from domain.rules.coc7e.chase import Chase

T = TypeVar("T")
View = dict[str, Any]
Answer = tuple[dict[str, Any], View]


class PursuitCommands:
    """Sudden hazards, acceleration and visibility, trails and hiding, navigation, shooting in a
    chase, drivers keeping control and hazards created by characters."""

    def __init__(self, runner: CommandRunner, dice: DiceResolver) -> None:
        self.runner = runner
        self.dice = dice

    def _run(self, chase_id: UUID, expected_version: int | None, command: Callable[[Chase], T]) -> Done[T]:
        return self.runner.run(chase_id, command, expected_version=expected_version, systems=(Chase.SYSTEM,))

    def _rolled(self, chase_id: UUID, rolls: RollChoices, expected_version: int | None, command: Callable[[Chase, Any], dict[str, Any]]) -> Answer:
        done = self._run(chase_id, expected_version, lambda c: command(c, roll_sources(self.dice, c, rolls)))
        return done.result, done.track

    def call_sudden_hazard(self, chase_id: UUID, *, called_by: str, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
                           by: Principal = SYSTEM, **options: Any) -> Answer:
        """Either side calls for the group Luck roll; only the Keeper raises the difficulty."""
        permit_chase(by, "call_sudden_hazard", {**options, "called_by": called_by})
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.call_sudden_hazard(d, called_by=called_by, **options))

    def place_sudden_hazard(self, chase_id: UUID, spec: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[str, View]:
        """The side that won the Luck roll places it (the players' choice may be entered by the Keeper)."""
        obstacle_id = str(uuid4())

        def place(c: Chase) -> str:
            require(by, decided_now(CHASE["place_sudden_hazard"], c)[0], None)  # the Keeper's, when their side won
            return c.place_sudden_hazard(obstacle_id, spec)

        return obstacle_id, self._run(chase_id, expected_version, place).track

    def accelerate(self, chase_id: UUID, participant_id: str, locations: int, expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        permit(by, participant_id, "accelerate")
        done = self._run(chase_id, expected_version, lambda c: c.accelerate(participant_id, locations))
        return done.result, done.track

    def judge_visibility(self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
                         by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "visibility")
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.judge_visibility(participant_id, d, **options))

    def follow_trail(self, chase_id: UUID, participant_id: str, quarry_id: str, *, rolls: RollChoices = SERVER_ROLLS,
                     expected_version: int | None = None, by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "follow_trail")
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.follow_trail(participant_id, quarry_id, d, **options))

    def hide(self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
             by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "hide")
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.hide(participant_id, d, **options))

    def navigate(self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
                 by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "navigate")
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.navigate(participant_id, d, **options))

    def shoot_on_the_move(self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
                          by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "fire_on_the_move" if options.get("with_weapon") == "fire" else "attack_on_the_move", options)
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.shoot_on_the_move(participant_id, d, **options))

    def shoot_tire(self, chase_id: UUID, participant_id: str, vehicle_id: str, *, rolls: RollChoices = SERVER_ROLLS,
                   expected_version: int | None = None, by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "shoot_tire")
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.shoot_tire(participant_id, vehicle_id, d, **options))

    def keep_control(self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
                     by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "keep_control")
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.keep_control(participant_id, d, **options))

    def create_hazard(self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
                      by: Principal = SYSTEM, **options: Any) -> Answer:
        permit(by, participant_id, "create_hazard", options)
        obstacle_id = str(uuid4())
        return self._rolled(chase_id, rolls, expected_version, lambda c, d: c.create_hazard(participant_id, obstacle_id, d, **options))
