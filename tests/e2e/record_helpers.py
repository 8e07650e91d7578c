"""Helpers for the record's e2e tests (undo, rewind, redo, time travel, the roll history, the seed).

Harvey and the angry farmer (coc7e-chases.txt parts 1 and 2) with table dice: Harvey (DEX 55)
fails his CON roll (72, MOV 5), the farmer fails his (80, MOV 6): the farmer starts two locations
behind with two movement actions a round, Harvey moves first with one.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

PROBLEM = "application/problem+json"
HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}

# What undo, rewind and redo restore is the game. These fields of the track view are the
# record's own bookkeeping (domain/recorded_chase.py TIMELESS, plus the version and chain
# head) and legitimately differ between "the chase as it was at version v" and "the chase
# restored to version v by an undo, rewind or redo":
RECORD_FIELDS = frozenset(
    {
        "version",  # an undo, rewind or redo is a new event: the version moves on
        "chain_head",  # ... and so does the hash chain
        "can_redo",  # after an undo there is something to redo; at the earlier version there was not
        "rolls_made",  # roll sequence numbers are never reused (DESIGN.md 5): the count is not rolled back
        "undo_requests",  # requests and answers are about the record, never rolled back
        "seed_commitment",  # the seed is never rolled back: undoing the chase's end (which
        "seed_epoch",  # revealed the seed) commits a fresh seed, epoch + 1, instead of
        "revealed_seeds",  # hiding the revealed one again
        "entropy",  # entropy the players gave stays mixed into later rolls
    }
)
# The fields in which a chase restored by redo differs from the chase before the undo, when the
# stretch redone did not reveal or commit a seed: only the new event's version and hash.
NEW_EVENT_FIELDS = frozenset({"version", "chain_head"})


def without(view: dict[str, Any], fields: Iterable[str]) -> dict[str, Any]:
    fields = set(fields)
    return {k: v for k, v in live_parts_out(view).items() if k not in fields}


SAID_NOW = ("actions", "allowed_actions", "refused_actions")  # what a participant may do now, in either form (api/compact_actions.py)


def live_parts_out(view: dict[str, Any]) -> dict[str, Any]:
    """The view without what is said of the chase as it is now (api/affordances.py): the actions
    (a past version offers none, and undo, redo and the like move with the record) and whether
    the last command ended a turn (an undo is a command that ends none)."""
    out = {k: v for k, v in view.items() if k != "actions"}
    if "turn" in out:
        out["turn"] = {k: v for k, v in out["turn"].items() if k != "ended_by_last_command"}
    if isinstance(out.get("participants"), dict):
        out["participants"] = {pid: {k: v for k, v in p.items() if k not in SAID_NOW} for pid, p in out["participants"].items()}
    return out


def as_stored(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the projection stored it, before the API added what it says to a client
    (api/affordances.py): no turn, actions or distances; the count of actions and the id of the
    obstacle ahead under their stored names."""
    out = {k: v for k, v in view.items() if k not in ("turn", "actions_counted", "action_templates")}
    out["actions"] = view["actions_counted"]
    participants = {}
    for pid, p in view["participants"].items():
        kept = {k: v for k, v in p.items() if k not in (*SAID_NOW, "distances", "obstacle_ahead_id")}
        if "obstacle_ahead_id" in p:
            kept["obstacle_ahead"] = p["obstacle_ahead_id"]
        participants[pid] = kept
    out["participants"] = participants
    return out


def game(view: dict[str, Any]) -> dict[str, Any]:
    """The game state a track view shows: everything but the record's bookkeeping."""
    return without(view, RECORD_FIELDS)


def set_up(keeper, farmer: dict[str, Any] = FARMER, dice: str = "table") -> None:
    keeper.create("Harvey and the angry farmer", dice=dice)
    keeper.add(**HARVEY)
    keeper.add(**farmer)


def running(keeper, farmer: dict[str, Any] = FARMER) -> dict[str, Any]:
    """Cut to the chase: Harvey's turn in round 1, the farmer two locations behind."""
    set_up(keeper, farmer)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    return keeper.cut()


def path(keeper, name: str, action: str) -> str:
    return f"/participants/{keeper.ids[name]}/{action}"


def at(keeper, version: int) -> dict[str, Any]:
    """Time travel: the track view as it was at ``version``."""
    return keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string={"version": version}))["chase"]


def rolls_at(keeper, version: int, **query: Any) -> list[dict[str, Any]]:
    return keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/rolls", query_string={"version": version, **query}))["rolls"]


def undo(keeper, count: int | None = None, reason: str = "") -> dict[str, Any]:
    body = {"reason": reason} if count is None else {"count": count, "reason": reason}
    return keeper.ok(keeper.post("/undo", body))["chase"]


def rewind(keeper, to_version: int) -> dict[str, Any]:
    return keeper.ok(keeper.post("/rewind", {"to_version": to_version}, headers=keeper.if_match()))["chase"]


def redo(keeper) -> dict[str, Any]:
    return keeper.ok(keeper.post("/redo"))["chase"]


def names_after(keeper, version: int) -> list[str]:
    return [e["name"] for e in keeper.events() if e["version"] > version]


def problem(response: Any, status: int) -> dict[str, Any]:
    """The response is an RFC 9457 problem document of ``status``."""
    body = response.get_json()
    assert response.status_code == status, body
    assert response.mimetype == PROBLEM
    assert body["status"] == status and body["title"] and body["detail"]
    assert body["type"].startswith("/problems/")
    return body


def fields_named(body: dict[str, Any]) -> list[str]:
    return [e["field"] for e in body.get("errors", [])]
