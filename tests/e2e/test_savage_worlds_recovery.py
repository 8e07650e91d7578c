"""Recovering from Stunned and breaking free over HTTP, with table dice (issue 17).

swade-chases-reference.txt "COMBAT OPTIONS & SITUATIONAL RULES", "Stunned" ("Distracted until they
recover"; the core rules' Vigor roll at the start of the turn) and "Bound & Entangled", "Breaking
Free": "Athletics (or Str-2) roll as an action (an opposed roll if held by a foe). Success
improves Bound to Entangled, or Entangled to free. A raise frees the victim."
"""
from __future__ import annotations

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def ann_first(client) -> SavageTable:
    table = SavageTable(client, "swade")
    table.add(name="Ann", role="chaser", maneuver_die="d8", toughness=5)
    table.add(name="Bob", role="quarry", maneuver_die="d8", toughness=5)
    table.begin(mode="foot", placements={"Ann": 3, "Bob": 3}, row=ROW)
    table.deal(Ann="KH", Bob="5D")
    return table


def condition(table: SavageTable, name: str, **changes) -> dict:
    return table.post(f"/swade/participants/{table.ids[name]}/conditions", changes)["chase"]


def test_a_vigor_roll_ends_stunned_leaving_her_vulnerable_and_a_raise_ends_both(client):
    table = ann_first(client)
    condition(table, "Ann", stunned=True)
    # Vigor d6: 5, Distracted (Stunned) -2: 3, a failure; she stays Stunned.
    body = table.act("Ann", "recover-from-stunned", trait_die="d6", table_dice=[5, 1])
    assert body["rolls"][0]["purpose"] == "recover from Stunned" and body["rolls"][0]["total"] == 3
    assert table.who(body["chase"], "Ann")["conditions"]["stunned"]
    table.post("/undo", {"count": 1})
    # 6 aces into 4 (10) - 2 = 8: a raise: neither Stunned nor Vulnerable.
    body = table.act("Ann", "recover-from-stunned", trait_die="d6", table_dice=[6, 1, 4])
    c = table.who(body["chase"], "Ann")["conditions"]
    assert body["outcome"] == {"recovered": True, "vulnerable": False} and not c["stunned"] and not c["vulnerable"]
    table.post("/undo", {"count": 1})
    # Vigor d8: 6 - 2 = 4, a success: no longer Stunned, Vulnerable until the end of her next turn.
    body = table.act("Ann", "recover-from-stunned", trait_die="d8", table_dice=[6, 1])
    c = table.who(body["chase"], "Ann")["conditions"]
    assert body["outcome"] == {"recovered": True, "vulnerable": True} and not c["stunned"] and c["vulnerable"]
    problem = table.refused(f"/swade/participants/{table.ids['Bob']}/recover-from-stunned", {"trait_die": "d6", "table_dice": [4, 1]}, 409)
    assert "turn" in problem["detail"]


def test_breaking_free_bound_to_entangled_to_free_and_a_raise_frees(client):
    table = ann_first(client)
    condition(table, "Ann", bound=True)
    # Athletics d8: 7 - 2 (Distracted) = 5, a success: Bound becomes Entangled.
    body = table.act("Ann", "break-free", trait_die="d8", table_dice=[7, 1])
    c = table.who(body["chase"], "Ann")["conditions"]
    assert body["outcome"]["entangled"] and not c["bound"] and c["entangled"]
    table.post("/undo", {"count": 1})
    # With a raise (8 aces into 6: 14 - 2 = 12) she is free at once; Strength at -2 named.
    body = table.act("Ann", "break-free", trait_die="d8", strength=True, table_dice=[8, 1, 6])
    assert body["rolls"][0]["modifiers"]["Strength (Str-2)"] == -2 and body["outcome"]["freed"]
    c = table.who(body["chase"], "Ann")["conditions"]
    assert not c["bound"] and not c["entangled"]


def test_held_by_a_foe_breaking_free_is_opposed(client):
    table = ann_first(client)
    condition(table, "Ann", entangled=True)
    # Ann 6 - 2 = 4 against Bob's hold of 5: she stays Entangled.
    body = table.act("Ann", "break-free", trait_die="d8", held_by=table.ids["Bob"], defender_die="d6", table_dice=[6, 1], defender_table_dice=[5, 2])
    assert [r["purpose"] for r in body["rolls"]] == ["break free", "hold on (breaking free)"] and not body["outcome"]["freed"]
    problem = table.refused(f"/swade/participants/{table.ids['Ann']}/break-free", {"trait_die": "d8", "held_by": table.ids["Bob"], "table_dice": [6, 1]}, 422)
    assert problem["errors"][0]["field"] == "defender_die"
