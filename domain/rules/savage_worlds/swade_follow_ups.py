"""What the Adventure Edition rules call for after a roll, resolved one at a time (SwadeChase mixin).

swade-chases-reference.txt: Complications ("COMPLICATIONS"), critical failures by mode ("CRITICAL
FAILURE ON MANEUVERING SKILLS"), damage to vehicles ("DAMAGE": a control roll, a Bump, a Wound
and a Critical Hit per raise), "OUT OF CONTROL" (2d6) and "VEHICLE CRITICAL HITS" (2d6), the Bump's
direction ("BUMP": chosen by the attacker, or the GM), Ram damage ("RAM") and Chase Cards added
to a physical row ("SETUP"). Each is a follow-up (savage_base.py), resolved in the order it arose.
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from domain.dice import DiceSource, InvalidTableDice, TableDice
from domain.rules.savage_worlds import swade_chase as rules
from domain.rules.savage_worlds.cards import card as read_card
from domain.rules.savage_worlds.conditions import FATIGUE_LEVELS
from domain.rules.savage_worlds.errors import InvalidValue, RuleBroken, whole
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
}


class SwadeFollowUps:
    """Resolving follow-ups, and what raises them (events are the chase's)."""

    def resolve(
        self, dice: DiceSource | None, *, direction: int | None = None, cards: int | None = None, card: str | None = None,
        modifier: int = 0, deck_dice: DeckDice | None = None,
    ) -> dict[str, Any]:
        """Resolve the first follow-up waiting: roll it, or take the GM's choice it needs."""
        head = self.next_follow_up()
        kind = head["kind"]
        if kind in ROLLS and dice is None:
            raise InvalidTableDice(f"the {kind} for {self._name(head)} is {ROLLS[kind]}: enter the faces rolled")
        if kind not in ROLLS and isinstance(dice, TableDice):
            raise InvalidValue("table_dice", f"the {kind} takes no roll")
        handler = getattr(self, "_resolve_" + kind.replace(" ", "_"))
        outcome = handler(head, dice=dice, direction=direction, cards=cards, card=card, modifier=modifier, deck_dice=deck_dice)
        return {"follow_up": head, "outcome": outcome}

    def _name(self, head: dict[str, Any]) -> str:
        pid = head.get("participant_id")
        return self.participants[pid].name if pid in self.participants else "the row"

    # -- rolls that raise follow-ups -------------------------------------------------------

    def critical_failure(self, unit_id: str, during: str) -> None:
        """"CRITICAL FAILURE ON MANEUVERING SKILLS": a vehicle goes Out of Control; mounted and on
        foot, a d6 says what happens."""
        mode = self.participants[unit_id].critical_failure_mode
        if mode == "vehicle":
            self.require("out of control", unit_id, during=during, rule="CRITICAL FAILURE ON MANEUVERING SKILLS: Vehicle")
        else:
            self.require("critical failure", unit_id, mode=mode, during=during, rule="CRITICAL FAILURE ON MANEUVERING SKILLS")

    def damage_vehicle(self, vehicle_id: str, total: int, *, by: str | None, cause: str) -> None:
        """"DAMAGE": at or over Toughness a control roll and a Bump; each raise a Wound and a
        Critical Hit. Beyond its Wounds the vehicle is wrecked."""
        v = self.participants[vehicle_id]
        hit = damage_to_vehicle(total, v.toughness, in_chase=True)
        if not hit.control_roll:
            return
        wounds = v.vehicle.wounds + hit.wounds
        wrecked = wounds > v.max_wounds
        self.trigger_event(
            self.VehicleDamaged, participant_id=vehicle_id, damage=total, toughness=v.toughness,
            wounds_taken=hit.wounds, wounds=wounds, wrecked=wrecked, cause=cause,
        )
        if wrecked:
            self.after_status_change()
            return
        self.require("control roll", vehicle_id, rule="DAMAGE: a maneuvering roll or go Out of Control")
        attacker = self.unit_of(by) if by is not None else None  # Bumps are counted unit against unit
        if attacker is None or [attacker, vehicle_id] not in self.turn.get("bumped", []):
            self.require("bump", vehicle_id, cards=1, by=attacker, rule="DAMAGE: in a chase the vehicle is Bumped as well")
        for _ in range(hit.critical_hits):
            self.require("critical hit", vehicle_id, collision=False, reroll_crew=False, rule="DAMAGE: each raise, a Critical Hit")

    def forfeit_turn(self, unit_id: str, reason: str, deck_dice: DeckDice | None) -> None:
        if self.whose_turn == unit_id:
            self.trigger_event(self.TurnEnded, participant_id=unit_id, reason=reason)
            self.advance(deck_dice)
        else:
            self.trigger_event(self.TurnLost, participant_id=unit_id, reason=reason)

    # -- the follow-ups --------------------------------------------------------------------

    def _resolve_complication(self, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
        """A Club: a free maneuvering roll, modified and read by the current Chase Card's suit."""
        unit = self.participants[head["participant_id"]]
        position = self.track.location_of(unit.id)
        chase_card = self.row[position] if position is not None and 0 <= position < len(self.row) else head.get("chase_card")
        if chase_card is None:
            raise RuleBroken("the unit's Chase Card is not dealt yet: deal it first", rules.COMPLICATIONS)
        current = read_card(chase_card)
        row = rules.complication(current)
        mods = {**self.maneuver_modifiers(unit, self.operator(unit.id), modifier), "Complication": row.modifier}
        roll = self.maneuvering_roll(dice, unit, "Complication", mods, {"chase_card": chase_card, "suit": row.suit})
        outcome = rules.complication_outcome(current, roll)
        self.resolved(head, "avoided" if outcome.avoided else f"failed: {row.failure}")
        if outcome.bumped_cards:
            self.require("bump", unit.id, cards=outcome.bumped_cards, by=None, rule=f"COMPLICATIONS: {row.suit}")
        if outcome.critical_failure:
            self.critical_failure(unit.id, "Complication")
        return "avoided" if outcome.avoided else row.failure

    def _resolve_critical_failure(self, head: dict[str, Any], *, dice: DiceSource, deck_dice: DeckDice | None, **_: Any) -> str:
        unit_id = head["participant_id"]
        operator = self.operator(unit_id)
        face = self.roll_table(dice, operator.id, f"Critical Failure ({head['mode']})", 1, 6, {"unit": unit_id})[0]
        row = critical_failure_row(head["mode"], face)
        self.resolved(head, row.effect)
        if row.effect == "loses turn":
            self.forfeit_turn(unit_id, f"Critical Failure: {row.effect}", deck_dice)
        elif row.effect == "mount fatigue":
            self.trigger_event(self.MountFatigued, participant_id=operator.id, mount_fatigue=min(operator.mount_fatigue + 1, len(FATIGUE_LEVELS) - 1))
        else:
            self.change_conditions(operator.id, operator.conditions.fatigued(), "Critical Failure: Fatigue")
        return row.effect

    def _resolve_control_roll(self, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
        unit = self.participants[head["participant_id"]]
        roll = self.maneuvering_roll(dice, unit, "control roll", self.maneuver_modifiers(unit, self.operator(unit.id), modifier))
        self.resolved(head, "in control" if roll.success else "Out of Control")
        if not roll.success:
            self.require("out of control", unit.id, during="control roll", rule="DAMAGE: a failed maneuvering roll")
        return "in control" if roll.success else "out of control"

    def _resolve_out_of_control(self, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
        vehicle = self.participants[head["participant_id"]]
        total = sum(self.roll_table(dice, self.operator(vehicle.id).id, "Out of Control", 2, 6, {"unit": vehicle.id}))
        row = out_of_control(total)
        self.resolved(head, row.name)
        self.trigger_event(self.WentOutOfControl, participant_id=vehicle.id, total=total, result={"name": row.name, "source": row.source})
        own = self.whose_turn == vehicle.id
        for p in self.members(vehicle.id):
            c = p.conditions
            if row.distracted and not p.is_vehicle:
                c = c.made_distracted(own)
            if row.vulnerable:
                c = c.made_vulnerable(own)
            self.change_conditions(p.id, c, f"Out of Control: {row.name}")
        if row.wounds == "d4":
            self.require("collision wounds", vehicle.id, rule="OUT OF CONTROL: Major Collision, d4 Wounds")
        elif row.wounds:
            self._wound_vehicle(vehicle.id, int(row.wounds), f"Out of Control: {row.name}")
        for _ in range(row.critical_hits):
            self.require("critical hit", vehicle.id, collision=row.collision, reroll_crew=row.reroll_crew, rule=f"OUT OF CONTROL: {row.name}")
        return row.name

    def _resolve_collision_wounds(self, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
        vehicle_id = head["participant_id"]
        face = self.roll_table(dice, self.operator(vehicle_id).id, "Major Collision Wounds", 1, 4, {"unit": vehicle_id})[0]
        self.resolved(head, f"{face} Wounds")
        self._wound_vehicle(vehicle_id, face, "Out of Control: Major Collision")
        return f"{face} Wounds"

    def _wound_vehicle(self, vehicle_id: str, wounds: int, cause: str) -> None:
        """Wounds from Out of Control: no further Out of Control roll (nor Bump)."""
        v = self.participants[vehicle_id]
        total = v.vehicle.wounds + wounds
        self.trigger_event(
            self.VehicleDamaged, participant_id=vehicle_id, damage=None, toughness=None,
            wounds_taken=wounds, wounds=total, wrecked=total > v.max_wounds, cause=cause,
        )
        if total > v.max_wounds:
            self.after_status_change()

    def _resolve_critical_hit(self, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
        vehicle = self.participants[head["participant_id"]]
        if not vehicle.in_chase:
            self.resolved(head, f"{vehicle.name} is {vehicle.status}")
            return "no effect"
        total = sum(self.roll_table(dice, None, "Vehicle Critical Hit", 2, 6, {"unit": vehicle.id}))
        hit = critical_hit(total, has_weapon=vehicle.weapons > 0, has_systems=vehicle.has_systems, reroll_crew=head["reroll_crew"], collision=head["collision"])
        state = vehicle.vehicle.after(hit)
        weapons = vehicle.weapons - 1 if hit.effect == "weapon" and not hit.reroll else vehicle.weapons
        result = {"name": hit.row.name, "effect": hit.effect, "reroll": hit.reroll, "occupants_shaken": hit.occupants_shaken, "source": hit.row.source}
        if hit.effect == "crew" and not hit.reroll:
            result["crew"] = "apply the damage, less the vehicle's Armor, to a random crew member (damage roll on them)"
        self.resolved(head, hit.row.name + (" (rerolled: Crew)" if hit.reroll else ""))
        self.trigger_event(self.CriticalHitTaken, participant_id=vehicle.id, total=total, result=result, vehicle=asdict(state), weapons=weapons)
        if hit.occupants_shaken:
            for p in self.occupants(vehicle.id):
                self.change_conditions(p.id, p.conditions.made_shaken(), "Critical Hit: Crew in a Collision")
        if hit.reroll:
            self.require("critical hit", vehicle.id, collision=head["collision"], reroll_crew=True, rule="OUT OF CONTROL: Glitch (reroll Crew results)")
        return hit.effect

    def _resolve_bump(self, head: dict[str, Any], *, direction: int | None, cards: int | None, deck_dice: DeckDice | None, **_: Any) -> str:
        """"BUMP": one Chase Card (a Joker Complication: up to two) the way the attacker (or GM) chooses."""
        if direction not in (1, -1):
            raise InvalidValue("direction", f"the Bump of {self._name(head)}: +1 (toward the front) or -1 (toward the rear)")
        most = head["cards"]
        moved = most if cards is None else whole("cards", cards)
        if not 1 <= moved <= most:
            raise InvalidValue("cards", f"this Bump moves {'one Chase Card' if most == 1 else 'one or two Chase Cards'}")
        self.resolved(head, f"{moved} card(s) {'toward the front' if direction > 0 else 'toward the rear'}")
        unit_id = head["participant_id"]
        if self.participants[unit_id].in_chase:
            self.move_unit(unit_id, direction * moved, "Bump", head.get("by"), deck_dice)
        return "bumped"

    def _resolve_ram_damage(self, head: dict[str, Any], *, dice: DiceSource, **_: Any) -> str:
        target_id, by = head["participant_id"], head["by"]
        total = self.roll_damage(dice, by, target_id, "Ram damage", head["expression"], raise_bonus=head["raise_bonus"], extra={"parts": head["parts"]})
        self.resolved(head, f"{total} damage")
        if self.participants[target_id].in_chase:
            self.apply_damage(target_id, total, by=by, cause="Ram")
        return f"{total} damage"

    def _resolve_chase_card(self, head: dict[str, Any], *, card: str | None, **_: Any) -> str:
        if card is None:
            raise InvalidValue("card", f"a Chase Card for the {head['end']} of the row: enter the card dealt")
        fields = self.draw_card("chase", None, card)
        self.resolved(head, fields["card"])
        self.trigger_event(self.ChaseCardDealt, end=head["end"], **fields)
        return fields["card"]
