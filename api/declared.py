"""The HTTP side of the declared commands (application/declared.py), made from the declarations:
a plug-in's blueprint (one route per command), each command's request schema (from its typed
input: types, bounds, defaults, descriptions; the dice fields for a command that rolls), its
dry run (a command that rolls), its answer (the envelope every command answers with,
api/chases.py ``result``) and the routes the track view's ``actions`` name (api/action_routes.py).

Request schemas are generated here rather than with marshmallow-dataclass: the wire contract
stays what it was (strict whole numbers, JSON booleans only, a pattern's own error text), and the
declarations stay plain dataclasses the application layer can hold without marshmallow.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping as AbcMapping, Sequence as AbcSequence
from typing import Any, Callable, Union
from uuid import UUID

from flask.views import MethodView
from marshmallow import Schema, fields, validate

from api.action_routes import Route, chase_routes, participant_routes
from api.auth import principal
from api.chases import dice, participant_url, result
from api.conditional import expected_version
from api.dry_run import asked, documented, tried
from api.parsing import Blueprint
from api.runtime import commands
from api.schemas import DiceInput, Empty
from application.declared import CHASE, PARTICIPANT, Arg, Command, Request, arg_of, permissions
from application.plugins import GameSystem

# Where what a command creates is read (the Location of its 201), by the outcome field naming it.
LOCATIONS: dict[str, Callable[[UUID, str], str]] = {"participant_id": participant_url}
_SCHEMAS: dict[type, type[Schema]] = {}  # one schema class per input dataclass (a nested one is shared)


class TrueOrFalse(fields.Boolean):
    """JSON true or false only: 1 and 0 are numbers (marshmallow's truthy={True} lets 1 in, as 1 == True)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


def _unwrap(hint: Any) -> tuple[Any, bool]:
    """The type a hint holds, and whether it may be null (``X | None``)."""
    if typing.get_origin(hint) in (Union, types.UnionType):
        kinds = [k for k in typing.get_args(hint) if k is not type(None)]
        if len(kinds) != 1:
            raise TypeError(f"an input field is one type or null, not {hint}")
        return kinds[0], True
    return hint, False


def _field(hint: Any, a: Arg, **kw: Any) -> fields.Field[Any]:
    """The marshmallow field of one input field's type and Arg."""
    kind, nullable = _unwrap(hint)
    kw.setdefault("allow_none", nullable)
    meta = {k: v for k, v in (("description", a.description), ("example", a.example)) if v not in ("", None)}
    if meta:
        kw["metadata"] = meta
    ranged = [validate.Range(a.low, a.high)] if a.low is not None or a.high is not None else []
    sized = [validate.Length(*a.length)] if a.length else []
    origin = typing.get_origin(kind)
    if kind is bool:
        return TrueOrFalse(**kw)
    if kind is int:
        return fields.Integer(strict=True, validate=ranged, **kw)
    if kind is float:
        return fields.Float(allow_nan=False, validate=ranged, **kw)
    if kind is str:
        checks = [*sized, *([validate.OneOf(a.choices)] if a.choices else [])]
        checks += [validate.Regexp(a.pattern, error=a.pattern_error or None)] if a.pattern else []
        return fields.String(validate=checks, **kw)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return fields.Nested(input_schema(kind), **kw)
    item = a.item or Arg()
    if origin in (AbcMapping, dict):
        key_kind, value_kind = typing.get_args(kind)
        keys = fields.String(validate=validate.OneOf(a.key_choices)) if a.key_choices else fields.String()
        return fields.Dict(keys=keys, values=_field(value_kind, item), validate=sized, **kw)
    if origin in (tuple, list, AbcSequence):
        return fields.List(_field(typing.get_args(kind)[0], item), validate=sized, **kw)
    raise TypeError(f"no request field for {kind}")


def input_schema(kind: type, base: type[Schema] = Schema) -> type[Schema]:
    """The request schema of an input dataclass (named as the dataclass: the OpenAPI component)."""
    known = _SCHEMAS.get(kind)
    if known is not None:
        return known
    hints = typing.get_type_hints(kind)
    made: dict[str, Any] = {}
    for f in dataclasses.fields(kind):
        a = arg_of(f)
        kw: dict[str, Any] = {"data_key": a.key} if a.key else {}
        if f.default is None and not a.null:
            kw["allow_none"] = False  # None stands for the field left out: it may not be sent as null
        elif f.default == ():
            kw["load_default"] = list  # (an empty list: documented without a default, as a callable one is)
        elif f.default is not dataclasses.MISSING:
            kw["load_default"] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            kw["load_default"] = f.default_factory
        else:
            kw["required"] = True
        made[f.name] = _field(hints[f.name], a, **kw)
    schema = _SCHEMAS[kind] = type(kind.__name__, (base,), {**made, "__doc__": kind.__doc__ or None})
    return schema


def build(kind: Any, value: Any) -> Any:
    """The typed value of what a request schema loaded: dataclasses and tuples where declared."""
    kind, _ = _unwrap(kind)
    if value is None:
        return None
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        return kind(**{f.name: build(hints[f.name], value[f.name]) for f in dataclasses.fields(kind) if f.name in value})
    if typing.get_origin(kind) in (tuple, list, AbcSequence):
        return tuple(build(typing.get_args(kind)[0], v) for v in value)
    return value


def request_schema(command: Command[Any, Any]) -> type[Schema]:
    if command.input is None:
        return DiceInput if command.rolls else Empty
    return input_schema(command.input, DiceInput if command.rolls else Schema)


def _post(command: Command[Any, Any]) -> Callable[..., Any]:
    """The endpoint of one command: the request's context built once, the command sent, its answer."""

    def post(self: Any, data: dict[str, Any], chase_id: UUID, participant_id: str | None = None) -> Any:
        chosen = dice(data) if command.rolls else None
        context = Request(
            dice=chosen, expected_version=expected_version(), principal=principal(chase_id), dry_run=bool(command.rolls) and asked(),
        )
        given = build(command.input, data) if command.input is not None else None
        done = commands().send(command, chase_id, given, context, participant_id)
        if done.tried is not None:
            return tried(done.tried)
        outcome = dataclasses.asdict(done.outcome) if done.outcome is not None else None
        if command.creates is None:
            return result(done.track, rolls=done.rolls, outcome=outcome)
        assert outcome is not None
        created = outcome.pop(command.creates)
        location = LOCATIONS[command.creates](chase_id, created)
        return result(done.track, 201, rolls=done.rolls, outcome=outcome or None, location=location, **{command.creates: created})

    post.__doc__ = command.summary
    return documented(post) if command.rolls else post


def blueprint(plugin: GameSystem, answer: type[Schema]) -> Blueprint:
    """The blueprint of a plug-in's declared commands (tag: its package), each answering ``answer``."""
    blp = Blueprint(plugin.package, f"api.systems.{plugin.package}", url_prefix="/chases", description=plugin.about)
    for command in plugin.declared:
        if command.creates is not None and command.creates not in LOCATIONS:
            raise ValueError(f"{command.name}: no Location known for {command.creates}")
        post = blp.arguments(request_schema(command))(blp.response(201 if command.creates else 200, answer)(_post(command)))
        if command.rolls:  # the kinds of roll its answer's ``rolls`` may hold
            post = blp.doc(**{"x-roll-kinds": list(command.rolls)})(post)
        rule = "/<uuid:chase_id>" + command.path.replace("{participant_id}", "<participant_id>")
        blp.route(rule)(type(_camel(command.name), (MethodView,), {"post": post}))
    return blp


def _camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def action_routes(plugin: GameSystem) -> dict[str, tuple[dict[str, Route], dict[str, Route]]]:
    """What the track view's ``actions`` name for each system of the plug-in: where each command
    is sent and who may send it (api/action_routes.py), from the declarations."""
    out = {}
    for system in plugin.chases:
        declared = [c for c in plugin.declared if system in c.systems]
        paths = {scope: {c.name: ("POST", c.path) for c in declared if c.scope == scope and c.listed} for scope in (PARTICIPANT, CHASE)}
        out[system] = (
            participant_routes(paths[PARTICIPANT], permissions(declared, system, PARTICIPANT)),
            chase_routes(paths[CHASE], permissions(declared, system, CHASE)),
        )
    return out
