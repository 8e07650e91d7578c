"""The Deluxe chase's commands (swd-chases.txt), bound as methods of SavageWorldsCommands
(commands.py): each runs the aggregate's procedure through the plumbing ``SavageCommands`` names."""
from __future__ import annotations

from typing import Any, Callable, Protocol, Sequence
from uuid import UUID

from application.access import SYSTEM, Principal
from application.dice import DiceChoice
from application.systems.savage_worlds.acting import ServerDeckDice, permit
from application.permissions import require
from application.systems.savage_worlds.permissions import CHASE, PARTICIPANT

Answer = tuple[Any, list[dict[str, Any]], dict[str, Any]]


class SavageCommands(Protocol):
    """What these commands use of SavageWorldsCommands (commands.py)."""

    def _run(self, chase_id: UUID, system: str | Sequence[str], expected_version: int | None, act: Callable[[Any], Any]) -> Answer: ...

    def _roll_dice(self, chase: Any, choice: DiceChoice | None) -> Any: ...

    def _decks(self, chase: Any) -> ServerDeckDice: ...


def begin_swd(self: SavageCommands, chase_id: UUID, length: int | None = 5, *, deck: str | None = None, constant: int = 0, expected_version: int | None = None, by: Principal = SYSTEM) -> Answer:
    require(by, CHASE["swd"]["begin"], None)
    return self._run(chase_id, "swd", expected_version, lambda c: c.begin(length, deck=deck, constant=constant, deck_dice=self._decks(c)))


def swd_maneuver(
    self: SavageCommands, chase_id: UUID, participant_id: str, *, modifier: int = 0, cards: list[str] | None = None, keep: str | None = None,
    dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM,
) -> Answer:
    def act(c: Any) -> Any:
        permit(by, c, participant_id, PARTICIPANT["swd"]["maneuver"], {"cards": cards})
        return c.maneuver(self._roll_dice(c, dice), participant_id, modifier=modifier, cards=cards, keep=keep, deck_dice=self._decks(c)).total

    return self._run(chase_id, "swd", expected_version, act)


def swd_cooperate(self: SavageCommands, chase_id: UUID, participant_id: str, *, modifier: int = 0, dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM) -> Answer:
    def act(c: Any) -> Any:
        permit(by, c, participant_id, PARTICIPANT["swd"]["cooperate"])
        return c.cooperate(self._roll_dice(c, dice), participant_id, modifier).total

    return self._run(chase_id, "swd", expected_version, act)


def swd_action(
    self: SavageCommands, chase_id: UUID, participant_id: str, action: str, options: dict[str, Any], *, dice: Any = None,
    defender_dice: Any = None, expected_version: int | None = None, by: Principal = SYSTEM,
) -> Answer:
    """An action with Advantage ("Resolve Actions"): attack or force."""

    def act(c: Any) -> Any:
        permit(by, c, participant_id, PARTICIPANT["swd"][action])
        o = options
        if action == "attack":
            return c.attack_foe(
                self._roll_dice(c, dice), participant_id, o["target_id"], o["trait_die"], modifier=o["modifier"],
                target_number=o["target_number"], unstable_platform=o["unstable_platform"], running=o["running"], actions=o.get("actions"),
                options=o,
            ).total
        if action == "force":
            return c.force(
                self._roll_dice(c, dice), self._roll_dice(c, defender_dice), participant_id, o["target_id"], modifier=o["modifier"],
                defender_modifier=o["defender_modifier"], actions=o.get("actions"),
            )
        raise ValueError(f"no action {action}")

    return self._run(chase_id, "swd", expected_version, act)
