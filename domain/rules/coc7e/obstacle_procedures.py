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

from domain.rules.coc7e import obstacles, vehicles
from domain.rules.coc7e.damage import DEFAULT_BY_DIFFICULTY
from domain.rules.coc7e.errors import CHASES, InvalidCommand, RuleBroken
from domain.rules.coc7e.keeper_rolls import RollSources
from domain.rules.coc7e.participants import Participant
from domain.rules.coc7e.track_features import TrackFeatures, pure

APPROACHES = ("reckless", "cautious")
UNARMED = "1D3+DB"  # coc7e-combat.txt weapons table: Fist/punch (Brawl) 1D3 + damage bonus


class ObstacleProcedures(TrackFeatures):
    """Negotiating and breaking down obstacles, for the Chase aggregate (events are the Chase's)."""

    participants: dict[str, Participant]

    # -- negotiating ---------------------------------------------------------------------------

    def negotiate(
        self,
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
        p, o = self._facing(participant_id, obstacle_id)
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
        plan = obstacles.attempt(
            pure(o), skill, p.movement_actions, caution=caution, penalty_dice=penalty_dice, keeper_accepts_skill=keeper_accepts_skill
        )
        roller, value = self._roller_value(p, plan.skill, target)
        penalty = plan.penalty_dice + self._impaired_penalty(p, plan.skill)
        record = self._skill_roll(
            dice, "skill", p.id, roller.id, f"negotiate {o['kind']}: {o['name']}", plan.skill, value,
            difficulty=o["difficulty"], bonus=plan.bonus_dice, penalty=penalty,
        )
        vehicle = p.kind == "vehicle"
        if o["kind"] == "hazard":
            outcome = obstacles.hazard_outcome(pure(o), record["level"], vehicle=vehicle)
        else:
            outcome = obstacles.barrier_outcome(pure(o), record["level"], vehicle=vehicle)
        start = o["from_location"]
        self.trigger_event(
            self.ObstacleNegotiated,
            participant_id=p.id, obstacle_id=o["id"], kind=o["kind"], skill=plan.skill, approach=plan.approach,
            bonus_dice=plan.bonus_dice, penalty_dice=penalty, roll_sequence=record["sequence"], passed=outcome.passed,
            from_location=start, to_location=start + 1 if outcome.moves_on else start,
            movement_actions_spent=plan.movement_actions_spent, movement_actions_left=p.movement_actions - plan.movement_actions_spent,
        )
        if not outcome.passed and o["kind"] == "hazard":
            # "the Keeper should decide if damage is inflicted ..., and how much": mishaps.py
            self.trigger_event(
                self.MishapIncurred, participant_id=p.id, cause=f"failed the hazard {o['name']}", kind="hazard",
                difficulty=o["difficulty"], vehicle=vehicle, default_incident=DEFAULT_BY_DIFFICULTY[o["difficulty"]], obstacle_id=o["id"],
            )
        if outcome.moves_on:
            self._record_caught_up(p, start + 1)
        self._turn_goes_on(p)
        return {"passed": outcome.passed, "moved_on": outcome.moves_on, "mishap": p.id in self.mishaps, "rolls": [record]}

    def break_barrier(
        self,
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
        p, o = self._facing(participant_id, obstacle_id)
        rule = obstacles.BREAKING
        if o["kind"] != "barrier":
            raise RuleBroken(f"{o['name']} is a hazard: negotiate it (pass or fail, one moves on)", obstacles.HAZARDS)
        if o["hit_points"] is None:
            raise RuleBroken(f"{o['name']} has no hit points: it cannot be broken down, only negotiated", obstacles.BARRIERS)
        if p.movement_actions < obstacles.MOVE_COST:
            raise RuleBroken(f"{p.name} has no movement actions left this round", rule)
        vehicle = p.kind == "vehicle"
        if vehicle and damage is not None:
            raise InvalidCommand("damage", f"a vehicle inflicts 1D10 per point of its Build ({rule})")
        expression = obstacles.ramming_dice(vehicles.as_build(p.build)) if vehicle else (damage or UNARMED)
        self._expression(expression, p)
        if debris is not None:
            self._debris_spec(o, debris)  # checked before anything is rolled
        self._check_aftermath(aftermath)
        amount, record = self._amount_roll(dice, "damage", expression, p.id, f"break down {o['name']}", p)
        barrier = pure(o)
        broken = obstacles.ram(barrier, amount) if vehicle else obstacles.break_down(barrier, amount)
        start = o["from_location"]
        self.trigger_event(
            self.BarrierDamaged,
            participant_id=p.id, obstacle_id=o["id"], damage=amount, roll_sequence=record["sequence"] if record else None,
            hit_points_before=o["hit_points"], hit_points_after=broken.barrier_after.hit_points, destroyed=broken.destroyed,
            from_location=start, to_location=start + 1 if broken.destroyed else start,
            movement_actions_spent=obstacles.MOVE_COST, movement_actions_left=p.movement_actions - obstacles.MOVE_COST,
        )
        rolls = [record] if record else []
        if broken.destroyed and debris is not None:
            self.trigger_event(self.ObstaclePlaced, obstacle=self._debris_spec(o, debris))
        if vehicle and broken.vehicle_wrecked:
            rolls += self._wreck(p, f"failed to break through {o['name']} at speed", aftermath, dice)
        elif vehicle and broken.vehicle_damage:
            rolls += self._vehicle_hit(p, broken.vehicle_damage, None, f"broke through {o['name']} (half its hit points)", aftermath, dice)
        if broken.destroyed and p.status == "in_chase":
            self._record_caught_up(p, start + 1)
        self._turn_goes_on(p)
        return {"destroyed": broken.destroyed, "hit_points_left": broken.barrier_after.hit_points, "rolls": rolls}

    # -- internals -----------------------------------------------------------------------------

    def _facing(self, participant_id: str, obstacle_id: str | None) -> tuple[Participant, dict[str, Any]]:
        p = self._require_turn(participant_id)
        if p.aboard:
            raise RuleBroken(f"{p.name} rides in a vehicle; its driver negotiates for it", f"{CHASES} \"Passengers\"")
        o = self.obstacle_ahead(self.track.location_of(p.id))
        if obstacle_id is not None and obstacle_id not in self.obstacles:
            raise InvalidCommand("obstacle_id", f"no hazard or barrier {obstacle_id} on this chase's track")
        if o is None:
            raise RuleBroken(f"there is no hazard or barrier between {p.name}'s location and the next", obstacles.HAZARDS)
        if obstacle_id is not None and obstacle_id != o["id"]:
            raise RuleBroken(f"{self.obstacles[obstacle_id]['name']} is not ahead of {p.name}; {o['name']} is", obstacles.HAZARDS)
        return p, o

    def _roller_value(self, p: Participant, skill: str, target: int | None) -> tuple[Participant, int]:
        """Who rolls for ``p`` (a vehicle's driver) and the value rolled against."""
        roller = p
        if p.kind == "vehicle":
            driver = self.driver_of(p.id)
            if driver is None:
                raise RuleBroken(f"{p.name} has no driver", f"{CHASES} \"Passengers\"")
            roller = driver
        if target is not None:
            if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 999:
                raise InvalidCommand("target", "must be a whole number from 0 to 999")
            return roller, target
        return roller, self._value_of(roller, skill)

    def _impaired_penalty(self, p: Participant, skill: str) -> int:
        """"impaired; one penalty die is applied to all Drive Auto (or appropriate skill) rolls"."""
        return 1 if p.kind == "vehicle" and p.condition == "impaired" and skill == p.driving_skill else 0

    def _turn_goes_on(self, p: Participant, passenger_acted: bool = False) -> None:
        """After something happened on a turn: whoever's turn it is and is now out of the chase is
        done; so is ``p`` on their own turn once out of movement actions with no mishap awaiting
        the Keeper, or once a passenger has acted ("Passengers": they act once)."""
        current = self.whose_turn
        if current is None:
            return
        c = self.participants[current]
        if c.status != "in_chase":
            self._end_turn(c, "out of the chase")
        elif c.id != p.id:
            return
        elif p.aboard:
            if passenger_acted:
                self._end_turn(p, "passengers act once on their turn")
        elif p.movement_actions == 0 and p.id not in self.mishaps:
            self._end_turn(p, "no movement actions left")
