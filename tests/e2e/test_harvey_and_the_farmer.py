"""The worked examples of coc7e-chases.txt parts 1 and 2, played over HTTP with table dice."""
from __future__ import annotations

HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}


def set_up(keeper, farmer=FARMER):
    keeper.create("Harvey and the angry farmer")
    keeper.add(**HARVEY)
    keeper.add(**farmer)


def test_harvey_escapes_on_an_extreme_con_roll(keeper):
    # "Speed Roll" / "Compare speeds": Harvey makes an Extreme CON roll (MOV 6 -> 7), the
    # farmer fails his (7 -> 6); Harvey is faster and escapes, no chase is played out.
    set_up(keeper)
    harvey = keeper.speed_roll("Harvey", [10, 2])  # 12 against CON 60: extreme (<= 12)
    assert harvey["rolls"][0]["level"] == "extreme"
    farmer = keeper.speed_roll("Farmer", [80, 0])  # 80 against CON 55: failure
    assert farmer["rolls"][0]["level"] == "failure"
    parts = farmer["chase"]["participants"]
    assert parts[keeper.ids["Harvey"]]["speed_mov"] == 7
    assert parts[keeper.ids["Farmer"]]["speed_mov"] == 6

    chase = keeper.cut()

    assert chase["phase"] == "ended"
    assert chase["outcome"] == "escaped"
    assert chase["participants"][keeper.ids["Harvey"]]["status"] == "escaped"


def test_failed_con_roll_puts_the_farmer_two_locations_behind(keeper):
    # "if Harvey failed his CON roll ... Harvey's MOV would fall to 5 and the Keeper would
    # establish the chase ... with the farmer two locations behind Harvey."
    set_up(keeper)
    keeper.speed_roll("Harvey", [70, 2])  # 72: failure, MOV 5
    keeper.speed_roll("Farmer", [80, 0])  # 80: failure, MOV 6

    chase = keeper.cut(opening_range=2)

    assert chase["phase"] == "running"
    assert keeper.location_of(chase, "Harvey") - keeper.location_of(chase, "Farmer") == 2
    # "Movement Actions": the farmer gets a second movement action, being one MOV faster.
    assert chase["participants"][keeper.ids["Harvey"]]["movement_actions"] == 1
    assert chase["participants"][keeper.ids["Farmer"]]["movement_actions"] == 2
    # "Dexterity and the Order of Movement": Harvey (DEX 55) moves before the farmer (DEX 50).
    assert chase["whose_turn"] == keeper.ids["Harvey"]


def test_round_one_closes_the_gap_to_one_location(keeper):
    set_up(keeper)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()

    # Harvey's turn: 1 movement action, 1 location; that is the end of his turn.
    chase = keeper.move("Harvey", 1)
    assert chase["whose_turn"] == keeper.ids["Farmer"]
    # Farmer's turn: 2 movement actions, 2 locations.
    chase = keeper.move("Farmer", 2)

    assert keeper.location_of(chase, "Harvey") - keeper.location_of(chase, "Farmer") == 1
    assert chase["round"] == 2
    assert chase["caught_up"] == []


def test_the_farmer_catches_harvey_at_once_with_the_higher_dex(keeper):
    # "If the farmer had the higher DEX, he would have moved first in round 1 and caught up
    # with Harvey immediately."
    set_up(keeper, dict(FARMER, dex=60))
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    chase = keeper.cut()
    assert chase["whose_turn"] == keeper.ids["Farmer"]

    chase = keeper.move("Farmer", 2)

    assert chase["round"] == 1
    assert chase["caught_up"] == [
        {"pursuer_id": keeper.ids["Farmer"], "quarry_id": keeper.ids["Harvey"], "location": 2, "round": 1}
    ]
    assert [e["name"] for e in keeper.events()][-3:] == ["Moved", "CaughtUp", "TurnEnded"]


def test_the_keeper_ends_the_chase_once_the_farmer_has_caught_harvey(keeper):
    set_up(keeper)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    for _ in range(2):
        keeper.move("Harvey", 1)
        chase = keeper.move("Farmer", 2)
    assert chase["caught_up"][0]["round"] == 2

    chase = keeper.ok(keeper.post("/end", {"outcome": "caught"}))["chase"]

    assert chase["phase"] == "ended" and chase["outcome"] == "caught"
    refused = keeper.post(f"/participants/{keeper.ids['Harvey']}/move", {"locations": 1})
    assert refused.status_code == 409
    assert refused.get_json()["title"] == "Rule broken"
    # Every roll and every movement spend is in the log.
    names = [e["name"] for e in keeper.events()]
    assert names.count("SpeedRolled") == 2 and names.count("Moved") == 4
    assert [r["roll"]["result"] for r in keeper.rolls()] == [72, 80]
