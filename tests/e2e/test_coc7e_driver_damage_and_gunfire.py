"""Driver damage, ranged attacks during a chase, tires and navigating passengers (coc7e-chases.txt
"Driver Damage", "Ranged Attacks During a Chase", "Passengers") over HTTP with table dice.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, refused

REVOLVER = ".38 or 9mm Revolver"
SHOTGUN = "12-gauge Shotgun (2B)"


def cultists_after_harvey(keeper, harvey_hp: int = 12) -> Table:
    """Harvey drives (car armor 2, Build 5); the cultists' car follows, a gunman aboard. Equal MOV:
    one movement action each. The cultists' car at 0, Harvey's at 2; the gunman (DEX 70) acts first."""
    keeper.create("Cultists on the Aylesbury Pike", dice="table")
    keeper.add(kind="vehicle", name="Harvey's car", role="quarry", mov=10, build=5, armor=2)
    keeper.add(name="Harvey", dex=55, con=60, mov=8, hp=harvey_hp, vehicle_id=keeper.ids["Harvey's car"], seat="driver", skills={"Drive Auto": 50})
    keeper.add(kind="vehicle", name="Cultists' car", role="pursuer", mov=10, build=5, armor=2)
    keeper.add(name="Cultist driver", dex=40, mov=8, hp=11, vehicle_id=keeper.ids["Cultists' car"], seat="driver", skills={"Drive Auto": 40})
    keeper.add(name="Gunman", dex=70, mov=8, hp=11, vehicle_id=keeper.ids["Cultists' car"], skills={"Firearms (Handgun)": 50, "Navigate": 40, "Spot Hidden": 50},
               weapons=[{"weapon": REVOLVER}, {"weapon": SHOTGUN}])
    keeper.speed_roll("Harvey's car", [40, 0])
    keeper.speed_roll("Cultists' car", [30, 0])
    chase = keeper.cut(opening_range=2)
    assert chase["whose_turn"] == keeper.ids["Gunman"]
    return Table(keeper)


def test_the_driver_damage_example(keeper):
    table = cultists_after_harvey(keeper)
    harvey, car = keeper.ids["Harvey"], keeper.ids["Harvey's car"]
    # "A passenger in another vehicle fires a handgun at Harvey. A Regular success is rolled ...
    # 1D10 damage is rolled, resulting in 10 damage. Harvey's vehicle armor reduces this by 2."
    shot = table.attack("Gunman", "Harvey", weapon=REVOLVER, distance_yards=10, rolls={"attack": [40, 0], "damage": [10], "con": {harvey: [30, 0]}})
    assert shot["rolls"][0]["level"] == "regular"
    taken = next(e for e in reversed(keeper.events()) if e["name"] == "DamageTaken")["data"]
    assert (taken["rolled"], taken["armor"], taken["taken"]) == (10, 2, 8)
    # "This is a major wound for Harvey, who wins a CON roll to remain conscious."
    driver = table.who(shot["chase"], "Harvey")
    assert (driver["major_wound"], driver["unconscious"], driver["hp_left"]) == (True, False, 4)
    assert shot["chase"]["pursuit"]["keep_control_due"] == [harvey]
    # "He must now make a Drive Auto roll to keep control of his vehicle. He fails the roll" (Hard: 70 against 50).
    lost = table.post(f"/participants/{harvey}/keep-control", {"rolls": {"skill": [70, 0]}})
    roll = lost["rolls"][0]
    assert (roll["skill"], roll["difficulty"], roll["level"]) == ("Drive Auto", "hard", "failure")
    assert lost["outcome"] == {"kept_control": False, "unconscious": False}
    mishap = lost["chase"]["participants"][car]["mishap"]
    assert (mishap["difficulty"], mishap["default_incident"]) == ("hard", "moderate")
    assert lost["chase"]["pursuit"]["keep_control_due"] == []
    # The Keeper chooses "moderate incident" (the Hard default): 1 (1D6) Build, 3 (1D3) movement
    # actions, and 2 (1D6) hit points for Harvey. "His location remains unaltered."
    ruled = table.consequences("Harvey's car", rolls={"damage": [1], "movement_actions": [3], "occupants": {harvey: [2]}})
    assert ruled["outcome"]["incident"] == "moderate"
    chase = ruled["chase"]
    assert chase["participants"][car]["build"] == 4 and table.who(chase, "Harvey")["damage"] == 10
    assert keeper.location_of(chase, "Harvey's car") == 2
    # A second roll for the same wound is refused.
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{harvey}/keep-control", {"rolls": {"skill": [10, 0]}}), 409, before, rule="Driver Damage")


def test_a_driver_knocked_unconscious_loses_control_without_a_roll(keeper):
    table = cultists_after_harvey(keeper)
    harvey = keeper.ids["Harvey"]
    # The Keeper's 8 damage in one blow; Harvey fails the CON roll (90) and falls unconscious.
    table.post(f"/participants/{harvey}/damage", {"amount": 8, "rolls": {"con": {harvey: [90, 0]}}})
    lost = table.post(f"/participants/{harvey}/keep-control", {})
    assert lost["outcome"] == {"kept_control": False, "unconscious": True} and lost["rolls"] == []
    assert lost["chase"]["participants"][keeper.ids["Harvey's car"]]["mishap"]["default_incident"] == "moderate"


def test_only_a_major_wound_calls_for_the_roll_not_lesser_blows_adding_up(keeper):
    table = cultists_after_harvey(keeper, harvey_hp=40)
    harvey = keeper.ids["Harvey"]
    # A blow of 20 is a major wound (half of 40); Harvey stays conscious (CON 30) and keeps control (10, Hard).
    table.post(f"/participants/{harvey}/damage", {"amount": 20, "rolls": {"con": {harvey: [30, 0]}}})
    kept = table.post(f"/participants/{harvey}/keep-control", {"rolls": {"skill": [10, 0]}})
    assert kept["outcome"]["kept_control"] is True
    # Two lesser blows of 10 add up to another half of his hit points, but "Driver Damage" is
    # about one blow that is a major wound (counted per blow, as coc7e-combat.txt "Major Wound"
    # reads it): neither calls for a roll, not even the one that leaves him at zero.
    table.post(f"/participants/{harvey}/damage", {"amount": 10, "rolls": {"con": {harvey: [30, 0]}}})
    after = table.post(f"/participants/{harvey}/damage", {"amount": 10, "rolls": {"con": {harvey: [30, 0]}}})
    assert table.who(after["chase"], "Harvey")["hp_left"] == 0
    assert after["chase"]["pursuit"]["keep_control_due"] == []
    before = keeper.events()
    refused(keeper, keeper.post(f"/participants/{harvey}/keep-control", {"rolls": {"skill": [10, 0]}}), 409, before, rule="Driver Damage")


def test_shooting_on_the_move_takes_a_penalty_die_and_no_movement_action(keeper):
    keeper.create("Harvey shoots back", dice="table")
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=9, hp=12, skills={"Firearms (Handgun)": 50}, weapons=[{"weapon": REVOLVER}])
    keeper.add(name="Thug", role="pursuer", dex=50, con=50, mov=9, hp=12)
    keeper.speed_roll("Harvey", [40, 0])
    keeper.speed_roll("Thug", [40, 0])
    keeper.cut(opening_range=2)
    table = Table(keeper)
    # Harvey races on and fires: tens 20 and 60, units 0: 60 kept with the penalty die, a miss.
    shot = table.post(f"{table.participant('Harvey')}/attack-on-the-move", {
        "target_id": keeper.ids["Thug"], "weapon": REVOLVER, "distance_yards": 10, "rolls": {"attack": [20, 60, 0]},
    })
    assert (shot["rolls"][0]["penalty_dice"], shot["rolls"][0]["result"], shot["outcome"]["target_hit"]) == (1, 60, False)
    harvey = table.who(shot["chase"], "Harvey")
    assert harvey["movement_actions"] == 1 and shot["chase"]["whose_turn"] == keeper.ids["Harvey"]  # still his to move
    assert [e["name"] for e in keeper.events()][-4:] == ["FiredOnTheMove", "SkillRolled", "ShotsFired", "AttackMade"]
    # Undo: the shot and its round are back.
    chase = keeper.ok(keeper.post("/undo", {"count": 1}))["chase"]
    assert table.who(chase, "Harvey")["weapons"][0]["loaded"] == 6


def test_a_tire_burst_by_a_revolver_costs_the_car_a_point_of_build(keeper):
    table = cultists_after_harvey(keeper)
    car = keeper.ids["Harvey's car"]
    # The gunman aims at a tire: one penalty die for its size (tens 10, 50, units 0: 50, made at 50).
    shot = table.post(f"{table.participant('Gunman')}/shoot-tire", {"vehicle_id": car, "weapon": REVOLVER, "rolls": {"attack": [10, 50, 0], "damage": [6]}})
    assert shot["rolls"][0]["penalty_dice"] == 1 and shot["rolls"][0]["level"] == "regular"
    # 6 damage less the tire's armor 3: 3, two or more: it bursts, and the car loses 1 Build.
    assert shot["outcome"] == {"hit": True, "burst": True, "taken": 3, "malfunction": None}
    chase = shot["chase"]
    assert chase["participants"][car]["build"] == 4 and chase["pursuit"]["burst_tires"] == {car: 1}
    assert table.who(chase, "Gunman")["weapons"][0]["loaded"] == 5
    assert chase["whose_turn"] != keeper.ids["Gunman"]  # a passenger acts once


def test_only_impaling_weapons_harm_tires(keeper):
    table = cultists_after_harvey(keeper)
    before = keeper.events()
    # "Tires ... are only damaged by impaling weapons": the gunman's shotgun is refused, unfired.
    body = refused(keeper, keeper.post(f"{table.participant('Gunman')}/shoot-tire", {"vehicle_id": keeper.ids["Harvey's car"], "weapon": SHOTGUN}), 409, before, rule="Ranged Attacks During a Chase")
    assert "impal" in body["detail"]
    refused(keeper, keeper.post(f"{table.participant('Gunman')}/shoot-tire", {"vehicle_id": keeper.ids["Harvey"], "weapon": REVOLVER}), 422, before, field="vehicle_id")


def test_a_navigator_lets_the_car_accelerate_with_one_fewer_penalty_die(keeper):
    table = cultists_after_harvey(keeper)
    cultists = keeper.ids["Cultists' car"]
    # The gunman reads the road instead of shooting: Navigate 40, rolled 25.
    helped = table.post(f"{table.participant('Gunman')}/navigate", {"rolls": {"skill": [20, 5]}})
    assert helped["outcome"] == {"success": True} and helped["chase"]["pursuit"]["navigated"] == [cultists]
    keeper.end_turn("Harvey's car")
    # "the vehicle might advance up to 3 locations with no penalty die".
    sped = table.post(f"/participants/{cultists}/accelerate", {"locations": 3})
    assert sped["outcome"]["penalty_dice"] == 0 and sped["outcome"]["navigated"] is True
    assert sped["chase"]["pursuit"]["navigated"] == []  # once
