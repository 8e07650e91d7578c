"""The dice of a Call of Cthulhu command that rolls several times (hazards, barriers, conflict).

A RollChoices gives table-dice faces for each roll by name (``{"attack": [40, 5], "damage": [3],
"occupants.<id>": [2]}``) and takes the server dice for any roll not given (unless the chase or
the command uses table dice, when a missing roll is a 422 naming ``rolls.<name>`` and the dice it
takes). Faces given for a roll the outcome did not call for (damage after a miss) are not used
and not recorded. Table or server is decided by the core's DiceResolver, as for every roll.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Mapping, Sequence

from application.dice import DiceChoice, DiceResolver
from domain.dice import DiceSource, Die, Draw, InvalidTableDice, TableDice
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


def roll_sources(resolver: DiceResolver, chase: Any, choices: RollChoices) -> RollSources:
    """The dice of each named roll of one command on ``chase``; the server dice are made once."""
    server: list[DiceSource] = []

    def source(name: str, needs: str) -> DiceSource:
        choice = DiceChoice(choices.faces.get(name), choices.source, choices.entered_by, choices.entropy)
        if choice.faces is None and not resolver.uses_table(chase, choice.source):
            if not server:
                server.append(resolver.server(chase, choices.entropy))
            return server[0]
        return resolver.dice(
            chase, choice, field=f"rolls.{name}", asked="a command", needs=f"the faces of {needs}",
            table_dice=partial(NamedTableDice, name=name),
        )

    return source

