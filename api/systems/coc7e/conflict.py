"""Call of Cthulhu conflict and mishaps over HTTP: attacks and fighting maneuvers in a chase,
rolls "as if encountering a hazard", and the Keeper's ruling on damage and delays.

coc7e-chases.txt part 4; the Keeper's choices (which damage table row, whether movement actions
are lost, where a thrown character lands, the fate of a wreck's occupants) are inputs with the
rules' defaults. See obstacle_schemas.py for the ``rolls`` each command takes.
"""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView
from api.parsing import Blueprint

from api import schemas as s
from api.auth import principal
from api.dry_run import dry_run_allowed
from api.chases import expected_version, result
from api.systems.coc7e import obstacle_schemas as o
from api.systems.coc7e.chases import coc7e
from api.systems.coc7e.obstacles import present, rolls

blp = Blueprint("coc7e-conflict", __name__, url_prefix="/chases", description="Call of Cthulhu 7e: conflict, fighting maneuvers and mishaps")


@blp.route("/<uuid:chase_id>/participants/<participant_id>/attack")
class Attack(MethodView):
    @blp.arguments(o.Attack)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """An attack or fighting maneuver on the attacker's turn (1 movement action; same
        location unless a firearm), and the target's response whatever its movement actions.
        Vehicles roll their driver's Drive Auto (or chart skill) for Fighting and Dodge and hit
        for 1D10 per Build, taking half what they deal (never more Build than the target had).
        A maneuver compares Builds: 1 or 2 penalty dice, impossible 3 larger; a successful one
        leaves a mishap for the Keeper. rolls: {"attack": [...], "defence": [...], "damage":
        [...], "counter_damage": [...], "thrown_free": {"<occupant id>": [d10, d10]}}."""
        choice = rolls(data)
        target = data.pop("target_id")
        outcome, chase = coc7e().attack(chase_id, participant_id, target, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/fire")
class Fire(MethodView):
    @blp.arguments(o.Fire)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """A gun fired several times in one attack (coc7e-combat.txt "Handguns, Multiple Shots",
        "Automatic Fire"): shots with a penalty die each, a burst, or full auto in volleys sized by
        the SMG or MG skill, each volley one more penalty die (past two: the difficulty a step
        higher); a success hits with half the bullets, an Extreme success with all, half impaling.
        Each target's first roll as a single attack's: distance_yards (difficulty, shotgun band),
        modifiers, prone, an aim, targets diving for cover. One attack of the round; the rounds
        are spent. rolls: {"attack": {"1": [...]}, "damage": {"1.1": [...]}, "dive": {"<id>": [...]}}."""
        choice = rolls(data)
        outcome, chase = coc7e().fire(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/aim")
class Aim(MethodView):
    @blp.arguments(o.Aim)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Take careful aim with a carried gun at a target (coc7e-combat.txt "Aiming (Bonus die)"):
        the turn is spent; the shot at that target with that gun on the next round's turn (attack,
        or fire with one shot) gains a bonus die, lost if the aimer takes damage, moves or does
        anything else first."""
        outcome, chase = coc7e().take_aim(chase_id, participant_id, expected_version=expected_version(), by=principal(chase_id), **data)
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/reload")
class Reload(MethodView):
    @blp.arguments(o.Reload)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """On the participant's turn, one action: load a carried gun (two shells a round; a whole
        clip; a machine-gun belt over two actions), or try to clear its jam (coc7e-combat.txt
        "Reloading Firearms", "Malfunctions"). rolls: {"clear": [...]}."""
        choice = rolls(data)
        outcome, chase = coc7e().reload(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/mishap-roll")
class MishapRoll(MethodView):
    @blp.arguments(o.MishapRoll)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """After a fighting maneuver: a roll "as if encountering a hazard" (the farmer's DEX roll);
        a pass clears the mishap, a failure leaves it for the Keeper's ruling. rolls: {"skill": [...]}."""
        choice = rolls(data)
        skill = data.pop("skill")
        outcome, chase = coc7e().mishap_roll(chase_id, participant_id, skill, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


@blp.route("/<uuid:chase_id>/participants/<participant_id>/consequences")
class Consequences(MethodView):
    @blp.arguments(o.Consequences)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """The Keeper rules on a mishap (or on anyone in the chase): a damage table row (default by
        difficulty), 1D3 lost movement actions (owed into the next round when none are left),
        each occupant's hit points for a vehicle, and where the participant lands. rolls:
        {"damage": [...], "movement_actions": [d3], "occupants": {"<id>": [...]}}."""
        choice = rolls(data)
        incident = data.pop("incident")
        outcome, chase = coc7e().rule_consequences(
            chase_id, participant_id, incident=incident, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data)
        )
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)
