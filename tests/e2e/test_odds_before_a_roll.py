"""Odds before a roll (issue 13): a front-end asks the chances of a command's rolls with
``?dry_run=true`` -- the same request, nothing recorded -- and the roll history shows the odds
every roll had."""
from __future__ import annotations

import pytest

from domain.rules.coc7e import odds
from domain.rules.d6.odds import chance_of_success
from tests.e2e.coc7e_table import FARMER, HARVEY, Table
from tests.e2e.d6_table import D6Table
from tests.e2e.savage_worlds_table import SavageTable


@pytest.fixture
def table(keeper) -> Table:
    """A fitter farmer (MOV 8, 7 after his failed CON roll: three movement actions to Harvey's
    one) at 0, before a crowd between 0 and 1; his turn, after Harvey's."""
    keeper.create("Harvey and the angry farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**{**FARMER, "mov": 8})
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    table = Table(keeper)
    table.place("hazard", [0, 1], name="A crowd", skills=["DEX"])
    keeper.move("Harvey", 1)  # Harvey runs on; the farmer's turn
    return table


def dry_run(keeper, path: str, body: dict) -> dict:
    return keeper.ok(keeper.http.post(f"/chases/{keeper.chase_id}{path}", json=body, query_string={"dry_run": "true"}))


def test_a_cautious_approach_with_two_bonus_dice_passes_the_hazard_seven_times_in_eight(table, keeper):
    # Given the farmer before the crowd, DEX 50 to weave through it, and the log as it stands
    farmer = f"/participants/{keeper.ids['Farmer']}/negotiate"
    before = keeper.events()
    # When the player asks the odds of each approach before committing
    reckless = dry_run(keeper, farmer, {"approach": "reckless", "target": 50})
    cautious = dry_run(keeper, farmer, {"approach": "cautious", "bonus_dice": 2, "target": 50})
    # Then the one roll each would make passes 50% of the time reckless, 87.5% with two bonus dice
    assert reckless["dry_run"] and cautious["dry_run"]
    assert [r["purpose"] for r in cautious["rolls"]] == ["negotiate hazard: A crowd"]
    assert reckless["rolls"][0]["odds"]["success"] == 0.5
    assert cautious["rolls"][0]["odds"]["success"] == 0.875
    # ... exactly, level by level (a fumble, only 00 at 50, needs all three tens dice on 00)
    outcomes = cautious["rolls"][0]["odds"]["outcomes"]
    assert outcomes["fumble"]["exact"] == "1/10000"
    assert sum(o["p"] for o in outcomes.values()) == pytest.approx(1)
    # ... and nothing was recorded: the log, its chain head and the track are as they were
    assert keeper.events() == before
    assert keeper.track()["version"] == before[-1]["version"]
    # When he then goes cautiously for real, his roll is the chase's third, after the speed rolls
    keeper.ok(keeper.post(farmer, {"approach": "cautious", "bonus_dice": 2, "target": 50, "rolls": {"skill": [90, 60, 80, 5]}}))
    assert [r["sequence"] for r in keeper.rolls()] == [1, 2, 3]


def test_a_dry_run_never_shows_the_server_dice_and_is_refused_like_the_command(table, keeper):
    farmer = f"/participants/{keeper.ids['Farmer']}/negotiate"
    before = keeper.events()
    # Given a table-dice chase, a dry run needs no faces (the real command would want them)
    asked = dry_run(keeper, farmer, {"target": 50})
    assert asked["rolls"][0]["odds"]["success"] == 0.5 and "roll" not in asked["rolls"][0]
    # A request the command refuses is refused the same way, and a bad dry_run names itself
    harvey = keeper.http.post(f"/chases/{keeper.chase_id}/participants/{keeper.ids['Harvey']}/negotiate", json={}, query_string={"dry_run": "true"})
    assert harvey.status_code == 409
    bad = keeper.http.post(f"/chases/{keeper.chase_id}{farmer}", json={"target": 50}, query_string={"dry_run": "maybe"})
    assert bad.status_code == 422 and "dry_run" in str(bad.get_json())
    assert keeper.events() == before


def test_the_roll_history_shows_the_odds_each_roll_had(table, keeper):
    # Given the farmer weaves through the crowd for real, cautiously with two bonus dice: 40, 20, 70 and 5
    keeper.ok(keeper.post(f"/participants/{keeper.ids['Farmer']}/negotiate", {"approach": "cautious", "bonus_dice": 2, "target": 50, "rolls": {"skill": [40, 20, 70, 5]}}))
    # Then his roll in the history shows the odds it had and the outcome it had (25: a hard success)
    row = keeper.rolls()[-1]
    assert row["purpose"] == "negotiate hazard: A crowd"
    assert row["odds"]["success"] == 0.875
    assert row["odds"]["observed"] == row["roll"]["level"] == "hard"
    # ... and so do the speed rolls before it (CON 60 and 55, no bonus dice)
    speed = keeper.rolls()[0]
    assert speed["odds"]["success"] == 0.6 and speed["odds"]["observed"] == speed["roll"]["level"]


def test_a_random_hazards_dry_run_queues_no_job_and_records_nothing(table, keeper):
    before = keeper.events()
    asked = dry_run(keeper, "/random-hazards", {"locations": 2, "environment": "hazardous"})
    # Then each location's roll on the table has its odds: "01-59 = Clear", fewer with a penalty die
    assert len(asked["rolls"]) == 2
    clear = asked["rolls"][0]["odds"]["outcomes"]["clear"]
    assert clear["exact"] == "349/1000"
    assert keeper.events() == before


def test_a_savage_worlds_trait_roll_dry_run_on_server_dice_leaves_the_next_roll_as_it_was(client):
    # Given a SWADE chase on the server's dice, with Dan (a Wild Card, d8 maneuvering)
    table = SavageTable(client, "swade", dice="server")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": 2, "Bike": 6})
    before = table.events()
    body = {"participant_id": table.ids["Dan"], "trait_die": "d8", "purpose": "Notice"}
    # When the GM asks the odds of a Notice roll at d8 against 4
    response = table.http.post(table.url("/swade/trait-rolls"), json=body, query_string={"dry_run": "true"})
    asked = response.get_json()
    # Then it succeeds 13/16 and critically fails 1/48 (trait die and Wild Die both on 1)
    odds = asked["rolls"][0]["odds"]
    assert odds["outcomes"]["critical failure"]["exact"] == "1/48"
    assert odds["success"] == 13 / 16
    # ... and nothing was recorded: the real roll that follows takes the next sequence number as if
    # no dry run had happened, and its history row shows the same odds with the outcome it had
    assert table.events() == before
    table.post("/swade/trait-rolls", body)
    row = table.rolls()[-1]
    assert row["roll"]["kind"] == "trait roll" and row["odds"]["success"] == odds["success"]
    assert row["odds"]["observed"] in odds["outcomes"]
    assert [r["sequence"] for r in table.rolls()] == list(range(1, len(table.rolls()) + 1))


@pytest.mark.parametrize("response", ["dodge", "fight back"])
def test_an_attack_dry_run_answers_who_wins_under_the_response_s_tie_rule(keeper, response):
    # Given the farmer (Fighting (Brawl) 45) beside Harvey (Dodge 30, Fighting (Brawl) 50)
    keeper.create("A fast farmer", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**dict(FARMER, mov=9))
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut(opening_range=1)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)
    before = keeper.events()
    # When the Keeper asks the odds of the farmer's attack before rolling it
    asked = dry_run(keeper, f"/participants/{keeper.ids['Farmer']}/attack", {"target_id": keeper.ids["Harvey"], "response": response})
    # Then both rolls have their odds, and who wins has the exact odds of the opposed roll
    assert [r["purpose"] for r in asked["rolls"]][:2] == ["fighting against Harvey", f"{response} against Farmer"]
    defence = 30 if response == "dodge" else 50
    expected = odds.opposed_odds(odds.level_chances(45), odds.level_chances(defence), response)
    [decided] = asked["outcomes"]
    assert decided["event"] == "AttackMade"
    assert decided["odds"] == expected.as_json()
    assert keeper.events() == before


def test_the_openapi_document_offers_a_dry_run_on_commands_that_roll_and_on_no_other(client):
    doc = client.get("/openapi.json").get_json()

    def dry_runs(path: str) -> bool:
        return any(p.get("name") == "dry_run" for p in doc["paths"][path]["post"].get("parameters", []))

    for path in ("/chases/{chase_id}/participants/{participant_id}/negotiate", "/chases/{chase_id}/skill-rolls",
                 "/chases/{chase_id}/participants/{participant_id}/attack", "/chases/{chase_id}/{system}/trait-rolls",
                 "/chases/{chase_id}/random-hazards"):
        assert dry_runs(path), path
    # A command that records outside the runner (a token issued) cannot pretend to dry-run
    assert not dry_runs("/chases/{chase_id}/tokens") and not dry_runs("/chases")


def test_a_d6_skill_roll_dry_run_answers_the_odds_the_d6_plug_in_supplies(client):
    # Given a D6 chase under way, with table dice
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=20)
    table.begin()
    before = table.get("/events")["events"]
    # When the GM asks the odds of a 3D+1 roll against 10, no faces given
    response = table.http.post(table.url("/d6/skill-rolls"), json={"participant_id": table.ids["Ann"], "code": "3D+1", "difficulty": 10}, query_string={"dry_run": "true"})
    asked = response.get_json()
    # Then the roll's odds are the D6 plug-in's own, and nothing was recorded
    assert response.status_code == 200, asked
    [roll] = asked["rolls"]
    assert roll["odds"]["success"] == pytest.approx(float(chance_of_success("3D+1", 10)))
    assert table.get("/events")["events"] == before


def test_a_dry_run_of_a_command_that_has_none_is_refused_not_recorded(table, keeper):
    before = keeper.events()

    # The Keeper asks what ending the chase would do: a command without a dry run.
    asked = keeper.post("/end?dry_run=true", {"outcome": "escaped"})

    # Refused naming the parameter, and the chase goes on: nothing recorded.
    assert asked.status_code == 422 and asked.get_json()["errors"][0]["field"] == "dry_run"
    assert keeper.events() == before and keeper.track()["phase"] == "running"
