"""Dice shared by every rule system: dice, dice sources and dice expressions."""
from domain.dice.dice import (
    D,
    Die,
    DiceSource,
    Draw,
    InvalidTableDice,
    TableDice,
    TENS,
    UNITS,
)
from domain.dice.derivation import commitment_of, derive_index
from domain.dice.expressions import DiceExpression, InvalidDiceExpression, parse

__all__ = [
    "D",
    "Die",
    "DiceSource",
    "Draw",
    "InvalidTableDice",
    "TableDice",
    "TENS",
    "UNITS",
    "commitment_of",
    "derive_index",
    "DiceExpression",
    "InvalidDiceExpression",
    "parse",
]
