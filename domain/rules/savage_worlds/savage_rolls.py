"""Rolls, damage and conditions in a Savage Worlds chase (mixed into both aggregates).

Every roll has one sequence number and is recorded whole (dice.py, damage.py): each die with its
label ("d8", "d6") and face in draw order, aces and rerolls included, so that domain/verification.py
recomputes a server roll from the revealed seed. The Joker's +2 goes to trait and damage rolls of
whoever acts on a Joker this round (core rules, "Jokers"); Distracted and Fatigue are penalties to
every trait roll (conditions.py).
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.dice import DiceSource
from domain.rules.savage_worlds.cards import card
from domain.rules.savage_worlds.conditions import FATIGUE_PENALTIES, INCAPACITATED, Conditions
from domain.rules.savage_worlds.damage import damage_roll, table_roll
from domain.rules.savage_worlds.dice import TARGET_NUMBER, TraitRoll, trait_roll
from domain.rules.savage_worlds.errors import CORE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.participants import damage_to_character


class SavageRolls:
    """The roll, damage and condition procedures (events are the chase's)."""

    SHAKEN_AGAIN_WOUNDS = False  # Savage Worlds Deluxe: Shaken twice is a Wound; SWADE: not

    # -- the Joker and modifiers -----------------------------------------------------------

    def holds_joker(self, participant_id: str) -> bool:
        cards = self.action_cards.get(self.unit_of(participant_id), [])
        return len(cards) == 1 and card(cards[0]).is_joker

    def maneuver_die(self, roller: Any) -> str:
        if roller.maneuver_die is None:
            raise InvalidValue("maneuver_die", f"{roller.name} has no maneuvering skill die ({roller.maneuver_skill})")
        return roller.maneuver_die

    def condition_modifiers(self, roller: Any, maneuvering: bool = False) -> dict[str, int]:
        """Distracted and Fatigue; for a rider's maneuvering roll also his mount's Fatigue
        (swade-chases-reference.txt "CRITICAL FAILURE ON MANEUVERING SKILLS", Mounted 3-4)."""
        out = {}
        if roller.conditions.trait_modifier():
            out["conditions"] = roller.conditions.trait_modifier()
        if maneuvering and roller.mounted and roller.mount_fatigue:
            out["mount fatigue"] = FATIGUE_PENALTIES[min(roller.mount_fatigue, len(FATIGUE_PENALTIES) - 1)]
        return out

    # -- rolls -----------------------------------------------------------------------------

    def roll_trait(
        self,
        dice: DiceSource,
        roller_id: str,
        purpose: str,
        die: str,
        modifiers: dict[str, int],
        *,
        target_number: int = TARGET_NUMBER,
        extra: dict[str, Any] | None = None,
    ) -> TraitRoll:
        """A trait roll recorded as TraitRolled; ``modifiers`` by reason, summed into the roll."""
        roller = self.participant(roller_id)
        for reason, value in modifiers.items():
            whole(reason, value)
        sequence = self.rolls_made + 1
        roll = trait_roll(
            dice, sequence, die, wild_card=roller.wild_card, modifier=sum(modifiers.values()),
            target_number=whole("target_number", target_number, 1), joker=self.holds_joker(roller_id),
        )
        record = {
            "sequence": sequence, "roller": roller_id, "purpose": purpose, "round": self.round,
            "modifiers": dict(modifiers), **roll.record(), **(extra or {}),
        }
        self.trigger_event(self.TraitRolled, participant_id=roller_id, roll=record)
        return roll

    def roll_damage(
        self, dice: DiceSource, roller_id: str | None, target_id: str | None, purpose: str, expression: str, *,
        raise_bonus: bool = False, strength: str | None = None, modifier: int = 0, extra: dict[str, Any] | None = None,
    ) -> int:
        """A damage roll (it Aces), recorded as DamageRolled; returns the total."""
        sequence = self.rolls_made + 1
        joker = roller_id is not None and self.holds_joker(roller_id)
        roll = damage_roll(dice, sequence, expression, strength=strength, raise_bonus=raise_bonus, modifier=modifier, joker=joker)
        record = {"sequence": sequence, "roller": roller_id, "purpose": purpose, "round": self.round, "target": target_id, **roll.record(), **(extra or {})}
        self.trigger_event(self.DamageRolled, participant_id=roller_id, target_id=target_id, roll=record)
        return roll.total

    def roll_table(self, dice: DiceSource, participant_id: str | None, purpose: str, count: int, sides: int, extra: dict[str, Any] | None = None) -> list[int]:
        """A table roll (never Aces), recorded as TableRolled; returns the faces."""
        sequence = self.rolls_made + 1
        roll = table_roll(dice, sequence, count, sides)
        record = {"sequence": sequence, "roller": participant_id, "purpose": purpose, "round": self.round, **roll.record(), **(extra or {})}
        self.trigger_event(self.TableRolled, participant_id=participant_id, roll=record)
        return list(roll.faces)

    # -- conditions ------------------------------------------------------------------------

    def change_conditions(self, participant_id: str, conditions: Conditions, reason: str) -> None:
        p = self.participant(participant_id)
        if conditions != p.conditions:
            self.trigger_event(self.ConditionsChanged, participant_id=participant_id, conditions=asdict(conditions), reason=reason)
        if conditions.incapacitated and p.in_chase:
            self.trigger_event(self.StatusChanged, participant_id=participant_id, status="incapacitated", reason=f"{reason}: Fatigue to Incapacitation")
            self.after_status_change()

    def during_own_turn(self, participant_id: str) -> bool:
        return self.whose_turn is not None and self.whose_turn == self.unit_of(participant_id)

    def set_conditions(self, participant_id: str, changes: dict[str, Any], reason: str = "the GM") -> None:
        """The GM sets conditions (a benny spent, a power, an effect the engine does not model).
        ``changes``: shaken, distracted, vulnerable (true/false) and fatigue (0 to 3)."""
        self._require_running()
        p = self.participant(participant_id)
        c = p.conditions
        own = self.during_own_turn(participant_id)
        for name, value in changes.items():
            if name == "fatigue":
                c = Conditions(c.shaken, c.distracted, c.vulnerable, whole("fatigue", value, 0))
                if c.fatigue > INCAPACITATED:
                    raise InvalidValue("fatigue", "levels run 0 (fresh) to 3 (Incapacitated)")
                continue
            if not isinstance(value, bool) or name not in ("shaken", "distracted", "vulnerable"):
                raise InvalidValue(name, "set shaken, distracted or vulnerable to true or false, fatigue to 0..3")
            if name == "shaken":
                if p.is_vehicle and value:
                    raise RuleBroken("vehicles cannot be Shaken", "swade-chases-reference.txt \"DAMAGE\"")
                c = c.made_shaken() if value else c.recovered()
            elif name == "distracted":
                c = c.made_distracted(own) if value else Conditions(c.shaken, 0, c.vulnerable, c.fatigue)
            else:
                c = c.made_vulnerable(own) if value else Conditions(c.shaken, c.distracted, 0, c.fatigue)
        self.change_conditions(participant_id, c, reason)

    def roll_any_trait(
        self, dice: DiceSource, participant_id: str, die: str, *, purpose: str = "trait roll", modifier: int = 0, target_number: int = TARGET_NUMBER
    ) -> TraitRoll:
        """Any trait roll the GM calls for, with the roller's conditions and Joker."""
        self._require_running()
        p = self.participant(participant_id)
        mods = {"situational": whole("modifier", modifier), **self.condition_modifiers(p)}
        return self.roll_trait(dice, participant_id, purpose, die, mods, target_number=target_number)

    def recover(self, dice: DiceSource, participant_id: str, die: str | None = None, modifier: int = 0) -> TraitRoll:
        """The command: a Spirit roll to recover from Shaken, when nothing else waits."""
        self._require_running()
        self._require_nothing_pending()
        return self.recover_from_shaken(dice, participant_id, die, modifier)

    def recover_from_shaken(self, dice: DiceSource, participant_id: str, die: str | None = None, modifier: int = 0) -> TraitRoll:
        """A Spirit roll to recover from Shaken (core rules, "Shaken"): success recovers."""
        self._require_running()
        p = self._require_in_chase(participant_id)
        if not p.conditions.shaken:
            raise RuleBroken(f"{p.name} is not Shaken", f"{CORE}, \"Shaken\"")
        spirit = die or p.spirit
        if spirit is None:
            raise InvalidValue("trait_die", f"{p.name} has no Spirit die: give the die to roll")
        modifiers = {"situational": modifier, **self.condition_modifiers(p)}
        roll = self.roll_trait(dice, participant_id, "recover from Shaken", spirit, modifiers)
        if roll.success:
            self.change_conditions(participant_id, p.conditions.recovered(), "recovered from Shaken")
        return roll

    # -- damage ----------------------------------------------------------------------------

    def damage(
        self, dice: DiceSource, target_id: str, expression: str, *, roller_id: str | None = None,
        raise_bonus: bool = False, strength: str | None = None, modifier: int = 0, purpose: str = "damage",
    ) -> int:
        """Roll damage (it Aces) against a target and apply it: a vehicle's Toughness and Wounds,
        a character's Shaken and Wounds."""
        self._require_running()
        self._require_nothing_pending()
        target = self._require_in_chase(target_id)
        if roller_id is not None:
            self.participant(roller_id)
        if target.toughness is None:
            raise InvalidValue("toughness", f"{target.name} has no Toughness to compare the damage with")
        total = self.roll_damage(dice, roller_id, target_id, purpose, expression, raise_bonus=raise_bonus, strength=strength, modifier=modifier)
        self.apply_damage(target_id, total, by=roller_id, cause=purpose)
        return total

    def apply_damage(self, target_id: str, total: int, *, by: str | None, cause: str) -> None:
        target = self.participant(target_id)
        if target.is_vehicle:
            self.damage_vehicle(target_id, total, by=by, cause=cause)
            return
        if target.toughness is None:
            raise InvalidValue("toughness", f"{target.name} has no Toughness to compare the damage with")
        hit = damage_to_character(
            total, target.toughness, shaken=target.conditions.shaken, wounds=target.wounds,
            wild_card=target.wild_card, shaken_again_wounds=self.SHAKEN_AGAIN_WOUNDS, max_wounds=target.max_wounds,
        )
        if hit.shaken or hit.wounds:
            self.trigger_event(
                self.CharacterDamaged, participant_id=target_id, damage=total, toughness=target.toughness, shaken=hit.shaken,
                wounds_taken=hit.wounds, wounds=target.wounds + hit.wounds, incapacitated=hit.incapacitated,
            )
            self.after_damage(target_id, hit.shaken)
        if hit.incapacitated:
            self.after_status_change()

    def after_damage(self, participant_id: str, shaken: bool) -> None:
        """What a system does when a character is hit (SWD: a Shaken driver's vehicle, ...)."""
