"""Deluxe: who becomes Shaken rolls Out of Control at once, over HTTP (issue 17).

swd-chases.txt "Resolve Actions": "All participants who become Shaken at any time must immediately
make an Out-of-Control roll (see SWD)". The table is the Savage Worlds Deluxe core book's "Out of
Control" (p. 117; domain/rules/savage_worlds/swd_out_of_control.py): 2 Roll Over, 3-4 Spin, 5-9
Skid, 10-11 Slip, 12 Flip; a Roll Over or a Flip is collision damage for the vehicle and everyone
inside. Table dice throughout but where the server's are checked by `chase verify`.
"""
from __future__ import annotations

from infrastructure.systems import verify
from tests.e2e.savage_worlds_table import SavageTable


def van_chase(client, dice: str = "table") -> SavageTable:
    """The Van (Toughness 10, 40 mph; Vic driving, Pat aboard) chases the Thief on foot."""
    table = SavageTable(client, "swd", dice=dice)
    table.add(name="Van", kind="vehicle", role="chaser", toughness=10, top_speed=40)
    table.add(name="Vic", with_id="Van", seat="driver", maneuver_die="d8", spirit="d6", toughness=5)
    table.add(name="Pat", with_id="Van", maneuver_die="d6", spirit="d6", toughness=5)
    table.add(name="Thief", role="quarry", maneuver_die="d6", spirit="d6", wild_card=False, toughness=5, pace=6)
    table.begin()
    return table


def test_a_driver_shaken_by_damage_rolls_out_of_control_and_a_roll_over_hurts_everyone_inside(client):
    table = van_chase(client)
    # A shot Shakes Vic, the Van's driver (6 against Toughness 5: Shaken, no Wound).
    body = table.damage("Vic", "2d6", [3, 3])
    assert table.pending(body["chase"]) == ["out of control"]
    assert body["chase"]["pending"][0]["participant_id"] == table.ids["Van"]
    # Nothing else happens before it: the chase waits for the roll.
    table.refused(f"/swd/participants/{table.ids['Van']}/maneuver", {"table_dice": [5, 2]}, 409)

    body = table.resolve(table_dice=[1, 1])  # 2: Roll Over
    roll = body["rolls"][0]
    assert roll["kind"] == "table roll" and roll["purpose"] == "Out of Control" and roll["total"] == 2
    assert "p. 117" in roll["table"] and body["outcome"]["outcome"] == "Roll Over"
    # Collision damage for the vehicle and everyone inside, at 40 mph: 4d6 each.
    pending = body["chase"]["pending"]
    assert [(f["kind"], f["participant_id"], f["expression"]) for f in pending] == [
        ("collision damage", table.ids[n], "4d6") for n in ("Van", "Vic", "Pat")
    ]
    logged = table.vehicle("Van")["log"][-1]
    assert logged["event"] == "out of control" and logged["name"] == "Roll Over" and "Deluxe" in logged["source"]

    body = table.resolve(table_dice=[5, 5, 4, 4])  # 18 against the Van's Toughness 10: two raises
    assert body["rolls"][0]["purpose"] == "collision damage" and table.vehicle("Van")["wounds"] == 2
    table.resolve(table_dice=[1, 1, 1, 1])  # 4 to Vic: nothing
    chase = table.resolve(table_dice=[2, 2, 1, 1])["chase"]  # 6 to Pat: Shaken, a passenger: no roll of his own
    assert table.who(chase, "Pat")["conditions"]["shaken"] and chase["pending"] == []


def test_a_skid_changes_nothing_in_the_chase_and_a_heavy_vehicle_does_not_flip(client):
    table = van_chase(client)
    table.post(f"/swd/participants/{table.ids['Vic']}/conditions", {"shaken": True, "reason": "a Trick"})
    body = table.resolve(table_dice=[3, 4])
    assert body["outcome"]["outcome"] == "Skid" and body["chase"]["pending"] == []

    table.post(f"/swd/participants/{table.ids['Vic']}/conditions", {"shaken": False})
    table.post(f"/swd/participants/{table.ids['Vic']}/conditions", {"shaken": True})
    # 12 is a Flip, but the GM rules the Van too slow and heavy: a Slip instead, no damage.
    body = table.resolve(table_dice=[6, 6], heavy=True)
    assert body["outcome"]["outcome"] == "Slip" and body["chase"]["pending"] == []


def test_a_passenger_shaken_makes_no_roll_and_one_already_shaken_makes_none_again(client):
    table = van_chase(client)
    body = table.damage("Pat", "2d6", [3, 3])
    assert table.who(body["chase"], "Pat")["conditions"]["shaken"] and body["chase"]["pending"] == []
    # The Thief runs on his own: he is his unit's participant and rolls, but on foot nothing rolls over.
    table.damage("Thief", "2d6", [3, 3])
    body = table.resolve(table_dice=[1, 1])
    assert body["outcome"]["outcome"] == "Roll Over" and body["chase"]["pending"] == []


def test_the_out_of_control_roll_is_undone_with_its_command_and_verified_with_server_dice(client):
    table = van_chase(client)
    table.damage("Vic", "2d6", [3, 3])
    table.resolve(table_dice=[3, 4])
    chase = table.post("/undo", {"count": 1})["chase"]
    assert table.pending(chase) == ["out of control"]  # waiting again; the undone roll stays in the log
    assert [r["undone"] for r in table.rolls() if r["roll"]["purpose"] == "Out of Control"] == [True]

    served = van_chase(client, dice="server")
    served.post(f"/swd/participants/{served.ids['Vic']}/conditions", {"shaken": True})
    body = served.resolve()
    served.post("/end", {"outcome": "abandoned"})
    report = verify(served.get("/export"))
    assert body["rolls"][0]["purpose"] == "Out of Control" and report.server_rolls_verified >= 2


def test_soaking_the_wound_that_shook_the_driver_calls_the_roll_off(client):
    table = van_chase(client)
    body = table.damage("Vic", "2d6", [4, 5])  # 9 against 5: Shaken and a Wound
    assert table.pending(body["chase"]) == ["out of control"]
    # A benny soaks it ("SOAK ROLLS", Vigor d6: 5): no Wound, not Shaken, no Out-of-Control roll.
    body = table.post(f"/swd/participants/{table.ids['Vic']}/bennies/soak", {"trait_die": "d6", "table_dice": [5, 1]})
    assert body["outcome"] == {"soaked": 1, "wounds": 0} and body["chase"]["pending"] == []
    assert not table.who(body["chase"], "Vic")["conditions"]["shaken"]
