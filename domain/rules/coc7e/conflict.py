"""Conflict in a chase: attacks, vehicles in combat and fighting maneuvers.

coc7e-chases.txt part 4 ("Conflict", "Vehicles in combat", "Using Fighting Maneuvers in a
Chase") on top of coc7e-combat.txt ("Resolving a Fighting Attack ...", "Step 1: Compare Builds",
"Step 2: Make the Attack Roll"). Opposed rolls are read with percentile.fight_back_winner and
percentile.dodge_winner.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from domain.rules.coc7e import percentile, vehicles
from domain.rules.coc7e.damage import COMBAT, Consequences, consequences
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken

# The extract lost part 4's headings for conflict and vehicles in combat (the text that follows
# "Sample Barriers and Hit Points"); they are cited by the book's names.
CONFLICT = f'{CHASES} "Conflict" (part 4)'
VEHICLES_IN_COMBAT = f'{CHASES} "Vehicles in combat" (part 4)'
MANEUVERS_IN_A_CHASE = f'{CHASES} "Using Fighting Maneuvers in a Chase"'
COMPARE_BUILDS = f'{COMBAT} "Step 1: Compare Builds"'
POINT_BLANK = f'{COMBAT} "Point-Blank Range (Bonus die)"'

ATTACK_COST = 1  # "Initiating an attack costs 1 movement action."
# How the target meets an attack. "maneuver": a maneuver of their own, resolved as fighting
# back ("Step 2: Make the Attack Roll"); "none": the target does not or cannot respond.
RESPONSES = ("fight back", "dodge", "maneuver", "none")
MAX_PENALTY_DICE = 2  # "Step 1: Compare Builds": a penalty die per point, to a maximum of two
IMPOSSIBLE_AT = 3  # "... three or more points lower ... the maneuver is impossible"


def attack_cost(
    *,
    same_location: bool,
    firearm: bool,
    movement_actions_left: int,
    attacks_made: int = 0,
    attacks_per_round: int = 1,
) -> int:
    """Movement actions an attack costs, refused where "Conflict" forbids it.

    "The characters or vehicles must be on the same location to attack one another, unless
    firearms are involved. Initiating an attack costs 1 movement action. Characters are limited
    to their usual number of attacks per round." (A passenger, who has no movement actions,
    acts once on their turn: "Passengers"; the caller does not charge them.)
    """
    for name, value in (("movement_actions_left", movement_actions_left), ("attacks_made", attacks_made), ("attacks_per_round", attacks_per_round)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidCommand(name, "must be a whole number, 0 or more")
    if not same_location and not firearm:
        raise RuleBroken("only firearms reach another location; move to the same location to attack", CONFLICT)
    if attacks_made >= attacks_per_round:
        raise RuleBroken(f"{attacks_per_round} attack(s) a round, already made", CONFLICT)
    if movement_actions_left < ATTACK_COST:
        raise RuleBroken("initiating an attack costs 1 movement action; none left", CONFLICT)
    return ATTACK_COST


def responses(firearm: bool) -> tuple[str, ...]:
    """How the target may respond. A target "should always be given the opportunity to respond
    when challenged (fighting back or dodging) regardless of whether they have any movement
    actions remaining"; a firearm attack cannot be fought back or dodged (coc7e-combat.txt
    "Point-Blank Range (Bonus die)": "A target may not fight back against or dodge a Firearm attack")."""
    return ("none",) if firearm else RESPONSES


def combat_skill(action: str, driving_skill: str | None = None) -> str:
    """The skill rolled to "Fighting" or "Dodge": a vehicle's driver rolls the driving skill.

    "Vehicles in combat": "substituting Drive Auto skill for both Fighting and Dodge skills";
    other vehicles use their own chart's skill (Pilot, Ride, ...) in the same way.
    """
    if action not in ("Fighting", "Dodge"):
        raise InvalidCommand("action", "must be Fighting or Dodge")
    return driving_skill or action


def vehicle_weapon_dice(build: vehicles.BuildValue) -> str:
    """"Treat the vehicle as a weapon that inflicts 1D10 damage per point of build"."""
    return vehicles.damage_dice(build)


@dataclass(frozen=True)
class Exchange:
    """An opposed attack or maneuver, read."""

    response: str
    winner: str | None  # "attacker", "defender", or None when both fail
    target_hit: bool  # the attack's damage, or the attacker's maneuver, takes effect on the target
    attacker_hit: bool  # the defender fought back (damage) or maneuvered (its effect) and won


def resolve(attacker_level: str, defender_level: str | None, response: str, *, firearm: bool = False, difficulty: str = "regular") -> Exchange:
    """Who wins an attack or a fighting maneuver ("Resolving a Fighting Attack ...", "Step 2").

    Fighting back (or a maneuver in return): a tie goes to the attacker. Dodging: a tie goes to
    the defender. No response: a firearm hits on a success at its difficulty; a melee attack only
    misses on a fumble ("Striking the First Blow (Surprise)": "will only fail to hit if they roll
    a fumble").
    """
    if response not in RESPONSES:
        raise InvalidCommand("response", f"must be one of {', '.join(RESPONSES)}")
    if firearm and response != "none":
        raise RuleBroken("a firearm attack cannot be fought back or dodged", POINT_BLANK)
    levels = [attacker_level] + ([defender_level] if response != "none" else [])
    if any(level not in percentile.LEVELS for level in levels):
        raise InvalidCommand("level", f"must be one of {', '.join(percentile.LEVELS)}")
    if response == "none":
        hit = percentile.meets(attacker_level, difficulty) if firearm else attacker_level != "fumble"
        return Exchange(response, "attacker" if hit else None, hit, False)
    assert defender_level is not None
    if response == "dodge":
        winner = percentile.dodge_winner(attacker_level, defender_level)
        return Exchange(response, winner, winner == "attacker", False)
    winner = percentile.fight_back_winner(attacker_level, defender_level)
    return Exchange(response, winner, winner == "attacker", winner == "defender")


# -- Fighting maneuvers --------------------------------------------------------------------------


def maneuver_penalty_dice(attacker_build: vehicles.BuildValue, target_build: vehicles.BuildValue) -> int:
    """Penalty dice on a fighting maneuver for the target's larger Build; refused at 3 or more.

    "Step 1: Compare Builds", and for vehicles "Using Fighting Maneuvers in a Chase": 1 penalty
    die for a target 1 Build larger, 2 for 2, impossible at 3. Only full points of difference
    count, so a bicycle's Build 0.5 against Build 1 takes none.
    """
    difference = math.floor(Fraction(target_build) - Fraction(attacker_build))
    if difference >= IMPOSSIBLE_AT:
        raise RuleBroken(
            f"the target's Build is {difference} larger; a maneuver is impossible at {IMPOSSIBLE_AT} or more",
            f"{COMPARE_BUILDS}; {MANEUVERS_IN_A_CHASE}",
        )
    return max(0, difference)


def maneuver_possible(attacker_build: vehicles.BuildValue, target_build: vehicles.BuildValue) -> bool:
    return math.floor(Fraction(target_build) - Fraction(attacker_build)) < IMPOSSIBLE_AT


# The text gives no default incident for a maneuver; both of its examples (the truck's "minor
# incident", the farmer's "minor injury") are the Regular-difficulty row, so that is the default.
MANEUVER_DIFFICULTY = "regular"


def maneuver_consequences(
    *,
    target_is_vehicle: bool,
    incident: str | None = "minor",
    damage: str | None = None,
    delay: bool = True,
) -> Consequences:
    """What a successful maneuver in a chase does to its target: "the same outcome as failing a
    skill roll for a hazard: 1D3 movement actions are lost and, if appropriate to the situation,
    an amount of damage" from Table VI (vehicles) or Table III (characters).

    The Keeper may instead call for a skill roll "as if encountering a hazard" (Harvey throwing
    the farmer): build an obstacles.Hazard and use obstacles.hazard_outcome. A maneuver with a
    goal of regular combat (disarm, hold) has that effect instead, outside these rules.
    """
    return consequences(MANEUVER_DIFFICULTY, vehicle=target_is_vehicle, incident_key=incident, damage=damage, delay=delay)


# -- A vehicle used as a weapon ------------------------------------------------------------------


@dataclass(frozen=True)
class Recoil:
    """What hitting something does to the vehicle that delivered the damage."""

    damage_dealt: int
    damage_suffered: int  # half of that delivered, round down
    build_lost: int  # full 10s of it, but never more than the target's Build
    limited: bool  # the target's Build limited the loss


def recoil(damage_dealt: int, target_build: vehicles.BuildValue) -> Recoil:
    """"Whenever a vehicle is used to inflict damage, it also suffers an amount of damage equal to
    half (round down) of that which it delivers, but never enough to cause it to lose a greater
    amount of build points than the target which it hit originally possessed."

    ``target_build``: the Build the target had originally, that is its starting Build (a
    character's or creature's Build, a vehicle's chart Build); only full points count, so a
    vehicle running down a Build 0 person loses no Build. Apply with vehicles.lose_build.
    """
    if isinstance(damage_dealt, bool) or not isinstance(damage_dealt, int) or damage_dealt < 0:
        raise InvalidCommand("damage", "must be a whole number of hit points, 0 or more")
    suffered = damage_dealt // 2
    lost = vehicles.build_lost_to(suffered)
    cap = vehicles.full_points(target_build)
    return Recoil(damage_dealt, suffered, min(lost, cap), lost > cap)
