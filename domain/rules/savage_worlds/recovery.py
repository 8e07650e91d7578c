"""Recovering from Stunned and breaking free from Bound or Entangled (procedures of both chases).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Stunned": "Victims are
Distracted until they recover"; how they recover is the core rules' ("Stunned", Savage Worlds
Adventure Edition): at the start of their turn, a Vigor roll as a free action; a success ends
Stunned, the victim staying Vulnerable until the end of their next turn; a raise ends both.
"Bound & Entangled", "Breaking Free": "Victim makes Athletics (or Str-2) roll as an action (an
opposed roll if held by a foe). Success improves Bound to Entangled, or Entangled to free. A raise
frees the victim."
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import savage_rolls
from domain.rules.savage_worlds.dice import TraitRoll, opposed
from domain.rules.savage_worlds.errors import CORE, SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.multi_actions import ActingChase, take_action

STUNNED = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Stunned; {CORE}, \"Stunned\""
BREAKING_FREE = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Bound & Entangled, Breaking Free"
STRENGTH_PENALTY = -2  # "Athletics (or Str-2)"


class RecoveringChase(savage_rolls.RollingChase, ActingChase, Protocol):
    """What recovering uses of a Savage Worlds chase (both aggregates)."""

    def acting_unit(self, participant_id: str, what: str, in_chase: bool = True) -> Any: ...


def _character_on_turn(chase: RecoveringChase, participant_id: str, what: str) -> Any:
    chase.acting_unit(participant_id, what)
    p = chase.participant(participant_id)
    if p.is_vehicle:
        raise InvalidValue("participant_id", f"a vehicle makes no {what}: name who aboard it does")
    return p


def check_recover_from_stunned(chase: RecoveringChase, participant_id: str) -> Any:
    """The guard of ``recover_from_stunned``: a Stunned character at the start of their turn."""
    p = _character_on_turn(chase, participant_id, "recovery from Stunned")
    if not p.conditions.stunned:
        raise RuleBroken(f"{p.name} is not Stunned", STUNNED)
    if chase.turn.get("actions", {}).get(p.id):
        raise RuleBroken(f"{p.name} recovers from Stunned at the start of the turn, before acting", STUNNED)
    return p


def check_break_free(chase: RecoveringChase, participant_id: str) -> Any:
    """The guard of ``break_free``: a Bound or Entangled character, not Stunned, on their turn."""
    p = _character_on_turn(chase, participant_id, "attempt to break free")
    if not (p.conditions.bound or p.conditions.entangled):
        raise RuleBroken(f"{p.name} is neither Bound nor Entangled", BREAKING_FREE)
    if p.conditions.stunned:
        raise RuleBroken(f"{p.name} is Stunned: no actions", STUNNED)
    return p


def recover_from_stunned(chase: RecoveringChase, dice: DiceSource, participant_id: str, vigor: str, modifier: int = 0) -> dict[str, Any]:
    """The Vigor roll at the start of the Stunned character's turn (a free action)."""
    p = check_recover_from_stunned(chase, participant_id)
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(p)}
    roll = savage_rolls.roll_trait(chase, dice, p.id, "recover from Stunned", vigor, mods, benny="result")
    if not roll.success:
        return {"recovered": False}
    c = replace(p.conditions, stunned=False)
    if not roll.raises:  # Vulnerable until the end of the next turn (this one ends first)
        c = c.made_vulnerable(during_own_turn=True)
    savage_rolls.change_conditions(chase, p.id, c, "recovered from Stunned" + (" with a raise" if roll.raises else ", Vulnerable a while"))
    return {"recovered": True, "vulnerable": not roll.raises}


def break_free(
    chase: RecoveringChase, dice: DiceSource, defender_dice: DiceSource | None, participant_id: str, trait_die: str, *,
    strength: bool = False, held_by: str | None = None, defender_die: str | None = None, modifier: int = 0,
    defender_modifier: int = 0, actions: int | None = None,
) -> dict[str, Any]:
    """Athletics (or Strength at -2) as an action; opposed by the foe holding the victim."""
    p = check_break_free(chase, participant_id)
    c = p.conditions
    if not isinstance(strength, bool):
        raise InvalidValue("strength", "true (Strength at -2) or false (Athletics)")
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(p), **take_action(chase, p.id, "break free", actions)}
    if strength:
        mods["Strength (Str-2)"] = STRENGTH_PENALTY
    extra: dict[str, Any] = {"held_by": held_by} if held_by else {}
    roll = savage_rolls.roll_trait(chase, dice, p.id, "break free", trait_die, mods, extra=extra, benny="result")
    success, raised = roll.success, roll.raises >= 1
    if held_by is not None:
        success, raised = _opposed_by_holder(chase, defender_dice, p.id, roll, held_by, defender_die, defender_modifier)
    if not success:
        return {"freed": False, "bound": c.bound, "entangled": c.entangled}
    freed = raised or not c.bound
    after = replace(c, bound=False, entangled=not freed)
    savage_rolls.change_conditions(chase, p.id, after, "broke free" if freed else "Bound to Entangled (breaking free)")
    return {"freed": freed, "bound": False, "entangled": not freed}


def _opposed_by_holder(
    chase: RecoveringChase, defender_dice: DiceSource | None, victim_id: str, roll: TraitRoll, held_by: str, defender_die: str | None, defender_modifier: int,
) -> tuple[bool, bool]:
    holder = chase._require_in_chase(held_by)
    if defender_die is None:
        raise InvalidValue("defender_die", f"held by a foe, breaking free is an opposed roll: give {holder.name}'s die")
    if defender_dice is None:
        raise InvalidValue("defender_table_dice", f"held by a foe, breaking free is an opposed roll: enter {holder.name}'s faces")
    dmods = {"situational": whole("defender_modifier", defender_modifier), **savage_rolls.condition_modifiers(holder)}
    hold = savage_rolls.roll_trait(chase, defender_dice, holder.id, "hold on (breaking free)", defender_die, dmods, extra={"victim": victim_id})
    outcome = opposed(roll, hold)
    return outcome.winner == "attacker", outcome.winner == "attacker" and outcome.raises >= 1
