"""Multi-Actions over HTTP, with table dice and a physical deck (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Multi-Actions": "Subtract 2
from *all* actions for each additional action attempted beyond the first (maximum of 3)". The
engine counts each character's actions on their unit's turn; the player declares with the first
how many they take (``actions``), and each roll of the turn carries the named "multi-action"
modifier. Faces of a trait roll: the trait die, the Wild Die, then any ace's rerolls.
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def cars(client) -> SavageTable:
    """A Sedan (Dan driving, Pat aboard) and a Bike (Eve) on one card; the Sedan acts first."""
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.add(name="Pat", with_id="Sedan", maneuver_die="d6")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": 3, "Bike": 3}, row=ROW)
    table.deal(Sedan="KH", Bike="5D")
    return table


def test_two_declared_actions_are_each_made_at_minus_two_and_a_fourth_is_refused(client):
    table = cars(client)
    # Dan declares two actions this turn: a Force, then a shot at Eve.
    force = table.act("Sedan", "force", target_id="Bike", direction=-1, actions=2, table_dice=[6, 2], defender_table_dice=[3, 2])
    assert force["rolls"][0]["modifiers"]["multi-action"] == -2 and force["rolls"][0]["total"] == 4
    assert "multi-action" not in force["rolls"][1]["modifiers"]  # resisting is no action of Eve's
    shot = table.act("Dan", "attack", target_id="Eve", trait_die="d8", table_dice=[6, 1])
    assert shot["rolls"][0]["modifiers"]["multi-action"] == -2
    assert table.who(shot["chase"], "Dan")["actions_this_turn"] == {"taken": 2, "declared": 2}

    # A third action beyond those declared raises the count: -4 from now on.
    body = table.act("Sedan", "evade", as_action=True)
    assert table.who(body["chase"], "Dan")["actions_this_turn"] == {"taken": 3, "declared": 3}
    # "(maximum of 3)": a fourth is refused, citing the rule, and records nothing.
    problem = table.refused(
        f"/swade/participants/{table.ids['Dan']}/attack", {"target_id": table.ids["Eve"], "trait_die": "d8", "table_dice": [6, 1]}, 409
    )
    assert "Multi-Actions" in problem["rule"]

    # Pat, aboard the same Sedan, acts for himself: his first action has no penalty.
    body = table.act("Pat", "attack", target_id="Eve", trait_die="d6", table_dice=[4, 2])
    assert "multi-action" not in body["rolls"][0]["modifiers"]


def test_three_actions_cost_four_and_free_actions_do_not_count(client):
    table = cars(client)
    table.act("Sedan", "hold-steady")  # a free action
    body = table.act("Sedan", "change-position", direction=1, table_dice=[4, 1])  # free: no count, no penalty
    assert "multi-action" not in body["rolls"][0]["modifiers"]
    assert table.who(body["chase"], "Dan")["actions_this_turn"] == {"taken": 0, "declared": 1}
    body = table.act("Dan", "attack", target_id="Eve", trait_die="d8", actions=3, table_dice=[8, 2, 3])
    roll = body["rolls"][0]
    assert roll["modifiers"]["multi-action"] == -4 and roll["total"] == 8 + 3 - 4


def test_declaring_fewer_than_already_taken_or_more_than_three_is_refused(client):
    table = cars(client)
    table.act("Dan", "attack", target_id="Eve", trait_die="d8", table_dice=[5, 1])
    path = f"/swade/participants/{table.ids['Dan']}/attack"
    problem = table.refused(path, {"target_id": table.ids["Eve"], "trait_die": "d8", "actions": 1, "table_dice": [5, 1]}, 422)
    assert "actions" in str(problem)
    table.refused(path, {"target_id": table.ids["Eve"], "trait_die": "d8", "actions": 4, "table_dice": [5, 1]}, 422)
    # Undeclared, a second action is made at -2 (the first was rolled as the only one).
    body = table.act("Dan", "attack", target_id="Eve", trait_die="d8", table_dice=[5, 1])
    assert body["rolls"][0]["modifiers"]["multi-action"] == -2


def test_the_count_starts_again_each_turn_and_undo_takes_an_action_back(client):
    table = cars(client)
    table.act("Dan", "attack", target_id="Eve", trait_die="d8", actions=2, table_dice=[5, 1])
    body = table.post("/undo", {"count": 1})
    assert table.who(body["chase"], "Dan")["actions_this_turn"] == {"taken": 0, "declared": 1}
    table.act("Dan", "attack", target_id="Eve", trait_die="d8", table_dice=[5, 1])
    table.end_turn("Sedan")
    # The Bike's turn: Eve's first action; then the next round Dan's count is fresh.
    body = table.act("Eve", "attack", target_id="Dan", trait_die="d8", table_dice=[5, 1])
    assert "multi-action" not in body["rolls"][0]["modifiers"]
    assert table.who(body["chase"], "Dan")["actions_this_turn"] == {"taken": 0, "declared": 1}


def test_deluxe_attacks_with_advantage_count_too(client):
    table = SavageTable(client, "swd")
    table.add(name="Hunter", role="chaser", maneuver_die="d8", spirit="d6", toughness=6, pace=6)
    table.add(name="Thief", role="quarry", maneuver_die="d6", spirit="d6", wild_card=False, toughness=5, pace=6)
    table.begin()
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["KH"])
    table.act("Thief", "maneuver", table_dice=[2])
    first = table.act("Hunter", "attack", target_id="Thief", trait_die="d8", actions=2, table_dice=[6, 2])
    second = table.act("Hunter", "force", target_id="Thief", table_dice=[6, 2], defender_table_dice=[3])
    assert first["rolls"][0]["modifiers"]["multi-action"] == -2 and second["rolls"][0]["modifiers"]["multi-action"] == -2
