"""Call of Cthulhu track features over HTTP: location names, hazards and barriers, negotiating
and breaking them down, and the rules' reference data (vehicle charts, sample barriers, tables).

How movement meets obstacles: ``move`` stops in front of the first hazard or standing barrier
(the log shows ObstacleReached; the track view's participant has ``obstacle_ahead``). The
participant then POSTs ``negotiate`` (reckless or cautious, with the skill roll's table dice)
or, for a barrier with hit points, ``break-barrier``. A failed hazard leaves a mishap that the
Keeper rules on with ``consequences`` (conflict.py) before the participant acts again.
"""
from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import g, url_for
from flask.views import MethodView
from api.parsing import Blueprint

from api import schemas as s
from api.auth import principal
from api.dry_run import dry_run_allowed
from api.chases import expected_version, result
from api.systems.coc7e.chases import coc7e
from api.systems.coc7e import obstacle_schemas as o, rules_docs
from application.systems.coc7e.rolls import RollChoices
from domain.rules.coc7e import damage, obstacles, vehicle_charts

blp = Blueprint("coc7e-track", __name__, url_prefix="/chases", description="Call of Cthulhu 7e: locations, hazards and barriers")
reference = Blueprint("coc7e-rules", __name__, url_prefix="/rules/coc7e", description="Call of Cthulhu 7e reference data: vehicle charts, sample barriers, damage tables")


def rolls(data: dict[str, Any]) -> RollChoices:
    """The command's table dice by roll name, and where the rest come from; table dice are
    recorded as entered by whoever's token sent them."""
    return RollChoices(faces=data.pop("rolls", {}), source=data.pop("dice", None), entered_by=g.principal.name, entropy=data.pop("entropy", ""))


def present(data: dict[str, Any]) -> dict[str, Any]:
    """Options the client gave (None-valued defaults left to the domain)."""
    return {k: v for k, v in data.items() if v is not None}


@blp.route("/<uuid:chase_id>/locations/<int:location>")
class Location(MethodView):
    @blp.arguments(o.LocationName)
    @blp.response(200, s.CommandResult)
    def put(self, data, chase_id: UUID, location: int):
        """Name (or rename) a location of the track (0 = the back of the chase)."""
        return result(coc7e().name_location(chase_id, location, data["name"], expected_version(), by=principal(chase_id)))

    @blp.response(200, s.CommandResult)
    def delete(self, chase_id: UUID, location: int):
        """Remove a location's name."""
        return result(coc7e().remove_location_name(chase_id, location, expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/obstacles")
class Obstacles(MethodView):
    @blp.arguments(o.ObstacleCreate)
    @blp.response(201, s.CommandResult)
    def post(self, data, chase_id: UUID):
        """Place a hazard or barrier between two adjacent locations (the Keeper, at set-up or in play)."""
        oid, chase = coc7e().place_obstacle(chase_id, data, expected_version(), by=principal(chase_id))
        return result(chase, 201, location=url_for("coc7e-track.Obstacle", chase_id=chase_id, obstacle_id=oid), obstacle_id=oid)


@blp.route("/<uuid:chase_id>/obstacles/<obstacle_id>")
class Obstacle(MethodView):
    @blp.arguments(o.ObstacleChange)
    @blp.response(200, s.CommandResult)
    def patch(self, data, chase_id: UUID, obstacle_id: str):
        """Change a hazard or barrier: name, skills, difficulty, hit points (or preset), kind, place."""
        return result(coc7e().change_obstacle(chase_id, obstacle_id, data, expected_version(), by=principal(chase_id)))

    @blp.arguments(o.ObstacleRemoval, location="query")
    @blp.response(200, s.CommandResult)
    def delete(self, query, chase_id: UUID, obstacle_id: str):
        """Remove a hazard or barrier from the track."""
        return result(coc7e().remove_obstacle(chase_id, obstacle_id, query["reason"], expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/negotiate")
class Negotiate(MethodView):
    @blp.arguments(o.Negotiate)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """Negotiate the hazard or barrier ahead: reckless (a plain roll) or cautious (1 or 2
        movement actions for as many bonus dice), plus 1 movement action to move on. A hazard is
        crossed pass or fail (a failure leaves a mishap for the Keeper); a barrier only on a pass.
        rolls: {"skill": [tens..., units]}."""
        choice = rolls(data)
        outcome, chase = coc7e().negotiate(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/break-barrier")
class BreakBarrier(MethodView):
    @blp.arguments(o.BreakBarrier)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """Break down the barrier ahead: no attack roll; a character's damage or a vehicle's 1D10
        per Build, for 1 movement action; through it if destroyed. A vehicle that fails is wrecked;
        one that succeeds takes half the barrier's hit points. rolls: {"damage": [...],
        "thrown_free": {"<occupant id>": [d10, d10]}}."""
        choice = rolls(data)
        outcome, chase = coc7e().break_barrier(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


# -- reference data ------------------------------------------------------------------------------


@reference.route("/vehicles")
class VehicleChart(MethodView):
    @reference.response(200, rules_docs.VehicleCharts)
    def get(self):
        """Every vehicle of the "Vehicle Reference Charts", as printed (a motorboat where the water chart misprints "Bicycle")."""
        return {"vehicles": [
            {"name": v.name, "chart": v.chart, "skill": v.skill, "mov": v.mov, "mov_1920s": v.mov_in("1920s"),
             "build": v.build_printed, "armor": v.armor, "passengers": v.passengers, "source": v.source}
            for v in vehicle_charts.VEHICLES
        ]}


@reference.route("/barrier-presets")
class BarrierPresets(MethodView):
    @reference.response(200, rules_docs.BarrierPresets)
    def get(self):
        """The "Sample Barriers and Hit Points"."""
        return {"barrier_presets": [{"name": p.name, "hit_points": p.hit_points, "source": p.source} for p in obstacles.BARRIER_PRESETS]}


@reference.route("/damage-tables")
class DamageTables(MethodView):
    @reference.response(200, rules_docs.DamageTables)
    def get(self):
        """Table VI: Vehicular Collisions (Build) and Table III: Other Forms of Damage (hit points), and the defaults by difficulty."""
        rows = lambda table: [{"key": r.key, "name": r.name, "damage": r.damage, "unit": r.unit, "meaning": r.meaning, "examples": list(r.examples), "source": r.source} for r in table]
        return {"collisions": rows(damage.COLLISIONS), "injuries": rows(damage.INJURIES), "default_by_difficulty": damage.DEFAULT_BY_DIFFICULTY, "lost_movement_actions": damage.LOST_MOVEMENT_ACTIONS}
