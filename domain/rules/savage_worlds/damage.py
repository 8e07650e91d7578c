"""Damage rolls that Ace, and table rolls that never do.

* Damage: weapon or Scale dice (and Strength, "Str+d6"), every one of which Aces (core rules,
  "Damage"; swade-chases-reference.txt "RAM" rolls Scale dice as damage). A raise on the attack
  adds +d6 (swade-chases-reference.txt "RAM": "+d6 bonus damage ... raise"), which Aces too; the
  Joker adds +2 (core rules, "Jokers"). Breaking things allows no Aces
  (swade-chases-reference.txt "Breaking Things"): ``aces=False``.
* Table rolls (Out of Control and Vehicle Critical Hits 2d6, the critical-failure d6, d4 Wounds)
  are read off a table and never Ace.
Dice are laid out and drawn as domain.rules.savage_worlds.acing describes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from domain.dice import D, DiceSource, Die, InvalidDiceExpression, parse
from domain.rules.savage_worlds.acing import chains_plan, draw_acing
from domain.rules.savage_worlds.dice import JOKER_BONUS, dice_record, trait_die
from domain.rules.savage_worlds.errors import InvalidValue, whole


@dataclass(frozen=True)
class DamageRoll:
    """A damage roll: each die's faces with its aces, the modifiers and the total."""

    expression: str
    dice: tuple[dict[str, Any], ...]
    chains: tuple[tuple[int, ...], ...]
    modifier: int
    raise_bonus: bool
    joker: bool
    total: int
    sequence: int
    source: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {
            "kind": "damage roll",
            "expression": self.expression,
            "dice": [dict(d) for d in self.dice],
            "chains": [list(c) for c in self.chains],
            "modifier": self.modifier,
            "raise_bonus_die": self.raise_bonus,
            "joker": self.joker,
            "total": self.total,
            "source": dict(self.source, sequence=self.sequence),
        }


def damage_dice(expression: str, strength: str | None = None, raise_bonus: bool = False) -> tuple[list[Die], int]:
    """The dice and constant of a damage expression ("2d6", "d8+d6", "Str+d6", "2d6+1").

    ``strength`` is the Strength die ("d8", "d12+1") for "Str"; a raise adds one d6.
    """
    text = expression
    if re.search(r"\bstr\b", expression, re.IGNORECASE):
        if strength is None:
            raise InvalidValue("expression", f"{expression!r} uses Str but no Strength die was given")
        strength_die = trait_die(strength)
        text = re.sub(r"\bstr\b", lambda _: strength_die.label, expression, flags=re.IGNORECASE)
    try:
        parsed = parse(text)
    except InvalidDiceExpression as e:
        raise InvalidValue("expression", str(e)) from None
    if any(t.sign < 0 for t in parsed.terms) or not parsed.terms:
        raise InvalidValue("expression", f"{expression!r}: damage adds dice (e.g. 2d6, d8+d6, Str+d4)")
    dice = parsed.dice() + ([D(6)] if raise_bonus else [])
    return dice, parsed.modifier


def damage_roll(
    source: DiceSource,
    sequence: int,
    expression: str,
    *,
    strength: str | None = None,
    raise_bonus: bool = False,
    modifier: int = 0,
    joker: bool = False,
    aces: bool = True,
) -> DamageRoll:
    """Roll damage; every die Aces unless ``aces`` is False (e.g. breaking things: no Aces)."""
    whole("modifier", modifier)
    base, constant = damage_dice(expression, strength, raise_bonus)
    read = chains_plan(base, aces)
    acing = draw_acing(source, sequence, lambda faces: read(faces)[0])
    _, chains, _ = read(acing.faces)
    flat = constant + modifier + (JOKER_BONUS if joker else 0)
    roles = [f"damage {d.label}" for d in base[: len(base) - int(raise_bonus)]] + (["raise bonus d6"] if raise_bonus else [])
    return DamageRoll(
        expression=expression,
        dice=tuple(dice_record(acing, roles, chains, aces)),
        chains=tuple(tuple(c) for c in chains),
        modifier=constant + modifier,
        raise_bonus=raise_bonus,
        joker=joker,
        total=sum(sum(c) for c in chains) + flat,
        sequence=sequence,
        source=dict(acing.provenance, draws=acing.draws),
    )


@dataclass(frozen=True)
class TableRoll:
    """A roll read off a table (2d6, d6, d4): plain dice that never Ace."""

    dice: tuple[str, ...]
    faces: tuple[int, ...]
    total: int
    sequence: int
    source: dict[str, Any] = field(default_factory=dict)

    def record(self) -> dict[str, Any]:
        return {
            "kind": "table roll",
            "dice": [{"index": i, "die": d, "face": f} for i, (d, f) in enumerate(zip(self.dice, self.faces))],
            "total": self.total,
            "source": dict(self.source, sequence=self.sequence),
        }


def table_roll(source: DiceSource, sequence: int, count: int = 2, sides: int = 6) -> TableRoll:
    """Roll ``count`` d``sides`` for a table; one draw."""
    dice = [D(sides)] * whole("count", count, 1)
    draw = source.draw(sequence, dice)
    return TableRoll(tuple(d.label for d in dice), tuple(draw.faces), sum(draw.faces), sequence, dict(draw.provenance))
