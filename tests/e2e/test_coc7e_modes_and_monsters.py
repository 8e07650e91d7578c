"""Switching modes of movement and monsters in a chase, over HTTP with table dice (issue 15,
items 10 and 13): coc7e-chases.txt "Switching Between Modes of Movement", "Monsters in a Chase".

A percentile roll's faces: tens die then units die.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import FARMER, HARVEY


def who(keeper, chase, name):
    return chase["participants"][keeper.ids[name]]


def command(keeper, name, path, body=None, status=200):
    return keeper.ok(keeper.post(f"/participants/{keeper.ids[name]}/{path}", body or {}), status)


def test_swimming_is_half_the_standard_mov_and_keeps_the_speed_roll_s_extreme_plus_one(keeper):
    # The farmer (MOV 8) makes an Extreme speed roll (11 against CON 55): MOV 9. Harvey fails: MOV 5.
    keeper.create("Into the river", dice="table")
    keeper.add(**HARVEY)
    keeper.add(name="Farmer", role="pursuer", dex=50, con=55, mov=8, skills={"Swim": 30})
    keeper.speed_roll("Harvey", [70, 2])
    assert keeper.speed_roll("Farmer", [10, 1])["rolls"][0]["level"] == "extreme"
    chase = keeper.cut()
    assert who(keeper, chase, "Farmer")["speed_mov"] == 9 and who(keeper, chase, "Farmer")["movement_actions"] == 5
    # Harvey leaps into the river; the farmer follows: swimming, half his MOV 8 is 4, +1 kept: 5.
    body = command(keeper, "Farmer", "switch-mode", {"mode": "swimming"})
    assert body["outcome"] == {"mode": "swimming", "mov": 5, "adjustment": 1}
    assert keeper.events()[-1]["type"] == "coc7e:Chase.ModeSwitched"
    # From the next round his movement actions follow: 1 + (5 - 5).
    keeper.end_turn("Harvey")
    chase = keeper.end_turn("Farmer")
    assert chase["round"] == 2 and who(keeper, chase, "Farmer")["movement_actions"] == 1
    # Out of the water, on foot again: MOV 8 + 1.
    assert command(keeper, "Farmer", "switch-mode", {"mode": "on foot"})["outcome"]["mov"] == 9
    # Flying needs a listed MOV: a human has none.
    problem = keeper.post(f"/participants/{keeper.ids['Farmer']}/switch-mode", {"mode": "flying"}).get_json()
    assert problem["status"] == 422 and problem["errors"][0]["field"] == "mov"


def test_taking_the_wheel_and_getting_out_make_fresh_speed_rolls(keeper):
    # Part 2's set-up, Harvey with Drive Auto 50: Harvey MOV 5 at location 2, the farmer MOV 6 at 0.
    keeper.create("Harvey finds a car", dice="table")
    keeper.add(**{**HARVEY, "skills": {**HARVEY["skills"], "Drive Auto": 50}})
    keeper.add(**FARMER)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    # A car stands by the track (added after the cut, as one joining the chase: no driver yet).
    keeper.add(name="Car", kind="vehicle", chart_vehicle="Car, standard", role="quarry")
    # On his turn Harvey takes the wheel: a fresh speed roll with Drive Auto, 30, Regular: MOV 14.
    body = command(keeper, "Harvey", "board", {"vehicle_id": keeper.ids["Car"], "table_dice": [30, 0]})
    assert body["rolls"][0]["skill"] == "Drive Auto" and body["rolls"][0]["level"] == "regular"
    car, harvey = who(keeper, body["chase"], "Car"), who(keeper, body["chase"], "Harvey")
    assert car["speed_mov"] == 14 and car["location"] == 2 and harvey["vehicle_id"] == keeper.ids["Car"] and harvey["seat"] == "driver"
    # Round 2: the car runs on 1 + (14 - 5) movement actions (the slowest MOV kept: Harvey's 5 on foot).
    chase = keeper.end_turn("Farmer")
    assert chase["round"] == 2 and who(keeper, chase, "Car")["movement_actions"] == 10
    assert who(keeper, chase, "Farmer")["movement_actions"] == 2
    # On the car's turn Harvey gets out: a fresh CON roll, 72, a failure: MOV 6 - 1. The car stops.
    body = command(keeper, "Harvey", "alight", {"table_dice": [70, 2]})
    assert body["rolls"][0]["skill"] == "CON" and body["rolls"][0]["level"] == "failure"
    harvey = who(keeper, body["chase"], "Harvey")
    assert harvey["speed_mov"] == 5 and harvey["location"] == 2 and harvey["vehicle_id"] is None
    assert who(keeper, body["chase"], "Car")["status"] == "left"
    # Undo puts him back at the wheel.
    chase = keeper.ok(keeper.post("/undo", {"count": 1}))["chase"]
    assert who(keeper, chase, "Harvey")["seat"] == "driver" and who(keeper, chase, "Car")["status"] == "in_chase"


def test_the_gnoph_keh_swims_with_its_dex_and_the_ghoul_with_one_fifth_of_it(keeper):
    keeper.create("On the ice", dice="table")
    keeper.add(name="Gnoph-keh", kind="creature", role="pursuer", dex=55, con=90, mov=9)
    keeper.add(name="Ghoul", kind="creature", role="pursuer", dex=65, con=65, mov=9)
    # "allow them a Swim skill equal to their DEX"; "a Swim skill equal to one-fifth of their DEX".
    body = command(keeper, "Gnoph-keh", "substitute-skill", {"skill": "Swim", "aptitude": "full"})
    assert body["outcome"] == {"skill": "Swim", "value": 55}
    body = command(keeper, "Ghoul", "substitute-skill", {"skill": "Swim", "aptitude": "fifth"})
    assert body["outcome"] == {"skill": "Swim", "value": 13}
    # Both swim across: 20 is a success for the gnoph-keh and a failure for the ghoul.
    rolls = [keeper.ok(keeper.post("/skill-rolls", {"skill": "Swim", "participant_id": keeper.ids[n], "table_dice": [20, 0]}))["rolls"][0] for n in ("Gnoph-keh", "Ghoul")]
    assert [(r["target"], r["level"]) for r in rolls] == [(55, "hard"), (13, "failure")]
    # A listed skill is not guessed; undo takes a guess back.
    problem = keeper.post(f"/participants/{keeper.ids['Ghoul']}/substitute-skill", {"skill": "Swim", "aptitude": "half"}).get_json()
    assert problem["status"] == 409 and problem["rule"] == 'coc7e-chases.txt "Monsters in a Chase"'
    keeper.ok(keeper.post("/skill-rolls", {"skill": "Swim", "participant_id": keeper.ids["Ghoul"], "table_dice": [20, 0]}))
    keeper.ok(keeper.post("/undo", {"count": 2}))
    body = command(keeper, "Ghoul", "substitute-skill", {"skill": "Spot Hidden", "aptitude": "half", "characteristic": "INT", "characteristic_value": 65})
    assert body["outcome"] == {"skill": "Spot Hidden", "value": 32}
    assert who(keeper, body["chase"], "Ghoul")  # the track view shows the ghoul
    problem = keeper.post(f"/participants/{keeper.ids['Ghoul']}/substitute-skill", {"skill": "Listen", "aptitude": "half", "characteristic": "POW"}).get_json()
    assert problem["status"] == 422 and problem["errors"][0]["field"] == "characteristic_value"


def test_a_flier_skips_the_climb(keeper):
    keeper.create("The byakhee", dice="table")
    keeper.add(**HARVEY)
    keeper.add(name="Byakhee", kind="creature", role="pursuer", dex=50, con=50, mov=5)
    keeper.speed_roll("Harvey", [70, 2])  # MOV 5
    keeper.speed_roll("Byakhee", [40, 0])  # MOV 5
    keeper.cut()
    # A high wall between the byakhee (location 0) and the next location, climbed to pass.
    keeper.ok(keeper.post("/obstacles", {"kind": "barrier", "between": [0, 1], "name": "A high fence or wall", "skills": ["Climb"]}), 201)
    # On foot the byakhee cannot fly over it.
    keeper.move("Harvey", 1)
    problem = keeper.post(f"/participants/{keeper.ids['Byakhee']}/fly-over").get_json()
    assert problem["status"] == 409 and problem["rule"] == 'coc7e-chases.txt "Monsters in a Chase"'
    # The Keeper rules it takes wing (MOV 20 flying, as listed for it): over the wall without a roll.
    command(keeper, "Byakhee", "switch-mode", {"mode": "flying", "mov": 20})
    chase = command(keeper, "Byakhee", "fly-over")["chase"]
    assert who(keeper, chase, "Byakhee")["location"] == 1 and keeper.rolls(purpose="negotiate barrier: A high fence or wall") == []
    assert chase["round"] == 2  # its one movement action spent: round 2
