"""The rolls and actions of a Deluxe chase round (SwdChase's procedures).

swd-chases.txt "Get an Action card" (the maneuver roll and its modifiers, passengers' cooperative
rolls, the card kept) and "Resolve Actions" (recovering from Shaken, Complications on Clubs,
Advantage, the Attack "Range" by the card, Force). The pure rules are in swd_chase.py.
"""
from __future__ import annotations

import math
from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import condition_effects, gm_options, rate_of_fire, savage_decks, savage_rolls
from domain.rules.savage_worlds import swd_chase as rules
from domain.rules.savage_worlds.cards import card as read_card
from domain.rules.savage_worlds.dice import TARGET_NUMBER
from domain.rules.savage_worlds.errors import CORE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.multi_actions import ActingChase, take_action
from domain.rules.savage_worlds.participants import SavageParticipant
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.rules.savage_worlds.swade_tables import scale_modifier
from domain.rules.savage_worlds.swade_vehicles import damage_to_vehicle

UNSTABLE_PLATFORM = RUNNING = -2  # "Unstable Platform or Running penalties (-2) may apply to the Attack"


def collision_dice(speed: float | None, half: bool = True) -> str:
    """Obstacle damage "for half Top Speed": a d6 per full or part 10 mph of half the vehicle's
    Top Speed (the Deluxe core book's collision damage); ``half=False``: at the full Top Speed (an
    Out of Control Roll Over or Flip, swd_out_of_control.py). The GM may give the dice instead."""
    return f"{max(1, math.ceil((speed or 0) / (2 if half else 1) / 10))}d6"


class DeluxeChase(savage_rolls.RollingChase, savage_decks.DeckChase, ActingChase, Protocol):
    """What the Deluxe round's procedures use of a chase (swd_aggregate.SwdChase), beyond the
    rolls, the deck and counting actions."""

    ActionCardDealt: ClassVar[type]
    ActionCardKept: ClassVar[type]
    AttackBarred: ClassVar[type]
    AttackBarLifted: ClassVar[type]
    CardsEarned: ClassVar[type]
    ComplicationFaced: ClassVar[type]
    CooperationCounted: ClassVar[type]
    VehicleDamaged: ClassVar[type]
    WentOutOfControl: ClassVar[type]
    participants: dict[str, SavageParticipant]
    phase: str
    stage: str
    maneuvered: dict[str, int]
    cooperative: dict[str, dict[str, Any]]
    barred: dict[str, str]

    def acting_unit(self, participant_id: str, what: str, in_chase: bool = True) -> SavageParticipant: ...

    def continue_round(self, deck_dice: DeckDice | None) -> None: ...

    def operator(self, unit_id: str) -> SavageParticipant: ...

    def foes(self, unit_id: str) -> list[SavageParticipant]: ...

    def occupants(self, unit_id: str) -> list[SavageParticipant]: ...

    def require(self, kind: str, participant_id: str | None, **details: Any) -> None: ...

    def next_follow_up(self) -> dict[str, Any]: ...

    def resolved(self, follow_up: dict[str, Any], outcome: str) -> None: ...



# -- Get an Action card ----------------------------------------------------------------

def maneuver(
    chase: DeluxeChase, dice: DiceSource, participant_id: str, *, modifier: int = 0, cards: list[str] | None = None,
    keep: str | None = None, deck_dice: DeckDice | None = None,
) -> Any:
    """The free maneuver roll: an Action card per success and raise."""
    unit = _maneuvering_unit(chase, participant_id)
    if unit.id in chase.maneuvered:
        raise RuleBroken(f"{unit.name} has already made this round's maneuver roll", rules.ACTION_CARD)
    operator = chase.operator(unit.id)
    foes = chase.foes(unit.id)
    speeds = [s for s in (f.speed() for f in foes) if s is not None]
    climbs = [f.climb for f in foes if f.climb is not None]
    parts = {
        "situational": whole("modifier", modifier),
        "Shaken": rules.maneuver_modifier(shaken=operator.conditions.shaken),
        "speed": rules.maneuver_modifier(speed=unit.speed(), fastest_opponent_speed=max(speeds) if speeds else None),
        "Climb": rules.maneuver_modifier(climb=unit.climb, best_opponent_climb=max(climbs) if climbs else None),
        "cooperative": rules.maneuver_modifier(cooperative=chase.cooperative.get(unit.id, {}).get("bonus", 0)),
        "chase": rules.maneuver_modifier(constant=chase.settings["constant"]),
        **savage_rolls.condition_modifiers(operator, maneuvering=True),
    }
    if unit.is_vehicle and (unit.handling or unit.vehicle.handling_penalty):
        parts["handling"] = unit.handling + unit.vehicle.handling_penalty
    mods = {k: v for k, v in parts.items() if v or k == "situational"}
    roll = savage_rolls.roll_trait(chase, dice, operator.id, "maneuver roll", savage_rolls.maneuver_die(operator), mods, extra={"unit": unit.id})
    earned = rules.action_cards_earned(roll)
    chase.trigger_event(chase.CardsEarned, participant_id=unit.id, count=earned)
    deal_earned(chase, unit.id, earned, cards, keep, deck_dice)
    chase.continue_round(deck_dice)
    return roll


def cooperate(chase: DeluxeChase, dice: DiceSource, helper_id: str, modifier: int = 0) -> Any:
    """A passenger's cooperative roll (same skill): +1 per success and raise, +4 at most."""
    helper = chase.participant(helper_id)
    if not helper.aboard or helper.seat == "driver":
        raise RuleBroken(f"{helper.name} is no passenger: cooperative rolls are the passengers'", rules.ACTION_CARD)
    unit = _maneuvering_unit(chase, helper.with_id)
    if unit.id in chase.maneuvered:
        raise RuleBroken(f"{unit.name} has already made this round's maneuver roll", rules.ACTION_CARD)
    if helper.id in chase.cooperative.get(unit.id, {}).get("helpers", []):
        raise RuleBroken(f"{helper.name} has already helped this round", rules.ACTION_CARD)
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(helper)}
    roll = savage_rolls.roll_trait(chase, dice, helper.id, "cooperative roll", savage_rolls.maneuver_die(helper), mods, extra={"unit": unit.id})
    contribution = rules.cooperative_bonus([roll])
    total = min(rules.COOPERATIVE_LIMIT, chase.cooperative.get(unit.id, {}).get("bonus", 0) + contribution)
    chase.trigger_event(chase.CooperationCounted, participant_id=unit.id, helper_id=helper.id, contribution=contribution, bonus=total)
    return roll


def _maneuvering_unit(chase: DeluxeChase, participant_id: str) -> Any:
    chase._require_running()
    chase._require_nothing_pending()
    unit = chase._require_in_chase(chase.unit_of(participant_id))
    if chase.stage != "maneuvering":
        raise RuleBroken(f"the maneuver rolls of round {chase.round} are over: the cards are being resolved", rules.ACTION_CARD)
    return unit


def deal_earned(chase: DeluxeChase, unit_id: str, count: int, cards: list[str] | None, keep: str | None, deck_dice: DeckDice | None) -> None:
    if not count:
        if cards:
            raise InvalidValue("cards", "the maneuver roll earned no Action card: none is dealt")
        return
    if savage_decks.server_deck(chase) and cards:
        raise InvalidValue("cards", "this chase deals from the server's deck: no card is entered")
    if not savage_decks.server_deck(chase) and cards is None:
        chase.require("deal action cards", unit_id, count=count, rule="Get an Action card")
        return
    if not savage_decks.server_deck(chase) and (not isinstance(cards, list) or len(cards) != count):
        raise InvalidValue("cards", f"the maneuver roll earned {count} Action card(s); enter {count}, not {len(cards or [])}")
    for i in range(count):
        entered = cards[i] if not savage_decks.server_deck(chase) else None  # type: ignore[index]
        chase.trigger_event(chase.ActionCardDealt, participant_id=unit_id, **savage_decks.draw_card(chase, "action", deck_dice, entered))
    keep_one(chase, unit_id, keep)


def keep_one(chase: DeluxeChase, unit_id: str, keep: str | None) -> None:
    dealt = [read_card(c) for c in chase.action_cards[unit_id]]
    if len(dealt) > 1 and keep is None:
        chase.require("keep card", unit_id, cards=[c.code for c in dealt], rule="Get an Action card: pick one card")
        return
    kept = rules.keep_card(dealt, read_card(keep) if keep is not None else None)
    chase.trigger_event(chase.ActionCardKept, participant_id=unit_id, card=kept.code, discarded=[c.code for c in dealt if c != kept])


# -- Resolve Actions: attacks and Force ------------------------------------------------

def _advantage(chase: DeluxeChase, unit: Any, target_id: str) -> tuple[Any, Any]:
    target = chase._require_in_chase(target_id)
    target_unit = chase.participant(chase.unit_of(target.id))
    if target_unit.role == unit.role:
        raise RuleBroken(f"{target.name} is on {unit.name}'s side", rules.RESOLVE)
    mine = read_card(chase.action_cards[unit.id][0])
    held = chase.action_cards.get(target_unit.id)
    theirs = read_card(held[0]) if held and len(held) == 1 else None
    if not rules.may_attack(mine, theirs):
        raise RuleBroken(f"{target_unit.name} holds the higher card ({theirs.label} against {mine.label}): it has the Advantage", rules.RESOLVE)
    return target, mine


def _free_to_attack(chase: DeluxeChase, p: Any) -> None:
    condition_effects.require_able(p, "an attack or Force")
    if p.conditions.shaken:
        raise RuleBroken(f"{p.name} is Shaken and may take no action but recovering", f"{rules.RESOLVE}; {CORE}, \"Shaken\"")
    if p.id in chase.barred:
        raise RuleBroken(f"{p.name} cannot attack this round: {chase.barred[p.id]}", rules.RESOLVE)


def attack_foe(
    chase: DeluxeChase, dice: DiceSource, participant_id: str, target_id: str, die: str, *, modifier: int = 0,
    target_number: int = TARGET_NUMBER, unstable_platform: bool = False, running: bool = False, actions: int | None = None,
    options: dict[str, Any] | None = None,
) -> Any:
    """An attack with Advantage, at the Attack "Range" penalty of the attacker's card."""
    unit = chase.acting_unit(participant_id, "attack")
    attacker = chase.participant(participant_id)
    if attacker.is_vehicle:
        raise InvalidValue("participant_id", "a vehicle does not attack: name who aboard it attacks")
    _free_to_attack(chase, attacker)
    target, mine = _advantage(chase, unit, target_id)
    reach = rules.attack_range(mine)
    if reach.penalty is None:
        raise RuleBroken(f"the {mine.label} is {reach.name}: no attack this round", reach.source)
    mods = {"situational": whole("modifier", modifier), "range": reach.penalty, **savage_rolls.condition_modifiers(attacker)}
    if unstable_platform:
        mods["Unstable Platform"] = UNSTABLE_PLATFORM
    if running:
        mods["Running"] = RUNNING
    # The Drop against the Stunned or Vulnerable's +2 (the Deluxe card's range decides no ranged or
    # melee: Prone's cover and Parry are the GM's to give in the modifier).
    mods.update({k: v for k, v in condition_effects.attack_modifiers(attacker, target, ranged=True, distance=0).items() if not k.startswith("Prone")})
    if scale_modifier(attacker.scale, target.scale):
        mods["Scale"] = scale_modifier(attacker.scale, target.scale)  # swade-chases-reference.txt "Size/Scale"
    named, noted = gm_options.attack_options(options or {}, mods, ranged=True)
    mods.update(named)
    mods.update(take_action(chase, attacker.id, "attack", actions))
    extra = {"target": target.id, "action_card": mine.code, "range": reach.name, "melee_possible": reach.melee, **noted}
    return rate_of_fire.roll_attack(chase, dice, attacker.id, die, mods, target_number=target_number, extra=extra, rate_of_fire=noted.get("rate_of_fire"))


def force(
    chase: DeluxeChase, dice: DiceSource, defender_dice: DiceSource, participant_id: str, target_id: str, *,
    modifier: int = 0, defender_modifier: int = 0, actions: int | None = None,
) -> str:
    """Force (SWD Errata): opposed maneuver rolls, the attacker alone at his card's range
    penalty; a win makes the foe roll to avoid an obstacle, a raise hits it. Against a Vulnerable
    foe the attacker rolls at +2 (savage_rolls.against_unit)."""
    unit = chase.acting_unit(participant_id, "Force")
    operator = chase.operator(unit.id)
    _free_to_attack(chase, operator)
    target, mine = _advantage(chase, unit, target_id)
    target_unit = chase.participant(chase.unit_of(target.id))
    mods = {
        "situational": whole("modifier", modifier), "range": rules.force_modifier(mine), **savage_rolls.condition_modifiers(operator, True),
        **savage_rolls.against_unit(chase, target_unit.id), **take_action(chase, operator.id, "Force", actions),
    }
    attack = savage_rolls.roll_trait(chase, dice, operator.id, "Force", savage_rolls.maneuver_die(operator), mods, extra={"unit": unit.id, "target": target_unit.id})
    defender = chase.operator(target_unit.id)
    dmods = {"situational": whole("defender_modifier", defender_modifier), **savage_rolls.condition_modifiers(defender, True)}
    defence = savage_rolls.roll_trait(chase, defender_dice, defender.id, "resist Force", savage_rolls.maneuver_die(defender), dmods, extra={"unit": target_unit.id})
    outcome = rules.force_outcome(attack, defence)
    if outcome == "avoid obstacle":
        chase.require("obstacle", target_unit.id, rule="Force: the defender rolls to avoid an obstacle")
    elif outcome == "hits obstacle":
        obstacle_hit(chase, target_unit.id, "Force with a raise")
    return outcome


def obstacle_hit(chase: DeluxeChase, unit_id: str, why: str) -> None:
    """An obstacle hit: damage for half Top Speed in a vehicle, a Fatigue level on foot."""
    unit = chase.participant(unit_id)
    if unit.is_vehicle:
        chase.require("obstacle damage", unit_id, expression=collision_dice(unit.speed()), why=why, rule="an obstacle: damage for half Top Speed")
    else:
        operator = chase.operator(unit_id)
        savage_rolls.change_conditions(chase, operator.id, operator.conditions.fatigued(), f"{why}: an obstacle, a Fatigue level")


def damage_vehicle(chase: DeluxeChase, vehicle_id: str, total: int, *, by: str | None, cause: str) -> None:
    """Damage to a vehicle: a Wound per raise over Toughness (the rule of
    swade-chases-reference.txt "DAMAGE"; the Deluxe extract prints none of its own)."""
    v = chase.participants[vehicle_id]
    hit = damage_to_vehicle(total, v.toughness, in_chase=False)
    if not hit.control_roll:
        return
    wounds = v.vehicle.wounds + hit.wounds
    chase.trigger_event(
        chase.VehicleDamaged, participant_id=vehicle_id, damage=total, toughness=v.toughness,
        wounds_taken=hit.wounds, wounds=wounds, wrecked=wounds > v.max_wounds, cause=cause,
    )
    if wounds > v.max_wounds:
        chase.after_status_change()
