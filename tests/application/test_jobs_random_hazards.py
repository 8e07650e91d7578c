"""The random hazards table (coc7e-chases.txt "Random Hazards and Barriers") and its job over HTTP."""
from __future__ import annotations

from uuid import UUID

import pytest

from application.systems.coc7e.hazards import roll_random_hazards
from domain.dice import TableDice
from domain.rules.coc7e.random_hazards import outcome_of, roll_location
from tests.conftest import ChaseClient


@pytest.mark.parametrize(
    "result, outcome",
    [(1, "clear"), (59, "clear"), (60, "regular"), (84, "regular"), (85, "hard"), (95, "hard"), (96, "extreme"), (100, "extreme")],
)
def test_the_table_reads_1d100_as_the_rules_say(result, outcome):
    # "01-59 = Clear, 60+ = 1 Regular, 85+ = 1 Hard, 96+ = 1 Extreme hazard/barrier"
    assert outcome_of(result) == outcome


def test_the_worked_example_rolls_29_02_and_87():
    # "The Keeper rolls 29 and 02 - 2 consecutive clear locations. The Keeper then rolls 87 for
    # the third location - a hazard of Hard difficulty level."
    rolls = [roll_location(TableDice(faces), n) for n, faces in enumerate(([20, 9], [0, 2], [80, 7]), 1)]
    assert [(r["result"], r["outcome"]) for r in rolls] == [(29, "clear"), (2, "clear"), (87, "hard")]


def test_a_penalty_die_for_a_hazardous_environment_keeps_the_higher_roll():
    roll = roll_location(TableDice([30, 80, 5]), 1, "hazardous")
    assert roll["penalty_dice"] == 1 and roll["result"] == 85 and roll["outcome"] == "hard"
    assert [t["kept"] for t in roll["tens"]] == [False, True]


def test_a_bonus_die_for_a_quiet_environment_keeps_the_lower_roll():
    roll = roll_location(TableDice([30, 80, 5]), 1, "quiet")
    assert roll["bonus_dice"] == 1 and roll["result"] == 35 and roll["outcome"] == "clear"


def test_the_keeper_rolls_random_hazards_over_http_with_an_idempotency_key(keeper: ChaseClient):
    keeper.create("Through Arkham", dice="table")
    harvey = keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)

    first = keeper.post("/random-hazards", {"locations": 3, "from_location": 1, "table_dice": [20, 9, 0, 2, 80, 7]}, headers={"Idempotency-Key": "arkham-1"})
    again = keeper.post("/random-hazards", {"locations": 3, "from_location": 1, "table_dice": [90, 9, 90, 9, 90, 9]}, headers={"Idempotency-Key": "arkham-1"})

    assert first.status_code == 202 and again.status_code == 202
    job = first.get_json()["job"]
    assert again.get_json()["job"]["job_id"] == job["job_id"]
    assert first.headers["Location"] == f"/chases/{keeper.chase_id}/jobs/{job['job_id']}"
    done = keeper.ok(keeper.http.get(first.headers["Location"], query_string={"wait": 5}))["job"]
    assert done["status"] == "done"
    assert [(r["location"], r["result"], r["outcome"]) for r in done["result"]["rolls"]] == [(1, 29, "clear"), (2, 2, "clear"), (3, 87, "hard")]
    events = [e for e in keeper.events() if e["name"] == "RandomHazardRolled"]
    assert [e["data"]["roll"]["result"] for e in events] == [29, 2, 87]
    assert all(e["data"]["key"] == "arkham-1" and e["data"]["roll"]["source"]["kind"] == "table" for e in events)

    # A player may not roll them; nobody without a token may see the job.
    player = keeper.player("Harvey")
    refused = player.post("/random-hazards", {"locations": 1})
    assert refused.status_code == 403
    assert keeper.http.client.get(first.headers["Location"]).status_code == 401
    assert harvey


def test_jobs_of_one_chase_are_not_visible_through_another(keeper: ChaseClient, client):
    keeper.create("One", dice="server")
    job = keeper.ok(keeper.post("/random-hazards", {"locations": 1}), 202)["job"]
    other = ChaseClient(client)
    other.create("Two")

    response = other.http.get(f"/chases/{other.chase_id}/jobs/{job['job_id']}")

    assert response.status_code == 404 and response.mimetype == "application/problem+json"


def test_bad_random_hazard_requests_name_the_field(keeper: ChaseClient):
    keeper.create("Bad")
    response = keeper.post("/random-hazards", {"locations": 11, "environment": "stormy"})
    assert response.status_code == 422
    assert {e["field"] for e in response.get_json()["errors"]} == {"locations", "environment"}


def test_replays_and_checks_over_http(keeper: ChaseClient):
    keeper.create("Replayed", dice="server")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)
    keeper.add(name="Farmer", role="pursuer", dex=50, con=55, mov=6)
    keeper.speed_roll("Harvey", [40, 0])
    keeper.speed_roll("Farmer", [40, 0])
    chase = keeper.cut()
    keeper.move(chase["whose_turn"] and next(n for n, i in keeper.ids.items() if i == chase["whose_turn"]))
    version = keeper.track()["version"]

    replay = keeper.ok(keeper.post("/replays"), 202)["job"]
    frames = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/replays/{replay['job_id']}/frames", query_string={"after": 2, "limit": 3}))["frames"]
    assert [f["step"] for f in frames] == [3, 4, 5]  # (as a stream at a pace: tests/e2e/test_stream.py)

    check = keeper.ok(keeper.post("/checks"), 202)["job"]
    done = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/jobs/{check['job_id']}", query_string={"wait": 5}))["job"]
    assert done["result"]["equal"] is True and done["result"]["versions_checked"] == version


def test_rebuilds_over_http_need_the_operator_token(client, ledger, monkeypatch):
    chase_id = UUID(ledger.create_chase("Any")["chase_id"])
    disabled = client.post("/admin/rebuilds", json={})
    assert disabled.status_code == 403 and "CHASE_LEDGER_ADMIN_TOKEN" in disabled.get_json()["detail"]

    monkeypatch.setattr(ledger, "worker", ledger.worker.__class__(admin_token="s3cret"))
    assert client.post("/admin/rebuilds", json={}).status_code == 401
    assert client.post("/admin/rebuilds", json={}, headers={"Authorization": "Bearer nope"}).status_code == 403
    accepted = client.post("/admin/rebuilds", json={"views": ["track"]}, headers={"Authorization": "Bearer s3cret"})
    assert accepted.status_code == 202
    job = client.get(accepted.headers["Location"], query_string={"wait": 5}, headers={"Authorization": "Bearer s3cret"}).get_json()["job"]
    assert job["status"] == "done" and job["progress"] == {"done": 1, "total": 1}
    assert ledger.track(chase_id)["version"] == 1
    bad = client.post("/admin/rebuilds", json={"views": ["scores"]}, headers={"Authorization": "Bearer s3cret"})
    assert bad.status_code == 422


def test_faces_entered_for_the_rolls_must_be_all_the_rolls_take(ledger):
    chase_id = UUID(ledger.create_chase("Faces", dice="table")["chase_id"])

    extra = roll_random_hazards(ledger.jobs, chase_id, "extra", locations=1, table_dice=[20, 9, 5])
    short = roll_random_hazards(ledger.jobs, chase_id, "short", locations=2, table_dice=[20, 9, 5])

    assert extra["status"] == short["status"] == "failed"
    assert extra["error"] == "InvalidTableDice: 1 faces were entered beyond those the rolls take"
    assert "this roll takes 2 dice" in short["error"]
    assert ledger.track(chase_id)["version"] == 1  # nothing recorded
