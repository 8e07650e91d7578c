"""Fleeing the scene, and the reference data of part 5 and of the sample lists, over HTTP (issue 15,
items 2, 14 and 15): coc7e-chases.txt "Fleeing the Scene", "Sample Hazards for Car Chases" and
its fellows, "MOV Rates"."""
from __future__ import annotations

from tests.e2e.coc7e_table import harvey_and_the_farmer


def fleeing(keeper, **query):
    return keeper.http.get(f"/chases/{keeper.chase_id}/fleeing-the-scene", query_string=query)


def test_the_locations_each_covers_in_a_number_of_rounds(keeper):
    # Harvey (location 2, one movement action a round) flees the farmer (location 0, two).
    harvey_and_the_farmer(keeper)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)  # round 2
    keeper.move("Harvey", 1)
    chase = keeper.move("Farmer", 2)  # round 3
    assert chase["round"] == 3
    # In two rounds from the first, Harvey covered 2 locations, the farmer 4: both rounds are over.
    report = keeper.ok(fleeing(keeper, rounds=2))
    assert report["locations_covered"] == {keeper.ids["Harvey"]: 2, keeper.ids["Farmer"]: 4}
    assert report["complete"] and (report["from_round"], report["to_round"]) == (1, 2)
    assert report["rule"] == 'coc7e-chases.txt "Fleeing the Scene"'
    # Three rounds: the third is still being played, so far as it has gone.
    report = keeper.ok(fleeing(keeper, rounds=3))
    assert not report["complete"] and report["locations_covered"][keeper.ids["Harvey"]] == 2
    # Undo the farmer's last move: round 2 again, and round 2 is not over.
    keeper.ok(keeper.post("/undo", {"count": 1}))
    report = keeper.ok(fleeing(keeper, rounds=1, from_round=2))
    assert not report["complete"] and report["locations_covered"] == {keeper.ids["Harvey"]: 1, keeper.ids["Farmer"]: 0}
    # A round not begun, and bad numbers, are refused.
    assert fleeing(keeper, rounds=1, from_round=3).status_code == 409
    assert [e["field"] for e in fleeing(keeper, rounds=0).get_json()["errors"]] == ["rounds"]
    # With the rule switched off, the count is refused naming it.
    keeper.ok(keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": []}, headers={"Authorization": f"Bearer {keeper.keeper_token}"}))
    problem = fleeing(keeper, rounds=1).get_json()
    assert problem["status"] == 409 and "fleeing_the_scene" in problem["detail"]


def test_the_sample_hazards_and_barriers_are_served_as_printed(client):
    samples = client.get("/rules/coc7e/sample-obstacles").get_json()["samples"]
    assert len(samples) == 20 + 10 + 4 + 3
    car_barriers = client.get("/rules/coc7e/sample-obstacles?kind=barrier&setting=car").get_json()["samples"]
    assert [s["name"] for s in car_barriers] == ["Traffic jam with no room to weave between vehicles", "Police roadblock", "A fallen tree", "A rockslide"]
    assert car_barriers[0]["source"] == 'coc7e-chases.txt "Sample Barriers for Car Chases"'
    foot = client.get("/rules/coc7e/sample-obstacles?kind=hazard&setting=foot").get_json()["samples"]
    assert foot[-1]["name"] == "Between the stacks of a library or museum" and foot[-1]["source"] == 'coc7e-chases.txt "Sample Hazards for Foot Chases"'
    assert client.get("/rules/coc7e/sample-obstacles?setting=air").status_code == 422


def test_the_mov_rates_table_is_served_as_printed(client):
    body = client.get("/rules/coc7e/mov-rates").get_json()
    rates = {row["mov"]: row["mph"] for row in body["mov_rates"]}
    assert rates[5] == 3 and rates[9] == 12 and rates[12] == 40 and rates[20] == 1000 and len(rates) == 16
    assert body["source"] == 'coc7e-chases.txt "MOV Rates"'
