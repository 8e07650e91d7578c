"""Bad input to D6 chases: each a clear 4xx problem naming the field or citing the rule, and
nothing recorded."""
from __future__ import annotations

import pytest

from tests.e2e.d6_table import D6Table


def begun(client, **begin) -> D6Table:
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=30)
    table.begin(**begin)
    return table


@pytest.mark.parametrize(
    "spec, field",
    [
        ({"role": "quarry", "move": 10, "physique": "3D"}, "name"),
        ({"name": "Ann", "role": "thief", "move": 10, "physique": "3D"}, "role"),
        ({"name": "Ann", "role": "quarry", "move": 0, "physique": "3D"}, "move"),
        ({"name": "Ann", "role": "quarry", "move": 10.5, "physique": "3D"}, "move"),
        ({"name": "Ann", "role": "quarry", "move": 10, "physique": "3d6"}, "physique"),
        ({"name": "Ann", "role": "quarry", "move": 10, "physique": "3D+3"}, "physique"),
        ({"name": "Ann", "role": "quarry", "move": 10, "physique": "3D", "skills": {"piloting": "3D"}}, "skills"),
        ({"name": "Ann", "role": "quarry", "move": 10, "physique": "3D", "position": 2.25}, "position"),
        ({"name": "Ann", "role": "quarry", "move": 10, "physique": "3D", "position": -1}, "position"),
        ({"name": "Ann", "role": "quarry", "move": 10, "physique": "3D", "fatigue_limit": True}, "fatigue_limit"),
    ],
)
def test_a_bad_participant_field_is_a_422_naming_it(client, spec, field):
    table = D6Table(client)
    problem = table.refused("/d6/participants", spec, 422)
    assert any(e["field"].startswith(field) for e in problem["errors"]), problem


@pytest.mark.parametrize(
    "options, field",
    [
        ({"finish": 0}, "finish"),
        ({"terrain": [{"from": 0, "to": 10, "terrain": "swampy"}]}, "terrain.0.terrain"),
        ({"terrain": [{"from": 10, "to": 0, "terrain": "easy"}]}, "terrain.0.to"),
        ({"terrain": [{"from": 0, "to": 10, "terrain": "rough", "modifier": 30}]}, "terrain.0.modifier"),
        ({"wild_die_one": "reroll"}, "wild_die_one"),
        ({"acceleration": "yes"}, "acceleration"),
        ({"acceleration": 1}, "acceleration"),
        ({"speed_limit": 0}, "speed_limit"),
    ],
)
def test_a_bad_course_or_setting_is_a_422_naming_it(client, options, field):
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=30)
    problem = table.refused("/d6/begin", options, 422)
    assert any(e["field"] == field for e in problem["errors"]), problem


def test_very_hazardous_terrain_takes_25_or_more(client):
    table = begun(client, terrain=[{"from": 0, "to": 100, "terrain": "very hazardous", "modifier": 30, "note": "a hurricane"}])
    assert table.track()["course"]["terrain"][0]["modifier"] == 30


def test_a_chase_needs_a_pursuer_and_a_quarry_or_racers_and_a_finish(client):
    table = D6Table(client)
    table.add("Ann", "racer")
    table.add("Bob", "racer")
    problem = table.refused("/d6/begin", {}, 409)
    assert problem["rule"].startswith("d6-movement.txt")


@pytest.mark.parametrize(
    "body, field",
    [
        ({"movement": "crawling", "rate": 10}, "movement"),
        ({"movement": "running", "rate": 0}, "rate"),
        ({"movement": "running", "rate": 10.25, "table_dice": [3, 3, 3]}, "rate"),
        ({"movement": "running", "rate": "fast"}, "rate"),
        ({"movement": "running", "rate": 20, "table_dice": [3, 3]}, "table_dice"),
        ({"movement": "running", "rate": 20}, "table_dice"),
        ({"movement": "running", "rate": 20, "table_dice": [3, 3, 3], "on_failure": "fly"}, "on_failure"),
        ({"movement": "running", "rate": 20, "table_dice": [3, 3, 3], "running_start": 1}, "running_start"),
        ({"movement": "running", "rate": 20, "table_dice": [3, 3, 3], "modifier": 1000}, "modifier"),
    ],
)
def test_a_bad_move_is_a_422_naming_the_field(client, body, field):
    table = begun(client)
    problem = table.refused(f"/d6/participants/{table.ids['Ann']}/move", body, 422)
    assert any(e["field"] == field for e in problem["errors"]), problem


def test_moves_out_of_turn_or_for_no_one_are_refused(client):
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=30)
    # Before the chase begins, no one moves (409); after, an unknown participant is a 404.
    table.refused(f"/d6/participants/{table.ids['Ann']}/move", {"movement": "running", "rate": 20, "table_dice": [3, 3, 3]}, 409)
    table.begin()
    table.refused("/d6/participants/nobody/move", {"movement": "running", "rate": 20, "table_dice": [3, 3, 3]}, 404)
    # A D6 command sent to a Call of Cthulhu chase names the chase's system.
    other = table.http.post("/chases", json={"name": "Harvey", "dice": "table"}).get_json()
    coc = table.http.client.post(
        f"/chases/{other['chase']['chase_id']}/d6/end-round", json={}, headers={"Authorization": f"Bearer {other['keeper_token']}"},
    )
    assert coc.status_code == 409 and "this is a coc7e chase" in coc.get_json()["detail"]


def test_an_ended_chase_takes_no_more_moves_and_the_gm_ends_it_in_its_own_words(client):
    table = begun(client)
    table.refused("/end", {"outcome": "won"}, 422)
    table.post("/end", {"outcome": "abandoned"})
    table.refused(f"/d6/participants/{table.ids['Ann']}/move", {"movement": "running", "rate": 20, "table_dice": [3, 3, 3]}, 409)
    table.refused("/d6/end-round", {}, 409)


def test_a_move_no_roll_could_make_is_refused_naming_the_rate(client):
    # Given a D6 chase under way (the schemathesis run found a leap of 10 km answered 500)
    chase = client.post("/chases", json={"name": "Rooftops", "system": "d6"}).get_json()
    chase_id, auth = chase["chase"]["chase_id"], {"Authorization": f"Bearer {chase['keeper_token']}"}
    runner = {"name": "Ann", "role": "pursuer", "move": 10, "physique": "3D", "skills": {"running": "4D"}}
    ann = client.post(f"/chases/{chase_id}/d6/participants", json=runner, headers=auth).get_json()["participant_id"]
    client.post(f"/chases/{chase_id}/d6/participants", json={**runner, "name": "Thief", "role": "quarry", "position": 20}, headers=auth)
    assert client.post(f"/chases/{chase_id}/d6/begin", json={"finish": 200}, headers=auth).status_code == 200
    version = client.get(f"/chases/{chase_id}/track", headers=auth).get_json()["chase"]["version"]

    # When Ann tries to leap 10,000 metres
    leap = client.post(f"/chases/{chase_id}/d6/participants/{ann}/move", json={"movement": "leaping", "rate": 10000}, headers=auth)

    # Then it is a 422 naming the rate, and nothing is recorded
    assert leap.status_code == 422, leap.get_data(as_text=True)
    assert [e["field"] for e in leap.get_json()["errors"]] == ["rate"]
    assert client.get(f"/chases/{chase_id}/track", headers=auth).get_json()["chase"]["version"] == version
