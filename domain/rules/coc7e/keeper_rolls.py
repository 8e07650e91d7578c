"""Skill, characteristic and dice rolls the Keeper calls for during a chase.

Percentile rolls follow domain.rules.coc7e.percentile; dice expressions (1D3, 1D4+DB) follow
domain.dice.expressions, with DB read from the roller's damage bonus (coc7e-combat.txt).
"""
from __future__ import annotations

from typing import Any

from domain.dice import DiceSource, InvalidDiceExpression, parse
from domain.rules.coc7e import percentile
from domain.rules.coc7e.errors import InvalidCommand
from domain.rules.coc7e.participants import Participant


class KeeperRolls:
    """The roll procedures of the Chase aggregate (mixed into it; events are the Chase's)."""

    rolls_made: int
    round: int

    def roll_skill(
        self,
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
        """A skill or characteristic roll by value, or by the participant's own skill."""
        self._require_not_ended()
        if target is None:
            if participant_id is None:
                raise InvalidCommand("target", "is required when no participant rolls")
            target = self._value_of(self.participant(participant_id), skill)
        elif participant_id is not None:
            self.participant(participant_id)
        record = self._roll_percentile(dice, participant_id, purpose, skill, target, difficulty=difficulty, bonus=bonus, penalty=penalty)
        self.trigger_event(self.SkillRolled, participant_id=participant_id, roll=record)
        return record

    def roll_dice(self, dice: DiceSource, expression: str, participant_id: str | None = None, purpose: str = "dice roll") -> dict[str, Any]:
        """Roll a dice expression such as 1D3 or 1D4+DB (DB from the roller's damage bonus)."""
        self._require_not_ended()
        bonus = self.participant(participant_id).damage_bonus if participant_id else None
        try:
            parsed = parse(expression, bonus)
        except InvalidDiceExpression as e:
            raise InvalidCommand("expression", str(e)) from None
        record = parsed.roll(dice, self.rolls_made + 1)
        record = {"sequence": self.rolls_made + 1, "roller": participant_id, "purpose": purpose, "round": self.round, **record}
        self.trigger_event(self.DiceRolled, participant_id=participant_id, roll=record)
        return record

    def _roll_percentile(self, dice: DiceSource, roller: str | None, purpose: str, skill: str, target: int, **kw: Any) -> dict[str, Any]:
        try:
            record = percentile.roll(dice, self.rolls_made + 1, target, **kw)
        except percentile.InvalidPercentileRoll as e:
            raise InvalidCommand("roll", str(e)) from None
        return {"sequence": self.rolls_made + 1, "roller": roller, "purpose": purpose, "skill": skill, "round": self.round, **record}

    def _value_of(self, p: Participant, skill: str) -> int:
        characteristics = {"CON": p.con, "DEX": p.dex}
        if skill in characteristics and characteristics[skill] is not None:
            return characteristics[skill]  # type: ignore[return-value]
        if skill in p.skills:
            return p.skills[skill]
        raise InvalidCommand("skill", f"{p.name} has no value for {skill}; give the target value")
