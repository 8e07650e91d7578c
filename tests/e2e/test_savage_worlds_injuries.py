"""The Injury table when a character is Incapacitated, over HTTP with table dice (issue 17).

swade-chases-reference.txt "INJURY TABLE": 2d6 (2 Unmentionables, 3-4 Arm, 5-9 Guts, 10-11 Leg,
12 Head), Guts and Head with a d6 on their sub-tables, the arm "rolled randomly".
"""
from __future__ import annotations

from infrastructure.systems import verify
from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def runners(client, dice: str = "table") -> SavageTable:
    table = SavageTable(client, "swade", dice=dice)
    table.add(name="Ann", role="chaser", maneuver_die="d8", toughness=5)
    table.add(name="Bob", role="quarry", maneuver_die="d8", toughness=5)
    table.add(name="Cid", role="quarry", maneuver_die="d8", toughness=5, wild_card=False)
    if dice == "table":
        table.begin(mode="foot", placements={"Ann": 3, "Bob": 5, "Cid": 6}, row=ROW)
    else:
        table.begin(mode="foot", placements={"Ann": 3, "Bob": 5, "Cid": 6})
    return table


def test_an_incapacitated_character_rolls_on_the_injury_table_and_its_guts_sub_table(client):
    table = runners(client)
    chase = table.damage("Bob", "2d6", [5, 5], modifier=11)["chase"]  # 21: four Wounds
    assert table.who(chase, "Bob")["status"] == "incapacitated" and table.pending(chase) == ["injury"]

    body = table.resolve(table_dice=[3, 4])  # 7: Guts
    assert body["rolls"][0]["purpose"] == "Injury" and body["outcome"]["outcome"] == "Guts"
    assert table.pending(body["chase"]) == ["injury sub-table"]
    body = table.resolve(table_dice=[4])  # 3-4: Battered
    assert body["outcome"]["outcome"] == "Guts: Battered" and body["chase"]["pending"] == []
    injury = table.who(body["chase"], "Bob")["injuries"][0]
    assert injury["effect"].startswith("Vigor reduced a die type") and "INJURY TABLE" in injury["source"]
    assert [e["name"] for e in table.events() if e["name"] == "InjuryTaken"] == ["InjuryTaken"]
    assert table.track()["phase"] == "running"  # Cid is still in the chase


def test_a_leg_needs_no_sub_roll_and_the_arm_is_rolled_randomly(client):
    table = runners(client)
    table.damage("Bob", "2d6", [5, 5], modifier=11)
    assert table.resolve(table_dice=[5, 5])["outcome"]["outcome"] == "Leg"
    table.damage("Cid", "2d6", [5, 5])  # an Extra: any Wound Incapacitates
    assert table.resolve(table_dice=[1, 2])["outcome"]["outcome"] == "Arm"
    body = table.resolve(table_dice=[5])
    # The last quarry is out: once the injury is rolled, the chase ends.
    assert body["outcome"]["outcome"] == "Arm (right)" and body["chase"]["phase"] == "ended"


def test_injury_rolls_with_server_dice_pass_chase_verify(client):
    table = runners(client, dice="server")
    table.post("/swade/damage-rolls", {"target_id": table.ids["Bob"], "expression": "2d6", "modifier": 20})
    while table.track()["pending"]:
        table.resolve()
    table.post("/reveal-seed")
    report = verify(table.get("/export"))
    rolls = [r["roll"]["purpose"] for r in table.rolls()]
    assert "Injury" in rolls and report.server_rolls_verified == len([r for r in table.rolls()])
