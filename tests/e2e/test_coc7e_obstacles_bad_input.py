"""Bad input to the hazard and barrier commands: each a problem document (RFC 9457) naming the
field (422) or the rule with its file and heading (409), and the chase's log left unchanged.
"""
from __future__ import annotations

import pytest

from tests.e2e.coc7e_table import Table, harvey_and_the_farmer, refused


@pytest.fixture
def table(keeper) -> Table:
    """Harvey at 2 (1 movement action, his turn), the farmer at 0 (2 movement actions)."""
    harvey_and_the_farmer(keeper)
    return Table(keeper)


@pytest.mark.parametrize(
    "spec, field",
    [
        ({"kind": "hazard", "between": [2, 4], "name": "Mud", "skills": ["DEX"]}, "between"),  # not adjacent
        ({"kind": "hazard", "between": [2, 2], "name": "Mud", "skills": ["DEX"]}, "between"),
        ({"kind": "hazard", "between": ["Nowhere", 3], "name": "Mud", "skills": ["DEX"]}, "between"),  # unknown name
        ({"kind": "hazard", "between": [-1, 0], "name": "Mud", "skills": ["DEX"]}, "between"),  # unknown index
        ({"kind": "hazard", "between": [2.5, 3], "name": "Mud", "skills": ["DEX"]}, "between"),
        ({"kind": "hazard", "between": [2, 3, 4], "name": "Mud", "skills": ["DEX"]}, "between"),
        ({"kind": "hazard", "name": "Mud", "skills": ["DEX"]}, "between"),
        ({"kind": "hazard", "between": [2, 3], "skills": ["DEX"]}, "name"),
        ({"kind": "hazard", "between": [2, 3], "name": "Mud"}, "skills"),
        ({"kind": "hazard", "between": [2, 3], "name": "Mud", "skills": []}, "skills"),
        ({"kind": "hazard", "between": [2, 3], "name": "Mud", "skills": ["DEX"], "difficulty": "critical"}, "difficulty"),
        ({"kind": "hazard", "between": [2, 3], "name": "Mud", "skills": ["DEX"], "hit_points": 5}, "hit_points"),
        ({"kind": "barrier", "between": [2, 3], "preset": "Cardboard wall", "skills": ["STR"]}, "preset"),
        ({"kind": "barrier", "between": [2, 3], "preset": "Mature tree", "hit_points": 5, "skills": ["STR"]}, "hit_points"),
        ({"kind": "barrier", "between": [2, 3], "name": "Wall", "skills": ["Climb"], "hit_points": 0}, "hit_points"),
        ({"kind": "chasm", "between": [2, 3], "name": "Abyss", "skills": ["Jump"]}, "kind"),
    ],
)
def test_obstacles_out_of_place_or_ill_described_are_refused(table, keeper, spec, field):
    before = keeper.events()
    refused(keeper, keeper.post("/obstacles", spec), 422, before, field=field)


def test_two_obstacles_on_one_boundary_are_refused(table, keeper):
    table.place("hazard", [2, 3], name="Mud", skills=["DEX"])
    before = keeper.events()
    refused(keeper, keeper.post("/obstacles", {"kind": "barrier", "between": [3, 2], "name": "Gate", "skills": ["Climb"]}), 409, before, rule='"Hazards"')


def test_unknown_obstacles_and_location_names(table, keeper):
    before = keeper.events()
    assert refused(keeper, table.send("PATCH", "/obstacles/no-such-thing", {"name": "x"}), 404, before)["type"] == "/problems/not-found"
    refused(keeper, table.send("DELETE", "/obstacles/no-such-thing"), 404, before)
    refused(keeper, table.send("DELETE", "/locations/3"), 422, before, field="location")
    refused(keeper, table.send("PUT", "/locations/3", {"name": ""}), 422, before, field="name")
    table.name_location(3, "Gate")
    before = keeper.events()
    refused(keeper, table.send("PUT", "/locations/4", {"name": "gate"}), 422, before, field="name")  # names are unique


def test_changing_an_obstacle_is_checked_like_placing_it(table, keeper):
    mud = table.place("hazard", [2, 3], name="Mud", skills=["DEX"])
    table.place("hazard", [4, 5], name="Stream", skills=["Swim"])
    before = keeper.events()
    refused(keeper, table.send("PATCH", f"/obstacles/{mud}", {"between": [2, 5]}), 422, before, field="between")
    refused(keeper, table.send("PATCH", f"/obstacles/{mud}", {"between": [4, 5]}), 409, before, rule='"Hazards"')
    refused(keeper, table.send("PATCH", f"/obstacles/{mud}", {"colour": "brown"}), 422, before, field="colour")


@pytest.mark.parametrize(
    "body, status, where",
    [
        ({"approach": "cautious", "bonus_dice": 3, "rolls": {"skill": [10, 10, 10, 10, 0]}}, 409, '"Hazards"'),  # beyond two
        ({"approach": "cautious", "bonus_dice": 1, "rolls": {"skill": [10, 10, 0]}}, 409, '"Hazards"'),  # 1 + 1 to move on > 1 left
        ({"approach": "reckless", "bonus_dice": 1, "rolls": {"skill": [10, 10, 0]}}, 422, "bonus_dice"),
        ({"approach": "careful", "rolls": {"skill": [10, 0]}}, 422, "approach"),
        ({"rolls": {"skill": [10]}}, 422, "rolls.skill"),  # a units die missing
        ({"rolls": {"skill": [15, 0]}}, 422, "rolls.skill"),  # 15 is no face of a tens die
        ({}, 422, "rolls.skill"),  # a table-dice chase: the faces are required
        ({"rolls": {"skil": [10, 0]}}, 422, "rolls.skil"),
        ({"rolls": {"skill": "10 0"}}, 422, "rolls.skill"),
        ({"skill": "Swim", "rolls": {"skill": [10, 0]}}, 409, '"Skills and Hazards"'),
        ({"obstacle_id": "no-such-obstacle", "rolls": {"skill": [10, 0]}}, 422, "obstacle_id"),
    ],
)
def test_negotiating_with_bad_input_is_refused(table, keeper, body, status, where):
    table.place("hazard", [2, 3], name="Mud", skills=["DEX"])
    before = keeper.events()
    response = keeper.post(f"/participants/{keeper.ids['Harvey']}/negotiate", body)
    if status == 409:
        refused(keeper, response, 409, before, rule=where)
    else:
        refused(keeper, response, 422, before, field=where)


def test_negotiating_with_nothing_ahead_or_out_of_turn_is_refused(table, keeper):
    table.place("hazard", [0, 1], name="Mud", skills=["DEX"])
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/negotiate", {"rolls": {"skill": [10, 0]}}), 409, before, rule='"Hazards"')
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Farmer']}/negotiate", {"rolls": {"skill": [10, 0]}}), 409, before, rule="Order of Movement")


def test_a_participant_with_a_mishap_waits_for_the_keepers_ruling(table, keeper):
    keeper.move("Harvey", 1)
    table.place("hazard", [0, 1], name="Mud", skills=["DEX"])
    table.negotiate("Farmer", [90, 0])  # failed, on to 1 with 1 movement action left
    before = keeper.events()
    for path, body in (("move", {"locations": 1}), ("end-turn", {}), ("negotiate", {"rolls": {"skill": [10, 0]}})):
        refused(keeper, keeper.post(f"/participants/{keeper.ids['Farmer']}/{path}", body), 409, before, rule='"Hazards"')
    # A hazard's mishap has had its roll: no second roll "as if a hazard".
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Farmer']}/mishap-roll", {"skill": "DEX", "rolls": {"skill": [10, 0]}}), 409, before, rule='"Hazards"')
    # Rulings checked before anything is recorded.
    for body, field in (
        ({"incident": "splat!", "rolls": {"damage": [1]}}, "incident"),
        ({"incident": "road kill", "rolls": {"damage": [1] * 8, "movement_actions": [1]}}, "incident"),  # a vehicle's row, not a character's
        ({"damage": "1D", "rolls": {"movement_actions": [1]}}, "damage"),
        ({"rolls": {"damage": [7], "movement_actions": [1]}}, "rolls.damage"),  # minor injury: 1D3
        ({"rolls": {"damage": [1]}}, "rolls.movement_actions"),
        ({"to_location": "Nowhere", "rolls": {"damage": [1], "movement_actions": [1]}}, "to_location"),
        ({"aftermath": {"fates": {keeper.ids["Harvey"]: "thrown free"}}, "rolls": {"damage": [1], "movement_actions": [1]}}, "aftermath.fates"),
    ):
        refused(keeper, keeper.post(f"/participants/{keeper.ids['Farmer']}/consequences", body), 422, before, field=field)


def test_barriers_without_hit_points_and_hazards_cannot_be_broken_down(table, keeper):
    table.place("barrier", [2, 3], name="Chasm", skills=["Jump"])
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/break-barrier", {"rolls": {"damage": [3]}}), 409, before, rule='"Barriers"')
    chasm = keeper.track()["obstacles"][0]["id"]
    keeper.ok(table.send("PATCH", f"/obstacles/{chasm}", {"kind": "hazard"}))
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/break-barrier", {"rolls": {"damage": [3]}}), 409, before, rule='"Hazards"')


def test_breaking_down_with_bad_dice_or_debris_is_refused(table, keeper):
    table.place("barrier", [2, 3], preset="Internal door or thin wooden fence", skills=["STR"])
    before = keeper.events()
    door = f"/participants/{keeper.ids['Harvey']}/break-barrier"
    refused(keeper, keeper.post(door, {"damage": "1D3+XYZ", "rolls": {"damage": [3]}}), 422, before, field="damage")
    refused(keeper, keeper.post(door, {"rolls": {"damage": [4]}}), 422, before, field="rolls.damage")  # 1D3
    refused(keeper, keeper.post(door, {"debris": {"skills": []}, "rolls": {"damage": [3]}}), 422, before, field="debris.skills")


def test_players_cannot_change_the_track(table, keeper):
    player = keeper.player("Harvey")
    before = keeper.events()
    refused(keeper, player.post("/obstacles", {"kind": "hazard", "between": [0, 1], "name": "Mud", "skills": ["DEX"]}), 403, before)
    table.place("hazard", [2, 3], name="Crowd", skills=["Dodge"])
    before = keeper.events()
    body = {"skill": "Climb", "keeper_accepts_skill": True, "rolls": {"skill": [10, 0]}}
    refused(keeper, player.post(f"/participants/{keeper.ids['Harvey']}/negotiate", body), 403, before)
    refused(keeper, player.post(f"/participants/{keeper.ids['Farmer']}/negotiate", {"rolls": {"skill": [10, 0]}}), 403, before)


def test_random_hazards_refuse_an_idempotency_key_longer_than_a_job_key(table, keeper):
    # Given the chase under way, its log as it is
    before = keeper.events()

    # When the Keeper rolls random hazards with an Idempotency-Key of 10,000 characters
    # (the key names the job: it is bounded like the body's `key`)
    response = keeper.http.post(
        f"/chases/{keeper.chase_id}/random-hazards", json={"locations": 1},
        headers={"Idempotency-Key": "k" * 10_000},
    )

    # Then it is refused naming the header, and no job rolls anything
    refused(keeper, response, 422, before, field="Idempotency-Key")
