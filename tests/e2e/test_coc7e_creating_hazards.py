"""Characters creating hazards (coc7e-chases.txt "Characters Creating Hazards") over HTTP with table
dice: Harvey's pistol in the crowd, a door secured, a wardrobe against a door, a door locked with
Locksmith; and every optional rule of this part refused (409, naming it) when the chase does not use it.
"""
from __future__ import annotations

import pytest

from tests.e2e.coc7e_table import Table, refused

REVOLVER = ".38 or 9mm Revolver"


def new_york(keeper, *, optional_rules: list[str] | None = None) -> Table:
    """Harvey on the run in the streets of New York, a thug after him; equal MOV: one movement
    action each. The thug at 0, Harvey at 2, Harvey's turn."""
    body = {"name": "Harvey in New York", "dice": "table"} | ({"optional_rules": optional_rules} if optional_rules is not None else {})
    created = keeper.ok(keeper.http.post("/chases", json=body), 201)
    keeper.chase_id, keeper.http.token = created["chase"]["chase_id"], created["keeper_token"]
    keeper.add(name="Harvey", role="quarry", dex=55, con=60, mov=8, hp=12, skills={"Luck": 45, "Locksmith": 50, "Firearms (Handgun)": 40}, weapons=[{"weapon": REVOLVER}])
    keeper.add(name="Thug", role="pursuer", dex=50, con=50, mov=8, hp=13)
    keeper.speed_roll("Harvey", [40, 0])
    keeper.speed_roll("Thug", [40, 0])
    chase = keeper.cut(opening_range=2)
    assert chase["whose_turn"] == keeper.ids["Harvey"]
    return Table(keeper)


def test_harveys_pistol_in_the_crowd(keeper):
    table = new_york(keeper)
    # "To reach the next location he must push through a crowd, which presents a hazard" (DEX).
    crowd = table.place("hazard", [2, 3], name="Crowd", skills=["DEX"])
    # "Harvey pulls his pistol and fires into the air. The Keeper asks for a Luck roll, which Harvey fails" (80 against 45).
    fired = table.post(f"{table.participant('Harvey')}/create-hazard", {"action": "panic crowd", "weapon": REVOLVER, "rolls": {"skill": [80, 0]}})
    assert (fired["rolls"][0]["skill"], fired["rolls"][0]["level"]) == ("Luck", "failure")
    assert fired["outcome"] == {"success": False, "obstacle_id": None}
    harvey = table.who(fired["chase"], "Harvey")
    assert harvey["weapons"][0]["loaded"] == 5 and harvey["movement_actions"] == 1  # a round spent, no movement action
    # "The Keeper decides that the crowd scatters and there is no longer a hazard."
    assert keeper.ok(table.send("DELETE", f"/obstacles/{crowd}", {"reason": "the crowd scatters at the shot"}))
    chase = keeper.move("Harvey", 1)
    assert keeper.location_of(chase, "Harvey") == 3


def test_a_failed_shot_to_panic_a_crowd_is_one_action_undone_whole(keeper):
    table = new_york(keeper)
    # Harvey fires into the air and fails his Luck roll: the round is spent, nothing is made.
    fired = table.post(f"{table.participant('Harvey')}/create-hazard", {"action": "panic crowd", "weapon": REVOLVER, "rolls": {"skill": [80, 0]}})
    assert fired["outcome"]["success"] is False
    # The Keeper takes it back: the shot and the attempt go together, the round is in the gun again.
    keeper.ok(keeper.post("/undo", {"count": 1}))
    harvey = table.who(keeper.track(), "Harvey")
    assert harvey["weapons"][0]["loaded"] == 6 and harvey["movement_actions"] == 1


def test_a_crowd_panicked_by_a_shot_is_a_hazard_for_those_following(keeper):
    table = new_york(keeper)
    panicked = table.post(f"{table.participant('Harvey')}/create-hazard", {"action": "panic crowd", "weapon": REVOLVER, "rolls": {"skill": [20, 0]}})
    obstacle = next(o for o in panicked["chase"]["obstacles"] if o["id"] == panicked["outcome"]["obstacle_id"])
    # By default behind Harvey, between his pursuer and him; DEX to weave through.
    assert (obstacle["kind"], obstacle["between"], obstacle["skills"]) == ("hazard", [1, 2], ["DEX"])


def test_securing_a_door_costs_a_movement_action_and_stops_the_thug(keeper):
    table = new_york(keeper)
    secured = table.post(f"{table.participant('Harvey')}/create-hazard", {
        "action": "secure door", "obstacle": {"name": "Bolted door", "skills": ["STR"], "hit_points": 10},
    })
    assert secured["rolls"] == [] and secured["outcome"]["success"] is True
    chase = secured["chase"]
    assert chase["whose_turn"] == keeper.ids["Thug"]  # his one movement action spent
    door = next(o for o in chase["obstacles"] if o["id"] == secured["outcome"]["obstacle_id"])
    assert (door["kind"], door["between"], door["hit_points"]) == ("barrier", [1, 2], 10)
    chase = keeper.move("Thug", 1)
    assert table.who(chase, "Thug")["obstacle_ahead_id"] == door["id"]
    assert table.who(chase, "Thug")["obstacle_ahead"]["name"] == "Bolted door"
    # Undo takes the door away again.
    keeper.ok(keeper.post("/undo", {"count": 2}))
    assert keeper.track()["obstacles"] == []


def test_a_wardrobe_needs_a_str_roll_and_locking_a_whole_round(keeper):
    table = new_york(keeper)
    before = keeper.events()
    # The roll an action calls for is checked: a wardrobe is moved with STR, not Luck.
    refused(keeper, keeper.post(f"{table.participant('Harvey')}/create-hazard", {"action": "block door", "skill": "Luck"}), 422, before, field="skill")
    # STR not listed: the Keeper gives 60; 75 fails, and the movement action is spent all the same.
    failed = table.post(f"{table.participant('Harvey')}/create-hazard", {"action": "block door", "target": 60, "rolls": {"skill": [70, 5]}})
    assert failed["outcome"]["success"] is False and failed["chase"]["whose_turn"] == keeper.ids["Thug"]
    keeper.end_turn("Thug")
    # Next round: Locksmith takes the whole round (his one movement action) and a roll (35 against 50).
    locked = table.post(f"{table.participant('Harvey')}/create-hazard", {"action": "lock door", "obstacle": {"name": "Locked door", "skills": ["STR"]}, "rolls": {"skill": [30, 5]}})
    assert locked["outcome"]["success"] is True and table.who(locked["chase"], "Harvey")["movement_actions"] == 0


RULES = [
    ("sudden_hazards", "/sudden-hazards", {"called_by": "players", "target": 45}, "Sudden Hazards"),
    ("sudden_hazards", "/sudden-hazards/placement", {"between": [2, 3], "name": "Dog", "skills": ["DEX"]}, "Sudden Hazards"),
    ("pedal_to_the_metal", "{Harvey}/accelerate", {"locations": 2}, "Pedal to the Metal"),
    ("visibility", "{Harvey}/visibility", {"locations": 2}, "Pedal to the Metal"),
    ("escaping_and_hiding", "{Harvey}/hide", {}, "Escaping the Pursuer"),
    ("escaping_and_hiding", "{Thug}/follow-trail", {"quarry_id": "{harvey}", "target": 30}, "Escaping the Pursuer"),
    ("passengers", "{Harvey}/navigate", {}, "Escaping the Pursuer"),
    ("ranged_attacks", "{Harvey}/attack-on-the-move", {"target_id": "{thug}", "weapon": REVOLVER, "distance_yards": 10}, "Ranged Attacks During a Chase"),
    ("ranged_attacks", "{Harvey}/fire-on-the-move", {"target_id": "{thug}", "weapon": REVOLVER}, "Ranged Attacks During a Chase"),
    ("ranged_attacks", "{Harvey}/shoot-tire", {"vehicle_id": "{thug}", "weapon": REVOLVER}, "Ranged Attacks During a Chase"),
    ("driver_damage", "{Harvey}/keep-control", {}, "Driver Damage"),
    ("characters_creating_hazards", "{Harvey}/create-hazard", {"action": "upend stall"}, "Characters Creating Hazards"),
]


@pytest.mark.parametrize("rule,path,body,heading", RULES, ids=[f"{r[0]}:{r[1].split('/')[-1]}" for r in RULES])
def test_a_rule_the_chase_does_not_use_is_refused_naming_it(keeper, rule, path, body, heading):
    new_york(keeper, optional_rules=["random_hazards", "monsters"])
    ids = {"Harvey": f"/participants/{keeper.ids['Harvey']}", "Thug": f"/participants/{keeper.ids['Thug']}", "harvey": keeper.ids["Harvey"], "thug": keeper.ids["Thug"]}
    path = path.format(**ids)
    body = {k: (v.format(**ids) if isinstance(v, str) else v) for k, v in body.items()}
    before = keeper.events()
    problem = refused(keeper, keeper.post(path, body), 409, before, rule=heading)
    assert rule in problem["detail"]


def test_without_random_hazards_the_keeper_makes_the_stretches_in_view_himself(keeper):
    table = new_york(keeper, optional_rules=["visibility"])
    seen = table.post(f"{table.participant('Harvey')}/visibility", {"locations": 3})
    # Nothing is rolled: the table does not use random hazards; only how far Harvey sees is kept.
    assert seen["rolls"] == [] and seen["outcome"]["stretches"] == []
    assert seen["chase"]["pursuit"]["visibility"][keeper.ids["Harvey"]]["sees_to"] == 5


BAD = [
    ("/sudden-hazards", {"target": 45}, "called_by"),
    ("/sudden-hazards", {"called_by": "the dog", "target": 45}, "called_by"),
    ("/sudden-hazards", {"called_by": "players"}, "target"),
    ("/sudden-hazards", {"called_by": "players", "target": 45, "rolls": {"luck": [30]}}, "rolls.luck"),
    ("/sudden-hazards/placement", {"between": [2, 3], "name": "Dog"}, "skills"),
    ("{Harvey}/visibility", {"area": "city", "locations": 2}, "area"),
    ("{Harvey}/visibility", {"locations": 11}, "locations"),
    ("{Harvey}/visibility", {"area": "city", "rolls": {"sight": [2]}}, "rolls"),
    ("{Harvey}/hide", {"bonus_dice": 3}, "bonus_dice"),
    ("{Harvey}/hide", {"searcher_id": "x" * 201}, "searcher_id"),
    ("{Harvey}/create-hazard", {"action": "set fire to the city"}, "action"),
    ("{Harvey}/create-hazard", {"action": "panic crowd", "obstacle": {"hit_points": 0}}, "obstacle"),
    ("{Harvey}/shoot-tire", {"weapon": REVOLVER}, "vehicle_id"),
    ("{Harvey}/navigate", {"skill": "Astrology"}, "skill"),
]


@pytest.mark.parametrize("path,body,field", BAD, ids=[f"{b[0].split('/')[-1]}:{b[2]}" for b in BAD])
def test_bad_input_is_a_422_naming_the_field_and_records_nothing(keeper, path, body, field):
    table = new_york(keeper)
    before = keeper.events()
    refused(keeper, keeper.post(path.format(Harvey=table.participant("Harvey")), body), 422, before, field=field)
