"""A blow that lands: its damage to the target through armor (coc7e-combat.txt: "Deduct the
number of armor points from damage inflicted"; "Armor Revisited", "Optional Hit Locations"), and
a vehicle's share of what it delivers (coc7e-chases.txt "Vehicles in combat": half of it, "but
never enough to cause it to lose a greater amount of build points than the target ... originally
possessed"). Dealt alike by one attack (conflict_procedures.py) and by each hit of several shots
(fire_procedures.py).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from domain.rules.coc7e import conflict, hit_location, keeper_rolls, mishaps, vehicles, weapon_damage
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant


def strike(
    chase: mishaps.MishapChase, source: Participant, target: Participant, lands: weapon_damage.Blow, name: str, firearm: bool,
    aftermath: dict[str, Any] | None, dice: RollSources, *, armor_luck: int | None = None, armor_per_die: bool = False,
    located: tuple[str, ...] | None = None,
) -> list[dict[str, Any]]:
    """Damage from ``source`` to ``target``, and a vehicle's share of what it delivers.

    coc7e-combat.txt "Armor Revisited" (optional): ``armor_luck``, the target's Luck when their worn
    armor covers only part of them (a failed Luck roll "luck": the shot found no armor);
    ``armor_per_die``, shotgun pellets: the armor counts against every die of damage."""
    original = _original_build(target)
    rolled, record = 0, None
    if lands.rolled is not None:
        what = {"regular": "damage", "impale": "impale: maximum damage and bonus plus a damage roll"}[lands.kind]
        rolled, record = keeper_rolls.amount_roll(chase, dice, name, lands.rolled, source.id, f"{what} to {target.name}", None)
        rolled = record["total"] if record else rolled
    amount = lands.amount(rolled)
    rolls = [record] if record else []
    cause = f"{'shot' if firearm else 'hit'} by {source.name}" + {"regular": "", "maximum": " (extreme success: maximum damage)", "impale": " (impale)"}[lands.kind]
    if target.kind == "vehicle":
        rolls += mishaps.vehicle_hit(chase, target, amount, record, cause, aftermath, dice)
    else:
        # Armor for people: the vehicle's armor protects its driver and passengers.
        worn = target.armor
        if worn and located is not None:
            # "Optional Hit Locations": the armor counts where the blow lands, if it covers it.
            landed, where = keeper_rolls.amount_roll(chase, dice, "location", hit_location.DIE, target.id, f"hit location of {cause}")
            rolls.append(where)
            spot = hit_location.location_of(landed)
            cause, worn = f"{cause} ({spot})", worn if spot in located else 0
        if worn and armor_luck is not None:
            luck = keeper_rolls.skill_roll(chase, dice, "luck", target.id, target.id, "Luck: did the blow strike the armor?", "Luck", armor_luck)
            rolls.append(luck)
            worn = worn if luck["success"] else 0
        if armor_per_die and lands.rolled is not None:
            worn *= len(keeper_rolls.parse_expression(lands.rolled, None).dice())
        armor = worn + (chase.participants[target.vehicle].armor if target.aboard else 0)
        rolls += mishaps.hurt(chase, target, amount, armor, cause, record, dice)
    if source.kind == "vehicle" and amount and source.status == "in_chase":
        kick = conflict.recoil(amount, original)
        if kick.build_lost:
            loss = mishaps.lose_build(
                chase, source, f"recoil: dealt {amount} to {target.name}", points=kick.build_lost, hit_points=kick.damage_suffered,
                limited=kick.limited, sequence=record["sequence"] if record else None,
            )
            if loss is not None:
                rolls += mishaps.vehicle_aftermath(chase, source, loss, f"recoil: dealt {amount} to {target.name}", aftermath, dice)
    return rolls


def _original_build(p: Participant) -> Fraction:
    """The Build the target "originally possessed": a vehicle's starting Build."""
    if p.kind == "vehicle" and p.starting_build is not None:
        return vehicles.as_build(p.starting_build)
    return vehicles.as_build(p.build)
