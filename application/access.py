"""Who may do what in a chase: the Keeper's token and player tokens bound to participants.

Tokens are random and kept only as SHA-256 hashes. The Keeper may do anything in their chase;
a player acts only for the participants their token is bound to and reads what players see.

A token, once issued, is never revoked nor changed (the token stores only insert), so what a
token hash stands for is remembered in this process (bounded, least recently used dropped
first) and later requests skip the store. Only tokens found are remembered: a token another
process issued a moment ago is still looked up in the store. Only hashes are kept, never tokens.
"""
from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Iterable

from application.ports import TokenStore

KEEPER, PLAYER, SYSTEM_ROLE = "keeper", "player", "system"
REMEMBERED = 4096  # token hashes remembered per process


class Unauthenticated(Exception):
    """No token, or a token this server never issued."""


class Forbidden(Exception):
    """A valid token asking for something outside its role or its chase; ``field``: the request's
    field only the Keeper may send, when that is what was refused (application/permissions.py)."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Principal:
    """Who is asking: the Keeper of a chase, a player, or the system itself (jobs, tests); what
    each may send is application/permissions.py's."""

    role: str
    chase_id: str | None = None
    participant_ids: tuple[str, ...] = ()
    label: str = ""

    @property
    def name(self) -> str:
        """How the log names who did something."""
        return self.label or self.role


SYSTEM = Principal(SYSTEM_ROLE, label="system")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Access:
    """Issues and checks tokens."""

    def __init__(self, tokens: TokenStore, remembered: int = REMEMBERED) -> None:
        self.tokens = tokens
        self.remembered = remembered
        self._known: OrderedDict[str, Principal] = OrderedDict()
        self._lock = threading.Lock()

    def issue(self, chase_id: str, role: str, participant_ids: Iterable[str] = (), label: str = "") -> str:
        token = secrets.token_urlsafe(32)
        self.tokens.keep(_hash(token), str(chase_id), role, list(participant_ids), label or role)
        return token

    def authenticate(self, chase_id: str, token: str | None) -> Principal:
        """The principal a token stands for, in this chase."""
        if not token:
            raise Unauthenticated("a token is required: send Authorization: Bearer <token>")
        principal = self._principal(_hash(token))
        if principal.chase_id != str(chase_id):
            raise Forbidden("this token belongs to another chase")
        return principal

    def whose(self, token: str | None) -> Principal:
        """Who a token stands for, in whichever chase (or session) it was issued for."""
        if not token:
            raise Unauthenticated("a token is required: send Authorization: Bearer <token>")
        return self._principal(_hash(token))

    def issued(self, chase_id: str) -> list[dict[str, Any]]:
        """The tokens issued for a chase (role, participants, label), never their hashes."""
        return self.tokens.issued(str(chase_id))

    def _principal(self, token_hash: str) -> Principal:
        with self._lock:
            principal = self._known.get(token_hash)
            if principal is not None:
                self._known.move_to_end(token_hash)
                return principal
        found = self.tokens.find(token_hash)
        if found is None:
            raise Unauthenticated("this token is not known")
        principal = Principal(found["role"], found["chase_id"], tuple(found["participant_ids"]), found["label"])
        with self._lock:
            self._known[token_hash] = principal
            while len(self._known) > self.remembered:
                self._known.popitem(last=False)
        return principal
