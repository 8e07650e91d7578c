"""The one place a roll's dice are chosen: faces entered at the table, or the server dice.

Every command service asks the DiceResolver; none decides "table or server" on its own. A roll
takes faces entered at the table when given; without faces, the chase's default (or the
command's ``source``) decides: table dice then want faces (a 422 naming the field), server dice
come from the chase's committed seed, mixing in the players' entropy (DESIGN.md section 4).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from application.dry_run import ProbeDice, trying_out
from application.ports import SeedVault
from domain.dice import DiceSource, TableDice
from domain.errors import InvalidInput
from domain.recorded_chase import HistoryRefused


@dataclass(frozen=True)
class DiceChoice:
    """How one roll gets its dice: faces entered from the table, or the server's dice."""

    faces: Sequence[int] | None = None
    source: str | None = None  # "server" | "table" | None: the chase's default
    entered_by: str = "keeper"
    entropy: str = ""


SERVER_DICE = DiceChoice()


class DiceResolver:
    """Table dice or the chase's server dice, for one roll (or one step that may roll)."""

    def __init__(self, seeds: SeedVault) -> None:
        self.seeds = seeds

    def uses_table(self, chase: Any, source: str | None) -> bool:
        """Whether a roll given no faces must have them: the command's choice, else the chase's."""
        return (source or chase.dice) == "table"

    def dice(
        self,
        chase: Any,
        choice: DiceChoice = SERVER_DICE,
        *,
        field: str = "table_dice",
        asked: str = "a roll",
        needs: str = "the faces rolled",
        table_dice: Callable[[list[int], str], DiceSource] = TableDice,
    ) -> DiceSource:
        """The dice of one roll; ``field``, ``asked`` and ``needs`` word the refusals. A dry run
        rolls faces given as given, and without faces the lowest face of each die (dry_run.py)."""
        if choice.faces is None and trying_out():
            return ProbeDice()
        if choice.faces is not None:
            if choice.source == "server":
                raise InvalidInput(field, f"faces were entered for {asked} asked of the server dice")
            return table_dice(list(choice.faces), choice.entered_by)
        if self.uses_table(chase, choice.source):
            raise InvalidInput(field, f"this roll uses table dice: enter {needs}")
        return self.server(chase, choice.entropy)

    def optional(self, chase: Any, choice: DiceChoice | None) -> DiceSource | None:
        """Dice for a step that may not roll: none when a table-dice roll was given no faces (a
        dry run asks for them all the same: its dice roll nothing)."""
        choice = choice or SERVER_DICE
        if trying_out():
            return self.dice(chase, choice)
        if choice.faces is None and self.uses_table(chase, choice.source):
            return None
        return self.dice(chase, choice)

    def server(self, chase: Any, entropy: str = "") -> DiceSource:
        """The chase's server dice, with the chase's and this roll's entropy mixed in; never in a
        dry run, which would show the faces the next real roll will have."""
        if trying_out():
            return ProbeDice()
        if chase.seed_commitment is None:
            raise HistoryRefused("the chase's seed has been revealed and the chase is over: roll with table dice")
        mixed = "|".join(part for part in (chase.entropy, entropy) if part)
        return self.seeds.server_dice(chase.id, chase.seed_commitment, mixed, chase.seed_epoch)

    def recorded(self, chase: Any, commitment: str, entropy: str = "", epoch: int = 0) -> DiceSource:
        """The server dice of a seed the chase committed (a shuffle's, read back from its record);
        not in a dry run (the next card dealt is as secret as the next roll)."""
        if trying_out():
            return ProbeDice()
        return self.seeds.server_dice(chase.id, commitment, entropy, epoch)
