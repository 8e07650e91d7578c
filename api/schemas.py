"""Request and response schemas every chase shares, whatever its game system.

Each system's own schemas are in api/systems/<package>/schemas.py, with the schema of its track
view (VIEW_SCHEMAS), which the ``chase`` of a command's answer is dumped with (SystemView).
"""
from __future__ import annotations

import operator
from typing import Any

from flask import current_app
from marshmallow import Schema, fields, missing, validate
from marshmallow.decorators import POST_DUMP, PRE_DUMP

from api import view_docs as docs
from api.paging import Limit, Next
from api.parsing import MAX_POSITION, Position, Text, Whole
from api.representation import MINIMAL_CHASE, minimal, prefers_minimal
from domain.recorded_chase import DICE_MODES, MAX_UNDO
from infrastructure.systems import SYSTEMS, system_names

SYSTEM_NAMES = system_names()
OPTIONAL_RULES = sorted({name for p in SYSTEMS for name in p.optional_rules})


class ChaseCreate(Schema):
    name = fields.String(required=True, validate=validate.Length(1, 200), metadata={"example": "Harvey and the farmer"})
    dice = fields.String(load_default="server", validate=validate.OneOf(DICE_MODES), metadata={"description": "default dice for rolls: server dice, or faces entered from the table"})
    system = fields.String(
        load_default=SYSTEM_NAMES[0], validate=validate.OneOf(SYSTEM_NAMES),
        metadata={"description": "the rules: " + "; ".join(f"{', '.join(p.chases)} ({p.title})" for p in SYSTEMS)},
    )
    optional_rules = fields.List(
        fields.String(validate=validate.OneOf(OPTIONAL_RULES)), validate=validate.Length(0, len(OPTIONAL_RULES)), load_default=None,
        metadata={"description": "the optional rules of the system the table uses, and no others (absent: the system's default; "
                  "Call of Cthulhu: every optional rule of coc7e-chases.txt part 5); see GET /rules/<system>/optional-rules"},
    )


class DiceInput(Schema):
    table_dice = fields.List(fields.Integer(strict=True), validate=validate.Length(0, 100), metadata={"description": "faces rolled at the table, in order: d100 tens dice (00-90) then the units die (0-9); dN faces 1..N"})
    dice = fields.String(validate=validate.OneOf(DICE_MODES), metadata={"description": "server or table; defaults to the chase's dice"})
    entropy = fields.String(load_default="", validate=validate.Length(0, 200), metadata={"description": "player-supplied entropy mixed into server dice"})


class Empty(Schema):
    pass


class EndChase(Schema):
    outcome = fields.String(required=True, validate=validate.Length(1, 40), metadata={"description": "how the chase ended, in its system's words (its rules check them: see the system's tag)"})
    note = fields.String(load_default="", validate=validate.Length(0, 2000))


class RollFilters(Schema):
    participant_id = Text(1, 200)
    purpose = Text(1, 200)
    round = fields.Integer(validate=validate.Range(0, 10**9))
    source = fields.String(validate=validate.OneOf(DICE_MODES))
    undone = fields.Boolean()


class EventPage(Schema):
    after = Position(load_default=0, metadata={"description": "the page after this version (follow `next`)"})
    limit = Limit(1000, 10_000)


class ChaseView(Schema):
    """The track view's envelope: what every chase shows, whatever its system. Each system's
    track view adds its own fields (its schema, in api/systems/<package>/schemas.py, extends this)."""

    chase_id = fields.String()
    name = fields.String()
    system = fields.String(metadata={"description": "the game system, which decides the other fields of the view"})
    dice = fields.String()
    seed_commitment = fields.String(allow_none=True, metadata={"description": "SHA-256 of the server-dice seed of this epoch (null once revealed, until the next is committed)"})
    phase = fields.String(metadata={"description": "setup, running or ended"})
    outcome = fields.String(allow_none=True)
    version = fields.Integer()
    round = fields.Integer()
    turn_order = fields.List(fields.String())
    whose_turn = fields.String(allow_none=True)
    # locations and participants: each system's view types its own (api/systems/<package>/schemas.py).
    created_at = fields.String()
    end_note = fields.String()
    chain_head = fields.String(metadata={"description": "hash of the chase's latest event (also the X-Chain-Head header)"})
    seed_epoch = fields.Integer()
    revealed_seeds = fields.List(docs.Shown(docs.RevealedSeed))
    entropy = fields.String()
    rolls_made = fields.Integer()
    actions = fields.List(docs.Shown(docs.Action), metadata={"description": "the chase-level commands, each {action, method, href, allowed} and, when not allowed, why and rule (api/affordances.py); empty in a past version"})
    action_templates = fields.Dict(keys=fields.String(), values=docs.Shown(docs.ActionTemplate), metadata={"description": "each participant-level command's method and href (a URI template), in the order of a participant's full actions (not with Prefer: actions=full)"})
    actions_counted = fields.Integer(metadata={"description": "actions that count (not undone)"})
    turn = docs.Shown(docs.Turn, metadata={"description": "{round, participant_id (whose turn now), next_participant_id, ended_by_last_command}"})
    can_redo = fields.Boolean()
    undo_requests = fields.List(docs.Shown(docs.PendingUndo), metadata={"description": "undo requests awaiting the Keeper"})


class SystemView(fields.Nested):
    """A chase's track view, dumped with its system's schema (api/__init__.py registers each
    system's VIEW_SCHEMAS with the app); documented as the envelope every system extends.
    A command sent with ``Prefer: return=minimal`` gets the envelope's identity only (api/representation.py)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("metadata", {"description": "the chase after the command; with Prefer: return=minimal, only " + ", ".join(MINIMAL_CHASE)})
        super().__init__(ChaseView, **kwargs)

    def _serialize(self, nested_obj: Any, attr: Any, obj: Any, **kwargs: Any) -> Any:
        if nested_obj is None:
            return None
        if prefers_minimal():
            nested_obj = minimal(nested_obj)
        schemas = current_app._get_current_object().extensions["chase_view_schemas"]  # type: ignore[attr-defined]  # (the app itself: a read through the proxy is a failed look-up first)
        schema = schemas.get(nested_obj.get("system"), ChaseView)
        names, values = _taken(schema, tuple(nested_obj))
        return dict(zip(names, values(nested_obj))) if len(names) > 1 else {name: nested_obj[name] for name in names}


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
# For a view schema and the keys of a view (every view of a system has the same few sets): the
# fields it takes, in the schema's order, and a getter of their values, so that a view is taken
# by C code rather than a Python loop over its thirty-odd fields.
_TAKEN: dict[tuple[type, tuple[str, ...]], tuple[tuple[str, ...], Any]] = {}
KEPT_SHAPES = 1_000  # (a view's keys are the renderers', not a client's: a few per system)


def _taken(schema: type[Schema], keys: tuple[str, ...]) -> tuple[tuple[str, ...], Any]:
    found = _TAKEN.get((schema, keys))
    if found is None:
        present = set(keys)
        names = tuple(name for name in _field_names(schema) if name in present)
        found = (names, operator.itemgetter(*names) if len(names) > 1 else None)
        if len(_TAKEN) < KEPT_SHAPES:
            _TAKEN[(schema, keys)] = found
    return found


def _field_names(schema: type[Schema]) -> tuple[str, ...]:
    """The view schema's fields, in order. A view is rendered as JSON's own types already
    (application/projections), so dumping it is taking the fields the schema names, in its
    order: what marshmallow's dump gave (tests/e2e/test_view_answers.py), without its walk
    through every participant (over a millisecond at 1,000 participants, bench/big_chase.py)."""
    names = _FIELD_NAMES.get(schema)
    if names is None:
        names = _FIELD_NAMES.setdefault(schema, tuple(name for name, field in schema().dump_fields.items() if field.data_key in (None, name)))
    return names


class SplitChase(Schema):
    """A chase a command made (a chase split up)."""

    chase_id = fields.String(required=True)
    keeper_token = fields.String(required=True, metadata={"description": "the new chase's Keeper token, shown once"})
    chase = SystemView(required=True)


class CommandResult(Schema):
    """Every command's answer, whatever its game system (api.chases.result)."""

    chase = SystemView(required=True)
    rolls = fields.List(docs.Shown(docs.Roll), required=True, metadata={"description": "every roll the command made, in sequence order ([] for none)"})
    outcome = fields.Dict(required=True, allow_none=True, metadata={"description": "what the command decided, in the game's words (passed, winner, metres, ...); null when the chase after it says all"})
    dry_run = fields.Boolean(metadata={"enum": [False], "description": "never sent: a recorded command's answer has no dry_run; a dry run's (DryRun) has dry_run: true"})
    obstacle_id = fields.String()
    participant_id = fields.String()
    chases = fields.List(docs.Shown(SplitChase), metadata={"description": "chases the command made (a chase split up)"})
    keeper_token = fields.String(metadata={"description": "only when a chase is created: the Keeper's token, shown once"})
    request_id = fields.Integer()

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        """marshmallow's dump of a command's answer (api.chases.result: a dict), field by field
        in the schema's order, without marshmallow's walk through accessors and defaults for
        each (every command's answer passes here, bench/http_profile.py). Anything else: marshmallow's."""
        plain = self._plain_fields()
        if plain is None or many or self.many or type(obj) is not dict:
            return super().dump(obj, many=many)
        return {key: field._serialize(obj[name], name, obj) for name, key, field in plain if name in obj}

    def _plain_fields(self) -> tuple[tuple[str, str, fields.Field], ...] | None:
        """(name, key, field) of each field dumped as read, in order; None when a field or a hook
        needs marshmallow's own walk (a default, an attribute of another name, a dump hook)."""
        found = self.__dict__.get("_plain", False)
        if found is False:
            plain = tuple((name, name if field.data_key is None else field.data_key, field) for name, field in self.dump_fields.items())
            needs_walk = self._hooks[PRE_DUMP] or self._hooks[POST_DUMP] or any(
                f.dump_default is not missing or f.attribute is not None or not f._CHECK_ATTRIBUTE or "." in n
                or type(f).serialize is not fields.Field.serialize  # a field that dumps itself its own way
                for n, _, f in plain
            )
            found = self.__dict__["_plain"] = None if needs_walk else plain
        return found


@docs.always_shown()
class ParticipantView(Schema):
    chase_id = fields.String()
    version = fields.Integer(metadata={"description": "the chase's version this was read at (also the ETag)"})
    participant_id = fields.String()
    participant = fields.Dict(metadata={"description": "as the chase's track view shows it (its system's fields)"})


@docs.always_shown()
class RollHistory(Schema):
    next = Next()
    rolls = fields.List(docs.Shown(docs.RollRow), metadata={"description": (
        "one row per roll: its context, its dice, whether it was undone, and `odds`: the exact odds it had "
        "({outcomes: {name: {p, exact}}, success, observed}; null for a roll without odds, such as a shuffle)"
    )})


@docs.always_shown()
class EventLog(Schema):
    events = fields.List(docs.Shown(docs.Event))
    next = Next()


class AtVersion(Schema):
    version = Whole(1, MAX_POSITION, metadata={"description": "time travel: the view as it was at this version"})


class RollQuery(RollFilters):
    version = Whole(1, MAX_POSITION, metadata={"description": "time travel: the history as it was at this version"})
    after = Position(load_default=0, metadata={"description": "the page after this roll's sequence number (follow `next`)"})
    limit = Limit(1000, 10_000)


class PlayerToken(Schema):
    participant_ids = fields.List(Text(1, 200), required=True, validate=validate.Length(1, 50))


@docs.always_shown()
class TokenIssued(Schema):
    token = fields.String()
    participant_ids = fields.List(fields.String())


class Undo(Schema):
    count = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, MAX_UNDO), metadata={"description": "how many of the last actions to undo"})
    reason = fields.String(load_default="", validate=validate.Length(0, 500))


class Rewind(Schema):
    to_version = Whole(1, MAX_POSITION, strict=True, required=True)
    reason = fields.String(load_default="", validate=validate.Length(0, 500))


class UndoRequest(Schema):
    count = fields.Integer(strict=True, load_default=1, validate=validate.Range(1, MAX_UNDO))
    note = fields.String(load_default="", validate=validate.Length(0, 500))


class UndoAnswer(Schema):
    accept = fields.Boolean(required=True)


class Entropy(Schema):
    entropy = fields.String(required=True, validate=validate.Length(1, 200), metadata={"description": "any text a player chooses; mixed into later server rolls"})


@docs.always_shown()
class Export(Schema):
    format = fields.String(metadata={"description": "chase-ledger: what `chase verify` reads"})
    chase_id = fields.String()
    events = fields.List(docs.Shown(docs.Event))


@docs.always_shown()
class VehicleView(Schema):
    """Each vehicle with its starting and current Build, condition, armor, occupants, losses."""

    chase_id = fields.String()
    version = fields.Integer()
    vehicles = fields.List(docs.Shown(docs.Vehicle))
