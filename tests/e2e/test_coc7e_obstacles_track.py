"""The track with hazards and barriers over HTTP: placing, changing and removing them in play,
location names, each sample barrier, a barrier stopping movement, breaking barriers down, and
movement actions owed across rounds. coc7e-chases.txt part 3.
"""
from __future__ import annotations

import pytest

from domain.rules.coc7e.obstacles import BARRIER_PRESETS
from tests.e2e.coc7e_table import Table, harvey_and_the_farmer


@pytest.fixture
def table(keeper) -> Table:
    """Harvey at 2 (1 movement action), the farmer at 0 (2 movement actions); Harvey's turn."""
    harvey_and_the_farmer(keeper)
    return Table(keeper)


def test_locations_are_named_renamed_and_unnamed_each_by_an_event(table, keeper):
    table.name_location(2, "Farmyard")
    chase = table.name_location(2, "The farmyard")["chase"]
    assert chase["location_names"] == [{"index": 2, "name": "The farmyard"}]
    assert next(row for row in chase["locations"] if row["index"] == 2)["name"] == "The farmyard"
    chase = keeper.ok(table.send("DELETE", "/locations/2"))["chase"]
    assert chase["location_names"] == []
    assert [e["name"] for e in keeper.events()][-3:] == ["LocationNamed", "LocationNamed", "LocationNameRemoved"]
    renamed = next(e for e in keeper.events() if e["name"] == "LocationNamed" and e["data"]["previous"])
    assert renamed["data"]["previous"] == "Farmyard"


def test_obstacles_are_placed_changed_and_removed_during_play(table, keeper):
    wall = table.place("barrier", [3, 4], name="Wall", skills=["Climb", "Jump"], difficulty="hard", hit_points=25)
    chase = keeper.track()
    assert chase["obstacles"] == [
        {"id": wall, "kind": "barrier", "name": "Wall", "between": [3, 4], "skills": ["Climb", "Jump"], "difficulty": "hard",
         "hit_points": 25, "starting_hit_points": 25, "preset": None, "destroyed": False, "debris_of": None}
    ]
    # Changed: a lower wall is only a hazard now, and further along.
    chase = keeper.ok(table.send("PATCH", f"/obstacles/{wall}", {"kind": "hazard", "difficulty": "regular", "between": [5, 4]}))["chase"]
    assert chase["obstacles"][0]["kind"] == "hazard" and chase["obstacles"][0]["between"] == [4, 5]
    assert chase["obstacles"][0]["hit_points"] is None
    chase = keeper.ok(table.send("DELETE", f"/obstacles/{wall}", query_string={"reason": "the farmer opened the gate"}))["chase"]
    assert chase["obstacles"] == []
    names = [e["name"] for e in keeper.events()]
    assert names[-3:] == ["ObstaclePlaced", "ObstacleChanged", "ObstacleRemoved"]
    assert keeper.events()[-1]["data"]["reason"] == "the farmer opened the gate"
    assert keeper.events()[-1]["type"] == "coc7e:Chase.ObstacleRemoved"


@pytest.mark.parametrize("preset", BARRIER_PRESETS, ids=lambda p: p.name)
def test_each_sample_barrier_comes_with_its_hit_points(table, keeper, preset):
    oid = table.place("barrier", [2, 3], preset=preset.name.upper(), skills=["STR"])
    placed = keeper.track()["obstacles"][0]
    assert (placed["id"], placed["name"], placed["preset"]) == (oid, preset.name, preset.name)
    assert placed["hit_points"] == placed["starting_hit_points"] == preset.hit_points


def test_a_barrier_stops_movement_until_it_is_passed(table, keeper):
    keeper.move("Harvey", 1)  # Harvey to 3; the farmer's turn, two movement actions at 0
    gate = table.place("barrier", [1, 2], name="Locked gate", skills=["Climb"])
    # The farmer's move of 2 stops in front of the gate, after 1 location.
    chase = keeper.move("Farmer", 2)
    farmer = table.who(chase, "Farmer")
    assert (farmer["location"], farmer["movement_actions"], farmer["obstacle_ahead"]["id"], farmer["obstacle_ahead_id"]) == (1, 1, gate, gate)
    reached = keeper.events()[-1]
    assert reached["name"] == "ObstacleReached" and reached["data"]["locations_not_moved"] == 1
    # He cannot simply move on.
    refused = keeper.post(f"/participants/{keeper.ids['Farmer']}/move", {"locations": 1})
    assert refused.status_code == 409 and refused.get_json()["rule"] == 'coc7e-chases.txt "Barriers"'
    # A failed Climb (no value: the Keeper gives the target 30): no progress, nothing worse.
    failed = table.negotiate("Farmer", [80, 0], target=30)
    assert failed["outcome"] == {"passed": False, "moved_on": False, "mishap": False}
    chase = failed["chase"]
    assert chase["round"] == 2 and keeper.location_of(chase, "Farmer") == 1
    # Next round Harvey runs on; the farmer climbs over (20 against 30) and moves on.
    keeper.move("Harvey", 1)
    passed = table.negotiate("Farmer", [20, 0], target=30)
    assert passed["outcome"]["passed"] and keeper.location_of(passed["chase"], "Farmer") == 2


def test_a_character_kicks_a_door_down_blow_by_blow_and_goes_through(table, keeper):
    keeper.move("Harvey", 1)
    door = table.place("barrier", [0, 1], preset="Standard back door", skills=["STR", "Locksmith"])
    # No attack roll: his damage (1D3+DB, DB 0) each blow, 1 movement action each.
    first = table.break_barrier("Farmer", rolls={"damage": [3]})
    assert first["outcome"] == {"destroyed": False, "hit_points_left": 7}
    assert keeper.location_of(first["chase"], "Farmer") == 0
    second = table.break_barrier("Farmer", rolls={"damage": [2]})
    assert second["outcome"] == {"destroyed": False, "hit_points_left": 5}
    assert second["chase"]["round"] == 2  # both his movement actions went on the door
    chase = keeper.move("Harvey", 1)  # the farmer, with 2 movement actions, kicks again
    assert chase["round"] == 2 and chase["whose_turn"] == keeper.ids["Farmer"]
    third = table.break_barrier("Farmer", damage="1D8", rolls={"damage": [7]})
    assert third["outcome"] == {"destroyed": True, "hit_points_left": 0}
    chase = third["chase"]
    assert keeper.location_of(chase, "Farmer") == 1  # through the broken door
    door_now = next(o for o in chase["obstacles"] if o["id"] == door)
    assert door_now["destroyed"] and door_now["hit_points"] == 0
    assert table.who(chase, "Farmer")["obstacle_ahead"] is None


def roadblock(keeper, hit_points_preset: str, **car) -> Table:
    keeper.create("A roadblock", dice="table")
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Car", role="quarry", **car)
    keeper.add(name="Amy", dex=60, mov=8, vehicle_id=keeper.ids["Car"], seat="driver", skills={"Drive Auto": 60}, hp=11)
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Police car", role="pursuer")
    keeper.add(name="Officer", dex=50, mov=8, vehicle_id=keeper.ids["Police car"], seat="driver", skills={"Drive Auto": 50})
    keeper.speed_roll("Car", [40, 0])
    keeper.speed_roll("Police car", [40, 0])
    chase = keeper.cut()
    assert chase["whose_turn"] == keeper.ids["Car"] and keeper.location_of(chase, "Car") == 2
    table = Table(keeper)
    table.place("barrier", [2, 3], preset=hit_points_preset, name="Roadblock", skills=["Drive Auto"])
    return table


def test_a_car_ramming_through_a_barrier_takes_half_its_hit_points(keeper):
    table = roadblock(keeper, "9\" brick wall")  # 25 hit points
    # 5D10 for Build 5: 30, enough. The car suffers half the 25 hit points before impact: 12, 1 Build.
    # The Keeper leaves the rubble as a Regular Drive Auto hazard for those following.
    rammed = table.break_barrier("Car", debris={"skills": ["Drive Auto"]}, rolls={"damage": [6, 6, 6, 6, 6]})
    assert rammed["outcome"]["destroyed"]
    chase = rammed["chase"]
    assert keeper.location_of(chase, "Car") == 3
    barrier = next(o for o in chase["obstacles"] if o["kind"] == "barrier")
    rubble = next(o for o in chase["obstacles"] if o["kind"] == "hazard")
    assert barrier["destroyed"] and barrier["hit_points"] == 0
    assert (rubble["name"], rubble["between"], rubble["debris_of"], rubble["skills"]) == ("Debris of Roadblock", [2, 3], barrier["id"], ["Drive Auto"])
    car = table.vehicles()["Car"]
    assert (car["build"], car["build_losses"][0]["hit_points"], car["build_losses"][0]["cause"]) == (4, 12, "broke through Roadblock (half its hit points)")


def test_a_car_that_fails_to_break_through_is_wrecked(keeper):
    table = roadblock(keeper, "Mature tree")  # 50 hit points
    amy = keeper.ids["Amy"]
    crash = table.break_barrier("Car", rolls={"damage": [5, 5, 5, 5, 5], "thrown_free": {amy: [2, 2]}})
    assert crash["outcome"] == {"destroyed": False, "hit_points_left": 25}
    car = table.vehicles()["Car"]
    assert (car["condition"], car["build"], car["status"]) == ("wrecked", 0, "out")
    assert car["build_losses"][0]["cause"] == "failed to break through Roadblock at speed"
    assert car["occupants"][0]["damage"] == 4 and car["occupants"][0]["fate"] == "thrown free"
    chase = crash["chase"]
    assert chase["whose_turn"] != keeper.ids["Car"]


def test_lost_movement_actions_are_owed_across_several_rounds(table, keeper):
    keeper.move("Harvey", 1)
    table.place("hazard", [1, 2], name="Thick mud", skills=["STR"], difficulty="extreme")
    keeper.move("Farmer", 1)
    table.negotiate("Farmer", [90, 0], target=60)  # failed: on to 2, no movement actions left
    # The Keeper's own ruling: no damage, a delay of 3 (1D3), all of it owed.
    ruled = table.consequences("Farmer", incident=None, rolls={"movement_actions": [3]})
    farmer = table.who(ruled["chase"], "Farmer")
    # Round 2: 2 movement actions less 3 owed: none, 1 still owed.
    assert ruled["chase"]["round"] == 2 and (farmer["movement_actions"], farmer["owed"]) == (0, 1)
    keeper.move("Harvey", 1)
    chase = keeper.end_turn("Farmer")
    # Round 3: 2 less the 1 still owed.
    farmer = table.who(chase, "Farmer")
    assert chase["round"] == 3 and (farmer["movement_actions"], farmer["owed"]) == (1, 0)


def test_a_hazard_with_a_choice_of_skills_and_a_skill_the_keeper_accepts(table, keeper):
    table.place("hazard", [2, 3], name="Crowded street", skills=["Dodge", "DEX"])
    refused = keeper.post(f"/participants/{keeper.ids['Harvey']}/negotiate", {"rolls": {"skill": [10, 0]}})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "skill"
    refused = keeper.post(f"/participants/{keeper.ids['Harvey']}/negotiate", {"skill": "Climb", "rolls": {"skill": [10, 0]}})
    assert refused.status_code == 409 and "Skills and Hazards" in refused.get_json()["rule"]
    # The Keeper accepts Climb ("the Keeper is final arbiter of what skill is acceptable").
    crossed = table.negotiate("Harvey", [10, 0], skill="Climb", keeper_accepts_skill=True)
    assert crossed["rolls"][0]["skill"] == "Climb" and crossed["outcome"]["passed"]


def test_a_player_negotiates_for_their_own_participant_but_only_the_keeper_rules(table, keeper):
    table.place("hazard", [2, 3], name="Mud", skills=["DEX"])
    player = keeper.player("Harvey")
    slipped = player.ok(player.post(f"/participants/{keeper.ids['Harvey']}/negotiate", {"rolls": {"skill": [90, 9]}}))
    assert slipped["outcome"]["mishap"]
    assert slipped["rolls"][0]["source"] == {"kind": "table", "entered_by": "player (Harvey)", "sequence": slipped["rolls"][0]["sequence"]}
    before = keeper.events()
    forbidden = player.post(f"/participants/{keeper.ids['Harvey']}/consequences", {"rolls": {"damage": [1], "movement_actions": [1]}})
    assert forbidden.status_code == 403 and keeper.events() == before
    ruled = table.consequences("Harvey", rolls={"damage": [1], "movement_actions": [1]})
    assert table.who(ruled["chase"], "Harvey")["damage"] == 1  # minor injury (the Regular default): 1D3


def test_the_new_endpoints_and_their_rolls_are_in_the_openapi_document(client):
    doc = client.get("/openapi.json").get_json()
    for path in (
        "/chases/{chase_id}/locations/{location}",
        "/chases/{chase_id}/obstacles",
        "/chases/{chase_id}/obstacles/{obstacle_id}",
        "/chases/{chase_id}/participants/{participant_id}/negotiate",
        "/chases/{chase_id}/participants/{participant_id}/break-barrier",
        "/chases/{chase_id}/participants/{participant_id}/attack",
        "/chases/{chase_id}/participants/{participant_id}/mishap-roll",
        "/chases/{chase_id}/participants/{participant_id}/consequences",
        "/rules/coc7e/vehicles",
        "/rules/coc7e/barrier-presets",
        "/rules/coc7e/damage-tables",
    ):
        assert path in doc["paths"], path
    rolls = doc["components"]["schemas"]["Attack"]["properties"]["rolls"]["description"]
    assert "attack, defence, damage, counter_damage" in rolls and "units die" in rolls
    assert "Car, standard" in doc["components"]["schemas"]["ParticipantCreate"]["properties"]["chart_vehicle"]["enum"]


def test_the_rules_reference_data_is_served(client):
    vehicles = client.get("/rules/coc7e/vehicles").get_json()["vehicles"]
    assert len(vehicles) == 27 and {"name": "Motorboat", "chart": "water"}.items() <= next(v for v in vehicles if v["name"] == "Motorboat").items()
    presets = client.get("/rules/coc7e/barrier-presets").get_json()["barrier_presets"]
    assert [p["hit_points"] for p in presets] == [5, 10, 15, 25, 50, 100]
    tables = client.get("/rules/coc7e/damage-tables").get_json()
    assert tables["default_by_difficulty"] == {"regular": "minor", "hard": "moderate", "extreme": "severe"}
    assert [r["damage"] for r in tables["collisions"]] == ["1D3-1", "1D6", "1D10", "2D10", "5D10"]
