"""Bearer tokens: who is asking, for which chase."""
from __future__ import annotations

from uuid import UUID

from flask import request

from api.runtime import ledger
from application.access import Principal


def principal(chase_id: UUID) -> Principal:
    """The Keeper or player the request's token stands for, in this chase (401/403 otherwise)."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return ledger().authenticate(chase_id, token.strip() if scheme.lower() == "bearer" else None)


