"""The track view tells a front-end what each participant may do now (issue 18 part 4), for a Call
of Cthulhu chase and a fight: every action it offers succeeds, every one it refuses is refused by
the command in the same words, a player's token reads its own, and the view says whose turn is
next, that a move ended a turn, how far apart the rivals are and what the obstacle ahead asks."""
from __future__ import annotations

from typing import Any

from domain.rules.coc7e.optional_rules import NAMES as OPTIONAL_RULES
from tests.e2e.affordance_checks import actions_of, allowed, sweep
from tests.e2e.coc7e_table import FARMER, HARVEY

GUN = "12-gauge Shotgun (2B)"


def _nearest_rival(view: dict[str, Any], p: dict[str, Any]) -> str:
    if p["distances"]:
        return min(p["distances"], key=lambda d: d["locations"])["to"]
    return next(pid for pid in view["participants"] if pid != p["id"])


BODIES = {
    "speed_roll": lambda view, p: {},
    "move": lambda view, p: {"locations": 1},
    "delay": lambda view, p: {},
    "end_turn": lambda view, p: {},
    "negotiate": lambda view, p: {},
    "break_barrier": lambda view, p: {},
    "attack": lambda view, p: {"target_id": _nearest_rival(view, p), "response": "fight back"},
    "fire": lambda view, p: {"weapon": GUN, "target_id": _nearest_rival(view, p)},
    "aim": lambda view, p: {"weapon": GUN, "target_id": _nearest_rival(view, p)},
    "reload": lambda view, p: {"weapon": GUN},
    "mishap_roll": lambda view, p: {"skill": "DEX"},
    "consequences": lambda view, p: {},
    "damage": lambda view, p: {"amount": 1},
    "dying_roll": lambda view, p: {},
    "first_aid": lambda view, p: {"target": 50, **({"pushed": True} if p["first_aid_tries"] == 1 else {})},
    "medicine": lambda view, p: {"target": 50},
    "recovery": lambda view, p: {"days": 1},
    "condition": lambda view, p: {"standing": True},
    "add_participant": lambda view, p: {"name": "Bystander", "role": "quarry", "dex": 40, "con": 50, "mov": 7},
    "cut_to_the_chase": lambda view, p: {"opening_range": 2},
    "begin_fight": lambda view, p: {},
    "skill_roll": lambda view, p: {"skill": "Luck", "target": 50},
    "dice_roll": lambda view, p: {"expression": "1D6"},
    "place_obstacle": lambda view, p: {"kind": "hazard", "between": [20, 21], "name": "Far mud", "skills": ["DEX"]},
    "random_hazards": lambda view, p: None,  # queues a job (its own tests: test_jobs.py)
    "join_fight": lambda view, p: {"participant_id": p["id"]},
    "ready_firearm": lambda view, p: {},
    "flee": lambda view, p: {},
    # optional rules (coc7e-chases.txt part 5; the scenario: test_coc7e_optional_affordances.py)
    "place_fork": lambda view, p: {"at": 30, "routes": ["High road", "Low road"]},
    "choose_route": lambda view, p: {"route": _route_here(view, p)},
    "join": lambda view, p: {"location": 0, "keep_if_slower": True},
    "leave": lambda view, p: {},
    "accelerate": lambda view, p: {"locations": 2},
    "navigate": lambda view, p: {},
    "visibility": lambda view, p: {"locations": 1},
    "keep_control": lambda view, p: {},
    "attack_on_the_move": lambda view, p: {"target_id": _nearest_rival(view, p), "response": "fight back"},
    "fire_on_the_move": lambda view, p: {"weapon": GUN, "target_id": _nearest_rival(view, p)},
    "shoot_tire": lambda view, p: _rival_vehicle(view, p),
    "create_hazard": lambda view, p: {"action": "upend stall", "obstacle": {"between": [20, 21]}},
    "fly_over": lambda view, p: {},
    "hide": lambda view, p: {},
    "follow_trail": lambda view, p: {"quarry_id": _nearest_rival(view, p), "target": 50},
    "call_sudden_hazard": lambda view, p: {"called_by": view["pursuit"]["sudden_hazards"]["may_call"][0], "target": 50},
    "place_sudden_hazard": lambda view, p: {"between": [20, 21], "name": "Delivery truck", "skills": ["Drive Auto"]},
    # a different choice from the chase's: the rules it does not use now
    "change_optional_rules": lambda view, p: {"optional_rules": [n for n in OPTIONAL_RULES if n not in view["optional_rules"]]},
    "split": lambda view, p: None,  # the groups are the Keeper's (its own tests: test_coc7e_splitting_up.py)
    "switch_mode": lambda view, p: {"mode": "swimming"},
    "board": lambda view, p: _vehicle_beside(view, p),
    "alight": lambda view, p: {},
    "substitute_skill": lambda view, p: {"skill": "Stealth", "aptitude": "half", "characteristic": "DEX"},
}


def _vehicle_beside(view: dict[str, Any], p: dict[str, Any]) -> dict[str, Any] | None:
    """A driverless vehicle of the same side, waiting or standing where ``p`` is (none: not sent)."""
    drivers = {q["vehicle_id"] for q in view["participants"].values() if q["vehicle_id"] is not None}
    beside = (
        q["id"] for q in view["participants"].values()
        if q["kind"] == "vehicle" and q["id"] not in drivers and q["role"] == p["role"]
        and (q["status"] == "ready" or (q["status"] == "in_chase" and q["location"] == p["location"]))
    )
    vehicle = next(beside, None)
    return None if vehicle is None else {"vehicle_id": vehicle}


def _rival_vehicle(view: dict[str, Any], p: dict[str, Any]) -> dict[str, Any] | None:
    """A tire to shoot: a rival vehicle in the chase (none: not sent)."""
    rival = next((q["id"] for q in view["participants"].values() if q["kind"] == "vehicle" and q["role"] != p["role"] and q["status"] == "in_chase"), None)
    return None if rival is None else {"vehicle_id": rival, "weapon": GUN}


def _route_here(view: dict[str, Any], p: dict[str, Any]) -> str:
    return next((f["routes"][0] for f in view["forks"] if f["at"] == p["location"]), "High road")


def test_every_action_the_view_offers_succeeds_and_every_refusal_is_the_commands_own(keeper):
    # Set-up: both still to make their speed rolls; the Keeper may add participants, not cut yet.
    keeper.create("Harvey and the farmer", dice="server")
    harvey, farmer = keeper.add(**HARVEY), keeper.add(**FARMER)
    view = keeper.track()
    assert allowed(view, harvey) >= {"speed_roll", "damage", "recovery", "condition"}
    cut = actions_of(view)["cut_to_the_chase"]
    assert (cut["allowed"], cut["why"]) == (False, "speed rolls still to make: Harvey, Farmer")
    assert view["turn"] == {"round": None, "participant_id": None, "next_participant_id": None, "ended_by_last_command": False}
    assert sweep(keeper, BODIES)["allowed"] >= 10

    # Speed rolls at the table (Harvey MOV 5, the farmer MOV 6): now the Keeper may cut to the chase.
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    assert "cut_to_the_chase" in allowed(keeper.track())
    sweep(keeper, BODIES)

    # The cut: Harvey two locations ahead acts first; the farmer is next.
    chase = keeper.cut(opening_range=2)
    assert chase["turn"] == {"round": 1, "participant_id": harvey, "next_participant_id": farmer, "ended_by_last_command": False}
    assert chase["participants"][harvey]["distances"] == [{"to": farmer, "locations": 2}]
    assert chase["participants"][farmer]["distances"] == [{"to": harvey, "locations": 2}]
    assert allowed(chase, harvey) >= {"move", "delay", "end_turn"}
    move = actions_of(chase, farmer)["move"]
    assert (move["allowed"], move["why"], move["rule"]) == (False, "it is Harvey's turn, not Farmer's (highest DEX acts first)", 'coc7e-chases.txt "Dexterity and the Order of Movement"')
    assert sweep(keeper, BODIES)["refused"] >= 10

    # A hazard ahead of the farmer; Harvey's one movement action ends his turn.
    mud = keeper.ok(keeper.post("/obstacles", {"kind": "hazard", "between": [0, 1], "name": "Mud", "skills": ["DEX"]}), 201)["obstacle_id"]
    chase = keeper.move("Harvey", 1)
    assert chase["turn"] == {"round": 1, "participant_id": farmer, "next_participant_id": None, "ended_by_last_command": True}
    assert keeper.track()["turn"]["ended_by_last_command"] is True  # read again: still what the last command did
    ahead = chase["participants"][farmer]
    assert ahead["obstacle_ahead_id"] == mud
    assert ahead["obstacle_ahead"] == next(o for o in chase["obstacles"] if o["id"] == mud)
    assert ahead["obstacle_ahead"]["skills"] == ["DEX"] and ahead["obstacle_ahead"]["kind"] == "hazard"
    assert "negotiate" in allowed(chase, farmer) and "move" not in allowed(chase, farmer)
    assert actions_of(chase, farmer)["move"]["why"] == "Mud lies ahead of Farmer: negotiate it (or break it down) to move on"
    sweep(keeper, BODIES)

    # Harvey hurt: First Aid and Medicine become possible for him, a dying roll still not.
    keeper.ok(keeper.post(f"/participants/{harvey}/damage", {"amount": 3}))
    view = keeper.track()
    assert {"first_aid", "medicine"} <= allowed(view, harvey)
    assert actions_of(view, harvey)["dying_roll"]["why"] == "Harvey is not dying"
    sweep(keeper, BODIES)

    # An undo ends no turn.
    assert keeper.ok(keeper.post("/undo", {"count": 1}))["chase"]["turn"]["ended_by_last_command"] is False


def test_a_player_reads_what_their_own_token_may_do(keeper):
    # Harvey's player: his own moves, not the farmer's, and none of the Keeper's commands.
    keeper.create("Harvey and the farmer", dice="server")
    harvey, farmer = keeper.add(**HARVEY), keeper.add(**FARMER)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    keeper.cut(opening_range=2)
    player = keeper.player("Harvey")
    view = player.track()
    assert "move" in allowed(view, harvey)
    theirs = actions_of(view, farmer)["move"]
    assert (theirs["allowed"], theirs["why"]) == (False, "not your participant")
    undo = actions_of(view)["undo"]
    assert (undo["allowed"], undo["why"]) == (False, "only the Keeper may do this")
    assert actions_of(view)["request_undo"]["allowed"] is True
    assert player.post(theirs["href"].removeprefix(f"/chases/{keeper.chase_id}"), {"locations": 1}).status_code == 403

    # The Keeper reads the same chase with everything the rules allow.
    assert "undo" in allowed(keeper.track())


def test_a_past_version_is_read_only_and_a_minimal_answer_carries_none_of_it(keeper):
    keeper.create("Harvey and the farmer", dice="server")
    keeper.add(**HARVEY)
    keeper.add(**FARMER)
    keeper.speed_roll("Harvey", [70, 2])
    keeper.speed_roll("Farmer", [80, 0])
    cut = keeper.cut(opening_range=2)
    keeper.move("Harvey", 1)

    # Time travel to the cut: the view as it was, distances and turn included, but no actions.
    past = keeper.ok(keeper.http.get(f"/chases/{keeper.chase_id}/track", query_string={"version": cut["version"]}))["chase"]
    assert past["actions"] == [] and all(p["allowed_actions"] == p["refused_actions"] == [] for p in past["participants"].values())
    assert past["turn"]["participant_id"] == keeper.ids["Harvey"]
    assert past["participants"][keeper.ids["Harvey"]]["distances"] == [{"to": keeper.ids["Farmer"], "locations": 2}]

    # A command answered minimally carries the envelope only.
    minimal = keeper.ok(keeper.post(f"/participants/{keeper.ids['Farmer']}/end-turn", headers={"Prefer": "return=minimal"}))["chase"]
    assert "actions" not in minimal and "participants" not in minimal


def test_a_fight_offers_the_fight_and_then_the_turns(keeper):
    body = keeper.ok(keeper.http.post("/chases", json={"name": "In the cellar", "dice": "server", "system": "coc7e-combat"}), 201)
    keeper.chase_id, keeper.http.token = body["chase"]["chase_id"], body["keeper_token"]
    harvey, deep_one = keeper.add(**HARVEY), keeper.add(name="Deep one", role="pursuer", dex=50, con=50, mov=8, hp=15, skills={"Fighting (Brawl)": 45})
    assert "begin_fight" in allowed(keeper.track())
    sweep(keeper, BODIES)

    fight = keeper.ok(keeper.post("/fight", {}))["chase"]
    first = fight["turn"]["participant_id"]
    assert first in (harvey, deep_one) and {"attack", "end_turn"} <= allowed(fight, first)
    assert actions_of(fight)["begin_fight"]["why"] == "the fight has already begun"
    sweep(keeper, BODIES)
