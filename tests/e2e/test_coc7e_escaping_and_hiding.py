"""Escaping and hiding (coc7e-chases.txt "Escaping the Pursuer" and the hiding that follows it)
over HTTP with table dice: the deep one's Tracking roll, Harvey hiding from the deep one, Amy's
car in the garage.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, refused

HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 8, "hp": 12, "skills": {"Stealth": 40}}
DEEP_ONE = {"name": "Deep one", "kind": "creature", "role": "pursuer", "dex": 50, "con": 50, "mov": 8, "hp": 14}


def the_theater(keeper) -> Table:
    """The deep one (MOV 8) chases Harvey (MOV 8) out of the abandoned theater: Harvey at 2, the deep one at 0."""
    keeper.create("The abandoned theater", dice="table")
    keeper.add(**HARVEY)
    keeper.add(**DEEP_ONE)
    keeper.speed_roll("Harvey", [40, 0])
    keeper.speed_roll("Deep one", [40, 0])
    keeper.cut(opening_range=2)
    return Table(keeper)


def test_the_deep_one_loses_harveys_trail_and_the_chase_is_over(keeper):
    table = the_theater(keeper)
    keeper.move("Harvey", 1)  # Harvey is out of the theater, 3 locations ahead
    # "As the deep one exits the theater, the Keeper makes a Tracking roll": no Track listed, the
    # Keeper gives it 30; 75 fails. "If not, the chase is over."
    lost = table.post(f"{table.participant('Deep one')}/follow-trail", {"quarry_id": keeper.ids["Harvey"], "target": 30, "rolls": {"skill": [70, 5]}})
    assert lost["outcome"] == {"kept": False, "chase_over": True}
    assert (lost["rolls"][0]["skill"], lost["rolls"][0]["result"]) == ("Track", 75)
    chase = lost["chase"]
    assert chase["phase"] == "ended" and chase["participants"][keeper.ids["Deep one"]]["status"] == "left_behind"
    assert [e["name"] for e in keeper.events()][-3:] == ["TrailFollowed", "ChaseEnded", "SeedRevealed"]  # the seed is revealed at the end
    # Undo: the roll no longer counts; the chase is on again.
    chase = keeper.ok(keeper.post("/undo", {"count": 1}))["chase"]
    assert chase["phase"] == "running" and chase["participants"][keeper.ids["Deep one"]]["status"] == "in_chase"


def test_the_deep_one_picks_up_the_trail(keeper):
    table = the_theater(keeper)
    keeper.move("Harvey", 1)
    kept = table.post(f"{table.participant('Deep one')}/follow-trail", {"quarry_id": keeper.ids["Harvey"], "target": 30, "rolls": {"skill": [20, 5]}})
    assert kept["outcome"] == {"kept": True, "chase_over": False}
    assert kept["chase"]["phase"] == "running" and kept["chase"]["whose_turn"] == keeper.ids["Deep one"]


def test_harvey_hides_from_the_deep_one_and_is_found(keeper):
    table = the_theater(keeper)
    # Deep ones have no Spot Hidden; the Keeper judges it below 50%: Regular. Two bonus dice for a
    # good lead and plenty of hiding places. "Harvey's player rolls 45, 65, and 75—all failures."
    hid = table.post(f"{table.participant('Harvey')}/hide", {"difficulty": "regular", "bonus_dice": 2, "rolls": {"stealth": [40, 60, 70, 5]}})
    roll = hid["rolls"][0]
    assert (roll["skill"], roll["bonus_dice"], roll["result"], roll["level"]) == ("Stealth", 2, 45, "failure")
    assert hid["outcome"]["hidden"] is False and hid["outcome"]["found"] is True and hid["outcome"]["escaped"] is False
    # "bursts out of his cover, only to find himself trapped": still in the chase.
    assert hid["chase"]["participants"][keeper.ids["Harvey"]]["status"] == "in_chase"
    assert keeper.events()[-1]["name"] == "HidingAttempted"


def test_harvey_hidden_evades_a_searcher_who_fails_spot_hidden(keeper):
    table = the_theater(keeper)
    hid = table.post(f"{table.participant('Harvey')}/hide", {
        "bonus_dice": 1, "searcher_id": keeper.ids["Deep one"], "search_target": 25, "rolls": {"stealth": [30, 50, 2], "spot_hidden": [60, 0]},
    })
    assert hid["outcome"]["hidden"] is True and hid["outcome"]["escaped"] is True
    assert [r["skill"] for r in hid["rolls"]] == ["Stealth", "Spot Hidden"]
    # The only quarry has evaded capture: the chase is over.
    assert hid["chase"]["phase"] == "ended"


def test_amys_car_in_the_garage(keeper):
    keeper.create("Amy's car", dice="table")
    keeper.add(kind="vehicle", name="Amy's car", role="quarry", mov=14, build=5, armor=2)
    keeper.add(name="Amy", dex=60, mov=8, vehicle_id=keeper.ids["Amy's car"], seat="driver", skills={"Drive Auto": 60, "Stealth": 40})
    keeper.add(kind="vehicle", name="Sedan", role="pursuer", mov=14, build=5, armor=2)
    keeper.add(name="Driver", dex=50, mov=8, vehicle_id=keeper.ids["Sedan"], seat="driver", skills={"Drive Auto": 50})
    keeper.speed_roll("Amy's car", [40, 0])
    keeper.speed_roll("Sedan", [40, 0])
    keeper.cut(opening_range=2)
    table = Table(keeper)
    # "Amy rolls 47, a Regular success for Drive Auto but not for Stealth; her pursuers spot her."
    before = keeper.events()
    refused(keeper, keeper.post(f"{table.participant('Amy')}/hide", {"rolls": {"stealth": [40, 7]}}), 409, before, rule="Hiding")  # the car hides, Amy with it
    car = keeper.ids["Amy's car"]
    hid = table.post(f"/participants/{car}/hide", {"difficulty": "regular", "rolls": {"stealth": [40, 7]}})
    assert hid["outcome"]["levels"] == {"Stealth": "failure", "Drive Auto": "regular"}
    assert hid["outcome"]["failed_skills"] == ["Stealth"] and hid["outcome"]["hidden"] is False
    assert hid["rolls"][0]["result"] == 47 and hid["rolls"][0]["roller"] == keeper.ids["Amy"]


def test_hiding_and_tracking_are_refused_when_the_chase_does_not_use_them(keeper):
    body = keeper.ok(keeper.http.post("/chases", json={"name": "No hiding", "dice": "table", "optional_rules": ["pedal_to_the_metal"]}), 201)
    keeper.chase_id, keeper.http.token = body["chase"]["chase_id"], body["keeper_token"]
    for spec in (HARVEY, DEEP_ONE):
        keeper.add(**spec)
        keeper.speed_roll(spec["name"], [40, 0])
    keeper.cut()
    table = Table(keeper)
    before = keeper.events()
    body = refused(keeper, keeper.post(f"{table.participant('Harvey')}/hide", {"rolls": {"stealth": [40, 7]}}), 409, before, rule="Escaping the Pursuer")
    assert "escaping_and_hiding" in body["detail"]
    refused(keeper, keeper.post(f"{table.participant('Deep one')}/follow-trail", {"quarry_id": keeper.ids["Harvey"], "target": 30}), 409, before, rule="Escaping the Pursuer")
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/hide", {"difficulty": "impossible"}), 422, before, field="difficulty")
