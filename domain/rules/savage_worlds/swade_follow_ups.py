"""What the Adventure Edition rules call for after a roll, resolved one at a time (SwadeChase's procedures).

swade-chases-reference.txt: Complications ("COMPLICATIONS"), critical failures by mode ("CRITICAL
FAILURE ON MANEUVERING SKILLS"), damage to vehicles ("DAMAGE": a control roll, a Bump, a Wound
and a Critical Hit per raise), "OUT OF CONTROL" (2d6) and "VEHICLE CRITICAL HITS" (2d6), the Bump's
direction ("BUMP": chosen by the attacker, or the GM), Ram damage ("RAM") and Chase Cards added
to a physical row ("SETUP"). Each is a follow-up (savage_base.py), resolved in the order it arose.
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any, Callable, ClassVar, Protocol

from domain.dice import DiceSource, InvalidTableDice, TableDice
from domain.rules.savage_worlds import injuries, savage_decks, savage_rolls, swade_units
from domain.rules.savage_worlds import swade_chase as rules
from domain.rules.savage_worlds.cards import card as read_card
from domain.rules.savage_worlds.conditions import FATIGUE_LEVELS
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.participants import SavageParticipant
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.rules.savage_worlds.swade_tables import critical_failure_row
from domain.rules.savage_worlds.swade_vehicles import critical_hit, damage_to_vehicle, out_of_control

ROLLS = {
    "complication": "a maneuvering roll",
    "control roll": "a maneuvering roll",
    "critical failure": "a d6",
    "out of control": "2d6",
    "collision wounds": "a d4",
    "critical hit": "2d6",
    "ram damage": "the damage dice",
    "injury": "2d6 on the Injury table",
    "injury sub-table": "a d6",
}


class FollowUpChase(swade_units.UnitChase, injuries.InjuringChase, Protocol):
    """What the follow-ups use of a SWADE chase (swade_aggregate.SwadeChase), beyond what its
    units' moves and rolls use."""

    VehicleDamaged: ClassVar[type]
    TurnEnded: ClassVar[type]
    TurnLost: ClassVar[type]
    MountFatigued: ClassVar[type]
    WentOutOfControl: ClassVar[type]
    CriticalHitTaken: ClassVar[type]
    participants: dict[str, SavageParticipant]
    turn: dict[str, Any]

    def advance(self, deck_dice: DeckDice | None) -> None: ...

    def next_follow_up(self) -> dict[str, Any]: ...

    def resolved(self, follow_up: dict[str, Any], outcome: str) -> None: ...

    def members(self, unit_id: str) -> list[SavageParticipant]: ...

    def occupants(self, unit_id: str) -> list[SavageParticipant]: ...


def resolve(
    chase: FollowUpChase, dice: DiceSource | None, *, direction: int | None = None, cards: int | None = None, card: str | None = None,
    modifier: int = 0, deck_dice: DeckDice | None = None,
) -> dict[str, Any]:
    """Resolve the first follow-up waiting: roll it, or take the GM's choice it needs."""
    head = chase.next_follow_up()
    kind = head["kind"]
    if kind in ROLLS and dice is None:
        raise InvalidTableDice(f"the {kind} for {_name(chase, head)} is {ROLLS[kind]}: enter the faces rolled")
    if kind not in ROLLS and isinstance(dice, TableDice):
        raise InvalidValue("table_dice", f"the {kind} takes no roll")
    handler = RESOLVERS[kind]
    outcome = handler(chase, head, dice=dice, direction=direction, cards=cards, card=card, modifier=modifier, deck_dice=deck_dice)
    return {"follow_up": head, "outcome": outcome}


def _name(chase: FollowUpChase, head: dict[str, Any]) -> str:
    pid = head.get("participant_id")
    return chase.participants[pid].name if pid in chase.participants else "the row"


# -- rolls that raise follow-ups -------------------------------------------------------

def critical_failure(chase: FollowUpChase, unit_id: str, during: str) -> None:
    """"CRITICAL FAILURE ON MANEUVERING SKILLS": a vehicle goes Out of Control; mounted and on
    foot, a d6 says what happens."""
    mode = chase.participants[unit_id].critical_failure_mode
    if mode == "vehicle":
        chase.require("out of control", unit_id, during=during, rule="CRITICAL FAILURE ON MANEUVERING SKILLS: Vehicle")
    else:
        chase.require("critical failure", unit_id, mode=mode, during=during, rule="CRITICAL FAILURE ON MANEUVERING SKILLS")


def damage_vehicle(chase: FollowUpChase, vehicle_id: str, total: int, *, by: str | None, cause: str) -> None:
    """"DAMAGE": at or over Toughness a control roll and a Bump; each raise a Wound and a
    Critical Hit. Beyond its Wounds the vehicle is wrecked."""
    v = chase.participants[vehicle_id]
    hit = damage_to_vehicle(total, v.toughness, in_chase=True)
    if not hit.control_roll:
        return
    wounds = v.vehicle.wounds + hit.wounds
    wrecked = wounds > v.max_wounds
    chase.trigger_event(
        chase.VehicleDamaged, participant_id=vehicle_id, damage=total, toughness=v.toughness,
        wounds_taken=hit.wounds, wounds=wounds, wrecked=wrecked, cause=cause,
    )
    if wrecked:
        chase.after_status_change()
        return
    chase.require("control roll", vehicle_id, rule="DAMAGE: a maneuvering roll or go Out of Control")
    attacker = chase.unit_of(by) if by is not None else None  # Bumps are counted unit against unit
    if attacker is None or [attacker, vehicle_id] not in chase.turn.get("bumped", []):
        chase.require("bump", vehicle_id, cards=1, by=attacker, rule="DAMAGE: in a chase the vehicle is Bumped as well")
    for _ in range(hit.critical_hits):
        chase.require("critical hit", vehicle_id, collision=False, reroll_crew=False, rule="DAMAGE: each raise, a Critical Hit")


def forfeit_turn(chase: FollowUpChase, unit_id: str, reason: str, deck_dice: DeckDice | None) -> None:
    if chase.whose_turn == unit_id:
        chase.trigger_event(chase.TurnEnded, participant_id=unit_id, reason=reason)
        chase.advance(deck_dice)
    else:
        chase.trigger_event(chase.TurnLost, participant_id=unit_id, reason=reason)


# -- the follow-ups --------------------------------------------------------------------

def _resolve_complication(chase: FollowUpChase, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
    """A Club: a free maneuvering roll, modified and read by the current Chase Card's suit."""
    unit = chase.participants[head["participant_id"]]
    position = chase.track.location_of(unit.id)
    chase_card = chase.row[position] if position is not None and 0 <= position < len(chase.row) else head.get("chase_card")
    if chase_card is None:
        raise RuleBroken("the unit's Chase Card is not dealt yet: deal it first", rules.COMPLICATIONS)
    current = read_card(chase_card)
    row = rules.complication(current)
    mods = {**swade_units.maneuver_modifiers(chase, unit, chase.operator(unit.id), modifier), "Complication": row.modifier}
    roll = swade_units.maneuvering_roll(chase, dice, unit, "Complication", mods, {"chase_card": chase_card, "suit": row.suit})
    outcome = rules.complication_outcome(current, roll)
    chase.resolved(head, "avoided" if outcome.avoided else f"failed: {row.failure}")
    if outcome.bumped_cards:
        chase.require("bump", unit.id, cards=outcome.bumped_cards, by=None, rule=f"COMPLICATIONS: {row.suit}")
    if outcome.critical_failure:
        critical_failure(chase, unit.id, "Complication")
    return "avoided" if outcome.avoided else row.failure


def _resolve_critical_failure(chase: FollowUpChase, head: dict[str, Any], *, dice: DiceSource, deck_dice: DeckDice | None, **_: Any) -> str:
    unit_id = head["participant_id"]
    operator = chase.operator(unit_id)
    face = savage_rolls.roll_table(chase, dice, operator.id, f"Critical Failure ({head['mode']})", 1, 6, {"unit": unit_id})[0]
    row = critical_failure_row(head["mode"], face)
    chase.resolved(head, row.effect)
    if row.effect == "loses turn":
        forfeit_turn(chase, unit_id, f"Critical Failure: {row.effect}", deck_dice)
    elif row.effect == "mount fatigue":
        chase.trigger_event(chase.MountFatigued, participant_id=operator.id, mount_fatigue=min(operator.mount_fatigue + 1, len(FATIGUE_LEVELS) - 1))
    else:
        savage_rolls.change_conditions(chase, operator.id, operator.conditions.fatigued(), "Critical Failure: Fatigue")
    return row.effect


def _resolve_control_roll(chase: FollowUpChase, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
    unit = chase.participants[head["participant_id"]]
    roll = swade_units.maneuvering_roll(chase, dice, unit, "control roll", swade_units.maneuver_modifiers(chase, unit, chase.operator(unit.id), modifier))
    chase.resolved(head, "in control" if roll.success else "Out of Control")
    if not roll.success:
        chase.require("out of control", unit.id, during="control roll", rule="DAMAGE: a failed maneuvering roll")
    return "in control" if roll.success else "out of control"


def _resolve_out_of_control(chase: FollowUpChase, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
    vehicle = chase.participants[head["participant_id"]]
    total = sum(savage_rolls.roll_table(chase, dice, chase.operator(vehicle.id).id, "Out of Control", 2, 6, {"unit": vehicle.id}))
    row = out_of_control(total)
    chase.resolved(head, row.name)
    chase.trigger_event(chase.WentOutOfControl, participant_id=vehicle.id, total=total, result={"name": row.name, "source": row.source})
    own = chase.whose_turn == vehicle.id
    for p in chase.members(vehicle.id):
        c = p.conditions
        if row.distracted and not p.is_vehicle:
            c = c.made_distracted(own)
        if row.vulnerable:
            c = c.made_vulnerable(own)
        savage_rolls.change_conditions(chase, p.id, c, f"Out of Control: {row.name}")
    if row.wounds == "d4":
        chase.require("collision wounds", vehicle.id, rule="OUT OF CONTROL: Major Collision, d4 Wounds")
    elif row.wounds:
        _wound_vehicle(chase, vehicle.id, int(row.wounds), f"Out of Control: {row.name}")
    for _ in range(row.critical_hits):
        chase.require("critical hit", vehicle.id, collision=row.collision, reroll_crew=row.reroll_crew, rule=f"OUT OF CONTROL: {row.name}")
    return row.name


def _resolve_collision_wounds(chase: FollowUpChase, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
    vehicle_id = head["participant_id"]
    face = savage_rolls.roll_table(chase, dice, chase.operator(vehicle_id).id, "Major Collision Wounds", 1, 4, {"unit": vehicle_id})[0]
    chase.resolved(head, f"{face} Wounds")
    _wound_vehicle(chase, vehicle_id, face, "Out of Control: Major Collision")
    return f"{face} Wounds"


def _wound_vehicle(chase: FollowUpChase, vehicle_id: str, wounds: int, cause: str) -> None:
    """Wounds from Out of Control: no further Out of Control roll (nor Bump)."""
    v = chase.participants[vehicle_id]
    total = v.vehicle.wounds + wounds
    chase.trigger_event(
        chase.VehicleDamaged, participant_id=vehicle_id, damage=None, toughness=None,
        wounds_taken=wounds, wounds=total, wrecked=total > v.max_wounds, cause=cause,
    )
    if total > v.max_wounds:
        chase.after_status_change()


def _resolve_critical_hit(chase: FollowUpChase, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
    vehicle = chase.participants[head["participant_id"]]
    if not vehicle.in_chase:
        chase.resolved(head, f"{vehicle.name} is {vehicle.status}")
        return "no effect"
    total = sum(savage_rolls.roll_table(chase, dice, None, "Vehicle Critical Hit", 2, 6, {"unit": vehicle.id}))
    hit = critical_hit(total, has_weapon=vehicle.weapons > 0, has_systems=vehicle.has_systems, reroll_crew=head["reroll_crew"], collision=head["collision"])
    state = vehicle.vehicle.after(hit)
    weapons = vehicle.weapons - 1 if hit.effect == "weapon" and not hit.reroll else vehicle.weapons
    result = {"name": hit.row.name, "effect": hit.effect, "reroll": hit.reroll, "occupants_shaken": hit.occupants_shaken, "source": hit.row.source}
    if hit.effect == "crew" and not hit.reroll:
        result["crew"] = "apply the damage, less the vehicle's Armor, to a random crew member (damage roll on them)"
    chase.resolved(head, hit.row.name + (" (rerolled: Crew)" if hit.reroll else ""))
    chase.trigger_event(chase.CriticalHitTaken, participant_id=vehicle.id, total=total, result=result, vehicle=asdict(state), weapons=weapons)
    if hit.occupants_shaken:
        for p in chase.occupants(vehicle.id):
            savage_rolls.change_conditions(chase, p.id, p.conditions.made_shaken(), "Critical Hit: Crew in a Collision")
    if hit.reroll:
        chase.require("critical hit", vehicle.id, collision=head["collision"], reroll_crew=True, rule="OUT OF CONTROL: Glitch (reroll Crew results)")
    return hit.effect


def _resolve_bump(chase: FollowUpChase, head: dict[str, Any], *, direction: int | None, cards: int | None, deck_dice: DeckDice | None, **_: Any) -> str:
    """"BUMP": one Chase Card (a Joker Complication: up to two) the way the attacker (or GM) chooses."""
    if direction not in (1, -1):
        raise InvalidValue("direction", f"the Bump of {_name(chase, head)}: +1 (toward the front) or -1 (toward the rear)")
    most = head["cards"]
    moved = most if cards is None else whole("cards", cards)
    if not 1 <= moved <= most:
        raise InvalidValue("cards", f"this Bump moves {'one Chase Card' if most == 1 else 'one or two Chase Cards'}")
    chase.resolved(head, f"{moved} card(s) {'toward the front' if direction > 0 else 'toward the rear'}")
    unit_id = head["participant_id"]
    if chase.participants[unit_id].in_chase:
        swade_units.move_unit(chase, unit_id, direction * moved, "Bump", head.get("by"), deck_dice)
    return "bumped"


def _resolve_ram_damage(chase: FollowUpChase, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
    target_id, by = head["participant_id"], head["by"]
    total = savage_rolls.roll_damage(chase, dice, by, target_id, "Ram damage", head["expression"], raise_bonus=head["raise_bonus"], extra={"parts": head["parts"]})
    chase.resolved(head, f"{total} damage")
    if chase.participants[target_id].in_chase:
        savage_rolls.apply_damage(chase, target_id, total, by=by, cause="Ram")
    return f"{total} damage"


def _resolve_chase_card(chase: FollowUpChase, head: dict[str, Any], *, card: str | None, **_: Any) -> str:
    if card is None:
        raise InvalidValue("card", f"a Chase Card for the {head['end']} of the row: enter the card dealt")
    fields = savage_decks.draw_card(chase, "chase", None, card)
    chase.resolved(head, fields["card"])
    chase.trigger_event(chase.ChaseCardDealt, end=head["end"], **fields)
    return fields["card"]


# Each kind of follow-up (savage_base.SavageChase.require) and what resolves it.
RESOLVERS: dict[str, Callable[..., str]] = {
    "complication": _resolve_complication,
    "critical failure": _resolve_critical_failure,
    "control roll": _resolve_control_roll,
    "out of control": _resolve_out_of_control,
    "collision wounds": _resolve_collision_wounds,
    "critical hit": _resolve_critical_hit,
    "bump": _resolve_bump,
    "ram damage": _resolve_ram_damage,
    "chase card": _resolve_chase_card,
    "injury": injuries.resolve_injury,
    "injury sub-table": injuries.resolve_sub_table,
}
