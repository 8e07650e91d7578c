"""What every test of the track view's ``actions`` checks (api/affordances.py): after a step of a
scripted chase, every action marked allowed is sent (with the body ``bodies`` makes for it) and
succeeds, then is undone; every action marked not allowed that the test can send is refused with
the same reason (the problem's detail is the ``why``, its rule the ``rule``) and records nothing.

The record's own commands (undo, rewind, redo, the seed, tokens, the end) are left out of the
sweep (they are what puts each try back): the tests check them by name.

The view says each participant's actions once (api/compact_actions.py); ``expanded`` rebuilds
the list a client written before that reads (``Prefer: actions=full``), as a client would.
"""
from __future__ import annotations

from typing import Any, Callable

Body = Callable[[dict[str, Any], dict[str, Any] | None], dict[str, Any] | None]
RECORD = {"undo", "rewind", "redo", "request_undo", "reveal_seed", "add_entropy", "issue_token", "end_chase", "export"}


def sweep(table: Any, bodies: dict[str, Body]) -> dict[str, int]:
    """Send every action the Keeper's view offers (``table``: a test's client of one chase with
    the Keeper's token: ``http`` and ``chase_id``); answers how many were tried each way."""
    view = _track(table)
    tried = {"allowed": 0, "refused": 0}
    entries = [(None, a) for a in view["actions"] if a["action"] not in RECORD]
    entries += [(p, a) for pid, p in view["participants"].items() for a in expanded(view, pid)]
    for p, action in entries:
        body = bodies[action["action"]](view, p)  # a KeyError: an action this test has no body for
        if body is None:
            continue  # nothing this test can send for it now (said by the body maker)
        answer = table.http.client.open(action["href"], method=action["method"], json=body, headers={"Authorization": f"Bearer {table.http.token}"})
        if action["allowed"]:
            assert answer.status_code in (200, 201, 202), (action, body, answer.get_json())
            if _track(table)["version"] != view["version"]:
                undone = table.http.post(f"/chases/{table.chase_id}/undo", json={"count": 1})  # back to the step, for the next try
                assert undone.status_code == 200, undone.get_json()
            tried["allowed"] += 1
        else:
            problem = answer.get_json()
            if action["rule"].startswith("input: "):  # the request cannot name this one: 422 naming the field
                assert answer.status_code == 422 and problem["detail"] == action["why"], (action, problem)
                assert problem["errors"][0]["field"] == action["rule"].removeprefix("input: ")
            else:
                assert answer.status_code == 409, (action, body, problem)
                assert (problem["detail"], problem["rule"]) == (action["why"], action["rule"]), (action, problem)
            tried["refused"] += 1
    assert _track(table)["participants"] == view["participants"]  # every try undone
    return tried


def _track(table: Any) -> dict[str, Any]:
    answer = table.http.get(f"/chases/{table.chase_id}/track")
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["chase"]


def expanded(chase: dict[str, Any], pid: str) -> list[dict[str, Any]]:
    """A participant's actions listed in full (``Prefer: actions=full``), as a client rebuilds
    them from the view's ``action_templates``, ``allowed_actions`` and ``refused_actions``."""
    p = chase["participants"][pid]
    refusals = {name: group for group in p["refused_actions"] for name in group["actions"]}
    out = []
    for action, where in chase["action_templates"].items():  # the full list's order
        entry = {"action": action, "method": where["method"], "href": where["href"].replace("{participant_id}", pid)}
        if action in p["allowed_actions"]:
            out.append({**entry, "allowed": True})
        elif action in refusals:
            out.append({**entry, "allowed": False, "why": refusals[action]["why"], "rule": refusals[action]["rule"]})
    return out


def actions_of(view: dict[str, Any], participant_id: str | None = None) -> dict[str, dict[str, Any]]:
    listed = view["actions"] if participant_id is None else expanded(view, participant_id)
    return {a["action"]: a for a in listed}


def allowed(view: dict[str, Any], participant_id: str | None = None) -> set[str]:
    return {name for name, a in actions_of(view, participant_id).items() if a["allowed"]}
