"""Bennies over HTTP, with table dice and a physical deck (issue 17).

swade-chases-reference.txt "BENNIES MAY BE USED TO..": "REROLL A TRAIT TEST", "SOAK ROLLS",
"DRAW A NEW ACTION CARD"; each character's bennies are state (three for a Wild Card by default,
core rules "Bennies"). Faces of a trait roll: the trait die, the Wild Die, then any ace's rerolls.
"""
from __future__ import annotations

from infrastructure.systems import verify
from tests.e2e.savage_worlds_table import SavageTable
from tests.e2e.test_savage_worlds_swd import EXTRA_FAILS, deluxe, shake

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]


def cars(client, dice: str = "table") -> SavageTable:
    table = SavageTable(client, "swade", dice=dice)
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.add(name="Rex", role="quarry", maneuver_die="d6", toughness=5, spirit="d6")
    if dice == "table":
        table.begin(mode="vehicular", placements={"Sedan": 3, "Bike": 3, "Rex": 4}, row=ROW)
        table.deal(Sedan="KH", Bike="5D", Rex="3S")
    else:
        table.begin(mode="vehicular", placements={"Sedan": 3, "Bike": 3, "Rex": 4})
    return table


def test_a_wild_card_starts_with_three_bennies_and_the_gm_gives_more(client):
    table = cars(client)
    chase = table.track()
    assert table.who(chase, "Dan")["bennies"] == 3 and table.who(chase, "Sedan")["bennies"] == 0
    chase = table.post(f"/swade/participants/{table.ids['Dan']}/bennies", {"change": 1, "reason": "good roleplaying"})["chase"]
    assert table.who(chase, "Dan")["bennies"] == 4
    problem = table.refused(f"/swade/participants/{table.ids['Dan']}/bennies", {"change": -5}, 422)
    assert problem["errors"][0]["field"] == "change"


def test_reroll_a_missed_attack_the_original_stays_and_the_better_counts(client):
    table = cars(client)
    miss = table.act("Dan", "attack", target_id="Eve", trait_die="d8", table_dice=[2, 3])["rolls"][0]
    body = table.post(f"/swade/participants/{table.ids['Dan']}/bennies/reroll", {"table_dice": [7, 1]})

    again = body["rolls"][0]
    assert again["purpose"] == "attack" and again["reroll_of"] == miss["sequence"] and again["total"] == 7 - 2
    assert again["modifiers"] == miss["modifiers"]  # the same roll again
    assert body["outcome"]["counts"]["sequence"] == again["sequence"] and body["outcome"]["counts"]["success"]
    assert table.who(body["chase"], "Dan")["bennies"] == 2
    # Both rolls are in the roll history; a worse reroll leaves the better one counting.
    assert [r["roll"]["sequence"] for r in table.rolls()][-2:] == [miss["sequence"], again["sequence"]]
    body = table.post(f"/swade/participants/{table.ids['Dan']}/bennies/reroll", {"table_dice": [1, 2]})
    assert body["outcome"]["counts"]["sequence"] == again["sequence"]


def test_no_reroll_of_a_maneuver_already_played_a_critical_failure_or_without_bennies(client):
    table = cars(client)
    table.act("Sedan", "change-position", direction=1, table_dice=[2, 2])
    problem = table.refused(f"/swade/participants/{table.ids['Dan']}/bennies/reroll", {"table_dice": [6, 2]}, 409)
    assert "BENNIES" in problem["rule"]
    table.act("Dan", "attack", target_id="Eve", trait_die="d8", table_dice=[1, 1])  # a Critical Failure
    problem = table.refused(f"/swade/participants/{table.ids['Dan']}/bennies/reroll", {"table_dice": [6, 2]}, 409)
    assert "Critical Failure" in problem["detail"]
    table.post(f"/swade/participants/{table.ids['Dan']}/bennies", {"change": -3})
    table.act("Dan", "attack", target_id="Eve", trait_die="d8", table_dice=[2, 2])
    problem = table.refused(f"/swade/participants/{table.ids['Dan']}/bennies/reroll", {"table_dice": [6, 2]}, 409)
    assert "no benny" in problem["detail"]


def test_a_failed_recovery_rerolled_to_a_success_recovers(client):
    table = cars(client)
    table.post(f"/swade/participants/{table.ids['Rex']}/conditions", {"shaken": True})
    table.post(f"/swade/participants/{table.ids['Rex']}/recover", {"table_dice": [2, 1]})
    body = table.post(f"/swade/participants/{table.ids['Rex']}/bennies/reroll", {"table_dice": [5, 1]})
    assert body["rolls"][0]["purpose"] == "recover from Shaken" and not table.who(body["chase"], "Rex")["conditions"]["shaken"]


def test_soak_takes_back_the_wounds_of_the_damage_just_rolled(client):
    table = cars(client)
    # 13 against Toughness 5: Shaken and two Wounds.
    chase = table.damage("Rex", "2d6", [6, 5, 2])["chase"]
    assert table.who(chase, "Rex")["wounds"] == 2 and table.who(chase, "Rex")["conditions"]["shaken"]
    # Vigor d8: 5 is a success, no raise: one Wound soaked.
    body = table.post(f"/swade/participants/{table.ids['Rex']}/bennies/soak", {"trait_die": "d8", "table_dice": [5, 1]})
    assert body["rolls"][0]["purpose"] == "soak" and body["outcome"] == {"soaked": 1, "wounds": 1}
    rex = table.who(body["chase"], "Rex")
    assert rex["wounds"] == 1 and rex["conditions"]["shaken"] and rex["bennies"] == 2
    # Only the damage just rolled can be soaked: the soak roll came after it.
    table.refused(f"/swade/participants/{table.ids['Rex']}/bennies/soak", {"trait_die": "d8", "table_dice": [8, 4, 1]}, 409)


def test_soaking_every_wound_takes_back_the_shaken_and_an_incapacitation(client):
    table = cars(client)
    table.post(f"/swade/participants/{table.ids['Rex']}/conditions", {"shaken": False})
    # Rex, a Wild Card, takes 21 (10 and a +11 modifier): four Wounds, beyond three: Incapacitated.
    chase = table.damage("Rex", "2d6", [5, 5], modifier=11)["chase"]
    assert table.who(chase, "Rex")["status"] == "incapacitated" and table.pending(chase) == ["injury"]
    body = table.post(f"/swade/participants/{table.ids['Rex']}/bennies/soak", {"trait_die": "d8", "table_dice": [8, 1, 8, 6]})
    rex = table.who(body["chase"], "Rex")
    # 22 (8, an ace, 8 again, 6): a success and four raises: all four Wounds soaked: no Wound, not Shaken, back in the chase.
    assert body["outcome"] == {"soaked": 4, "wounds": 0} and rex["status"] == "in_chase" and not rex["conditions"]["shaken"]
    assert body["chase"]["pending"] == []  # no Injury roll for one no longer Incapacitated
    # Undo takes the soak back: the benny, the Wounds and the Incapacitation as they were.
    chase = table.post("/undo", {"count": 1})["chase"]
    assert table.who(chase, "Rex")["status"] == "incapacitated" and table.who(chase, "Rex")["bennies"] == 3


def test_a_new_action_card_for_a_unit_yet_to_act_reorders_the_turns(client):
    table = cars(client)
    # Rex holds the 3 of Spades and acts last; his benny draws the Queen of Hearts: he now acts second.
    body = table.post(f"/swade/participants/{table.ids['Rex']}/bennies/new-action-card", {"card": "QH"})
    chase = body["chase"]
    assert body["outcome"] == {"card": "QH"} and chase["turn_order"] == [table.ids[n] for n in ("Sedan", "Rex", "Bike")]
    assert "3S" in chase["deck"]["action"]["discards"] and table.who(chase, "Rex")["bennies"] == 2
    # The unit acting now cannot: its turn has begun.
    table.refused(f"/swade/participants/{table.ids['Dan']}/bennies/new-action-card", {"card": "2C"}, 409)


def test_benny_rerolls_and_soaks_with_server_dice_pass_chase_verify(client):
    table = cars(client, dice="server")
    table.post("/swade/action-cards")
    # The server's dice fall as they will: a Critical Failure (which no benny rerolls) is rolled again.
    for _ in range(20):
        rolled = table.post("/swade/trait-rolls", {"participant_id": table.ids["Rex"], "trait_die": "d6", "purpose": "Notice"})
        if not rolled["rolls"][0]["critical_failure"]:
            break
    body = table.post(f"/swade/participants/{table.ids['Rex']}/bennies/reroll")
    table.post("/end", {"outcome": "abandoned"})
    report = verify(table.get("/export"))
    assert body["rolls"][0]["reroll_of"] == body["rolls"][0]["sequence"] - 1 and report.server_rolls_verified >= 4


def test_a_deluxe_recovery_rerolled_to_a_success_lifts_the_attack_bar(client):
    # swd-chases.txt "Resolve Actions": "If they stay Shaken, they cannot take any other non-Free
    # actions this round" -- the Hunter's failed recovery, rerolled with a benny, succeeds: he
    # did not stay Shaken, so he may attack this round.
    table = deluxe(client)
    shake(table, "Hunter")
    table.act("Hunter", "maneuver", table_dice=[7, 2], cards=["KH"])
    table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)
    chase = table.resolve(table_dice=[2, 3])["chase"]  # Spirit 3: still Shaken, barred
    assert table.who(chase, "Hunter")["barred"] == "stayed Shaken"
    chase = table.post(f"/swd/participants/{table.ids['Hunter']}/bennies/reroll", {"table_dice": [5, 2]})["chase"]
    hunter = table.who(chase, "Hunter")
    assert not hunter["conditions"]["shaken"] and hunter["barred"] is None
    assert table.names()[-1] == "AttackBarLifted"
    table.act("Hunter", "attack", target_id="Thief", trait_die="d8", table_dice=[7, 3])
