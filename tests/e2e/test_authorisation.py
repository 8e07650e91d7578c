"""Roles and tokens (issue 4): the Keeper's token, player tokens bound to participants.

Every chase endpoint needs a bearer token: 401 without one (with WWW-Authenticate: Bearer) or
with one the server never issued; 403 for a token of another chase or a command outside the
token's role. A player acts only for their own participants; only the Keeper undoes, rewinds,
redoes, reveals the seed, answers undo requests and issues tokens. Every refusal leaves the log
as it was.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any
from uuid import uuid4

import pytest

from api import create_app
from tests.conftest import ChaseClient
from tests.e2e.record_helpers import (
    live_parts_out,
    FARMER,
    HARVEY,
    names_after,
    path,
    problem,
    running,
    undo,
)


def refused(keeper: ChaseClient, response: Any, status: int, log: list[dict[str, Any]]) -> dict[str, Any]:
    body = problem(response, status)
    assert keeper.events() == log
    return body


@pytest.fixture
def chase(keeper) -> ChaseClient:
    """Round 1 of Harvey and the farmer, Harvey to move first; the keeper client holds the Keeper token."""
    running(keeper)
    return keeper


# -- tokens -----------------------------------------------------------------------------------


def test_creating_a_chase_answers_with_the_keepers_token_once(client):
    response = client.post("/chases", json={"name": "tokens", "dice": "table"})
    body = response.get_json()
    assert response.status_code == 201
    token = body["keeper_token"]
    assert isinstance(token, str) and len(token) >= 32
    chase_id = body["chase"]["chase_id"]
    # Nothing read afterwards shows it again.
    for url in (f"/chases/{chase_id}/track", f"/chases/{chase_id}/events", f"/chases/{chase_id}/export", f"/chases/{chase_id}/rolls"):
        answer = client.get(url, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200
        assert token not in answer.get_data(as_text=True)


def test_tokens_are_kept_only_hashed(keeper, ledger):
    keeper.create("hashed")
    keeper.add(**HARVEY)
    player = keeper.player("Harvey")
    for token in (keeper.keeper_token, player.keeper_token):
        assert ledger.access.tokens.find(hashlib.sha256(token.encode()).hexdigest()) is not None
        assert ledger.access.tokens.find(token) is None  # the token itself is no key
    rows = ledger.factory.datastore  # the raw table holds no token in clear
    with rows.transaction(commit=False) as c:
        c.execute("SELECT * FROM chase_tokens")
        stored = " ".join(str(tuple(r)) for r in c.fetchall())
    assert keeper.keeper_token not in stored and player.keeper_token not in stored


@pytest.mark.parametrize("headers", [{}, {"Authorization": ""}, {"Authorization": "Basic a2VlcGVyOnNlY3JldA=="}, {"Authorization": "Bearer"}])
def test_no_token_is_401_with_www_authenticate_bearer(chase, headers):
    log = chase.events()
    for method, url, json in [
        ("get", "/track", None),
        ("get", "/rolls", None),
        ("get", "/events", None),
        ("get", "/export", None),
        ("post", path(chase, "Harvey", "move"), {"locations": 1}),
        ("post", "/undo", {}),
        ("post", "/tokens", {"participant_ids": [chase.ids["Harvey"]]}),
        ("post", "/reveal-seed", {}),
    ]:
        call = getattr(chase.http.client, method)
        kw = {"json": json} if json is not None else {}
        response = call(f"/chases/{chase.chase_id}{url}", headers=headers, **kw)
        body = refused(chase, response, 401, log)
        assert response.headers["WWW-Authenticate"] == "Bearer"
        assert body["type"] == "/problems/unauthenticated"


@pytest.mark.parametrize("token", ["garbage", "x" * 43, "Bearer Bearer"])
def test_a_garbage_token_is_401(chase, token):
    log = chase.events()
    response = chase.http.client.post(
        f"/chases/{chase.chase_id}{path(chase, 'Harvey', 'move')}", json={"locations": 1}, headers={"Authorization": f"Bearer {token}"}
    )
    refused(chase, response, 401, log)
    assert response.headers["WWW-Authenticate"] == "Bearer"
    response = chase.http.client.get(f"/chases/{chase.chase_id}/track", headers={"Authorization": f"Bearer {token}"})
    refused(chase, response, 401, log)


def test_a_token_of_another_chase_is_403_both_ways(chase, client):
    other = ChaseClient(client)
    other.create("another chase")
    other.add(**HARVEY)
    other_player = other.player("Harvey")
    log, other_log = chase.events(), other.events()

    for token in (other.keeper_token, other_player.keeper_token):
        headers = {"Authorization": f"Bearer {token}"}
        response = chase.http.client.post(f"/chases/{chase.chase_id}{path(chase, 'Harvey', 'move')}", json={"locations": 1}, headers=headers)
        assert refused(chase, response, 403, log)["type"] == "/problems/forbidden"
        response = chase.http.client.get(f"/chases/{chase.chase_id}/track", headers=headers)
        refused(chase, response, 403, log)
        response = chase.http.client.post(f"/chases/{chase.chase_id}/undo", json={}, headers=headers)
        refused(chase, response, 403, log)
    response = other.http.client.get(f"/chases/{other.chase_id}/export", headers={"Authorization": f"Bearer {chase.keeper_token}"})
    refused(other, response, 403, other_log)


def test_an_unknown_chase_is_404_whatever_the_token(chase):
    url = f"/chases/{uuid4()}/track"
    assert chase.http.get(url).status_code == 404
    assert chase.http.client.get(url).status_code == 404


# -- players ----------------------------------------------------------------------------------


def test_a_player_acts_for_their_own_participant(chase):
    harvey = chase.player("Harvey")

    moved = harvey.move("Harvey", 1)

    assert moved["whose_turn"] == chase.ids["Farmer"]
    roll = harvey.ok(harvey.post("/skill-rolls", {"skill": "Dodge", "target": 40, "participant_id": chase.ids["Harvey"], "table_dice": [10, 1]}))
    assert roll["rolls"][0]["roller"] == chase.ids["Harvey"]
    # Players read the chase as well (each told what their own token may do).
    assert live_parts_out(harvey.track()) == live_parts_out(chase.track())
    assert harvey.rolls() == chase.rolls()


def test_a_player_token_for_several_participants(chase):
    both = chase.player("Harvey", "Farmer")
    both.move("Harvey", 1)
    both.move("Farmer", 2)
    assert both.track()["round"] == 2


@pytest.mark.parametrize(
    "command",
    [
        lambda c: c.post(path(c, "Farmer", "move"), {"locations": 1}),
        lambda c: c.post(path(c, "Farmer", "end-turn")),
        lambda c: c.post(path(c, "Farmer", "delay"), {}),
        lambda c: c.post("/skill-rolls", {"skill": "Dodge", "target": 40, "participant_id": c.ids["Farmer"], "table_dice": [10, 1]}),
        lambda c: c.post("/skill-rolls", {"skill": "Luck", "target": 40, "table_dice": [10, 1]}),  # for no one: the Keeper's
        lambda c: c.post("/dice-rolls", {"expression": "1D6", "participant_id": c.ids["Farmer"], "table_dice": [3]}),
        lambda c: c.post("/dice-rolls", {"expression": "1D6", "table_dice": [3]}),
        lambda c: c.post("/participants", FARMER),
        lambda c: c.post("/cut-to-the-chase", {}),
        lambda c: c.post("/end", {"outcome": "escaped"}),
        lambda c: c.post("/tokens", {"participant_ids": [c.ids["Farmer"]]}),
    ],
    ids=["move", "end turn", "delay", "skill roll", "keeper's skill roll", "dice roll", "keeper's dice roll", "add participant", "cut", "end chase", "issue token"],
)
def test_a_player_acting_for_another_participant_or_as_keeper_is_403(chase, command):
    harvey = chase.player("Harvey")
    log = chase.events()

    body = refused(chase, command(harvey), 403, log)

    assert body["type"] == "/problems/forbidden"


def test_a_player_speed_roll_for_another_participant_is_403(keeper):
    keeper.create("speed")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    harvey = keeper.player("Harvey")
    log = keeper.events()
    refused(keeper, harvey.post(path(keeper, "Farmer", "speed-roll"), {"table_dice": [70, 2]}), 403, log)
    harvey.speed_roll("Harvey", [70, 2])


@pytest.mark.parametrize(
    "command",
    [
        lambda c: c.post("/undo", {}),
        lambda c: c.post("/undo", {"count": 2}),
        lambda c: c.post("/rewind", {"to_version": 3}),
        lambda c: c.post("/redo"),
        lambda c: c.post("/reveal-seed"),
    ],
    ids=["undo", "undo two", "rewind", "redo", "reveal seed"],
)
def test_only_the_keeper_undoes_rewinds_redoes_and_reveals(chase, command):
    chase.move("Harvey", 1)
    undo(chase)  # so that there is something a player could try to redo
    harvey = chase.player("Harvey", "Farmer")
    log = chase.events()

    body = refused(chase, command(harvey), 403, log)

    assert "Keeper" in body["detail"]


def test_a_player_cannot_answer_an_undo_request(chase):
    chase.move("Harvey", 1)
    harvey = chase.player("Harvey")
    request_id = harvey.ok(harvey.post("/undo-requests", {"count": 1}), 201)["request_id"]
    log = chase.events()

    refused(chase, harvey.post(f"/undo-requests/{request_id}", {"accept": True}), 403, log)


def test_a_player_token_for_an_unknown_participant_is_refused(chase):
    log = chase.events()
    body = refused(chase, chase.post("/tokens", {"participant_ids": ["nobody"]}), 422, log)
    assert body["errors"][0]["field"] == "participant_ids"
    body = refused(chase, chase.post("/tokens", {"participant_ids": []}), 422, log)
    assert body["errors"][0]["field"] == "participant_ids"


# -- undo requests ------------------------------------------------------------------------------


def test_a_player_requests_an_undo_and_the_keeper_accepts_it(chase):
    before = chase.track()
    harvey = chase.player("Harvey")
    harvey.move("Harvey", 1)
    moved = chase.track()

    response = harvey.post("/undo-requests", {"count": 1, "note": "I meant to delay"})
    request_id = harvey.ok(response, 201)["request_id"]

    waiting = response.get_json()["chase"]
    assert waiting["undo_requests"] == [
        {"request_id": request_id, "count": 1, "actions": [moved["version"] - 1], "by": "player (Harvey)", "note": "I meant to delay", "answer": None}
    ]
    assert waiting["whose_turn"] == chase.ids["Farmer"]  # asking changes nothing in the game

    answered = chase.ok(chase.post(f"/undo-requests/{request_id}", {"accept": True}))["chase"]

    assert names_after(chase, moved["version"]) == ["UndoRequested", "UndoRequestAnswered", "Undone"]
    events = chase.events()
    assert events[-2]["data"] == {**events[-2]["data"], "request_id": request_id, "accepted": True, "by": "keeper"}
    assert events[-1]["data"]["actions"] == [moved["version"] - 1]
    assert "undo request" in events[-1]["data"]["reason"]
    assert answered["whose_turn"] == chase.ids["Harvey"]
    assert answered["participants"] == before["participants"]
    assert answered["undo_requests"] == []
    # The player can act again for Harvey.
    harvey.ok(harvey.post(path(chase, "Harvey", "delay"), {}))


def test_a_player_requests_an_undo_and_the_keeper_refuses_it(chase):
    harvey = chase.player("Harvey")
    moved = harvey.move("Harvey", 1)
    request_id = harvey.ok(harvey.post("/undo-requests", {"count": 1}), 201)["request_id"]

    answered = chase.ok(chase.post(f"/undo-requests/{request_id}", {"accept": False}))["chase"]

    assert names_after(chase, moved["version"]) == ["UndoRequested", "UndoRequestAnswered"]
    assert chase.events()[-1]["data"]["accepted"] is False
    assert live_parts_out(answered)["participants"] == live_parts_out(moved)["participants"] and answered["whose_turn"] == moved["whose_turn"]
    assert answered["undo_requests"] == []


def test_an_undo_request_of_more_than_there_is_is_refused(chase):
    harvey = chase.player("Harvey")
    log = chase.events()
    body = refused(chase, harvey.post("/undo-requests", {"count": 50}), 422, log)
    assert body["errors"][0]["field"] == "count"


def test_accepting_an_undo_request_after_new_actions_never_undoes_what_was_not_asked(chase):
    harvey = chase.player("Harvey")
    asked = [chase.track()["version"] + 1]  # the action of Harvey's move (its first event's version)
    harvey.move("Harvey", 1)  # Harvey's move, which his player asks to take back
    request_id = harvey.ok(harvey.post("/undo-requests", {"count": 1, "note": "misclick"}), 201)["request_id"]
    moved = chase.move("Farmer", 1)  # the farmer acts before the Keeper answers
    log = chase.events()

    response = chase.post(f"/undo-requests/{request_id}", {"accept": True})

    if response.status_code == 200:
        undone = chase.events()[-1]
        assert undone["name"] == "Undone"
        assert undone["data"]["actions"] == asked
    else:
        problem(response, 409)
        assert chase.events() == log
        assert chase.track()["participants"] == moved["participants"]


def test_a_players_table_dice_are_recorded_as_entered_by_that_player(keeper):
    keeper.create("who rolled", dice="table")
    keeper.add(**HARVEY)
    harvey = keeper.player("Harvey")

    roll = harvey.speed_roll("Harvey", [70, 2])["rolls"][0]

    assert roll["source"]["kind"] == "table"
    assert roll["source"]["entered_by"] != "keeper"
    assert "Harvey" in roll["source"]["entered_by"]


# -- every chase endpoint -------------------------------------------------------------------------


def chase_routes() -> list[tuple[str, str]]:
    """Every (method, rule) of the API that acts on or reads one chase."""
    app = create_app(lambda: None)  # the ledger is built lazily: never here
    routes = []
    for rule in app.url_map.iter_rules():
        if "chase_id" in rule.arguments:
            routes += [(method, rule.rule) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    assert len(routes) > 20
    return sorted(routes)


def url_of(rule: str, chase_id: str) -> str:
    url = rule.replace("<uuid:chase_id>", chase_id)
    url = re.sub(r"<int:[a-z_]+>", "1", url)
    url = re.sub(r"<any\(([a-z0-9_]+)[^>]*>", r"\1", url)  # <any(swade, swd):system> -> swade
    return re.sub(r"<[a-z_:]+>", "someone", url)


ROUTES = chase_routes()


def test_no_chase_endpoint_answers_or_records_anything_without_a_token(chase):
    log = chase.events()
    for method, rule in ROUTES:
        response = chase.http.client.open(url_of(rule, chase.chase_id), method=method, json=None if method == "GET" else {})
        assert response.status_code in (401, 422), (method, rule, response.status_code)
        assert response.mimetype == "application/problem+json"
    assert chase.events() == log


def test_every_chase_endpoint_answers_401_without_a_token_whatever_the_body(chase):
    answers = {}
    for method, rule in ROUTES:
        response = chase.http.client.open(url_of(rule, chase.chase_id), method=method, json=None if method == "GET" else {})
        answers[f"{method} {rule}"] = response.status_code
    assert {route: status for route, status in answers.items() if status != 401} == {}
