"""Joining a chase in progress and leaving it, over HTTP with table dice (issue 15, item 9).

coc7e-chases.txt "Characters Joining a Chase in Progress": a joiner makes a speed roll and the
Keeper places them; a pursuer slower than the slowest fleeing character can be ignored; a joiner
slower than the slowest so far makes everyone's movement actions be worked out anew; "There is no
need to recalculate speeds or movement actions when a character leaves a chase".

Part 2's set-up: Harvey MOV 5 (failed CON roll), the farmer MOV 6, two movement actions to
Harvey's one. A percentile roll's faces: tens die then units die.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import harvey_and_the_farmer


def actions(chase, keeper):
    return {name: chase["participants"][pid]["movement_actions"] for name, pid in keeper.ids.items() if chase["participants"][pid]["status"] == "in_chase"}


def next_round(keeper, *names):
    for name in names:
        chase = keeper.end_turn(name)
    return chase


def join(keeper, name, location, **body):
    return keeper.ok(keeper.post(f"/participants/{keeper.ids[name]}/join", {"location": location, **body}))["chase"]


def test_a_constable_joins_the_chase_in_progress_and_runs_from_the_next_round(keeper):
    # Round 1 of Harvey and the farmer: a constable hears the shouting and joins the pursuit.
    chase = harvey_and_the_farmer(keeper)
    assert chase["round"] == 1 and actions(chase, keeper) == {"Harvey": 1, "Farmer": 2}
    keeper.add(name="Constable", role="pursuer", dex=60, con=60, mov=8)
    # He makes his speed roll (45: a Regular success, MOV 8) and the Keeper places him at 0.
    roll = keeper.speed_roll("Constable", [40, 5])["rolls"][0]
    assert roll["level"] == "regular"
    chase = join(keeper, "Constable", 0)
    assert chase["participants"][keeper.ids["Constable"]]["location"] == 0
    assert chase["participants"][keeper.ids["Constable"]]["status"] == "in_chase"
    # Round 2: he acts first (DEX 60) with one action plus three for MOV 8 over the slowest's 5.
    chase = next_round(keeper, "Harvey", "Farmer")
    assert chase["round"] == 2 and chase["turn_order"][0] == keeper.ids["Constable"]
    assert actions(chase, keeper) == {"Harvey": 1, "Farmer": 2, "Constable": 4}


def test_a_slower_quarry_joining_makes_everyone_s_movement_actions_anew_and_leaving_changes_nothing(keeper):
    chase = harvey_and_the_farmer(keeper)
    # Harvey's aunt flees with him: MOV 5, a failed speed roll (90 + 3): MOV 4, the new slowest.
    keeper.add(name="Aunt", role="quarry", dex=40, con=50, mov=5)
    keeper.speed_roll("Aunt", [90, 3])
    chase = join(keeper, "Aunt", 3)
    assert chase["slowest_mov"] == 4
    chase = next_round(keeper, "Harvey", "Farmer")
    # Every movement action worked out against MOV 4: Harvey 2, the farmer 3, the aunt 1.
    assert actions(chase, keeper) == {"Harvey": 2, "Farmer": 3, "Aunt": 1}
    # The aunt, the slowest, leaves the chase (she hides in the church): nothing is recalculated.
    chase = keeper.ok(keeper.post(f"/participants/{keeper.ids['Aunt']}/leave", {"reason": "hides in the church"}))["chase"]
    assert chase["participants"][keeper.ids["Aunt"]]["status"] == "left" and chase["participants"][keeper.ids["Aunt"]]["location"] is None
    assert keeper.events()[-1]["type"] == "coc7e:Chase.ParticipantLeft"
    keeper.ok(keeper.post(f"/participants/{keeper.ids['Harvey']}/end-turn"))
    chase = keeper.end_turn("Farmer")  # the aunt's turn no longer comes: round 3 begins
    assert chase["round"] == 3 and chase["slowest_mov"] == 4
    assert actions(chase, keeper) == {"Harvey": 2, "Farmer": 3}


def test_a_pursuer_slower_than_the_slowest_quarry_is_ignored_unless_the_keeper_keeps_him(keeper):
    harvey_and_the_farmer(keeper)
    # A farmhand (MOV 5, speed roll failed: MOV 4) is slower than Harvey (MOV 5): ignored.
    keeper.add(name="Farmhand", role="pursuer", dex=45, con=50, mov=5)
    keeper.speed_roll("Farmhand", [80, 8])
    chase = join(keeper, "Farmhand", 0)
    hand = chase["participants"][keeper.ids["Farmhand"]]
    assert hand["status"] == "left_behind" and hand["location"] is None and chase["slowest_mov"] == 5
    # Undo: the Keeper thinks again and keeps him; he is the new slowest.
    keeper.ok(keeper.post("/undo", {"count": 1}))
    chase = join(keeper, "Farmhand", 0, keep_if_slower=True)
    assert chase["participants"][keeper.ids["Farmhand"]]["status"] == "in_chase" and chase["slowest_mov"] == 4


def test_joining_is_refused_when_the_table_does_not_use_the_rule_or_before_the_speed_roll(keeper):
    harvey_and_the_farmer(keeper)
    keeper.add(name="Constable", role="pursuer", dex=60, con=60, mov=8)
    # Not before his speed roll.
    response = keeper.post(f"/participants/{keeper.ids['Constable']}/join", {"location": 0})
    assert response.status_code == 409 and "speed roll" in response.get_json()["detail"]
    # A location off the track is refused naming it.
    response = keeper.post(f"/participants/{keeper.ids['Constable']}/join", {"location": -1})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "location"
    # The Keeper switches the rule off: the speed roll of a joiner is refused, naming the rule.
    keeper.ok(keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": ["monsters"]}, headers={"Authorization": f"Bearer {keeper.keeper_token}"}))
    before = keeper.events()
    response = keeper.post(f"/participants/{keeper.ids['Constable']}/speed-roll", {"table_dice": [40, 5]})
    problem = response.get_json()
    assert response.status_code == 409 and "joining_and_leaving" in problem["detail"]
    assert problem["rule"] == 'coc7e-chases.txt "Characters Joining a Chase in Progress"'
    response = keeper.post(f"/participants/{keeper.ids['Harvey']}/leave", {})
    assert response.status_code == 409 and keeper.events() == before
    # Only the Keeper places a joiner.
    player = keeper.player("Harvey")
    assert player.post(f"/participants/{keeper.ids['Constable']}/join", {"location": 0}).status_code == 403
