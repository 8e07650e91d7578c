"""Savage Worlds chase endpoints: /chases/<id>/swade/... (Adventure Edition chase cards) and
/chases/<id>/swd/... (Deluxe action cards). Load, call the application, dump.

The record endpoints (rolls, events, export, undo, rewind, redo, the seed, tokens), GET
/chases/<id>/track and /vehicles and POST /chases/<id>/end are shared with every system
(api/chases.py, api/history.py).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any
from uuid import UUID

from flask.views import MethodView
from api.parsing import Blueprint

from api.auth import principal
from api.dry_run import dry_run_allowed
from api.chases import dice, expected_version, participant_url, result
from api.runtime import ledger
from api.schemas import DiceInput, Empty
from api.systems.savage_worlds import schemas as s
from application.dice import DiceChoice

blp = Blueprint(
    "savage_worlds", __name__, url_prefix="/chases",
    description="Savage Worlds chases: Adventure Edition chase cards (swade) and Deluxe action cards (swd)",
)
SYSTEM = "<any(swade, swd):system>"


def savage() -> Any:
    """The Savage Worlds command service of this process's ledger."""
    return ledger().commands["savage_worlds"]


def defender_dice(data: dict[str, Any]) -> DiceChoice:
    """The defender's dice of an opposed roll: as the attacker's, with the defender's faces."""
    return replace(dice(data), faces=data.get("defender_table_dice"))


def answer(
    found: tuple[Any, list[dict[str, Any]], dict[str, Any]], status: int = 200, named: str | None = None, **extra: Any,
) -> tuple[dict[str, Any], int, dict[str, str]]:
    """The command's answer (api.chases.result) with the rolls it made and what it decided
    (``named``: the game's word for a decision that is one value, such as the metres covered)."""
    outcome, rolls, chase = found
    return result(chase, status, rolls=rolls, outcome={named: outcome} if named else outcome, **extra)


# -- both systems ---------------------------------------------------------------------------------


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants")
class Participants(MethodView):
    @blp.arguments(s.SavageParticipantCreate)
    @blp.response(201, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str):
        """Add a character or vehicle, or someone riding in a vehicle or following a leader (a group)."""
        pid, rolls, chase = savage().add_savage_participant(chase_id, system, data, expected_version(), by=principal(chase_id))
        return answer((None, rolls, chase), 201, location=participant_url(chase_id, pid), participant_id=pid)


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/end-turn")
class EndTurn(MethodView):
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, chase_id: UUID, system: str, participant_id: str):
        """End the unit's turn; the next card acts (after the last, the round ends)."""
        return answer(savage().savage_end_turn(chase_id, system, participant_id, expected_version(), by=principal(chase_id)))


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/trait-rolls")
class TraitRolls(MethodView):
    @blp.arguments(s.TraitRoll)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, system: str):
        """Any trait roll: trait die and Wild Die, aces, raises, Critical Failure, the Joker's +2."""
        return answer(savage().savage_trait_roll(
            chase_id, system, data["participant_id"], data["trait_die"], purpose=data["purpose"], modifier=data["modifier"],
            target_number=data["target_number"], dice=dice(data), expected_version=expected_version(), by=principal(chase_id),
        ), named="total")


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/damage-rolls")
class DamageRolls(MethodView):
    @blp.arguments(s.DamageRoll)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, system: str):
        """Roll damage (it Aces) against a target: a vehicle's Toughness and Wounds, a character's Shaken and Wounds."""
        return answer(savage().savage_damage(
            chase_id, system, data["target_id"], data["expression"], roller_id=data["roller_id"], raise_bonus=data["raise_bonus"],
            strength=data["strength"], modifier=data["modifier"], dice=dice(data), expected_version=expected_version(), by=principal(chase_id),
        ), named="damage")


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/recover")
class Recover(MethodView):
    @blp.arguments(s.Recover)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """A Spirit roll to recover from Shaken."""
        return answer(savage().savage_recover(
            chase_id, system, participant_id, die=data["trait_die"], modifier=data["modifier"], dice=dice(data),
            expected_version=expected_version(), by=principal(chase_id),
        ), named="recovered")


@blp.route(f"/<uuid:chase_id>/{SYSTEM}/participants/<participant_id>/conditions")
class Conditions(MethodView):
    @blp.arguments(s.Conditions)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID, system: str, participant_id: str):
        """The GM sets Shaken, Distracted, Vulnerable or Fatigue (a benny, a power, an effect)."""
        reason = data.pop("reason")
        return answer(savage().savage_conditions(chase_id, system, participant_id, data, reason, expected_version(), by=principal(chase_id)))


# -- the Adventure Edition ------------------------------------------------------------------------


@blp.route("/<uuid:chase_id>/swade/begin")
class SwadeBegin(MethodView):
    @blp.arguments(s.SwadeBegin)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID):
        """Set-up: the type of chase, the row of Chase Cards (nine by default), each unit's card."""
        return answer(savage().begin_swade(
            chase_id, data["mode"], data["placements"], chase_cards=data.get("row") or data["chase_cards"], linear=data["linear"],
            deck=data["deck"], expected_version=expected_version(), by=principal(chase_id),
        ))


@blp.route("/<uuid:chase_id>/swade/action-cards")
class ActionCards(MethodView):
    @blp.arguments(s.ActionCards)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID):
        """A new round: an Action card to every unit; they act high to low, ties in suit order."""
        return answer(savage().deal_action_cards(
            chase_id, data["cards"], expected_version(), surprised=data["surprised"], ambushers=data["ambushers"], by=principal(chase_id),
        ))


# What a maneuver that decides one value answers it as (the others answer an object, or null).
DECIDES = {"change-position": "total", "flee": "escaped", "attack": "total"}


def _swade(maneuver: str, schema: Any, doc: str) -> type[MethodView]:
    rolls = issubclass(schema, DiceInput)

    class Maneuver(MethodView):
        @blp.arguments(schema)
        @blp.response(200, s.SavageResult)
        @dry_run_allowed
        def post(self, data, chase_id: UUID, participant_id: str):
            return answer(savage().swade_maneuver(
                chase_id, participant_id, maneuver, data, dice=dice(data) if rolls else None,
                defender_dice=defender_dice(data) if rolls else None,
                expected_version=expected_version(), by=principal(chase_id),
            ), named=DECIDES.get(maneuver))

    Maneuver.post.__doc__ = doc
    Maneuver.__name__ = "Swade" + maneuver.title().replace("-", "")
    blp.route(f"/<uuid:chase_id>/swade/participants/<participant_id>/{maneuver}")(Maneuver)
    return Maneuver


_swade("change-position", s.ChangePosition, "Change Position: a maneuvering roll (+2 as an action, Speed Bonus); one card, two with a raise; once a turn.")
_swade("drop-back", s.DropBack, "Dropping Back: one or two cards back without a roll (linear chase); no Change Position this turn.")
_swade("evade", s.Evade, "Evade: -2 (-4 as an action) to attacks against the unit and its own; once a round.")
_swade("hold-steady", Empty, "Hold Steady: no Unstable Platform or Running penalties; attacks against it at +2.")
_swade("flee", s.Flee, "Flee: at least four cards from the closest foe; -4, -2 at five, 0 at six or more.")
_swade("force", s.Force, "Force: opposed maneuvering rolls on the same card; a win Bumps the foe, a raise is his Critical Failure.")
_swade("ram", s.Ram, "Ram: opposed maneuvering rolls on the same card; both sides take damage (Scale, raise, Toughness, speed).")
_swade("attack", s.SwadeAttack, "An attack: the Range is cards between x the Range Increment; Evade, Hold Steady, Unstable Platform.")


@blp.route("/<uuid:chase_id>/swade/resolve")
class SwadeResolve(MethodView):
    @blp.arguments(s.SwadeResolve)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID):
        """Resolve what waits first (chase.pending): a Complication, a control roll, Out of Control,
        a Critical Hit, a critical failure's d6, Ram damage (rolls); a Bump's direction, a Chase Card."""
        choices = {k: data[k] for k in ("direction", "cards", "card", "modifier")}
        return answer(savage().savage_resolve(chase_id, "swade", choices, dice(data), expected_version(), by=principal(chase_id)))


# -- the Deluxe chase -----------------------------------------------------------------------------


@blp.route("/<uuid:chase_id>/swd/begin")
class SwdBegin(MethodView):
    @blp.arguments(s.SwdBegin)
    @blp.response(200, s.SavageResult)
    def post(self, data, chase_id: UUID):
        """Set-up: the chase length (five rounds by default, null without end); round 1 begins."""
        return answer(savage().begin_swd(chase_id, data["length"], deck=data["deck"], constant=data["constant"], expected_version=expected_version(), by=principal(chase_id)))


@blp.route("/<uuid:chase_id>/swd/participants/<participant_id>/maneuver")
class SwdManeuver(MethodView):
    @blp.arguments(s.SwdManeuver)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """The maneuver roll: an Action card per success and raise; keep one."""
        return answer(savage().swd_maneuver(
            chase_id, participant_id, modifier=data["modifier"], cards=data["cards"], keep=data["keep"], dice=dice(data),
            expected_version=expected_version(), by=principal(chase_id),
        ), named="total")


@blp.route("/<uuid:chase_id>/swd/participants/<participant_id>/cooperate")
class SwdCooperate(MethodView):
    @blp.arguments(s.Cooperate)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """A passenger's cooperative roll: +1 per success and raise to the unit's maneuver roll, +4 at most."""
        return answer(savage().swd_cooperate(chase_id, participant_id, modifier=data["modifier"], dice=dice(data), expected_version=expected_version(), by=principal(chase_id)), named="total")


@blp.route("/<uuid:chase_id>/swd/participants/<participant_id>/attack")
class SwdAttack(MethodView):
    @blp.arguments(s.SwdAttack)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """An attack with Advantage, at the Attack "Range" penalty of the card."""
        return answer(savage().swd_action(chase_id, participant_id, "attack", data, dice=dice(data), expected_version=expected_version(), by=principal(chase_id)), named="total")


@blp.route("/<uuid:chase_id>/swd/participants/<participant_id>/force")
class SwdForce(MethodView):
    @blp.arguments(s.SwdForce)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID, participant_id: str):
        """Force with Advantage: opposed maneuver rolls; the foe avoids an obstacle, or hits it on a raise."""
        return answer(savage().swd_action(
            chase_id, participant_id, "force", data, dice=dice(data), defender_dice=defender_dice(data),
            expected_version=expected_version(), by=principal(chase_id),
        ), named="force")


@blp.route("/<uuid:chase_id>/swd/resolve")
class SwdResolve(MethodView):
    @blp.arguments(s.SwdResolve)
    @blp.response(200, s.SavageResult)
    @dry_run_allowed
    def post(self, data, chase_id: UUID):
        """Resolve what waits first (chase.pending): cards to deal or keep, recovering from Shaken,
        a Complication, an obstacle and its damage, Out of Control and its collision damage."""
        choices = {k: data[k] for k in ("cards", "card", "modifier", "expression", "trait_die", "heavy")}
        return answer(savage().savage_resolve(chase_id, "swd", choices, dice(data), expected_version(), by=principal(chase_id)))
