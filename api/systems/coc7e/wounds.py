"""Call of Cthulhu wounds and healing over HTTP (coc7e-combat.txt "Wounds and Healing"): the
Keeper's damage, dying rolls, First Aid, Medicine, recovery, and coming to or standing up.

Every blow a character takes is read as regular damage, a major wound (prone, and a CON roll
against unconsciousness: the roll "con"), death (more than their maximum hit points in one blow)
or zero hit points (unconscious; dying with a major wound). See obstacle_schemas.py for ``rolls``.
"""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView
from api.parsing import Blueprint

from api import schemas as s
from api.auth import principal
from api.chases import expected_version, result
from api.systems.coc7e import wound_schemas as w
from api.systems.coc7e.chases import coc7e
from api.systems.coc7e.obstacles import present, rolls

blp = Blueprint("coc7e-wounds", __name__, url_prefix="/chases", description="Call of Cthulhu 7e: wounds, dying, First Aid, Medicine and recovery")
PATIENT = "/<uuid:chase_id>/participants/<participant_id>"


def _treat(treatment: str, data: dict, chase_id: UUID, participant_id: str):
    choice = rolls(data)
    outcome, chase = coc7e().wounds(chase_id, participant_id, treatment, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
    return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


@blp.route(f"{PATIENT}/damage")
class Damage(MethodView):
    @blp.arguments(w.Damage)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The Keeper's damage in one blow (a fall, a bite, Other Forms of Damage), less armor; the
        blow is read as a wound. rolls: {"con": {"<id>": [...]}} for a major wound's CON roll."""
        return _treat("damage", data, chase_id, participant_id)


@blp.route(f"{PATIENT}/dying-roll")
class DyingRoll(MethodView):
    @blp.arguments(w.DyingRoll)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """A dying character's CON roll (each round; stabilised, each hour): failed, they die
        (stabilised: they lose the temporary hit point and are dying again). rolls: {"con": [...]}."""
        return _treat("dying-roll", data, chase_id, participant_id)


@blp.route(f"{PATIENT}/first-aid")
class FirstAid(MethodView):
    @blp.arguments(w.FirstAid)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """First Aid: 1 hit point, or a dying patient stabilised on 1 temporary hit point. Once; a
        further attempt is a pushed roll (pushed: true). rolls: {"first_aid": [...]}."""
        return _treat("first-aid", data, chase_id, participant_id)


@blp.route(f"{PATIENT}/medicine")
class Medicine(MethodView):
    @blp.arguments(w.Medicine)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Medicine: 1D3 hit points (Hard if not the same day); a dying patient only after First Aid
        stabilised them, and then no longer dying. rolls: {"medicine": [...], "heal": [d3]}."""
        return _treat("medicine", data, chase_id, participant_id)


@blp.route(f"{PATIENT}/recovery")
class Recovery(MethodView):
    @blp.arguments(w.Recovery)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """Natural recovery: days of regular healing (1 hit point a day), or a week's recovery roll
        for a major wound. rolls: {"medicine": [...], "con": [...], "heal": [...]}."""
        return _treat("recovery", data, chase_id, participant_id)


@blp.route(f"{PATIENT}/condition")
class Condition(MethodView):
    @blp.arguments(w.Condition)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """The Keeper rules that a character comes to (above zero hit points, not dying) or stands up."""
        return result(coc7e().rule_condition(chase_id, participant_id, expected_version(), by=principal(chase_id), **present(data)))
