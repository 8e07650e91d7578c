"""Bearer tokens: who is asking, for which chase."""
from __future__ import annotations

from uuid import UUID

from flask import Flask, g, request

from api.runtime import ledger
from application.access import Principal


def principal(chase_id: UUID) -> Principal:
    """The Keeper or player the request's token stands for, in this chase (401/403 otherwise)."""
    known = g.get("principal")
    if known is not None:
        return known
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    g.principal = ledger().authenticate(chase_id, token.strip() if scheme.lower() == "bearer" else None)
    return g.principal


def install(app: Flask) -> None:
    """Every request on a chase shows its token before anything else is read: no token, 401."""

    @app.before_request
    def authenticate_chase_requests() -> None:
        chase_id = (request.view_args or {}).get("chase_id")
        if chase_id is not None:
            principal(chase_id)
