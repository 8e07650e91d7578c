"""The maneuvers of an Adventure Edition chase, on the acting unit's turn (mixed into SwadeChase).

swade-chases-reference.txt "MANEUVERS": Change Position, Dropping Back, Evade, Flee, Force, Hold
Steady, Bump, Ram; attacks with the chase's Range ("SETUP") and modifiers. The pure rules are in
swade_chase.py and swade_vehicles.py; here they are rolled and recorded. A Shaken operator may
take only free actions (core rules, "Shaken"): Change Position as a free action, Evade as a free
action, Hold Steady.
"""
from __future__ import annotations

import re
from typing import Any

from domain.dice import DiceSource
from domain.rules.savage_worlds import swade_chase as rules
from domain.rules.savage_worlds.dice import TARGET_NUMBER
from domain.rules.savage_worlds.errors import CORE, SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.savage_decks import DeckDice
from domain.rules.savage_worlds.swade_vehicles import RAM, Rammer, ram, ram_damage

RANGES = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Range"
RANGE_PENALTIES = (0, -2, -4, -8)  # Short, Medium, Long, Extreme
EXTREME_FACTOR = 4  # core rules "Range": Extreme Range reaches to four times Long Range
_WEAPON_RANGE = re.compile(r"^\s*(\d{1,4})\s*/\s*(\d{1,4})\s*/\s*(\d{1,4})\s*$")


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


class SwadeManeuvers:
    """Maneuvers and attacks (events are the chase's)."""

    # -- helpers ---------------------------------------------------------------------------

    def position(self, unit_id: str) -> int:
        return self.track.location_of(unit_id)

    def maneuver_modifiers(self, unit: Any, operator: Any, situational: int) -> dict[str, int]:
        """A maneuvering roll's modifiers: the GM's, conditions, a vehicle's Handling."""
        mods = {"situational": whole("modifier", situational)}
        mods.update(self.condition_modifiers(operator, maneuvering=True))
        if unit.is_vehicle and (unit.handling or unit.vehicle.handling_penalty):
            mods["handling"] = unit.handling + unit.vehicle.handling_penalty
        return mods

    def maneuvering_roll(self, dice: DiceSource, unit: Any, purpose: str, mods: dict[str, int], extra: dict[str, Any] | None = None) -> Any:
        operator = self.operator(unit.id)
        roll = self.roll_trait(dice, operator.id, purpose, self.maneuver_die(operator), mods, extra={"unit": unit.id, **(extra or {})})
        return roll

    def require_free_to_act(self, unit: Any, what: str) -> Any:
        operator = self.operator(unit.id)
        if operator.conditions.shaken:
            raise RuleBroken(f"{operator.name} is Shaken and may take only free actions, not {what}", f"{CORE}, \"Shaken\"")
        return operator

    def move_unit(self, unit_id: str, delta: int, maneuver: str, by: str | None, deck_dice: DeckDice | None) -> None:
        """Move along the row; past either end, more Chase Cards are dealt ("SETUP": add more as needed)."""
        start = self.position(unit_id)
        self.trigger_event(self.Moved, participant_id=unit_id, from_position=start, to_position=start + delta, maneuver=maneuver, by=by)
        rear, front = rules.extend_row_for(len(self.row), start + delta)
        for end, count in (("rear", rear), ("front", front)):
            for _ in range(count):
                if self.server_deck:
                    self.trigger_event(self.ChaseCardDealt, end=end, **self.draw_card("chase", deck_dice, None))
                else:
                    self.require("chase card", None, end=end, rule="SETUP: add more Chase Cards as needed")

    def closest_foe(self, unit_id: str) -> tuple[Any, int]:
        foes = [(f, rules.cards_apart(self.position(unit_id), self.position(f.id))) for f in self.foes(unit_id)]
        if not foes:
            raise RuleBroken("there is no foe left in the chase", f"{SWADE} \"MANEUVERS\"")
        return min(foes, key=lambda pair: pair[1])

    def fastest_rival(self, unit_id: str) -> float | None:
        speeds = [s for s in (f.speed() for f in self.foes(unit_id)) if s is not None]
        return max(speeds) if speeds else None

    def rival_on_same_card(self, unit: Any, target_id: str, rule: str) -> Any:
        target = self._require_in_chase(self.unit_of(target_id))
        if target.role == unit.role:
            raise RuleBroken(f"{target.name} is no rival of {unit.name}", rule)
        return target

    # -- Change Position, Dropping Back, Evade, Hold Steady ----------------------------------

    def change_position(
        self, dice: DiceSource, participant_id: str, direction: int, *, as_action: bool = False, cards: int | None = None,
        modifier: int = 0, deck_dice: DeckDice | None = None,
    ) -> Any:
        """"CHANGE POSITION": a maneuvering roll; one card up or down, up to two with a raise."""
        unit = self.acting_unit(participant_id, "Change Position")
        rules.check_change_position(rules.TurnManeuvers(self.turn["changed_position"], self.turn["dropped_back"]))
        if direction not in (1, -1):
            raise InvalidValue("direction", "must be +1 (toward the front) or -1 (toward the rear)")
        if cards is not None and whole("cards", cards) not in (1, 2):
            raise InvalidValue("cards", "Change Position moves one Chase Card, or up to two with a raise")
        operator = self.require_free_to_act(unit, "Change Position as an action") if as_action else self.operator(unit.id)
        mods = self.maneuver_modifiers(unit, operator, modifier)
        mods["Change Position"] = rules.change_position_modifier(as_action, unit.speed(), self.fastest_rival(unit.id))
        roll = self.maneuvering_roll(dice, unit, "Change Position", mods, {"as_action": as_action, "direction": direction})
        allowed = rules.change_position_cards(roll)
        moved = min(allowed, cards if cards is not None else allowed)
        self.trigger_event(self.ManeuverTaken, participant_id=unit.id, maneuver="Change Position", details={"as_action": as_action, "cards": moved})
        if moved:
            self.move_unit(unit.id, direction * moved, "Change Position", None, deck_dice)
        if roll.critical_failure:
            self.critical_failure(unit.id, "Change Position")
        return roll

    def drop_back(self, participant_id: str, cards: int = 1, deck_dice: DeckDice | None = None) -> None:
        """"Dropping Back": one or two cards back without a roll, in a linear chase; no Change
        Position after it (nor before it: both move the unit this turn)."""
        unit = self.acting_unit(participant_id, "drop back")
        if self.turn["dropped_back"] or self.turn["changed_position"]:
            raise RuleBroken("he has already moved along the row this turn", rules.DROPPING_BACK)
        rules.drop_back(cards, self.settings["linear"])
        self.trigger_event(self.ManeuverTaken, participant_id=unit.id, maneuver="Dropping Back", details={"cards": cards})
        self.move_unit(unit.id, -cards, "Dropping Back", None, deck_dice)

    def evade(self, participant_id: str, as_action: bool = False) -> None:
        """"EVADE": -2 (-4 as an action) to attacks against the unit and its own, until the start
        of its next turn; once per round."""
        unit = self.acting_unit(participant_id, "Evade")
        rules.check_evade(self.evaded_round.get(unit.id) == self.round)
        if as_action:
            self.require_free_to_act(unit, "Evade as an action")
        penalty = rules.evade_penalty(as_action)
        self.trigger_event(self.ManeuverTaken, participant_id=unit.id, maneuver="Evade", details={"as_action": as_action, "penalty": penalty})

    def hold_steady(self, participant_id: str) -> None:
        """"HOLD STEADY" (free action): no Unstable Platform or Running penalties; +2 to attacks
        against the unit until the beginning of its next turn."""
        unit = self.acting_unit(participant_id, "Hold Steady")
        if unit.id in self.holding_steady:
            raise RuleBroken("he is already holding steady", rules.HOLD_STEADY)
        self.trigger_event(self.ManeuverTaken, participant_id=unit.id, maneuver="Hold Steady", details={})

    # -- Flee ------------------------------------------------------------------------------

    def flee(self, dice: DiceSource, participant_id: str, modifier: int = 0, deck_dice: DeckDice | None = None) -> Any:
        """"FLEE" (action): at least four cards to the closest foe; -4, -2 at five, 0 at six+."""
        unit = self.acting_unit(participant_id, "Flee")
        operator = self.require_free_to_act(unit, "Flee")
        foe, between = self.closest_foe(unit.id)
        penalty = rules.flee_modifier(between)
        mods = {**self.maneuver_modifiers(unit, operator, modifier), "Flee": penalty}
        roll = self.maneuvering_roll(dice, unit, "Flee", mods, {"closest_foe": foe.id, "cards_between": between})
        self.trigger_event(self.ManeuverTaken, participant_id=unit.id, maneuver="Flee", details={"cards_between": between, "escaped": roll.success})
        if roll.critical_failure:
            self.critical_failure(unit.id, "Flee")
        if rules.flee_escapes(roll):
            self.trigger_event(self.StatusChanged, participant_id=unit.id, status="escaped", reason=f"fled {between} Chase Cards from {foe.name}")
            self.after_status_change()
            if self.phase == "running" and not self.pending:
                self.trigger_event(self.TurnEnded, participant_id=unit.id, reason="escaped")
                self.advance(deck_dice)
        return roll

    # -- Force and Ram ---------------------------------------------------------------------

    def force(
        self, dice: DiceSource, defender_dice: DiceSource, participant_id: str, target_id: str, direction: int, *,
        modifier: int = 0, defender_modifier: int = 0, deck_dice: DeckDice | None = None,
    ) -> dict[str, Any]:
        """"FORCE" (action): opposed maneuvering rolls on the same card; a win Bumps the foe the way
        the attacker chooses, a raise is also the foe's Critical Failure; a Critical Failure backfires."""
        unit = self.acting_unit(participant_id, "Force")
        operator = self.require_free_to_act(unit, "Force")
        target = self.rival_on_same_card(unit, target_id, rules.FORCE)
        rules.check_bump(rules.TurnManeuvers(bumped=frozenset(b for a, b in self.turn["bumped"] if a == unit.id)), target.id)
        if direction not in (1, -1):
            raise InvalidValue("direction", "must be +1 (toward the front) or -1 (toward the rear)")
        attack = self.maneuvering_roll(dice, unit, "Force", self.maneuver_modifiers(unit, operator, modifier), {"target": target.id})
        defence = self.maneuvering_roll(
            defender_dice, target, "resist Force", self.maneuver_modifiers(target, self.operator(target.id), defender_modifier), {"attacker": unit.id}
        )
        outcome = rules.force(attack, defence, self.position(unit.id) == self.position(target.id))
        self.trigger_event(self.ManeuverTaken, participant_id=unit.id, maneuver="Force", details={"target": target.id, "winner": outcome.winner})
        if outcome.bumped:
            self.move_unit(target.id, direction, "Bump", unit.id, deck_dice)
        if outcome.defender_critical_failure or defence.critical_failure:
            self.critical_failure(target.id, "Force")
        if outcome.backfired:
            self.critical_failure(unit.id, "Force (backfired)")
        return {"winner": outcome.winner, "bumped": outcome.bumped, "attack": attack.total, "defence": defence.total}

    def ram(
        self, dice: DiceSource, defender_dice: DiceSource, participant_id: str, target_id: str, *,
        modifier: int = 0, defender_modifier: int = 0,
    ) -> dict[str, Any]:
        """"RAM" (action): opposed maneuvering rolls on the same card; if it succeeds both sides
        damage each other (Scale, raise, Toughness, the attacker's Top Speed), rolled as follow-ups."""
        unit = self.acting_unit(participant_id, "Ram")
        operator = self.require_free_to_act(unit, "Ram")
        target = self.rival_on_same_card(unit, target_id, RAM)
        if self.position(unit.id) != self.position(target.id):
            raise RuleBroken(f"Ram needs both on the same Chase Card; {target.name} is {rules.cards_apart(self.position(unit.id), self.position(target.id))} card(s) away", RAM)
        for side in (unit, target):
            if side.toughness is None:
                raise InvalidValue("toughness", f"{side.name} has no Toughness: a Ram compares Toughness")
        attack = self.maneuvering_roll(dice, unit, "Ram", self.maneuver_modifiers(unit, operator, modifier), {"target": target.id})
        defence = self.maneuvering_roll(
            defender_dice, target, "resist Ram", self.maneuver_modifiers(target, self.operator(target.id), defender_modifier), {"attacker": unit.id}
        )
        rammed, with_raise = ram(attack, defence, True)
        self.trigger_event(self.ManeuverTaken, participant_id=unit.id, maneuver="Ram", details={"target": target.id, "rammed": rammed})
        if rammed:
            mine, theirs = ram_damage(
                Rammer(unit.scale, unit.toughness, unit.speed() or 0), Rammer(target.scale, target.toughness, target.speed() or 0), with_raise
            )
            damage = {
                "to_target": {"expression": mine.expression, "raise_bonus": mine.raise_bonus, "parts": [list(p) for p in mine.parts]},
                "to_attacker": {"expression": theirs.expression, "raise_bonus": theirs.raise_bonus, "parts": [list(p) for p in theirs.parts]},
            }
            self.trigger_event(self.Rammed, participant_id=unit.id, target_id=target.id, with_raise=with_raise, damage=damage)
            self.require("ram damage", target.id, by=unit.id, rule="RAM", **damage["to_target"])
            self.require("ram damage", unit.id, by=target.id, rule="RAM", **damage["to_attacker"])
        for side, roll in ((unit, attack), (target, defence)):
            if roll.critical_failure:
                self.critical_failure(side.id, "Ram")
        return {"rammed": rammed, "raise": with_raise, "attack": attack.total, "defence": defence.total}

    # -- attacks ---------------------------------------------------------------------------

    def attack_foe(
        self, dice: DiceSource, participant_id: str, target_id: str, die: str, *, ranged: bool = True,
        weapon_range: str | None = None, running: bool = False, modifier: int = 0, target_number: int = TARGET_NUMBER,
    ) -> Any:
        """An attack during the unit's turn, with the chase's Range and maneuver modifiers."""
        unit = self.acting_unit(participant_id, "attack")
        attacker = self.participant(participant_id)
        if attacker.is_vehicle:
            raise InvalidValue("participant_id", "a vehicle does not attack: name who aboard it attacks")
        if attacker.conditions.shaken:
            raise RuleBroken(f"{attacker.name} is Shaken and may take only free actions", f"{CORE}, \"Shaken\"")
        target = self._require_in_chase(target_id)
        target_unit = self.unit_of(target.id)
        cards = rules.cards_apart(self.position(unit.id), self.position(target_unit))
        distance = cards * self.settings["range_increment"]
        mods = {"situational": whole("modifier", modifier), **self.condition_modifiers(attacker)}
        band = "Short"
        if ranged and weapon_range is not None:
            band, mods["range"] = range_penalty(distance, weapon_range)
        elif not ranged and cards:
            raise RuleBroken(f"a melee attack needs the target on the same Chase Card; it is {cards} away", f"{SWADE} \"SETUP\" (Range)")
        mods["chase"] = rules.attack_modifier(
            attacker_evading=self.evading.get(unit.id, 0),
            target_evading=self.evading.get(target_unit, 0),
            target_holding_steady=target_unit in self.holding_steady,
            target_vulnerable=target.conditions.is_vulnerable,
            attacker_holding_steady=unit.id in self.holding_steady,
            attacker_on_unstable_platform=ranged and (attacker.aboard and self.participants[unit.id].is_vehicle or attacker.mounted),
            attacker_running=running,
        )
        extra = {"target": target.id, "cards_between": cards, "range": distance, "range_band": band, "ranged": ranged}
        return self.roll_trait(dice, attacker.id, "attack", die, mods, target_number=target_number, extra=extra)
