"""The commands of D6 races and chases.

Each runs through the core's CommandRunner (load, the check that the chase is a D6 chase,
optimistic concurrency, save, views), checks who may do it (a participant's command: by the
table of permissions.py) and runs the aggregate's procedure.
Answers are (what the command decided, the rolls it recorded, the track view). Dice come from
the core's DiceResolver: a free short move rolls nothing, so its dice are asked only when given.
"""
from __future__ import annotations

from typing import Any, Callable
from uuid import UUID, uuid4

from application.access import SYSTEM, Principal
from application.dice import DiceChoice, DiceResolver
from application.permissions import alone, require
from application.runner import CommandRunner
from application.systems.d6.permissions import CHASE, PARTICIPANT
from domain.rules.d6.chase import D6Chase

D6_CHASES = {D6Chase.SYSTEM: D6Chase}
Answer = tuple[Any, list[dict[str, Any]], dict[str, Any]]


class D6Commands:
    """The commands of D6 chases: set-up, movement, rolls and rounds."""

    def __init__(self, runner: CommandRunner, dice: DiceResolver) -> None:
        self.runner = runner
        self.dice = dice

    def _run(self, chase_id: UUID, expected_version: int | None, act: Callable[[Any], Any]) -> Answer:
        def command(chase: Any) -> tuple[Any, list[dict[str, Any]]]:
            return act(chase), chase.recorded_rolls()

        done = self.runner.run(chase_id, command, expected_version=expected_version, systems=(D6Chase.SYSTEM,))
        result, rolls = done.result
        return result, rolls, done.track

    def _dice(self, chase: Any, choice: DiceChoice | None) -> Any:
        """Dice for a step that may not roll: none when a table-dice chase entered no faces."""
        return self.dice.optional(chase, choice)

    def add_participant(self, chase_id: UUID, spec: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        require(by, CHASE["add_participant"], None)
        participant_id = str(uuid4())
        _, rolls, view = self._run(chase_id, expected_version, lambda c: c.add_participant(participant_id, spec))
        return participant_id, rolls, view

    def begin(self, chase_id: UUID, options: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        """The course (finish, terrain by stretch) and the GM's optional rules; round 1 begins."""
        require(by, CHASE["begin"], None)
        return self._run(chase_id, expected_version, lambda c: c.begin(**options))

    def move(
        self, chase_id: UUID, participant_id: str, movement: str, rate: Any, *, modifier: int = 0, on_failure: str | None = None,
        wild_die_one: str | None = None, running_start: int = 0, dice: DiceChoice | None = None, expected_version: int | None = None,
        by: Principal = SYSTEM,
    ) -> Answer:
        """A movement action at a declared rate (the GM's modifier and rulings are the GM's to give)."""
        require(by, PARTICIPANT["move"], alone(participant_id), {"modifier": modifier, "on_failure": on_failure, "wild_die_one": wild_die_one})

        def act(c: Any) -> Any:
            return c.move(
                self._dice(c, dice), participant_id, movement, rate, modifier=modifier, on_failure=on_failure,
                wild_die_one=wild_die_one, running_start=running_start,
            )

        return self._run(chase_id, expected_version, act)

    def fatigue_roll(
        self, chase_id: UUID, participant_id: str, skill: str = "stamina", *, modifier: int = 0, wild_die_one: str | None = None,
        dice: DiceChoice | None = None, expected_version: int | None = None, by: Principal = SYSTEM,
    ) -> Answer:
        require(by, PARTICIPANT["fatigue_roll"], alone(participant_id), {"modifier": modifier, "wild_die_one": wild_die_one})
        return self._run(chase_id, expected_version, lambda c: c.fatigue_roll(self._dice(c, dice), participant_id, skill, modifier=modifier, one=wild_die_one))

    def skill_roll(
        self, chase_id: UUID, participant_id: str | None, *, code: str | None = None, skill: str | None = None, difficulty: int | None = None,
        purpose: str = "skill roll", wild_die_one: str | None = None, dice: DiceChoice | None = None, expected_version: int | None = None,
        by: Principal = SYSTEM,
    ) -> Answer:
        """Any roll the GM calls for: a participant's skill, or a die code."""
        require(by, CHASE["skill_roll"], alone(participant_id), {"participant_id": participant_id, "wild_die_one": wild_die_one})

        def act(c: Any) -> Any:
            return c.skill_roll(self._dice(c, dice), participant_id, code=code, skill=skill, difficulty=difficulty, purpose=purpose, one=wild_die_one)

        return self._run(chase_id, expected_version, act)

    def end_round(self, chase_id: UUID, expected_version: int | None = None, *, by: Principal = SYSTEM) -> Answer:
        require(by, CHASE["end_round"], None)
        return self._run(chase_id, expected_version, lambda c: c.end_round())
