"""The track view as a client reads it: what each participant may do now, whose turn is next,
that the last command ended a turn, distances between rivals, the obstacle ahead in full.

DESIGN.md section 10: no front-end re-implements rules. The stored track view is what the
projections write (token-free, the same for every reader); this adds, when answering:

- ``turn``: {round, participant_id (whose turn now), next_participant_id (the next in this
  round's order), ended_by_last_command};
- what each participant may do: every participant-level command of the chase's system, allowed
  or, when not, ``why`` and ``rule`` (the domain's own guard's words, domain/affordances.py, or
  the token's, api/action_routes.py: what the command would refuse the token,
  application/permissions.py), each said once (api/compact_actions.py: the chase's
  ``action_templates``, each participant's ``allowed_actions`` and ``refused_actions``), or with
  ``Prefer: actions=full`` as each participant's ``actions`` list, each with its method and path;
  and the chase-level ``actions`` beside them (the old count of actions that count is
  ``actions_counted``);
- each participant's ``distances`` to every rival (pursuer and quarry: roles that differ; racers
  race each other), in locations (``metres`` in D6);
- ``obstacle_ahead`` (on a track with hazards and barriers): the whole obstacle (as in
  ``obstacles``) or null, ``obstacle_ahead_id`` its id.

A view of a past version (``?version=``) is read-only: it offers no action.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from itertools import compress
from operator import is_not
from typing import Any, Mapping
from uuid import UUID

import orjson
from flask import current_app, g

from api.action_hrefs import chase_actions, where
from api.compact_actions import said_once
from api.distances import rivals as rivals_of
from api.joined import FEW, Joined, joined
from api.representation import Encoded, prefers_full_actions
from api.runtime import ledger
from api.action_routes import Route, token_refusal, token_refusals
from application.access import PLAYER


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
    full = prefers_full_actions()
    shown = _Shown.of(chase_id, view.get("system"), live, principal, full)
    answered: Any = shown.now
    if participants:
        listed = view.get("obstacles", [])
        obstacles = {o["id"]: o for o in listed}
        rivals = rivals_of(chase_id, participants)
        by_participant = legal["participants"] if legal else {}
        player = principal is not None and principal.role == PLAYER
        acting_for = afford.acting_for(UUID(chase_id), view["version"]) if player and legal else None
        inputs_of = _Inputs(participants, by_participant, rivals, listed, frozenset(principal.participant_ids) if player else None)
        for pid in shown.to_look_at(inputs_of):
            p = participants[pid]
            inputs = (p, by_participant.get(pid), token_refusals(principal, pid, acting_for) if player else None, rivals.get(pid, NONE),
                      obstacles.get(p["obstacle_ahead"]) if "obstacle_ahead" in p else None)
            if not shown.reuse(pid, inputs):
                shown.add(pid, inputs, _participant(routes[0], legal, principal, prefix, pid, inputs, full, acting_for))
        answered = shown.keep(inputs_of)
    sent_to = where(routes, prefix, shown.sort_keys)
    more = {} if full else {"action_templates": sent_to.templates}
    return {
        **view,
        **more,
        "turn": _turn(view, afford.turn_ended(UUID(chase_id), view["version"])),
        "participants": answered,
        "actions": chase_actions(sent_to.chase_level, legal["chase"], principal, *_whose(afford, chase_id, view["version"], principal)) if legal else [],
        "actions_counted": view.get("actions"),
    }


def _whose(afford: Any, chase_id: str, version: int, principal: Any) -> tuple[Any, Any]:
    """For a player's token: whose each chase-level command that turns on the chase is now, and
    whom the player acts for (application/affordances.py); the Keeper's: none asked."""
    if principal is None or principal.role != PLAYER:
        return None, None
    return afford.whose_now(UUID(chase_id), version), afford.acting_for(UUID(chase_id), version)


NONE: list[Any] = []  # no rivals (shown as a list of its own: a participant's fragment is never shared with another's)
def _participant(
    routes: Mapping[str, Route], legal: Any, principal: Any, prefix: str, pid: str, inputs: tuple[Any, ...], full: bool, acting_for: Any,
) -> dict[str, Any]:
    p, actions, _, distances, ahead = inputs
    if full:
        said = {"actions": _actions(routes, actions or {}, principal, prefix, pid, acting_for) if legal else []}
    else:
        said = said_once(_refusals(routes, actions or {}, principal, pid, acting_for) if legal else {})
    shown = {**p, **said, "distances": list(distances)}
    if "obstacle_ahead" in p:  # a track with hazards and barriers (Call of Cthulhu)
        shown.update(obstacle_ahead=ahead, obstacle_ahead_id=p["obstacle_ahead"])
    return shown


class _Inputs:
    """What a kind of token's participants were shown from, as a whole: the view's participants,
    their legal actions, their distances (each the very mapping worked out), the obstacles and
    the player's own participants (None: not a player)."""

    __slots__ = ("rows", "legal", "rivals", "obstacles", "own")

    def __init__(self, rows: Mapping[str, Any], legal: Mapping[str, Any], rivals: Mapping[str, Any], obstacles: list[Any], own: frozenset[str] | None) -> None:
        self.rows, self.legal, self.rivals, self.obstacles, self.own = rows, legal, rivals, obstacles, own

    def changed_since(self, then: "_Inputs") -> set[str] | None:
        """The participants whose own inputs are not the very ones of ``then`` (by identity: the
        rows, legal actions and distances are kept as the same objects while they stand); None
        when what every participant is shown from changed (the obstacles, the player)."""
        if then.own != self.own or then.obstacles != self.obstacles:
            return None
        changed: set[str] = set()
        for now, before in ((self.rows, then.rows), (self.legal, then.legal), (self.rivals, then.rivals)):
            if now is not before:  # compared in C: a Python loop over 1,000 participants cost more
                changed.update(compress(now, map(is_not, now.values(), map(before.get, now))))
                if len(before) != len(now) or changed:
                    changed.update(before.keys() - now.keys())
        return changed


class _Last:
    """Each participant as last shown to a kind of token, and what they were shown from."""

    __slots__ = ("after", "now", "size", "inputs", "joined")

    def __init__(self, after: dict[str, tuple[tuple[Any, ...], Any, int]], now: dict[str, Any], size: int, inputs: _Inputs | None, joined: Joined | None) -> None:
        self.after, self.now, self.size, self.inputs, self.joined = after, now, size, inputs, joined


class _Shown:
    """Each participant as last shown to a kind of token (the Keeper, or a player: whose
    participant it is is one of its inputs) in a chase, encoded: shown again, unchanged, when
    its inputs are (its row in the view, the very legal actions worked out for it, which
    application/participant_steps.py keeps while its inputs stand, the token's refusal, its distances,
    the obstacle ahead). A big chase's command then encodes the few participants it changed,
    not 1,000 of them, and looks only at those whose inputs are not the very objects they were
    (issue 12 part 6)."""

    _kept: OrderedDict[tuple[Any, ...], _Last] = OrderedDict()
    _size = 0  # bytes encoded, kept
    _lock = threading.Lock()

    def __init__(self, key: tuple[Any, ...], last: _Last | None) -> None:
        self.key, self.last = key, last
        self.before = last.after if last is not None else {}
        self.after: dict[str, tuple[tuple[Any, ...], Any, int]] = {}
        self.size = 0  # of those in ``after``
        self.now: dict[str, Any] = {}
        self.sort_keys = current_app.json.sort_keys  # (asked once: a context-local lookup each time)
        self.options = orjson.OPT_NON_STR_KEYS | (orjson.OPT_SORT_KEYS if self.sort_keys else 0)

    @classmethod
    def of(cls, chase_id: str, system: Any, live: bool, principal: Any, full: bool) -> "_Shown":
        key = (chase_id, system, live, principal is not None and principal.role == PLAYER, full)
        with cls._lock:
            return cls(key, cls._kept.get(key))

    def to_look_at(self, inputs: _Inputs) -> Any:
        """The participants to show again (or find unchanged by value): every one, or, when the
        last answer's inputs are known, those whose inputs are not the very ones it was shown
        from; the others are taken as they were, in the view's order."""
        last = self.last
        changed = inputs.changed_since(last.inputs) if last is not None and last.inputs is not None else None
        if changed is None:
            return list(inputs.rows)
        if last.inputs.rows is inputs.rows:  # the very rows (application/projections/rows.py), shown in their order
            gone, added = (), []
        else:
            order, shown = list(inputs.rows), list(last.now)  # ``now`` is in the order of the rows it was shown from
            if order[:len(shown)] == shown:  # none gone, any others added at the end (a participant joining)
                gone, added = (), order[len(shown):]
            else:
                gone, added = last.inputs.rows.keys() - inputs.rows.keys(), None  # None: taken in the view's order
        if not changed and not gone and added == []:  # nobody to look at: taken as they were
            self.after, self.now, self.size = last.after, last.now, last.size
            return []
        after, now = dict(last.after), dict(last.now)
        size = last.size
        for pid in gone:
            size -= after.pop(pid)[2] if pid in after else 0
            now.pop(pid, None)
        for pid in changed:
            size -= after.pop(pid)[2] if pid in after else 0
        if added is None:  # the order changed: taken in the view's order
            now = {pid: now.get(pid) for pid in inputs.rows}
        else:
            now.update(dict.fromkeys(added))
        self.after, self.now, self.size = after, now, size
        return [pid for pid in changed if pid in inputs.rows]  # their places in ``now`` are set already; the gone are gone

    def reuse(self, pid: str, inputs: tuple[Any, ...]) -> bool:
        found = self.before.get(pid)
        if found is None:
            return False
        then = found[0]
        # The legal actions by identity (a new dict whenever they were worked out again); the rest by value.
        # The distances by identity first (api/distances.py keeps the very lists while they stand).
        if then[1] is not inputs[1] or then[2] != inputs[2] or (then[0] is not inputs[0] and then[0] != inputs[0]) \
                or (then[3] is not inputs[3] and then[3] != inputs[3]) or then[4] != inputs[4]:
            return False
        self.after[pid] = found
        self.now[pid] = found[1]
        self.size += found[2]
        return True

    def add(self, pid: str, inputs: tuple[Any, ...], shown: dict[str, Any]) -> None:
        try:
            encoded = orjson.dumps(shown, option=self.options)
        except TypeError:  # orjson.JSONEncodeError: what only the standard encoder writes; shown as it is
            self.now[pid] = shown
            return
        self.after[pid] = (inputs, Encoded(shown, encoded), len(encoded))
        self.now[pid] = self.after[pid][1]
        self.size += len(encoded)

    def keep(self, inputs: _Inputs) -> Any:
        """Keep what was shown; the participants to answer with: as shown, or, in a big chase,
        joined in blocks (api/joined.py)."""
        # Only whole answers are built on: one with a participant shown as it is (not encoded) is not.
        whole = len(self.after) == len(self.now)
        blocks = None
        if whole and len(self.now) >= FEW and not self.sort_keys:
            before = self.last.joined if self.last is not None else None
            # Nobody looked at again: the very blocks of the last answer.
            blocks = before if before is not None and before.plain is self.now else joined(self.now, before)
        kept = _Shown._kept
        with _Shown._lock:
            old = kept.pop(self.key, None)
            _Shown._size += self.size - (old.size if old is not None else 0)
            kept[self.key] = _Last(self.after, self.now, self.size, inputs if whole else None, blocks)
            while _Shown._size > KEPT_BYTES and len(kept) > 1:
                _, dropped = kept.popitem(last=False)
                _Shown._size -= dropped.size
        return blocks if blocks is not None else self.now


KEPT_BYTES = 64 * 2**20  # participants' answers kept, encoded, across chases: a dozen chases of 1,000


def _actions(routes: Mapping[str, Route], legal: Mapping[str, Any], principal: Any, prefix: str, pid: str, acting_for: Any) -> list[dict[str, Any]]:
    """A participant's ``actions`` listed in full (``Prefer: actions=full``)."""
    out = []
    for action, route in routes.items():
        if action not in legal:
            continue
        href = prefix + route.path.replace("{participant_id}", pid)
        entry = {"action": action, "method": route.method, "href": href}
        refused = token_refusal(route, principal, pid, acting_for) or legal[action]
        if refused is None:
            entry["allowed"] = True
        else:
            entry.update(allowed=False, why=refused[0], rule=refused[1])
        out.append(entry)
    return out


def _refusals(routes: Mapping[str, Route], legal: Mapping[str, Any], principal: Any, pid: str, acting_for: Any) -> dict[str, Any]:
    """Each of a participant's actions (in the routes' order) -> what refuses it now, or None."""
    if principal is None or principal.role != PLAYER:  # the Keeper: the rules' word alone
        return {action: legal[action] for action in routes if action in legal}
    return {action: token_refusal(route, principal, pid, acting_for) or legal[action] for action, route in routes.items() if action in legal}


def _turn(view: dict[str, Any], ended: bool) -> dict[str, Any]:
    order, now = view.get("turn_order") or [], view.get("whose_turn")
    following = order[order.index(now) + 1:] if now in order else []
    return {
        "round": view.get("round") or None,  # 0 before the first round: none yet
        "participant_id": now,
        "next_participant_id": following[0] if following else None,
        "ended_by_last_command": ended,
    }
