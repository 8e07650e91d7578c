"""The maneuvers of an Adventure Edition chase, on the acting unit's turn (procedures of SwadeChase).

swade-chases-reference.txt "MANEUVERS": Change Position, Dropping Back, Evade, Flee, Force, Hold
Steady, Bump, Ram; attacks with the chase's Range ("SETUP") and modifiers. The pure rules are in
swade_chase.py and swade_vehicles.py; here they are rolled and recorded. A Shaken operator may
take only free actions (core rules, "Shaken"): Change Position as a free action, Evade as a free
action, Hold Steady.
"""
from __future__ import annotations

import re
from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import condition_effects, gm_options, rate_of_fire, savage_rolls, swade_follow_ups, swade_units, swade_vehicles
from domain.rules.savage_worlds.multi_actions import ActingChase, take_action
from domain.rules.savage_worlds import swade_chase as rules
from domain.rules.savage_worlds.dice import TARGET_NUMBER
from domain.rules.savage_worlds.errors import CORE, SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.participants import SavageParticipant
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.rules.savage_worlds.swade_tables import SCALE_DAMAGE, scale_modifier
from domain.rules.savage_worlds.swade_vehicles import RAM, Rammer, ram_damage

RANGES = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Range"
RANGE_PENALTIES = (0, -2, -4, -8)  # Short, Medium, Long, Extreme
EXTREME_FACTOR = 4  # core rules "Range": Extreme Range reaches to four times Long Range
_WEAPON_RANGE = re.compile(r"^\s*(\d{1,4})\s*/\s*(\d{1,4})\s*/\s*(\d{1,4})\s*$")


class ManeuveringChase(swade_follow_ups.FollowUpChase, ActingChase, Protocol):
    """What the maneuvers use of a SWADE chase (swade_aggregate.SwadeChase), beyond what the
    follow-ups they raise and counting actions use."""

    ManeuverTaken: ClassVar[type]
    Rammed: ClassVar[type]
    phase: str
    pending: list[dict[str, Any]]
    settings: dict[str, Any]
    evading: dict[str, int]
    evaded_round: dict[str, int]
    holding_steady: list[str]

    def acting_unit(self, participant_id: str, what: str, in_chase: bool = True) -> SavageParticipant: ...


def range_penalty(distance: int, weapon_range: str) -> tuple[str, int]:
    """The Range band of a distance for a weapon's "12/24/48" and its penalty."""
    match = _WEAPON_RANGE.match(weapon_range) if isinstance(weapon_range, str) else None
    if not match:
        raise InvalidValue("weapon_range", "write the weapon's Range as Short/Medium/Long, e.g. 12/24/48")
    short, medium, long_ = (int(g) for g in match.groups())
    for name, limit, penalty in zip(("Short", "Medium", "Long", "Extreme"), (short, medium, long_, long_ * EXTREME_FACTOR), RANGE_PENALTIES):
        if distance <= limit:
            return name, penalty
    raise RuleBroken(f"the target is {distance} away, beyond the weapon's Extreme Range ({long_ * EXTREME_FACTOR})", RANGES)


# -- Change Position, Dropping Back, Evade, Hold Steady ----------------------------------

def change_position(
    chase: ManeuveringChase, dice: DiceSource, participant_id: str, direction: int, *, as_action: bool = False, cards: int | None = None,
    modifier: int = 0, deck_dice: DeckDice | None = None, actions: int | None = None,
) -> Any:
    """"CHANGE POSITION": a maneuvering roll; one card up or down, up to two with a raise. As an
    action it counts among the operator's actions this turn (multi_actions.py)."""
    unit = chase.acting_unit(participant_id, "Change Position")
    rules.check_change_position(rules.TurnManeuvers(chase.turn["changed_position"], chase.turn["dropped_back"]))
    if direction not in (1, -1):
        raise InvalidValue("direction", "must be +1 (toward the front) or -1 (toward the rear)")
    if cards is not None and whole("cards", cards) not in (1, 2):
        raise InvalidValue("cards", "Change Position moves one Chase Card, or up to two with a raise")
    operator = swade_units.require_free_to_act(chase, unit, "Change Position as an action") if as_action else chase.operator(unit.id)
    condition_effects.require_able(operator, "Change Position", moves=not unit.is_vehicle)
    mods = swade_units.maneuver_modifiers(chase, unit, operator, modifier)
    mods["Change Position"] = rules.change_position_modifier(as_action, unit.speed(), swade_units.fastest_rival(chase, unit.id))
    if as_action:
        mods.update(take_action(chase, operator.id, "Change Position", actions))
    roll = swade_units.maneuvering_roll(chase, dice, unit, "Change Position", mods, {"as_action": as_action, "direction": direction})
    allowed = rules.change_position_cards(roll)
    moved = min(allowed, cards if cards is not None else allowed)
    chase.trigger_event(chase.ManeuverTaken, participant_id=unit.id, maneuver="Change Position", details={"as_action": as_action, "cards": moved})
    if moved:
        swade_units.move_unit(chase, unit.id, direction * moved, "Change Position", None, deck_dice)
    if roll.critical_failure:
        swade_follow_ups.critical_failure(chase, unit.id, "Change Position")
    return roll


def drop_back(chase: ManeuveringChase, participant_id: str, cards: int = 1, deck_dice: DeckDice | None = None) -> None:
    """"Dropping Back": one or two cards back without a roll, in a linear chase; no Change
    Position after it (nor before it: both move the unit this turn)."""
    unit = chase.acting_unit(participant_id, "drop back")
    if chase.turn["dropped_back"] or chase.turn["changed_position"]:
        raise RuleBroken("he has already moved along the row this turn", rules.DROPPING_BACK)
    rules.drop_back(cards, chase.settings["linear"])
    condition_effects.require_able(chase.operator(unit.id), "Dropping Back", moves=not unit.is_vehicle)
    chase.trigger_event(chase.ManeuverTaken, participant_id=unit.id, maneuver="Dropping Back", details={"cards": cards})
    swade_units.move_unit(chase, unit.id, -cards, "Dropping Back", None, deck_dice)


def evade(chase: ManeuveringChase, participant_id: str, as_action: bool = False, actions: int | None = None) -> None:
    """"EVADE": -2 (-4 as an action) to attacks against the unit and its own, until the start
    of its next turn; once per round."""
    unit = chase.acting_unit(participant_id, "Evade")
    rules.check_evade(chase.evaded_round.get(unit.id) == chase.round)
    condition_effects.require_able(chase.operator(unit.id), "Evade")
    if as_action:
        take_action(chase, swade_units.require_free_to_act(chase, unit, "Evade as an action").id, "Evade", actions)
    penalty = rules.evade_penalty(as_action)
    chase.trigger_event(chase.ManeuverTaken, participant_id=unit.id, maneuver="Evade", details={"as_action": as_action, "penalty": penalty})


def hold_steady(chase: ManeuveringChase, participant_id: str) -> None:
    """"HOLD STEADY" (free action): no Unstable Platform or Running penalties; +2 to attacks
    against the unit until the beginning of its next turn."""
    unit = chase.acting_unit(participant_id, "Hold Steady")
    if unit.id in chase.holding_steady:
        raise RuleBroken("he is already holding steady", rules.HOLD_STEADY)
    chase.trigger_event(chase.ManeuverTaken, participant_id=unit.id, maneuver="Hold Steady", details={})


# -- Flee ------------------------------------------------------------------------------

def flee(
    chase: ManeuveringChase, dice: DiceSource, participant_id: str, modifier: int = 0, deck_dice: DeckDice | None = None, actions: int | None = None,
) -> Any:
    """"FLEE" (action): at least four cards to the closest foe; -4, -2 at five, 0 at six+."""
    unit = chase.acting_unit(participant_id, "Flee")
    operator = swade_units.require_free_to_act(chase, unit, "Flee")
    foe, between = swade_units.closest_foe(chase, unit.id)
    penalty = rules.flee_modifier(between)
    mods = {**swade_units.maneuver_modifiers(chase, unit, operator, modifier), "Flee": penalty, **take_action(chase, operator.id, "Flee", actions)}
    roll = swade_units.maneuvering_roll(chase, dice, unit, "Flee", mods, {"closest_foe": foe.id, "cards_between": between})
    chase.trigger_event(chase.ManeuverTaken, participant_id=unit.id, maneuver="Flee", details={"cards_between": between, "escaped": roll.success})
    if roll.critical_failure:
        swade_follow_ups.critical_failure(chase, unit.id, "Flee")
    if rules.flee_escapes(roll):
        chase.trigger_event(chase.StatusChanged, participant_id=unit.id, status="escaped", reason=f"fled {between} Chase Cards from {foe.name}")
        chase.after_status_change()
        if chase.phase == "running" and not chase.pending:
            chase.trigger_event(chase.TurnEnded, participant_id=unit.id, reason="escaped")
            chase.advance(deck_dice)
    return roll


# -- Force and Ram ---------------------------------------------------------------------

def force(
    chase: ManeuveringChase, dice: DiceSource, defender_dice: DiceSource, participant_id: str, target_id: str, direction: int, *,
    modifier: int = 0, defender_modifier: int = 0, deck_dice: DeckDice | None = None, actions: int | None = None,
) -> dict[str, Any]:
    """"FORCE" (action): opposed maneuvering rolls on the same card; a win Bumps the foe the way
    the attacker chooses, a raise is also the foe's Critical Failure; a Critical Failure backfires.
    Against a Vulnerable foe the attacker rolls at +2 (savage_rolls.against_unit)."""
    unit = chase.acting_unit(participant_id, "Force")
    operator = swade_units.require_free_to_act(chase, unit, "Force")
    target = swade_units.rival_on_same_card(chase, unit, target_id, rules.FORCE)
    rules.check_bump(rules.TurnManeuvers(bumped=frozenset(b for a, b in chase.turn["bumped"] if a == unit.id)), target.id)
    if direction not in (1, -1):
        raise InvalidValue("direction", "must be +1 (toward the front) or -1 (toward the rear)")
    mods = {
        **swade_units.maneuver_modifiers(chase, unit, operator, modifier), **savage_rolls.against_unit(chase, target.id),
        **take_action(chase, operator.id, "Force", actions),
    }
    attack = swade_units.maneuvering_roll(chase, dice, unit, "Force", mods, {"target": target.id})
    defence = swade_units.maneuvering_roll(
        chase, defender_dice, target, "resist Force", swade_units.maneuver_modifiers(chase, target, chase.operator(target.id), defender_modifier), {"attacker": unit.id}
    )
    outcome = rules.force(attack, defence, swade_units.position(chase, unit.id) == swade_units.position(chase, target.id))
    chase.trigger_event(chase.ManeuverTaken, participant_id=unit.id, maneuver="Force", details={"target": target.id, "winner": outcome.winner})
    if outcome.bumped:
        swade_units.move_unit(chase, target.id, direction, "Bump", unit.id, deck_dice)
    if outcome.defender_critical_failure or defence.critical_failure:
        swade_follow_ups.critical_failure(chase, target.id, "Force")
    if outcome.backfired:
        swade_follow_ups.critical_failure(chase, unit.id, "Force (backfired)")
    return {"winner": outcome.winner, "bumped": outcome.bumped, "attack": attack.total, "defence": defence.total}


def ram(
    chase: ManeuveringChase, dice: DiceSource, defender_dice: DiceSource, participant_id: str, target_id: str, *,
    modifier: int = 0, defender_modifier: int = 0, actions: int | None = None,
) -> dict[str, Any]:
    """"RAM" (action): opposed maneuvering rolls on the same card; if it succeeds both sides
    damage each other (Scale, raise, Toughness, the attacker's Top Speed), rolled as follow-ups.
    Against a Vulnerable foe the attacker rolls at +2 (savage_rolls.against_unit)."""
    unit = chase.acting_unit(participant_id, "Ram")
    operator = swade_units.require_free_to_act(chase, unit, "Ram")
    target = swade_units.rival_on_same_card(chase, unit, target_id, RAM)
    if swade_units.position(chase, unit.id) != swade_units.position(chase, target.id):
        raise RuleBroken(f"Ram needs both on the same Chase Card; {target.name} is {rules.cards_apart(swade_units.position(chase, unit.id), swade_units.position(chase, target.id))} card(s) away", RAM)
    for side in (unit, target):
        if side.toughness is None:
            raise InvalidValue("toughness", f"{side.name} has no Toughness: a Ram compares Toughness")
        if side.scale not in SCALE_DAMAGE:
            raise RuleBroken(f"{side.name} is {side.scale}: Ram's base damage starts at Small", RAM)
    mods = {
        **swade_units.maneuver_modifiers(chase, unit, operator, modifier), **savage_rolls.against_unit(chase, target.id),
        **take_action(chase, operator.id, "Ram", actions),
    }
    attack = swade_units.maneuvering_roll(chase, dice, unit, "Ram", mods, {"target": target.id})
    defence = swade_units.maneuvering_roll(
        chase, defender_dice, target, "resist Ram", swade_units.maneuver_modifiers(chase, target, chase.operator(target.id), defender_modifier), {"attacker": unit.id}
    )
    rammed, with_raise = swade_vehicles.ram(attack, defence, True)
    chase.trigger_event(chase.ManeuverTaken, participant_id=unit.id, maneuver="Ram", details={"target": target.id, "rammed": rammed})
    if rammed:
        mine, theirs = ram_damage(
            Rammer(unit.scale, unit.toughness, unit.speed() or 0), Rammer(target.scale, target.toughness, target.speed() or 0), with_raise
        )
        damage = {
            "to_target": {"expression": mine.expression, "raise_bonus": mine.raise_bonus, "parts": [list(p) for p in mine.parts]},
            "to_attacker": {"expression": theirs.expression, "raise_bonus": theirs.raise_bonus, "parts": [list(p) for p in theirs.parts]},
        }
        chase.trigger_event(chase.Rammed, participant_id=unit.id, target_id=target.id, with_raise=with_raise, damage=damage)
        chase.require("ram damage", target.id, by=unit.id, rule="RAM", **damage["to_target"])
        chase.require("ram damage", unit.id, by=target.id, rule="RAM", **damage["to_attacker"])
    for side, roll in ((unit, attack), (target, defence)):
        if roll.critical_failure:
            swade_follow_ups.critical_failure(chase, side.id, "Ram")
    return {"rammed": rammed, "raise": with_raise, "attack": attack.total, "defence": defence.total}


# -- attacks ---------------------------------------------------------------------------

def attack_foe(
    chase: ManeuveringChase, dice: DiceSource, participant_id: str, target_id: str, die: str, *, ranged: bool = True,
    weapon_range: str | None = None, running: bool = False, modifier: int = 0, target_number: int = TARGET_NUMBER, actions: int | None = None,
    options: dict[str, Any] | None = None,
) -> Any:
    """An attack during the unit's turn, with the chase's Range and maneuver modifiers, the
    difference of Scales ("Size/Scale"), the GM's options (Aim, Called Shots, Cover, Illumination:
    gm_options.py) and the attacker's Multi-Actions."""
    unit = chase.acting_unit(participant_id, "attack")
    attacker = chase.participant(participant_id)
    if attacker.is_vehicle:
        raise InvalidValue("participant_id", "a vehicle does not attack: name who aboard it attacks")
    if attacker.conditions.shaken:
        raise RuleBroken(f"{attacker.name} is Shaken and may take only free actions", f"{CORE}, \"Shaken\"")
    condition_effects.require_able(attacker, "an attack")
    target = chase._require_in_chase(target_id)
    target_unit = chase.unit_of(target.id)
    cards = rules.cards_apart(swade_units.position(chase, unit.id), swade_units.position(chase, target_unit))
    distance = cards * chase.settings["range_increment"]
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(attacker)}
    band = "Short"
    if ranged and weapon_range is not None:
        band, mods["range"] = range_penalty(distance, weapon_range)
    elif not ranged and cards:
        raise RuleBroken(f"a melee attack needs the target on the same Chase Card; it is {cards} away", f"{SWADE} \"SETUP\" (Range)")
    mods["chase"] = rules.attack_modifier(
        attacker_evading=chase.evading.get(unit.id, 0),
        target_evading=chase.evading.get(target_unit, 0),
        target_holding_steady=target_unit in chase.holding_steady,
        target_vulnerable=False,  # named below (condition_effects.attack_modifiers)
        attacker_holding_steady=unit.id in chase.holding_steady,
        attacker_on_unstable_platform=ranged and (attacker.aboard and chase.participants[unit.id].is_vehicle or attacker.mounted),
        attacker_running=running,
    )
    if scale_modifier(attacker.scale, target.scale):
        mods["Scale"] = scale_modifier(attacker.scale, target.scale)  # "Size/Scale"
    steady = target_unit in chase.holding_steady  # Hold Steady's +2 does not stack with Vulnerable's
    for name, value in condition_effects.attack_modifiers(attacker, target, ranged=ranged, distance=distance).items():
        if not (name == "Vulnerable" and steady):
            mods[name] = value
    named, noted = gm_options.attack_options(options or {}, mods, ranged=ranged)
    mods.update(named)
    mods.update(take_action(chase, attacker.id, "attack", actions))
    extra = {"target": target.id, "cards_between": cards, "range": distance, "range_band": band, "ranged": ranged, **noted}
    return rate_of_fire.roll_attack(chase, dice, attacker.id, die, mods, target_number=target_number, extra=extra, rate_of_fire=noted.get("rate_of_fire"))
