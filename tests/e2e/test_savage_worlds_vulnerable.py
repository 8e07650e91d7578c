"""Vulnerable against Force and Ram, over HTTP with table dice and a physical deck (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Vulnerable": "Actions against
the character are made at +2". A Force or a Ram is an action against the foe's unit, so the
attacker's maneuvering roll gets +2 when that unit (a vehicle "and everyone on board", "OUT OF
CONTROL") or the one who maneuvers it is Vulnerable; swd-chases.txt "Resolve Actions" (Force)
likewise. Faces of a trait roll: the trait die, the Wild Die, then any ace's rerolls.
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def cars_on_one_card(client) -> SavageTable:
    """A Sedan (Dan d8) and a Bike (Eve d8) on the same Chase Card; the Sedan acts first."""
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": 3, "Bike": 3}, row=ROW)
    table.deal(Sedan="KH", Bike="5D")
    return table


def test_force_against_a_vulnerable_driver_is_made_at_plus_two(client):
    table = cars_on_one_card(client)
    # The GM makes the Bike's rider Vulnerable (say, a Test lost); then the Sedan Forces the Bike.
    table.post(f"/swade/participants/{table.ids['Eve']}/conditions", {"vulnerable": True, "reason": "a Test"})
    body = table.act("Sedan", "force", target_id="Bike", direction=-1, table_dice=[3, 2], defender_table_dice=[4, 2])

    force, resist = body["rolls"]
    # 3 + 2 = 5 beats the Bike's 4: the +2 turned a lost Force into a Bump.
    assert force["modifiers"]["Vulnerable"] == 2 and force["total"] == 5
    assert "Vulnerable" not in resist["modifiers"]
    assert body["outcome"]["winner"] == "attacker" and table.position("Bike", body["chase"]) == 2


def test_ram_against_a_vulnerable_vehicle_is_made_at_plus_two(client):
    table = cars_on_one_card(client)
    # "OUT OF CONTROL" 10-11: the vehicle and everyone on board Vulnerable; here the GM sets the vehicle's.
    table.post(f"/swade/participants/{table.ids['Bike']}/conditions", {"vulnerable": True})
    body = table.act("Sedan", "ram", target_id="Bike", table_dice=[2, 1], defender_table_dice=[3, 3])

    ram = body["rolls"][0]
    assert ram["purpose"] == "Ram" and ram["modifiers"]["Vulnerable"] == 2 and ram["total"] == 4
    assert body["outcome"]["rammed"] is True  # 4 against 3


def test_no_bonus_against_a_foe_who_is_not_vulnerable(client):
    table = cars_on_one_card(client)
    body = table.act("Sedan", "ram", target_id="Bike", table_dice=[2, 1], defender_table_dice=[3, 3])
    assert "Vulnerable" not in body["rolls"][0]["modifiers"] and body["outcome"]["rammed"] is False


def test_deluxe_force_against_a_vulnerable_foe_is_made_at_plus_two(client):
    table = SavageTable(client, "swd")
    table.add(name="Hunter", role="chaser", maneuver_die="d8", spirit="d6", toughness=6, pace=6)
    table.add(name="Thief", role="quarry", maneuver_die="d6", spirit="d6", wild_card=False, toughness=5, pace=6)
    table.begin()
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["KH"])
    table.act("Thief", "maneuver", table_dice=[2])  # no card: the Hunter has the Advantage
    table.post(f"/swd/participants/{table.ids['Thief']}/conditions", {"vulnerable": True})

    body = table.act("Hunter", "force", target_id="Thief", table_dice=[2, 1], defender_table_dice=[3])
    force = body["rolls"][0]
    # The King is Short Range (no penalty): 2 + 2 = 4 beats the Thief's 3.
    assert force["modifiers"] == {"situational": 0, "range": 0, "Vulnerable": 2} and force["total"] == 4
    assert body["outcome"] == {"force": "avoid obstacle"}
