"""Aces: dice that are rolled again on their highest face, drawn so that every face is verifiable.

Savage Worlds trait and damage dice "Ace": a die showing its highest face is rolled again and
the new face added, again and again while it keeps showing its highest face (core rules, "Aces";
swade-chases-reference.txt relies on it for trait and damage rolls). How many dice a roll takes
is therefore known only while rolling. The scheme that keeps such a roll verifiable:

* One roll has one sequence number. Its dice are numbered 0, 1, 2, ... (the die index), in the
  order the dice are physically rolled: first the roll's *base dice* in the order the roll names
  them (trait die then Wild Die; damage dice left to right), then, base die by base die, the
  rerolls of its aces in the order they were rolled, and last any die the rules call for only
  after seeing the others (the Extra's critical-failure d6, domain.rules.savage_worlds.dice).
* Server dice derive die ``i`` from (seed, chase, sequence, i, sides) alone
  (domain.dice.derivation). So the source is asked for the growing *prefix* of the roll's dice:
  ``draw(sequence, base)`` first, which is the only draw when nothing aces, then
  ``draw(sequence, base + [next die])`` after each ace. The faces already read must come back
  unchanged (checked here), so every face recorded is exactly the face anyone recomputes from
  the revealed seed with derive_index(seed, chase, sequence, i, sides). Nothing is drawn and
  thrown away, and the number of draws is recorded.
* Table dice: the person rolls the physical dice and enters every face in that same order
  (e.g. trait d8 and Wild Die rolled together: 8, 3; the d8 aced, rolled again: 8, then 2 ->
  entered 8, 3, 8, 2). The engine reads the dice list off the entered faces and asks for them in
  one draw, which checks their count and ranges (domain.dice.TableDice); a list that stops in
  the middle of an ace, or runs past the end of the roll, is refused with the die still wanted.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from domain.dice import DiceSource, Die, InvalidTableDice, TableDice

# An ace chain longer than this is not a roll but a broken dice source: (1/4)**100 is nil.
MAX_DICE_IN_A_ROLL = 100

# A plan reads the faces drawn so far and gives the dice of the whole roll as far as they are
# known: the dice of those faces plus the dice still to roll (none when the roll is complete).
Plan = Callable[[Sequence[int]], list[Die]]


class BrokenDiceSource(RuntimeError):
    """A dice source that changed faces it had already given for the same roll."""


@dataclass(frozen=True)
class AcingDraw:
    """Every die of one roll (index = position), the faces, their provenance and how many draws."""

    dice: tuple[Die, ...]
    faces: tuple[int, ...]
    provenance: dict[str, Any] = field(default_factory=dict)
    draws: int = 1


def draw_acing(source: DiceSource, sequence: int, plan: Plan) -> AcingDraw:
    """Draw one roll whose dice depend on its own faces, by the scheme of this module's docstring."""
    # Faces entered by a person (domain.dice.TableDice, or any source holding an ``entered``
    # list) are all there before the roll is read: the dice list is read off them.
    if isinstance(source, TableDice) or isinstance(getattr(source, "entered", None), list | tuple):
        return _entered(source, sequence, plan)
    dice = plan(())
    faces: tuple[int, ...] = ()
    draws = 0
    while True:
        draw = source.draw(sequence, dice)
        draws += 1
        if tuple(draw.faces[: len(faces)]) != faces:
            raise BrokenDiceSource(f"roll {sequence}: the dice source changed faces it had already given")
        faces = tuple(draw.faces)
        needed = plan(faces)
        if len(needed) <= len(faces):
            return AcingDraw(tuple(dice), faces, dict(draw.provenance), draws)
        if len(needed) > MAX_DICE_IN_A_ROLL:
            raise BrokenDiceSource(f"roll {sequence}: more than {MAX_DICE_IN_A_ROLL} dice; the source keeps acing")
        dice = needed


def _entered(source: DiceSource, sequence: int, plan: Plan) -> AcingDraw:
    entered = tuple(source.entered)  # type: ignore[attr-defined]
    dice = plan(entered)
    if len(dice) > len(entered):
        wanted = dice[len(entered)].label
        raise InvalidTableDice(
            f"{len(entered)} faces were entered but the roll is not finished: a {wanted} is still to roll "
            "(a die showing its highest face Aces and is rolled again; enter every face, base dice first, "
            "then each ace's rerolls)"
        )
    if len(dice) < len(entered):
        raise InvalidTableDice(
            f"this roll takes {len(dice)} dice ({', '.join(d.label for d in dice)}); {len(entered)} faces were entered"
        )
    draw = source.draw(sequence, dice)  # checks every face against its die
    return AcingDraw(tuple(dice), tuple(draw.faces), dict(draw.provenance), 1)


def chains_plan(base: Sequence[Die], aces: bool = True) -> Callable[[Sequence[int]], tuple[list[Die], list[list[int]], bool]]:
    """Reader of faces laid out as base dice then each base die's ace rerolls.

    Returns (dice so far plus the next die wanted, one face chain per base die, complete?).
    """
    base = list(base)

    def read(faces: Sequence[int]) -> tuple[list[Die], list[list[int]], bool]:
        dice = list(base)
        if len(faces) < len(base):
            return dice, [[f] for f in faces], False
        chains = [[faces[i]] for i in range(len(base))]
        position = len(base)
        for chain, die in zip(chains, base):
            while aces and chain[-1] == die.sides:
                dice.append(die)
                if position >= len(faces):
                    return dice, chains, False
                chain.append(faces[position])
                position += 1
        return dice, chains, True

    return read


def chain_total(chain: Sequence[int]) -> int:
    """An acing die's total: every face of the chain added."""
    return sum(chain)


# --- exact chances, for analytics and for checking the rolls against the mathematics -----------


def chance_of_total(sides: int, total: int, aces: bool = True) -> Fraction:
    """Exact chance that one die of ``sides`` (acing) totals ``total``.

    A total t = k*sides + r with 0 < r < sides takes k aces then a face r: (1/sides)**(k+1);
    a multiple of ``sides`` never ends a roll (the die is rolled again), so its chance is 0.
    """
    if total < 1:
        return Fraction(0)
    if not aces:
        return Fraction(1, sides) if total <= sides else Fraction(0)
    aced, rest = divmod(total, sides)
    return Fraction(0) if rest == 0 else Fraction(1, sides) ** (aced + 1)


def chance_at_least(sides: int, target: int, aces: bool = True) -> Fraction:
    """Exact chance that one die of ``sides`` totals ``target`` or more.

    Total > m with m = k*sides + r (0 <= r < sides): the first k rolls must ace, and the next
    shows more than r (a further ace only adds more): (1/sides)**k * (sides - r)/sides.
    """
    if target <= 1:
        return Fraction(1)
    if not aces:
        return Fraction(max(0, sides - target + 1), sides)
    aced, rest = divmod(target - 1, sides)
    return Fraction(1, sides) ** aced * Fraction(sides - rest, sides)
