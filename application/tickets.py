"""Stream tickets: how a browser's ``EventSource`` (which cannot send headers) opens a stream.

A client holding a token asks ``POST /chases/<id>/stream-tickets`` and puts the ticket in the
stream's URL (``?ticket=...``). The token itself never appears in a URL (URLs end up in logs and
browser history); a ticket is worth little there: it expires within a minute by default, names
one chase, and opens only that chase's streams (read-only). It carries who asked (role,
participants, label), so the stream sees the same principal the token would have given.

A ticket is ``<payload>.<signature>``, both base64url: the payload is JSON, the signature an
HMAC-SHA256 of the payload under a server secret that every process shares (from the
environment, or generated once and kept in the database), so any process can check a ticket
another issued, with no lookup.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Callable

from application.access import Forbidden, Principal, Unauthenticated

DEFAULT_TTL = 60.0  # seconds a ticket lasts unless configured (CHASE_LEDGER_STREAM_TICKET_SECONDS)
PURPOSE = "stream"  # what a ticket opens: a chase's streams, nothing else


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class StreamTickets:
    """Issues and checks short-lived, single-chase, read-only stream tickets."""

    def __init__(self, secret: Callable[[], bytes], ttl: float = DEFAULT_TTL, clock: Callable[[], float] = time.time) -> None:
        """``secret``: the shared server secret, asked for when first needed (after the fork)."""
        self._secret = secret
        self._key: bytes | None = None
        self.ttl = ttl
        self.clock = clock

    def key(self) -> bytes:
        if self._key is None:
            self._key = self._secret()
        return self._key

    def issue(self, chase_id: str, principal: Principal) -> dict[str, Any]:
        """A ticket for ``principal``'s streams of this chase, and when it expires (epoch seconds)."""
        if principal.chase_id is not None and principal.chase_id != str(chase_id):
            raise Forbidden("this token belongs to another chase")
        expires = int(self.clock() + self.ttl)
        claims = {"for": PURPOSE, "chase": str(chase_id), "role": principal.role,
                  "participants": list(principal.participant_ids), "label": principal.label, "exp": expires}
        payload = _b64(json.dumps(claims, separators=(",", ":")).encode())
        return {"ticket": f"{payload}.{self._sign(payload)}", "expires": expires}

    def redeem(self, chase_id: str, ticket: str) -> Principal:
        """The principal a ticket stands for on this chase's streams (401 when forged or expired)."""
        payload, _, signature = ticket.partition(".")
        if not payload or not hmac.compare_digest(signature.encode(), self._sign(payload).encode()):
            raise Unauthenticated("this stream ticket is not one this server issued")
        claims = json.loads(_unb64(payload))
        if claims.get("for") != PURPOSE:
            raise Unauthenticated("this ticket does not open streams")
        if claims["exp"] < self.clock():
            raise Unauthenticated("this stream ticket has expired: ask for another")
        if claims["chase"] != str(chase_id):
            raise Forbidden("this stream ticket belongs to another chase")
        return Principal(claims["role"], claims["chase"], tuple(claims["participants"]), claims["label"])

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self.key(), payload.encode(), hashlib.sha256).digest())
