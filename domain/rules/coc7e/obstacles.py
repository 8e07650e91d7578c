"""Hazards and barriers between two adjacent locations: coc7e-chases.txt part 3.

A hazard or barrier sits between ``from_location`` and the next location (``from_location + 1``):
it is met on the way from one to the other ("Hazards": "a hazard is written in the space between
two dots"). The Keeper names the skill or choice of skills and the difficulty ("Skills and
Hazards"); a barrier may have hit points to break it down ("Breaking Down Barriers").
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from domain.rules.coc7e import percentile, vehicles
from domain.rules.coc7e.damage import (
    DEFAULT,
    NO_CONSEQUENCES,
    Consequences,
    consequences,
)
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken

HAZARDS = f'{CHASES} "Hazards"'
SKILLS_AND_HAZARDS = f'{CHASES} "Skills and Hazards"'
BARRIERS = f'{CHASES} "Barriers"'  # the book's heading; the extract lost it (text before "Skills and Barriers")
BREAKING = f'{CHASES} "Breaking Down Barriers"'
SAMPLE_BARRIERS = f'{CHASES} "Sample Barriers and Hit Points"'

# The three levels a hazard or barrier comes in ("Random Hazards and Barriers").
DIFFICULTIES = ("regular", "hard", "extreme")
MAX_CAUTION = 2  # "1 movement action buys 1 bonus die ... (2 bonus dice is the maximum)"
MOVE_COST = 1  # "the cost of moving from one location to the next is 1 movement action"


@dataclass(frozen=True)
class Obstacle:
    """Between ``from_location`` and ``to_location``; negotiated with one of ``skills``."""

    name: str
    from_location: int
    skills: tuple[str, ...]
    difficulty: str = "regular"

    @property
    def to_location(self) -> int:
        return self.from_location + 1


@dataclass(frozen=True)
class Hazard(Obstacle):
    """Slows and may harm those crossing it; pass or fail, they move on to the next location."""

    kind = "hazard"


@dataclass(frozen=True)
class Barrier(Obstacle):
    """Blocks progress until negotiated or broken down; ``hit_points`` None: cannot be broken."""

    hit_points: int | None = None
    starting_hit_points: int | None = None

    kind = "barrier"

    @property
    def destroyed(self) -> bool:
        """"When a barrier is reduced to 0 hit points it is no longer a barrier"."""
        return self.hit_points == 0

    @property
    def blocks(self) -> bool:
        return not self.destroyed


def _checked(name: str, from_location: int, skills: tuple[str, ...] | list[str] | str, difficulty: str) -> tuple[str, tuple[str, ...]]:
    if not isinstance(name, str) or not name.strip():
        raise InvalidCommand("name", "is required")
    if isinstance(from_location, bool) or not isinstance(from_location, int):
        raise InvalidCommand("from_location", "must be a whole number")
    chosen = (skills,) if isinstance(skills, str) else tuple(skills)
    if not chosen or any(not isinstance(s, str) or not s.strip() for s in chosen):
        raise InvalidCommand("skills", f"the Keeper names a skill or choice of skills ({SKILLS_AND_HAZARDS})")
    if difficulty not in DIFFICULTIES:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(DIFFICULTIES)}")
    return name.strip(), tuple(s.strip() for s in chosen)


def hazard(name: str, from_location: int, skills: tuple[str, ...] | list[str] | str, difficulty: str = "regular") -> Hazard:
    """A hazard between ``from_location`` and the next location."""
    name, chosen = _checked(name, from_location, skills, difficulty)
    return Hazard(name, from_location, chosen, difficulty)


def barrier(
    name: str,
    from_location: int,
    skills: tuple[str, ...] | list[str] | str,
    difficulty: str = "regular",
    hit_points: int | None = None,
) -> Barrier:
    """A barrier between ``from_location`` and the next location."""
    name, chosen = _checked(name, from_location, skills, difficulty)
    if hit_points is not None and (isinstance(hit_points, bool) or not isinstance(hit_points, int) or hit_points < 1):
        raise InvalidCommand("hit_points", "must be a whole number, 1 or more (or none: it cannot be broken down)")
    return Barrier(name, from_location, chosen, difficulty, hit_points, hit_points)


# -- Sample barriers (data) --------------------------------------------------------------------


@dataclass(frozen=True)
class BarrierPreset:
    name: str
    hit_points: int
    source: str = SAMPLE_BARRIERS


BARRIER_PRESETS: tuple[BarrierPreset, ...] = (
    BarrierPreset("Internal door or thin wooden fence", 5),
    BarrierPreset("Standard back door", 10),
    BarrierPreset("Strong domestic external door", 15),
    BarrierPreset('9" brick wall', 25),
    BarrierPreset("Mature tree", 50),
    BarrierPreset("Concrete bridge support", 100),
)


def preset(name: str) -> BarrierPreset:
    for p in BARRIER_PRESETS:
        if p.name.lower() == name.strip().lower():
            return p
    raise InvalidCommand("preset", f"no barrier {name!r} in {SAMPLE_BARRIERS}")


def barrier_from_preset(name: str, from_location: int, skills: tuple[str, ...] | list[str] | str, difficulty: str = "regular") -> Barrier:
    p = preset(name)
    return barrier(p.name, from_location, skills, difficulty, p.hit_points)


# -- Negotiating a hazard or barrier -----------------------------------------------------------


@dataclass(frozen=True)
class Attempt:
    """The roll to make: skill, difficulty, bonus and penalty dice, and movement actions spent."""

    skill: str
    difficulty: str
    bonus_dice: int
    penalty_dice: int
    movement_actions_spent: int

    @property
    def approach(self) -> str:
        return "cautious" if self.bonus_dice else "reckless"


def attempt(
    obstacle: Obstacle,
    skill: str,
    movement_actions_left: int,
    *,
    caution: int = 0,
    penalty_dice: int = 0,
    movement_cost: int = MOVE_COST,
    keeper_accepts_skill: bool = False,
) -> Attempt:
    """Set up the roll to negotiate a hazard or barrier ("Hazards", "Skills and Hazards").

    ``caution``: movement actions spent on a cautious approach, 1 bonus die each, at most 2; 0 is
    the reckless approach. ``movement_cost``: what stepping on to the next location costs (0 when
    an accelerated move has paid for it). ``penalty_dice``: from acceleration or an impaired
    vehicle. A skill the Keeper did not name needs the Keeper's acceptance ("the Keeper is final
    arbiter of what skill is acceptable").
    """
    if isinstance(caution, bool) or not isinstance(caution, int) or not 0 <= caution <= MAX_CAUTION:
        raise RuleBroken(f"a cautious approach spends 1 or 2 movement actions for as many bonus dice (2 at most), not {caution}", HAZARDS)
    for name, value in (("movement_actions_left", movement_actions_left), ("penalty_dice", penalty_dice), ("movement_cost", movement_cost)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidCommand(name, "must be a whole number, 0 or more")
    if isinstance(obstacle, Barrier) and obstacle.destroyed:
        raise RuleBroken(f"{obstacle.name} has been broken down and is no longer a barrier", BREAKING)
    if not isinstance(skill, str) or not skill.strip():
        raise InvalidCommand("skill", "is required")
    named = {s.lower(): s for s in obstacle.skills}
    if skill.strip().lower() not in named and not keeper_accepts_skill:
        raise RuleBroken(f"{obstacle.name} is negotiated with {' or '.join(obstacle.skills)}; another skill needs the Keeper's acceptance", SKILLS_AND_HAZARDS)
    spent = caution + movement_cost
    if spent > movement_actions_left:
        raise RuleBroken(f"that takes {spent} movement actions ({caution} for caution, {movement_cost} to move on); {movement_actions_left} left", HAZARDS)
    return Attempt(named.get(skill.strip().lower(), skill.strip()), obstacle.difficulty, caution, penalty_dice, spent)


@dataclass(frozen=True)
class Outcome:
    """How a hazard or barrier roll turned out."""

    passed: bool
    moves_on: bool  # on to ``to_location``
    consequences: Consequences


def _passed(obstacle: Obstacle, level: str) -> bool:
    if level not in percentile.LEVELS:
        raise InvalidCommand("level", f"must be one of {', '.join(percentile.LEVELS)}")
    return percentile.meets(level, obstacle.difficulty)


def hazard_outcome(
    h: Hazard,
    level: str,
    *,
    vehicle: bool,
    incident: str | None = DEFAULT,
    damage: str | None = None,
    delay: bool = True,
) -> Outcome:
    """"Hazards": passed, on without delay or harm; failed, the Keeper's damage (Table VI for a
    vehicle, Table III for a character; by default the row of the hazard's difficulty) and 1D3
    lost movement actions. "After negotiating a hazard a character should move onto the next
    location whether they pass or fail the skill roll."
    """
    if not isinstance(h, Hazard):
        raise InvalidCommand("obstacle", f"{h.name} is a barrier: it blocks until passed ({BARRIERS})")
    if _passed(h, level):
        return Outcome(True, True, NO_CONSEQUENCES)
    return Outcome(False, True, consequences(h.difficulty, vehicle=vehicle, incident_key=incident, damage=damage, delay=delay))


def barrier_outcome(
    b: Barrier,
    level: str,
    *,
    vehicle: bool,
    incident: str | None = None,
    damage: str | None = None,
    delay: bool = False,
) -> Outcome:
    """"Barriers": passed, on to the next location; failed, no progress. Failing "may cause damage
    and delay as a hazard does, but the usual consequence is simply ... not moving": by default
    no damage and no lost movement actions; the Keeper may give either.
    """
    if not isinstance(b, Barrier):
        raise InvalidCommand("obstacle", f"{b.name} is a hazard: pass or fail, one moves on ({HAZARDS})")
    if b.destroyed:
        raise RuleBroken(f"{b.name} has been broken down and is no longer a barrier", BREAKING)
    if _passed(b, level):
        return Outcome(True, True, NO_CONSEQUENCES)
    return Outcome(False, False, consequences(b.difficulty, vehicle=vehicle, incident_key=incident, damage=damage, delay=delay))


# -- Breaking down barriers --------------------------------------------------------------------


@dataclass(frozen=True)
class Breaking:
    """One blow (or one ramming) against a barrier, and what it did."""

    barrier_before: Barrier
    damage: int
    barrier_after: Barrier
    vehicle_wrecked: bool = False
    vehicle_damage: int = 0  # hit points the ramming vehicle suffers (see vehicles.take_damage)

    @property
    def destroyed(self) -> bool:
        return self.barrier_after.destroyed


def _hit(b: Barrier, damage: int) -> Barrier:
    if b.hit_points is None:
        raise RuleBroken(f"{b.name} cannot be broken down; it must be negotiated", BARRIERS)
    if b.destroyed:
        raise RuleBroken(f"{b.name} has already been broken down", BREAKING)
    if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
        raise InvalidCommand("damage", "must be a whole number of hit points, 0 or more")
    return replace(b, hit_points=max(0, b.hit_points - damage))


def break_down(b: Barrier, damage: int) -> Breaking:
    """A character's blow: "No attack roll is required"; roll the character's damage and take it
    off the barrier's hit points."""
    return Breaking(b, damage, _hit(b, damage))


def ramming_dice(build: vehicles.BuildValue) -> str:
    """"For each point of their build, vehicles inflict 1D10 damage to a barrier"."""
    return vehicles.damage_dice(build)


def ram(b: Barrier, damage: int) -> Breaking:
    """A vehicle ramming a barrier with ``damage`` rolled on ``ramming_dice``.

    Failing to destroy it wrecks the vehicle (it was "travelling at high speed"); destroying it
    costs the vehicle "damage equal to half the barrier's hit points prior to impact", rounded
    down as every halving in these rules; those hit points become Build lost by vehicles.take_damage.
    """
    after = _hit(b, damage)
    if not after.destroyed:
        return Breaking(b, damage, after, vehicle_wrecked=True)
    return Breaking(b, damage, after, vehicle_damage=b.hit_points // 2)  # type: ignore[operator]


def debris(b: Barrier, skills: tuple[str, ...] | list[str] | str, difficulty: str = "regular", name: str | None = None) -> Hazard:
    """The hazard the Keeper rules the debris of a destroyed barrier to be ("The debris that
    results from smashing a barrier may present a hazard to those that follow afterwards")."""
    if not b.destroyed:
        raise RuleBroken(f"{b.name} still stands; only a destroyed barrier leaves debris", BREAKING)
    return hazard(name or f"Debris of {b.name}", b.from_location, skills, difficulty)
