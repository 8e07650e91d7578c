"""Size and Scale in attacks over HTTP, with table dice and a physical deck (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Size/Scale": "Tiny -6, Very
Small -4, Small -2, Large +2, Huge +4, Gargantuan +6. Add difference vs larger targets; Subtract
difference against smaller targets." Every participant has a Scale (Normal by default); the
attack's log names the "Scale" modifier.
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def truck_and_drone(client) -> SavageTable:
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Truck", "chaser", "Tess", scale="Large", toughness=14)
    table.add(name="Drone", role="quarry", kind="vehicle", scale="Very Small", toughness=4, top_speed=40)
    table.add(name="Pilot", with_id="Drone", seat="driver", maneuver_die="d8")
    table.begin(mode="vehicular", placements={"Truck": 3, "Drone": 3}, row=ROW)
    table.deal(Truck="KH", Drone="5D")
    return table


def test_a_man_shooting_at_a_very_small_drone_subtracts_four(client):
    table = truck_and_drone(client)
    body = table.act("Tess", "attack", target_id="Drone", trait_die="d8", table_dice=[8, 4, 2])

    roll = body["rolls"][0]
    # Normal (0) against Very Small (-4): -4; the Truck's Unstable Platform -2 in the chase modifier.
    assert roll["modifiers"]["Scale"] == -4 and roll["total"] == 10 - 4 - 2


def test_the_drone_shooting_back_at_the_large_truck_adds_the_difference(client):
    table = truck_and_drone(client)
    table.end_turn("Truck")
    # The Drone's pilot is Normal and shoots the Large Truck: +2.
    body = table.act("Pilot", "attack", target_id="Truck", trait_die="d8", table_dice=[2, 1])
    assert body["rolls"][0]["modifiers"]["Scale"] == 2
    # Shooting at the Truck's driver, a man: no Scale modifier.
    body = table.act("Pilot", "attack", target_id="Tess", trait_die="d8", table_dice=[2, 1])
    assert "Scale" not in body["rolls"][0]["modifiers"]


def test_a_very_small_drone_cannot_ram(client):
    table = truck_and_drone(client)
    problem = table.refused(
        f"/swade/participants/{table.ids['Truck']}/ram", {"target_id": table.ids["Drone"], "table_dice": [7, 5], "defender_table_dice": [3, 2]}, 409
    )
    assert "RAM" in problem["rule"] and "Very Small" in problem["detail"]


def test_deluxe_attacks_take_the_scale_too(client):
    table = SavageTable(client, "swd")
    table.add(name="Hunter", role="chaser", maneuver_die="d8", spirit="d6", toughness=6, pace=6)
    table.add(name="Beast", role="quarry", maneuver_die="d6", spirit="d6", wild_card=False, toughness=12, pace=6, scale="Huge")
    table.begin()
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["KH"])
    table.act("Beast", "maneuver", table_dice=[2])
    body = table.act("Hunter", "attack", target_id="Beast", trait_die="d8", table_dice=[2, 1])
    assert body["rolls"][0]["modifiers"]["Scale"] == 4 and body["rolls"][0]["total"] == 6
