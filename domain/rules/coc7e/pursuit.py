"""Pure rules of part 5's optional rules on the road and the trail (coc7e-chases.txt "Optional
Rules"): sudden hazards, pedal to the metal and visibility, escaping and hiding, passengers'
navigation, ranged attacks and tires, driver damage, characters creating hazards.

No dice are rolled here and no state is kept: the procedures (pursuit_procedures.py,
road_procedures.py) roll and record; these functions say what the rules make of the rolls.
"""
from __future__ import annotations

from dataclasses import dataclass

from domain.rules.coc7e import percentile
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken

SUDDEN_HAZARDS = f'{CHASES} "Sudden Hazards"'
PEDAL_TO_THE_METAL = f'{CHASES} "Pedal to the Metal"'
ESCAPING = f'{CHASES} "Escaping the Pursuer"'
HIDING = f'{CHASES} "Hiding"'  # the book's heading; the extract lost it (the text after "Escaping the Pursuer")
PASSENGERS = f'{CHASES} "Passengers"'
RANGED = f'{CHASES} "Ranged Attacks During a Chase"'
DRIVER_DAMAGE = f'{CHASES} "Driver Damage"'
CREATING_HAZARDS = f'{CHASES} "Characters Creating Hazards"'

# -- Sudden hazards -----------------------------------------------------------------------------

SIDES = ("players", "keeper")
# "Sudden hazards should be of Regular difficulty ... the Keeper may decide to raise the level".
SUDDEN_DIFFICULTY = "regular"


def next_caller(last_called_by: str | None) -> tuple[str, ...]:
    """Who may call the next sudden hazard: "Either side may call for the first sudden hazard in
    a chase"; then "If the players call ..., they may not call for one again until after the
    Keeper has called for one and vice versa"."""
    if last_called_by is None:
        return SIDES
    return tuple(side for side in SIDES if side != last_called_by)


def require_caller(called_by: str, last_called_by: str | None) -> None:
    if called_by not in SIDES:
        raise InvalidCommand("called_by", f"must be one of {', '.join(SIDES)}")
    if called_by not in next_caller(last_called_by):
        other = "the Keeper" if called_by == "players" else "the players"
        raise RuleBroken(f"the {called_by} called the last sudden hazard; {other} call the next one", SUDDEN_HAZARDS)


def sudden_hazard_placer(luck_passed: bool) -> str:
    """"If the Luck roll is passed, ... the players may dictate where and when a sudden hazard
    occurs. If the Luck roll is failed, this indicates a sudden hazard for the investigators,
    presented by the Keeper.\""""
    return "players" if luck_passed else "keeper"


# -- Pedal to the metal and visibility ----------------------------------------------------------

MIN_ACCELERATION, MAX_ACCELERATION = 2, 5
# "2 or 3 locations ... one penalty die"; "4 or 5 locations ... two penalty dice".
ACCELERATION_PENALTY = {2: 1, 3: 1, 4: 2, 5: 2}
# How far a driver can see: "In a crowded city ... (1D3 ...); in the suburbs ... (1D6 ...), and in
# the country, on a straight road ... (1D10 locations ...)". "keeper": the Keeper's own number.
VISIBILITY_DICE = {"city": "1D3", "suburbs": "1D6", "country": "1D10"}
MAX_VISIBILITY = 10


def acceleration_penalty(locations: int, *, navigated: bool = False) -> int:
    """Penalty dice on hazards met during one accelerated movement action of ``locations``.

    A navigator's success: "the vehicle can accelerate once with 1 fewer penalty die ... up to 3
    locations with no penalty die, or up to 5 with 1 penalty die" ("Passengers")."""
    if isinstance(locations, bool) or not isinstance(locations, int) or not MIN_ACCELERATION <= locations <= MAX_ACCELERATION:
        raise InvalidCommand("locations", f"an accelerating vehicle covers {MIN_ACCELERATION} to {MAX_ACCELERATION} locations with one movement action ({PEDAL_TO_THE_METAL})")
    return max(0, ACCELERATION_PENALTY[locations] - (1 if navigated else 0))


def hazard_penalty(kind: str, penalty: int) -> int:
    """"Any penalty dice for acceleration should be applied to hazards, but usually not when
    breaking through barriers, for which increased speed can be beneficial.\""""
    return penalty if kind == "hazard" else 0


def visibility_dice(area: str) -> str:
    if area not in VISIBILITY_DICE:
        raise InvalidCommand("area", f"must be one of {', '.join(VISIBILITY_DICE)}, or give the Keeper's number of locations")
    return VISIBILITY_DICE[area]


# -- Escaping and hiding -------------------------------------------------------------------------

@dataclass(frozen=True)
class Hiding:
    """A hiding attempt read: the rolls' levels against each skill."""

    hidden: bool
    failed_skills: tuple[str, ...]


def hiding_outcome(levels: dict[str, str], difficulty: str) -> Hiding:
    """Hidden when every skill's level meets the difficulty: a vehicle's "combined Stealth and
    Drive Auto skill roll (Combined Rolls) ... needing to succeed against both skills" (one roll
    read against each); a character's Stealth alone."""
    if difficulty not in percentile.DIFFICULTIES:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(percentile.DIFFICULTIES)}")
    failed = tuple(skill for skill, level in levels.items() if not percentile.meets(level, difficulty))
    return Hiding(not failed, failed)


def vehicle_hiding_skills(driving_skill: str | None) -> tuple[str, str]:
    return ("Stealth", driving_skill or "Drive Auto")


# -- Ranged attacks and tires --------------------------------------------------------------------

ON_THE_MOVE_PENALTY = 1  # "any firearms attack rolls are made with one additional penalty die"
STOPPING_COST = 1  # "This option costs 1 movement action, but no movement is made."
TIRE_PENALTY = 1  # "apply an additional penalty die to target tires due to their small size"
TIRE_ARMOR = 3  # "Tires have an armor value of 3"
TIRE_BURSTS_AT = 2  # "If a tire takes 2 points of damage, it bursts."
BURST_TIRE_BUILD = 1  # "A burst tire reduces a vehicle's build by 1 point."


@dataclass(frozen=True)
class TireHit:
    rolled: int
    taken: int
    burst: bool


def tire_hit(rolled: int, impales: bool) -> TireHit:
    """"Tires ... are only damaged by impaling weapons. If a tire takes 2 points of damage, it bursts.\""""
    if isinstance(rolled, bool) or not isinstance(rolled, int) or rolled < 0:
        raise InvalidCommand("damage", "must be a whole number, 0 or more")
    taken = max(0, rolled - TIRE_ARMOR) if impales else 0
    return TireHit(rolled, taken, taken >= TIRE_BURSTS_AT)


def require_impaling(weapon_name: str, impales: bool) -> None:
    if not impales:
        raise RuleBroken(f"{weapon_name} does not impale: tires are only damaged by impaling weapons", RANGED)


# -- Driver damage ------------------------------------------------------------------------------

CONTROL_DIFFICULTY = "hard"  # "must roll immediately as for a Hazard at Hard difficulty level"


@dataclass(frozen=True)
class ControlCheck:
    """What a major wound to a driver calls for."""

    roll: bool  # a Drive Auto roll at Hard, as for a hazard
    lost_control: bool | None  # known without a roll: unconscious


def driver_damage(*, major_wound: bool, unconscious: bool) -> ControlCheck:
    """"If the driver of a moving vehicle suffers a major wound and remains conscious, he or she
    may still lose control ... and must roll immediately as for a Hazard at Hard difficulty level.
    A driver who falls unconscious due to a major wound automatically loses control.\""""
    if not major_wound:
        raise RuleBroken("only a major wound makes a driver roll to keep control", DRIVER_DAMAGE)
    return ControlCheck(False, True) if unconscious else ControlCheck(True, None)


# -- Characters creating hazards ----------------------------------------------------------------

@dataclass(frozen=True)
class Creation:
    """One way of creating a hazard or barrier: its cost, its roll, what it makes."""

    action: str
    movement_actions: int
    whole_round: bool
    skills: tuple[str, ...]  # the roll it needs (any one of these), or none
    makes: str  # "hazard" or "barrier"
    example: str


# "Characters Creating Hazards": the text's examples, as data; the Keeper "should judge each
# situation on its own merits", so the obstacle made (its skills, difficulty, hit points) is his.
CREATIONS: tuple[Creation, ...] = (
    Creation("secure door", 1, False, (), "barrier", "Pausing to secure a door with a bolt or key would cost 1 movement action but no skill roll."),
    Creation("lock door", 0, True, ("Locksmith",), "barrier", "Pausing to secure a door using Locksmith skill would require a whole chase round and a successful skill roll."),
    Creation("block door", 1, False, ("STR",), "barrier", "Moving a heavy wardrobe against a door would require a STR roll and a movement action."),
    Creation("upend stall", 1, False, (), "hazard", "Upending a fruit stall to cause a delay might only cost 1 movement action."),
    Creation("panic crowd", 0, False, ("Luck",), "hazard", "Firing a gun to cause a crowd to panic would require a Luck roll."),
    Creation("raise the cry", 0, False, ("Fast Talk", "Intimidate"), "barrier", "Yelling, \"Stop that man, he's a thief,\" ... a Fast Talk or Intimidate skill roll."),
)
CREATION_BY_ACTION = {c.action: c for c in CREATIONS}


def creation(action: str) -> Creation:
    if action not in CREATION_BY_ACTION:
        raise InvalidCommand("action", f"must be one of {', '.join(CREATION_BY_ACTION)}")
    return CREATION_BY_ACTION[action]


def creation_cost(c: Creation, movement_actions_left: int, full_allotment: int) -> int:
    """Movement actions the creation takes: its own, or all of a whole round ("would require a
    whole chase round"), which must not have been started on."""
    if c.whole_round:
        if movement_actions_left < full_allotment or movement_actions_left == 0:
            raise RuleBroken(f"{c.action} takes a whole chase round: all of this round's movement actions, unspent", CREATING_HAZARDS)
        return movement_actions_left
    if movement_actions_left < c.movement_actions:
        raise RuleBroken(f"{c.action} costs {c.movement_actions} movement action(s); {movement_actions_left} left", CREATING_HAZARDS)
    return c.movement_actions
