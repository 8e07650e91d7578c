"""The track view tells a front-end what each participant may do now (issue 18 part 4), for Savage
Worlds (Adventure Edition chase cards, Deluxe action cards) and D6: every action it offers that
the test can send succeeds, every refusal is the command's own, and whose turn is next, that a
command ended a turn and the distances between rivals are in the view."""
from __future__ import annotations

from typing import Any

from tests.e2e.affordance_checks import actions_of, allowed, sweep
from tests.e2e.d6_table import D6Table
from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def _rival(view: dict[str, Any], p: dict[str, Any]) -> str:
    unit = view["participants"][p["unit"]]
    return next(q["id"] for q in view["participants"].values() if q["role"] != unit["role"] and q["unit"] == q["id"])


SERVER = {"dice": "server"}  # a try is undone at once: the server rolls for it
NOT_SENT = lambda view, p: None  # noqa: E731 - what needs the GM's own input (a card to keep, a benny's use, ...)

SWADE = {
    "end_turn": lambda view, p: {},
    "hold": lambda view, p: {},
    "act_from_hold": lambda view, p: {},
    "new_action_card": NOT_SENT,
    "change_position": lambda view, p: {"direction": 1, **SERVER},
    "drop_back": lambda view, p: {},
    "evade": lambda view, p: {},
    "hold_steady": lambda view, p: {},
    "flee": NOT_SENT,  # four cards from the closest foe: the test's row is shorter
    "force": lambda view, p: {"target_id": _rival(view, p), "direction": 1, **SERVER},
    "ram": lambda view, p: {"target_id": _rival(view, p), **SERVER},
    "attack": NOT_SENT,
    "recover": lambda view, p: {**SERVER},
    "recover_from_stunned": lambda view, p: {"trait_die": "d6", **SERVER},
    "break_free": lambda view, p: {"trait_die": "d6", **SERVER},
    **dict.fromkeys(("conditions", "bennies", "benny_reroll", "benny_soak", "test"), NOT_SENT),
    "add_participant": lambda view, p: {"name": "Walker", "role": "quarry", "maneuver_die": "d6", "toughness": 5},
    "begin": NOT_SENT,
    "resolve": NOT_SENT,
    "trait_roll": lambda view, p: {"participant_id": next(iter(view["participants"])), "trait_die": "d8", **SERVER},
    "damage_roll": NOT_SENT,
    "breaking_things": NOT_SENT,
    "action_cards": lambda view, p: {"cards": {pid: "2C" for pid, q in view["participants"].items() if q["unit"] == pid}},
}


def test_an_adventure_edition_chase_offers_its_maneuvers_to_the_unit_whose_turn_it_is(client):
    # The Sedan (Dan driving) after the Bike (Eve riding), both on the fourth card; the Sedan's King acts first.
    table = SavageTable(client, "swade")
    sedan = table.vehicle_with_driver("Sedan", "chaser", "Dan")
    bike = table.vehicle_with_driver("Bike", "quarry", "Eve")
    assert "add_participant" in allowed(table.track()) and "begin" in allowed(table.track())
    sweep(table, SWADE)
    table.begin(mode="vehicular", placements={"Sedan": 3, "Bike": 3}, row=ROW)
    table.deal(Sedan="KH", Bike="5D")
    view = table.track()
    assert view["turn"] == {"round": 1, "participant_id": sedan, "next_participant_id": bike, "ended_by_last_command": False}
    assert view["participants"][sedan]["distances"] == [{"to": bike, "locations": 0}]
    assert {"change_position", "evade", "end_turn", "hold"} <= allowed(view, sedan) and allowed(view, table.ids["Dan"]) >= {"change_position"}
    refused = actions_of(view, bike)["change_position"]
    assert refused["allowed"] is False and refused["why"].startswith("Bike cannot Change Position: it is Sedan's turn")
    assert actions_of(view)["action_cards"]["why"].startswith("round 1 is still being played: end its turns first")
    assert sweep(table, SWADE)["allowed"] >= 8

    # The Sedan ends its turn: the view says a turn ended and the Bike acts.
    chase = table.end_turn("Sedan")["chase"]
    assert chase["turn"]["participant_id"] == bike and chase["turn"]["ended_by_last_command"] is True
    sweep(table, SWADE)


SWD = {
    "end_turn": lambda view, p: {},
    "maneuver": lambda view, p: {**SERVER},
    "cooperate": lambda view, p: {**SERVER},
    "attack": NOT_SENT,
    "force": NOT_SENT,
    "recover": lambda view, p: {},
    "recover_from_stunned": lambda view, p: {"trait_die": "d6"},
    "break_free": lambda view, p: {"trait_die": "d6"},
    **dict.fromkeys(("conditions", "bennies", "benny_reroll", "benny_soak", "test"), NOT_SENT),
    "add_participant": lambda view, p: {"name": "Walker", "role": "quarry", "maneuver_die": "d6", "toughness": 5},
    "begin": NOT_SENT,
    "resolve": NOT_SENT,
    "trait_roll": lambda view, p: {"participant_id": next(iter(view["participants"])), "trait_die": "d8"},
    "damage_roll": NOT_SENT,
    "breaking_things": NOT_SENT,
}


def test_a_deluxe_chase_offers_the_maneuver_roll_to_everyone_then_the_cards_turns(client):
    table = SavageTable(client, "swd", dice="table")
    hunter = table.add(name="Hunter", role="chaser", maneuver_die="d8", spirit="d6", toughness=6, pace=6)
    thief = table.add(name="Thief", role="quarry", maneuver_die="d6", spirit="d6", wild_card=False, toughness=5, pace=6)
    table.begin()
    # The maneuver rolls: both may roll, no one may end a turn yet.
    view = table.track()
    assert {"maneuver"} <= allowed(view, hunter) and {"maneuver"} <= allowed(view, thief)
    assert actions_of(view, hunter)["end_turn"]["allowed"] is False
    assert actions_of(view, hunter)["cooperate"]["why"].startswith("Hunter is no passenger: cooperative rolls are the passengers'")

    # The Hunter earns a card, the Thief none: the Hunter's turn, and his maneuver roll is over.
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["9H"])
    chase = table.act("Thief", "maneuver", table_dice=[2])["chase"]
    assert chase["turn"]["participant_id"] == hunter and "end_turn" in allowed(chase, hunter)
    assert actions_of(chase, hunter)["maneuver"]["why"].startswith("the maneuver rolls of round 1 are over: the cards are being resolved")
    assert actions_of(chase, thief)["end_turn"]["allowed"] is False
    ended = table.end_turn("Hunter")["chase"]
    assert ended["turn"]["ended_by_last_command"] is True


D6 = {
    "move": lambda view, p: None,  # the rate and movement type are the player's declaration (test_d6_movement_rules.py)
    "fatigue_roll": lambda view, p: {},
    "set_fatigue_limit": lambda view, p: {"fatigue_limit": 2},
    "add_participant": lambda view, p: {"name": "Walker", "role": "quarry", "move": 10, "physique": "3D"},
    "begin": lambda view, p: {},
    "skill_roll": NOT_SENT,
    "end_round": lambda view, p: {},
}


def test_a_d6_chase_offers_moves_to_everyone_in_it_and_ending_the_round_to_the_gm(client):
    table = D6Table(client)
    table.add(name="Hunter", role="pursuer", move=10, position=0)
    table.add(name="Prey", role="quarry", move=10, position=5)
    view = table.track()
    assert {"add_participant", "begin"} <= allowed(view)
    assert actions_of(view, table.ids["Hunter"])["move"]["why"] == "the chase has not begun: add the participants, then begin it"
    sweep(table, D6)

    chase = table.begin()
    hunter, prey = table.ids["Hunter"], table.ids["Prey"]
    assert chase["participants"][hunter]["distances"] == [{"to": prey, "metres": 5}]
    assert "move" in allowed(chase, hunter) and "end_round" in allowed(chase)
    assert actions_of(chase, hunter)["fatigue_roll"]["why"] == "Hunter has no fatigue modifier to overcome"
    assert actions_of(chase)["add_participant"]["why"] == "participants join before the chase begins"
    sweep(table, D6)
    assert table.end_round()["chase"]["turn"]["ended_by_last_command"] is True
