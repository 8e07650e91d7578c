"""Who may send each participant-level command: written once, as each system's table of
Permissions (application/systems/<package>/permissions.py), and decided once, here, for both the
command (which refuses: 403) and the track view's ``actions`` (which say allowed or not:
api/affordances.py, whose routes take their ``who`` from the same table).

``who``: "player" (a player for a participant they act for: their own, or, where the system
says so, one they act together with, as a unit in Savage Worlds), "healer" (a player for the
healer they name, one of theirs; none named: the Keeper's), "keeper" (the Keeper's alone).
The Keeper and the system itself may do anything (application/access.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Collection, Mapping

from application.access import KEEPER, SYSTEM_ROLE, Forbidden, Principal

PLAYER, HEALER = "player", "healer"  # with KEEPER, the kinds of ``who``
WHO = (PLAYER, HEALER, KEEPER)
NOT_THEIRS = "not theirs"  # a refusal: the token acts for none of the participants it needs

# A system's way of saying whom a player acts for: each participant of the chase -> the
# participants a player's token may hold one of to act for it (a system without one: each alone).
ActingFor = Callable[[Any], Mapping[str, Collection[str]]]


@dataclass(frozen=True)
class Permission:
    """Who may send a participant-level command, and what its refusal calls the command."""

    who: str
    what: str  # "only the Keeper may {what}", "a player may {what} only for their own participants"

    def __post_init__(self) -> None:
        if self.who not in WHO:
            raise ValueError(f"who must be one of {', '.join(WHO)}, not {self.who!r}")


Acting = Collection[str] | Callable[[], Collection[str]] | None


def refusal(by: Principal, who: str, acting_for: Acting) -> str | None:
    """Why ``by`` may not send a command of ``who`` (None: it may): KEEPER (only the Keeper may)
    or NOT_THEIRS. ``acting_for``: the participants one of which the token must act for (the
    participant's own, for "player"; the healer named, for "healer", empty when none is); None
    when not known yet (the track view, before a healer is named: any player with a participant
    may name one of theirs); a callable: worked out only for a player."""
    if by.role in (KEEPER, SYSTEM_ROLE):
        return None
    if callable(acting_for):
        acting_for = acting_for()
    if who == KEEPER or (who == HEALER and acting_for is not None and not acting_for):
        return KEEPER
    own = by.participant_ids
    if acting_for is None:
        return None if own else NOT_THEIRS
    return None if any(pid in acting_for for pid in own) else NOT_THEIRS


def require(by: Principal, permission: Permission, acting_for: Acting) -> None:
    """Refuses (Forbidden, 403) a command ``by`` may not send, in the table's words."""
    refused = refusal(by, permission.who, acting_for)
    if refused == KEEPER:
        raise Forbidden(f"only the Keeper may {permission.what}" + (" without naming the healer" if permission.who == HEALER else ""))
    if refused is not None:
        raise Forbidden(f"a player may {permission.what} only for their own participants")


def alone(participant_id: str | None) -> tuple[str, ...]:
    """Whom a player acts for, for a participant, in a system without units: that one."""
    return () if participant_id is None else (participant_id,)
