"""The rolls and actions of a Deluxe chase round (mixed into SwdChase; events are the chase's).

swd-chases.txt "Get an Action card" (the maneuver roll and its modifiers, passengers' cooperative
rolls, the card kept) and "Resolve Actions" (recovering from Shaken, Complications on Clubs,
Advantage, the Attack "Range" by the card, Force). The pure rules are in swd_chase.py.
"""
from __future__ import annotations

import math
from typing import Any

from domain.dice import DiceSource, InvalidTableDice, TableDice
from domain.rules.savage_worlds import swd_chase as rules
from domain.rules.savage_worlds.cards import card as read_card
from domain.rules.savage_worlds.dice import TARGET_NUMBER
from domain.rules.savage_worlds.errors import CORE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.rules.savage_worlds.swade_vehicles import damage_to_vehicle

ROLLS = {"recover from shaken": "a Spirit roll", "complication": "a maneuver roll", "obstacle": "a maneuver roll", "obstacle damage": "the damage dice"}
UNSTABLE_PLATFORM = RUNNING = -2  # "Unstable Platform or Running penalties (-2) may apply to the Attack"


def collision_dice(speed: float | None) -> str:
    """Obstacle damage "for half Top Speed": a d6 per full or part 10 mph of half the vehicle's
    Top Speed (the Deluxe core book's collision damage); the GM may give the dice instead."""
    return f"{max(1, math.ceil((speed or 0) / 2 / 10))}d6"


class SwdActions:
    """Maneuver rolls, cards, attacks, Force and follow-ups of a Deluxe chase."""

    # -- Get an Action card ----------------------------------------------------------------

    def maneuver(
        self, dice: DiceSource, participant_id: str, *, modifier: int = 0, cards: list[str] | None = None,
        keep: str | None = None, deck_dice: DeckDice | None = None,
    ) -> Any:
        """The free maneuver roll: an Action card per success and raise."""
        unit = self._maneuvering_unit(participant_id)
        if unit.id in self.maneuvered:
            raise RuleBroken(f"{unit.name} has already made this round's maneuver roll", rules.ACTION_CARD)
        operator = self.operator(unit.id)
        foes = self.foes(unit.id)
        speeds = [s for s in (f.speed() for f in foes) if s is not None]
        climbs = [f.climb for f in foes if f.climb is not None]
        parts = {
            "situational": whole("modifier", modifier),
            "Shaken": rules.maneuver_modifier(shaken=operator.conditions.shaken),
            "speed": rules.maneuver_modifier(speed=unit.speed(), fastest_opponent_speed=max(speeds) if speeds else None),
            "Climb": rules.maneuver_modifier(climb=unit.climb, best_opponent_climb=max(climbs) if climbs else None),
            "cooperative": rules.maneuver_modifier(cooperative=self.cooperative.get(unit.id, {}).get("bonus", 0)),
            "chase": rules.maneuver_modifier(constant=self.settings["constant"]),
            **self.condition_modifiers(operator, maneuvering=True),
        }
        if unit.is_vehicle and (unit.handling or unit.vehicle.handling_penalty):
            parts["handling"] = unit.handling + unit.vehicle.handling_penalty
        mods = {k: v for k, v in parts.items() if v or k == "situational"}
        roll = self.roll_trait(dice, operator.id, "maneuver roll", self.maneuver_die(operator), mods, extra={"unit": unit.id})
        earned = rules.action_cards_earned(roll)
        self.trigger_event(self.CardsEarned, participant_id=unit.id, count=earned)
        self._deal_earned(unit.id, earned, cards, keep, deck_dice)
        self.continue_round(deck_dice)
        return roll

    def cooperate(self, dice: DiceSource, helper_id: str, modifier: int = 0) -> Any:
        """A passenger's cooperative roll (same skill): +1 per success and raise, +4 at most."""
        helper = self.participant(helper_id)
        if not helper.aboard or helper.seat == "driver":
            raise RuleBroken(f"{helper.name} is no passenger: cooperative rolls are the passengers'", rules.ACTION_CARD)
        unit = self._maneuvering_unit(helper.with_id)
        if unit.id in self.maneuvered:
            raise RuleBroken(f"{unit.name} has already made this round's maneuver roll", rules.ACTION_CARD)
        if helper.id in self.cooperative.get(unit.id, {}).get("helpers", []):
            raise RuleBroken(f"{helper.name} has already helped this round", rules.ACTION_CARD)
        mods = {"situational": whole("modifier", modifier), **self.condition_modifiers(helper)}
        roll = self.roll_trait(dice, helper.id, "cooperative roll", self.maneuver_die(helper), mods, extra={"unit": unit.id})
        contribution = rules.cooperative_bonus([roll])
        total = min(rules.COOPERATIVE_LIMIT, self.cooperative.get(unit.id, {}).get("bonus", 0) + contribution)
        self.trigger_event(self.CooperationCounted, participant_id=unit.id, helper_id=helper.id, contribution=contribution, bonus=total)
        return roll

    def _maneuvering_unit(self, participant_id: str) -> Any:
        self._require_running()
        self._require_nothing_pending()
        unit = self._require_in_chase(self.unit_of(participant_id))
        if self.stage != "maneuvering":
            raise RuleBroken(f"the maneuver rolls of round {self.round} are over: the cards are being resolved", rules.ACTION_CARD)
        return unit

    def _deal_earned(self, unit_id: str, count: int, cards: list[str] | None, keep: str | None, deck_dice: DeckDice | None) -> None:
        if not count:
            if cards:
                raise InvalidValue("cards", "the maneuver roll earned no Action card: none is dealt")
            return
        if self.server_deck and cards:
            raise InvalidValue("cards", "this chase deals from the server's deck: no card is entered")
        if not self.server_deck and cards is None:
            self.require("deal action cards", unit_id, count=count, rule="Get an Action card")
            return
        if not self.server_deck and (not isinstance(cards, list) or len(cards) != count):
            raise InvalidValue("cards", f"the maneuver roll earned {count} Action card(s); enter {count}, not {len(cards or [])}")
        for i in range(count):
            entered = cards[i] if not self.server_deck else None  # type: ignore[index]
            self.trigger_event(self.ActionCardDealt, participant_id=unit_id, **self.draw_card("action", deck_dice, entered))
        self._keep(unit_id, keep)

    def _keep(self, unit_id: str, keep: str | None) -> None:
        dealt = [read_card(c) for c in self.action_cards[unit_id]]
        if len(dealt) > 1 and keep is None:
            self.require("keep card", unit_id, cards=[c.code for c in dealt], rule="Get an Action card: pick one card")
            return
        kept = rules.keep_card(dealt, read_card(keep) if keep is not None else None)
        self.trigger_event(self.ActionCardKept, participant_id=unit_id, card=kept.code, discarded=[c.code for c in dealt if c != kept])

    # -- Resolve Actions: attacks and Force ------------------------------------------------

    def _advantage(self, unit: Any, target_id: str) -> tuple[Any, Any]:
        target = self._require_in_chase(target_id)
        target_unit = self.participant(self.unit_of(target.id))
        if target_unit.role == unit.role:
            raise RuleBroken(f"{target.name} is on {unit.name}'s side", rules.RESOLVE)
        mine = read_card(self.action_cards[unit.id][0])
        held = self.action_cards.get(target_unit.id)
        theirs = read_card(held[0]) if held and len(held) == 1 else None
        if not rules.may_attack(mine, theirs):
            raise RuleBroken(f"{target_unit.name} holds the higher card ({theirs.label} against {mine.label}): it has the Advantage", rules.RESOLVE)
        return target, mine

    def _free_to_attack(self, p: Any) -> None:
        if p.conditions.shaken:
            raise RuleBroken(f"{p.name} is Shaken and may take no action but recovering", f"{rules.RESOLVE}; {CORE}, \"Shaken\"")
        if p.id in self.barred:
            raise RuleBroken(f"{p.name} cannot attack this round: {self.barred[p.id]}", rules.RESOLVE)

    def attack_foe(
        self, dice: DiceSource, participant_id: str, target_id: str, die: str, *, modifier: int = 0,
        target_number: int = TARGET_NUMBER, unstable_platform: bool = False, running: bool = False,
    ) -> Any:
        """An attack with Advantage, at the Attack "Range" penalty of the attacker's card."""
        unit = self.acting_unit(participant_id, "attack")
        attacker = self.participant(participant_id)
        if attacker.is_vehicle:
            raise InvalidValue("participant_id", "a vehicle does not attack: name who aboard it attacks")
        self._free_to_attack(attacker)
        target, mine = self._advantage(unit, target_id)
        reach = rules.attack_range(mine)
        if reach.penalty is None:
            raise RuleBroken(f"the {mine.label} is {reach.name}: no attack this round", reach.source)
        mods = {"situational": whole("modifier", modifier), "range": reach.penalty, **self.condition_modifiers(attacker)}
        if unstable_platform:
            mods["Unstable Platform"] = UNSTABLE_PLATFORM
        if running:
            mods["Running"] = RUNNING
        if target.conditions.against_modifier():
            mods["Vulnerable"] = target.conditions.against_modifier()
        extra = {"target": target.id, "action_card": mine.code, "range": reach.name, "melee_possible": reach.melee}
        return self.roll_trait(dice, attacker.id, "attack", die, mods, target_number=target_number, extra=extra)

    def force(
        self, dice: DiceSource, defender_dice: DiceSource, participant_id: str, target_id: str, *,
        modifier: int = 0, defender_modifier: int = 0,
    ) -> str:
        """Force (SWD Errata): opposed maneuver rolls, the attacker alone at his card's range
        penalty; a win makes the foe roll to avoid an obstacle, a raise hits it."""
        unit = self.acting_unit(participant_id, "Force")
        operator = self.operator(unit.id)
        self._free_to_attack(operator)
        target, mine = self._advantage(unit, target_id)
        target_unit = self.participant(self.unit_of(target.id))
        mods = {"situational": whole("modifier", modifier), "range": rules.force_modifier(mine), **self.condition_modifiers(operator, True)}
        attack = self.roll_trait(dice, operator.id, "Force", self.maneuver_die(operator), mods, extra={"unit": unit.id, "target": target_unit.id})
        defender = self.operator(target_unit.id)
        dmods = {"situational": whole("defender_modifier", defender_modifier), **self.condition_modifiers(defender, True)}
        defence = self.roll_trait(defender_dice, defender.id, "resist Force", self.maneuver_die(defender), dmods, extra={"unit": target_unit.id})
        outcome = rules.force_outcome(attack, defence)
        if outcome == "avoid obstacle":
            self.require("obstacle", target_unit.id, rule="Force: the defender rolls to avoid an obstacle")
        elif outcome == "hits obstacle":
            self.obstacle_hit(target_unit.id, "Force with a raise")
        return outcome

    def obstacle_hit(self, unit_id: str, why: str) -> None:
        """An obstacle hit: damage for half Top Speed in a vehicle, a Fatigue level on foot."""
        unit = self.participant(unit_id)
        if unit.is_vehicle:
            self.require("obstacle damage", unit_id, expression=collision_dice(unit.speed()), why=why, rule="an obstacle: damage for half Top Speed")
        else:
            operator = self.operator(unit_id)
            self.change_conditions(operator.id, operator.conditions.fatigued(), f"{why}: an obstacle, a Fatigue level")

    def damage_vehicle(self, vehicle_id: str, total: int, *, by: str | None, cause: str) -> None:
        """Damage to a vehicle: a Wound per raise over Toughness (the rule of
        swade-chases-reference.txt "DAMAGE"; the Deluxe extract prints none of its own)."""
        v = self.participants[vehicle_id]
        hit = damage_to_vehicle(total, v.toughness, in_chase=False)
        if not hit.control_roll:
            return
        wounds = v.vehicle.wounds + hit.wounds
        self.trigger_event(
            self.VehicleDamaged, participant_id=vehicle_id, damage=total, toughness=v.toughness,
            wounds_taken=hit.wounds, wounds=wounds, wrecked=wounds > v.max_wounds, cause=cause,
        )
        if wounds > v.max_wounds:
            self.after_status_change()

    # -- follow-ups ------------------------------------------------------------------------

    def resolve(
        self, dice: DiceSource | None, *, card: str | None = None, cards: list[str] | None = None, modifier: int = 0,
        expression: str | None = None, trait_die: str | None = None, deck_dice: DeckDice | None = None,
    ) -> dict[str, Any]:
        """Resolve the first follow-up waiting: deal or keep cards, recover, a Complication, an obstacle."""
        head = self.next_follow_up()
        kind = head["kind"]
        name = self.participants[head["participant_id"]].name
        if kind in ROLLS and dice is None:
            raise InvalidTableDice(f"the {kind} of {name} is {ROLLS[kind]}: enter the faces rolled")
        if kind not in ROLLS and isinstance(dice, TableDice):
            raise InvalidValue("table_dice", f"the {kind} takes no roll")
        outcome = getattr(self, "_resolve_" + kind.replace(" ", "_"))(
            head, dice=dice, card=card, cards=cards, modifier=modifier, expression=expression, trait_die=trait_die, deck_dice=deck_dice
        )
        self.continue_round(deck_dice)
        return {"follow_up": head, "outcome": outcome}

    def _resolve_deal_action_cards(self, head: dict[str, Any], *, cards: list[str] | None, card: str | None, **_: Any) -> str:
        if cards is None:
            raise InvalidValue("cards", f"enter the {head['count']} Action card(s) dealt")
        self.resolved(head, ", ".join(cards))
        self._deal_earned(head["participant_id"], head["count"], cards, card, None)
        return "dealt"

    def _resolve_keep_card(self, head: dict[str, Any], *, card: str | None, **_: Any) -> str:
        self.resolved(head, card or "the highest")
        self._keep(head["participant_id"], card or rules.keep_card([read_card(c) for c in head["cards"]]).code)
        return self.action_cards[head["participant_id"]][0]

    def _resolve_recover_from_shaken(self, head: dict[str, Any], *, dice: DiceSource, modifier: int, trait_die: str | None, **_: Any) -> str:
        p = self.participant(head["participant_id"])
        if not p.conditions.shaken or not p.in_chase:
            self.resolved(head, "no longer Shaken")
            return "no longer Shaken"
        roll = self.recover_from_shaken(dice, p.id, trait_die, modifier)
        self.resolved(head, "recovered" if roll.success else "still Shaken")
        if not roll.success and head["when"] == "turn":
            self.trigger_event(self.AttackBarred, participant_id=p.id, reason="stayed Shaken")
        return "recovered" if roll.success else "still Shaken"

    def _resolve_complication(self, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
        unit = self.participant(head["participant_id"])
        operator = self.operator(unit.id)
        row = rules.complication(read_card(head["card"]))
        mods = {"situational": whole("modifier", modifier), "Complication": row.modifier, **self.condition_modifiers(operator, True)}
        roll = self.roll_trait(dice, operator.id, f"Complication: {row.name}", self.maneuver_die(operator), mods, extra={"unit": unit.id, "action_card": head["card"]})
        result = "avoided" if roll.success else row.failure
        self.resolved(head, result)
        self.trigger_event(
            self.ComplicationFaced, participant_id=unit.id, card=head["card"],
            complication={"name": row.name, "modifier": row.modifier, "failure": row.failure, "source": row.source}, result=result,
        )
        if roll.success:
            return result
        if row.name == "Disaster":
            self.trigger_event(self.AttackBarred, participant_id=operator.id, reason="failed a Disaster")
            self.trigger_event(self.StatusChanged, participant_id=unit.id, status="out", reason="failed a Disaster Complication")
            self.after_status_change()
        else:
            self.obstacle_hit(unit.id, f"Complication: {row.name}")
        return result

    def _resolve_obstacle(self, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
        unit = self.participant(head["participant_id"])
        operator = self.operator(unit.id)
        mods = {"situational": whole("modifier", modifier), **self.condition_modifiers(operator, True)}
        roll = self.roll_trait(dice, operator.id, "avoid an obstacle", self.maneuver_die(operator), mods, extra={"unit": unit.id})
        self.resolved(head, "avoided" if roll.success else "hit the obstacle")
        if not roll.success:
            self.obstacle_hit(unit.id, "Force")
        return "avoided" if roll.success else "hit the obstacle"

    def _resolve_obstacle_damage(self, head: dict[str, Any], *, dice: DiceSource, expression: str | None, **_: Any) -> str:
        unit_id = head["participant_id"]
        total = self.roll_damage(dice, None, unit_id, "obstacle damage", expression or head["expression"], extra={"why": head["why"]})
        self.resolved(head, f"{total} damage")
        if self.participants[unit_id].in_chase:
            self.apply_damage(unit_id, total, by=None, cause=f"an obstacle ({head['why']})")
        return f"{total} damage"
