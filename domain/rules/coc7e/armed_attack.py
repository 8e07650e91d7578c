"""An attack made with a weapon of Table XVII: its method, damage, skill and difficulty by range,
and the rounds it fires.

coc7e-combat.txt "Range and Firearms Difficulty Levels" (Regular within the base range, Hard up to
twice it, Extreme up to four times), the Key ("Shotguns": damage by range band), "Malfunctions"
and "Reloading Firearms". Without a weapon an attack is as the command gives it (damage default
1D3+DB, a punch).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.rules.coc7e import arms, combat_events, weapons
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken

RANGE = f'{weapons.COMBAT} "Range and Firearms Difficulty Levels"'
RANGE_STEPS = ((1, "regular"), (2, "hard"), (4, "extreme"))  # multiples of the base range
MAX_DISTANCE = 100000  # yards


@dataclass(frozen=True)
class Plan:
    """What an attack with (or without) a weapon rolls and deals."""

    method: str
    damage: str | None  # None: the command's default (a punch)
    impales: bool | None
    difficulty: str
    attack_skill: str | None
    armed: arms.Armed | None


def plan(
    attacker: Any, *, method: str | None, weapon: str | None, damage: str | None, impales: bool | None,
    difficulty: str | None, distance_yards: int | None, attack_skill: str | None,
) -> Plan:
    """Read an attack's weapon: refused when the attacker lacks it, it is empty or jammed, the
    target is out of its range, or the command contradicts it."""
    if distance_yards is not None and (isinstance(distance_yards, bool) or not isinstance(distance_yards, int) or not 0 <= distance_yards <= MAX_DISTANCE):
        raise InvalidCommand("distance_yards", f"must be a whole number of yards from 0 to {MAX_DISTANCE}")
    if weapon is None:
        return Plan(method or "fighting", damage, impales, difficulty or "regular", attack_skill, None)
    if attacker.kind == "vehicle":
        raise InvalidCommand("weapon", "a vehicle is its own weapon: 1D10 per Build (\"Vehicles in combat\")")
    armed = arms.armed(attacker, weapon)
    w = armed.weapon
    wanted = "firearm" if w.firearm else "fighting"
    if method is None:
        method = wanted
    elif method != "maneuver" and method != wanted:
        raise InvalidCommand("method", f"{w.name} is used with {w.skill}: method {wanted}")
    if damage is not None:
        raise InvalidCommand("damage", f"the damage is {w.name}'s ({w.source}); leave damage out or the weapon")
    expression = w.damage
    if w.bands or (w.firearm and w.range_yards):
        if distance_yards is None:
            raise InvalidCommand("distance_yards", f"give the distance to the target: {w.name}'s range is {w.base_range}")
        expression, by_range = _at_range(w, distance_yards)
        if difficulty is not None and difficulty != by_range:
            raise InvalidCommand("difficulty", f"the range sets the difficulty: {by_range} at {distance_yards} yards ({RANGE})")
        difficulty = by_range
    return Plan(method, expression, w.impales if impales is None else impales, difficulty or "regular", attack_skill or w.skill, armed)


def at_range(w: weapons.Weapon, distance_yards: int | None, difficulty: str | None) -> tuple[str, str]:
    """A gun's damage and difficulty at ``distance_yards`` (None: the given difficulty, else Regular,
    and its first band's damage), refused when the given difficulty is not the range's."""
    if distance_yards is None or not (w.bands or w.range_yards):
        return w.damage, difficulty or "regular"
    if isinstance(distance_yards, bool) or not isinstance(distance_yards, int) or not 0 <= distance_yards <= MAX_DISTANCE:
        raise InvalidCommand("distance_yards", f"must be a whole number of yards from 0 to {MAX_DISTANCE}")
    damage, by_range = _at_range(w, distance_yards)
    if difficulty is not None and difficulty != by_range:
        raise InvalidCommand("difficulty", f"the range sets the difficulty: {by_range} at {distance_yards} yards ({RANGE})")
    return damage, by_range


def _at_range(w: weapons.Weapon, distance: int) -> tuple[str, str]:
    """Damage and difficulty at ``distance`` yards: a shotgun's band (each band Regular), else the
    base range's multiple."""
    if w.bands:
        for damage, reach in zip(w.bands, w.range_yards):
            if distance <= reach:
                return damage, "regular"
        raise RuleBroken(f"{w.name} reaches {w.range_yards[-1]} yards, not {distance}", f'{weapons.KEY}, "Shotguns"')
    base = w.range_yards[0]
    for multiple, difficulty in RANGE_STEPS:
        if distance <= base * multiple:
            return w.damage, difficulty
    raise RuleBroken(f"{w.name}'s base range is {base} yards; beyond four times it ({base * 4}) no shot can hit", RANGE)


def malfunction_number(armed: arms.Armed | None) -> int | None:
    """The malfunction number a gun's attack roll is read against ("Malfunctions"), or None: no
    gun that fires rounds (bare hands, a blade, an attack without a weapon)."""
    if armed is None or armed.carried is None or armed.carried["loaded"] is None:
        return None
    return armed.weapon.malfunction


def fire(chase: Any, attacker: Any, armed: arms.Armed | None, result: int, keeper_malfunction: str | None = None) -> str | None:
    """Spend the round a gun fires; answers the malfunction ("dud" or "jam") if it did not fire."""
    if armed is None or armed.carried is None or armed.carried["loaded"] is None:
        return None
    malfunction = arms.malfunction_kind(armed.weapon, keeper_malfunction) if arms.malfunctioned(armed.weapon, result) else None
    chase.trigger_event(
        combat_events.ShotsFired, participant_id=attacker.id, weapon=armed.weapon.name, shots=1,
        loaded_after=armed.carried["loaded"] - 1, malfunction=malfunction,
    )
    return malfunction


THROWN = f'{weapons.COMBAT} "Ranged and Thrown Weapons"'


def check_response(planned: Plan, target: Any, response: str, distance_yards: int | None) -> None:
    """Against a thrown weapon the target may dodge, but "may not choose the option of fighting
    back ... unless he or she is within one-fifth of their DEX in feet" of the attacker."""
    if planned.armed is None or planned.armed.weapon.skill != "Throw" or response not in ("fight back", "maneuver"):
        return
    reach = (target.dex or 0) // 5
    if distance_yards is None or distance_yards * 3 > reach:
        raise RuleBroken(f"{target.name} can fight back against a thrown weapon only within {reach} feet (a fifth of DEX); give distance_yards", THROWN)


ARMOR_REVISITED = f'{weapons.COMBAT} "Armor Revisited"'


def check_armor_options(planned: Plan, armor_luck: int | None, armor_per_die: bool) -> None:
    """The optional armor rules' inputs: a Luck value to roll, and armor per die for a shotgun only."""
    if armor_luck is not None and (isinstance(armor_luck, bool) or not isinstance(armor_luck, int) or not 0 <= armor_luck <= 999):
        raise InvalidCommand("armor_luck", "the target's Luck, a whole number from 0 to 999")
    if armor_per_die and (planned.armed is None or not planned.armed.weapon.bands):
        raise RuleBroken("armor counts against every die only for a shotgun's pellets", ARMOR_REVISITED)
