"""Skill, characteristic and dice rolls the Keeper calls for during a chase.

Percentile rolls follow domain.rules.coc7e.percentile; dice expressions (1D3, 1D4+DB) follow
domain.dice.expressions, with DB read from the roller's damage bonus (coc7e-combat.txt).
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from domain.dice import DiceExpression, DiceSource, InvalidDiceExpression, parse
from domain.rules.coc7e import chase_events, percentile
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.participants import Participant

# Dice for a command that makes several rolls: called with the roll's name ("attack", "damage",
# "occupants.<id>") and the dice it takes ("1D6"), it gives that roll's dice source. The
# application builds one from the table dice entered for each roll, or the server dice.
RollSources = Callable[[str, str], DiceSource]


def same_dice(dice: DiceSource) -> RollSources:
    """Every roll of a command from one dice source (server dice, or tests)."""
    return lambda name, needs: dice


def percentile_needs(bonus: int = 0, penalty: int = 0) -> str:
    """What a percentile roll takes, in words, for a request for its table dice."""
    tens = len(percentile.dice_for(bonus, penalty)) - 1
    return f"d100: {tens} tens {'die' if tens == 1 else 'dice'} (00-90) then the units die (0-9)"


class RollingChase(Protocol):
    """What the roll procedures use of a chase (domain.rules.coc7e.chase.Chase)."""

    rolls_made: int
    round: int

    def participant(self, participant_id: str) -> Participant: ...

    def driver_of(self, vehicle_id: str) -> Participant | None: ...

    def require_not_ended(self) -> None: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def roll_skill(
    chase: RollingChase,
    dice: DiceSource,
    participant_id: str | None,
    skill: str,
    target: int | None = None,
    *,
    difficulty: str = "regular",
    bonus: int = 0,
    penalty: int = 0,
    purpose: str = "skill roll",
) -> dict[str, Any]:
    """A skill or characteristic roll by value, or by the participant's own skill.

    A vehicle's roll is its driver's (their driving skill); an impaired vehicle's penalty die
    goes on every roll of its driving skill, made for the vehicle or by its driver
    (coc7e-chases.txt "Vehicle Reference Charts", notes: "all Drive Auto (or appropriate skill) rolls").
    """
    chase.require_not_ended()
    roller_id = participant_id
    if participant_id is None:
        if target is None:
            raise InvalidCommand("target", "is required when no participant rolls")
    else:
        p = chase.participant(participant_id)
        roller, target = roller_value(chase, p, skill, target)
        roller_id = roller.id
        impaired = impaired_penalty(p, skill) + driven_penalty(chase, p, skill)
        penalty = penalty + impaired if impaired else penalty
    record = roll_percentile(chase, dice, roller_id, purpose, skill, target, difficulty=difficulty, bonus=bonus, penalty=penalty)
    chase.trigger_event(chase_events.SkillRolled, participant_id=participant_id, roll=record)
    return record


def roll_dice(chase: RollingChase, dice: DiceSource, expression: str, participant_id: str | None = None, purpose: str = "dice roll") -> dict[str, Any]:
    """Roll a dice expression such as 1D3 or 1D4+DB (DB from the roller's damage bonus)."""
    chase.require_not_ended()
    bonus = chase.participant(participant_id).damage_bonus if participant_id else None
    try:
        parsed = parse(expression, bonus)
    except InvalidDiceExpression as e:
        raise InvalidCommand("expression", str(e)) from None
    record = parsed.roll(dice, chase.rolls_made + 1)
    record = {"sequence": chase.rolls_made + 1, "roller": participant_id, "purpose": purpose, "round": chase.round, **record}
    chase.trigger_event(chase_events.DiceRolled, participant_id=participant_id, roll=record)
    return record


def skill_roll(
    chase: RollingChase, dice: RollSources, name: str, participant_id: str | None, roller_id: str | None, purpose: str, skill: str, target: int,
    malfunction: int | None = None, **kw: Any,
) -> dict[str, Any]:
    """One percentile roll of a several-roll command, recorded as SkillRolled; a gun's attack roll
    records the gun's ``malfunction`` number, which its exact odds read (odds.py)."""
    try:
        needs = percentile_needs(kw.get("bonus", 0), kw.get("penalty", 0))
    except percentile.InvalidPercentileRoll as e:
        raise InvalidCommand("roll", str(e)) from None
    record = roll_percentile(chase, dice(name, needs), roller_id, purpose, skill, target, **kw)
    if malfunction is not None:
        record["malfunction"] = malfunction
    chase.trigger_event(chase_events.SkillRolled, participant_id=participant_id, roll=record)
    return record


def parse_expression(expression: str, roller: Participant | None, field: str = "damage") -> DiceExpression:
    try:
        return parse(expression, roller.damage_bonus if roller else None)
    except InvalidDiceExpression as e:
        raise InvalidCommand(field, str(e)) from None


def amount_roll(
    chase: RollingChase, dice: RollSources, name: str, expression: str, participant_id: str | None, purpose: str, roller: Participant | None = None
) -> tuple[int, dict[str, Any] | None]:
    """Roll damage (or lost movement actions) as DiceRolled; the amount is never below 0.

    An expression without dice (a bicycle's "0" damage) rolls nothing and records nothing.
    """
    parsed = parse_expression(expression, roller)
    if not parsed.terms:
        return max(0, parsed.modifier), None
    sequence = chase.rolls_made + 1
    record = parsed.roll(dice(name, parsed.text), sequence)
    record = {"sequence": sequence, "roller": roller.id if roller else participant_id, "purpose": purpose, "round": chase.round, **record}
    chase.trigger_event(chase_events.DiceRolled, participant_id=participant_id, roll=record)
    return max(0, record["total"]), record


def roll_percentile(chase: RollingChase, dice: DiceSource, roller: str | None, purpose: str, skill: str, target: int, **kw: Any) -> dict[str, Any]:
    try:
        record = percentile.roll(dice, chase.rolls_made + 1, target, **kw)
    except percentile.InvalidPercentileRoll as e:
        raise InvalidCommand("roll", str(e)) from None
    return {"sequence": chase.rolls_made + 1, "roller": roller, "purpose": purpose, "skill": skill, "round": chase.round, **record}


def value_of(p: Participant, skill: str) -> int:
    characteristics = {"CON": p.con, "DEX": p.dex}
    if skill in characteristics and characteristics[skill] is not None:
        return characteristics[skill]  # type: ignore[return-value]
    if skill in p.skills:
        return p.skills[skill]
    raise InvalidCommand("skill", f"{p.name} has no value for {skill}; give the target value")


def roller_value(chase: RollingChase, p: Participant, skill: str, target: int | None) -> tuple[Participant, int]:
    """Who rolls for ``p`` (a vehicle's driver) and the value rolled against."""
    roller = p
    if p.kind == "vehicle":
        driver = chase.driver_of(p.id)
        if driver is None:
            raise RuleBroken(f"{p.name} has no driver", f"{CHASES} \"Passengers\"")
        roller = driver
    if target is not None:
        if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 999:
            raise InvalidCommand("target", "must be a whole number from 0 to 999")
        return roller, target
    return roller, value_of(roller, skill)


def driven_penalty(chase: RollingChase, p: Participant, skill: str) -> int:
    """The impaired vehicle's penalty die on its driver's own roll of the vehicle's driving skill."""
    if p.seat != "driver" or p.vehicle is None:
        return 0
    return impaired_penalty(chase.participant(p.vehicle), skill)


def impaired_penalty(p: Participant, skill: str) -> int:
    """"impaired; one penalty die is applied to all Drive Auto (or appropriate skill) rolls"."""
    return 1 if p.kind == "vehicle" and p.condition == "impaired" and skill == p.driving_skill else 0
