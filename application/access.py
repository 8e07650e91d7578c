"""Who may do what in a chase: the Keeper's token and player tokens bound to participants.

Tokens are random and kept only as SHA-256 hashes. The Keeper may do anything in their chase;
a player acts only for the participants their token is bound to and reads what players see.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Iterable

from application.ports import TokenStore

KEEPER, PLAYER, SYSTEM_ROLE = "keeper", "player", "system"


class Unauthenticated(Exception):
    """No token, or a token this server never issued."""


class Forbidden(Exception):
    """A valid token asking for something outside its role or its chase."""


@dataclass(frozen=True)
class Principal:
    """Who is asking: the Keeper of a chase, a player, or the system itself (jobs, tests)."""

    role: str
    chase_id: str | None = None
    participant_ids: tuple[str, ...] = ()
    label: str = ""

    @property
    def name(self) -> str:
        """How the log names who did something."""
        return self.label or self.role

    def require_keeper(self, what: str) -> None:
        if self.role not in (KEEPER, SYSTEM_ROLE):
            raise Forbidden(f"only the Keeper may {what}")

    def require_acts_for(self, participant_id: str | None, what: str) -> None:
        if self.role in (KEEPER, SYSTEM_ROLE):
            return
        if participant_id is None or participant_id not in self.participant_ids:
            raise Forbidden(f"a player may {what} only for their own participants")


SYSTEM = Principal(SYSTEM_ROLE, label="system")


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Access:
    """Issues and checks tokens."""

    def __init__(self, tokens: TokenStore) -> None:
        self.tokens = tokens

    def issue(self, chase_id: str, role: str, participant_ids: Iterable[str] = (), label: str = "") -> str:
        token = secrets.token_urlsafe(32)
        self.tokens.keep(_hash(token), str(chase_id), role, list(participant_ids), label or role)
        return token

    def authenticate(self, chase_id: str, token: str | None) -> Principal:
        """The principal a token stands for, in this chase."""
        if not token:
            raise Unauthenticated("a token is required: send Authorization: Bearer <token>")
        found = self.tokens.find(_hash(token))
        if found is None:
            raise Unauthenticated("this token is not known")
        if found["chase_id"] != str(chase_id):
            raise Forbidden("this token belongs to another chase")
        return Principal(found["role"], found["chase_id"], tuple(found["participant_ids"]), found["label"])
