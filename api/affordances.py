"""The track view as a client reads it: what each participant may do now, whose turn is next,
that the last command ended a turn, distances between rivals, the obstacle ahead in full.

DESIGN.md section 10: no front-end re-implements rules. The stored track view is what the
projections write (token-free, the same for every reader); this adds, when answering:

- ``turn``: {round, participant_id (whose turn now), next_participant_id (the next in this
  round's order), ended_by_last_command};
- each participant's ``actions``: every participant-level command of the chase's system, with
  its method and path, ``allowed``, and when not, ``why`` and ``rule`` (the domain's own guard's
  words, domain/affordances.py, or the token's: a player acts only for their own participants,
  and some commands are the Keeper's); and the chase-level ``actions`` beside them (the old count
  of actions that count is ``actions_counted``);
- each participant's ``distances`` to every rival (pursuer and quarry: roles that differ; racers
  race each other), in locations (``metres`` in D6);
- ``obstacle_ahead`` (on a track with hazards and barriers): the whole obstacle (as in
  ``obstacles``) or null, ``obstacle_ahead_id`` its id.

A view of a past version (``?version=``) is read-only: every ``actions`` list is empty there.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping
from uuid import UUID

import orjson
from flask import current_app, g

from api.representation import Encoded
from api.runtime import ledger
from application.access import PLAYER

TOKENS = 'README.md "HTTP in ten lines" (a player acts only for their own participants; only the Keeper undoes, rewinds, redoes and reveals the seed)'


@dataclass(frozen=True)
class Route:
    """Where a command is sent (its path after /chases/<id>, {participant_id} filled in) and who
    may send it: "player" (for their own participant), "healer" (any player, for the healer they
    name), "keeper"."""

    method: str
    path: str
    who: str


RECORD = {  # the record's commands, every system's (api/history.py, api/chases.py)
    "undo": Route("POST", "/undo", "keeper"),
    "rewind": Route("POST", "/rewind", "keeper"),
    "redo": Route("POST", "/redo", "keeper"),
    "request_undo": Route("POST", "/undo-requests", "player"),
    "reveal_seed": Route("POST", "/reveal-seed", "keeper"),
    "add_entropy": Route("POST", "/entropy", "player"),
    "issue_token": Route("POST", "/tokens", "keeper"),
    "end_chase": Route("POST", "/end", "keeper"),
    "export": Route("GET", "/export", "player"),
}


def present(view: dict[str, Any], *, live: bool = True) -> dict[str, Any]:
    """The view as the token that asked reads it; ``live``: the chase as it is now (a past
    version is read-only: no actions)."""
    chase_id = view["chase_id"]
    afford = ledger().affordances
    legal = afford.legal_now(UUID(chase_id), view["version"]) if live else None
    routes = current_app.extensions["chase_action_routes"].get(view.get("system"), ({}, {}))
    principal = g.get("principal")  # none: the chase being created, by its Keeper
    prefix = f"/chases/{chase_id}"
    participants = view.get("participants", {})
    shown = _Shown.of(chase_id, view.get("system"), live, principal)
    if participants:
        obstacles = {o["id"]: o for o in view.get("obstacles", ())}
        rivals = _rivals(participants)
        by_participant = legal["participants"] if legal else {}
        player = principal is not None and principal.role == PLAYER
        for pid, p in participants.items():
            inputs = (p, by_participant.get(pid), _token_refusal(PARTICIPANT, principal, pid) if player else None, rivals.get(pid, NONE),
                      obstacles.get(p["obstacle_ahead"]) if "obstacle_ahead" in p else None)
            if not shown.reuse(pid, inputs):
                shown.add(pid, inputs, _participant(routes[0], legal, principal, prefix, pid, inputs))
        shown.keep()
    return {
        **view,
        "turn": _turn(view, afford.turn_ended(UUID(chase_id), view["version"])),
        "participants": shown.now,
        "actions": _actions({**routes[1], **RECORD}, legal["chase"], principal, prefix, None) if legal else [],
        "actions_counted": view.get("actions"),
    }


NONE: list[Any] = []  # no rivals (shown as a list of its own: a participant's fragment is never shared with another's)
PARTICIPANT = Route("POST", "", "player")  # what a token may do for a participant: its own, or any for the Keeper


def _participant(routes: Mapping[str, Route], legal: Any, principal: Any, prefix: str, pid: str, inputs: tuple[Any, ...]) -> dict[str, Any]:
    p, actions, _, distances, ahead = inputs
    shown = {**p, "actions": _actions(routes, actions or {}, principal, prefix, pid) if legal else [], "distances": list(distances)}
    if "obstacle_ahead" in p:  # a track with hazards and barriers (Call of Cthulhu)
        shown.update(obstacle_ahead=ahead, obstacle_ahead_id=p["obstacle_ahead"])
    return shown


class _Shown:
    """Each participant as last shown to a kind of token (the Keeper, or a player: whose
    participant it is is one of its inputs) in a chase, encoded: shown again, unchanged, when
    its inputs are (its row in the view, the very legal actions worked out for it, which
    application/participant_steps.py keeps while its inputs stand, the token's refusal, its distances,
    the obstacle ahead). A big chase's command then encodes the few participants it changed,
    not 1,000 of them (issue 12 part 6)."""

    _kept: OrderedDict[tuple[Any, ...], dict[str, tuple[tuple[Any, ...], Any, int]]] = OrderedDict()
    _size = 0  # bytes encoded, kept
    _lock = threading.Lock()

    def __init__(self, key: tuple[Any, ...], before: dict[str, tuple[tuple[Any, ...], Any, int]]) -> None:
        self.key, self.before = key, before
        self.after: dict[str, tuple[tuple[Any, ...], Any, int]] = {}
        self.now: dict[str, Any] = {}
        self.options = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if current_app.json.sort_keys else 0)

    @classmethod
    def of(cls, chase_id: str, system: Any, live: bool, principal: Any) -> "_Shown":
        key = (chase_id, system, live, principal is not None and principal.role == PLAYER)
        with cls._lock:
            return cls(key, cls._kept.get(key, {}))

    def reuse(self, pid: str, inputs: tuple[Any, ...]) -> bool:
        found = self.before.get(pid)
        if found is None:
            return False
        then = found[0]
        # The legal actions by identity (a new dict whenever they were worked out again); the rest by value.
        if then[1] is not inputs[1] or then[2] != inputs[2] or (then[0] is not inputs[0] and then[0] != inputs[0]) or then[3] != inputs[3] or then[4] != inputs[4]:
            return False
        self.after[pid] = found
        self.now[pid] = found[1]
        return True

    def add(self, pid: str, inputs: tuple[Any, ...], shown: dict[str, Any]) -> None:
        try:
            encoded = orjson.dumps(shown, option=self.options)
        except TypeError:  # orjson.JSONEncodeError: what only the standard encoder writes; shown as it is
            self.now[pid] = shown
            return
        self.after[pid] = (inputs, Encoded(shown, encoded), len(encoded))
        self.now[pid] = self.after[pid][1]

    def keep(self) -> None:
        kept = _Shown._kept
        with _Shown._lock:
            old = kept.pop(self.key, None)
            _Shown._size += sum(size for _, _, size in self.after.values()) - (sum(size for _, _, size in old.values()) if old else 0)
            kept[self.key] = self.after
            while _Shown._size > KEPT_BYTES and len(kept) > 1:
                _, dropped = kept.popitem(last=False)
                _Shown._size -= sum(size for _, _, size in dropped.values())


KEPT_BYTES = 64 * 2**20  # participants' answers kept, encoded, across chases: a dozen chases of 1,000


def _actions(routes: Mapping[str, Route], legal: Mapping[str, Any], principal: Any, prefix: str, pid: str | None) -> list[dict[str, Any]]:
    out = []
    for action, route in routes.items():
        if action not in legal:
            continue
        href = prefix + (route.path.replace("{participant_id}", pid) if pid else route.path)
        entry = {"action": action, "method": route.method, "href": href}
        refused = _token_refusal(route, principal, pid) or legal[action]
        if refused is None:
            entry["allowed"] = True
        else:
            entry.update(allowed=False, why=refused[0], rule=refused[1])
        out.append(entry)
    return out


def _token_refusal(route: Route, principal: Any, pid: str | None) -> tuple[str, str] | None:
    """What the token that asked may not do, whatever the rules say (application/access.py)."""
    if principal is None or principal.role != PLAYER:
        return None
    if route.who == "keeper":
        return "only the Keeper may do this", TOKENS
    if route.who == "player" and pid is not None and pid not in principal.participant_ids:
        return "not your participant", TOKENS
    return None


def _turn(view: dict[str, Any], ended: bool) -> dict[str, Any]:
    order, now = view.get("turn_order") or [], view.get("whose_turn")
    following = order[order.index(now) + 1:] if now in order else []
    return {
        "round": view.get("round") or None,  # 0 before the first round: none yet
        "participant_id": now,
        "next_participant_id": following[0] if following else None,
        "ended_by_last_command": ended,
    }


def _rivals(participants: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each participant in the chase's distance to every rival: roles that differ (pursuer and
    quarry), or racers, who race each other. A track counts locations; D6 counts metres. The work
    is the size of the answer (a pack of 999 pursuers after one quarry: 1,998 distances)."""
    by_role: dict[str, list[tuple[str, Any, str, bool]]] = {}
    for pid, p in participants.items():
        where, unit = (p.get("location"), "locations") if p.get("location") is not None else (p.get("position"), "metres")
        if where is not None and p.get("role") and p.get("status") == "in_chase":
            # Those riding in a vehicle have its distances; they are not counted as rivals of their own.
            moves_itself = p.get("vehicle_id") is None and p.get("unit", pid) == pid
            by_role.setdefault(p["role"], []).append((pid, where, unit, moves_itself))
    out: dict[str, list[dict[str, Any]]] = {}
    for role, members in by_role.items():
        rivals = [m for other, others in by_role.items() if other != role or role == "racer" for m in others if m[3]]
        for pid, where, unit, _ in members:
            out[pid] = [{"to": other, unit: abs(there - where)} for other, there, _, _ in rivals if other != pid]
    return out
