"""Choosing a route, over HTTP with table dice (issue 15, item 1): coc7e-chases.txt "Choosing a
Route". The track branches where the Keeper says; the quarry chooses; a pursuer follows a branch.
Past the fork, the same index on different routes is a different place."""
from __future__ import annotations

from tests.e2e.coc7e_table import harvey_and_the_farmer


def choose(keeper, name, route):
    return keeper.post(f"/participants/{keeper.ids[name]}/choose-route", {"route": route})


def test_harvey_takes_to_the_river_and_the_farmer_follows_a_branch(keeper):
    # Harvey at location 2 (one movement action), the farmer at 0 (two). The track branches at 3.
    harvey_and_the_farmer(keeper)
    chase = keeper.ok(keeper.post("/forks", {"at": 3, "routes": ["into the river", "along the bank"]}), 201)["chase"]
    assert chase["forks"] == [{"at": 3, "routes": ["into the river", "along the bank"]}]
    keeper.move("Harvey", 1)  # to the fork
    keeper.move("Farmer", 2)  # round 2
    # Harvey stands at the fork: he must choose before moving on.
    problem = keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1}).get_json()
    assert problem["status"] == 409 and problem["rule"] == 'coc7e-chases.txt "Choosing a Route"'
    assert choose(keeper, "Harvey", "over the hills").get_json()["errors"][0]["field"] == "route"
    keeper.ok(choose(keeper, "Harvey", "into the river"))
    chase = keeper.move("Harvey", 1)
    assert chase["participants"][keeper.ids["Harvey"]]["routes"] == {"3": "into the river"}
    # The farmer's two locations stop at the fork; he runs along the bank.
    chase = keeper.move("Farmer", 2)
    farmer = chase["participants"][keeper.ids["Farmer"]]
    assert farmer["location"] == 3 and farmer["movement_actions"] == 1
    keeper.ok(choose(keeper, "Farmer", "along the bank"))
    chase = keeper.move("Farmer", 1)
    # Both at location 4, on different routes: he has not caught up with Harvey.
    assert keeper.location_of(chase, "Farmer") == keeper.location_of(chase, "Harvey") == 4
    assert chase["caught_up"] == []
    # Undo his choice and his move: following Harvey into the river, he catches up with him.
    keeper.ok(keeper.post("/undo", {"count": 2}))
    keeper.ok(choose(keeper, "Farmer", "into the river"))
    chase = keeper.move("Farmer", 1)
    assert [c["location"] for c in chase["caught_up"]] == [4]


def test_routes_are_refused_when_the_table_does_not_use_them(keeper):
    harvey_and_the_farmer(keeper)
    keeper.ok(keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": ["monsters"]}, headers={"Authorization": f"Bearer {keeper.keeper_token}"}))
    before = keeper.events()
    problem = keeper.post("/forks", {"at": 3, "routes": ["left", "right"]}).get_json()
    assert problem["status"] == 409 and "choosing_a_route" in problem["detail"] and keeper.events() == before
    # Bad forks are refused naming the field.
    keeper.ok(keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": ["choosing_a_route"]}, headers={"Authorization": f"Bearer {keeper.keeper_token}"}))
    for body, field in (({"at": 3, "routes": ["alone"]}, "routes"), ({"at": 3, "routes": ["same", "same"]}, "routes"), ({"at": -1, "routes": ["a", "b"]}, "at")):
        assert keeper.post("/forks", body).get_json()["errors"][0]["field"] == field
