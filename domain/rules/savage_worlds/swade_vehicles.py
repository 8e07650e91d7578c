"""Vehicles in a SWADE chase: Ram damage, damage to vehicles, Out of Control and Critical Hits.

swade-chases-reference.txt "MANEUVERS" RAM, "DAMAGE", "OUT OF CONTROL" and "VEHICLE CRITICAL
HITS". The tables are data in swade_tables.py; here is what they do to a vehicle.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from domain.dice import DiceSource
from domain.rules.savage_worlds.damage import DamageRoll, damage_roll
from domain.rules.savage_worlds.dice import RAISE_STEP, TraitRoll, opposed
from domain.rules.savage_worlds.errors import SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.swade_tables import (
    HANDLING_PENALTY_LIMIT,
    OUT_OF_CONTROL,
    TOP_SPEED_FLOOR_PERCENT,
    TOP_SPEED_STEP_PERCENT,
    VEHICLE_CRITICAL_HITS,
    CriticalHitRow,
    OutOfControlRow,
    row_for,
    scale_damage,
)

RAM = f"{SWADE} \"MANEUVERS\", RAM"
DAMAGE = f"{SWADE} \"DAMAGE\""
HITS = f"{SWADE} \"VEHICLE CRITICAL HITS\""


# --- Ram ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rammer:
    """One side of a Ram: its Scale, Toughness and Top Speed (mph)."""

    scale: str
    toughness: int
    top_speed: float


@dataclass(frozen=True)
class RamDamage:
    """The damage one side of a Ram causes to the other: dice expression, the raise die, parts."""

    expression: str
    raise_bonus: bool
    parts: tuple[tuple[str, str], ...]  # (why, dice) for the record


def speed_dice(attacker_top_speed: float) -> int:
    """"Speed": +d6 to both sides for 60 to 120 mph, +2d6 over 120 mph (the attacker's speed)."""
    if attacker_top_speed > 120:
        return 2
    return 1 if attacker_top_speed >= 60 else 0


def toughness_dice(own: int, foe: int) -> int:
    """"Toughness": +d6 if higher than the foe's, +2d6 if twice as high."""
    if own >= 2 * foe and own > foe:
        return 2
    return 1 if own > foe else 0


def ram_damage(attacker: Rammer, defender: Rammer, attacker_raise: bool) -> tuple[RamDamage, RamDamage]:
    """Damage (attacker's to defender, defender's to attacker) once the Ram succeeded."""
    speed = speed_dice(attacker.top_speed)

    def side(own: Rammer, foe: Rammer, with_raise: bool) -> RamDamage:
        parts = [(f"Scale {own.scale}", scale_damage(own.scale))]
        toughness = toughness_dice(own.toughness, foe.toughness)
        if toughness:
            parts.append(("Toughness higher" if toughness == 1 else "Toughness twice as high", f"{toughness}d6"))
        if speed:
            parts.append((f"attacker's Top Speed {attacker.top_speed:g} mph", f"{speed}d6"))
        if with_raise:
            parts.append(("raise", "1d6"))
        expression = "+".join(dice for why, dice in parts if why != "raise")
        return RamDamage(expression, with_raise, tuple(parts))

    return side(attacker, defender, attacker_raise), side(defender, attacker, False)


def ram(attacker: TraitRoll, defender: TraitRoll, same_card: bool) -> tuple[bool, bool]:
    """Opposed maneuvering rolls on the same Chase Card: (rammed?, with a raise?)."""
    if not same_card:
        raise RuleBroken("Ram needs both on the same Chase Card", RAM)
    result = opposed(attacker, defender)
    return result.winner == "attacker", result.winner == "attacker" and result.raises >= 1


def roll_ram_damage(source: DiceSource, sequence: int, damage: RamDamage, joker: bool = False) -> DamageRoll:
    """Roll one side's Ram damage (it Aces like any damage); each side is its own roll."""
    return damage_roll(source, sequence, damage.expression, raise_bonus=damage.raise_bonus, joker=joker)


# --- damage to a vehicle ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VehicleHit:
    """What damage does to a vehicle: a maneuvering roll to stay in control (failed: roll on Out of
    Control), a Bump in a chase, and one Wound and one Critical Hit roll per raise."""

    control_roll: bool
    bumped: bool
    wounds: int
    critical_hits: int
    source: str = DAMAGE


def damage_to_vehicle(damage: int, toughness: int, *, in_chase: bool = True, from_out_of_control: bool = False) -> VehicleHit:
    """Damage against a vehicle's Toughness ("DAMAGE"; vehicles are never Shaken).

    Equal or more than Toughness, Wound or not: a control roll and, in a chase, a Bump. Damage
    from an Out of Control result triggers no further Out of Control roll ("OUT OF CONTROL"), so
    neither roll nor Bump then; its Wounds still bring Critical Hits.
    """
    whole("damage", damage)
    whole("toughness", toughness, 0)
    if damage < toughness:
        return VehicleHit(False, False, 0, 0)
    wounds = (damage - toughness) // RAISE_STEP
    triggers = not from_out_of_control
    return VehicleHit(triggers, triggers and in_chase, wounds, wounds)


def out_of_control(total: int) -> OutOfControlRow:
    """The Out of Control row for a 2d6 total."""
    return row_for(OUT_OF_CONTROL, total)


@dataclass(frozen=True)
class CriticalHit:
    """A Critical Hit read in full: the row rolled, the effect that applies, whether to reroll
    (a Crew result of a Glitch), and whether the occupants are Shaken (Crew after a Collision)."""

    row: CriticalHitRow
    effect: str
    reroll: bool
    occupants_shaken: bool


def critical_hit(total: int, *, has_weapon: bool = True, has_systems: bool = True, reroll_crew: bool = False, collision: bool = False) -> CriticalHit:
    """The Vehicle Critical Hits row for a 2d6 total and what it does to this vehicle.

    No weapon: Weapon is a Chassis hit; no special features: System is a Chassis hit. A Glitch's
    Critical Hit rerolls Crew ("OUT OF CONTROL" 12). Crew after a Collision Shakes the occupants.
    """
    row = row_for(VEHICLE_CRITICAL_HITS, total)
    effect = row.effect
    if (effect == "weapon" and not has_weapon) or (effect == "system" and not has_systems):
        effect = "chassis"
    reroll = effect == "crew" and reroll_crew
    return CriticalHit(row, effect, reroll, effect == "crew" and collision and not reroll)


@dataclass(frozen=True)
class VehicleState:
    """A vehicle's lasting harm: Wounds, Handling penalty, Top Speed left (percent)."""

    wounds: int = 0
    handling_penalty: int = 0
    top_speed_percent: int = 100

    def wounded(self, wounds: int) -> VehicleState:
        return replace(self, wounds=self.wounds + whole("wounds", wounds, 0))

    def after(self, hit: CriticalHit) -> VehicleState:
        """Guidance/Traction: Handling -1 (to -4); Locomotion: Top Speed -10% of the original
        (to 60%). Other effects leave the vehicle's own numbers alone (crew, weapon and system
        damage are the aggregate's to apply)."""
        if hit.reroll:
            return self
        if hit.effect == "handling":
            return replace(self, handling_penalty=max(HANDLING_PENALTY_LIMIT, self.handling_penalty - 1))
        if hit.effect == "top speed":
            return replace(self, top_speed_percent=max(TOP_SPEED_FLOOR_PERCENT, self.top_speed_percent - TOP_SPEED_STEP_PERCENT))
        return self

    def top_speed(self, listed: float) -> float:
        return listed * self.top_speed_percent / 100


def wounds_of(row: OutOfControlRow, d4_face: int | None = None) -> int:
    """Wounds an Out of Control row causes; a Major Collision rolls d4 (``d4_face``)."""
    if row.wounds == "d4":
        if d4_face not in (1, 2, 3, 4):
            raise InvalidValue("d4_face", f"a Major Collision takes d4 Wounds; {d4_face!r} is no d4 face ({row.source})")
        return d4_face
    return int(row.wounds)
