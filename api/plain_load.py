"""A command's JSON body loaded by its schema's fields without marshmallow's walk around them.

``Schema.load`` makes an error store, a closure and a keyword dict for each field, and asks
after partial loading, hooks and validators the argument schemas do not have; for a dice roll
that walk cost as much again as the fields' own work (bench/http_instructions.py). A schema
with none of it (no hooks, no partial loading, not many, each field loaded under its own name)
is loaded here by calling each field's ``deserialize`` as marshmallow calls it: the same
required checks, defaults, conversions and validators, in the same order. Anything else is left
to marshmallow: a body with a key the schema does not know (unless unknown keys are excluded),
and any body a field refuses, which marshmallow then loads again and answers with all of its
errors, as it always has.
"""
from __future__ import annotations

from typing import Any

import marshmallow as ma

# (data key, attribute, field) for each field loaded, in the schema's order
Plan = tuple[tuple[str, str, ma.fields.Field], ...]


def plan_of(schema: ma.Schema) -> Plan | None:
    """How ``schema`` is loaded here, or None when only marshmallow's own load does it right."""
    if schema.many or schema.partial is not None or any(schema._hooks.values()):
        return None
    fields = []
    for name, field in schema.load_fields.items():
        if field.attribute is not None or "." in name:  # (marshmallow sets such a value by its path)
            return None
        fields.append((name if field.data_key is None else field.data_key, name, field))
    return tuple(fields)


def load(schema: ma.Schema, plan: Plan, names: frozenset[str], data: Any, unknown: str | None) -> Any:
    """``schema.load(data, unknown=unknown)`` of a JSON object, or ``ma.missing`` where
    marshmallow must load it (a refusal, or a key ``names`` does not hold that is not excluded)."""
    if type(data) is not dict:
        return ma.missing
    if (unknown or schema.unknown) != ma.EXCLUDE and not names.issuperset(data):
        return ma.missing
    loaded = schema.dict_class()
    try:
        for key, name, field in plan:
            value = field.deserialize(data.get(key, ma.missing), key, data)
            if value is not ma.missing:
                loaded[name] = value
    except ma.ValidationError:
        return ma.missing
    return loaded
