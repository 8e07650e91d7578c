"""Typed schemas of a Savage Worlds track view's parts (application/systems/savage_worlds/views.py,
swade_track.py, swd_track.py), for the OpenAPI document."""
from __future__ import annotations

from marshmallow import INCLUDE, Schema, fields

from api.view_docs import ACTION_FORMS, Action, always_shown, compact_actions, Distance, Shown


class Card(Schema):
    card = fields.String(required=True, allow_none=True, metadata={"description": "its code (5C, AS, RJ); null: a Chase Card not yet dealt"})
    label = fields.String()
    suit = fields.String(allow_none=True)
    value = fields.Integer()
    joker = fields.Boolean()


class TurnEndsLeft(Schema):
    distracted = fields.Integer()
    vulnerable = fields.Integer()


class UnitConditions(Schema):
    shaken = fields.Boolean()
    distracted = fields.Boolean()
    vulnerable = fields.Boolean()
    fatigue = fields.String(metadata={"description": "fresh, fatigued, exhausted or incapacitated"})
    turn_ends_left = Shown(TurnEndsLeft)
    stunned = fields.Boolean()
    bound = fields.Boolean()
    entangled = fields.Boolean()
    prone = fields.Boolean()


class ActionsThisTurn(Schema):
    taken = fields.Integer()
    declared = fields.Integer(metadata={"description": "actions declared this turn (Multi-Actions)"})


@always_shown(*ACTION_FORMS, "barred", "cards_earned", "cooperative_bonus", "obstacle_ahead", "obstacle_ahead_id", "evading", "holding_steady", "location")
class SavageParticipant(Schema):
    id = fields.String(required=True)
    name = fields.String()
    kind = fields.String()
    role = fields.String(allow_none=True)
    status = fields.String()
    unit = fields.String(metadata={"description": "the unit it acts with (its vehicle's id when aboard one)"})
    with_id = fields.String(allow_none=True)
    seat = fields.String(allow_none=True)
    wild_card = fields.Boolean()
    maneuver_skill = fields.String(allow_none=True)
    maneuver_die = fields.String(allow_none=True)
    speed = fields.Integer(allow_none=True)
    toughness = fields.Integer(allow_none=True)
    wounds = fields.Integer()
    conditions = Shown(UnitConditions)
    mount_fatigue = fields.String(allow_none=True)
    action_cards = fields.List(Shown(Card))
    acted = fields.Boolean()
    injuries = fields.List(fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True)), metadata={"description": "INJURY TABLE results, as the vehicle log records them"})
    bennies = fields.Integer()
    on_hold = fields.Boolean()
    actions_this_turn = Shown(ActionsThisTurn)
    location = fields.Integer(allow_none=True, metadata={"description": "swade: the Chase Card it is on"})
    evading = fields.Integer(metadata={"description": "swade: Evade's penalty to attacks against it"})
    holding_steady = fields.Boolean()
    barred = fields.String(allow_none=True, metadata={"description": "swd: why it may not act this round"})
    cards_earned = fields.Integer(allow_none=True, metadata={"description": "swd: Action cards the maneuver roll earned"})
    cooperative_bonus = fields.Integer(metadata={"description": "swd: passengers' cooperative bonus"})
    actions = fields.List(Shown(Action), metadata={"description": "with Prefer: actions=full (in place of allowed_actions and refused_actions)"})
    allowed_actions, refused_actions = compact_actions()
    distances = fields.List(Shown(Distance))
    obstacle_ahead = fields.Raw(allow_none=True, metadata={"description": "no obstacles in Savage Worlds chases: null"})
    obstacle_ahead_id = fields.String(allow_none=True)


class ChaseCard(Card):
    index = fields.Integer(required=True)
    participants = fields.List(fields.String())


class RangeBetween(Schema):
    from_ = fields.String(data_key="from", required=True)
    to = fields.String(required=True)
    cards_between = fields.Integer()
    range = fields.Integer()


class DealtCard(Card):
    """An Action card of the round, high to low (swd: with Advantage and Attack Range)."""

    participant_id = fields.String(required=True)
    name = fields.String()
    acted = fields.Boolean()
    advantage_over = fields.List(fields.String())
    attack_range = fields.String(metadata={"description": "swd: Short, Medium or Long Range, or Out of Range (a Two)"})
    # A Two is "Out of Range": no attack this round, so no penalty (swd-chases.txt "Resolve Actions"
    # -> SWD p. 95, Chase Attack Range and Complication; domain/rules/savage_worlds/swd_chase.py).
    range_penalty = fields.Integer(allow_none=True, metadata={"description": "swd: the attack's Range penalty (0, -2, -4); null: Out of Range, no attack this round"})
    complication = fields.String(allow_none=True)


class Deck(Schema):
    mode = fields.String(allow_none=True, metadata={"description": "server or table (a physical deck)"})
    cards_left = fields.Integer()
    dealt = fields.Integer()
    discards = fields.List(fields.String())
    shuffle_sequence = fields.Integer(allow_none=True)


class Decks(Schema):
    action = Shown(Deck, allow_none=True)
    chase = Shown(Deck, allow_none=True)


class Pending(Schema):
    """Something waiting to be resolved (POST .../resolve): its kind and what it concerns."""

    class Meta:
        unknown = INCLUDE

    id = fields.Integer(required=True, metadata={"description": "the follow-up's number in this chase"})
    kind = fields.String(required=True, metadata={"description": "what waits: a Complication, a damage roll, cards to deal or keep, ..."})
    participant_id = fields.String(allow_none=True)
