"""Call of Cthulhu commands for hazards, barriers, conflict and vehicles (issue 3).

Mixed into ChaseLedger: each command authorises, runs the aggregate's procedure through
``_execute`` (one action, retried on a lost race) and answers with its outcome and the track
view. Commands that roll several times take a RollChoices: table-dice faces for each roll by
name (``{"attack": [40, 5], "damage": [3], "occupants.<id>": [2]}``), the server dice for any
roll not given (unless the chase or the command uses table dice, when a missing roll is a 422
naming ``rolls.<name>`` and the dice it takes). Faces given for a roll the outcome did not call
for (damage after a miss) are not used and not recorded.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence
from uuid import UUID, uuid4

from application.access import SYSTEM, Principal
from domain.dice import DiceSource, Die, Draw, InvalidTableDice, TableDice
from domain.rules.coc7e.damage import DEFAULT
from domain.rules.coc7e.errors import InvalidCommand
from domain.rules.coc7e.keeper_rolls import RollSources


@dataclass(frozen=True)
class RollChoices:
    """How each roll of a command gets its dice: faces by roll name, else the server dice."""

    faces: Mapping[str, Sequence[int]] = field(default_factory=dict)
    source: str | None = None  # "server" | "table" | None: the chase's default
    entered_by: str = "keeper"
    entropy: str = ""


SERVER_ROLLS = RollChoices()


@dataclass(frozen=True)
class ServerChoice:
    """A DiceChoice for the server dice (ChaseLedger._dice reads these attributes)."""

    entropy: str = ""
    faces: None = None
    source: str = "server"
    entered_by: str = "server"


class NamedTableDice(TableDice):
    """Table dice for one named roll of a command; bad faces are a 422 naming ``rolls.<name>``."""

    def __init__(self, faces: Sequence[int], entered_by: str, name: str) -> None:
        super().__init__(faces, entered_by)
        self.name = name

    def draw(self, sequence: int, dice: Sequence[Die]) -> Draw:
        try:
            return super().draw(sequence, dice)
        except InvalidTableDice as e:
            raise InvalidCommand(f"rolls.{self.name}", str(e)) from None


class Coc7eCommands:
    """Hazards, barriers, conflict and vehicle commands of the ChaseLedger application."""

    # -- the track: location names and obstacles (the Keeper's) --------------------------------

    def name_location(self, chase_id: UUID, location: int, name: str, expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_keeper("name locations")
        self._execute(chase_id, expected_version, lambda c: c.name_location(location, name))
        return self.track(chase_id)

    def remove_location_name(self, chase_id: UUID, location: int, expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_keeper("remove location names")
        self._execute(chase_id, expected_version, lambda c: c.remove_location_name(location))
        return self.track(chase_id)

    def place_obstacle(self, chase_id: UUID, spec: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> tuple[str, dict[str, Any]]:
        """A hazard or barrier between two adjacent locations; answers with its id."""
        by.require_keeper("place hazards and barriers")
        obstacle_id = str(uuid4())
        self._execute(chase_id, expected_version, lambda c: c.place_obstacle(obstacle_id, spec))
        return obstacle_id, self.track(chase_id)

    def change_obstacle(self, chase_id: UUID, obstacle_id: str, changes: dict[str, Any], expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_keeper("change hazards and barriers")
        self._execute(chase_id, expected_version, lambda c: c.change_obstacle(obstacle_id, changes))
        return self.track(chase_id)

    def remove_obstacle(self, chase_id: UUID, obstacle_id: str, reason: str = "", expected_version: int | None = None, *, by: Principal = SYSTEM) -> dict[str, Any]:
        by.require_keeper("remove hazards and barriers")
        self._execute(chase_id, expected_version, lambda c: c.remove_obstacle(obstacle_id, reason))
        return self.track(chase_id)

    # -- negotiating and breaking down ---------------------------------------------------------

    def negotiate(
        self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
        by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Roll to negotiate the hazard or barrier ahead (options: obstacle_id, approach,
        bonus_dice, skill, target, penalty_dice, keeper_accepts_skill)."""
        by.require_acts_for(participant_id, "negotiate hazards and barriers")
        if options.get("keeper_accepts_skill"):
            by.require_keeper("accept a skill the obstacle does not name")
        outcome = self._execute(chase_id, expected_version, lambda c: c.negotiate(participant_id, self._rolls(c, rolls), **options))
        return outcome, self.track(chase_id)

    def break_barrier(
        self, chase_id: UUID, participant_id: str, *, rolls: RollChoices = SERVER_ROLLS, expected_version: int | None = None,
        by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Break down the barrier ahead (options: obstacle_id, damage, debris, aftermath)."""
        by.require_acts_for(participant_id, "break down barriers")
        if options.get("debris") is not None:
            by.require_keeper("rule on the debris of a barrier")
        self._keeper_rules_aftermath(options, by)
        outcome = self._execute(chase_id, expected_version, lambda c: c.break_barrier(participant_id, self._rolls(c, rolls), **options))
        return outcome, self.track(chase_id)

    # -- conflict ------------------------------------------------------------------------------

    def attack(
        self, chase_id: UUID, participant_id: str, target_id: str, *, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """An attack or fighting maneuver and the target's response (see Chase.attack)."""
        by.require_acts_for(participant_id, "attack")
        self._keeper_rules_aftermath(options, by)
        outcome = self._execute(chase_id, expected_version, lambda c: c.attack(participant_id, target_id, self._rolls(c, rolls), **options))
        return outcome, self.track(chase_id)

    # -- mishaps -------------------------------------------------------------------------------

    def mishap_roll(
        self, chase_id: UUID, participant_id: str, skill: str, *, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A roll as if encountering a hazard, after a maneuver (options: target, difficulty, bonus_dice, penalty_dice)."""
        by.require_acts_for(participant_id, "roll")
        outcome = self._execute(chase_id, expected_version, lambda c: c.mishap_roll(participant_id, self._rolls(c, rolls), skill, **options))
        return outcome, self.track(chase_id)

    def rule_consequences(
        self, chase_id: UUID, participant_id: str, *, incident: str | None = DEFAULT, rolls: RollChoices = SERVER_ROLLS,
        expected_version: int | None = None, by: Principal = SYSTEM, **options: Any,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The Keeper's ruling on a mishap (options: damage, delay, difficulty, to_location, aftermath, cause)."""
        by.require_keeper("rule on damage and delays")
        outcome = self._execute(
            chase_id, expected_version, lambda c: c.rule_consequences(participant_id, self._rolls(c, rolls), incident=incident, **options)
        )
        return outcome, self.track(chase_id)

    # -- internals -----------------------------------------------------------------------------

    def _keeper_rules_aftermath(self, options: dict[str, Any], by: Principal) -> None:
        if options.get("aftermath"):
            by.require_keeper("rule on the fate of a vehicle's occupants")

    def _rolls(self, chase: Any, choices: RollChoices) -> RollSources:
        """The dice of each named roll of one command on ``chase``."""
        server: list[DiceSource] = []

        def source(name: str, needs: str) -> DiceSource:
            faces = choices.faces.get(name)
            if faces is not None:
                if choices.source == "server":
                    raise InvalidCommand(f"rolls.{name}", "faces were entered for a command asked of the server dice")
                return NamedTableDice(list(faces), choices.entered_by, name)
            if (choices.source or chase.dice) == "table":
                raise InvalidCommand(f"rolls.{name}", f"this roll uses table dice: enter the faces of {needs}")
            if not server:  # the chase's server dice, as ChaseLedger._dice makes them
                server.append(self._dice(chase, ServerChoice(choices.entropy)))
            return server[0]

        return source


def flatten_rolls(rolls: Mapping[str, Any] | None) -> dict[str, list[int]]:
    """{"occupants": {"<id>": [2]}, "damage": [3]} -> {"occupants.<id>": [2], "damage": [3]}."""
    flat: dict[str, list[int]] = {}
    for name, value in (rolls or {}).items():
        if isinstance(value, Mapping):
            for key, faces in value.items():
                flat[f"{name}.{key}"] = list(faces)
        else:
            flat[name] = list(value)
    return flat
