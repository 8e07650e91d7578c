"""Request arguments parsed with one schema instance per schema class.

flask-smorest hands webargs the schema class of each ``@blp.arguments``, and webargs built an
instance of it for every request; building a marshmallow schema deep-copies its fields, a
measurable share of a command's time (bench/http_profile.py). Loading keeps no state in the
instance, so one instance per class serves every request and thread.
"""
from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask_smorest.arguments import ArgumentsMixin
from webargs.flaskparser import FlaskParser


class SchemaReusingParser(FlaskParser):
    """webargs' Flask parser, building each argument schema once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._schemas: dict[type, ma.Schema] = {}

    def _get_schema(self, argmap: Any, req: Any) -> ma.Schema:
        if isinstance(argmap, type) and issubclass(argmap, ma.Schema):
            schema = self._schemas.get(argmap)
            if schema is None:
                schema = self._schemas.setdefault(argmap, argmap())
            return schema
        return super()._get_schema(argmap, req)


def install() -> None:
    """Every blueprint decorated after this parses with it (api/__init__.py calls it first)."""
    if not isinstance(ArgumentsMixin.ARGUMENTS_PARSER, SchemaReusingParser):
        ArgumentsMixin.ARGUMENTS_PARSER = SchemaReusingParser()
