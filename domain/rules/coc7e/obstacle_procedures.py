"""The track's hazards and barriers in play: negotiating them and breaking them down.

coc7e-chases.txt part 3 ("Hazards", "Skills and Hazards", "Barriers", "Skills and Barriers",
"Breaking Down Barriers"), on the pure rules of domain.rules.coc7e.obstacles; placing them is
track_features.py. How movement meets them (the design choice of issue 3):

- ``move`` stops in front of the first hazard or standing barrier on its way (ObstacleReached);
  the participant then ``negotiate``s it: reckless (a plain roll) or cautious (1 or 2 movement
  actions for as many bonus dice), paying 1 movement action to move on. A hazard is crossed
  pass or fail; a failed one leaves a mishap for the Keeper to rule on (mishaps.py). A barrier
  is crossed only on a pass; a failure costs the attempt and nothing more unless the Keeper rules.
- ``break_barrier`` attacks the barrier in front instead (no attack roll), for 1 movement action,
  and goes through if it is destroyed.
"""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e import keeper_rolls, mishaps, obstacle_events, obstacles, pedal_procedures, rounds, track_features, vehicles
from domain.rules.coc7e.damage import DEFAULT_BY_DIFFICULTY
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant
from domain.rules.coc7e.track_features import pure

APPROACHES = ("reckless", "cautious")
UNARMED = "1D3+DB"  # coc7e-combat.txt weapons table: Fist/punch (Brawl) 1D3 + damage bonus

# What negotiating and breaking down use of a chase: the mishaps' needs (rounds, rolls, track).
ObstacleChase = mishaps.MishapChase


# -- negotiating ---------------------------------------------------------------------------

def negotiate(
    chase: ObstacleChase,
    participant_id: str,
    dice: RollSources,
    *,
    obstacle_id: str | None = None,
    approach: str = "reckless",
    bonus_dice: int | None = None,
    skill: str | None = None,
    target: int | None = None,
    penalty_dice: int = 0,
    keeper_accepts_skill: bool = False,
) -> dict[str, Any]:
    """Roll to negotiate the hazard or barrier ahead ("Hazards", "Barriers")."""
    p, o = facing(chase, participant_id, obstacle_id)
    if approach not in APPROACHES:
        raise InvalidCommand("approach", f"must be one of {', '.join(APPROACHES)}")
    caution = bonus_dice if bonus_dice is not None else (1 if approach == "cautious" else 0)
    if approach == "reckless" and caution:
        raise InvalidCommand("bonus_dice", "a reckless approach is a plain roll; spend movement actions for bonus dice with a cautious one")
    if approach == "cautious" and caution == 0:
        raise InvalidCommand("bonus_dice", "a cautious approach spends 1 or 2 movement actions for as many bonus dice")
    if skill is None:
        if len(o["skills"]) > 1:
            raise InvalidCommand("skill", f"choose one of {', '.join(o['skills'])}")
        skill = o["skills"][0]
    # An accelerated move has paid for moving on, and puts its penalty dice on hazards ("Pedal to the Metal").
    cost, speeding = pedal_procedures.at_speed(chase, p, o["kind"])
    plan = obstacles.attempt(
        pure(o), skill, p.movement_actions, caution=caution, penalty_dice=penalty_dice + speeding, movement_cost=cost,
        keeper_accepts_skill=keeper_accepts_skill,
    )
    roller, value = keeper_rolls.roller_value(chase, p, plan.skill, target)
    penalty = plan.penalty_dice + keeper_rolls.impaired_penalty(p, plan.skill)
    record = keeper_rolls.skill_roll(
        chase, dice, "skill", p.id, roller.id, f"negotiate {o['kind']}: {o['name']}", plan.skill, value,
        difficulty=o["difficulty"], bonus=plan.bonus_dice, penalty=penalty,
    )
    vehicle = p.kind == "vehicle"
    if o["kind"] == "hazard":
        outcome = obstacles.hazard_outcome(pure(o), record["level"], vehicle=vehicle)
    else:
        outcome = obstacles.barrier_outcome(pure(o), record["level"], vehicle=vehicle)
    start = o["from_location"]
    chase.trigger_event(
        obstacle_events.ObstacleNegotiated,
        participant_id=p.id, obstacle_id=o["id"], kind=o["kind"], skill=plan.skill, approach=plan.approach,
        bonus_dice=plan.bonus_dice, penalty_dice=penalty, roll_sequence=record["sequence"], passed=outcome.passed,
        from_location=start, to_location=start + 1 if outcome.moves_on else start,
        movement_actions_spent=plan.movement_actions_spent, movement_actions_left=p.movement_actions - plan.movement_actions_spent,
    )
    if not outcome.passed and o["kind"] == "hazard":
        # "the Keeper should decide if damage is inflicted ..., and how much": mishaps.py
        chase.trigger_event(
            obstacle_events.MishapIncurred, participant_id=p.id, cause=f"failed the hazard {o['name']}", kind="hazard",
            difficulty=o["difficulty"], vehicle=vehicle, default_incident=DEFAULT_BY_DIFFICULTY[o["difficulty"]], obstacle_id=o["id"],
        )
    if outcome.moves_on:
        rounds.record_caught_up(chase, p, start + 1)
    pedal_procedures.after_obstacle(chase, p, outcome.passed, outcome.moves_on)
    return {"passed": outcome.passed, "moved_on": outcome.moves_on, "mishap": p.id in chase.mishaps, "rolls": [record]}


def break_barrier(
    chase: ObstacleChase,
    participant_id: str,
    dice: RollSources,
    *,
    obstacle_id: str | None = None,
    damage: str | None = None,
    debris: dict[str, Any] | None = None,
    aftermath: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Break down the barrier ahead: no attack roll; a character's damage, a vehicle's 1D10
    per Build ("Breaking Down Barriers"). Costs 1 movement action, like initiating an attack."""
    p, o = check_break(chase, participant_id, obstacle_id)
    rule = obstacles.BREAKING
    vehicle = p.kind == "vehicle"
    if vehicle and damage is not None:
        raise InvalidCommand("damage", f"a vehicle inflicts 1D10 per point of its Build ({rule})")
    expression = obstacles.ramming_dice(vehicles.as_build(p.build)) if vehicle else (damage or UNARMED)
    keeper_rolls.parse_expression(expression, p)
    if debris is not None:
        track_features.debris_spec(chase, o, debris)  # checked before anything is rolled
    mishaps.check_aftermath(chase, aftermath)
    amount, record = keeper_rolls.amount_roll(chase, dice, "damage", expression, p.id, f"break down {o['name']}", p)
    barrier = pure(o)
    broken = obstacles.ram(barrier, amount) if vehicle else obstacles.break_down(barrier, amount)
    start = o["from_location"]
    chase.trigger_event(
        obstacle_events.BarrierDamaged,
        participant_id=p.id, obstacle_id=o["id"], damage=amount, roll_sequence=record["sequence"] if record else None,
        hit_points_before=o["hit_points"], hit_points_after=broken.barrier_after.hit_points, destroyed=broken.destroyed,
        from_location=start, to_location=start + 1 if broken.destroyed else start,
        movement_actions_spent=obstacles.MOVE_COST, movement_actions_left=p.movement_actions - obstacles.MOVE_COST,
    )
    rolls = [record] if record else []
    if broken.destroyed and debris is not None:
        chase.trigger_event(obstacle_events.ObstaclePlaced, obstacle=track_features.debris_spec(chase, o, debris))
    if vehicle and broken.vehicle_wrecked:
        rolls += mishaps.wreck(chase, p, f"failed to break through {o['name']} at speed", aftermath, dice)
    elif vehicle and broken.vehicle_damage:
        rolls += mishaps.vehicle_hit(chase, p, broken.vehicle_damage, None, f"broke through {o['name']} (half its hit points)", aftermath, dice)
    if broken.destroyed and p.status == "in_chase":
        rounds.record_caught_up(chase, p, start + 1)
    pedal_procedures.after_obstacle(chase, p, broken.destroyed, broken.destroyed)
    return {"destroyed": broken.destroyed, "hit_points_left": broken.barrier_after.hit_points, "rolls": rolls}

# -- internals -----------------------------------------------------------------------------

def check_break(chase: ObstacleChase, participant_id: str, obstacle_id: str | None = None) -> tuple[Participant, dict[str, Any]]:
    """The guard of ``break_barrier``: a barrier with hit points ahead, and a movement action to spend."""
    p, o = facing(chase, participant_id, obstacle_id)
    if o["kind"] != "barrier":
        raise RuleBroken(f"{o['name']} is a hazard: negotiate it (pass or fail, one moves on)", obstacles.HAZARDS)
    if o["hit_points"] is None:
        raise RuleBroken(f"{o['name']} has no hit points: it cannot be broken down, only negotiated", obstacles.BARRIERS)
    if p.movement_actions < obstacles.MOVE_COST:
        raise RuleBroken(f"{p.name} has no movement actions left this round", obstacles.BREAKING)
    return p, o


def facing(chase: ObstacleChase, participant_id: str, obstacle_id: str | None) -> tuple[Participant, dict[str, Any]]:
    p = rounds.require_turn(chase, participant_id)
    if p.aboard:
        raise RuleBroken(f"{p.name} rides in a vehicle; its driver negotiates for it", f"{CHASES} \"Passengers\"")
    o = track_features.obstacle_ahead(chase, chase.track.location_of(p.id))
    if obstacle_id is not None and obstacle_id not in chase.obstacles:
        raise InvalidCommand("obstacle_id", f"no hazard or barrier {obstacle_id} on this chase's track")
    if o is None:
        raise RuleBroken(f"there is no hazard or barrier between {p.name}'s location and the next", obstacles.HAZARDS)
    if obstacle_id is not None and obstacle_id != o["id"]:
        raise RuleBroken(f"{chase.obstacles[obstacle_id]['name']} is not ahead of {p.name}; {o['name']} is", obstacles.HAZARDS)
    return p, o
