"""Typed schemas of what the views hold, whatever the game system: the record's parts of the
track view, what a token may do (api/affordances.py), rolls, events and replay frames.

Views are rendered as JSON by the projections (application/projections, application/systems)
and answered as they are (api/schemas.py SystemView takes the fields its schema names): these
schemas describe them for the OpenAPI document and its clients, with nullability as rendered.
Each game system's participants and parts of its view are in api/systems/<package>/view_docs.py.
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from marshmallow import INCLUDE, Schema, fields


class Shown(fields.Nested):
    """A part of a view, answered as the projection rendered it (nothing dropped or converted:
    a view is JSON's own types already) and documented with its schema."""

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        return nested_obj


class Action(Schema):
    """A command the token that asked may send now, or why not (api/affordances.py)."""

    action = fields.String(required=True, metadata={"description": "the command, in the game's words (move, speed_roll, undo, ...)"})
    method = fields.String(required=True, metadata={"enum": ["GET", "POST", "PUT", "PATCH", "DELETE"]})
    href = fields.String(required=True, metadata={"description": "where to send it"})
    allowed = fields.Boolean(required=True)
    why = fields.String(metadata={"description": "when not allowed: why, in the rules' words"})
    rule = fields.String(metadata={"description": "when not allowed: the rule, as its rules text's file and heading"})


class ActionTemplate(Schema):
    """Where a participant-level command is sent (api/compact_actions.py; not with ``Prefer: actions=full``)."""

    method = fields.String(required=True, metadata={"enum": ["GET", "POST", "PUT", "PATCH", "DELETE"]})
    href = fields.String(required=True, metadata={"description": "a URI template (RFC 6570): {participant_id} is the participant's id"})


class RefusedActions(Schema):
    """Commands refused for one reason (api/compact_actions.py; not with ``Prefer: actions=full``)."""

    actions = fields.List(fields.String(), required=True, metadata={"description": "the commands refused, in the game's words"})
    why = fields.String(required=True, metadata={"description": "why, in the rules' words"})
    rule = fields.String(required=True, metadata={"description": "the rule, as its rules text's file and heading"})


# A participant's commands come in one of two forms, by the request's Prefer (api/compact_actions.py),
# and its distances to rivals are worked out for the track view only (not for one participant's read).
ACTION_FORMS = ("actions", "allowed_actions", "refused_actions", "distances")
S = TypeVar("S", bound=type[Schema])


def always_shown(*but: str) -> Callable[[S], S]:
    """Mark every field of a part of a view required, but those named in ``but``: the renderers
    write each of the others every time, so a client never checks that they are there."""

    def marked(schema: S) -> S:
        for name, field in schema._declared_fields.items():
            if name not in but:
                field.required = True
        return schema

    return marked


def compact_actions() -> tuple[fields.Field, fields.Field]:
    """A participant's ``allowed_actions`` and ``refused_actions`` (with ``Prefer: actions=full``, ``actions`` in their place)."""
    return (
        fields.List(fields.String(), metadata={"description": "the commands the token may send now (with Prefer: actions=full, actions in its place)"}),
        fields.List(Shown(RefusedActions), metadata={"description": "each refusal once, with the commands it refuses (with Prefer: actions=full, actions in its place)"}),
    )


class Distance(Schema):
    """How far a rival is: locations on a track, metres in D6."""

    to = fields.String(required=True, metadata={"description": "the rival's participant id"})
    locations = fields.Integer()
    metres = fields.Float()


class Turn(Schema):
    round = fields.Integer(required=True, allow_none=True, metadata={"description": "null before the first round"})
    participant_id = fields.String(required=True, allow_none=True, metadata={"description": "whose turn it is now"})
    next_participant_id = fields.String(required=True, allow_none=True, metadata={"description": "the next in this round's order"})
    ended_by_last_command = fields.Boolean(required=True, metadata={"description": "the command just answered ended a turn"})


class RevealedSeed(Schema):
    epoch = fields.Integer(required=True)
    seed = fields.String(required=True, metadata={"description": "hex: recompute every server roll of the epoch with it (VERIFYING.md)"})
    commitment = fields.String(required=True, metadata={"description": "the SHA-256 committed to before the epoch's first roll"})


class PendingUndo(Schema):
    request_id = fields.Integer(required=True)
    count = fields.Integer(required=True)
    actions = fields.List(fields.Integer(), required=True, metadata={"description": "the actions the request would undo"})
    by = fields.String(required=True, metadata={"description": "who asked"})
    note = fields.String(required=True)
    answer = fields.String(required=True, allow_none=True, metadata={"description": "null while it awaits the Keeper"})


class DiceSource(Schema):
    """How a roll's dice were produced: server dice (its sequence, seed epoch and the entropy
    mixed in) or table dice entered by a person."""

    class Meta:
        unknown = INCLUDE  # a system's draws add their own bookkeeping (draws, deck)

    kind = fields.String(required=True, metadata={"enum": ["server", "table"]})
    sequence = fields.Integer(required=True)
    epoch = fields.Integer()
    entropy = fields.String()
    entered_by = fields.String(metadata={"description": "table dice: who entered the faces"})
    commitment = fields.String(metadata={"description": "server dice: the seed commitment they were drawn under"})
    draws = fields.Integer(metadata={"description": "server dice: how many draws the roll took"})


class Roll(Schema):
    """One roll, as recorded: who rolled, for what, every die and the result. The fields after
    ``source`` depend on the dice: a percentile roll (skill, target, difficulty, tens, units,
    level), a dice expression (expression, dice, total), a Savage Worlds trait roll (trait die,
    Wild Die, aces, raises), a D6 roll (dice code, Wild Die)."""

    class Meta:
        unknown = INCLUDE

    sequence = fields.Integer(required=True, metadata={"description": "the chase's roll sequence number: no gaps, never reused"})
    roller = fields.String(allow_none=True, metadata={"description": "the participant who rolled (null: the Keeper's roll)"})
    purpose = fields.String()
    round = fields.Integer()
    source = Shown(DiceSource, required=True)


class Outcome(Schema):
    p = fields.Float(required=True, metadata={"description": "its probability"})
    exact = fields.String(required=True, metadata={"description": "the same as an exact fraction"})


class Odds(Schema):
    outcomes = fields.Dict(keys=fields.String(), values=Shown(Outcome), required=True)
    success = fields.Float(allow_none=True)
    observed = fields.String(allow_none=True, metadata={"description": "the outcome the roll had"})


class RollRow(Schema):
    """A row of the roll history (GET /chases/{chase_id}/rolls)."""

    chase_id = fields.String(required=True)
    sequence = fields.Integer(required=True)
    version = fields.Integer(required=True, metadata={"description": "the chase version that recorded it"})
    action = fields.Integer(required=True)
    event = fields.String(required=True, metadata={"description": "the event that recorded it"})
    participant_id = fields.String(required=True, allow_none=True)
    purpose = fields.String(required=True)
    round = fields.Integer(required=True)
    source = fields.String(required=True, metadata={"enum": ["server", "table"]})
    undone = fields.Boolean(required=True)
    undone_by = fields.String(required=True, allow_none=True, metadata={"description": "who undid it"})
    undone_at = fields.String(required=True, allow_none=True, metadata={"description": "when"})
    recorded_at = fields.String(required=True)
    roll = Shown(Roll, required=True)
    odds = Shown(Odds, required=True, allow_none=True, metadata={"description": "the exact odds it had; null for a roll without odds, such as a shuffle"})


class Event(Schema):
    """One event of the chase's log, with its place in the hash chain."""

    chase_id = fields.String(required=True)
    version = fields.Integer(required=True)
    type = fields.String(required=True, metadata={"description": "the event's stable topic, such as coc7e:Chase.Created"})
    name = fields.String(required=True, metadata={"description": "its short name, such as Created"})
    recorded_at = fields.String(required=True)
    hash = fields.String(required=True, metadata={"description": "the event's hash in the chain (VERIFYING.md)"})
    data = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), required=True, metadata={"description": "the event's own fields; previous_hash links it to the one before"})


class RollAhead(Schema):
    """A roll a dry run would make, with its exact odds."""

    sequence = fields.Integer(required=True)
    event = fields.String(required=True, metadata={"description": "the event that would record it"})
    participant_id = fields.String(required=True, allow_none=True)
    purpose = fields.String(required=True, allow_none=True)
    odds = Shown(Odds, required=True, allow_none=True, metadata={"description": "null for a roll no system has odds for"})


class OutcomeAhead(Schema):
    event = fields.String(required=True, metadata={"description": "what the rolls would decide together (who wins an opposed roll)"})
    odds = Shown(Odds, required=True)


class DryRun(Schema):
    """The answer to ``?dry_run=true`` (api/dry_run.py): nothing recorded."""

    dry_run = fields.Boolean(required=True, metadata={"enum": [True]})
    version = fields.Integer(required=True, allow_none=True, metadata={"description": "the chase version tried (null: the command never came to a chase)"})
    rolls = fields.List(Shown(RollAhead), required=True, metadata={"description": "each roll the command would make; the first is the one about to be made"})
    outcomes = fields.List(Shown(OutcomeAhead), required=True)


class Vehicle(Schema):
    """A vehicle of the vehicle view: its Build or Toughness, condition, occupants and losses;
    each system adds its own measures (Call of Cthulhu: build, build_lost, penalty_dice;
    Savage Worlds: toughness, wounds, handling, top speed, critical hits)."""

    class Meta:
        unknown = INCLUDE

    id = fields.String(required=True)
    name = fields.String()
    role = fields.String(allow_none=True)
    status = fields.String()
    armor = fields.Integer()
    occupants = fields.List(fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True)), metadata={"description": "who rides in it: id, name, seat"})


class StoredViews(Schema):
    """The views as the projections stored them at a step: without what a token may do (there,
    the track view's ``actions`` counts the actions that count)."""

    track = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), metadata={"description": "the track view of the chase's system, as stored"})
    vehicles = fields.Dict(keys=fields.String(), values=fields.Raw(allow_none=True), metadata={"description": "the vehicle view, as stored"})


class Frame(Schema):
    step = fields.Integer(required=True)
    version = fields.Integer(required=True)
    event = Shown(Event, required=True)
    views = Shown(StoredViews, required=True)
