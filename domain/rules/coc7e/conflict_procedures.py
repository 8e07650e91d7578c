"""Attacks and fighting maneuvers during a chase, on foot and with vehicles.

coc7e-chases.txt part 4 ("Conflict", "Vehicles in combat", "Using Fighting Maneuvers in a
Chase") on the pure rules of domain.rules.coc7e.conflict, with coc7e-combat.txt's opposed rolls.
One ``attack`` command is the whole exchange: the attacker's roll ("attack"), the target's
response ("defence": fight back, dodge, or a maneuver of its own; none against a firearm), then
the damage of whoever won ("damage" for the attacker's, "counter_damage" for the target's when
fighting back). A successful maneuver leaves a mishap for the Keeper's ruling (mishaps.py).
Vehicles roll their driver's driving skill for Fighting and Dodge, hit for 1D10 per Build, and
suffer half what they deal, never more Build than their target had.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from domain.rules.coc7e import (
    armed_attack, combat_events, conflict, damage_events, firearm_modifiers, hit_location, keeper_rolls, maneuvers, mishaps, reloading, rounds, shooting, striking,
    vehicles, weapon_damage, wound_events,
)
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.obstacle_procedures import UNARMED
from domain.rules.coc7e.participants import Participant

METHODS = ("fighting", "firearm", "maneuver")
PASSENGERS = f'{CHASES} "Passengers"'
STOOD_UP = {"fight back": "fighting back", "dodge": "dodging", "maneuver": "with a maneuver"}

# What conflict uses of a chase: the mishaps' needs (rounds, rolls, damage and Build).
ConflictChase = mishaps.MishapChase


def attack(
    chase: ConflictChase,
    attacker_id: str,
    target_id: str,
    dice: RollSources,
    *,
    method: str | None = None,
    response: str | None = None,
    attack_skill: str | None = None,
    defence_skill: str | None = None,
    damage: str | None = None,
    counter_damage: str | None = None,
    bonus_dice: int = 0,
    penalty_dice: int = 0,
    defence_bonus_dice: int = 0,
    defence_penalty_dice: int = 0,
    difficulty: str | None = None,
    aftermath: dict[str, Any] | None = None,
    impales: bool | None = None,
    weapon: str | None = None,
    distance_yards: int | None = None,
    malfunction: str | None = None,
    goal: str | None = None,
    seize: str | None = None,
    armor_luck: int | None = None,
    armor_per_die: bool = False,
    modifiers: list[str] | tuple = (),
    chamber: bool = False,
    hit_locations: list[str] | tuple | None = None,
) -> dict[str, Any]:
    """An attack or fighting maneuver on the attacker's turn, and the target's response.

    ``impales``: whether the attacker's weapon can impale (the weapon table's "(i)"); default: a
    firearm does ("Rifles and handguns can impale"), a blow in melee does not (a fist, a club).
    ``weapon``: one of Table XVII the attacker carries, which sets the method, skill, damage,
    impales and (with ``distance_yards``) the difficulty; a gun spends a round, and a roll at or
    above its malfunction number does not fire (``malfunction``: the Keeper's "dud" or "jam" where
    the rules do not say which). ``response`` "dive for cover" against a shot: the target's Dodge
    roll ("defence") gives the shooter a penalty die. ``chamber``: one round put into an empty
    gun's chamber and fired with a penalty die. ``hit_locations``: the optional 1D20 hit location
    ("location"), the target's armor counting only where it covers (these locations).
    """
    a = rounds.require_turn(chase, attacker_id)
    shooting.require_may_attack(chase, a)
    chambered = reloading.chamber(chase, a, weapon) if chamber else 0
    planned = armed_attack.plan(
        a, method=method, weapon=weapon, damage=damage, impales=impales, difficulty=difficulty,
        distance_yards=distance_yards, attack_skill=attack_skill,
    )
    method, damage, impales, difficulty, attack_skill = planned.method, planned.damage, planned.impales, planned.difficulty, planned.attack_skill
    t = chase.participant(target_id)
    if t.id == a.id:
        raise InvalidCommand("target_id", "an attacker cannot attack itself")
    if method not in METHODS:
        raise InvalidCommand("method", f"must be one of {', '.join(METHODS)}")
    firearm = method == "firearm"
    if firearm and a.kind == "vehicle":
        raise InvalidCommand("method", "a vehicle attacks with its driving skill: fighting or maneuver (\"Vehicles in combat\")")
    cost = check_reach(chase, a, t, firearm)
    if method == "maneuver" and t.aboard:
        raise RuleBroken(f"{t.name} rides in a vehicle: maneuver against the vehicle", conflict.MANEUVERS_IN_A_CHASE)
    if response is None:
        if not firearm:
            raise InvalidCommand("response", "the target chooses: fight back, dodge, maneuver (or none)")
        response = "none"
    diving = response == shooting.DIVE
    if diving and not firearm:
        raise RuleBroken("only a shot can be dived from; against a blow or a thrown weapon, dodge", shooting.DIVING)
    shooting.require_may_respond(chase, t, response)
    if diving:
        response = "none"
    if response not in conflict.RESPONSES:
        raise InvalidCommand("response", f"must be one of {', '.join(conflict.RESPONSES)}")
    if firearm and response != "none":
        raise RuleBroken("a firearm attack cannot be fought back or dodged", conflict.POINT_BLANK)
    armed_attack.check_response(planned, t, response, distance_yards)
    armed_attack.check_armor_options(planned, armor_luck, armor_per_die)
    if response == "maneuver" and a.aboard:
        raise RuleBroken(f"{a.name} rides in a vehicle: maneuver against the vehicle", conflict.MANEUVERS_IN_A_CHASE)
    # Builds: "Step 1: Compare Builds" for maneuvers, either way round.
    attack_penalty = penalty_dice + (conflict.maneuver_penalty_dice(_build(a), _build(t)) if method == "maneuver" else 0)
    defence_penalty = defence_penalty_dice + (conflict.maneuver_penalty_dice(_build(t), _build(a)) if response == "maneuver" else 0)
    hits = _damage_dice(a, firearm, damage, "damage")
    counters = _damage_dice(t, False, counter_damage, "counter_damage") if response == "fight back" else None
    mishaps.check_aftermath(chase, aftermath)
    # coc7e-combat.txt "Outnumbered": "Once a character has either fought back or dodged in the
    # present combat round, all subsequent melee attacks on them are made with one bonus die.
    # This does not apply to attacks made using firearms."
    outnumbered = int(not firearm and t.defended_round == chase.round)
    goal = maneuvers.check_goal(a, t, method, goal, seize)
    situation_bonus, situation_penalty, applied = shooting.dice(a, t, modifiers, distance_yards, firearm=firearm)  # prone, named modifiers
    a_roller, a_skill, a_value = _combat_value(chase, a, "Firearms" if firearm else "Fighting", attack_skill, "attack_skill")
    located = hit_location.check(hit_locations, armor_luck)
    aimed = shooting.aim_dice(chase, a, t.id, weapon, single_shot=True, shot=firearm)
    dive = shooting.dive_for_cover(chase, dice, "defence", t, a) if diving else None
    rolls = [
        keeper_rolls.skill_roll(
            chase, dice, "attack", a.id, a_roller.id, f"{method} against {t.name}", a_skill, a_value,
            difficulty=difficulty if firearm else "regular", malfunction=armed_attack.malfunction_number(planned.armed),
            bonus=bonus_dice + outnumbered + situation_bonus + aimed,
            penalty=attack_penalty + situation_penalty + chambered + int(bool(dive and dive["success"])) + keeper_rolls.impaired_penalty(a, a_skill),
        )
    ]
    d_skill = None
    if response != "none":
        d_roller, d_skill, d_value = _combat_value(chase, t, "Dodge" if response == "dodge" else "Fighting", defence_skill, "defence_skill")
        rolls.append(
            keeper_rolls.skill_roll(
                chase, dice, "defence", t.id, d_roller.id, f"{response} against {a.name}", d_skill, d_value,
                bonus=defence_bonus_dice, penalty=defence_penalty + keeper_rolls.impaired_penalty(t, d_skill),
            )
        )
    exchange = conflict.resolve(rolls[0]["level"], rolls[-1]["level"] if d_skill else None, response, firearm=firearm, difficulty=difficulty)
    jammed = armed_attack.fire(chase, a, planned.armed, rolls[0]["result"], malfunction)
    if jammed:
        exchange = conflict.Exchange(response, None, False, False)  # "the weapon does not fire"
    chase.trigger_event(
        damage_events.AttackMade, attacker_id=a.id, target_id=t.id, method=method, response=shooting.DIVE if dive else response, attack_skill=a_skill,
        defence_skill="Dodge" if dive else d_skill, attack_roll=rolls[0]["sequence"],
        defence_roll=dive["sequence"] if dive else rolls[1]["sequence"] if d_skill else None,
        winner=exchange.winner, target_hit=exchange.target_hit, attacker_hit=exchange.attacker_hit,
        movement_actions_spent=cost, movement_actions_left=a.movement_actions - cost,
    )
    if response in combat_events.DEFENDED:
        chase.trigger_event(combat_events.Defended, participant_id=t.id, response=response, round=chase.round)
        if t.prone and exchange.winner == "defender":
            # "A character that is prone may stand up when they successfully dodge or fight back" ("Prone").
            chase.trigger_event(wound_events.ConditionRuled, participant_id=t.id, conscious=None, standing=True, reason=f"stood up {STOOD_UP[response]}")
    if exchange.target_hit:
        if method == "maneuver" and goal not in (None, "mishap"):
            maneuvers.achieve(chase, a, t, goal, seize)
        elif method == "maneuver":
            mishaps.incur_mishap(chase, t, f"fighting maneuver by {a.name}")
        else:
            # Extreme damage and impales: on the attacker's own turn only, never when fighting back.
            extreme = weapon_damage.extreme_hit(rolls[0]["level"], initiated=True, difficulty=difficulty if firearm else "regular")
            lands = weapon_damage.blow(hits, a.damage_bonus, extreme=extreme, impales=firearm if impales is None else bool(impales))
            rolls += striking.strike(chase, a, t, lands, "damage", firearm, aftermath, dice, armor_luck=armor_luck, armor_per_die=bool(armor_per_die), located=located)
    if exchange.attacker_hit:
        if response == "maneuver":
            mishaps.incur_mishap(chase, a, f"fighting maneuver by {t.name}")
        elif counters is not None and t.status == "in_chase":
            lands = weapon_damage.blow(counters, t.damage_bonus, extreme=False, impales=False, field="counter_damage")
            rolls += striking.strike(chase, t, a, lands, "counter_damage", False, aftermath, dice)
    rounds.turn_goes_on(chase, a, passenger_acted=True)
    return {
        "winner": exchange.winner, "target_hit": exchange.target_hit, "attacker_hit": exchange.attacker_hit, "outnumbered": bool(outnumbered), "malfunction": jammed,
        "mishaps": [pid for pid in (a.id, t.id) if pid in chase.mishaps], "rolls": ([dive] if dive else []) + rolls,
        **({"dived_for_cover": dive["success"]} if dive else {}), **({"aimed": True} if aimed else {}),
        **({"modifiers": applied, "ally_hit": firearm_modifiers.ally_hit(applied, rolls[0]["level"])} if applied else {}),
    }

# -- internals -----------------------------------------------------------------------------

def check_reach(chase: ConflictChase, a: Participant, t: Participant, firearm: bool) -> int:
    """Whether ``a`` can attack ``t`` now ("Conflict"), and the movement actions it costs."""
    mishaps.require_damageable(t)
    if t.id == a.vehicle or a.id == t.vehicle:
        raise RuleBroken(f"{a.name} and {t.name} travel together", conflict.CONFLICT)
    same_location = _carrier_location(chase, a) == _carrier_location(chase, t)
    if not a.aboard:
        return conflict.attack_cost(
            same_location=same_location, firearm=firearm, movement_actions_left=a.movement_actions, attacks_made=a.attacks_made,
            attacks_per_round=a.attacks_per_round,
        )
    # "Passengers ... may act once on their turn": no movement actions to spend.
    if not same_location and not firearm:
        raise RuleBroken("only firearms reach another location; move to the same location to attack", conflict.CONFLICT)
    if a.attacks_made:
        raise RuleBroken(f"{a.name} has already acted this round", PASSENGERS)
    return 0


def check_attack(chase: ConflictChase, attacker_id: str) -> None:
    """Whether the attacker has anyone to attack now: the turn's guard, then ``check_reach`` of
    each other participant, rivals and the nearest first; refused with the nearest's refusal."""
    a = rounds.require_turn(chase, attacker_id)
    shooting.require_may_attack(chase, a)
    firearm = any(c["loaded"] is not None for c in a.weapons)
    here = _carrier_location(chase, a) or 0
    others = sorted(
        (t for t in chase.participants.values() if t.id != a.id and t.status == "in_chase"),
        key=lambda t: (t.role == a.role, abs((_carrier_location(chase, t) or 0) - here), t.joined),
    )
    first: RuleBroken | None = None
    for t in others:
        try:
            check_reach(chase, a, t, firearm)
            return
        except RuleBroken as refused:
            first = first or refused
    raise first or RuleBroken(f"there is no one for {a.name} to attack", conflict.CONFLICT)


def _damage_dice(p: Participant, firearm: bool, given: str | None, field: str) -> str:
    if p.kind == "vehicle":
        if given is not None:
            raise InvalidCommand(field, f"a vehicle inflicts 1D10 per point of its Build ({conflict.VEHICLES_IN_COMBAT})")
        return conflict.vehicle_weapon_dice(vehicles.as_build(p.build))
    if given is None and firearm:
        raise InvalidCommand(field, "give the firearm's damage, e.g. 1D10 for a .38 revolver (coc7e-combat.txt weapons table)")
    expression = given or UNARMED
    weapon_damage.read(expression, p.damage_bonus, field)
    return expression


def _combat_value(chase: ConflictChase, p: Participant, kind: str, skill: str | None, field: str) -> tuple[Participant, str, int]:
    """Roller, skill and value for a combat roll; a vehicle's driver rolls its driving skill."""
    if p.kind == "vehicle":
        skill = conflict.combat_skill("Dodge" if kind == "Dodge" else "Fighting", p.driving_skill or "Drive Auto")
        roller, value = keeper_rolls.roller_value(chase, p, skill, None)
        return roller, skill, value
    if skill is None:
        if kind == "Dodge":
            skill = "Dodge"
        else:
            named = sorted(s for s in p.skills if s.startswith(kind))
            if not named:
                raise InvalidCommand(field, f"{p.name} has no {kind} skill; name the skill to roll")
            skill = f"{kind} (Brawl)" if f"{kind} (Brawl)" in named else named[0]
    try:
        return p, skill, keeper_rolls.value_of(p, skill)
    except InvalidCommand as e:
        raise InvalidCommand(field, e.message) from None


def _carrier_location(chase: ConflictChase, p: Participant) -> int | None:
    return chase.track.location_of(p.vehicle or p.id)


def _build(p: Participant) -> Fraction:
    return vehicles.as_build(p.build)
