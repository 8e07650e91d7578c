"""A game night of two chases played with table dice: the session's report gives exactly what the
Keeper works out by hand (coc7e-chases.txt "Speed roll": a CON roll, Regular difficulty)."""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import product

import pytest

from tests.conftest import ChaseClient


def levels_by_hand(con: int) -> dict[str, Fraction]:
    """coc7e-chases.txt / Keeper rules: 01 critical; <= 1/5 extreme; <= 1/2 hard; <= value regular;
    fumble 96-100 below 50 (100 only from 50); failure otherwise. Out of the hundred results."""
    fumbles = 5 if con < 50 else 1
    hundredths = {"critical": 1, "extreme": con // 5 - 1, "hard": con // 2 - con // 5, "regular": con - con // 2,
                  "fumble": fumbles}
    hundredths["failure"] = 100 - sum(hundredths.values())
    return {name: Fraction(n, 100) for name, n in hundredths.items()}


def chance_of_at_most(chances: list[Fraction], successes: int) -> Fraction:
    """P(no more than ``successes`` of these rolls succeed), by going through every way they could fall."""
    total = Fraction(0)
    for fell in product((True, False), repeat=len(chances)):
        if sum(fell) <= successes:
            weight = Fraction(1)
            for p, success in zip(chances, fell):
                weight *= p if success else 1 - p
            total += weight
    return total


def keeper_of(client, chase: ChaseClient) -> dict[str, str]:
    return {"Authorization": f"Bearer {chase.keeper_token}"}


def new_chase(client, name: str, *people: tuple[str, int]) -> ChaseClient:
    chase = ChaseClient(client)
    chase.create(name, dice="table")
    for who, con in people:
        chase.add(name=who, role="quarry" if who in ("Harvey", "Alice") else "pursuer", dex=50, con=con, mov=7)
    return chase


def speed_roll(chase: ChaseClient, who: str, faces: list[int]) -> dict:
    return chase.ok(chase.http.post(f"/chases/{chase.chase_id}/participants/{chase.ids[who]}/speed-roll", json={"table_dice": faces}))


def test_a_session_of_two_chases_reports_what_the_keeper_works_out_by_hand(client):
    # The Keeper plays two chases at the table, entering the dice as they fall.
    farm = new_chase(client, "The farm track", ("Harvey", 60), ("Farmer", 55))
    speed_roll(farm, "Harvey", [70, 2])   # 72 against 60: failure
    speed_roll(farm, "Farmer", [30, 5])   # 35 against 55: regular success
    docks = new_chase(client, "The docks", ("Alice", 40), ("Bob", 80))
    speed_roll(docks, "Alice", [10, 0])   # 10 against 40: hard success
    speed_roll(docks, "Bob", [90, 9])     # 99 against 80: failure
    # Bob's roll is undone and made again: both stay in the analytics, the first marked undone.
    docks.ok(docks.http.post(f"/chases/{docks.chase_id}/undo", json={"count": 1}))
    speed_roll(docks, "Bob", [50, 0])     # 50 against 80: regular success

    # The Keeper groups the two chases into the night's session (each chase's Keeper token proves it is theirs).
    session = client.post("/sessions", json={"name": "Game night"})
    assert session.status_code == 201
    session_id, token = session.get_json()["group"]["session_id"], session.get_json()["keeper_token"]
    night = {"Authorization": f"Bearer {token}"}
    for chase in (farm, docks):
        added = client.post(f"/sessions/{session_id}/chases", json={"chase_id": chase.chase_id, "chase_token": chase.keeper_token}, headers=night)
        assert added.status_code == 200, added.get_json()
    assert client.get(f"/sessions/{session_id}", headers=night).get_json()["chases"] == [farm.chase_id, docks.chase_id]

    report = client.get(f"/sessions/{session_id}/report", headers=night).get_json()

    # By hand: each speed roll succeeds with CON/100; five rolls, three succeeded.
    chances = [Fraction(60, 100), Fraction(55, 100), Fraction(40, 100), Fraction(80, 100), Fraction(80, 100)]
    expected = sum(chances)
    variance = sum(p * (1 - p) for p in chances)
    totals = report["totals"]
    assert (totals["rolls"], totals["undone"], totals["table_dice"], totals["rolls_without_odds"]) == (5, 1, 5, 0)
    luck = totals["luck"]
    assert luck["successes"] == 3
    assert luck["expected"] == pytest.approx(float(expected), abs=1e-12)
    assert luck["z_score"] == pytest.approx((3 - float(expected)) / math.sqrt(variance), abs=1e-12)
    assert luck["p_this_well_or_worse"] == pytest.approx(float(chance_of_at_most(chances, 3)), abs=1e-12)
    # Each level of success against the sum of the rolls' own chances of it.
    by_hand = {name: sum(levels_by_hand(con)[name] for con in (60, 55, 40, 80, 80)) for name in levels_by_hand(60)}
    assert {n: c["observed"] for n, c in totals["levels"].items()} == {
        "critical": 0, "extreme": 0, "hard": 1, "regular": 2, "failure": 2, "fumble": 0}
    for name, chance in by_hand.items():
        assert totals["levels"][name]["expected"] == pytest.approx(float(chance), abs=1e-12)
    # Streaks are each character's in one chase: the farmer's one success in the farm track and
    # Alice's in the docks are not one run of two. The longest is one of each.
    assert totals["streaks"] == {"successes": 1, "failures": 1, "by_chase": []}
    # Per participant: Bob made two rolls, one of them undone; the re-roll is there to see.
    bob = next(p for p in report["by_participant"].values() if p["name"] == "Bob")
    assert (bob["rolls"], bob["undone"], bob["luck"]["successes"]) == (2, 1, 1)
    # Bob's two rolls at 80%: the longest run of successes is 2 (0.64), 1 (0.32) or 0: 1.6 expected;
    # of failures 2 (0.04) or 1 (0.32): 0.4 expected. He failed, then succeeded: 1 and 1.
    assert bob["streaks"]["by_chase"] == [{"chase_id": docks.chase_id, "rolls": 2, "successes": 1, "failures": 1,
                                           "expected_successes": pytest.approx(1.6), "expected_failures": pytest.approx(0.4)}]
    # Five rolls are too few to judge luck: no verdict, whatever the p-values say.
    assert luck["verdict"] == "too few rolls to judge" and not luck["suspect"]
    assert report["game"]["undos"] == 1
    # Every tens die and units die entered is counted, each against the uniform line.
    fairness = report["fairness"]["table dice entered by keeper"]
    assert fairness["dice"]["d100 tens"]["faces"] == {"0": 0, "10": 1, "20": 0, "30": 1, "40": 0, "50": 1, "60": 0, "70": 1, "80": 0, "90": 1}
    assert fairness["dice"]["d100 units"]["rolls"] == 5

    # Exports: CSV and Markdown carry the same figures.
    csv = client.get(f"/sessions/{session_id}/report?format=csv", headers=night)
    assert csv.mimetype == "text/csv" and "luck,all rolls,successes,3" in csv.get_data(as_text=True)
    md = client.get(f"/sessions/{session_id}/report?format=md", headers=night).get_data(as_text=True)
    assert md.startswith("# Game night (session)") and "| all rolls | 5 | 5 | 1 | 3 |" in md
    # Levels by who rolled, in Markdown too: Bob's two CON 80 rolls, a failure and a regular success,
    # against twice his chances: critical 1, extreme 15, hard 24, regular 40, failure 19, fumble 1 in 100.
    # (Columns in the order the store gives the levels: PostgreSQL's JSONB orders keys its own way.)
    table = md[md.index("## Levels of success by who rolled"):].splitlines()
    header = [c.strip() for c in table[2].strip("|").split("|")]
    bob_row = next(line for line in table if line.startswith("| participant: Bob |"))
    bob_cells = dict(zip(header, (c.strip() for c in bob_row.strip("|").split("|"))))
    assert bob_cells == {"who": "participant: Bob", "critical": "0 / 0.02", "extreme": "0 / 0.30", "hard": "0 / 0.48",
                         "regular": "1 / 0.80", "failure": "1 / 0.38", "fumble": "0 / 0.02"}
    # One roll a row: the five rolls, in the order made, the undone one marked.
    rolls = client.get(f"/sessions/{session_id}/report?format=rolls", headers=night)
    lines = rolls.get_data(as_text=True).splitlines()
    assert rolls.mimetype == "text/csv" and lines[0].startswith("chase_id,sequence,at,who,")
    assert [line.split(",")[3] for line in lines[1:]] == ["Harvey", "Farmer", "Alice", "Bob", "Bob"]
    assert [line.split(",")[15] for line in lines[1:]] == ["False", "False", "False", "True", "False"]


def test_a_player_reads_the_session_without_the_keepers_rolls(client):
    # Harvey's player holds a token for Harvey; the farmer is the Keeper's.
    farm = new_chase(client, "The farm track", ("Harvey", 60), ("Farmer", 55))
    speed_roll(farm, "Harvey", [10, 1])   # 11 against 60: hard success
    speed_roll(farm, "Farmer", [30, 5])
    player = farm.player("Harvey")
    session = client.post("/sessions", json={"name": "Game night"}).get_json()
    night = {"Authorization": f"Bearer {session['keeper_token']}"}
    session_id = session["group"]["session_id"]
    client.post(f"/sessions/{session_id}/chases", json={"chase_id": farm.chase_id, "chase_token": farm.keeper_token}, headers=night)

    # The player reads the session's report with their own token.
    seen = client.get(f"/sessions/{session_id}/report", headers={"Authorization": f"Bearer {player.keeper_token}"})

    assert seen.status_code == 200
    report = seen.get_json()
    assert report["viewer"] == "player" and "keeper" not in report
    assert report["totals"]["rolls"] == 1  # Harvey's only: the farmer's roll is the Keeper's
    assert [p["name"] for p in report["by_participant"].values()] == ["Harvey"]
    assert list(report["by_player"]) == ["player (Harvey)"]
    # The Keeper's report shows both, and the Keeper's own figures.
    keeper = client.get(f"/sessions/{session_id}/report", headers=night).get_json()
    assert keeper["totals"]["rolls"] == 2 and keeper["keeper"]["rolls"] == 1


def test_only_a_chases_keeper_adds_it_to_a_session(client):
    farm = new_chase(client, "The farm track", ("Harvey", 60))
    player = farm.player("Harvey")
    session = client.post("/sessions", json={"name": "Game night"}).get_json()
    night = {"Authorization": f"Bearer {session['keeper_token']}"}
    session_id = session["group"]["session_id"]

    # A player's token is not the chase's Keeper's: refused, naming the field, and nothing recorded.
    refused = client.post(f"/sessions/{session_id}/chases", json={"chase_id": farm.chase_id, "chase_token": player.keeper_token}, headers=night)
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "chase_token"
    # Without the session's own token, nobody adds anything.
    assert client.post(f"/sessions/{session_id}/chases", json={"chase_id": farm.chase_id, "chase_token": farm.keeper_token},
                       headers={"Authorization": f"Bearer {farm.keeper_token}"}).status_code == 403
    assert client.get(f"/sessions/{session_id}", headers=night).get_json()["chases"] == []


def test_bad_requests_get_problems_naming_the_field_and_record_nothing(client):
    farm = new_chase(client, "The farm track", ("Harvey", 60))
    session = client.post("/sessions", json={"name": "Game night"}).get_json()
    night = {"Authorization": f"Bearer {session['keeper_token']}"}
    session_id = session["group"]["session_id"]

    # A name that is no name, an unknown export format, a chase that is not there: 422 naming each.
    for body in ({"name": ""}, {"name": "a\x00b"}, {}):
        bad = client.post("/sessions", json=body)
        assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "name", body
    bad = client.get(f"/sessions/{session_id}/report?format=xlsx", headers=night)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "format"
    missing = client.post(f"/sessions/{session_id}/chases", json={"chase_id": "00000000-0000-0000-0000-000000000000", "chase_token": farm.keeper_token}, headers=night)
    assert missing.status_code == 422 and missing.get_json()["errors"][0]["field"] == "chase_id"
    # No token: 401; a session that does not exist: 404; a chart of no such kind: 404.
    assert client.get(f"/sessions/{session_id}/report").status_code == 401
    assert client.get("/sessions/00000000-0000-0000-0000-000000000000/report", headers=night).status_code == 404
    assert client.get(f"/chases/{farm.chase_id}/analytics/charts/pie.svg", headers=keeper_of(client, farm)).status_code == 404
    assert client.get(f"/sessions/{session_id}", headers=night).get_json()["chases"] == []


def test_a_report_over_many_chases_runs_as_a_job_and_a_player_never_reads_the_keepers(client):
    farm = new_chase(client, "The farm track", ("Harvey", 60), ("Farmer", 55))
    speed_roll(farm, "Harvey", [10, 1])
    speed_roll(farm, "Farmer", [30, 5])
    player = {"Authorization": f"Bearer {farm.player('Harvey').keeper_token}"}
    session = client.post("/sessions", json={"name": "Game night"}).get_json()
    night = {"Authorization": f"Bearer {session['keeper_token']}"}
    session_id = session["group"]["session_id"]
    client.post(f"/sessions/{session_id}/chases", json={"chase_id": farm.chase_id, "chase_token": farm.keeper_token}, headers=night)

    # The Keeper asks for the report as a job: 202, then done with its progress (chases read) and the report.
    accepted = client.post(f"/sessions/{session_id}/reports", headers=night)
    assert accepted.status_code == 202
    job = client.get(accepted.headers["Location"] + "?wait=10", headers=night).get_json()["job"]
    assert job["status"] == "done" and job["progress"] == {"done": 1, "total": 1}
    assert job["result"]["totals"]["rolls"] == 2 and job["result"]["viewer"] == "keeper"

    # The player cannot read the Keeper's job; their own job is a player's report.
    assert client.get(accepted.headers["Location"], headers=player).status_code == 404
    assert client.get(f"/sessions/{session_id}/jobs/no-such-job", headers=night).status_code == 404
    own = client.post(f"/sessions/{session_id}/reports", headers=player)
    mine = client.get(own.headers["Location"] + "?wait=10", headers=player).get_json()["job"]
    assert mine["result"]["viewer"] == "player" and mine["result"]["totals"]["rolls"] == 1
