"""Bad input to the Savage Worlds chases: each a clear 4xx problem, and nothing recorded."""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_savage_worlds_swade_maneuvers import ROW, cars
from tests.e2e.test_savage_worlds_swd import EXTRA_FAILS, deluxe


def path(table: SavageTable, name: str, action: str) -> str:
    return f"/{table.system}/participants/{table.ids[name]}/{action}"


# -- the four -----------------------------------------------------------------------------


def test_change_position_twice_in_a_turn(client):
    table = cars(client)
    table.act("Sedan", "change-position", direction=1, table_dice=[5, 2])
    problem = table.refused(path(table, "Sedan", "change-position"), {"direction": 1, "as_action": True, "table_dice": [5, 2]}, 409)
    assert problem["title"] == "Rule broken" and "once per turn" in problem["detail"]
    assert problem["rule"].startswith("swade-chases-reference.txt \"MANEUVERS\", CHANGE POSITION")


def test_ram_across_cards(client):
    table = cars(client, placements=(2, 4))
    problem = table.refused(path(table, "Sedan", "ram"), {"target_id": table.ids["Bike"], "table_dice": [7, 5], "defender_table_dice": [3, 2]}, 409)
    assert "same Chase Card" in problem["detail"] and "2 card(s) away" in problem["detail"]


def test_flee_at_three_cards(client):
    table = cars(client, placements=(0, 3))
    table.end_turn("Sedan")
    problem = table.refused(path(table, "Bike", "flee"), {"table_dice": [8, 6, 5, 6, 2]}, 409)
    assert "at least four Chase Cards" in problem["detail"] and "FLEE" in problem["rule"]


def test_a_card_not_in_the_deck(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": 0, "Bike": 8}, row=ROW)
    # The Action deck is a second deck: 2S is on the row, yet still in it.
    table.deal(Sedan="2S", Bike="3S")
    table.end_turn("Bike")
    table.end_turn("Sedan")
    # 2S was dealt this round and sits on the discard pile until the deck is shuffled again.
    deal = "/swade/action-cards"
    problem = table.refused(deal, {"cards": {table.ids["Sedan"]: "2S", table.ids["Bike"]: "4S"}}, 409)
    assert "2 of Spades" in problem["detail"]
    assert "Action Cards" in problem["rule"]
    # Twice the same card in one deal.
    problem = table.refused(deal, {"cards": {table.ids["Sedan"]: "QH", table.ids["Bike"]: "QH"}}, 409)
    assert "already been dealt" in problem["detail"]
    # Not a card at all.
    problem = table.refused(deal, {"cards": {table.ids["Sedan"]: "QX", table.ids["Bike"]: "4S"}}, 422)
    assert problem["errors"][0]["field"] == "card"


def test_a_chase_card_already_on_the_row(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    problem = table.refused("/swade/begin", {"mode": "vehicular", "placements": {table.ids["Sedan"]: 0, table.ids["Bike"]: 1}, "row": ["2S", "3S", "2S"]}, 409)
    assert "already been dealt" in problem["detail"]


def test_a_kept_cards_discards_are_not_in_the_deck(client):
    table = deluxe(client)
    table.act("Hunter", "maneuver", table_dice=[7, 2], modifier=1, cards=["KC", "9H"], keep="9H")
    table.refused(path(table, "Thief", "maneuver"), {"table_dice": [5], "cards": ["KC"]}, 409)


# -- turns, phases and follow-ups -----------------------------------------------------------------


def test_acting_out_of_turn(client):
    table = cars(client)
    problem = table.refused(path(table, "Bike", "change-position"), {"direction": 1, "table_dice": [5, 2]}, 409)
    assert "it is Sedan's turn" in problem["detail"]


def test_maneuvers_before_the_chase_begins(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.refused(path(table, "Sedan", "evade"), {}, 409)
    table.refused("/swade/action-cards", {}, 409)


def test_the_chase_needs_both_sides_and_every_unit_placed(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.refused("/swade/begin", {"mode": "vehicular", "placements": {table.ids["Sedan"]: 0}, "row": ROW}, 409)
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    problem = table.refused("/swade/begin", {"mode": "vehicular", "placements": {table.ids["Sedan"]: 0}, "row": ROW}, 422)
    assert problem["errors"][0]["field"] == "placements"
    problem = table.refused("/swade/begin", {"mode": "vehicular", "placements": {table.ids["Sedan"]: 0, table.ids["Bike"]: 9}, "row": ROW}, 422)
    assert "0 (rear) to 8 (front)" in problem["detail"]
    problem = table.refused("/swade/begin", {"mode": "submarine", "placements": {}, "row": ROW}, 422)
    assert problem["errors"][0]["field"] == "mode"


def test_nothing_else_while_a_follow_up_waits(client):
    table = cars(client)
    table.act("Sedan", "change-position", direction=1, table_dice=[1, 1])  # Out of Control waits
    problem = table.refused(path(table, "Sedan", "evade"), {}, 409)
    assert "out of control" in problem["detail"]
    table.refused("/swade/resolve", {}, 422)  # the roll's faces are missing
    table.refused("/swade/resolve", {"table_dice": [3]}, 422)  # 2d6, not one die


def test_resolving_with_nothing_waiting(client):
    table = cars(client)
    problem = table.refused("/swade/resolve", {"table_dice": [3, 3]}, 409)
    assert "nothing is waiting" in problem["detail"]


def test_table_dice_that_stop_in_the_middle_of_an_ace(client):
    table = cars(client)
    problem = table.refused(path(table, "Sedan", "change-position"), {"direction": 1, "table_dice": [8, 2]}, 422)
    assert "d8 is still to roll" in problem["detail"]


def test_a_shaken_driver_takes_no_action(client):
    table = cars(client)
    table.post(f"/swade/participants/{table.ids['Dan']}/conditions", {"shaken": True})
    problem = table.refused(path(table, "Sedan", "flee"), {"table_dice": [5, 2]}, 409)
    assert "Shaken" in problem["detail"]
    # A free action is still allowed.
    table.act("Sedan", "change-position", direction=1, table_dice=[5, 2])


def test_vehicles_cannot_be_shaken(client):
    table = cars(client)
    problem = table.refused(f"/swade/participants/{table.ids['Sedan']}/conditions", {"shaken": True}, 409)
    assert "cannot be Shaken" in problem["detail"]


def test_deluxe_maneuver_twice_and_wrong_card_count(client):
    table = deluxe(client)
    problem = table.refused(path(table, "Hunter", "maneuver"), {"table_dice": [5, 2], "cards": ["2H", "3H"]}, 422)
    assert problem["errors"][0]["field"] == "cards"
    table.act("Hunter", "maneuver", table_dice=[5, 2], cards=["2H"])
    table.refused(path(table, "Hunter", "maneuver"), {"table_dice": [5, 2], "cards": ["3H"]}, 409)
    table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)


# -- participants, systems and who may act -----------------------------------------------------------


def test_bad_participants(client):
    table = SavageTable(client, "swade")
    problem = table.refused("/swade/participants", {"name": "Tank", "kind": "vehicle", "role": "chaser", "top_speed": 30}, 422)
    assert problem["errors"][0]["field"] == "toughness"
    problem = table.refused("/swade/participants", {"name": "Ghost", "with_id": "nobody"}, 422)
    assert problem["errors"][0]["field"] == "with_id"
    problem = table.refused("/swade/participants", {"name": "Dan", "role": "chaser", "maneuver_die": "d7"}, 422)
    assert problem["errors"][0]["field"] == "maneuver_die"
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    problem = table.refused("/swade/participants", {"name": "Dave", "with_id": table.ids["Sedan"], "seat": "driver"}, 422)
    assert "already has a driver" in problem["detail"]


def test_an_unknown_participant_is_not_found(client):
    table = cars(client)
    problem = table.refused("/swade/participants/nobody/evade", {}, 404)
    assert "no participant nobody" in problem["detail"]


def test_commands_of_another_system_are_refused(client):
    swade = cars(client)
    problem = swade.refused("/swd/begin", {}, 409)
    assert "this is a swade chase" in problem["detail"]
    problem = swade.refused("/cut-to-the-chase", {}, 409)  # a Call of Cthulhu procedure
    assert "this is a swade chase" in problem["detail"] and "for coc7e chases" in problem["detail"]

    response = swade.http.post("/chases", json={"name": "CoC", "dice": "table"})
    body = response.get_json()
    other = f"/chases/{body['chase']['chase_id']}/swade/begin"
    refused = swade.http.client.post(other, json={"mode": "foot", "placements": {}}, headers={"Authorization": f"Bearer {body['keeper_token']}"})
    assert refused.status_code == 409 and "this is a coc7e chase" in refused.get_json()["detail"]


def test_an_unknown_system_is_refused(client):
    response = client.post("/chases", json={"name": "D&D", "system": "dnd5e"})
    assert response.status_code == 422 and response.get_json()["errors"][0]["field"] == "system"


def test_players_act_for_their_own_units_and_only_the_gm_deals(client):
    table = cars(client)
    token = table.post("/tokens", {"participant_ids": [table.ids["Dan"]]}, 201)["token"]
    headers = {"Authorization": f"Bearer {token}"}
    player = table.http.client
    ok = player.post(table.url(path(table, "Sedan", "change-position")), json={"direction": 1, "table_dice": [5, 2]}, headers=headers)
    assert ok.status_code == 200, ok.get_json()
    assert player.post(table.url(path(table, "Bike", "evade")), json={}, headers=headers).status_code == 403
    assert player.post(table.url("/swade/action-cards"), json={}, headers=headers).status_code == 403
    assert player.post(table.url("/swade/begin"), json={"mode": "foot", "placements": {}}, headers=headers).status_code == 403
