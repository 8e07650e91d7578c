"""The police cars in Arkham (coc7e-chases.txt "Pedal to the Metal", with "Sudden Hazards") over
HTTP with table dice: how far Harvey can see (29, 02 clear, 87 a Hard hazard), the Keeper's sudden
hazard placed by the players in front of the lead police car, P2's minor incident and its owed
movement action, P1 accelerating three locations with a penalty die, then two more to draw level.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, refused


def arkham(keeper) -> Table:
    """Harvey's car (MOV 9, one movement action) chased by two police cars (MOV 10, two each).
    Round 1 leaves the lead police car P2 one location ahead of P1 and two behind Harvey:
    P1 at 0, P2 at 1, Harvey at 3; round 2 begins, Harvey (DEX 55) to act first."""
    keeper.create("Harvey in Arkham", dice="table")
    for car, role, mov in (("Harvey's car", "quarry", 9), ("Police 2", "pursuer", 10), ("Police 1", "pursuer", 10)):
        keeper.add(kind="vehicle", name=car, role=role, mov=mov, build=5, armor=2)
    keeper.add(name="Harvey", dex=55, con=60, mov=8, hp=12, vehicle_id=keeper.ids["Harvey's car"], seat="driver", skills={"Drive Auto": 50, "Luck": 50})
    keeper.add(name="Officer Dunn", dex=50, mov=8, vehicle_id=keeper.ids["Police 2"], seat="driver", skills={"Drive Auto": 40})
    keeper.add(name="Officer Reilly", dex=45, mov=8, vehicle_id=keeper.ids["Police 1"], seat="driver", skills={"Drive Auto": 50})
    for car in ("Harvey's car", "Police 2", "Police 1"):
        keeper.speed_roll(car, [40, 0])  # Regular successes: every MOV stays as it is
    keeper.cut(opening_range=2)
    keeper.move("Harvey's car", 1)
    keeper.move("Police 2", 1)
    keeper.end_turn("Police 2")
    chase = keeper.end_turn("Police 1")
    assert chase["round"] == 2 and chase["whose_turn"] == keeper.ids["Harvey's car"]
    assert [keeper.location_of(chase, c) for c in ("Police 1", "Police 2", "Harvey's car")] == [0, 1, 3]
    return Table(keeper)


def test_the_police_cars_in_arkham(keeper):
    table = arkham(keeper)
    harvey, p1, p2 = (keeper.ids[n] for n in ("Harvey's car", "Police 1", "Police 2"))

    # Harvey's turn: "The Keeper decides that Harvey can see the next three locations, then rolls
    # randomly to determine what they are": 29 and 02 clear, 87 a hazard of Hard difficulty.
    seen = table.post(f"/participants/{harvey}/visibility", {"locations": 3, "rolls": {"location": {"3": [20, 9], "4": [0, 2], "5": [80, 7]}}})
    assert seen["outcome"]["stretches"] == [{"location": 3, "outcome": "clear"}, {"location": 4, "outcome": "clear"}, {"location": 5, "outcome": "hard"}]
    assert [r["result"] for r in seen["rolls"]] == [29, 2, 87]
    assert seen["chase"]["pursuit"]["visibility"][harvey]["sees_to"] == 6
    jam = table.place("hazard", [5, 6], name="Traffic jam", skills=["Drive Auto"], difficulty="hard")

    # "the Keeper does so now before Harvey actually moves": Harvey's player wins the Luck roll
    # (30 against 50) and puts the hazard "right in front of the police car".
    called = table.post("/sudden-hazards", {"called_by": "keeper", "roller_id": keeper.ids["Harvey"], "rolls": {"luck": [30, 0]}})
    assert called["outcome"] == {"luck_passed": True, "placed_by": "players"}
    truck = table.post("/sudden-hazards/placement", {"between": [1, 2], "name": "Delivery truck", "skills": ["Drive Auto"]}, 201)["obstacle_id"]
    obstacle = next(o for o in table.keeper.track()["obstacles"] if o["id"] == truck)
    assert (obstacle["kind"], obstacle["difficulty"]) == ("hazard", "regular")  # "Sudden hazards should be of Regular difficulty"

    # Harvey puts his foot down: 2 locations with his 1 movement action, up to the traffic jam.
    sped = table.post(f"/participants/{harvey}/accelerate", {"locations": 2})
    assert sped["outcome"]["penalty_dice"] == 1
    chase = sped["chase"]
    assert keeper.location_of(chase, "Harvey's car") == 5 and chase["whose_turn"] == p2

    # P2 spends a movement action to advance 1 location; its Drive Auto roll fails (70 against 40).
    clipped = table.negotiate("Police 2", [70, 0])
    assert clipped["outcome"] == {"passed": False, "moved_on": True, "mishap": True}
    # The Keeper chooses a "minor incident": 1 Build (1D3-1, rolled 2) and 2 (1D3) movement actions
    # (Officer Dunn, aboard, is shaken but unhurt: 1D3-1 rolled 1).
    ruled = table.consequences("Police 2", incident="minor", rolls={"damage": [2], "movement_actions": [2], "occupants": {keeper.ids["Officer Dunn"]: [1]}})
    chase = ruled["chase"]
    police2 = chase["participants"][p2]
    assert (police2["build"], police2["location"], police2["movement_actions"], police2["owed"]) == (4, 2, 0, 1)
    lost = next(e for e in reversed(keeper.events()) if e["name"] == "MovementActionsLost")["data"]
    assert (lost["lost"], lost["paid_now"], lost["owed"]) == (2, 1, 1)  # "At the end of its turn, the police car (P2) owes 1 movement action"

    # P1 accelerates 3 locations: it stops in front of the truck, "must take a penalty die", and
    # speeds through with a successful Drive Auto roll (tens 20 and 30, units 5: 35, the higher).
    assert chase["whose_turn"] == p1
    reached = table.post(f"/participants/{p1}/accelerate", {"locations": 3})
    assert (keeper.location_of(reached["chase"], "Police 1"), reached["chase"]["participants"][p1]["obstacle_ahead_id"]) == (1, truck)
    through = table.negotiate("Police 1", [20, 30, 5])
    roll = through["rolls"][0]
    assert (roll["penalty_dice"], roll["result"], roll["level"]) == (1, 35, "regular")
    chase = through["chase"]
    assert keeper.location_of(chase, "Police 1") == 3 and chase["participants"][p1]["movement_actions"] == 1  # nothing more paid to move on
    # "Harvey is now only 2 locations ahead, so with its second movement action the police car
    # moves on 2 locations to draw level with Harvey" (the traffic jam lies beyond).
    level = table.post(f"/participants/{p1}/accelerate", {"locations": 2})["chase"]
    assert keeper.location_of(level, "Police 1") == keeper.location_of(level, "Harvey's car") == 5
    assert {"pursuer_id": p1, "quarry_id": harvey, "location": 5, "round": 2} in level["caught_up"]
    assert level["participants"][p1]["obstacle_ahead_id"] == level["participants"][harvey]["obstacle_ahead_id"] == jam  # the traffic jam lies ahead of both

    # The next round: P2 owes 1 movement action, so it has 1 of its 2.
    assert level["round"] == 3
    assert [level["participants"][p]["movement_actions"] for p in (harvey, p2, p1)] == [1, 1, 2]
    names = [e["name"] for e in keeper.events()]
    assert names.count("Accelerated") == 3 and names.count("SuddenHazardCalled") == 1

    # "The Keeper is unable to call for another sudden hazard until after the players do so."
    before = keeper.events()
    refused(keeper, keeper.post("/sudden-hazards", {"called_by": "keeper", "target": 50, "rolls": {"luck": [30, 0]}}), 409, before, rule="Sudden Hazards")
    assert level["pursuit"]["sudden_hazards"]["may_call"] == ["players"]
    # "On the following round a player may choose to do so": Harvey's player, with her own token.
    player = keeper.player("Harvey")
    failed = player.ok(player.post("/sudden-hazards", {"called_by": "players", "target": 50, "rolls": {"luck": [90, 0]}}))
    assert failed["outcome"] == {"luck_passed": False, "placed_by": "keeper"}
    # The Keeper's to place: a player may not; the Keeper puts a loose dog in front of Harvey.
    assert player.post("/sudden-hazards/placement", {"between": [6, 7], "name": "Dog", "skills": ["Drive Auto"]}).status_code == 403
    dog = table.post("/sudden-hazards/placement", {"between": [6, 7], "name": "Loose dog", "skills": ["Drive Auto"]}, 201)["obstacle_id"]
    assert dog in [o["id"] for o in keeper.track()["obstacles"]] and keeper.track()["pursuit"]["sudden_hazards"]["to_place"] is None


def test_an_acceleration_announced_is_not_retracted_and_a_failed_hazard_ends_it(keeper):
    table = arkham(keeper)
    harvey = keeper.ids["Harvey's car"]
    table.place("hazard", [4, 5], name="Pedestrian", skills=["Drive Auto"])
    # Harvey announces 4 locations: two penalty dice on the hazard on the way.
    reached = table.post(f"/participants/{harvey}/accelerate", {"locations": 4})
    assert reached["outcome"]["penalty_dice"] == 2 and keeper.location_of(reached["chase"], "Harvey's car") == 4
    # With no movement action left, his turn waits on the hazard ahead: moving on is already paid.
    assert reached["chase"]["whose_turn"] == harvey
    assert reached["chase"]["pursuit"]["accelerating"][harvey]["to_location"] == 7
    # He fails (tens 60, 70, 80, units 0: 80): he crosses, but the acceleration is over.
    failed = table.negotiate("Harvey's car", [60, 70, 80, 0])
    assert failed["rolls"][0]["penalty_dice"] == 2 and failed["outcome"]["mishap"] is True
    assert keeper.location_of(failed["chase"], "Harvey's car") == 5
    assert failed["chase"]["pursuit"]["accelerating"] == {}
    assert [e["name"] for e in keeper.events()][-2:] == ["MishapIncurred", "AccelerationEnded"]
    # Undo takes the failure back: the acceleration is under way again.
    chase = keeper.ok(keeper.post("/undo", {"count": 1}))["chase"]
    assert chase["pursuit"]["accelerating"][harvey]["to_location"] == 7 and keeper.location_of(chase, "Harvey's car") == 4


def test_a_car_moves_1_to_5_locations_and_only_a_vehicle_accelerates(keeper):
    table = arkham(keeper)
    harvey = keeper.ids["Harvey's car"]
    before = keeper.events()
    for locations in (1, 6):
        refused(keeper, keeper.post(f"/participants/{harvey}/accelerate", {"locations": locations}), 422, before, field="locations")
    refused(keeper, keeper.post(f"/participants/{keeper.ids['Harvey']}/accelerate", {"locations": 2}), 409, before, rule="Dexterity and the Order of Movement")
    assert table.keeper.track()["round"] == 2


def test_undo_takes_back_what_the_driver_saw_and_the_sudden_hazard_called(keeper):
    table = arkham(keeper)
    harvey = keeper.ids["Harvey's car"]
    # The city: 1D3 rolled 2; the two stretches ahead are rolled (Regular hazard, then clear).
    seen = table.post(f"/participants/{harvey}/visibility", {"area": "city", "rolls": {"visibility": [2], "location": {"3": [60, 0], "4": [10, 0]}}})
    assert seen["outcome"]["sees"] == 2 and [s["outcome"] for s in seen["outcome"]["stretches"]] == ["regular", "clear"]
    # Looking again sees nothing new to make: no roll for a stretch already made.
    again = table.post(f"/participants/{harvey}/visibility", {"locations": 2})
    assert again["outcome"]["stretches"] == [] and again["rolls"] == []
    table.post("/sudden-hazards", {"called_by": "keeper", "target": 50, "rolls": {"luck": [90, 0]}})
    chase = keeper.track()
    assert chase["pursuit"]["sudden_hazards"]["to_place"]["placed_by"] == "keeper"
    # Undo the call, then both looks: the state is as before them; the rolls stay in the history, undone.
    chase = keeper.ok(keeper.post("/undo", {"count": 3}))["chase"]
    assert chase["pursuit"]["sudden_hazards"] == {"last_called_by": None, "may_call": ["players", "keeper"], "to_place": None}
    assert chase["pursuit"]["stretches"] == [] and chase["pursuit"]["visibility"] == {}
    assert [r["undone"] for r in keeper.rolls()][-4:] == [True, True, True, True]


def test_an_accelerating_car_stops_where_the_road_forks_and_speeds_on_down_the_route_taken(keeper):
    table = arkham(keeper)
    harvey = keeper.ids["Harvey's car"]
    keeper.ok(keeper.post("/forks", {"at": 4, "routes": ["the Aylesbury Pike", "the Dean's Corners road"]}), 201)
    # Harvey announces 4 locations: the road forks after one.
    reached = table.post(f"/participants/{harvey}/accelerate", {"locations": 4})
    assert keeper.location_of(reached["chase"], "Harvey's car") == 4 and reached["chase"]["whose_turn"] == harvey
    # He takes the Aylesbury Pike and covers the 3 locations left of the 4 announced.
    chase = keeper.ok(keeper.post(f"/participants/{harvey}/choose-route", {"route": "the Aylesbury Pike"}))["chase"]
    assert keeper.location_of(chase, "Harvey's car") == 7 and chase["whose_turn"] != harvey
