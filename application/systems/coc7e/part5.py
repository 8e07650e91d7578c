"""The commands of the optional rules of Call of Cthulhu chases (coc7e-chases.txt part 5): the
Keeper's choice of them, joining and leaving, switching modes of movement, monsters' skills,
fleeing the scene. Each authorises, then runs the aggregate's procedure through the core's
CommandRunner, as Coc7eCommands does (it holds one of these as ``optional``)."""
from __future__ import annotations

from typing import Any, Callable, Sequence, TypeVar
from uuid import UUID

from application.access import SYSTEM, Principal
from application.dice import DiceResolver
from application.runner import CommandRunner, Done
from application.systems.coc7e.rolls import SERVER_ROLLS, RollChoices, roll_sources
from domain.rules.coc7e.chase import Chase

T = TypeVar("T")
View = dict[str, Any]


class OptionalRuleCommands:
    """The optional rules' commands of Call of Cthulhu chases (not of fights without a chase)."""

    def __init__(self, runner: CommandRunner, dice: DiceResolver) -> None:
        self.runner = runner
        self.dice = dice

    def _run(self, chase_id: UUID, expected_version: int | None, command: Callable[[Chase], T]) -> Done[T]:
        return self.runner.run(chase_id, command, expected_version=expected_version, systems=(Chase.SYSTEM,))

    def change_optional_rules(self, chase_id: UUID, optional_rules: Sequence[str], expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """The Keeper changes which optional rules of part 5 the chase uses (optional_rules.py)."""
        by.require_keeper("choose the optional rules")
        return self._run(chase_id, expected_version, lambda c: c.change_optional_rules(list(optional_rules))).track

    def join(self, chase_id: UUID, participant_id: str, location: int, keep_if_slower: bool = False, expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """The Keeper places a joiner on the track (joining.py)."""
        by.require_keeper("place those joining the chase")
        return self._run(chase_id, expected_version, lambda c: c.join(participant_id, location, keep_if_slower)).track

    def leave(self, chase_id: UUID, participant_id: str, reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> View:
        """The Keeper rules that a participant leaves the chase (joining.py)."""
        by.require_keeper("rule that a participant leaves the chase")
        return self._run(chase_id, expected_version, lambda c: c.leave(participant_id, reason)).track
