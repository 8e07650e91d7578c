"""Part 5's optional rules on the road and the trail over HTTP (coc7e-chases.txt "Sudden Hazards",
"Pedal to the Metal", "Escaping the Pursuer", "Passengers", "Ranged Attacks During a Chase",
"Driver Damage", "Characters Creating Hazards"). Each is refused with a 409 naming the rule when
the chase does not use it (PUT .../optional-rules). Load, call the application, dump.
"""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView
from api.parsing import Blueprint

from api import schemas as s
from api.auth import principal
from api.chases import expected_version, result
from api.systems.coc7e import pursuit_schemas as p
from api.systems.coc7e.chases import coc7e
from api.systems.coc7e.obstacles import present, rolls

blp = Blueprint("coc7e-pursuit", __name__, url_prefix="/chases", description="Call of Cthulhu 7e optional rules: sudden hazards, acceleration, visibility, hiding, passengers, shooting, driver damage, created hazards")
PARTICIPANT = "/<uuid:chase_id>/participants/<participant_id>"


def _answer(answer):
    outcome, chase = answer
    return result(chase, rolls=outcome.pop("rolls", []), outcome=outcome)


def pursuit():
    return coc7e().pursuit


@blp.route("/<uuid:chase_id>/sudden-hazards")
class SuddenHazards(MethodView):
    @blp.arguments(p.SuddenHazardCall)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Call for a sudden hazard: a group Luck roll (rolls.luck). Passed, the players place it;
        failed, the Keeper. The players and the Keeper alternate in calling."""
        choice = rolls(data)
        called_by = data.pop("called_by")
        return _answer(pursuit().call_sudden_hazard(chase_id, called_by=called_by, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route("/<uuid:chase_id>/sudden-hazards/placement")
class SuddenHazardPlacement(MethodView):
    @blp.arguments(p.SuddenHazardPlacement)
    @blp.response(201, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Put the sudden hazard into play between two adjacent locations, at the difficulty it was
        called at: by the players (or the Keeper for them) if they won the Luck roll, else the Keeper."""
        obstacle_id, chase = pursuit().place_sudden_hazard(chase_id, data, expected_version(), by=principal(chase_id))
        return result(chase, 201, obstacle_id=obstacle_id)


@blp.route(f"{PARTICIPANT}/accelerate")
class Accelerate(MethodView):
    @blp.arguments(p.Accelerate)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Pedal to the metal: one movement action covers 2 to 5 locations, stopping in front of a
        hazard or barrier, which then takes 1 (2-3 locations) or 2 (4-5) penalty dice, none on
        barriers, and nothing more to move on. Passed, the vehicle speeds on; failed, it stops."""
        return _answer(pursuit().accelerate(chase_id, participant_id, data["locations"], expected_version(), by=principal(chase_id)))


@blp.route(f"{PARTICIPANT}/visibility")
class Visibility(MethodView):
    @blp.arguments(p.Visibility)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """How far the driver can see (the Keeper's number, or 1D3 city, 1D6 suburbs, 1D10 country);
        each stretch in view not yet made is rolled on the random hazards table."""
        choice = rolls(data)
        return _answer(pursuit().judge_visibility(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/follow-trail")
class FollowTrail(MethodView):
    @blp.arguments(p.FollowTrail)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """A pursuer's roll to pick up the quarry's trail (Track by default); failed, the pursuer is
        left behind, and with no pursuer left the chase is over."""
        choice = rolls(data)
        quarry = data.pop("quarry_id")
        return _answer(pursuit().follow_trail(chase_id, participant_id, quarry, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/hide")
class Hide(MethodView):
    @blp.arguments(p.Hide)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """A quarry hides: Stealth at the Keeper's difficulty and bonus dice; a vehicle, one roll
        against both Stealth and Drive Auto. Hidden (and not found by a searcher's Spot Hidden), it escapes."""
        choice = rolls(data)
        return _answer(pursuit().hide(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/navigate")
class Navigate(MethodView):
    @blp.arguments(p.Navigate)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """A passenger's action: Spot Hidden or Navigate; a success lets the vehicle accelerate once on
        its next move with 1 fewer penalty die."""
        choice = rolls(data)
        return _answer(pursuit().navigate(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/attack-on-the-move")
class AttackOnTheMove(MethodView):
    @blp.arguments(p.AttackOnTheMove)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """An attack (POST .../attack's body) while racing on: one more penalty die, no movement
        action (stopping to shoot is .../attack, for 1 movement action)."""
        choice = rolls(data)
        return _answer(pursuit().shoot_on_the_move(chase_id, participant_id, with_weapon="attack", rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/fire-on-the-move")
class FireOnTheMove(MethodView):
    @blp.arguments(p.FireOnTheMove)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Several shots, a burst or full auto (POST .../fire's body) while racing on: one more
        penalty die, no movement action."""
        choice = rolls(data)
        return _answer(pursuit().shoot_on_the_move(chase_id, participant_id, with_weapon="fire", rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/shoot-tire")
class ShootTire(MethodView):
    @blp.arguments(p.ShootTire)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Shoot at a vehicle's tire: an extra penalty die, armor 3, impaling guns only; 2 points
        burst it and the vehicle loses 1 Build."""
        choice = rolls(data)
        vehicle = data.pop("vehicle_id")
        return _answer(pursuit().shoot_tire(chase_id, participant_id, vehicle, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/keep-control")
class KeepControl(MethodView):
    @blp.arguments(p.KeepControl)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """A driver after a major wound: a Hard Drive Auto roll as for a hazard (unconscious: control
        is lost). Lost, the vehicle has a mishap for the Keeper (.../consequences; moderate incident by default)."""
        choice = rolls(data)
        return _answer(pursuit().keep_control(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))


@blp.route(f"{PARTICIPANT}/create-hazard")
class CreateHazard(MethodView):
    @blp.arguments(p.CreateHazard)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Create a hazard or barrier on one's turn: secure a door (1 movement action), lock it
        (Locksmith, a whole round), block it (STR, 1 movement action), upend a stall (1 movement
        action), panic a crowd (Luck), raise the cry (Fast Talk or Intimidate)."""
        choice = rolls(data)
        return _answer(pursuit().create_hazard(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)))
