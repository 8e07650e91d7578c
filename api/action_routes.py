"""Where each command of a chase is sent and who may send it, as a token sees it: the track
view's ``actions`` (api/affordances.py) say, for the token that asked, what its command would
refuse it (application/permissions.py decides; every command's ``who`` is the table's its command
refuses by: the record's, application/permissions.py ``RECORD``, or its system's,
application/systems/<package>/permissions.py ``PARTICIPANT`` and ``CHASE``; for a system whose
commands are declared, api/declared.py ``action_routes`` makes them from the declarations)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from application.access import KEEPER, PLAYER
from application.permissions import HEALER, RECORD as RECORD_PERMISSIONS, alone, refusal

TOKENS = 'README.md "HTTP in ten lines" (a player acts only for their own participants; only the Keeper undoes, rewinds, redoes and reveals the seed)'


@dataclass(frozen=True)
class Route:
    """Where a command is sent (its path after /chases/<id>, {participant_id} filled in) and who
    may send it: "player" (for their own participant), "healer" (any player, for the healer they
    name), "keeper", "anyone": the table's its command refuses by (application/permissions.py)."""

    method: str
    path: str
    who: str


def participant_routes(paths: Mapping[str, tuple[str, str]], permissions: Mapping[str, Any]) -> dict[str, Route]:
    """A system's participant-level Routes: each action's method and path (the API's), and who may
    send it, from the table its command refuses by (application/permissions.py); an action on
    one side only is a mistake caught at import."""
    if paths.keys() != permissions.keys():
        raise ValueError(f"actions with a path and no permission or the reverse: {sorted(paths.keys() ^ permissions.keys())}")
    return {action: Route(method, path, permissions[action].who) for action, (method, path) in paths.items()}


def chase_routes(paths: Mapping[str, tuple[str, str]], permissions: Mapping[str, Any]) -> dict[str, Route]:
    """The chase-level Routes the view lists: each action's method and path (the API's), and who
    may send it, from the table its command refuses by; the table may hold more (the Keeper's
    commands the view does not list), but an action with a path and no permission is a mistake
    caught at import."""
    if paths.keys() - permissions.keys():
        raise ValueError(f"actions with a path and no permission: {sorted(paths.keys() - permissions.keys())}")
    return {action: Route(method, path, permissions[action].who) for action, (method, path) in paths.items()}


RECORD = chase_routes({  # the record's commands, every system's (api/history.py, api/chases.py)
    "undo": ("POST", "/undo"),
    "rewind": ("POST", "/rewind"),
    "redo": ("POST", "/redo"),
    "request_undo": ("POST", "/undo-requests"),
    "reveal_seed": ("POST", "/reveal-seed"),
    "add_entropy": ("POST", "/entropy"),
    "issue_token": ("POST", "/tokens"),
    "end_chase": ("POST", "/end"),
    "export": ("GET", "/export"),
}, RECORD_PERMISSIONS)


PARTICIPANT = Route("POST", "", "player")  # what a token may do for a participant: its own, or any for the Keeper
HEALING = Route("POST", "", HEALER)  # ... and for a participant a healer of theirs treats: any, if they have one


def token_refusals(principal: Any, pid: str, acting_for: Mapping[str, Any] | None) -> tuple[Any, Any]:
    """Whatever a player's token is refused of a participant's actions turns on (a fragment shown to
    one player is shown again to another only when these are the same)."""
    return token_refusal(PARTICIPANT, principal, pid, acting_for), token_refusal(HEALING, principal, pid, acting_for)


def token_refusal(route: Route, principal: Any, pid: str | None, acting_for: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """What the token that asked may not do, whatever the rules say: what its command would
    refuse (application/permissions.py): for a participant, ``acting_for``: whom a player acts
    for, where not their own alone; for the chase, before the body names anyone (a player's roll
    for one of theirs: refused a token that acts for no one)."""
    if principal is None or principal.role != PLAYER:
        return None
    if pid is None:
        refused = refusal(principal, route.who, None)
    else:
        refused = refusal(principal, route.who, None if route.who == HEALER else acting_for.get(pid, ()) if acting_for is not None else alone(pid))
    if refused is None:
        return None
    return ("only the Keeper may do this", TOKENS) if refused == KEEPER else ("not your participant", TOKENS)
