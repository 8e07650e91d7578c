"""The record must check out (issue 10): chases that use random hazards verify, a Savage Worlds
Adventure Edition chase renders at every version, and a replay shows each step as it was, through
the HTTP API."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from infrastructure import cli
from tests.conftest import ChaseClient
from tests.e2e.record_helpers import as_stored
from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_coc7e_conflict_worked_examples import truck_and_car


def verify(export: dict[str, Any], tmp_path: Path, capsys) -> tuple[int, str]:
    """`chase verify FILE` in this process: its exit code and what it printed."""
    file = tmp_path / f"export-{len(list(tmp_path.iterdir()))}.json"
    file.write_text(json.dumps(export))
    capsys.readouterr()
    code = cli.main(["verify", str(file)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def check_job(client: Any, chase_id: str) -> dict[str, Any]:
    job = client.ok(client.post("/checks"), 202)["job"] if isinstance(client, ChaseClient) else client.post("/checks", status=202)["job"]
    http = client.http
    response = http.get(f"/chases/{chase_id}/jobs/{job['job_id']}", query_string={"wait": 10})
    assert response.status_code == 200
    return response.get_json()["job"]


def every_version_renders(http: Any, chase_id: str, version: int) -> None:
    for v in range(1, version + 1):
        for view in ("track", "vehicles", "rolls"):
            response = http.get(f"/chases/{chase_id}/{view}", query_string={"version": v})
            assert response.status_code == 200, (view, v, response.get_json())


def test_a_chase_with_random_hazards_verifies_before_and_after_the_reveal(keeper: ChaseClient, tmp_path: Path, capsys):
    # The Keeper runs a server-dice chase and rolls the random hazards table ahead, three
    # locations in a hazardous environment (a penalty die on each roll).
    keeper.create("Through Arkham at rush hour", dice="server")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)
    job = keeper.ok(keeper.post("/random-hazards", {"locations": 3, "environment": "hazardous", "from_location": 1},
                                headers={"Idempotency-Key": "rush-hour"}), 202)["job"]
    done = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/jobs/{job['job_id']}", query_string={"wait": 5}))["job"]
    assert done["status"] == "done" and len(done["result"]["rolls"]) == 3
    # ... and a table-dice roll of the same table: the Keeper's own 87, a Hard hazard.
    keeper.ok(keeper.post("/random-hazards", {"locations": 1, "table_dice": [80, 7]}, headers={"Idempotency-Key": "by-hand"}), 202)

    # Before the seed is revealed the export already checks out (the table's outcome included).
    code, out = verify(keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/export")), tmp_path, capsys)
    assert code == 0, out
    assert "4 rolls" in out and "1 with table dice" in out

    # Once the chase ends and reveals its seed, every server roll is recomputed too.
    keeper.ok(keeper.post("/end", {"outcome": "escaped"}))
    export = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/export"))
    code, out = verify(export, tmp_path, capsys)
    assert code == 0, out
    assert "3 server rolls recomputed and matching" in out

    # A forged outcome is caught and named: 87 is Hard, not Extreme.
    forged = copy.deepcopy(export)
    event = next(e for e in forged["events"] if e["type"].endswith("RandomHazardRolled") and e["data"]["roll"]["source"]["kind"] == "table")
    event["data"]["roll"]["outcome"] = "extreme"
    event.pop("hash", None)
    code, out = verify(forged, tmp_path, capsys)
    assert code != 0 and f"event {event['version']}" in out and "87 (hard)" in out


def test_the_check_job_passes_on_a_chase_with_random_hazards(keeper: ChaseClient):
    keeper.create("Through Arkham", dice="server")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=6)
    keeper.ok(keeper.post("/random-hazards", {"locations": 2}, headers={"Idempotency-Key": "k"}), 202)
    result = check_job(keeper, keeper.chase_id)
    assert result["status"] == "done" and result["result"]["mismatches"] == [], result


def swade_chase_begun(client: Any) -> SavageTable:
    table = SavageTable(client, "swade")
    table.add(name="Hero", role="quarry", maneuver_die="d8")
    table.add(name="Cultist", role="chaser", maneuver_die="d6")
    table.begin(mode="foot", placements={"Hero": 4, "Cultist": 1}, row=["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"])
    return table


def test_an_adventure_edition_chase_renders_at_every_version_inside_begin(client):
    # The GM deals a row of nine Chase Cards and places both units: begin records one event per
    # card and per unit, and at the versions in between, not every unit has a card yet.
    table = swade_chase_begun(client)
    version = table.track()["version"]

    every_version_renders(table.http, table.chase_id, version)
    halfway = table.http.get(f"/chases/{table.chase_id}/track", query_string={"version": version - 1}).get_json()["chase"]
    assert halfway["ranges"] == []  # only the Hero is placed: no rival to measure a Range to
    assert table.track()["ranges"][0]["cards_between"] == 3


def test_the_check_job_passes_on_an_adventure_edition_chase(client):
    table = swade_chase_begun(client)
    job = table.post("/checks", status=202)["job"]
    result = table.http.get(f"/chases/{table.chase_id}/jobs/{job['job_id']}", query_string={"wait": 10}).get_json()["job"]
    assert result["status"] == "done" and result["result"]["mismatches"] == [], result


def replay_frames(client: Any, chase_id: str) -> list[dict[str, Any]]:
    job = client.ok(client.post("/replays"), 202)["job"]
    done = client.ok(client.http.get(f"/chases/{chase_id}/jobs/{job['job_id']}", query_string={"wait": 10}))["job"]
    assert done["status"] == "done", done
    return client.ok(client.http.get(f"/chases/{chase_id}/replays/{job['job_id']}/frames", query_string={"limit": 1000}))["frames"]


def test_a_replay_shows_a_mishap_as_it_was_before_its_roll(keeper: ChaseClient):
    # The cultist's truck pushes Harvey's car off the road (a fighting maneuver): a mishap awaits
    # the Keeper's ruling, not yet rolled for.
    table = truck_and_car(keeper)
    push = table.attack("Truck", "Harvey's car", method="maneuver", response="dodge", rolls={"attack": [20, 5], "defence": [40, 0]})
    pushed = push["chase"]["version"]
    assert table.who(push["chase"], "Harvey's car")["mishap"]["rolled"] is False
    # Harvey then rolls "as if encountering a hazard" and fails (90 against his Drive Auto 50).
    rolled = table.mishap_roll("Harvey's car", "Drive Auto", [90, 0])
    assert table.who(rolled["chase"], "Harvey's car")["mishap"]["rolled"] is True

    # Replayed event by event, the chase shows at each step what it showed then: right after the
    # push, the mishap was not rolled for yet (time travel says so too).
    frames = {f["version"]: f["views"]["track"] for f in replay_frames(keeper, keeper.chase_id)}
    then = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string={"version": pushed}))["chase"]
    assert then["mishaps"][0]["rolled"] is False
    assert frames[pushed]["mishaps"] == then["mishaps"]
    assert frames[pushed]["participants"] == as_stored(then)["participants"]  # a frame is the stored view
