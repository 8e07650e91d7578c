"""Request arguments: parsed with one schema instance per schema class, and screened at the edge,
by every blueprint of the API (``Blueprint`` below).

flask-smorest hands webargs the schema class of each ``@blp.arguments``, and webargs built an
instance of it for every request; building a marshmallow schema deep-copies its fields, a
measurable share of a command's time (bench/http_profile.py). Loading keeps no state in the
instance, so one instance per class serves every request and thread.

Screening is one rule for every value a request carries, whatever its schema (issue 12):
text holds no NUL (PostgreSQL cannot store it) and no lone surrogate (it cannot be encoded
as UTF-8, so no store or log can hold it); a number is finite and a whole number fits the
stores' 64-bit integers (SQLite INTEGER, PostgreSQL BIGINT). A refusal is a 422 naming the
field, before the schema or the application sees the value. Each field's own, tighter bounds
(a name's length, a characteristic's range) are in its schema, taken from the domain.
"""
from __future__ import annotations

import json
import math
from typing import Any

import flask
import marshmallow as ma
import flask_smorest
from webargs import core
from webargs.flaskparser import FlaskParser, is_json_request

STORE_INT_MIN, STORE_INT_MAX = -(2**63), 2**63 - 1  # SQLite INTEGER and PostgreSQL BIGINT
MAX_POSITION = 2**62  # a version, sequence number, step or page position: far beyond any chase, within the stores
MAX_TEXT = 10_000  # any string at all (a field's own bound is tighter: names 200, notes 2,000)
WHOLE = f"a whole number from {STORE_INT_MIN} to {STORE_INT_MAX}"


class _Unrepresentable:
    """A JSON number no store can hold, kept as a marker so the refusal can name its field."""

    def __init__(self, message: str) -> None:
        self.message = message


def _parse_int(digits: str) -> Any:
    # Python refuses to convert more than 4,300 digits (a ValueError deep in json.loads, with
    # no field named); anything past 19 digits is beyond the stores anyway.
    if len(digits.lstrip("-")) > 19:
        return _Unrepresentable(f"{WHOLE}, not a number of {len(digits.lstrip('-'))} digits")
    return int(digits)


def _parse_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else _Unrepresentable("a finite number (this one overflows)")


def _parse_constant(name: str) -> Any:
    return _Unrepresentable(f"a number, not {name} (not JSON)")


# One decoder, made once (``json.loads`` with hooks makes a new one, and its scanner, for every body).
_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)


def decode_json(raw: bytes | str) -> Any:
    """The body as JSON, each number that no store can hold kept as a marker for ``screen``."""
    text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw  # RFC 8259 section 8.1: a BOM may be ignored
    if text.startswith("\ufeff"):  # a second one: refused in json.loads's words
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


def text_problem(value: str) -> str | None:
    """Why a string cannot be taken in, or None."""
    if len(value) > MAX_TEXT:
        return f"at most {MAX_TEXT} characters"
    if "\x00" in value:
        return "must not contain the NUL character (U+0000)"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "must not contain a lone surrogate (not a character: it cannot be encoded as UTF-8)"
    return None


def _plain_text(value: str) -> bool:
    """Text that is certainly fine (ASCII without NUL, not too long): nothing to work out."""
    return value.isascii() and len(value) <= MAX_TEXT and "\x00" not in value


def _certainly_fine(value: Any) -> bool:
    """Most of a body (plain text, a whole number a store holds, true, false, null), told by its
    exact type before any general check: every command's body passes here."""
    kind = type(value)
    if kind is str:
        return _plain_text(value)
    if kind is int:
        return STORE_INT_MIN <= value <= STORE_INT_MAX
    return value is None or kind is bool


def screen(value: Any) -> Any:
    """marshmallow-shaped messages for every value no store can hold ({field: [message]}), or None."""
    if _certainly_fine(value):
        return None
    if isinstance(value, _Unrepresentable):
        return [value.message]
    if isinstance(value, str):
        why = text_problem(value)
        return [why] if why else None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return None if STORE_INT_MIN <= value <= STORE_INT_MAX else [WHOLE]
    if isinstance(value, float):
        return None if math.isfinite(value) else ["a finite number"]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    errors: dict[Any, Any] = {}
    for key, item in items:
        if isinstance(key, str) and not _plain_text(key) and (why := text_problem(key)):
            errors[key] = [f"the name of this entry {why}"]
            continue
        if not _certainly_fine(item) and (found := screen(item)) is not None:
            errors[key] = found
    return errors or None


def refuse_unrepresentable(value: Any) -> None:
    errors = screen(value)
    if errors is not None:
        raise ma.ValidationError(errors if isinstance(errors, dict) else {"body": errors})


class Text(ma.fields.String):
    """Text of a bounded length (bounds from the domain); NUL and lone surrogates refused."""

    def __init__(self, low: int = 0, high: int = MAX_TEXT, **kwargs: Any) -> None:
        super().__init__(validate=ma.validate.Length(low, high), **kwargs)

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        why = text_problem(text)
        if why:
            raise ma.ValidationError(why)
        return text


class Whole(ma.fields.Integer):
    """A whole number within bounds (from the domain; at most what the stores hold)."""

    def __init__(self, low: int = STORE_INT_MIN, high: int = STORE_INT_MAX, **kwargs: Any) -> None:
        super().__init__(validate=ma.validate.Range(max(low, STORE_INT_MIN), min(high, STORE_INT_MAX)), **kwargs)


def Position(**kwargs: Any) -> Whole:
    """A version, step or page position (0 = from the start)."""
    return Whole(0, MAX_POSITION, **kwargs)


class SchemaReusingParser(FlaskParser):
    """webargs' Flask parser, building each argument schema once and screening every value."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._schemas: dict[type, ma.Schema] = {}
        self._loaders: dict[str, Any] = {}

    def get_default_request(self) -> Any:
        # The request itself, not Flask's proxy: webargs reads it several times a parse, and each
        # read through the proxy is a failed attribute look-up on the proxy, then the context's.
        return flask.request._get_current_object()  # type: ignore[attr-defined]

    def _get_schema(self, argmap: Any, req: Any) -> ma.Schema:
        if isinstance(argmap, type) and issubclass(argmap, ma.Schema):
            schema = self._schemas.get(argmap)
            if schema is None:
                schema = self._schemas.setdefault(argmap, argmap())
            return schema
        return super()._get_schema(argmap, req)

    def _get_loader(self, location: str) -> Any:
        # (webargs makes a set of every location to check the name against, at each request)
        loader = self._loaders.get(location)
        if loader is None:
            loader = self._loaders.setdefault(location, super()._get_loader(location))
        return loader

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return core.missing
        try:
            return decode_json(req.get_data(cache=True))
        except UnicodeDecodeError as exc:
            raise json.JSONDecodeError(f"Bytes decoding error : {exc.reason}", doc=str(exc.object), pos=exc.start) from exc

    def _load_location_data(self, *, schema: Any, req: Any, location: str) -> Any:
        data = super()._load_location_data(schema=schema, req=req, location=location)
        if data is not core.missing:
            refuse_unrepresentable(dict(req.args.lists()) if location in ("query", "querystring") else data)
        return data

    def _process_location_data(self, location_data: Any, schema: Any, req: Any, location: str, unknown: Any, validators: Any) -> Any:
        data = super()._process_location_data(location_data, schema, req, location, unknown, validators)
        refuse_unrepresentable(data)  # what the schema made of it (a query's digits, now an int)
        return data


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint, parsing its arguments with the parser above: every blueprint
    of the API is one of these (the library's own parser is left as it is for anything else)."""

    ARGUMENTS_PARSER = SchemaReusingParser()
