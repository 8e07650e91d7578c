"""Deluxe action-card chases over HTTP (swd-chases.txt), with table dice and a physical deck.

The Hunter (a Wild Card: trait die then Wild Die) chases the Thief (an Extra: one die, and a d6
check die only when it shows 1).
"""
from __future__ import annotations

import pytest

from tests.e2e.savage_worlds_table import SavageTable

FAIL, EXTRA_FAILS = [2, 3], [2]


def deluxe(client, hunter=None, thief=None, **begin) -> SavageTable:
    table = SavageTable(client, "swd")
    table.add(name="Hunter", role="chaser", maneuver_die="d8", spirit="d6", toughness=6, pace=6, **(hunter or {}))
    table.add(name="Thief", role="quarry", maneuver_die="d6", spirit="d6", wild_card=False, toughness=5, pace=6, **(thief or {}))
    table.begin(**begin)
    return table


def shake(table: SavageTable, name: str) -> None:
    """The GM makes him Shaken; becoming Shaken, he at once rolls Out of Control ("Resolve
    Actions"): a 7, Skid, which on foot changes nothing in the chase."""
    table.post(f"/swd/participants/{table.ids[name]}/conditions", {"shaken": True})
    assert table.resolve(table_dice=[3, 4])["outcome"]["outcome"] == "Skid"


def hunter_holds(client, card: str, **kw) -> SavageTable:
    """Round 1: the Hunter earns one card, the Thief none; the Hunter's turn."""
    table = deluxe(client, **kw)
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=[card])
    chase = table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)["chase"]
    assert chase["stage"] == "resolving" and chase["turn_order"] == [table.ids["Hunter"]]
    return table


# -- chase length and the maneuver roll --------------------------------------------------------


def test_a_chase_is_five_rounds_long_by_default(client):
    table = deluxe(client)
    chase = table.track()
    assert chase["system"] == "swd" and chase["length"] == 5 and chase["rounds_left"] == 5
    assert chase["round"] == 1 and chase["stage"] == "maneuvering" and chase["deck"]["action"]["cards_left"] == 54


def test_an_action_card_per_success_and_raise_and_the_one_kept(client):
    table = deluxe(client)
    body = table.act("Hunter", "maneuver", table_dice=[7, 2], modifier=1, cards=["KC", "9H"])  # 8: a raise

    assert body["rolls"][0]["raises"] == 1 and table.pending(body["chase"]) == ["keep card"]
    chase = table.resolve(card="9H")["chase"]  # he keeps the 9 rather than face a Club's Complication
    hunter = table.who(chase, "Hunter")
    assert hunter["cards_earned"] == 2 and [c["card"] for c in hunter["action_cards"]] == ["9H"]
    assert chase["deck"]["action"]["discards"] == ["KC"]

    chase = table.act("Thief", "maneuver", table_dice=[5], cards=["3D"])["chase"]  # one card: kept at once
    assert [c["card"] for c in chase["action_cards"]] == ["9H", "3D"]
    assert chase["stage"] == "resolving" and chase["whose_turn"] == table.ids["Hunter"]


def test_the_highest_card_is_kept_unless_another_is_chosen(client):
    table = deluxe(client)
    table.act("Hunter", "maneuver", table_dice=[7, 2], modifier=1, cards=["4S", "JD"])
    chase = table.resolve()["chase"]
    assert [c["card"] for c in table.who(chase, "Hunter")["action_cards"]] == ["JD"]


def test_no_success_no_card_and_no_action(client):
    table = hunter_holds(client, "KH")
    chase = table.track()
    assert table.who(chase, "Thief")["action_cards"] == [] and table.who(chase, "Thief")["cards_earned"] == 0
    table.refused(f"/swd/participants/{table.ids['Thief']}/attack", {"target_id": table.ids["Hunter"], "trait_die": "d6", "table_dice": [5]}, 409)


def test_maneuver_roll_modifiers_shaken_speed_climb_and_the_chase(client):
    table = deluxe(client, hunter={"top_speed": 24, "climb": 2}, thief={"climb": 1}, constant=-2)
    shake(table, "Hunter")
    roll = table.act("Hunter", "maneuver", table_dice=[5, 2], cards=["5H"])["rolls"][0]

    # Shaken -2; twice as fast as the fastest opponent (24 against Pace 6 + d6 = 12) +4; better Climb +2; terrain -2.
    assert roll["modifiers"] == {"situational": 0, "Shaken": -2, "speed": 4, "Climb": 2, "chase": -2}
    assert roll["total"] == 7


def test_faster_by_less_than_double_is_plus_two(client):
    table = deluxe(client, hunter={"top_speed": 20})
    roll = table.act("Hunter", "maneuver", table_dice=[2, 3])["rolls"][0]
    assert roll["modifiers"]["speed"] == 2 and roll["total"] == 5


def test_passengers_cooperative_rolls_add_to_the_drivers(client):
    table = SavageTable(client, "swd")
    table.add(name="Van", kind="vehicle", role="chaser", toughness=12, top_speed=60)
    table.add(name="Dana", with_id="Van", seat="driver", maneuver_die="d8")
    table.add(name="Pete", with_id="Van", maneuver_die="d6")
    table.add(name="Thief", role="quarry", maneuver_die="d6", wild_card=False, toughness=5, top_speed=60)  # on a motorcycle
    table.begin()
    body = table.act("Pete", "cooperate", table_dice=[6, 4, 2])  # 6 aced: 8, a success and a raise
    assert table.who(body["chase"], "Van")["cooperative_bonus"] == 2
    table.refused(f"/swd/participants/{table.ids['Pete']}/cooperate", {"table_dice": [5, 2]}, 409)
    roll = table.act("Van", "maneuver", table_dice=[2, 1], cards=["6S"])["rolls"][0]
    assert roll["roller"] == table.ids["Dana"] and roll["modifiers"]["cooperative"] == 2 and roll["total"] == 4


# -- Advantage and the Attack "Range" -----------------------------------------------------------------


def test_the_higher_card_has_advantage(client):
    table = deluxe(client)
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["9H"])
    chase = table.act("Thief", "maneuver", table_dice=[5], cards=["3D"])["chase"]
    hunter_card, thief_card = chase["action_cards"]
    assert hunter_card["advantage_over"] == [table.ids["Thief"]] and thief_card["advantage_over"] == []
    assert (hunter_card["attack_range"], hunter_card["range_penalty"]) == ("Long Range", -4)

    table.end_turn("Hunter")
    problem = table.refused(f"/swd/participants/{table.ids['Thief']}/attack", {"target_id": table.ids["Hunter"], "trait_die": "d6", "table_dice": [5]}, 409)
    assert "Advantage" in problem["detail"]


def test_equal_cards_attack_each_other_in_suit_order(client):
    table = deluxe(client)
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["QH"])
    chase = table.act("Thief", "maneuver", table_dice=[5], cards=["QS"])["chase"]
    assert chase["turn_order"] == [table.ids["Thief"], table.ids["Hunter"]]
    roll = table.act("Thief", "attack", target_id="Hunter", trait_die="d6", table_dice=[5])["rolls"][0]
    assert roll["modifiers"]["range"] == -2 and roll["range"] == "Medium Range"


@pytest.mark.parametrize("card, penalty", [("5H", -4), ("10D", -4), ("JH", -2), ("QD", -2), ("KH", 0), ("AS", 0), ("RJ", 0)])
def test_the_attack_range_penalty_by_card_value(client, card, penalty):
    table = hunter_holds(client, card)
    roll = table.act("Hunter", "attack", target_id="Thief", trait_die="d8", table_dice=[7, 3])["rolls"][0]
    assert roll["modifiers"]["range"] == penalty and roll["joker"] is (card == "RJ")
    assert roll["total"] == 7 + penalty + (2 if card == "RJ" else 0)


def test_a_two_is_out_of_range(client):
    table = hunter_holds(client, "2H")
    problem = table.refused(f"/swd/participants/{table.ids['Hunter']}/attack", {"target_id": table.ids["Thief"], "trait_die": "d8", "table_dice": [7, 3]}, 409)
    assert "Out of Range" in problem["detail"]


# -- Complications on Clubs --------------------------------------------------------------------------


def test_a_failed_disaster_ends_the_chase_for_the_chaser(client):
    table = hunter_holds(client, "2C")
    chase = table.track()
    assert table.pending(chase) == ["complication"] and chase["pending"][0]["name"] == "Disaster"
    body = table.resolve(table_dice=[6, 2])  # 6 - 4 = 2

    roll = body["rolls"][0]
    assert roll["modifiers"]["Complication"] == -4 and not roll["success"]
    chase = body["chase"]
    assert table.who(chase, "Hunter")["status"] == "out"
    assert chase["phase"] == "ended" and chase["outcome"] == "escaped"  # the quarry got away
    assert [e["name"] for e in table.events()][-4:] == ["AttackBarred", "StatusChanged", "ChaseEnded", "SeedRevealed"]


def test_a_quarry_failing_a_disaster_is_captured(client):
    table = deluxe(client)
    table.act("Hunter", "maneuver", table_dice=FAIL)
    table.act("Thief", "maneuver", table_dice=[5], cards=["2C"])
    chase = table.resolve(table_dice=[4])["chase"]  # 4 - 4 = 0
    assert chase["outcome"] == "captured"


@pytest.mark.parametrize("card, name, modifier", [("7C", "Major Obstacle", -2), ("JC", "Minor Obstacle", 0)])
def test_an_obstacle_on_foot_costs_a_fatigue_level(client, card, name, modifier):
    table = hunter_holds(client, card)
    body = table.resolve(table_dice=[3, 1])
    roll = body["rolls"][0]
    assert roll["purpose"] == f"Complication: {name}" and roll["modifiers"]["Complication"] == modifier
    assert table.who(body["chase"], "Hunter")["conditions"]["fatigue"] == "Fatigued"
    # A failed obstacle does not stop the attack (only Distraction, Disaster and staying Shaken do).
    roll = table.act("Hunter", "attack", target_id="Thief", trait_die="d8", table_dice=[7, 3])["rolls"][0]
    assert roll["modifiers"]["conditions"] == -1


def test_an_obstacle_in_a_vehicle_is_damage_for_half_top_speed(client):
    table = SavageTable(client, "swd")
    table.add(name="Van", kind="vehicle", role="chaser", toughness=8, top_speed=60)
    table.add(name="Dana", with_id="Van", seat="driver", maneuver_die="d8")
    table.add(name="Thief", role="quarry", maneuver_die="d6", wild_card=False, toughness=5, top_speed=60)
    table.begin()
    table.act("Van", "maneuver", table_dice=[6, 2], cards=["5C"])
    table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)
    body = table.resolve(table_dice=[3, 2])  # 3 - 2: failed
    assert body["chase"]["pending"][0]["expression"] == "3d6"  # 30 mph
    body = table.resolve(table_dice=[4, 4, 4])  # 12 against 8: a Wound
    assert table.vehicle("Van")["wounds"] == 1 and table.vehicle("Van")["log"][0]["cause"].startswith("an obstacle")


def test_a_distraction_stops_the_attack_without_a_roll(client):
    table = hunter_holds(client, "KC")
    chase = table.track()
    assert chase["pending"] == [] and table.who(chase, "Hunter")["barred"] == "Complication: Distraction"
    problem = table.refused(f"/swd/participants/{table.ids['Hunter']}/attack", {"target_id": table.ids["Thief"], "trait_die": "d8", "table_dice": [7, 3]}, 409)
    assert "Distraction" in problem["detail"]


# -- Shaken -----------------------------------------------------------------------------------------


def test_a_shaken_participant_first_tries_to_recover_and_cannot_attack_if_he_stays_shaken(client):
    table = deluxe(client)
    shake(table, "Hunter")
    table.act("Hunter", "maneuver", table_dice=[7, 2], cards=["KH"])  # 7 - 2
    chase = table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)["chase"]
    assert table.pending(chase) == ["recover from shaken"]

    body = table.resolve(table_dice=[2, 3])  # Spirit d6: 3
    assert body["rolls"][0]["purpose"] == "recover from Shaken" and body["outcome"]["outcome"] == "still Shaken"
    problem = table.refused(f"/swd/participants/{table.ids['Hunter']}/attack", {"target_id": table.ids["Thief"], "trait_die": "d8", "table_dice": [7, 3]}, 409)
    assert "Shaken" in problem["detail"]


def test_recovering_from_shaken_frees_the_attack(client):
    table = deluxe(client)
    shake(table, "Hunter")
    table.act("Hunter", "maneuver", table_dice=[7, 2], cards=["KH"])
    table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)
    chase = table.resolve(table_dice=[5, 2])["chase"]
    assert not table.who(chase, "Hunter")["conditions"]["shaken"]
    table.act("Hunter", "attack", target_id="Thief", trait_die="d8", table_dice=[7, 3])


def test_without_a_card_recovery_comes_at_the_end_of_the_round(client):
    table = deluxe(client)
    shake(table, "Thief")
    table.act("Hunter", "maneuver", table_dice=[6, 2], cards=["KH"])
    table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)
    chase = table.end_turn("Hunter")["chase"]
    assert chase["stage"] == "recovering" and chase["pending"][0]["when"] == "end of round"
    chase = table.resolve(table_dice=[4])["chase"]
    assert not table.who(chase, "Thief")["conditions"]["shaken"] and chase["round"] == 2 and chase["stage"] == "maneuvering"


# -- Force ------------------------------------------------------------------------------------------


def test_force_with_a_raise_hits_an_obstacle(client):
    table = hunter_holds(client, "KH")
    body = table.act("Hunter", "force", target_id="Thief", table_dice=[7, 2], defender_table_dice=[2])
    assert body["outcome"] == {"force": "hits obstacle"} and [r["purpose"] for r in body["rolls"]] == ["Force", "resist Force"]
    assert table.who(body["chase"], "Thief")["conditions"]["fatigue"] == "Fatigued"


def test_force_won_makes_the_foe_roll_to_avoid_an_obstacle_and_only_the_attacker_takes_the_range(client):
    table = hunter_holds(client, "5H")
    body = table.act("Hunter", "force", target_id="Thief", table_dice=[8, 3, 1], defender_table_dice=[2])  # 9 - 4 = 5 against 2
    assert body["rolls"][0]["modifiers"]["range"] == -4 and "range" not in body["rolls"][1]["modifiers"]
    assert body["outcome"] == {"force": "avoid obstacle"} and table.pending(body["chase"]) == ["obstacle"]
    chase = table.resolve(table_dice=[5])["chase"]
    assert table.who(chase, "Thief")["conditions"]["fatigue"] == "fresh"


# -- how the chase ends -----------------------------------------------------------------------------


def test_a_chase_won_on_advantage(client):
    table = hunter_holds(client, "KH")
    attack = table.act("Hunter", "attack", target_id="Thief", trait_die="d8", table_dice=[7, 3])["rolls"][0]
    assert attack["success"]
    body = table.damage("Thief", "2d6", [5, 4], roller_id="Hunter")  # 9 against 5: a raise, a Wound to an Extra
    chase = body["chase"]
    assert table.who(chase, "Thief")["status"] == "incapacitated"
    assert chase["phase"] == "ended" and chase["outcome"] == "captured" and chase["revealed_seeds"]


def test_the_quarry_escapes_when_time_runs_out(client):
    table = deluxe(client)
    for round_number in range(1, 6):
        chase = table.track()
        assert chase["round"] == round_number and chase["rounds_left"] == 6 - round_number
        table.act("Hunter", "maneuver", table_dice=FAIL)
        chase = table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)["chase"]
    assert chase["phase"] == "ended" and chase["outcome"] == "escaped" and chase["rounds_left"] == 0
    assert "time ran out after 5 rounds" in chase["end_note"]


def test_a_chase_without_end_goes_on(client):
    table = deluxe(client, length=None)
    for _ in range(6):
        table.act("Hunter", "maneuver", table_dice=FAIL)
        chase = table.act("Thief", "maneuver", table_dice=EXTRA_FAILS)["chase"]
    assert chase["phase"] == "running" and chase["round"] == 7 and chase["length"] is None and chase["rounds_left"] is None


def test_a_joker_reshuffles_the_deck_at_the_end_of_the_round(client):
    table = hunter_holds(client, "BJ")
    chase = table.end_turn("Hunter")["chase"]
    assert chase["round"] == 2 and chase["deck"]["action"]["cards_left"] == 54
    reasons = [e["data"]["reason"] for e in table.events() if e["name"] == "DeckShuffled"]
    assert reasons[-1].startswith("a Joker was dealt this round")
