"""A Call of Cthulhu fight without a chase over HTTP (coc7e-combat.txt): create it with `POST
/chases {"system": "coc7e-combat"}`, add combatants (`POST .../participants`, as in a chase),
then begin the fight here (a combatant added during it joins with `POST .../fight/join`); attacks, fire, reloading, delays, turns, wounds and Keeper rolls are
the chase's endpoints, on the encounter."""
from __future__ import annotations

from uuid import UUID

from flask.views import MethodView
from api.parsing import Blueprint
from marshmallow import Schema, fields, validate

from api import schemas as s
from api.auth import principal
from api.chases import expected_version, result
from api.dry_run import dry_run_allowed
from api.systems.coc7e.chases import coc7e
from api.systems.coc7e.obstacle_schemas import Rolls, RollsInput
from api.systems.coc7e.obstacles import present, rolls
from domain.rules.coc7e.encounter_rounds import INITIATIVES

blp = Blueprint(
    "coc7e-encounters", __name__, url_prefix="/chases",
    description='Call of Cthulhu 7e: a fight without a chase (system "coc7e-combat"): combat rounds in DEX order',
)


class BeginFight(RollsInput):
    readied = fields.List(
        fields.String(validate=validate.Length(1, 100)), validate=validate.Length(0, 100), load_default=list,
        metadata={"description": "participants holding a readied firearm: they shoot at DEX + 50 (coc7e-combat.txt \"Firearms and the DEX Order\")"},
    )
    initiative = fields.String(
        load_default="dex", validate=validate.OneOf(INITIATIVES),
        metadata={"description": "dex: the DEX order (the rules'); dex roll: the optional \"Rolling for Initiative\""},
    )
    rolls = Rolls((), per_participant=("initiative",))


@blp.route("/<uuid:chase_id>/fight")
class Fight(MethodView):
    @blp.arguments(BeginFight)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID):
        """The Keeper begins the fight: everyone at one place, round 1 in the order of attack
        (coc7e-combat.txt "Dexterity and the Order of Attack"). rolls: {"initiative": {"<id>": [...]}}."""
        choice = rolls(data)
        outcome, chase = coc7e().begin_fight(chase_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


class JoinFight(RollsInput):
    participant_id = fields.String(required=True, validate=validate.Length(1, 100), metadata={"description": "a combatant added during the fight (POST .../participants)"})
    readied = fields.Boolean(load_default=False, metadata={"description": "holding a readied firearm: DEX + 50 (with the DEX-roll initiative: a bonus die on the roll)"})
    rolls = Rolls(("initiative",))


@blp.route("/<uuid:chase_id>/fight/join")
class JoinTheFight(MethodView):
    @blp.arguments(JoinFight)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID):
        """The Keeper brings a combatant added during the fight into it, placed in the order of
        attack by the rules (DEX, a readied firearm at DEX + 50, ties to the higher combat skill;
        with the DEX-roll initiative, their DEX roll "initiative" places them in the existing order):
        this round if their place is still to come, otherwise from the next round."""
        choice = rolls(data)
        participant = data.pop("participant_id")
        outcome, chase = coc7e().join_fight(chase_id, participant, rolls=choice, expected_version=expected_version(), by=principal(chase_id), **present(data))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


class ReadyFirearm(RollsInput):
    rolls = Rolls(("initiative",))


@blp.route("/<uuid:chase_id>/participants/<participant_id>/ready-firearm")
class DrawAFirearm(MethodView):
    @blp.arguments(ReadyFirearm)
    @blp.response(200, s.CommandResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """A combatant draws a firearm during the fight: from the next round they shoot at DEX + 50
        (coc7e-combat.txt "Firearms and the DEX Order"); with the DEX-roll initiative they re-roll
        DEX with a bonus die ("initiative") and keep the better place ("Rolling for Initiative")."""
        choice = rolls(data)
        outcome, chase = coc7e().ready_firearm(chase_id, participant_id, rolls=choice, expected_version=expected_version(), by=principal(chase_id))
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)


class FleeFight(Schema):
    escape_route = fields.Boolean(load_default=True, metadata={"description": "the Keeper's word: is there an escape route? (default yes)"})


@blp.route("/<uuid:chase_id>/participants/<participant_id>/flee")
class FleeTheFight(MethodView):
    @blp.arguments(FleeFight)
    @blp.response(200, s.CommandResult)
    def post(self, data, chase_id: UUID, participant_id: str):
        """On their turn, a combatant uses their action to flee the fight (coc7e-combat.txt
        "Escaping Close Combat"): refused when held, or without an escape route; they leave the
        order of attack (status escaped)."""
        outcome, chase = coc7e().flee(chase_id, participant_id, expected_version=expected_version(), by=principal(chase_id), **data)
        return result(chase, rolls=outcome.pop("rolls"), outcome=outcome)
