"""Monsters' and non-player characters' missing skills (optional rule monsters): coc7e-chases.txt
"Monsters in a Chase".

For a skill with no listed value the Keeper chooses the characteristic (DEX for Jump, Swim,
Drive Auto and the like; another, such as INT for Spot Hidden) and how apt the creature is: full
for an implied aptitude, one-fifth for an implied ineptitude, half for neither. The value is
recorded as the participant's skill, so every later roll uses it.
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.recorded_chase import RecordedChase
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.participants import LIMITS, Participant

MONSTERS = f'{CHASES} "Monsters in a Chase"'
APTITUDES = {"full": 1, "half": 2, "fifth": 5}  # divisor of the characteristic; fractions round down
CHARACTERISTICS = ("STR", "CON", "SIZ", "DEX", "APP", "INT", "POW", "EDU")
KNOWN = {"DEX": "dex", "CON": "con"}  # characteristics a participant of this chase carries
MAX_SKILL_NAME = 80

Event = RecordedChase.Event


class SubstitutingChase(Protocol):
    participants: dict[str, Participant]

    def participant(self, participant_id: str) -> Participant: ...

    def require_not_ended(self) -> None: ...

    def require_optional_rule(self, name: str) -> Any: ...

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...


class SkillSubstituted(Event):
    """A skill with no listed value, taken from a characteristic by the Keeper's judgement."""

    TOPIC = "coc7e:Chase.SkillSubstituted"
    participant_id: str
    skill: str
    characteristic: str
    characteristic_value: int
    aptitude: str
    value: int

    def apply(self, chase: Any) -> None:
        chase.participants[self.participant_id].skills[self.skill] = self.value


def skill_from(characteristic_value: int, aptitude: str) -> int:
    """The skill value: the characteristic, half of it or one-fifth of it (rounded down)."""
    return characteristic_value // APTITUDES[aptitude]


def substitute_skill(
    chase: SubstitutingChase, participant_id: str, skill: str, aptitude: str, characteristic: str = "DEX", characteristic_value: int | None = None,
) -> dict[str, Any]:
    """Give a monster or non-player character a value for a skill it lacks."""
    chase.require_optional_rule("monsters")
    chase.require_not_ended()
    if not isinstance(skill, str) or not skill.strip() or len(skill) > MAX_SKILL_NAME:
        raise InvalidCommand("skill", f"a skill name of 1 to {MAX_SKILL_NAME} characters")
    if aptitude not in APTITUDES:
        raise InvalidCommand("aptitude", f"must be one of {', '.join(APTITUDES)}")
    if characteristic not in CHARACTERISTICS:
        raise InvalidCommand("characteristic", f"must be one of {', '.join(CHARACTERISTICS)}")
    p = check_substitute_skill(chase, participant_id)
    if skill in p.skills:
        raise RuleBroken(f"{p.name} has a listed {skill} of {p.skills[skill]}: the guide is for skills with no listed value", MONSTERS)
    carried = getattr(p, KNOWN[characteristic]) if characteristic in KNOWN else None
    if characteristic_value is None:
        if carried is None:
            raise InvalidCommand("characteristic_value", f"{p.name}'s {characteristic} is not recorded here: give its value")
        characteristic_value = carried
    low, high = LIMITS["dex"]
    if isinstance(characteristic_value, bool) or not isinstance(characteristic_value, int) or not low <= characteristic_value <= high:
        raise InvalidCommand("characteristic_value", f"must be a whole number from {low} to {high}")
    if carried is not None and characteristic_value != carried:
        raise InvalidCommand("characteristic_value", f"{p.name}'s {characteristic} is {carried}")
    value = skill_from(characteristic_value, aptitude)
    chase.trigger_event(
        SkillSubstituted, participant_id=p.id, skill=skill.strip(), characteristic=characteristic,
        characteristic_value=characteristic_value, aptitude=aptitude, value=value,
    )
    return {"skill": skill.strip(), "value": value}


def check_substitute_skill(chase: SubstitutingChase, participant_id: str) -> Any:
    """The guard of ``substitute_skill`` past the skill named: the rule in use, one with skills of its own."""
    chase.require_optional_rule("monsters")
    chase.require_not_ended()
    p = chase.participant(participant_id)
    if p.kind == "vehicle":
        raise RuleBroken(f"{p.name} is a vehicle: its driver's skills are used", MONSTERS)
    return p
