"""The damage of a blow: weapon dice plus damage bonus, extreme damage and impales, armor.

coc7e-combat.txt "Determining Damage", "Extreme Damage and Impales", the weapon table's Key
("Damage", "(i)"), "Range and Firearms Difficulty Levels" and "Armor". Pure rules: the
procedures roll the dice a ``Blow`` asks for and apply what it yields.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from domain.dice import DiceExpression, InvalidDiceExpression, parse
from domain.rules.coc7e import weapons
from domain.rules.coc7e.errors import InvalidCommand

COMBAT = "coc7e-combat.txt"
EXTREME_DAMAGE = f'{COMBAT} "Extreme Damage and Impales"'
RANGE_DIFFICULTY = f'{COMBAT} "Range and Firearms Difficulty Levels"'
ARMOR = f'{COMBAT} "Armor"'

# How a hit lands. "regular": the damage is rolled; "maximum": a non-impaling weapon's Extreme
# success, maximum damage plus maximum damage bonus, nothing rolled; "impale": that maximum plus
# a damage roll for the weapon (without the damage bonus: the switchblade's 1D4+8).
KINDS = ("regular", "maximum", "impale")
EXTREME_LEVELS = ("extreme", "critical")
HALF_DB = re.compile(r"half\s*db", re.IGNORECASE)


@dataclass(frozen=True)
class Blow:
    """What one hit deals: ``rolled`` dice (None: nothing to roll) plus ``fixed`` points."""

    kind: str
    rolled: str | None
    fixed: int

    def amount(self, total_rolled: int = 0) -> int:
        """Hit points dealt, never below 0 (a damage bonus of -2 cannot heal)."""
        return max(0, self.fixed + total_rolled)


def extreme_hit(level: str, *, initiated: bool, difficulty: str = "regular") -> bool:
    """Whether a hit deals extreme damage (or impales).

    "This only occurs if the attack is made on a character's turn in the DEX order, not when
    fighting back" (``initiated``); at very long range, "when only an Extreme success will hit the
    target, an impale only occurs with a critical hit (a roll of 01)" -- and for every firearm
    attack of Extreme difficulty "the best possible result is a successful hit" ("Automatic Fire").
    """
    if not initiated:
        return False
    if difficulty in ("extreme", "critical"):
        return level == "critical"
    return level in EXTREME_LEVELS


def read(expression: str, damage_bonus: str | None, field: str = "damage") -> tuple[DiceExpression, DiceExpression]:
    """The whole damage (DB read as the attacker's damage bonus) and the weapon's own dice (DB as 0)."""
    bonus = damage_bonus if damage_bonus is not None else "0"
    if isinstance(expression, str) and HALF_DB.search(expression):
        # "Half the attacker's damage bonus is applied to thrown and missile weapons that rely on
        # the user's strength" ("Ranged and Thrown Weapons").
        expression, bonus = HALF_DB.sub("DB", expression), weapons.half_bonus(bonus)
    try:
        return parse(expression, bonus), parse(expression, "0")
    except InvalidDiceExpression as e:
        raise InvalidCommand(field, str(e)) from None


def blow(expression: str, damage_bonus: str | None, *, extreme: bool, impales: bool, field: str = "damage") -> Blow:
    """The damage of a hit with ``expression`` (e.g. "1D4+DB"), by the attacker's damage bonus.

    An Extreme hit with a non-impaling weapon deals "maximum damage (plus maximum damage bonus, if
    any)"; with an impaling weapon "maximum damage plus maximum damage bonus and add a damage roll
    for the weapon": 1D4+DB with a 1D4 bonus is 1D4+8 ("Extreme Damage and Impales").
    """
    whole, weapon = read(expression, damage_bonus, field)
    if not extreme:
        return Blow("regular", whole.text, 0) if whole.terms else Blow("regular", None, whole.modifier)
    if not impales:
        return Blow("maximum", None, whole.maximum())
    return Blow("impale", weapon.text if weapon.terms else None, whole.maximum() + (0 if weapon.terms else weapon.modifier))


def through_armor(damage: int, armor: int) -> int:
    """Deduct the armor points from the damage, to no less than 0 ("Armor")."""
    for name, value in (("damage", damage), ("armor", armor)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidCommand(name, "must be a whole number, 0 or more")
    return max(0, damage - armor)


# coc7e-combat.txt "Armor Examples": armor points, as printed.
ARMOR_EXAMPLES: tuple[tuple[str, int], ...] = (
    ("Heavy leather jacket", 1),
    ("WWI helmet", 2),
    ('1" Hardwood', 3),
    ("Present U.S. Helmet", 5),
    ("Heavy Kevlar Vest", 8),
    ("Military Body Armor", 12),
    ('1.5" bulletproof glass', 15),
    ('1" Steel plate', 19),
    ("Large sand bag", 20),
)
