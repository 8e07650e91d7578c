"""The worked examples of coc7e-chases.txt part 4 with vehicles, over HTTP with table dice.

"Using Fighting Maneuvers in a Chase": the cultist's truck pushes Harvey's car off the road
(opposed Drive Auto, Hard beats Regular; automatic minor incident: 1 Build, 2 (1D3) movement
actions and 2 (1D3) hit points). "Vehicles in combat": a car deals 50 (5D10) to a light
motorcycle and, the motorcycle having Build 1, loses only 1 Build itself.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table


def truck_and_car(keeper) -> Table:
    """The cultist's 6-ton truck one location behind Harvey's standard car; the truck's turn.

    Speed rolls: the cultist's Extreme Drive Auto lifts the truck to MOV 14, Harvey fails his (car
    MOV 13). The truck has 2 movement actions, the car 1; the cultist (DEX 60) acts first."""
    keeper.create("The cultist's truck", dice="table")
    keeper.add(kind="vehicle", chart_vehicle="6-ton truck", name="Truck", role="pursuer")
    keeper.add(name="Cultist", dex=60, mov=8, vehicle_id=keeper.ids["Truck"], seat="driver", skills={"Drive Auto": 60}, hp=12)
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Harvey's car", role="quarry")
    keeper.add(name="Harvey", dex=55, mov=8, vehicle_id=keeper.ids["Harvey's car"], seat="driver", skills={"Drive Auto": 50}, hp=12)
    keeper.speed_roll("Truck", [10, 0])  # 10 against 60: extreme, MOV 13 -> 14
    keeper.speed_roll("Harvey's car", [90, 0])  # 90 against 50: failure, MOV 14 -> 13
    chase = keeper.cut(opening_range=1)
    assert chase["whose_turn"] == keeper.ids["Truck"]
    chase = keeper.move("Truck", 1)  # level with Harvey's car, one movement action left
    assert keeper.location_of(chase, "Truck") == keeper.location_of(chase, "Harvey's car")
    return Table(keeper)


def test_the_cultists_truck_pushes_harveys_car_off_the_road(keeper):
    table = truck_and_car(keeper)

    # A fighting maneuver with Drive Auto; Harvey dodges with Drive Auto. The truck (Build 7) is
    # bigger than the car (Build 5): no penalty dice. Cultist 25 (Hard), Harvey 40 (Regular).
    push = table.attack("Truck", "Harvey's car", method="maneuver", response="dodge", rolls={"attack": [20, 5], "defence": [40, 0]})

    assert [(r["skill"], r["level"], r["penalty_dice"]) for r in push["rolls"]] == [("Drive Auto", "hard", 0), ("Drive Auto", "regular", 0)]
    assert [r["roller"] for r in push["rolls"]] == [keeper.ids["Cultist"], keeper.ids["Harvey"]]
    assert push["outcome"]["winner"] == "attacker" and push["outcome"]["target_hit"]
    car = table.who(push["chase"], "Harvey's car")
    assert car["mishap"]["kind"] == "maneuver" and car["mishap"]["default_incident"] == "minor"
    truck = table.who(push["chase"], "Truck")
    assert truck["movement_actions"] == 0  # initiating the maneuver cost its last movement action

    # The Keeper inflicts the automatic "minor incident" (the default): Build 1 (1D3-1 rolled 2),
    # movement actions 2 (1D3), and Harvey's hit points 2 (1D3-1 rolled 3).
    ruled = table.consequences("Harvey's car", rolls={"damage": [2], "movement_actions": [2], "occupants": {keeper.ids["Harvey"]: [3]}})

    assert ruled["outcome"]["incident"] == "minor"
    assert [r["expression"] for r in ruled["rolls"]] == ["1D3-1", "1D3-1", "1D3"]
    chase = ruled["chase"]
    assert table.who(chase, "Harvey")["damage"] == 2
    car = table.who(chase, "Harvey's car")
    # The truck's turn ended with its last movement action, so the car's turn had begun with its
    # one: 1 paid now, 1 owed; the car's turn is over, and the debt takes round 2's only action.
    lost = next(e for e in reversed(keeper.events()) if e["name"] == "MovementActionsLost")["data"]
    assert (lost["lost"], lost["paid_now"], lost["owed"]) == (2, 1, 1)
    assert chase["round"] == 2 and (car["movement_actions"], car["owed"]) == (0, 0)
    view = table.vehicles()["Harvey's car"]
    assert (view["starting_build"], view["build"], view["condition"]) == (5, 4, "sound")
    assert view["build_losses"] == [
        {
            "version": view["build_losses"][0]["version"], "round": 1, "cause": "fighting maneuver by Truck", "hit_points": None,
            "build_lost": 1, "build_before": 5, "build_after": 4, "condition_after": "sound", "limited": False,
            "roll_sequence": ruled["rolls"][0]["sequence"],
        }
    ]
    assert [o["name"] for o in view["occupants"]] == ["Harvey"] and view["occupants"][0]["hp_left"] == 10


def car_and_motorcycle(keeper) -> Table:
    """A standard car (Build 5) level with a light motorcycle (Build 1); the car's turn, 1 left."""
    keeper.create("A car and a motorcycle", dice="table")
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Car", role="pursuer")
    keeper.add(name="Driver", dex=60, mov=8, vehicle_id=keeper.ids["Car"], seat="driver", skills={"Drive Auto": 60})
    keeper.add(kind="vehicle", chart_vehicle="Motorcycle, light", name="Motorcycle", role="quarry")
    keeper.add(name="Rider", dex=50, mov=8, vehicle_id=keeper.ids["Motorcycle"], seat="driver", skills={"Drive Auto": 40}, hp=11)
    keeper.speed_roll("Car", [40, 0])  # regular: MOV 14
    keeper.speed_roll("Motorcycle", [30, 0])  # regular: MOV 13
    keeper.cut(opening_range=1)
    chase = keeper.move("Car", 1)
    assert chase["whose_turn"] == keeper.ids["Car"]
    return Table(keeper)


def test_the_car_that_deals_50_to_a_light_motorcycle_loses_only_1_build(keeper):
    table = car_and_motorcycle(keeper)
    rider = keeper.ids["Rider"]

    # The car rams (Drive Auto for Fighting), the rider dodges (Drive Auto for Dodge); the car
    # wins, 5D10 for its Build 5 comes up 50. The rider is thrown free (the default): 2D10.
    ram = table.attack(
        "Car", "Motorcycle", method="fighting", response="dodge",
        rolls={"attack": [20, 0], "defence": [60, 0], "damage": [10, 10, 10, 10, 10], "thrown_free": {rider: [4, 3]}},
    )

    assert ram["outcome"]["winner"] == "attacker"
    assert [r["expression"] for r in ram["rolls"][2:]] == ["5D10", "2D10"]
    vehicles = table.vehicles()
    # 50 damage: 5 Build in one incident, at least the motorcycle's full Build of 1: wrecked.
    motorcycle = vehicles["Motorcycle"]
    assert (motorcycle["build"], motorcycle["condition"], motorcycle["wrecked"], motorcycle["status"]) == (0, "wrecked", True, "out")
    assert motorcycle["occupants"] == [
        {"id": rider, "name": "Rider", "seat": "driver", "hp": 11, "damage": 7, "hp_left": 4, "status": "out", "fate": "thrown free"}
    ]
    # The car suffers 25 (half of 50), 2 Build worth, limited to the motorcycle's Build of 1.
    car = vehicles["Car"]
    assert (car["build"], car["condition"]) == (4, "sound")
    assert car["build_losses"][0]["hit_points"] == 25 and car["build_losses"][0]["build_lost"] == 1 and car["build_losses"][0]["limited"]
    assert car["build_losses"][0]["cause"] == "recoil: dealt 50 to Motorcycle"
    assert motorcycle["build_losses"][0]["hit_points"] == 50 and motorcycle["build_losses"][0]["build_lost"] == 1
    names = [e["name"] for e in keeper.events()]
    assert names.count("BuildLost") == 2 and "VehicleOutOfAction" in names
    # The motorcycle is out of the chase; with no one left to flee, no new round begins.
    assert ram["chase"]["participants"][keeper.ids["Motorcycle"]]["location"] is None


def test_a_character_fighting_back_against_a_car_lands_a_blow_of_their_own(keeper):
    keeper.create("Harvey and the car", dice="table")
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Car", role="pursuer")
    keeper.add(name="Driver", dex=60, mov=8, vehicle_id=keeper.ids["Car"], seat="driver", skills={"Drive Auto": 40})
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=9, hp=12, skills={"Fighting (Brawl)": 70})
    keeper.speed_roll("Car", [30, 0])
    keeper.speed_roll("Harvey", [50, 0])
    keeper.cut(opening_range=1, staying=[])
    table = Table(keeper)
    keeper.move("Car", 1)

    # The car rams (Driver's Drive Auto 40: 35, Regular); Harvey fights back (Fighting 70: 20, Hard)
    # and wins: he avoids the car and lands 1D3+DB (3) on it, below 10: no Build lost.
    clash = table.attack("Car", "Harvey", response="fight back", rolls={"attack": [30, 5], "defence": [20, 0], "counter_damage": [3]})

    assert clash["outcome"]["winner"] == "defender" and clash["outcome"]["attacker_hit"]
    assert table.vehicles()["Car"]["build"] == 5 and table.vehicles()["Car"]["build_losses"] == []
    assert table.who(clash["chase"], "Harvey")["damage"] == 0


def test_a_passenger_shoots_harvey_and_his_cars_armor_takes_2_off(keeper):
    # Part 5, "Driver Damage": "A passenger in another vehicle fires a handgun at Harvey. A Regular
    # success ... 1D10 damage ... 10 damage. Harvey's vehicle armor reduces this by 2, so Harvey
    # takes 8 hit points damage." (Armor for people protects driver and passengers.)
    keeper.create("Shots in Arkham", dice="table")
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Police car", role="pursuer")
    keeper.add(name="Officer", dex=50, mov=8, vehicle_id=keeper.ids["Police car"], seat="driver", skills={"Drive Auto": 50})
    keeper.add(name="Gunman", dex=70, mov=8, vehicle_id=keeper.ids["Police car"], skills={"Firearms (Handgun)": 50})
    keeper.add(kind="vehicle", chart_vehicle="Car, standard", name="Harvey's car", role="quarry")
    keeper.add(name="Harvey", dex=55, mov=8, vehicle_id=keeper.ids["Harvey's car"], seat="driver", skills={"Drive Auto": 50}, hp=15)
    keeper.speed_roll("Police car", [40, 0])
    keeper.speed_roll("Harvey's car", [40, 0])
    chase = keeper.cut()
    assert chase["whose_turn"] == keeper.ids["Gunman"]  # DEX 70: the passenger acts first
    table = Table(keeper)

    shot = table.attack("Gunman", "Harvey", method="firearm", damage="1D10", rolls={"attack": [30, 0], "damage": [10]})

    assert shot["rolls"][0]["level"] == "regular" and shot["outcome"]["target_hit"]
    harvey = table.who(shot["chase"], "Harvey")
    assert (harvey["damage"], harvey["hp_left"]) == (8, 7)
    taken = next(e for e in reversed(keeper.events()) if e["name"] == "DamageTaken")["data"]
    assert (taken["rolled"], taken["armor"], taken["taken"]) == (10, 2, 8)
    # A passenger acts once on their turn, with no movement actions to spend.
    assert shot["chase"]["whose_turn"] != keeper.ids["Gunman"]
