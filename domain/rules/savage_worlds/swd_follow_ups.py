"""What the Deluxe rules call for next in a round, resolved one at a time (SwdChase's procedures).

swd-chases.txt: "Get an Action card" (the cards a maneuver roll earned, dealt from a physical
deck; the one card kept of several) and "Resolve Actions" (recovering from Shaken, the Complication
of a Club, an obstacle to avoid, its damage, the Out-of-Control roll of a participant who became
Shaken and its collision damage, swd_out_of_control.py). Each is a follow-up (savage_base.py), resolved in the
order it arose; the round then goes on as far as it can (swd_aggregate.SwdChase.continue_round).
"""
from __future__ import annotations

from typing import Any, Callable

from domain.dice import DiceSource, InvalidTableDice, TableDice
from domain.rules.savage_worlds import savage_rolls, swd_actions
from domain.rules.savage_worlds import swd_out_of_control as ooc
from domain.rules.savage_worlds import swd_chase as rules
from domain.rules.savage_worlds.cards import card as read_card
from domain.rules.savage_worlds.errors import InvalidValue, whole
from domain.rules.savage_worlds.savage_decks import DeckDice

ROLLS = {
    "recover from shaken": "a Spirit roll", "complication": "a maneuver roll", "obstacle": "a maneuver roll", "obstacle damage": "the damage dice",
    "out of control": "2d6 on the Out of Control table", "collision damage": "the damage dice",
}

STAYED_SHAKEN = "stayed Shaken"  # the reason recorded by AttackBarred

# The follow-ups use what the Deluxe round's actions use of a chase.
DeluxeChase = swd_actions.DeluxeChase


# -- follow-ups ------------------------------------------------------------------------

def resolve(
    chase: DeluxeChase, dice: DiceSource | None, *, card: str | None = None, cards: list[str] | None = None, modifier: int = 0,
    expression: str | None = None, trait_die: str | None = None, deck_dice: DeckDice | None = None, heavy: bool = False,
) -> dict[str, Any]:
    """Resolve the first follow-up waiting: deal or keep cards, recover, a Complication, an obstacle."""
    head = chase.next_follow_up()
    kind = head["kind"]
    name = chase.participants[head["participant_id"]].name
    if kind in ROLLS and dice is None:
        raise InvalidTableDice(f"the {kind} of {name} is {ROLLS[kind]}: enter the faces rolled")
    if kind not in ROLLS and isinstance(dice, TableDice):
        raise InvalidValue("table_dice", f"the {kind} takes no roll")
    outcome = RESOLVERS[kind](
        chase, head, dice=dice, card=card, cards=cards, modifier=modifier, expression=expression, trait_die=trait_die, deck_dice=deck_dice,
        heavy=heavy,
    )
    chase.continue_round(deck_dice)
    return {"follow_up": head, "outcome": outcome}


def _resolve_deal_action_cards(chase: DeluxeChase, head: dict[str, Any], *, cards: list[str] | None, card: str | None, **_: Any) -> str:
    if cards is None:
        raise InvalidValue("cards", f"enter the {head['count']} Action card(s) dealt")
    chase.resolved(head, ", ".join(cards))
    swd_actions.deal_earned(chase, head["participant_id"], head["count"], cards, card, None)
    return "dealt"


def _resolve_keep_card(chase: DeluxeChase, head: dict[str, Any], *, card: str | None, **_: Any) -> str:
    chase.resolved(head, card or "the highest")
    swd_actions.keep_one(chase, head["participant_id"], card or rules.keep_card([read_card(c) for c in head["cards"]]).code)
    return chase.action_cards[head["participant_id"]][0]


def _resolve_recover_from_shaken(chase: DeluxeChase, head: dict[str, Any], *, dice: DiceSource, modifier: int, trait_die: str | None, **_: Any) -> str:
    p = chase.participant(head["participant_id"])
    if not p.conditions.shaken or not p.in_chase:
        chase.resolved(head, "no longer Shaken")
        return "no longer Shaken"
    roll = savage_rolls.recover_from_shaken(chase, dice, p.id, trait_die, modifier)
    chase.resolved(head, "recovered" if roll.success else "still Shaken")
    if not roll.success and head["when"] == "turn":
        chase.trigger_event(chase.AttackBarred, participant_id=p.id, reason=STAYED_SHAKEN)
    return "recovered" if roll.success else "still Shaken"


def recovered_by_benny(chase: DeluxeChase, participant_id: str) -> None:
    """"Resolve Actions": "If they stay Shaken, they cannot take any other non-Free actions this
    round" -- one whose failed recovery a benny's reroll turned into a success did not stay
    Shaken, so the bar that failure raised is lifted (swd-chases.txt)."""
    if chase.barred.get(participant_id) == STAYED_SHAKEN:
        chase.trigger_event(chase.AttackBarLifted, participant_id=participant_id, reason="recovered from Shaken (a benny's reroll)")


def _resolve_complication(chase: DeluxeChase, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
    unit = chase.participant(head["participant_id"])
    operator = chase.operator(unit.id)
    row = rules.complication(read_card(head["card"]))
    mods = {"situational": whole("modifier", modifier), "Complication": row.modifier, **savage_rolls.condition_modifiers(operator, True)}
    roll = savage_rolls.roll_trait(chase, dice, operator.id, f"Complication: {row.name}", savage_rolls.maneuver_die(operator), mods, extra={"unit": unit.id, "action_card": head["card"]})
    result = "avoided" if roll.success else row.failure
    chase.resolved(head, result)
    chase.trigger_event(
        chase.ComplicationFaced, participant_id=unit.id, card=head["card"],
        complication={"name": row.name, "modifier": row.modifier, "failure": row.failure, "source": row.source}, result=result,
    )
    if roll.success:
        return result
    if row.name == "Disaster":
        chase.trigger_event(chase.AttackBarred, participant_id=operator.id, reason="failed a Disaster")
        chase.trigger_event(chase.StatusChanged, participant_id=unit.id, status="out", reason="failed a Disaster Complication")
        chase.after_status_change()
    else:
        swd_actions.obstacle_hit(chase, unit.id, f"Complication: {row.name}")
    return result


def _resolve_obstacle(chase: DeluxeChase, head: dict[str, Any], *, dice: DiceSource, modifier: int, **_: Any) -> str:
    unit = chase.participant(head["participant_id"])
    operator = chase.operator(unit.id)
    mods = {"situational": whole("modifier", modifier), **savage_rolls.condition_modifiers(operator, True)}
    roll = savage_rolls.roll_trait(chase, dice, operator.id, "avoid an obstacle", savage_rolls.maneuver_die(operator), mods, extra={"unit": unit.id})
    chase.resolved(head, "avoided" if roll.success else "hit the obstacle")
    if not roll.success:
        swd_actions.obstacle_hit(chase, unit.id, "Force")
    return "avoided" if roll.success else "hit the obstacle"


def _resolve_obstacle_damage(chase: DeluxeChase, head: dict[str, Any], *, dice: DiceSource, expression: str | None, **_: Any) -> str:
    unit_id = head["participant_id"]
    total = savage_rolls.roll_damage(chase, dice, None, unit_id, "obstacle damage", expression or head["expression"], extra={"why": head["why"]})
    chase.resolved(head, f"{total} damage")
    if chase.participants[unit_id].in_chase:
        savage_rolls.apply_damage(chase, unit_id, total, by=None, cause=f"an obstacle ({head['why']})")
    return f"{total} damage"


def became_shaken(chase: DeluxeChase, participant_id: str, reason: str) -> None:
    """The participant who makes a unit's rolls became Shaken: an Out-of-Control roll waits
    (swd_out_of_control.py). A passenger makes no roll for the unit."""
    p = chase.participant(participant_id)
    unit_id = chase.unit_of(participant_id)
    if chase.phase != "running" or not p.in_chase or chase.operator(unit_id).id != p.id:
        return
    chase.require("out of control", unit_id, why=reason, rule=ooc.SHAKEN_RULE)


def _resolve_out_of_control(chase: DeluxeChase, head: dict[str, Any], *, dice: DiceSource, heavy: bool, **_: Any) -> str:
    unit = chase.participant(head["participant_id"])
    if not isinstance(heavy, bool):
        raise InvalidValue("heavy", "must be true or false")
    roller = chase.operator(unit.id)
    faces = savage_rolls.roll_table(chase, dice, roller.id, "Out of Control", 2, 6, extra={"unit": unit.id, "why": head["why"], "table": ooc.OUT_OF_CONTROL})
    row = ooc.out_of_control(sum(faces), heavy and unit.is_vehicle)
    chase.resolved(head, row.name)
    result = {"name": row.name, "effect": row.effect, "source": row.source, "why": head["why"]}
    chase.trigger_event(chase.WentOutOfControl, participant_id=unit.id, total=sum(faces), result=result)
    if row.collision and unit.is_vehicle and unit.in_chase:
        dice_of = swd_actions.collision_dice(unit.speed(), half=False)
        for target in (unit, *chase.occupants(unit.id)):
            chase.require("collision damage", target.id, expression=dice_of, why=f"Out of Control: {row.name}", rule=f"Resolve Actions: Out of Control, {row.name}")
    return row.name


def _resolve_collision_damage(chase: DeluxeChase, head: dict[str, Any], *, dice: DiceSource, expression: str | None, **_: Any) -> str:
    target_id = head["participant_id"]
    total = savage_rolls.roll_damage(chase, dice, None, target_id, "collision damage", expression or head["expression"], extra={"why": head["why"]})
    chase.resolved(head, f"{total} damage")
    if chase.participants[target_id].in_chase:
        savage_rolls.apply_damage(chase, target_id, total, by=None, cause=head["why"])
    return f"{total} damage"


# Each kind of follow-up (savage_base.SavageChase.require) and what resolves it.
RESOLVERS: dict[str, Callable[..., str]] = {
    "deal action cards": _resolve_deal_action_cards,
    "keep card": _resolve_keep_card,
    "recover from shaken": _resolve_recover_from_shaken,
    "complication": _resolve_complication,
    "obstacle": _resolve_obstacle,
    "obstacle damage": _resolve_obstacle_damage,
    "out of control": _resolve_out_of_control,
    "collision damage": _resolve_collision_damage,
}
