"""Rolls in a D6 chase that move no one: overcoming fatigue, and any roll the GM calls for.

Every roll takes the chase's next sequence number and is recorded whole (dice.py); the GM's
choice for a 1 on the Wild Die is the chase's unless the command gives its own (DICE).
"""
from __future__ import annotations

from typing import Any, ClassVar, Protocol

from domain.dice import DiceSource
from domain.rules.d6.dice import D6Roll, die_code, roll, wild_die_one
from domain.rules.d6.errors import InvalidValue, RuleBroken, rule, whole
from domain.rules.d6.movement import FATIGUE_BASE, fatigue_modifier
from domain.rules.d6.participants import D6Participant

MAX_DIFFICULTY = 1000
MAX_MODIFIER = 100


class RollingChase(Protocol):
    """What the roll procedures use of a D6 chase (chase.D6Chase)."""

    FatigueRolled: ClassVar[type]
    SkillRolled: ClassVar[type]
    rolls_made: int
    round: int
    settings: dict[str, Any]

    def participant(self, participant_id: str) -> D6Participant: ...

    def require_running(self) -> None: ...

    def require_in_chase(self, participant_id: str) -> D6Participant: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


def the_one(chase: RollingChase, choice: str | None) -> str:
    """The GM's choice for a first-roll 1 on the Wild Die: the command's, else the chase's."""
    return wild_die_one(choice) if choice is not None else str(chase.settings.get("wild_die_one", "remove"))


def make_roll(
    chase: RollingChase, dice: DiceSource | None, roller_id: str | None, purpose: str, code: str, *,
    difficulty: int | None, one: str, bonus: dict[str, int] | None = None, extra: dict[str, Any] | None = None,
) -> tuple[D6Roll, dict[str, Any]]:
    """Roll a die code for the chase's next sequence number; returns the roll and its record."""
    if dice is None:
        raise InvalidValue("table_dice", "this roll uses table dice: enter the faces (ordinary dice, the Wild Die, then each reroll after a 6)")
    sequence = chase.rolls_made + 1
    made = roll(dice, sequence, die_code(code), one=one, difficulty=difficulty, bonus=bonus)
    record = {"sequence": sequence, "roller": roller_id, "purpose": purpose, "round": chase.round, **made.record(), **(extra or {})}
    return made, record


def check_fatigue_roll(chase: RollingChase, participant_id: str) -> tuple[D6Participant, int]:
    """The guard of ``fatigue_roll``: someone in the chase with a fatigue modifier to overcome."""
    chase.require_running()
    p = chase.require_in_chase(participant_id)
    fatigue = fatigue_modifier(p.fast_rounds, p.fatigue_limit)
    if not fatigue:
        raise RuleBroken(f"{p.name} has no fatigue modifier to overcome", rule("Accelerating and Decelerating", "fatigue"))
    return p, fatigue


def fatigue_roll(
    chase: RollingChase, dice: DiceSource | None, participant_id: str, skill: str = "stamina", *, modifier: int = 0,
    one: str | None = None,
) -> bool:
    """Stamina or willpower against 5 plus the fatigue modifier; beaten, the fatigue is overcome:
    the rounds of fast movement are counted afresh (the GM's limit applies anew)."""
    p, fatigue = check_fatigue_roll(chase, participant_id)
    if skill not in ("stamina", "willpower"):
        raise InvalidValue("skill", "fatigue is overcome with stamina or willpower")
    whole("modifier", modifier, -MAX_MODIFIER, MAX_MODIFIER)
    difficulty = FATIGUE_BASE + fatigue + modifier
    made, record = make_roll(
        chase, dice, participant_id, f"overcome fatigue ({skill})", p.dice_for(skill), difficulty=difficulty,
        one=the_one(chase, one), extra={"difficulty_parts": {"base": FATIGUE_BASE, "fatigue": fatigue, "gm": modifier}},
    )
    overcome = bool(made.success)
    chase.trigger_event(chase.FatigueRolled, participant_id=participant_id, roll=record, overcome=overcome, fast_rounds=0 if overcome else p.fast_rounds)
    return overcome


def skill_roll(
    chase: RollingChase, dice: DiceSource | None, participant_id: str | None, *, code: str | None = None, skill: str | None = None,
    difficulty: int | None = None, purpose: str = "skill roll", one: str | None = None,
) -> int:
    """Any roll the GM calls for ("Other Movement Options": an additional related skill roll):
    a participant's skill (or Physique), or a die code, against a difficulty or read by its total."""
    chase.require_running()
    if participant_id is not None:
        p = chase.participant(participant_id)
        code = code or (p.dice_for(skill) if skill else p.physique)
    if code is None:
        raise InvalidValue("code", "give the die code to roll (or a participant whose skill is rolled)")
    if difficulty is not None:
        whole("difficulty", difficulty, 0, MAX_DIFFICULTY)
    made, record = make_roll(chase, dice, participant_id, purpose, code, difficulty=difficulty, one=the_one(chase, one), extra={"skill": skill})
    chase.trigger_event(chase.SkillRolled, participant_id=participant_id, roll=record)
    return made.total
