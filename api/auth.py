"""Bearer tokens: who is asking, for which chase. Stream tickets stand in for them on streams."""
from __future__ import annotations

from uuid import UUID

from flask import Flask, g, request

from api.runtime import ledger
from application.access import Principal

# The only endpoints a stream ticket opens (application/tickets.py): read-only, one chase.
TICKETED = frozenset({"stream.ChaseStream", "stream.ReplayStream"})


def principal(chase_id: UUID) -> Principal:
    """The Keeper or player the request's token stands for, in this chase (401/403 otherwise).

    A browser's EventSource cannot send the Authorization header: on the stream endpoints a
    ``?ticket=`` from ``POST /chases/<id>/stream-tickets`` stands in for the token."""
    state = g._get_current_object()  # type: ignore[attr-defined]  # (each use of a proxy looks the context up)
    known = state.get("principal")
    if known is not None:
        return known
    req = request._get_current_object()  # type: ignore[attr-defined]
    header = req.environ.get("HTTP_AUTHORIZATION", "")  # (as req.headers reads it, without its KeyError when not sent)
    scheme, _, token = header.partition(" ")
    ticket = req.args.get("ticket") if not header else None
    if ticket and req.endpoint in TICKETED:
        state.principal = ledger().tickets.redeem(str(chase_id), ticket)
    else:
        state.principal = ledger().authenticate(chase_id, token.strip() if scheme.lower() == "bearer" else None)
    return state.principal


def install(app: Flask) -> None:
    """Every request on a chase shows its token before anything else is read: no token, 401.
    (Not a CORS preflight: browsers send those without a token, and api/cors.py answers them.)"""

    @app.before_request
    def authenticate_chase_requests() -> None:
        req = request._get_current_object()  # type: ignore[attr-defined]
        chase_id = (req.view_args or {}).get("chase_id")
        if chase_id is not None and req.method != "OPTIONS":
            principal(chase_id)
