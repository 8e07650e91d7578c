"""Dice expressions as the rules texts write them: 1D3, 2D10, 1D3-1, 1D10+1D4+2, 1D4+DB."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from domain.dice.dice import D, DiceSource, Die

MAX_DICE = 100
MAX_SIDES = 1000
MAX_MODIFIER = 999999
PARSED_KEPT = 512  # expressions (with the roller's damage bonus) whose reading is kept
_TERM = re.compile(r"\s*([+-])?\s*(?:(\d*)\s*[dD]\s*(\d+)|(\d+)|([dD][bB]))\s*")


class InvalidDiceExpression(ValueError):
    """A dice expression that cannot be read or rolled."""


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, added (sign +1) or subtracted (sign -1)."""

    sign: int
    count: int
    sides: int


@dataclass(frozen=True)
class DiceExpression:
    """A parsed expression: dice terms plus a constant modifier."""

    text: str
    terms: tuple[DiceTerm, ...]
    modifier: int

    def dice(self) -> list[Die]:
        return [D(t.sides) for t in self.terms for _ in range(t.count)]

    def minimum(self) -> int:
        return sum(t.sign * (t.count if t.sign > 0 else t.count * t.sides) for t in self.terms) + self.modifier

    def maximum(self) -> int:
        return sum(t.sign * (t.count * t.sides if t.sign > 0 else t.count) for t in self.terms) + self.modifier

    def total(self, faces: tuple[int, ...] | list[int]) -> int:
        signs = [t.sign for t in self.terms for _ in range(t.count)]
        return sum(s * f for s, f in zip(signs, faces)) + self.modifier

    def roll(self, dice: DiceSource, sequence: int) -> dict[str, Any]:
        """Roll every die of the expression; the record keeps each face."""
        drawn = self.dice()
        draw = dice.draw(sequence, drawn)
        return {
            "expression": self.text,
            "dice": [{"die": d.label, "face": f} for d, f in zip(drawn, draw.faces)],
            "modifier": self.modifier,
            "total": self.total(draw.faces),
            "source": dict(draw.provenance, sequence=sequence),
        }


def parse(text: str, damage_bonus: str | None = None) -> DiceExpression:
    """Read an expression; ``DB`` stands for the roller's damage bonus (e.g. "+1D4", "-1", "0")."""
    if isinstance(text, str) and (damage_bonus is None or isinstance(damage_bonus, str)):
        return _parsed(text, damage_bonus)  # a table rolls the same few expressions again and again
    return _parse(text, damage_bonus)


@functools.lru_cache(maxsize=PARSED_KEPT)
def _parsed(text: str, damage_bonus: str | None) -> DiceExpression:
    return _parse(text, damage_bonus)  # (an expression is immutable: one parse serves every roll of it)


def _parse(text: str, damage_bonus: str | None) -> DiceExpression:
    if not isinstance(text, str) or not text.strip():
        raise InvalidDiceExpression("a dice expression is required, e.g. 1D6 or 1D10+1D4+2")
    if re.search(r"db", text, re.IGNORECASE):
        if damage_bonus is None:
            raise InvalidDiceExpression(f"{text!r} uses DB but the roller has no damage bonus")
        bonus = damage_bonus.strip()
        if bonus in ("", "0", "+0", "-0", "none", "None"):
            bonus = "+0"
        if bonus[0] not in "+-":
            bonus = "+" + bonus
        # Case-insensitive like the detection above ("+Db" is DB too); a function as the
        # replacement so the bonus text is inserted literally, never read as a template.
        text = re.sub(r"\s*\+\s*db", lambda _: bonus, text, flags=re.IGNORECASE)
        text = re.sub(r"^db", lambda _: bonus, text.strip(), flags=re.IGNORECASE)
    terms: list[DiceTerm] = []
    modifier = 0
    position = 0
    source = text.strip()
    while position < len(source):
        match = _TERM.match(source, position)
        if not match or match.end() == position:
            raise InvalidDiceExpression(f"cannot read {source!r} at {source[position:]!r}")
        sign_text, count_text, sides_text, constant, db = match.groups()
        if db:
            raise InvalidDiceExpression("DB must be written as +DB")
        if position > 0 and sign_text is None:
            raise InvalidDiceExpression(f"missing + or - before {source[position:]!r}")
        sign = -1 if sign_text == "-" else 1
        if sides_text is not None:
            count = int(count_text) if count_text else 1
            sides = int(sides_text)
            if not 1 <= count <= MAX_DICE:
                raise InvalidDiceExpression(f"{count} dice in one term; at most {MAX_DICE}")
            if not 2 <= sides <= MAX_SIDES:
                raise InvalidDiceExpression(f"a die has 2 to {MAX_SIDES} sides, not {sides}")
            terms.append(DiceTerm(sign, count, sides))
        else:
            if len(constant) > 6:
                raise InvalidDiceExpression(f"a modifier of at most {MAX_MODIFIER} is allowed, not {constant}")
            modifier += sign * int(constant)
        position = match.end()
    if sum(t.count for t in terms) > MAX_DICE:
        raise InvalidDiceExpression(f"at most {MAX_DICE} dice in one expression")
    canonical = _canonical(terms, modifier)
    return DiceExpression(canonical, tuple(terms), modifier)


def _canonical(terms: list[DiceTerm], modifier: int) -> str:
    parts = []
    for t in terms:
        parts.append(("-" if t.sign < 0 else "+") + f"{t.count}D{t.sides}")
    if modifier or not parts:
        parts.append(f"{modifier:+d}")
    text = "".join(parts)
    return text[1:] if text.startswith("+") else text
