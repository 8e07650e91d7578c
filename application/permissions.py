"""Who may send each command: written once, as tables of Permissions (the record's, every
chase's: ``RECORD`` below; each system's participant-level ``PARTICIPANT`` and chase-level
``CHASE``: application/systems/<package>/permissions.py, or derived from a system's declared
commands, application/declared.py), and decided once, here, for both the
command (which refuses: 403) and the track view's ``actions`` (which say allowed or not:
api/affordances.py, whose routes take their ``who`` from the same tables, api/action_routes.py).

``who``: "player" (a player for a participant they act for: their own, or, where the system
says so, one they act together with, as a unit in Savage Worlds; a chase-level command names it
in its body), "healer" (a player for the healer they name, one of theirs; none named: the
Keeper's), "keeper" (the Keeper's alone), "anyone" (any token of the chase).
The Keeper and the system itself may do anything (application/access.py).

``keeper_only``: the request's fields only the Keeper may send (a ruling or a choice the rules
leave to the Keeper or GM: a modifier, the cards dealt at the table, rolling for no one), each
refused 403 naming the field when a player sends it.

``now``: for a chase-level command whose sender turns on the chase as it stands (the side that
won a sudden hazard's call places it; a follow-up is its participant's or the GM's), the
system's word on it: the chase -> the Permission that decides now and the participant the
command is for now (None: whom its body names). The command refuses by it (``decided_now``) and
the track view asks it of the chase it shows (application/affordances.py), so both say the same.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Mapping

from application.access import KEEPER, SYSTEM_ROLE, Forbidden, Principal

PLAYER, HEALER, ANYONE = "player", "healer", "anyone"  # with KEEPER, the kinds of ``who``
WHO = (PLAYER, HEALER, KEEPER, ANYONE)
NOT_THEIRS = "not theirs"  # a refusal: the token acts for none of the participants it needs

# A system's way of saying whom a player acts for: each participant of the chase -> the
# participants a player's token may hold one of to act for it (a system without one: each alone).
ActingFor = Callable[[Any], Mapping[str, Collection[str]]]
# A system's word on whose a chase-level command is in the chase as it stands (``now`` above).
Now = Callable[[Any], tuple["Permission", str | None]]


def given(value: Any) -> bool:
    """Whether a field's value asks for a ruling: anything but absent, false or zero."""
    return value is not None and value is not False and value != 0


def absent(value: Any) -> bool:
    """Whether a field was left out: rolling for no one, say."""
    return value is None


@dataclass(frozen=True)
class KeeperOnly:
    """A field only the Keeper may send: what its refusal calls sending it ("only the Keeper may
    {what}"), and when a value is sent (``given``: not absent, false nor zero)."""

    what: str
    sent: Callable[[Any], bool] = given


@dataclass(frozen=True)
class Permission:
    """Who may send a command, what its refusal calls the command, and the fields of its request
    only the Keeper may send (by the request's field name)."""

    who: str
    what: str  # "only the Keeper may {what}", "a player may {what} only for their own participants"
    keeper_only: Mapping[str, KeeperOnly] = field(default_factory=dict)
    now: Now | None = None

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
    if by.role in (KEEPER, SYSTEM_ROLE) or who == ANYONE:
        return None
    if callable(acting_for):
        acting_for = acting_for()
    if who == KEEPER or (who == HEALER and acting_for is not None and not acting_for):
        return KEEPER
    own = by.participant_ids
    if acting_for is None:
        return None if own else NOT_THEIRS
    return None if any(pid in acting_for for pid in own) else NOT_THEIRS


def require(by: Principal, permission: Permission, acting_for: Acting, sent: Mapping[str, Any] | None = None) -> None:
    """Refuses (Forbidden, 403) a command ``by`` may not send, in the table's words: the Keeper's
    command; then a participant named not theirs (the more basic refusal, whatever else they
    sent); then a field of ``sent`` (the request's values by field name; a field left out is not
    sent) only the Keeper may send, named (a roll for no one: its field is what the Keeper alone
    may leave out); then no participant of theirs."""
    player = by.role not in (KEEPER, SYSTEM_ROLE)
    if player and permission.who != ANYONE and callable(acting_for):
        acting_for = acting_for()  # worked out once, for both refusals below
    refused = refusal(by, permission.who, acting_for)
    if refused == KEEPER:
        raise Forbidden(f"only the Keeper may {permission.what}" + (" without naming the healer" if permission.who == HEALER else ""))
    if refused is not None and acting_for:
        raise Forbidden(f"a player may {permission.what} only for their own participants")
    if sent and player:
        for name, rule in permission.keeper_only.items():
            if name in sent and rule.sent(sent[name]):
                raise Forbidden(f"only the Keeper may {rule.what}", field=name)
    if refused is not None:
        raise Forbidden(f"a player may {permission.what} only for their own participants")


def decided_now(permission: Permission, chase: Any) -> tuple[Permission, str | None]:
    """The Permission that decides a chase-level command in ``chase`` as it stands, and the
    participant it is for now (None: whom its body names): the table's own, but where its
    ``now`` says otherwise."""
    return permission.now(chase) if permission.now is not None else (permission, None)


def alone(participant_id: str | None) -> tuple[str, ...]:
    """Whom a player acts for, for a participant, in a system without units: that one."""
    return () if participant_id is None else (participant_id,)


# The record's commands, every chase's whatever its system (application/history.py,
# application/chases.py, application/webhooks.py), keyed as the track view's actions name them.
RECORD = {
    "undo": Permission(KEEPER, "undo"),
    "rewind": Permission(KEEPER, "rewind"),
    "redo": Permission(KEEPER, "redo"),
    "request_undo": Permission(ANYONE, "ask for undos"),
    "answer_undo_request": Permission(KEEPER, "answer undo requests"),
    "reveal_seed": Permission(KEEPER, "reveal the seed"),
    "add_entropy": Permission(ANYONE, "add entropy"),
    "issue_token": Permission(KEEPER, "issue player tokens"),
    "end_chase": Permission(KEEPER, "end the chase"),
    "export": Permission(ANYONE, "export the log"),
    "register_webhook": Permission(KEEPER, "register webhooks"),
    "see_webhooks": Permission(KEEPER, "see the webhooks"),
    "see_deliveries": Permission(KEEPER, "see the webhooks' deliveries"),
}


def permit_record(by: Principal, action: str) -> None:
    """Refuses ``by`` (403) the record's command ``action`` (RECORD): none names a participant."""
    require(by, RECORD[action], None)
