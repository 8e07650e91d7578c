"""``Prefer: return=minimal`` (RFC 7240): a command answered without the whole track view.

A command's answer carries the chase's track view as it is after the command; at 1,000
participants that is some 420 KB. A client that keeps its own copy (from the stream, or a GET
when it needs one) sends ``Prefer: return=minimal`` and gets the chase's envelope only: its id,
system, phase, version, round, whose turn and chain head, beside what the command itself
answers (the roll, the participant added, the outcome). The answer says
``Preference-Applied: return=minimal``. Reads (GET) always answer in full.
"""
from __future__ import annotations

from typing import Any

from flask import Flask, Response, has_request_context, request

MINIMAL_CHASE = ("chase_id", "system", "phase", "version", "round", "whose_turn", "chain_head")


def prefers_minimal() -> bool:
    if not has_request_context() or request.method == "GET":
        return False
    return any(
        token.strip().lower().replace(" ", "") == "return=minimal"
        for header in request.headers.getlist("Prefer")
        for token in header.split(",")
    )


def minimal(chase: dict[str, Any]) -> dict[str, Any]:
    return {key: chase[key] for key in MINIMAL_CHASE if key in chase}


def install(app: Flask) -> None:
    @app.after_request
    def preference_applied(response: Response) -> Response:
        if prefers_minimal() and response.status_code < 300:
            response.headers["Preference-Applied"] = "return=minimal"
        if request.method != "GET":
            response.vary.add("Prefer")
        return response
