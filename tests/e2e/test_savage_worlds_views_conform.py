"""Whatever Action card is dealt, a Savage Worlds chase's answers are what the document says.

The schemathesis run (test_schemathesis.py) plays with the server's dice, so it saw a Two only
now and then: a Deluxe chase's Two is "Out of Range" (swd-chases.txt "Resolve Actions" -> SWD
p. 95, Chase Attack Range and Complication), with no Range penalty, and the view's null was not
in the document. Here a physical deck deals each card on purpose, and every answer is checked the
way schemathesis checks it: against its operation's documented response, anyOf included.
"""
from __future__ import annotations

from typing import Any

import pytest

from domain.rules.savage_worlds.cards import FULL_DECK
from tests.e2e import documented
from tests.e2e.savage_worlds_table import SavageTable

EXTRA_FAILS = [2]  # the Thief, an Extra: one die, no success, no card
ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]  # the Adventure Edition's Chase Cards


def violations(table: SavageTable, method: str, operation: str, answer: dict[str, Any]) -> list[str]:
    return documented.violations(table.http.client, method, operation, answer, "SavageView")


def deluxe(client) -> SavageTable:
    table = SavageTable(client, "swd")
    table.add(name="Hunter", role="chaser", maneuver_die="d8")
    table.add(name="Thief", role="quarry", maneuver_die="d6", wild_card=False)
    table.begin()
    return table


def test_a_deluxe_two_is_out_of_range_and_every_answer_conforms(client):
    # Given a Deluxe chase whose Hunter keeps a Two, and whose Thief keeps the King of Hearts
    table = deluxe(client)
    maneuver = table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["2H"])
    assert violations(table, "post", "/chases/{chase_id}/swd/participants/{participant_id}/maneuver", maneuver) == []
    table.act("Thief", "maneuver", table_dice=[5], cards=["KH"])

    # When the GM gives the Hunter a benny and the table looks at the track
    bennies = table.act("Hunter", "bennies", change=1)
    track = table.get("/track")

    # Then the Two is Out of Range, without a penalty, and each answer is as documented
    row = next(c for c in track["chase"]["action_cards"] if c["card"] == "2H")
    assert (row["attack_range"], row["range_penalty"], row["advantage_over"]) == ("Out of Range", None, [])
    assert violations(table, "post", "/chases/{chase_id}/{system}/participants/{participant_id}/bennies", bennies) == []
    assert violations(table, "get", "/chases/{chase_id}/track", track) == []


def test_a_deluxe_two_with_the_advantage_still_may_not_attack(client):
    # Given the Hunter keeps a Two and the Thief no card: the Hunter has the Advantage
    table = deluxe(client)
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["2H"])
    answer = table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)
    assert next(c for c in answer["chase"]["action_cards"])["advantage_over"] == [table.ids["Thief"]]
    assert violations(table, "post", "/chases/{chase_id}/swd/participants/{participant_id}/maneuver", answer) == []

    # When he attacks, then he is refused: a Two is Out of Range, no attack this round
    problem = table.refused(f"/swd/participants/{table.ids['Hunter']}/attack", {"target_id": table.ids["Thief"], "trait_die": "d8", "table_dice": [6, 2]}, 409)
    assert "Out of Range" in problem["detail"]


@pytest.mark.parametrize("card", [c.code for c in FULL_DECK])
def test_whatever_action_card_is_kept_the_answers_conform(client, card):
    # Given a Deluxe chase and an Adventure Edition chase, each dealing the Hunter this card
    deluxe_table = deluxe(client)
    kept = deluxe_table.act("Hunter", "maneuver", table_dice=[6, 2], cards=[card])
    ended = deluxe_table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)
    adventure = SavageTable(client, "swade")
    adventure.add(name="Hunter", role="chaser", maneuver_die="d8")
    adventure.add(name="Thief", role="quarry", maneuver_die="d6", wild_card=False)
    adventure.begin(mode="foot", placements={"Hunter": 1, "Thief": 4}, row=ROW)
    dealt = adventure.deal(Hunter=card, Thief="3D" if card != "3D" else "4D")

    # When the GM gives a benny in each
    answers = [
        (deluxe_table, "/chases/{chase_id}/swd/participants/{participant_id}/maneuver", kept),
        (deluxe_table, "/chases/{chase_id}/swd/participants/{participant_id}/maneuver", ended),
        (deluxe_table, "/chases/{chase_id}/{system}/participants/{participant_id}/bennies", deluxe_table.act("Hunter", "bennies", change=1)),
        (adventure, "/chases/{chase_id}/swade/action-cards", dealt),
        (adventure, "/chases/{chase_id}/{system}/participants/{participant_id}/bennies", adventure.act("Hunter", "bennies", change=1)),
    ]

    # Then every answer, and each track, is as the document says
    for table, operation, answer in answers:
        assert card in [c["card"] for c in answer["chase"]["action_cards"]]
        assert violations(table, "post", operation, answer) == [], (operation, answer["chase"]["action_cards"])
    for table in (deluxe_table, adventure):
        assert violations(table, "get", "/chases/{chase_id}/track", table.get("/track")) == []
