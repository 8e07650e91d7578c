"""Vehicles from coc7e-chases.txt "Vehicle Reference Charts" over HTTP, and what damage does to
their Build (the notes under the charts): impaired, wrecked, undrivable; the vehicle-build view.
"""
from __future__ import annotations

import pytest

from domain.rules.coc7e.vehicle_charts import VEHICLES, mov_1920s
from tests.e2e.coc7e_table import Table


def number(build: str) -> int | float:
    return float(build) if "." in build else int(build)


def add_unnamed(keeper, **spec) -> str:
    """Add a chart vehicle without a name: it takes the chart's."""
    body = keeper.ok(keeper.post("/participants", spec), 201)
    return body["participant_id"]


@pytest.mark.parametrize("row", VEHICLES, ids=lambda v: v.name)
def test_every_chart_vehicle_can_be_created_by_name(keeper, row):
    keeper.create("A chart vehicle")
    modern = add_unnamed(keeper, kind="vehicle", chart_vehicle=row.name.upper(), role="pursuer")
    old = keeper.add(kind="vehicle", chart_vehicle=row.name, era="1920s", name=f"Old {row.name}", role="quarry")

    chase = keeper.track()
    vehicles = {v["id"]: v for v in Table(keeper).vehicles().values()}
    for pid, era, mov in ((modern, "modern", row.mov), (old, "1920s", mov_1920s(row.mov))):
        view = vehicles[pid]
        assert (view["chart_vehicle"], view["era"], view["mov"]) == (row.name, era, mov)
        assert view["starting_build"] == view["build"] == number(row.build_printed)
        assert (view["armor"], view["driving_skill"], view["condition"], view["build_losses"]) == (row.armor, row.skill, "sound", [])
        assert chase["participants"][pid]["kind"] == "vehicle"
    assert vehicles[modern]["name"] == row.name  # the chart's name unless one is given


def test_chart_values_can_be_overridden_and_bad_chart_names_refused(keeper):
    keeper.create("Overrides")
    pid = keeper.add(kind="vehicle", chart_vehicle="Car, deluxe", name="Souped-up", role="quarry", mov=16, armor=3, build=7)
    view = Table(keeper).vehicles()["Souped-up"]
    assert (view["mov"], view["armor"], view["starting_build"], view["driving_skill"]) == (16, 3, 7, "Drive Auto")
    assert pid

    for spec, field in (
        ({"kind": "vehicle", "chart_vehicle": "Flying carpet", "role": "quarry"}, "chart_vehicle"),
        ({"kind": "character", "chart_vehicle": "Car, standard", "role": "quarry", "dex": 50, "con": 50, "mov": 8}, "chart_vehicle"),
        ({"kind": "vehicle", "chart_vehicle": "Car, standard", "era": "1890s", "role": "quarry"}, "era"),
        ({"kind": "vehicle", "name": "Cart", "mov": 8, "role": "quarry"}, "build"),
    ):
        before = keeper.events()
        response = keeper.post("/participants", spec)
        assert response.status_code == 422, response.get_json()
        assert field in [e["field"] for e in response.get_json()["errors"]]
        assert keeper.events() == before


def test_a_sports_car_seats_one_passenger_besides_its_driver(keeper):
    keeper.create("Seats")
    car = keeper.add(kind="vehicle", chart_vehicle="Sports car", name="Roadster", role="quarry")
    keeper.add(name="Amy", dex=60, mov=8, vehicle_id=car, seat="driver", skills={"Drive Auto": 60})
    keeper.add(name="Harvey", dex=55, mov=8, vehicle_id=car)
    refused = keeper.post("/participants", {"name": "Stowaway", "dex": 50, "mov": 8, "vehicle_id": car})
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "vehicle_id"


def police_car(keeper, *, build: int | None = None) -> Table:
    """A police car (standard, Build 5) with two aboard chasing Harvey on foot; the car's turn."""
    keeper.create("Police car", dice="table")
    spec = {"kind": "vehicle", "chart_vehicle": "Car, standard", "name": "Police car", "role": "pursuer"}
    if build is not None:
        spec["build"] = build
    keeper.add(**spec)
    keeper.add(name="Officer", dex=60, mov=8, vehicle_id=keeper.ids["Police car"], seat="driver", skills={"Drive Auto": 50}, hp=12)
    keeper.add(name="Sergeant", dex=50, mov=8, vehicle_id=keeper.ids["Police car"], hp=14, armor=1)
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=9, hp=12, skills={"Climb": 40})
    keeper.speed_roll("Police car", [40, 0])
    keeper.speed_roll("Harvey", [50, 0])
    chase = keeper.cut(opening_range=2)
    assert chase["whose_turn"] == keeper.ids["Police car"]
    return Table(keeper)


def test_losing_half_its_build_impairs_a_vehicle_and_costs_a_penalty_die_on_driving_rolls(keeper):
    table = police_car(keeper)
    officer, sergeant = keeper.ids["Officer"], keeper.ids["Sergeant"]
    # The Keeper rules a moderate incident (1D6 Build, 1D6 to each occupant): 3 Build.
    ruled = table.consequences("Police car", incident="moderate", delay=False, rolls={"damage": [3], "occupants": {officer: [2], sergeant: [4]}})
    view = table.vehicles()["Police car"]
    assert (view["build"], view["condition"], view["impaired"], view["penalty_dice"]) == (2, "impaired", True, 1)
    # Collision damage to occupants is not an external attack: armor for people does not apply.
    assert {o["name"]: o["damage"] for o in view["occupants"]} == {"Officer": 2, "Sergeant": 4}
    assert ruled["chase"]["participants"][keeper.ids["Police car"]]["condition"] == "impaired"

    # An impaired vehicle's Drive Auto roll to negotiate a hazard takes one penalty die.
    table.place("hazard", [1, 2], name="Pot holes", skills=["Drive Auto"])
    keeper.move("Police car", 1)
    crossed = table.negotiate("Police car", [10, 40, 5])
    roll = crossed["rolls"][0]
    assert (roll["penalty_dice"], roll["result"], roll["level"], roll["roller"]) == (1, 45, "regular", officer)


def test_undrivable_at_zero_build_by_cumulative_damage_with_an_accident(keeper):
    table = police_car(keeper)
    officer, sergeant = keeper.ids["Officer"], keeper.ids["Sergeant"]
    for build_rolled in ([2], [2]):
        table.consequences("Police car", incident="moderate", delay=False, rolls={"damage": build_rolled, "occupants": {officer: [1], sergeant: [1]}})
    assert table.vehicles()["Police car"]["build"] == 1

    # 1 more Build, less than its starting 5 in one incident: undrivable, not wrecked. The Keeper
    # rules that grinding to a halt was an accident: 1D10 to each occupant.
    last = table.consequences(
        "Police car", incident="moderate", delay=False, aftermath={"accident": True},
        rolls={"damage": [1], "occupants": {officer: [1], sergeant: [1]}, "accident": {officer: [6], sergeant: [9]}},
    )

    view = table.vehicles()["Police car"]
    assert (view["build"], view["condition"], view["undrivable"], view["wrecked"], view["status"]) == (0, "undrivable", True, False, "out")
    assert {o["name"]: (o["damage"], o["status"]) for o in view["occupants"]} == {"Officer": (3 + 6, "out"), "Sergeant": (3 + 9, "out")}
    assert [loss["build_after"] for loss in view["build_losses"]] == [3, 1, 0]
    assert last["chase"]["participants"][keeper.ids["Police car"]]["location"] is None
    out = next(e for e in keeper.events() if e["name"] == "VehicleOutOfAction")["data"]
    assert (out["condition"], out["accident"], out["fates"]) == ("undrivable", True, {})


def test_wrecked_by_one_incident_equal_to_its_full_build_with_the_occupants_fate_as_ruled(keeper):
    table = police_car(keeper)
    officer, sergeant = keeper.ids["Officer"], keeper.ids["Sergeant"]
    # Mayhem (2D10 Build): 12 in one incident, at least the car's full Build of 5: wrecked. The
    # Keeper rules the officer thrown free (2D10) and the sergeant killed.
    table.consequences(
        "Police car", incident="mayhem", delay=False, aftermath={"fates": {officer: "thrown free", sergeant: "killed"}},
        rolls={"damage": [5, 7], "occupants": {officer: [1, 1], sergeant: [10, 10]}, "thrown_free": {officer: [3, 4]}},
    )

    view = table.vehicles()["Police car"]
    assert (view["build"], view["condition"], view["wrecked"]) == (0, "wrecked", True)
    occupants = {o["name"]: o for o in view["occupants"]}
    assert (occupants["Officer"]["fate"], occupants["Officer"]["damage"]) == ("thrown free", 2 + 7)
    assert (occupants["Sergeant"]["fate"], occupants["Sergeant"]["status"]) == ("killed", "out")
    assert view["build_losses"][0]["build_lost"] == 5 and view["build_losses"][0]["condition_after"] == "wrecked"
    # A wreck is out of action: no more damage to it.
    refused = keeper.post(f"/participants/{keeper.ids['Police car']}/consequences", {"incident": "minor", "rolls": {"damage": [3]}})
    assert refused.status_code == 409 and "Vehicle Reference Charts" in refused.get_json()["rule"]


def test_a_bicycle_keeps_its_half_point_of_build(keeper):
    keeper.create("Bicycle")
    add_unnamed(keeper, kind="vehicle", chart_vehicle="Bicycle", role="quarry")
    view = Table(keeper).vehicles()["Bicycle"]
    assert (view["starting_build"], view["build"], view["driving_skill"], view["mov"]) == (0.5, 0.5, "Ride", 10)
