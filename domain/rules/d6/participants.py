"""A participant in a D6 race or chase: their Moves, dice, place on the course and this round.

Kept in the chase's state (and so in its snapshots) under the stable name "d6.Participant"
(application/systems/d6/__init__.py).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from domain import names
from domain.names import MAX_NAME  # noqa: F401 - MAX_NAME: the bound the API's schema takes from here
from domain.rules.d6.dice import die_code
from domain.rules.d6.errors import InvalidValue, whole
from domain.rules.d6.movement import MOVEMENT_TYPES, base_rate, metres

ROLES = ("pursuer", "quarry", "racer")
MAX_MOVE = 1000  # metres per round: faster than any character on foot or wing
MAX_FATIGUE_LIMIT = 1000  # rounds
SKILLS = (*MOVEMENT_TYPES, "stamina", "willpower")


@dataclass
class D6Participant:
    """Someone running, swimming, climbing, flying or leaping along the course."""

    id: str
    name: str
    role: str  # pursuer | quarry | racer
    move: int  # metres per round: the base (running) Move
    physique: str  # the attribute rolled for a movement without its own skill ("4D")
    skills: dict[str, str]  # movement type, stamina or willpower -> die code ("running": "4D+1")
    position: float  # metres along the course
    flying_move: int | None = None
    fatigue_limit: int | None = None  # rounds of fast movement before fatigue (the GM's; None: not tracked)
    status: str = "ready"  # ready | in_chase | caught | escaped | finished
    joined: int = 0
    rates: dict[str, float] = field(default_factory=dict)  # movement type -> last round's rate
    fast_rounds: int = 0  # rounds of fast movement in a row, this one included once moved
    running_beaten: list[int] = field(default_factory=list)  # rounds whose running difficulty was beaten
    this_round: dict[str, Any] = field(default_factory=dict)  # {"moved": [types], "fast": bool, "tripped": bool}
    caught_by: str | None = None
    finished_round: int | None = None

    @property
    def in_chase(self) -> bool:
        return self.status == "in_chase"

    def base_rate(self, movement: str) -> int | None:
        return base_rate(movement, self.move, self.flying_move, "climbing" in self.skills)

    def dice_for(self, skill: str) -> str:
        """The die code rolled: the skill's when the participant has it, else Physique."""
        return self.skills.get(skill, self.physique)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def participant_from(data: dict[str, Any]) -> D6Participant:
    return D6Participant(**{k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v) for k, v in data.items()})


def validate(spec: dict[str, Any], participant_id: str, joined: int) -> D6Participant:
    """A new participant from the GM's fields; a bad field is a 422 naming it."""
    name = names.screened_name(spec.get("name"))
    role = spec.get("role")
    if role not in ROLES:
        raise InvalidValue("role", f"must be one of {', '.join(ROLES)}")
    move = whole("move", spec.get("move"), 1, MAX_MOVE)
    flying = spec.get("flying_move")
    flying = None if flying is None else whole("flying_move", flying, 1, MAX_MOVE)
    physique = die_code(spec.get("physique"), "physique").label
    skills_in = spec.get("skills") or {}
    if not isinstance(skills_in, dict):
        raise InvalidValue("skills", "must map skills to die codes, such as {\"running\": \"4D+1\"}")
    skills = {}
    for skill, code in skills_in.items():
        if skill not in SKILLS:
            raise InvalidValue(f"skills.{skill}", f"is not a skill the movement rules roll: {', '.join(SKILLS)}")
        skills[skill] = die_code(code, f"skills.{skill}").label
    limit = spec.get("fatigue_limit")
    limit = None if limit is None else whole("fatigue_limit", limit, 0, MAX_FATIGUE_LIMIT)
    position = metres(spec.get("position", 0), "position")
    return D6Participant(
        id=participant_id, name=name.strip(), role=role, move=move, physique=physique, skills=skills,
        position=position, flying_move=flying, fatigue_limit=limit, joined=joined,
    )
