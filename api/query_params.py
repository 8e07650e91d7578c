"""Unknown query parameters are refused (issue 18): ``?verison=3`` on a track view would otherwise
answer the live view as if it were the past one, and ``?limt=5`` the whole list.

Each operation's query parameters are the ones it documents: the fields of its query schema
(``@blp.arguments(..., location="query")``) and the parameters documented by hand (``dry_run``).
Anything else is a 422 problem naming the parameter and listing the ones the operation takes,
before anything is read or recorded. A command may always carry ``dry_run``: one without a dry
run refuses it in its own words (api/dry_run.py).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from flask import Flask, Response, current_app, request

from api.problems import problem

ON_EVERY_COMMAND = frozenset({"dry_run"})


def _query_fields(schema: Any) -> set[str]:
    instance = schema() if isinstance(schema, type) else schema
    return {field.data_key or name for name, field in instance.fields.items() if not field.dump_only}


@lru_cache(maxsize=None)
def known(handler: Any) -> frozenset[str]:
    """The query parameters an operation documents (its handler's ``_apidoc``, flask-smorest)."""
    doc = getattr(handler, "_apidoc", {})
    names: set[str] = set()
    for parameter in doc.get("arguments", {}).get("parameters", []):
        if parameter.get("in") in ("query", "querystring"):
            names |= _query_fields(parameter["schema"])
    for parameter in doc.get("manual_doc", {}).get("parameters", []):
        if isinstance(parameter, dict) and parameter.get("in") == "query":
            names.add(parameter["name"])
    return frozenset(names)


def unknown_parameters() -> Response | None:
    req = request._get_current_object()  # type: ignore[attr-defined]
    if req.method == "OPTIONS" or not req.query_string or not req.args:
        return None
    view = current_app.view_functions.get(req.endpoint or "")
    view_class = getattr(view, "view_class", None)
    if view_class is None:  # not an operation of the API document (static files, /metrics)
        return None
    handler = getattr(view_class, "get" if req.method == "HEAD" else req.method.lower(), None)
    if handler is None:
        return None  # 405, answered by Flask
    allowed = known(handler) | (ON_EVERY_COMMAND if req.method not in ("GET", "HEAD") else frozenset())
    unknown = sorted(set(req.args) - allowed)
    if not unknown:
        return None
    takes = ", ".join(sorted(allowed - ON_EVERY_COMMAND)) or "none"
    message = f"unknown query parameter; this operation takes: {takes}"
    return problem(
        422, "invalid-request", "Invalid request", f"unknown query parameters: {', '.join(unknown)}",
        errors=[{"field": name, "message": message} for name in unknown],
    )


def install(app: Flask) -> None:
    app.before_request(unknown_parameters)
