"""Hold and interrupts in an Adventure Edition chase (procedures of SwadeChase).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Hold": "The character "Holds"
her Action Card to go later in the current or later round. She loses her Hold status if Shaken or
Stunned. She may interrupt foe's actions with an opposed Athletics roll." A unit goes on Hold on
its turn instead of acting; it keeps its card across rounds and is dealt none while on Hold
(swade_aggregate.deal_action_cards). It comes off Hold to take its turn during another unit's:
before an ally's at once; before a foe's by an opposed Athletics roll (core rules "Opposed
Rolls": the holder needs a success, the foe wins ties), the winner going first. The turn it cuts
into is suspended and resumed afterwards (TurnResumed). "COMBAT OPTIONS, CONTINUED", "Surprise":
"Ambushers start on Hold" (deal_action_cards' ``ambushers``).
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.savage_worlds import condition_effects, savage_rolls
from domain.rules.savage_worlds.dice import opposed
from domain.rules.savage_worlds.errors import SWADE, InvalidValue, RuleBroken, whole
from domain.rules.savage_worlds.participants import SavageParticipant

HOLD = f"{SWADE} \"COMBAT OPTIONS & SITUATIONAL RULES\", Hold"


class HoldingChase(savage_rolls.RollingChase, Protocol):
    """What Hold uses of a SWADE chase (swade_aggregate.SwadeChase)."""

    WentOnHold: ClassVar[type]
    CameOffHold: ClassVar[type]
    TurnEnded: ClassVar[type]
    participants: dict[str, SavageParticipant]
    turn: dict[str, Any]
    evading: dict[str, int]
    holding_steady: list[str]

    def acting_unit(self, participant_id: str, what: str, in_chase: bool = True) -> SavageParticipant: ...

    def operator(self, unit_id: str) -> SavageParticipant: ...

    def advance(self, deck_dice: Any) -> None: ...



def go_on_hold(chase: HoldingChase, participant_id: str, deck_dice: Any = None) -> dict[str, Any]:
    """The unit Holds its Action Card instead of acting on it: its turn ends, the card is kept."""
    unit = chase.acting_unit(participant_id, "go on Hold")
    operator = chase.operator(unit.id)
    if operator.conditions.shaken or operator.conditions.stunned:
        raise RuleBroken(f"{operator.name} is {'Shaken' if operator.conditions.shaken else 'Stunned'} and cannot Hold", HOLD)
    turn = chase.turn
    if turn.get("changed_position") or turn.get("dropped_back") or turn.get("bumped") or turn.get("actions") \
            or unit.id in chase.evading or unit.id in chase.holding_steady:
        raise RuleBroken(f"{unit.name} has already acted this turn: Hold is instead of acting on the card", HOLD)
    chase.trigger_event(chase.WentOnHold, participant_id=unit.id, reason="holds its Action Card")
    chase.trigger_event(chase.TurnEnded, participant_id=unit.id, reason="on Hold")
    chase.advance(deck_dice)
    return {"on_hold": True}


def check_act_from_hold(chase: HoldingChase, participant_id: str) -> SavageParticipant:
    """The guard of ``act_from_hold``: a unit on Hold, and a turn under way to go before."""
    chase._require_running()
    chase._require_nothing_pending()
    unit = chase._require_in_chase(chase.unit_of(participant_id))
    if not unit.on_hold:
        raise RuleBroken(f"{unit.name} is not on Hold", HOLD)
    if chase.whose_turn is None:
        raise RuleBroken("no turn is under way to go before: deal the next round's Action cards (a unit on Hold keeps its card)", HOLD)
    return unit


def act_from_hold(
    chase: HoldingChase, dice: DiceSource | None, defender_dice: DiceSource | None, participant_id: str, *,
    trait_die: str | None = None, defender_die: str | None = None, modifier: int = 0, defender_modifier: int = 0,
) -> dict[str, Any]:
    """The unit on Hold takes its turn now, during another unit's turn: before an ally's at once,
    or interrupting a foe's by opposed Athletics rolls of the two operators (the winner first)."""
    unit = check_act_from_hold(chase, participant_id)
    current_id = chase.whose_turn
    current = chase.participants[current_id]
    operator = chase.operator(unit.id)
    condition_effects.require_able(operator, "act", moves=False)
    if current.role == unit.role:
        chase.trigger_event(chase.CameOffHold, participant_id=unit.id, during=current_id, first=True, interrupt=False)
        chase.advance(None)
        return {"first": True}
    if trait_die is None or defender_die is None:
        field = "trait_die" if trait_die is None else "defender_die"
        raise InvalidValue(field, "interrupting a foe is an opposed Athletics roll: give both Athletics dice")
    if dice is None or defender_dice is None:
        raise InvalidValue("table_dice", "interrupting a foe is an opposed Athletics roll: enter both rolls' faces")
    foe = chase.operator(current_id)
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(operator)}
    foe_mods = {"situational": whole("defender_modifier", defender_modifier), **savage_rolls.condition_modifiers(foe)}
    mine = savage_rolls.roll_trait(chase, dice, operator.id, "interrupt (Hold): Athletics", trait_die, mods, extra={"against": foe.id}, benny="played")
    theirs = savage_rolls.roll_trait(chase, defender_dice, foe.id, "resist an interrupt (Hold): Athletics", defender_die, foe_mods, extra={"against": operator.id}, benny="played")
    first = opposed(mine, theirs).winner == "attacker"
    chase.trigger_event(chase.CameOffHold, participant_id=unit.id, during=current_id, first=first, interrupt=True)
    chase.advance(None)
    return {"first": first, "interrupt": mine.total, "resist": theirs.total}
