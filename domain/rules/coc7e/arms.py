"""A combatant's arms: the weapons carried with their ammunition, the attacks a round, and the
damage bonus and Build of STR+SIZ; and the weapon an attack is made with.

coc7e-combat.txt "Table XVII: Weapons" (weapons.py), its Key ("Uses per Round", "Bullets in Gun
(Magazine)", "Malfunction"), "Actions in a Combat Round" (monsters' several attacks),
"Malfunctions", "Reloading Firearms".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from domain.rules.coc7e import weapons
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.errors import InvalidInput

MAX_WEAPONS = 20
MALFUNCTIONS = f'{weapons.COMBAT} "Malfunctions"'
RELOADING = f'{weapons.COMBAT} "Reloading Firearms (possible Penalty die)"'
# "If the weapon is a revolver, break-open gun, or bolt-action rifle, the problem is merely a dud
# round. If the weapon is lever-action, the malfunction is a jam." Other guns: the Keeper says,
# a jam by default (an automatic's stovepipe is the common case).
DUD_WHEN_NAMED = ("revolver", "(2b", "derringer", "bolt-action", "break-open", "flintlock", "musket")


class InvalidArms(InvalidInput):
    """Weapons or fighting figures given with a bad value."""


def combat_fields(spec: dict[str, Any], out: dict[str, Any], whole: Callable[..., int | None]) -> dict[str, Any]:
    """The combat fields of a character or creature: ``weapons`` carried (each {"weapon": a name of
    Table XVII, "loaded": rounds, default a full magazine}), ``attacks_per_round`` (default 1),
    and ``str`` and ``siz``, whose sum gives the damage bonus and Build unless those are given."""
    fields: dict[str, Any] = {"attacks_per_round": whole(spec, "attacks_per_round", required=False) or 1}
    given = spec.get("weapons") or []
    if not isinstance(given, list) or len(given) > MAX_WEAPONS:
        raise InvalidArms("weapons", f"a list of up to {MAX_WEAPONS} weapons carried")
    fields["weapons"] = [_carried(i, w) for i, w in enumerate(given)]
    names = [w["weapon"] for w in fields["weapons"]]
    if len(set(names)) != len(names):
        raise InvalidArms("weapons", "each weapon once (a second of the same kind adds nothing to the rules)")
    strength, size = whole(spec, "str", required=False), whole(spec, "siz", required=False)
    if (strength is None) != (size is None):
        raise InvalidArms("siz" if size is None else "str", "STR and SIZ go together: their sum gives damage bonus and Build")
    if strength is not None and size is not None:
        bonus, build = weapons.damage_bonus_and_build(strength + size)
        if spec.get("damage_bonus") is None:
            fields["damage_bonus"] = bonus
        if spec.get("build") is None:
            fields["build"] = build
    return fields


def _carried(index: int, given: Any) -> dict[str, Any]:
    field = f"weapons.{index}"
    if not isinstance(given, dict) or set(given) - {"weapon", "loaded"}:
        raise InvalidArms(field, 'give {"weapon": name, "loaded": rounds}')
    try:
        w = weapons.weapon(given.get("weapon"), f"{field}.weapon")
    except InvalidCommand as e:
        raise InvalidArms(e.field, e.message) from None
    loaded = given.get("loaded", w.magazine)
    if w.magazine is None:
        if given.get("loaded") is not None:
            raise InvalidArms(f"{field}.loaded", f"{w.name} takes no ammunition")
        return {"weapon": w.name, "loaded": None, "jammed": False}
    if isinstance(loaded, bool) or not isinstance(loaded, int) or not 0 <= loaded <= w.magazine:
        raise InvalidArms(f"{field}.loaded", f"{w.name} holds 0 to {w.magazine} rounds (Table XVII: Bullets in Gun)")
    return {"weapon": w.name, "loaded": loaded, "jammed": False}


@dataclass(frozen=True)
class Armed:
    """The weapon an attack is made with, and what it allows."""

    weapon: weapons.Weapon
    carried: dict[str, Any] | None  # the carried entry (None: bare hands)


def require_gun(p: Any) -> None:
    """Firing and reloading take a gun that fires rounds (one carried with a magazine)."""
    if not any(c["loaded"] is not None for c in p.weapons):
        raise RuleBroken(f"{p.name} carries no gun that fires rounds", f'{weapons.COMBAT} "{weapons.TABLE}"')


def armed(p: Any, name: str | None, *, shots: int = 1) -> Armed:
    """The weapon ``p`` attacks with: one they carry (bare hands need none), loaded and not jammed."""
    if name is None:
        return Armed(weapons.UNARMED_ATTACK, None)
    w = weapons.weapon(name)
    if w is weapons.UNARMED_ATTACK:
        return Armed(w, None)
    carried = next((c for c in p.weapons if c["weapon"] == w.name), None)
    if carried is None:
        raise RuleBroken(f"{p.name} carries no {w.name}", f'{weapons.COMBAT} "{weapons.TABLE}"')
    if carried["jammed"]:
        raise RuleBroken(f"{p.name}'s {w.name} is jammed: clear it first (1D6 rounds and a Mechanical Repair or Firearms roll)", MALFUNCTIONS)
    if carried["loaded"] is not None and carried["loaded"] < shots:
        left = carried["loaded"]
        raise RuleBroken(f"{p.name}'s {w.name} has {left} round{'s' if left != 1 else ''} loaded, {shots} to fire: reload", RELOADING)
    return Armed(w, carried)


def malfunctioned(w: weapons.Weapon, result: int) -> bool:
    """"With any attack roll result equal to or higher than the firing weapon's malfunction number
    ..., the shooter does not merely miss -- his or her weapon does not fire" (Key: Malfunction)."""
    return w.malfunction is not None and result >= w.malfunction


def malfunction_kind(w: weapons.Weapon, keeper_says: str | None = None) -> str:
    """A dud round or a jam ("Malfunctions"); the Keeper decides for guns the rules do not name."""
    name = w.name.lower()
    if any(mark in name for mark in DUD_WHEN_NAMED):
        return "dud"
    if "lever-action" in name:
        return "jam"
    return keeper_says or "jam"
