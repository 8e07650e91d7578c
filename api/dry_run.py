"""Odds before a roll over HTTP: ``?dry_run=true`` on any command that rolls.

The same request as the command, with ``?dry_run=true``: the command is tried out on a throw-away
copy of the chase and nothing is recorded (application/dry_run.py). It answers in the command's
envelope with ``dry_run: true`` and ``rolls``: each roll the command would make (the first is the
one about to be made; later ones follow the path of the lowest faces, or of the table dice given),
with its exact odds. A request the command would refuse is refused the same way. A command that
rolls opts in with ``@dry_run_allowed``, so that a command recording outside the runner (a job
queued, a token issued) can never be "dry run" for real.
"""
from __future__ import annotations

from functools import wraps
from typing import Any, Callable

from flask import Flask, Response, current_app, g, jsonify, request
from api.parsing import Blueprint

from api.runtime import ledger
from domain.errors import InvalidInput

PARAMETER = {
    "name": "dry_run",
    "in": "query",
    "required": False,
    "schema": {"type": "boolean", "default": False},
    "description": (
        "true: record nothing; answer with `dry_run: true` and `rolls`, each roll the command would make with its "
        "exact odds (`odds`: {outcomes: {name: {p, exact}}, success}), `outcomes`: the odds of what they decide "
        "together (who wins an attack), and `version`, the chase version tried"
    ),
}
_TRUE, _FALSE = ("true", "1"), ("false", "0", "")


def asked() -> bool:
    """Whether the request asks for a dry run; anything but true or false is a 422 naming it."""
    req = request._get_current_object()  # type: ignore[attr-defined]
    if not req.query_string:  # (most commands: no query to parse)
        return False
    value = req.args.get("dry_run", "").strip().lower()
    if value not in _TRUE + _FALSE:
        raise InvalidInput("dry_run", "must be true or false")
    return value in _TRUE


def answer(command: Callable[[], Any]) -> Response:
    """The dry run of ``command`` (a call of the command service), in the commands' envelope; a
    response of its own, which the endpoint's response schema (the command's answer) passes by."""
    return tried(ledger().try_out(command))


def tried(answered: dict[str, Any]) -> Response:
    """A dry run's answer (application/dry_run.py ``odds_before``), in the commands' envelope."""
    g.dry_run = True  # for anything keeping responses (idempotency): this one recorded nothing
    return jsonify({"dry_run": True, **answered})


_doc = Blueprint.doc(parameters=[PARAMETER])


def documented(view: Callable[..., Any]) -> Callable[..., Any]:
    """For an endpoint that answers a dry run its own way: documented, and marked as one that has
    a dry run (the wrappers of flask-smorest copy the mark). The documentation is the one
    flask-smorest's ``doc`` makes, kept on the view itself: its wrapper only calls the view, a
    layer every command of the kind would pass through."""
    view._apidoc = _doc(view)._apidoc  # type: ignore[attr-defined]
    view.has_dry_run = True  # type: ignore[attr-defined]
    return view


def install(app: Flask) -> None:
    """``?dry_run=true`` on a command without a dry run is a 422 naming it, before anything runs:
    the command would otherwise be recorded by a client asking that nothing be."""

    @app.before_request
    def refuse_a_dry_run_there_is_none_of() -> None:
        req = request._get_current_object()  # type: ignore[attr-defined]
        if req.method in ("GET", "HEAD", "OPTIONS") or not asked():
            return
        view = current_app.view_functions.get(req.endpoint or "")
        handler = getattr(getattr(view, "view_class", None), req.method.lower(), view)
        if not getattr(handler, "has_dry_run", False):
            raise InvalidInput("dry_run", "this command has no dry run: send it without dry_run to record it")


def dry_run_allowed(view: Callable[..., Any]) -> Callable[..., Any]:
    """Let a command endpoint answer ``?dry_run=true`` (documented in the OpenAPI document)."""

    @wraps(view)
    def endpoint(*args: Any, **kwargs: Any) -> Any:
        if not asked():
            return view(*args, **kwargs)
        return answer(lambda: view(*args, **kwargs))

    return documented(endpoint)
