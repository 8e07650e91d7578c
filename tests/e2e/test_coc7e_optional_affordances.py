"""The track view's actions for the optional rules of coc7e-chases.txt part 5 (issue 18 part 4): a
fork stops a move in the view as the command does, the route choice is offered where it may be
made, and a rule the Keeper switched off is shown refused with the 409's words and rule."""
from __future__ import annotations

from domain.rules.coc7e.optional_rules import NAMES
from tests.e2e.affordance_checks import actions_of, allowed, sweep
from tests.e2e.coc7e_table import FARMER, HARVEY, harvey_and_the_farmer
from tests.e2e.test_coc7e_affordances import BODIES, GUN

ROUTES = 'coc7e-chases.txt "Choosing a Route"'
JOINING = 'coc7e-chases.txt "Characters Joining a Chase in Progress"'
# This chase rolls at the table: the sweep sends the commands that take no dice (the rest are
# swept with server dice in test_coc7e_affordances.py).
DICELESS = {"move", "delay", "end_turn", "damage", "condition", "add_participant", "place_obstacle", "place_fork", "choose_route", "join", "leave", "switch_mode", "substitute_skill", "accelerate", "aim", "place_sudden_hazard", "create_hazard", "fly_over", "change_optional_rules"}
TABLE_BODIES = {action: body if action in DICELESS else (lambda view, p: None) for action, body in BODIES.items()}


def switch_off(keeper, *rules):
    response = keeper.http.client.put(
        f"/chases/{keeper.chase_id}/optional-rules", json={"optional_rules": [n for n in NAMES if n not in rules]},
        headers={"Authorization": f"Bearer {keeper.keeper_token}"},
    )
    return keeper.ok(response)["chase"]


def test_a_fork_and_rules_switched_off_read_in_the_view_as_the_commands_answer(keeper):
    # Harvey at 2, the farmer at 0; the Keeper may place a fork, Harvey may leave (the Keeper's ruling).
    harvey_and_the_farmer(keeper)
    harvey, farmer = keeper.ids["Harvey"], keeper.ids["Farmer"]
    view = keeper.track()
    assert "place_fork" in allowed(view) and "leave" in allowed(view, harvey)
    assert actions_of(view, harvey)["choose_route"]["why"] == "there is no choice of routes where Harvey stands (location 2)"
    sweep(keeper, TABLE_BODIES)

    # The track branches at 3; Harvey runs to it, the farmer runs on (round 2, Harvey's turn).
    keeper.ok(keeper.post("/forks", {"at": 3, "routes": ["into the river", "along the bank"]}), 201)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)
    view = keeper.track()
    move = actions_of(view, harvey)["move"]
    assert (move["allowed"], move["why"], move["rule"]) == (False, "Harvey stands where the track branches: choose a route first", ROUTES)
    assert "choose_route" in allowed(view, harvey)
    assert sweep(keeper, TABLE_BODIES)["allowed"] >= 3  # choose_route, leave, place_fork (a second fork) succeed

    # The Keeper switches off choosing a route and joining and leaving: shown refused, as the 409s say.
    switch_off(keeper, "choosing_a_route", "joining_and_leaving", "splitting_up")
    view = keeper.track()
    choose, leave, fork = actions_of(view, harvey)["choose_route"], actions_of(view, farmer)["leave"], actions_of(view)["place_fork"]
    assert choose["allowed"] is False and choose["rule"] == ROUTES
    assert choose["why"].startswith("this chase does not use the optional rule choosing_a_route")
    assert fork["why"] == choose["why"]
    assert (leave["allowed"], leave["rule"]) == (False, JOINING)
    # With routes switched off the track no longer branches: Harvey, at the fork with no route
    # taken, is not left stuck there (move is his to make again).
    assert "move" in allowed(view, harvey)
    problem = keeper.post(f"/participants/{farmer}/leave", {}).get_json()
    assert (problem["status"], problem["detail"], problem["rule"]) == (409, leave["why"], leave["rule"])
    split = actions_of(view)["split"]  # not sent by the sweep: the groups are the Keeper's
    assert split["allowed"] is False and split["why"].startswith("this chase does not use the optional rule splitting_up")
    problem = keeper.post("/split", {"groups": [[farmer]]}).get_json()
    assert (problem["status"], problem["detail"], problem["rule"]) == (409, split["why"], split["rule"])
    sweep(keeper, TABLE_BODIES)

    # Switched on again: the route may be chosen once more.
    switch_off(keeper)
    assert "choose_route" in allowed(keeper.track(), harvey)


def test_a_fight_offers_joining_it_drawing_a_firearm_and_fleeing_when_the_rules_allow(keeper):
    # A fight in the cellar: Harvey (a shotgun) and a deep one; before it begins, no one joins, draws or flees.
    body = keeper.ok(keeper.http.post("/chases", json={"name": "In the cellar", "dice": "server", "system": "coc7e-combat"}), 201)
    keeper.chase_id, keeper.http.token = body["chase"]["chase_id"], body["keeper_token"]
    harvey, deep_one = keeper.add(**HARVEY), keeper.add(name="Deep one", role="pursuer", dex=50, con=50, mov=8, hp=15, skills={"Fighting (Brawl)": 45})
    join = actions_of(keeper.track(), harvey)["join_fight"]
    assert (join["allowed"], join["why"]) == (False, "the fight is not in progress: combatants added before it begins are in it")
    assert join["href"] == f"/chases/{keeper.chase_id}/fight/join"

    # The fight begins; a cultist comes down the stairs: the Keeper may bring him in, the one whose turn it is may flee.
    fight = keeper.ok(keeper.post("/fight", {}))["chase"]
    first = fight["turn"]["participant_id"]
    assert first == harvey  # DEX 55 against 50
    cultist = keeper.add(name="Cultist", role="pursuer", dex=40, con=50, mov=8, hp=10, skills={"Fighting (Brawl)": 30})
    view = keeper.track()
    assert "join_fight" in allowed(view, cultist) and "join_fight" not in allowed(view, first)
    assert "flee" in allowed(view, first)
    flee = actions_of(view, deep_one)["flee"]
    assert (flee["allowed"], flee["why"]) == (False, "it is Harvey's turn, not Deep one's (highest DEX acts first)")
    ready = actions_of(view, deep_one)["ready_firearm"]
    assert (ready["allowed"], ready["why"]) == (False, "Deep one carries no firearm to draw")
    assert sweep(keeper, BODIES)["allowed"] >= 3


SWITCHING = 'coc7e-chases.txt "Switching Between Modes of Movement"'


def test_taking_the_wheel_getting_out_and_taking_aim_are_offered_as_their_commands_allow(keeper):
    # Harvey (Drive Auto 50, a loaded shotgun) at 2, the farmer at 0; a car stands by the track.
    keeper.create("Harvey finds a car", dice="table")
    gun = {"weapon": GUN, "loaded": 2}
    keeper.add(**{**HARVEY, "skills": {**HARVEY["skills"], "Drive Auto": 50, "Firearms (Rifle/Shotgun)": 40}, "weapons": [gun]})
    keeper.add(**FARMER)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut()
    keeper.add(name="Car", kind="vehicle", chart_vehicle="Car, standard", role="quarry")
    harvey, farmer, car = keeper.ids["Harvey"], keeper.ids["Farmer"], keeper.ids["Car"]

    # Harvey's turn: he may take the wheel or take aim; the farmer, unarmed and not on his turn, may do neither.
    view = keeper.track()
    assert {"board", "aim", "fire_on_the_move", "shoot_tire", "create_hazard"} <= allowed(view, harvey)
    fly = actions_of(view, harvey)["fly_over"]
    assert (fly["allowed"], fly["why"]) == (False, "Harvey is not flying: switch to flying first (switching_modes)")
    trail = actions_of(view, harvey)["follow_trail"]  # the Keeper's call, for a pursuer
    assert "follow_trail" in allowed(view, farmer)
    assert (trail["allowed"], trail["why"]) == (False, "Harvey is not a pursuer: only a pursuer follows a quarry's trail")
    fire = actions_of(view, farmer)["fire_on_the_move"]
    assert (fire["allowed"], fire["why"]) == (False, "it is Harvey's turn, not Farmer's (highest DEX acts first)")
    assert actions_of(view, harvey)["board"]["href"] == f"/chases/{keeper.chase_id}/participants/{harvey}/board"
    assert actions_of(view, farmer)["board"]["why"] == "it is Harvey's turn, not Farmer's (highest DEX acts first)"
    alight = actions_of(view, harvey)["alight"]
    assert (alight["allowed"], alight["why"], alight["rule"]) == (False, "Harvey is not in a vehicle", SWITCHING)
    problem = keeper.post(f"/participants/{harvey}/alight", {"table_dice": [70, 2]}).get_json()
    assert (problem["status"], problem["detail"], problem["rule"]) == (409, alight["why"], alight["rule"])
    # The Keeper may change the optional rules in use (PUT), as long as the chase goes on.
    rules = actions_of(view)["change_optional_rules"]
    assert (rules["allowed"], rules["method"], rules["href"]) == (True, "PUT", f"/chases/{keeper.chase_id}/optional-rules")
    # Either side may call a sudden hazard; none awaits placing yet.
    place = actions_of(view)["place_sudden_hazard"]
    assert "call_sudden_hazard" in allowed(view)
    assert (place["allowed"], place["why"]) == (False, "no sudden hazard awaits placing: call one first")
    sweep(keeper, TABLE_BODIES)  # aim and upending a stall are sent (no dice) and undone; the rest refused in the commands' words

    # He takes the wheel; on the car's turn next round he may get out, and no longer board.
    keeper.ok(keeper.post(f"/participants/{harvey}/board", {"vehicle_id": car, "table_dice": [30, 0]}))
    keeper.end_turn("Farmer")
    view = keeper.track()
    assert "alight" in allowed(view, harvey)
    board = actions_of(view, harvey)["board"]
    assert (board["allowed"], board["why"]) == (False, "it is Car's turn, not Harvey's (highest DEX acts first)")
    sweep(keeper, TABLE_BODIES)

    # The Keeper switches off switching modes and shooting from vehicles: refused with the 409's words.
    switch_off(keeper, "switching_modes", "ranged_attacks")
    view = keeper.track()
    alight, shoot = actions_of(view, harvey)["alight"], actions_of(view, car)["attack_on_the_move"]
    assert shoot["allowed"] is False and shoot["why"].startswith("this chase does not use the optional rule ranged_attacks")
    assert alight["allowed"] is False and alight["why"].startswith("this chase does not use the optional rule switching_modes")
    problem = keeper.post(f"/participants/{harvey}/alight", {"table_dice": [70, 2]}).get_json()
    assert (problem["status"], problem["detail"], problem["rule"]) == (409, alight["why"], alight["rule"])
