"""Weapons as data: coc7e-combat.txt "Table XVII: Weapons" (rows in weapon_rows.py) read into
``Weapon`` values, and the damage bonus and Build of STR+SIZ.

Each weapon cites its table; ``damage`` keeps the domain's dice expression ("1D4+DB", "1D6+half
DB"), a shotgun's ``bands`` its damage by range band, an explosive's ``blast_yards`` its radius.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from domain.rules.coc7e.errors import InvalidCommand
from domain.rules.coc7e.weapon_rows import ROWS, SHOTGUNS

COMBAT = "coc7e-combat.txt"
TABLE = "Table XVII: Weapons"
KEY = f'{COMBAT} "Key" ({TABLE})'
EFFECTS = ("burn", "stun")
UNARMED = "Unarmed (punch, kick, head-butt)"


@dataclass(frozen=True)
class Weapon:
    """One weapon of the table, read."""

    name: str
    table: str  # the table's heading in coc7e-combat.txt
    skill: str
    damage: str  # a dice expression ("1D4+DB"); a shotgun's at its first band; "0" for stun only
    bands: tuple[str, ...]  # a shotgun's damage by range band, nearest first
    base_range: str  # as printed
    range_yards: tuple[int, ...]  # the base range (a shotgun: each band's) in yards; () at touch
    uses_per_round: str  # as printed
    # Most shots (attacks) a round: the number in brackets ("1 (3)": one, up to 3 each with a
    # penalty die), "1 or 2" (both barrels), or the number printed ("2"); Key, "Uses per Round".
    shots_per_round: int
    burst: int | None  # "burst 3"
    full_auto: bool
    magazine: int | None  # bullets in the gun, the largest magazine or drum printed; None: not a gun
    malfunction: int | None
    impales: bool  # "(i)"
    effect: str | None  # "burn" or "stun" (Key)
    blast_yards: int | None
    cost: str
    era: str

    @property
    def source(self) -> str:
        return f'{COMBAT} "{TABLE}", {self.table}'

    @property
    def thrown_or_missile(self) -> bool:
        """Half the damage bonus: "thrown and missile weapons that rely on the user's strength"."""
        return "half DB" in self.damage

    @property
    def firearm(self) -> bool:
        return self.skill.startswith("Firearms")


def _weapon(table: str, row: tuple) -> Weapon:
    name, skill, damage, base_range, uses, bullets, cost, malfunction, era, impales = row
    effect = next((e for e in EFFECTS if damage.lower().endswith(e)), None)
    dice = re.sub(r"\+?(burn|stun)$", "", damage, flags=re.IGNORECASE) or "0"
    blast = re.fullmatch(r"(.+)/(\d+) yards?", dice)
    blast_yards = int(blast.group(2)) if blast else None
    dice = blast.group(1) if blast else dice
    bands = tuple(dice.split("/")) if table == SHOTGUNS else ()
    yards = tuple(int(y) for y in re.findall(r"\d+", base_range.replace(",", ""))) if "yard" in base_range and "STR" not in base_range else ()
    shots = re.search(r"\((\d)\)", uses) or re.match(r"1 or (\d)", uses) or re.fullmatch(r"(\d)", uses)
    burst = re.search(r"burst (\d)", uses)
    magazine = max((int(n) for n in re.findall(r"\d+", bullets)), default=None)  # the largest magazine or drum printed
    return Weapon(
        name=name, table=table, skill=skill, damage=bands[0] if bands else dice, bands=bands, base_range=base_range,
        range_yards=yards, uses_per_round=uses, shots_per_round=int(shots.group(1)) if shots else 1,
        burst=int(burst.group(1)) if burst else None, full_auto="full auto" in uses.lower(),
        magazine=magazine if skill.startswith("Firearms") else None,
        malfunction=int(malfunction) if malfunction.isdigit() else None, impales=impales, effect=effect,
        blast_yards=blast_yards, cost=cost, era=era,
    )


WEAPONS: tuple[Weapon, ...] = tuple(_weapon(table, row) for table, rows in ROWS.items() for row in rows)
# coc7e-combat.txt "Determining Damage": "the damage for unarmed human attacks is 1D3".
UNARMED_ATTACK = Weapon(
    name=UNARMED, table="Determining Damage", skill="Fighting (Brawl)", damage="1D3+DB", bands=(), base_range="Touch",
    range_yards=(), uses_per_round="1", shots_per_round=1, burst=None, full_auto=False, magazine=None, malfunction=None,
    impales=False, effect=None, blast_yards=None, cost="-", era="1920s, Modern",
)
_BY_NAME = {w.name.lower(): w for w in (UNARMED_ATTACK, *WEAPONS)}


def weapon(name: str, field: str = "weapon") -> Weapon:
    """A weapon of the table by its name (any case)."""
    found = _BY_NAME.get(name.strip().lower()) if isinstance(name, str) else None
    if found is None:
        raise InvalidCommand(field, f"{name!r} is not a weapon of {TABLE} (GET /rules/coc7e/weapons lists them)")
    return found


# -- Damage bonus and Build (Keeper Rulebook "Table I: Damage Bonus and Build", which the extracts
# leave out; coc7e-combat.txt names the bonus "+DB" and compares Builds in "Step 1: Compare Builds")
DAMAGE_BONUS_SOURCE = 'Keeper Rulebook "Table I: Damage Bonus and Build" (not in the extracts)'
DAMAGE_BONUS_TABLE: tuple[tuple[int, int, str, int], ...] = (
    (2, 64, "-2", -2),
    (65, 84, "-1", -1),
    (85, 124, "0", 0),
    (125, 164, "+1D4", 1),
    (165, 204, "+1D6", 2),
    (205, 284, "+2D6", 3),
    (285, 364, "+3D6", 4),
    (365, 444, "+4D6", 5),
    (445, 524, "+5D6", 6),
)
STR_SIZ_STEP = 80  # "each additional 80 points" beyond the table: +1D6 and +1 Build


def damage_bonus_and_build(str_plus_siz: int) -> tuple[str, int]:
    """The damage bonus and Build of a STR+SIZ total."""
    if isinstance(str_plus_siz, bool) or not isinstance(str_plus_siz, int) or str_plus_siz < 2:
        raise InvalidCommand("siz", "STR+SIZ must be a whole number, 2 or more")
    for low, high, bonus, build in DAMAGE_BONUS_TABLE:
        if low <= str_plus_siz <= high:
            return bonus, build
    beyond = (str_plus_siz - 445) // STR_SIZ_STEP
    return f"+{5 + beyond}D6", 6 + beyond


def half_bonus(damage_bonus: str | None) -> str:
    """Half a damage bonus, for thrown and missile weapons ("Ranged and Thrown Weapons"): each
    die's sides halved (1D4 to 1D2, 2D6 to 2D3), a penalty halved towards zero (-1 to 0)."""
    text = (damage_bonus or "0").strip().lstrip("+") or "0"
    die = re.fullmatch(r"(\d*)[dD](\d+)", text)
    if die:
        count, sides = int(die.group(1) or 1), int(die.group(2))
        return f"+{count}D{sides // 2}" if sides >= 4 else "0"
    try:
        return str(int(int(text) / 2))
    except ValueError:
        raise InvalidCommand("damage_bonus", f"cannot halve the damage bonus {damage_bonus!r}") from None
