"""The typed inputs and outcomes of the D6 commands (commands.py), bounds from the domain's
constants (d6-movement.txt). Each input field says who may supply it: the GM's modifiers and
rulings are the Keeper's (``supplied_by=KEEPER``), the rest the acting participant's player's."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from application.access import KEEPER
from application.declared import Arg, arg
from application.permissions import absent
from domain.rules.d6.dice import DEFAULT_WILD_DIE_ONE, MAX_DICE, WILD_DIE_ONE
from domain.rules.d6.movement import MAX_METRES, MOVEMENT_TYPES, RUNNING_START_ROUNDS, TERRAIN
from domain.rules.d6.moving import ON_FAILURE
from domain.rules.d6.participants import MAX_FATIGUE_LIMIT, MAX_MOVE, MAX_NAME, ROLES, SKILLS
from domain.rules.d6.rolls import MAX_DIFFICULTY, MAX_MODIFIER
from domain.rules.d6.rounds import MAX_STRETCHES, MAX_TERRAIN_MODIFIER
from domain.rules.d6.verification import KIND

ROLL = KIND  # the one kind of roll D6 commands make: a die code with the Wild Die (domain/rules/d6/dice.py)
CODE = Arg(pattern=r"^\s*\d{1,3}\s*[dD]\s*([+-]\s*\d{1,2})?\s*$", pattern_error=f"a die code such as 4D+1 (1 to {MAX_DICE} dice, pips -2 to +2)")
METRES = "metres, whole or half"
ONE = f"the GM's choice for a 1 on the Wild Die's first roll: {', '.join(WILD_DIE_ONE)} (default: the chase's)"
# d6-movement.txt "Other Movement Options": the GM's extra modifier to the difficulty; what a first-roll 1 of the Wild Die does is the GM's call
MODIFIER = Arg(
    low=-MAX_MODIFIER, high=MAX_MODIFIER, supplied_by=KEEPER, ruling="give modifiers",
    description="the GM's extra modifier to the difficulty (winds, obstacles, slick surfaces, sharp turns)",
)
WILD_DIE = Arg(choices=WILD_DIE_ONE, description=ONE, supplied_by=KEEPER, ruling="rule on the Wild Die")


@dataclass(frozen=True)
class D6ParticipantCreate:
    name: str = arg(length=(1, MAX_NAME))
    role: str = arg(choices=ROLES)
    move: int = arg(low=1, high=MAX_MOVE, description="the Move: metres per round")
    physique: str = arg(like=CODE, description="the attribute rolled for a movement without its skill", example="3D")
    flying_move: int | None = arg(None, low=1, high=MAX_MOVE)
    skills: Mapping[str, str] = arg(
        default_factory=dict, key_choices=SKILLS, item=CODE, example={"running": "4D+1"},
        description="die codes by skill; climbing here is the climbing skill (full Move up a surface)",
    )
    fatigue_limit: int | None = arg(None, low=0, high=MAX_FATIGUE_LIMIT, description="rounds of fast movement before the fatigue modifier (the GM's; null: not tracked)")
    position: float = arg(0, low=0, high=MAX_METRES, description=METRES)


@dataclass(frozen=True)
class Stretch:
    start: float = arg(key="from", low=0, high=MAX_METRES, description=METRES)
    to: float = arg(low=0, high=MAX_METRES, description=METRES)
    terrain: str = arg(choices=tuple(TERRAIN), description="Movement Difficulty Modifiers: " + ", ".join(f"{k} +{v}" for k, v in TERRAIN.items()))
    modifier: int | None = arg(None, null=False, low=0, high=MAX_TERRAIN_MODIFIER, description="very hazardous only: +25 or more")
    note: str = arg("", length=(0, 200))

    def as_course(self) -> dict[str, object]:
        """The stretch as the course's procedure reads it (domain/rules/d6/rounds.py): a modifier
        left out is the terrain's own."""
        out: dict[str, object] = {"from": self.start, "to": self.to, "terrain": self.terrain, "note": self.note}
        if self.modifier is not None:
            out["modifier"] = self.modifier
        return out


@dataclass(frozen=True)
class D6Begin:
    finish: float | None = arg(None, low=0.5, high=MAX_METRES, description=METRES)
    terrain: tuple[Stretch, ...] = arg((), length=(0, MAX_STRETCHES))
    wild_die_one: str = arg(DEFAULT_WILD_DIE_ONE, choices=WILD_DIE_ONE, description=ONE)
    acceleration: bool = arg(False, description="Accelerating and Decelerating: the limits on changing rate")
    speed_limit: bool = arg(False, description="Maximum Movement: at most 4 times each type's Move")


@dataclass(frozen=True)
class D6Move:
    movement: str = arg(choices=MOVEMENT_TYPES)
    rate: float = arg(low=0.5, high=MAX_METRES, description="metres this round (a leap: its distance), whole or half")
    modifier: int = arg(0, like=MODIFIER)
    on_failure: str | None = arg(
        None, choices=ON_FAILURE, supplied_by=KEEPER, ruling="rule on failures",
        description="the GM's ruling on a failed roll: move (the rules' default) or trip",
    )
    wild_die_one: str | None = arg(None, like=WILD_DIE)
    running_start: int = arg(0, low=0, high=RUNNING_START_ROUNDS, description="leaping: rounds of running start (+5 each)")


@dataclass(frozen=True)
class D6FatigueRoll:
    skill: str = arg("stamina", choices=("stamina", "willpower"))
    modifier: int = arg(0, like=MODIFIER)
    wild_die_one: str | None = arg(None, like=WILD_DIE)


@dataclass(frozen=True)
class D6SkillRoll:
    participant_id: str | None = arg(None, length=(1, 100), supplied_by=KEEPER, ruling="roll for no one", sent=absent)
    code: str | None = arg(None, like=CODE)
    skill: str | None = arg(None, choices=SKILLS)
    difficulty: int | None = arg(None, low=0, high=MAX_DIFFICULTY)
    purpose: str = arg("skill roll", length=(1, 200))
    wild_die_one: str | None = arg(None, like=WILD_DIE)


@dataclass(frozen=True)
class D6FatigueLimit:
    fatigue_limit: int | None = arg(
        low=0, high=MAX_FATIGUE_LIMIT,
        description="rounds of fast movement before the fatigue modifier, as the GM now rules (null: not tracked)",
    )


# -- outcomes: what each command decided, in the game's words ------------------------------------


@dataclass(frozen=True)
class ParticipantAdded:
    participant_id: str


@dataclass(frozen=True)
class Moved:
    metres: float  # the metres covered (d6-movement.txt: a failed roll covers only the Move, or trips)


@dataclass(frozen=True)
class FatigueOvercome:
    overcome: bool


@dataclass(frozen=True)
class SkillTotal:
    total: int


@dataclass(frozen=True)
class Caught:
    participant_id: str
    by: str


@dataclass(frozen=True)
class RoundOver:
    caught: tuple[Caught, ...]
    escaped: tuple[str, ...]
    finished: tuple[str, ...]


@dataclass(frozen=True)
class FatigueNow:
    fatigue_limit: int | None
    modifier: int  # the fatigue modifier the participant has now, under the new limit
