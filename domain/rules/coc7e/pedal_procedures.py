"""Sudden hazards, pedal to the metal and visibility in play (coc7e-chases.txt "Sudden Hazards",
"Pedal to the Metal"; pure rules in pursuit.py, events in pursuit_events.py).

An accelerated movement action is announced and paid for at once (Accelerated), then travelled
(Sped) until the distance is covered or a hazard or barrier stands in the way (ObstacleReached).
The driver then negotiates it as any obstacle (obstacle_procedures.negotiate), which asks this
module what the speed changes: nothing more to pay to move on, the acceleration's penalty dice on a
hazard (``at_speed``). Passed, the vehicle speeds on (``goes_on``); failed, the acceleration ends
and "any further movement must be paid for and started afresh".
"""
from __future__ import annotations

from typing import Any, Protocol

from domain.rules.coc7e import forks, keeper_rolls, mishaps, obstacle_events, obstacles, pursuit, pursuit_events, random_hazards, rounds, track_features
from domain.rules.coc7e.errors import InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant


class PursuitChase(mishaps.MishapChase, Protocol):
    """What part 5's procedures on the road and the trail use of a chase: the mishaps' needs
    (rounds, rolls, track, damage), the optional rules' switch, and the record's id and version
    (the keys of the random hazards rolled for a stretch in view)."""

    id: Any
    version: int
    slowest_mov: int | None

    def require_optional_rule(self, name: str) -> Any: ...

    def uses(self, name: str) -> bool: ...

SUDDEN_HAZARDS_RULE = "sudden_hazards"
PEDAL_RULE = "pedal_to_the_metal"
VISIBILITY_RULE = "visibility"


# -- Sudden hazards ------------------------------------------------------------------------------

def call_sudden_hazard(
    chase: PursuitChase, dice: RollSources, *, called_by: str, target: int | None = None, roller_id: str | None = None, difficulty: str = pursuit.SUDDEN_DIFFICULTY,
) -> dict[str, Any]:
    """A group Luck roll for a sudden hazard: passed, the players place it; failed, the Keeper.

    ``target``: the group's Luck (the lowest of the investigators'), or ``roller_id``'s Luck.
    ``difficulty``: the hazard's, Regular unless the Keeper raises it for a long chase."""
    sudden = check_call_sudden_hazard(chase)
    pursuit.require_caller(called_by, sudden["last_called_by"])
    if difficulty not in obstacles.DIFFICULTIES:
        raise InvalidCommand("difficulty", f"must be one of {', '.join(obstacles.DIFFICULTIES)}")
    roller = chase.participant(roller_id) if roller_id is not None else None
    if roller is None and target is None:
        raise InvalidCommand("target", "give the group's Luck (the lowest), or the roller whose Luck is rolled")
    value = target if target is not None else keeper_rolls.value_of(roller, "Luck")
    record = keeper_rolls.skill_roll(chase, dice, "luck", roller_id, roller_id, f"group Luck roll: sudden hazard called by the {called_by}", "Luck", value)
    placed_by = pursuit.sudden_hazard_placer(record["success"])
    chase.trigger_event(
        pursuit_events.SuddenHazardCalled, called_by=called_by, roll_sequence=record["sequence"], luck_passed=record["success"],
        placed_by=placed_by, difficulty=difficulty,
    )
    return {"luck_passed": record["success"], "placed_by": placed_by, "rolls": [record]}


def check_call_sudden_hazard(chase: PursuitChase) -> dict[str, Any]:
    """The guard of ``call_sudden_hazard`` before the side calling: the rule in use, the chase
    running, the last one placed. Answers the sudden hazards' state."""
    chase.require_optional_rule(SUDDEN_HAZARDS_RULE)
    _require_running(chase)
    sudden = pursuit_events.read(chase)["sudden_hazards"]
    if sudden["pending"] is not None:
        raise RuleBroken(f"the last sudden hazard is still to be placed by the {sudden['pending']['placed_by']}", pursuit.SUDDEN_HAZARDS)
    return sudden


def check_place_sudden_hazard(chase: PursuitChase) -> dict[str, Any]:
    """The guard of ``place_sudden_hazard`` before the place named: the rule in use, one called
    and not yet placed (answered: its placer and difficulty)."""
    chase.require_optional_rule(SUDDEN_HAZARDS_RULE)
    pending = pursuit_events.read(chase)["sudden_hazards"]["pending"]
    if pending is None:
        raise RuleBroken("no sudden hazard awaits placing: call one first", pursuit.SUDDEN_HAZARDS)
    return pending


def place_sudden_hazard(chase: PursuitChase, obstacle_id: str, spec: dict[str, Any]) -> str:
    """Put the sudden hazard into play where its placer says, at the difficulty it was called at."""
    pending = check_place_sudden_hazard(chase)
    if "difficulty" in spec or "kind" in spec:
        raise InvalidCommand("difficulty" if "difficulty" in spec else "kind", "a sudden hazard is a hazard of the difficulty it was called at")
    track_features.place_obstacle(chase, obstacle_id, {**spec, "kind": "hazard", "difficulty": pending["difficulty"]})
    chase.trigger_event(pursuit_events.SuddenHazardPlaced, obstacle_id=obstacle_id, placed_by=pending["placed_by"])
    return pending["placed_by"]


# -- Pedal to the metal ---------------------------------------------------------------------------

def accelerate(chase: PursuitChase, participant_id: str, locations: int) -> dict[str, Any]:
    """Spend one movement action to cover ``locations`` (2 to 5), announced before moving."""
    p = check_accelerate(chase, participant_id)
    navigated = navigation_ready(chase, p.id)
    penalty = pursuit.acceleration_penalty(locations, navigated=navigated)
    start = chase.track.location_of(p.id)
    chase.trigger_event(
        pursuit_events.Accelerated, participant_id=p.id, locations=locations, penalty_dice=penalty, navigated=navigated,
        from_location=start, movement_actions_spent=obstacles.MOVE_COST, movement_actions_left=p.movement_actions - obstacles.MOVE_COST,
    )
    speed_on(chase, p)
    return {"penalty_dice": penalty, "navigated": navigated, "location": chase.track.location_of(p.id)}


def check_accelerate(chase: PursuitChase, participant_id: str) -> Participant:
    """The guard of ``accelerate`` before the locations announced: a vehicle on its turn, not still
    covering the last ones, with a movement action left."""
    chase.require_optional_rule(PEDAL_RULE)
    p = rounds.require_turn(chase, participant_id)
    if p.kind != "vehicle":
        raise RuleBroken(f"{p.name} is not a vehicle: only vehicles accelerate", pursuit.PEDAL_TO_THE_METAL)
    if live(chase, p.id):
        raise RuleBroken(f"{p.name} is still covering the locations announced: negotiate what lies ahead", pursuit.PEDAL_TO_THE_METAL)
    if p.movement_actions < obstacles.MOVE_COST:
        raise RuleBroken(f"{p.name} has no movement actions left this round", pursuit.PEDAL_TO_THE_METAL)
    return p


def live(chase: PursuitChase, participant_id: str) -> dict[str, Any] | None:
    """The acceleration under way for ``participant_id`` this round, if any."""
    acc = pursuit_events.read(chase)["accelerations"].get(participant_id)
    here = chase.track.location_of(participant_id)
    return acc if acc is not None and acc["round"] == chase.round and here is not None and acc["to_location"] > here else None


def at_speed(chase: PursuitChase, p: Participant, kind: str) -> tuple[int, int]:
    """(movement cost to move on, penalty dice) for negotiating an obstacle: an acceleration
    under way has paid for the move, and hazards take its penalty dice."""
    acc = live(chase, p.id)
    if acc is None:
        return obstacles.MOVE_COST, 0
    return 0, pursuit.hazard_penalty(kind, acc["penalty_dice"])


def speed_on(chase: PursuitChase, p: Participant) -> None:
    """Travel what is left of the acceleration, stopping in front of a hazard or barrier."""
    acc = live(chase, p.id)
    if acc is None:
        return
    start = chase.track.location_of(p.id)
    left = acc["to_location"] - start
    blocking = next((o for o in (track_features.obstacle_ahead(chase, at) for at in range(start, start + left)) if o), None)
    # A choice of routes stops it too, until the driver takes one; it then speeds on (routes.py).
    fork = forks.fork_unchosen(chase, p.id, start, left)
    if fork is not None and (blocking is None or fork < blocking["from_location"]):
        blocking, left = None, fork - start
    moved = blocking["from_location"] - start if blocking else left
    if moved:
        chase.trigger_event(pursuit_events.Sped, participant_id=p.id, from_location=start, to_location=start + moved)
        for location in range(start + 1, start + moved + 1):
            rounds.record_caught_up(chase, p, location)
    if blocking is not None:
        chase.trigger_event(
            obstacle_events.ObstacleReached, participant_id=p.id, obstacle_id=blocking["id"], location=start + moved, locations_not_moved=left - moved,
        )
    goes_on(chase, p)


def after_obstacle(chase: PursuitChase, p: Participant, passed: bool, moved_on: bool) -> None:
    """After negotiating or breaking through: speed on when passed, else the acceleration ends."""
    acc = live(chase, p.id)
    if acc is None:
        rounds.turn_goes_on(chase, p)
        return
    if passed and moved_on and p.status == "in_chase":
        speed_on(chase, p)
        return
    left = acc["to_location"] - chase.track.location_of(p.id)
    chase.trigger_event(pursuit_events.AccelerationEnded, participant_id=p.id, locations_not_moved=left, reason="failed to negotiate what lay ahead")
    rounds.turn_goes_on(chase, p)


def goes_on(chase: PursuitChase, p: Participant) -> None:
    """The turn goes on while an acceleration still has locations to cover, however few
    movement actions are left."""
    if live(chase, p.id) is None or p.status != "in_chase":
        rounds.turn_goes_on(chase, p)


def navigation_ready(chase: PursuitChase, vehicle_id: str) -> bool:
    """A navigator's success counts "on the vehicle's next move": this round or the next."""
    given = pursuit_events.read(chase)["navigation"].get(vehicle_id)
    return given is not None and given["round"] >= chase.round - 1


# -- Visibility -----------------------------------------------------------------------------------

def check_visibility(chase: PursuitChase, participant_id: str) -> Participant:
    """The guard of ``judge_visibility`` before the area or locations: the rule in use, one in the chase under way."""
    chase.require_optional_rule(VISIBILITY_RULE)
    _require_running(chase)
    p = chase.participant(participant_id)
    if p.status != "in_chase":
        raise RuleBroken(f"{p.name} is not in the chase ({p.status})", pursuit.PEDAL_TO_THE_METAL)
    return p


def judge_visibility(
    chase: PursuitChase, participant_id: str, dice: RollSources, *, area: str | None = None, locations: int | None = None, environment: str = "normal",
) -> dict[str, Any]:
    """How far a driver sees: the Keeper's number of ``locations``, or 1D3 (city), 1D6 (suburbs),
    1D10 (country); each stretch in view not yet made is rolled on the random hazards table
    ("The Keeper may not have determined what these upcoming locations are, and should do so as
    required"; rolls "location.<index>", when the chase uses random hazards). What a hazard or
    barrier *is* stays the Keeper's."""
    p = check_visibility(chase, participant_id)
    if (area is None) == (locations is None):
        raise InvalidCommand("area", "give the area (city, suburbs, country) to roll, or the Keeper's number of locations")
    rolls, sequence = [], None
    if locations is not None:
        if isinstance(locations, bool) or not isinstance(locations, int) or not 1 <= locations <= pursuit.MAX_VISIBILITY:
            raise InvalidCommand("locations", f"must be a whole number from 1 to {pursuit.MAX_VISIBILITY}")
        seen, area = locations, "keeper"
    else:
        seen, record = keeper_rolls.amount_roll(chase, dice, "visibility", pursuit.visibility_dice(area), None, f"how far {p.name} can see ({area})")
        rolls.append(record)
        sequence = record["sequence"] if record else None
    if environment not in random_hazards.ENVIRONMENTS:
        raise InvalidCommand("environment", f"must be one of {', '.join(random_hazards.ENVIRONMENTS)}")
    here = chase.track.location_of(p.vehicle or p.id)
    made = pursuit_events.read(chase)["revealed"]
    # Stretches are made on the random hazards table only where the table uses it; otherwise the
    # Keeper makes them with the obstacle commands.
    rolled = chase.uses("random_hazards")
    revealing = [at for at in range(here, here + seen) if rolled and str(at) not in made and track_features.obstacle_ahead(chase, at) is None]
    chase.trigger_event(
        pursuit_events.VisibilityJudged, participant_id=p.id, area=area, locations=seen, roll_sequence=sequence, from_location=here, revealing=revealing,
    )
    stretches = []
    for at in revealing:
        key = f"visibility {chase.id} {chase.version} {at}"
        needs = keeper_rolls.percentile_needs(*random_hazards.ENVIRONMENTS[environment])
        record = random_hazards.roll_random_hazards(chase, dice(f"location.{at}", needs), key, 1, environment, at, by="keeper")[0]
        chase.trigger_event(pursuit_events.StretchRevealed, location=at, outcome=record["outcome"], roll_sequence=record["sequence"])
        stretches.append({"location": at, "outcome": record["outcome"]})
        rolls.append(record)
    return {"sees": seen, "sees_to": here + seen, "stretches": stretches, "rolls": rolls}


def _require_running(chase: PursuitChase) -> None:
    chase.require_not_ended()
    if chase.phase != "running":
        raise RuleBroken("the chase has not been cut to yet", f"{obstacles.CHASES} \"Cut to the chase\"")
