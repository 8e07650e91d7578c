"""Passengers navigating, ranged attacks in a chase, tires, driver damage and characters creating
hazards, in play (coc7e-chases.txt "Passengers", "Ranged Attacks During a Chase", "Driver Damage",
"Characters Creating Hazards"; pure rules in pursuit.py, events in pursuit_events.py).

Shots themselves are the combat procedures' (conflict_procedures.attack, fire_procedures.fire):
stopping to shoot is their ordinary cost of one movement action; ``on_the_move`` keeps that action
(FiredOnTheMove) and adds the penalty die. A driver's major wound is read by the combat wounds
(wound_procedures); ``keep_control`` is the roll it then calls for, whose failure is a mishap of the
Hard row for the Keeper's ruling (mishaps.rule_consequences: "moderate incident" by default).
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import (
    arms, combat_events, conflict_procedures, fire_procedures, keeper_rolls, mishaps, movement, obstacle_events, percentile, pursuit, pursuit_events, rounds, track_features, weapon_damage,
)
from domain.rules.coc7e.damage import DEFAULT_BY_DIFFICULTY
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.pedal_procedures import PursuitChase


class RoadChase(PursuitChase, Protocol):
    """What navigating, shooting, keeping control and creating hazards use of a chase: part 5's
    needs, and the attacks a shot on the move is made with (conflict_procedures, fire_procedures)."""

    def attack(self, attacker_id: str, target_id: str, dice: RollSources, **options: Any) -> dict[str, Any]: ...

    def fire(self, attacker_id: str, dice: RollSources, **options: Any) -> dict[str, Any]: ...

PASSENGERS_RULE = "passengers"
RANGED_RULE = "ranged_attacks"
DRIVER_DAMAGE_RULE = "driver_damage"
CREATING_RULE = "characters_creating_hazards"
NAVIGATION_SKILLS = ("Spot Hidden", "Navigate")


def navigate(chase: RoadChase, navigator_id: str, dice: RollSources, *, skill: str = "Navigate", target: int | None = None) -> dict[str, Any]:
    """A passenger's action: a Spot Hidden or Navigate roll; a success lets the vehicle accelerate
    once, on its next move, with 1 fewer penalty die."""
    n = check_navigate(chase, navigator_id)
    if skill not in NAVIGATION_SKILLS:
        raise InvalidCommand("skill", f"must be one of {', '.join(NAVIGATION_SKILLS)}")
    roller, value = keeper_rolls.roller_value(chase, n, skill, target)
    record = keeper_rolls.skill_roll(chase, dice, "skill", n.id, roller.id, f"navigating for {chase.participants[n.vehicle].name}", skill, value)
    chase.trigger_event(pursuit_events.NavigationGiven, navigator_id=n.id, vehicle_id=n.vehicle, skill=skill, roll_sequence=record["sequence"], success=record["success"])
    rounds.turn_goes_on(chase, n, passenger_acted=True)
    return {"success": record["success"], "rolls": [record]}


def check_shoot_on_the_move(chase: RoadChase, shooter_id: str, with_weapon: str) -> Any:
    """The guard of ``shoot_on_the_move`` past the target and weapon named: the rule in use, then
    the guard of the attack or fire it is (the turn, free to attack, someone within reach or a gun)."""
    chase.require_optional_rule(RANGED_RULE)
    if with_weapon not in ("attack", "fire"):
        raise InvalidCommand("with_weapon", "must be attack or fire")
    if with_weapon == "attack":
        conflict_procedures.check_attack(chase, shooter_id)
        return rounds.require_turn(chase, shooter_id)
    return fire_procedures.check_fire(chase, shooter_id)


def shoot_on_the_move(chase: RoadChase, shooter_id: str, dice: RollSources, *, with_weapon: str = "attack", **options: Any) -> dict[str, Any]:
    """Shoot while racing on (on foot or in a vehicle): one more penalty die, and no movement
    action for it. ``with_weapon``: "attack" (the chase's attack, at ``target_id``) or "fire"
    (several shots, a burst, full auto), each given ``options``."""
    p = check_shoot_on_the_move(chase, shooter_id, with_weapon)
    kept = not p.aboard  # passengers have no movement actions to keep
    chase.trigger_event(pursuit_events.FiredOnTheMove, participant_id=p.id, penalty_dice=pursuit.ON_THE_MOVE_PENALTY, movement_action_kept=kept)
    options["penalty_dice"] = options.get("penalty_dice", 0) + pursuit.ON_THE_MOVE_PENALTY
    if with_weapon == "attack":
        target_id = options.pop("target_id", None)
        if target_id is None:
            raise InvalidCommand("target_id", "is required")
        return chase.attack(shooter_id, target_id, dice, **options)
    return chase.fire(shooter_id, dice, **options)


def check_shoot_tire(chase: RoadChase, shooter_id: str) -> Any:
    """The guard of ``shoot_tire`` past the vehicle and gun named: the rule in use, the shooter's
    turn, a gun carried, and an attack still to make this round (a passenger: their one action)."""
    chase.require_optional_rule(RANGED_RULE)
    a = rounds.require_turn(chase, shooter_id)
    arms.require_gun(a)
    if a.aboard and a.attacks_made:
        raise RuleBroken(f"{a.name} has already acted this round", pursuit.PASSENGERS)
    if not a.aboard and a.attacks_made >= a.attacks_per_round:
        raise RuleBroken(f"{a.attacks_per_round} attack(s) a round, already made", pursuit.RANGED)
    return a


def shoot_tire(
    chase: RoadChase, shooter_id: str, vehicle_id: str, dice: RollSources, *, weapon: str, difficulty: str = "regular", bonus_dice: int = 0,
    penalty_dice: int = 0, moving: bool = False, malfunction: str | None = None,
) -> dict[str, Any]:
    """Shoot at a vehicle's tire: an extra penalty die; armor 3; only impaling weapons harm it; 2
    points burst it, and a burst tire costs the vehicle 1 Build. ``moving``: shot while racing on."""
    a = check_shoot_tire(chase, shooter_id)
    v = chase.participant(vehicle_id)
    if v.kind != "vehicle":
        raise InvalidCommand("vehicle_id", f"{v.name} is not a vehicle")
    if v.id == a.vehicle:
        raise RuleBroken(f"{a.name} rides in {v.name}", pursuit.RANGED)
    mishaps.require_damageable(v)
    armed = arms.armed(a, weapon, shots=1)
    w = armed.weapon
    if not w.firearm:
        raise InvalidCommand("weapon", f"{w.name} is not a firearm")
    pursuit.require_impaling(w.name, w.impales)
    if difficulty not in percentile.DIFFICULTIES:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(percentile.DIFFICULTIES)}")
    if a.aboard:
        cost = 0
    else:
        cost = 0 if moving else pursuit.STOPPING_COST
        if a.movement_actions < cost:
            raise RuleBroken("stopping to shoot costs 1 movement action; none left", pursuit.RANGED)
    penalty = penalty_dice + pursuit.TIRE_PENALTY + (pursuit.ON_THE_MOVE_PENALTY if moving else 0)
    value = keeper_rolls.value_of(a, w.skill)
    record = keeper_rolls.skill_roll(chase, dice, "attack", a.id, a.id, f"shot at a tire of {v.name}", w.skill, value, difficulty=difficulty, bonus=bonus_dice, penalty=penalty)
    jam = arms.malfunction_kind(w, malfunction) if arms.malfunctioned(w, record["result"]) else None
    hit = jam is None and percentile.meets(record["level"], difficulty)
    rolls, rolled = [record], 0
    if hit:
        lands = weapon_damage.blow(w.damage, a.damage_bonus, extreme=False, impales=False)
        rolled = lands.amount(0)
        if lands.rolled is not None:
            _, damage = keeper_rolls.amount_roll(chase, dice, "damage", lands.rolled, a.id, f"damage to a tire of {v.name}", None)
            rolls += [damage] if damage else []
            rolled = lands.amount(damage["total"] if damage else 0)
    tire = pursuit.tire_hit(rolled, w.impales)
    chase.trigger_event(
        pursuit_events.TireShot, attacker_id=a.id, vehicle_id=v.id, weapon=w.name, roll_sequence=record["sequence"], hit=hit, rolled=rolled,
        taken=tire.taken, burst=tire.burst, movement_actions_spent=cost, movement_actions_left=a.movement_actions - cost,
    )
    spent = 0 if jam == "jam" else 1
    chase.trigger_event(combat_events.ShotsFired, participant_id=a.id, weapon=w.name, shots=spent, loaded_after=armed.carried["loaded"] - spent, malfunction=jam)
    if tire.burst:
        loss = mishaps.lose_build(chase, v, f"a tire burst, shot by {a.name}", points=pursuit.BURST_TIRE_BUILD, sequence=record["sequence"])
        if loss is not None:
            rolls += mishaps.vehicle_aftermath(chase, v, loss, f"a tire burst, shot by {a.name}", None, dice)
    rounds.turn_goes_on(chase, a, passenger_acted=True)
    return {"hit": hit, "burst": tire.burst, "taken": tire.taken, "malfunction": jam, "rolls": rolls}


def control_due(chase: RoadChase, driver: Any) -> bool:
    """A driver with a major wound at the wheel that no roll to keep control has answered yet.
    A major wound is one blow of half their hit points or more (coc7e-combat.txt "Major Wound"),
    so it is counted per blow: lesser blows adding up to as much call for no roll."""
    if driver.seat != "driver" or driver.status != "in_chase" or not driver.major_wound:
        return False
    pursuit = pursuit_events.read(chase)
    return pursuit.get("major_wounds", {}).get(driver.id, 0) > pursuit.get("control_answered", {}).get(driver.id, 0)


def check_navigate(chase: RoadChase, navigator_id: str) -> Any:
    """The guard of ``navigate`` before the skill named: a passenger on their turn, the vehicle's
    one navigator this round."""
    chase.require_optional_rule(PASSENGERS_RULE)
    n = rounds.require_turn(chase, navigator_id)
    if not n.aboard or n.seat != "passenger":
        raise RuleBroken(f"{n.name} is not a passenger: a passenger assists the driver", pursuit.PASSENGERS)
    if n.attacks_made:
        raise RuleBroken(f"{n.name} has already acted this round", pursuit.PASSENGERS)
    if any(p.vehicle == n.vehicle and p.id != n.id and p.attacks_made and _navigated(chase, p.id) for p in chase.participants.values()):
        raise RuleBroken("one passenger assists the driver with navigation", pursuit.PASSENGERS)
    return n


def check_keep_control(chase: RoadChase, driver_id: str) -> Any:
    """The guard of ``keep_control``: a driver with a major wound not yet answered by a roll."""
    chase.require_optional_rule(DRIVER_DAMAGE_RULE)
    chase.require_not_ended()
    d = chase.participant(driver_id)
    if d.seat != "driver":
        raise RuleBroken(f"{d.name} is not driving a vehicle", pursuit.DRIVER_DAMAGE)
    if not control_due(chase, d):
        raise RuleBroken(f"{d.name} has no major wound since the last roll to keep control", pursuit.DRIVER_DAMAGE)
    return d


def keep_control(chase: RoadChase, driver_id: str, dice: RollSources, *, target: int | None = None) -> dict[str, Any]:
    """After a major wound: a Hard roll of the driving skill, as for a hazard; unconscious, control
    is lost without one. Lost, the vehicle has a mishap of the Hard row for the Keeper to rule on."""
    d = check_keep_control(chase, driver_id)
    v = chase.participant(d.vehicle)
    check = pursuit.driver_damage(major_wound=True, unconscious=d.incapacitated)
    rolls, sequence, kept = [], None, False
    skill = v.driving_skill or "Drive Auto"
    if check.roll:
        _, value = keeper_rolls.roller_value(chase, d, skill, target)
        record = keeper_rolls.skill_roll(
            chase, dice, "skill", v.id, d.id, f"keeping control of {v.name} after a major wound", skill, value,
            difficulty=pursuit.CONTROL_DIFFICULTY, penalty=keeper_rolls.impaired_penalty(v, skill),
        )
        rolls, sequence, kept = [record], record["sequence"], record["success"]
    chase.trigger_event(pursuit_events.ControlRolled, driver_id=d.id, vehicle_id=v.id, roll_sequence=sequence, kept_control=kept, damage=d.damage)
    if not kept:
        chase.trigger_event(
            obstacle_events.MishapIncurred, participant_id=v.id, cause=f"{d.name} lost control after a major wound", kind="hazard",
            difficulty=pursuit.CONTROL_DIFFICULTY, vehicle=True, default_incident=DEFAULT_BY_DIFFICULTY[pursuit.CONTROL_DIFFICULTY], obstacle_id=None,
        )
    return {"kept_control": kept, "unconscious": not check.roll, "rolls": rolls}


def check_create_hazard(chase: RoadChase, participant_id: str) -> Any:
    """The guard of ``create_hazard`` before the action named: the rule in use, a character's turn."""
    chase.require_optional_rule(CREATING_RULE)
    p = rounds.require_turn(chase, participant_id)
    if p.kind == "vehicle":
        raise RuleBroken(f"{p.name} is a vehicle: its driver and passengers are the characters who create hazards", pursuit.CREATING_HAZARDS)
    return p


def create_hazard(
    chase: RoadChase, participant_id: str, obstacle_id: str, dice: RollSources, *, action: str, obstacle: dict[str, Any] | None = None,
    skill: str | None = None, target: int | None = None, difficulty: str = "regular", weapon: str | None = None,
) -> dict[str, Any]:
    """Create a hazard or barrier on one's turn: its cost in movement actions, its roll, and on a
    success the obstacle the Keeper rules it to be (``obstacle``: name, skills, difficulty, hit
    points, between; by default the stretch behind the creator). ``weapon``: the gun fired to
    panic a crowd (a round spent)."""
    p = check_create_hazard(chase, participant_id)
    c = pursuit.creation(action)
    # Passengers have no movement actions: their one action on their turn is what they do
    # ("throw things out of the car to obstruct those following"), but not a whole round's work.
    if p.aboard and c.whole_round:
        raise RuleBroken(f"{p.name} rides in a vehicle: {action} takes a whole chase round on foot", pursuit.CREATING_HAZARDS)
    cost = 0 if p.aboard else pursuit.creation_cost(c, p.movement_actions, _full_allotment(chase, p))
    here = chase.track.location_of(p.vehicle or p.id)
    spec = {"kind": c.makes, "name": action.capitalize(), "skills": ["DEX"], "between": [max(here - 1, 0), here], **(obstacle or {})}
    if weapon is not None:
        armed = arms.armed(p, weapon, shots=1)
        if not armed.weapon.firearm:
            raise InvalidCommand("weapon", f"{armed.weapon.name} is not a gun")
    rolls, record, success = [], None, True
    chosen = None
    if c.skills:
        chosen = skill or c.skills[0]
        if chosen not in c.skills:
            raise InvalidCommand("skill", f"{action}: one of {', '.join(c.skills)}")
        roller, value = keeper_rolls.roller_value(chase, p, chosen, target)
        record = keeper_rolls.skill_roll(chase, dice, "skill", p.id, roller.id, f"{action} ({pursuit.CREATING_HAZARDS})", chosen, value, difficulty=difficulty)
        rolls, success = [record], record["success"]
    if weapon is not None:
        chase.trigger_event(combat_events.ShotsFired, participant_id=p.id, weapon=armed.weapon.name, shots=1, loaded_after=armed.carried["loaded"] - 1, malfunction=None)
    chase.trigger_event(
        pursuit_events.HazardCreated, participant_id=p.id, creation=action, skill=chosen, roll_sequence=record["sequence"] if record else None,
        success=success, obstacle_id=obstacle_id if success else None, movement_actions_spent=cost, movement_actions_left=p.movement_actions - cost,
    )
    if success:
        track_features.place_obstacle(chase, obstacle_id, spec)
    rounds.turn_goes_on(chase, p, passenger_acted=True)
    return {"success": success, "obstacle_id": obstacle_id if success else None, "rolls": rolls}


def _full_allotment(chase: RoadChase, p: Any) -> int:
    """A whole round's movement actions by MOV ("Movement Actions"); a round shortened by actions
    owed from the last is not a whole one."""
    return movement.allotment(p.chase_mov, chase.slowest_mov, 0)[0]


def _navigated(chase: RoadChase, passenger_id: str) -> bool:
    return any(g["navigator_id"] == passenger_id and g["round"] == chase.round for g in pursuit_events.read(chase)["navigation"].values())
