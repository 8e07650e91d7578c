"""The optional rules of Call of Cthulhu chases over HTTP (coc7e-chases.txt part 5): which the
chase uses, changed by the Keeper, and the list of them with the heading of each. Load, call, dump."""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView

from api import schemas as core
from api.auth import principal
from api.chases import dice, expected_version, result
from api.runtime import ledger
from application.access import KEEPER
from api.systems.coc7e import schemas as s
from api.systems.coc7e.chases import blp, coc7e
from api.systems.coc7e import rules_docs
from api.systems.coc7e.obstacles import reference
from domain.rules.coc7e.optional_rules import RULES


@blp.route("/<uuid:chase_id>/optional-rules")
class OptionalRules(MethodView):
    @blp.arguments(s.OptionalRules)
    @blp.response(200, core.CommandResult)
    def put(self, data, chase_id: UUID):
        """The Keeper chooses which optional rules the chase uses from now on (an action undo takes back)."""
        return result(coc7e().optional.change_optional_rules(chase_id, data["optional_rules"], expected_version(), by=principal(chase_id)))


@reference.route("/optional-rules")
class OptionalRuleList(MethodView):
    @reference.response(200, rules_docs.OptionalRuleList)
    def get(self):
        """Every optional rule of part 5, by the name POST /chases and PUT .../optional-rules take."""
        return {"optional_rules": [{"name": r.name, "what": r.what, "source": r.source} for r in RULES]}


@blp.route("/<uuid:chase_id>/participants/<participant_id>/join")
class Join(MethodView):
    @blp.arguments(s.Join)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The Keeper places one joining the chase in progress, after their speed roll (optional rule joining_and_leaving)."""
        return result(coc7e().optional.join(chase_id, participant_id, data["location"], data["keep_if_slower"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/leave")
class Leave(MethodView):
    @blp.arguments(s.Leave)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The Keeper rules that a participant leaves the chase; no one's movement actions change (optional rule joining_and_leaving)."""
        return result(coc7e().optional.leave(chase_id, participant_id, data["reason"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/switch-mode")
class SwitchMode(MethodView):
    @blp.arguments(s.SwitchMode)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The Keeper rules a switch to swimming, flying or back on foot, keeping the speed roll's +1 or -1 (optional rule switching_modes)."""
        switched, chase = coc7e().optional.switch_mode(chase_id, participant_id, data["mode"], data["mov"], expected_version(), by=principal(chase_id))
        return result(chase, outcome=switched)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/board")
class Board(MethodView):
    @blp.arguments(s.Board)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """On their turn, a character on foot takes the wheel and makes a fresh speed roll with the vehicle's skill (optional rule switching_modes)."""
        roll, chase = coc7e().optional.board(chase_id, participant_id, data["vehicle_id"], dice(data), expected_version(), by=principal(chase_id))
        return result(chase, rolls=[roll])


@blp.route("/<uuid:chase_id>/participants/<participant_id>/alight")
class Alight(MethodView):
    @blp.arguments(core.DiceInput)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """A character gets out of a vehicle and makes a fresh speed roll with CON; a vehicle its driver left stops (optional rule switching_modes)."""
        roll, chase = coc7e().optional.alight(chase_id, participant_id, dice(data), expected_version(), by=principal(chase_id))
        return result(chase, rolls=[roll])


@blp.route("/<uuid:chase_id>/participants/<participant_id>/fly-over")
class FlyOver(MethodView):
    @blp.arguments(core.Empty)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """A flier crosses the Jump or Climb hazard or barrier ahead without a roll, for a movement action (optional rule monsters)."""
        return result(coc7e().optional.fly_over(chase_id, participant_id, expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/substitute-skill")
class SubstituteSkill(MethodView):
    @blp.arguments(s.SubstituteSkill)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The Keeper gives a monster a skill it lacks: its DEX (or another characteristic), in full, half or one-fifth (optional rule monsters)."""
        value, chase = coc7e().optional.substitute_skill(chase_id, participant_id, expected_version(), by=principal(chase_id), **data)
        return result(chase, outcome=value)


@blp.route("/<uuid:chase_id>/fleeing-the-scene")
class FleeingTheScene(MethodView):
    @blp.arguments(s.FleeingTheScene, location="query")
    @blp.response(200, rules_docs.FleeingTheScene)
    @blp.alt_response(409, description="the optional rule is off, or the round asked for has not begun (coc7e-chases.txt \"Fleeing the Scene\")")
    def get(self, query, chase_id: UUID):
        """Locations each participant covered in ?rounds= rounds from ?from_round= (default 1) (optional rule fleeing_the_scene)."""
        principal(chase_id)
        return coc7e().optional.fleeing_the_scene(chase_id, query["rounds"], query["from_round"])


@blp.route("/<uuid:chase_id>/forks")
class Forks(MethodView):
    @blp.arguments(s.Fork)
    @blp.response(201, core.CommandResult)
    def post(self, data, chase_id: UUID):
        """The Keeper presents a choice of routes where the track branches (optional rule choosing_a_route)."""
        return result(coc7e().optional.place_fork(chase_id, data["at"], data["routes"], expected_version(), by=principal(chase_id)), 201)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/choose-route")
class ChooseRoute(MethodView):
    @blp.arguments(s.ChooseRoute)
    @blp.response(200, core.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """At a fork, on their turn, a participant takes a route; moves stop at a fork until then (optional rule choosing_a_route)."""
        return result(coc7e().optional.choose_route(chase_id, participant_id, data["route"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/split")
class Split(MethodView):
    @blp.arguments(s.Split)
    @blp.response(201, core.CommandResult)
    def post(self, data, chase_id: UUID):
        """The Keeper splits groups off the chase, each into a chase of its own, linked to this one and to each other
        (optional rule splitting_up); answers each new chase with its Keeper's token (shown once)."""
        chase, parts = coc7e().optional.split(chase_id, data["groups"], expected_version(), by=principal(chase_id))
        made = [{"chase_id": part["chase_id"], "keeper_token": ledger().access.issue(part["chase_id"], KEEPER, label="keeper"), "chase": part} for part in parts]
        return result(chase, 201, chases=made)
