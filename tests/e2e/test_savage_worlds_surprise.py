"""Surprise over HTTP, with a physical deck (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS, CONTINUED", "Surprise": "victims make Notice roll or
get no Action Card on first round". The GM has the victims roll Notice (trait-rolls) and names
those who failed when dealing the first round's cards.
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def ambush(client) -> SavageTable:
    table = SavageTable(client, "swade")
    table.add(name="Ann", role="chaser", maneuver_die="d8", toughness=5)
    table.add(name="Bob", role="quarry", maneuver_die="d8", toughness=5)
    table.add(name="Cid", role="quarry", maneuver_die="d8", toughness=5)
    table.begin(mode="foot", placements={"Ann": 3, "Bob": 5, "Cid": 6}, row=ROW)
    return table


def test_the_surprised_who_fail_notice_get_no_card_in_the_first_round(client):
    table = ambush(client)
    notice = table.post("/swade/trait-rolls", {"participant_id": table.ids["Bob"], "trait_die": "d6", "purpose": "Notice", "table_dice": [2, 1]})
    assert not notice["rolls"][0]["success"]
    chase = table.post("/swade/action-cards", {"cards": {table.ids["Ann"]: "5H", table.ids["Cid"]: "9S"}, "surprised": [table.ids["Bob"]]})["chase"]
    assert chase["turn_order"] == [table.ids["Cid"], table.ids["Ann"]] and table.who(chase, "Bob")["action_cards"] == []
    table.end_turn("Cid")
    chase = table.end_turn("Ann")["chase"]
    # The second round: everyone is dealt a card again; Surprise is for the first round only.
    problem = table.refused("/swade/action-cards", {"cards": {table.ids["Ann"]: "2H", table.ids["Cid"]: "3S"}, "surprised": [table.ids["Bob"]]}, 409)
    assert "first round" in problem["detail"] and "Surprise" in problem["rule"]
    chase = table.post("/swade/action-cards", {"cards": {table.ids[n]: c for n, c in (("Ann", "2H"), ("Bob", "KD"), ("Cid", "3S"))}})["chase"]
    assert chase["turn_order"][0] == table.ids["Bob"]


def test_no_one_left_to_act_is_refused(client):
    table = ambush(client)
    problem = table.refused("/swade/action-cards", {"cards": {}, "surprised": [table.ids[n] for n in ("Ann", "Bob", "Cid")]}, 422)
    assert problem["errors"][0]["field"] == "surprised"
