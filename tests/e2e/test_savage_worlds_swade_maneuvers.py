"""Adventure Edition chases over HTTP (swade-chases-reference.txt "SETUP", "MANEUVERS"), with table
dice and a physical deck: the GM enters every face and every card dealt.

Faces of a trait roll: the trait die, the Wild Die, then any ace's rerolls.
"""
from __future__ import annotations

import pytest

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]  # rear (0) to front (8)


def cars(client, sedan=None, bike=None, placements=(3, 3)) -> SavageTable:
    """A Sedan (chaser, Dan d8) and a Bike (quarry, Eve d8), dealt KH and 5D: the Sedan acts first."""
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan", **(sedan or {}))
    table.vehicle_with_driver("Bike", "quarry", "Eve", **(bike or {}))
    table.begin(mode="vehicular", placements={"Sedan": placements[0], "Bike": placements[1]}, row=ROW)
    table.deal(Sedan="KH", Bike="5D")
    return table


def roll_of(body: dict, purpose: str) -> dict:
    return next(r for r in body["rolls"] if r["purpose"] == purpose)


# -- set-up and the row ---------------------------------------------------------------------------


def test_the_row_of_chase_cards_is_dealt_and_each_unit_placed(client):
    table = cars(client, placements=(1, 6))
    chase = table.track()

    assert chase["system"] == "swade" and chase["mode"] == "vehicular" and chase["range_increment"] == 5
    assert [loc["card"] for loc in chase["locations"]] == ROW
    assert chase["locations"][1]["participants"] == [table.ids["Sedan"]]
    assert chase["locations"][6]["participants"] == [table.ids["Bike"]]
    # Those aboard are where their vehicle is; the row lists the units only.
    assert table.position("Dan", chase) == 1 and table.position("Eve", chase) == 6
    # "SETUP": Range = cards (not counting the attacker's) x the Range Increment.
    assert {(r["from"], r["cards_between"], r["range"]) for r in chase["ranges"]} == {
        (table.ids["Sedan"], 5, 25), (table.ids["Bike"], 5, 25)
    }
    assert [c["card"] for c in chase["action_cards"]] == ["KH", "5D"] and chase["whose_turn"] == table.ids["Sedan"]
    assert chase["deck"]["chase"]["cards_left"] == 45 and chase["deck"]["action"]["cards_left"] == 52


def test_nine_chase_cards_by_default_from_the_servers_deck(client):
    table = SavageTable(client, "swade", dice="server")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    chase = table.begin(mode="airplane", placements={"Sedan": 0, "Bike": 8})["chase"]

    assert len(chase["locations"]) == 9 and len({loc["card"] for loc in chase["locations"]}) == 9
    assert chase["range_increment"] == 25 and chase["ranges"][0]["range"] == 8 * 25
    # The shuffles are rolls of the record (their order is never shown).
    shuffles = [r for r in table.rolls() if r["roll"]["kind"] == "shuffle"]
    assert [r["roll"]["deck"] for r in shuffles] == ["chase", "action"]


def test_ties_act_in_suit_order(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": 0, "Bike": 8}, row=ROW)
    chase = table.deal(Sedan="QD", Bike="QS")["chase"]
    assert chase["turn_order"] == [table.ids["Bike"], table.ids["Sedan"]]  # Spades before Diamonds


# -- Change Position and Dropping Back -------------------------------------------------------------


def test_change_position_one_card_on_a_success(client):
    table = cars(client)
    body = table.act("Sedan", "change-position", direction=1, table_dice=[5, 2])

    assert table.position("Sedan", body["chase"]) == 4
    roll = body["rolls"][0]
    assert roll["purpose"] == "Change Position" and roll["roller"] == table.ids["Dan"]
    assert roll["total"] == 5 and roll["success"] and roll["raises"] == 0
    assert [d["face"] for d in roll["dice"]] == [5, 2]


def test_change_position_as_an_action_adds_two_and_a_raise_moves_two(client):
    table = cars(client)
    body = table.act("Sedan", "change-position", direction=-1, as_action=True, table_dice=[6, 3])

    roll = body["rolls"][0]
    assert roll["modifiers"]["Change Position"] == 2 and roll["total"] == 8 and roll["raises"] == 1
    assert table.position("Sedan", body["chase"]) == 1


def test_the_speed_bonus_for_a_vehicle_twice_as_fast(client):
    table = cars(client, sedan={"top_speed": 130}, bike={"top_speed": 60})
    body = table.act("Sedan", "change-position", direction=1, table_dice=[2, 1])

    roll = body["rolls"][0]
    assert roll["modifiers"]["Change Position"] == 2 and roll["total"] == 4 and roll["success"]


def test_a_failed_change_position_stays_and_still_counts_for_the_turn(client):
    table = cars(client)
    body = table.act("Sedan", "change-position", direction=1, table_dice=[2, 3])
    assert table.position("Sedan", body["chase"]) == 3

    problem = table.refused(f"/swade/participants/{table.ids['Sedan']}/change-position", {"direction": 1, "table_dice": [5, 5]}, 409)
    assert "once per turn" in problem["detail"] and "CHANGE POSITION" in problem["rule"]


def test_dropping_back_two_cards_without_a_roll(client):
    table = cars(client)
    body = table.act("Sedan", "drop-back", cards=2)

    assert table.position("Sedan", body["chase"]) == 1 and body["rolls"] == []
    problem = table.refused(f"/swade/participants/{table.ids['Sedan']}/change-position", {"direction": 1, "table_dice": [5, 2]}, 409)
    assert "Dropping Back" in problem["detail"] + problem["rule"]


def test_moving_past_the_end_of_a_physical_row_waits_for_the_gm_to_deal_a_chase_card(client):
    table = cars(client, placements=(8, 0))
    body = table.act("Sedan", "change-position", direction=1, as_action=True, table_dice=[6, 3])  # a raise: two cards

    assert table.position("Sedan", body["chase"]) == 10
    assert table.pending(body["chase"]) == ["chase card", "chase card"]
    table.resolve(card="10S")
    chase = table.resolve(card="JS")["chase"]
    assert [loc["card"] for loc in chase["locations"]][-3:] == ["9C", "10S", "JS"]
    assert chase["locations"][10]["participants"] == [table.ids["Sedan"]]


def test_dropping_back_past_the_rear_adds_a_card_before_the_first(client):
    table = cars(client, placements=(0, 4))
    table.act("Sedan", "drop-back", cards=1)
    chase = table.resolve(card="10S")["chase"]

    # Every index moves up one: the new card is the rear of the row.
    assert chase["locations"][0]["card"] == "10S" and table.position("Sedan", chase) == 0
    assert table.position("Bike", chase) == 5


# -- Evade and Hold Steady ---------------------------------------------------------------------------


def test_evade_as_an_action_makes_attacks_both_ways_harder_once_a_round(client):
    table = cars(client, placements=(3, 5))
    table.act("Sedan", "evade", as_action=True)
    table.refused(f"/swade/participants/{table.ids['Sedan']}/evade", {}, 409)
    chase = table.end_turn("Sedan")["chase"]
    assert table.who(chase, "Sedan")["evading"] == -4

    # The Bike's rider shoots back: -4 for the Evade, -2 for the Unstable Platform.
    body = table.act("Eve", "attack", target_id="Dan", trait_die="d8", weapon_range="12/24/48", table_dice=[7, 4])
    roll = body["rolls"][0]
    assert roll["modifiers"]["chase"] == -6 and roll["range"] == 10 and roll["range_band"] == "Short"
    assert roll["total"] == 1 and not roll["success"]


def test_hold_steady_steadies_the_aim_and_gives_two_against(client):
    table = cars(client, placements=(3, 3))
    table.act("Sedan", "hold-steady")
    body = table.act("Dan", "attack", target_id="Eve", trait_die="d6", ranged=True, table_dice=[3, 1])
    assert body["rolls"][0]["modifiers"]["chase"] == 0  # no Unstable Platform penalty
    table.end_turn("Sedan")

    body = table.act("Eve", "attack", target_id="Dan", trait_die="d6", table_dice=[3, 1])
    assert body["rolls"][0]["modifiers"]["chase"] == 2 - 2  # +2 against the steady Sedan, -2 unstable


# -- Flee ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, faces, modifier",
    [(4, [8, 1, 1], -4), (5, [6, 1], -2), (6, [4, 1], 0)],  # 8 aces: 9 - 4 = 5; 6 - 2 = 4; 4
)
def test_flee_at_four_five_and_six_cards(client, cards, faces, modifier):
    table = cars(client, placements=(0, cards))
    table.end_turn("Sedan")
    body = table.act("Bike", "flee", table_dice=faces)

    roll = body["rolls"][0]
    assert roll["modifiers"]["Flee"] == modifier and roll["cards_between"] == cards and roll["success"]
    chase = body["chase"]
    assert table.who(chase, "Bike")["status"] == "escaped" and table.who(chase, "Eve")["status"] == "escaped"
    # The only quarry got away: the chase is over and the server seed revealed.
    assert chase["phase"] == "ended" and chase["outcome"] == "escaped"
    assert chase["revealed_seeds"] and chase["seed_commitment"] is None


def test_a_failed_flee_stays_in_the_chase(client):
    table = cars(client, placements=(0, 4))
    table.end_turn("Sedan")
    body = table.act("Bike", "flee", table_dice=[7, 3])  # 7 - 4 = 3
    assert table.who(body["chase"], "Bike")["status"] == "in_chase" and body["chase"]["phase"] == "running"


# -- Force and Bump -----------------------------------------------------------------------------------


def test_force_wins_and_bumps_the_foe_the_way_the_attacker_chooses(client):
    table = cars(client)
    body = table.act("Sedan", "force", target_id="Bike", direction=-1, table_dice=[6, 2], defender_table_dice=[3, 2])

    assert body["outcome"]["winner"] == "attacker" and body["outcome"]["bumped"]
    assert table.position("Bike", body["chase"]) == 2 and table.position("Sedan", body["chase"]) == 3
    assert [r["purpose"] for r in body["rolls"]] == ["Force", "resist Force"]
    # "An attacker can't Bump a particular target more than once per turn."
    problem = table.refused(
        f"/swade/participants/{table.ids['Sedan']}/force",
        {"target_id": table.ids["Bike"], "direction": 1, "table_dice": [6, 2], "defender_table_dice": [3, 2]}, 409,
    )
    assert "more than once per turn" in problem["detail"]


def test_force_with_a_raise_is_the_foes_critical_failure(client):
    table = cars(client)
    body = table.act("Sedan", "force", target_id="Bike", direction=1, table_dice=[8, 5, 3], defender_table_dice=[2, 1])

    assert body["rolls"][0]["total"] == 11 and table.position("Bike", body["chase"]) == 4
    assert body["chase"]["pending"][0]["kind"] == "out of control"  # a vehicle's Critical Failure
    assert body["chase"]["pending"][0]["participant_id"] == table.ids["Bike"]


def test_a_lost_force_moves_no_one(client):
    table = cars(client)
    body = table.act("Sedan", "force", target_id="Bike", direction=1, table_dice=[4, 2], defender_table_dice=[5, 2])
    assert body["outcome"]["winner"] == "defender" and table.position("Bike", body["chase"]) == 3


def test_groups_move_with_their_leader_when_bumped(client):
    table = SavageTable(client, "swade")
    table.add(name="Rook", role="chaser", maneuver_die="d8")
    table.add(name="Pawn", with_id="Rook", maneuver_die="d6")  # follows Rook
    table.add(name="Knight", role="quarry", maneuver_die="d8")
    table.begin(mode="foot", placements={"Rook": 4, "Knight": 4}, row=ROW)
    table.deal(Rook="3H", Knight="AS")
    body = table.act("Knight", "force", target_id="Pawn", direction=-1, table_dice=[7, 2], defender_table_dice=[4, 3])

    chase = body["chase"]
    assert table.position("Rook", chase) == 3 and table.position("Pawn", chase) == 3  # the group moved together
    assert chase["locations"][3]["participants"] == [table.ids["Rook"]]
    assert table.who(chase, "Pawn")["unit"] == table.ids["Rook"]


# -- Ram --------------------------------------------------------------------------------------------


def test_a_ram_between_a_normal_and_a_large_vehicle_at_130_mph(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan", toughness=10, top_speed=130, scale="Normal")
    table.vehicle_with_driver("Truck", "quarry", "Tess", die="d6", toughness=14, top_speed=70, scale="Large", weapons=1)
    table.begin(mode="vehicular", placements={"Sedan": 3, "Truck": 3}, row=ROW)
    table.deal(Sedan="KH", Truck="5D")

    body = table.act("Sedan", "ram", target_id="Truck", table_dice=[7, 5], defender_table_dice=[3, 2])

    assert body["outcome"]["rammed"] and body["outcome"]["raise"]  # 7 against 3: a raise
    to_truck, to_sedan = body["chase"]["pending"]
    # The Sedan: Normal 2d6, Toughness not higher, the attacker's 130 mph +2d6, the raise +d6.
    assert (to_truck["expression"], to_truck["raise_bonus"]) == ("2d6+2d6", True)
    assert [p[0] for p in to_truck["parts"]] == ["Scale Normal", "attacker's Top Speed 130 mph", "raise"]
    # The Truck: Large 3d6, Toughness 14 against 10 (higher, not twice) +d6, the attacker's speed +2d6.
    assert (to_sedan["expression"], to_sedan["raise_bonus"]) == ("3d6+1d6+2d6", False)

    body = table.resolve(table_dice=[5, 5, 5, 5, 5])  # 25 against Toughness 14: two raises
    assert body["rolls"][0]["total"] == 25 and body["rolls"][0]["dice"][-1]["role"] == "raise bonus d6"
    body = table.resolve(table_dice=[2, 3, 1, 2, 3, 2])  # 13 against 10: Bumped and a control roll, no Wound
    assert table.pending(body["chase"]) == [
        "control roll", "bump", "critical hit", "critical hit",  # the Truck
        "control roll", "bump",  # the Sedan
    ]
    truck = table.vehicle("Truck")
    assert truck["wounds"] == 2 and [e["event"] for e in truck["log"]] == ["damage"]
    assert table.vehicle("Sedan")["wounds"] == 0

    table.resolve(table_dice=[5, 2])  # Tess keeps control
    chase = table.resolve(direction=1)["chase"]  # the Sedan (the attacker) Bumps the Truck forward
    assert table.position("Truck", chase) == 4
    table.resolve(table_dice=[5, 6])  # 11: Weapon
    table.resolve(table_dice=[2, 2])  # 4: Locomotion
    truck = table.vehicle("Truck")
    assert [h["name"] for h in truck["critical_hits"]] == ["Weapon", "Locomotion"]
    assert truck["weapons"] == 0 and truck["top_speed_percent"] == 90 and truck["top_speed_now"] == 63


def test_ram_needs_the_same_card(client):
    table = cars(client, placements=(3, 4))
    problem = table.refused(
        f"/swade/participants/{table.ids['Sedan']}/ram", {"target_id": table.ids["Bike"], "table_dice": [7, 5], "defender_table_dice": [3, 2]}, 409
    )
    assert "same Chase Card" in problem["detail"] and "RAM" in problem["rule"]


# -- attacks ----------------------------------------------------------------------------------------


def test_an_attack_at_long_range_across_the_row(client):
    table = cars(client, placements=(0, 5))
    body = table.act("Dan", "attack", target_id="Eve", trait_die="d8", weapon_range="10/20/40", table_dice=[8, 4, 5])

    roll = body["rolls"][0]
    assert roll["range"] == 25 and roll["range_band"] == "Long" and roll["modifiers"]["range"] == -4
    assert roll["total"] == 13 - 4 - 2 and roll["success"]  # aced 8 + 5, Long -4, Unstable Platform -2


def test_damage_rolls_ace_and_the_joker_adds_two(client):
    table = SavageTable(client, "swade")
    table.vehicle_with_driver("Sedan", "chaser", "Dan")
    table.add(name="Runner", role="quarry", maneuver_die="d6", toughness=5)
    table.begin(mode="foot", placements={"Sedan": 2, "Runner": 2}, row=ROW)
    table.deal(Sedan="BJ", Runner="4H")
    body = table.damage("Runner", "2d6", [6, 3, 2], roller_id="Dan")

    roll = body["rolls"][0]
    assert roll["chains"] == [[6, 2], [3]] and roll["joker"] and roll["total"] == 6 + 2 + 3 + 2  # the first d6 aced
    assert [d["aced"] for d in roll["dice"]] == [True, False, False]
    runner = table.who(body["chase"], "Runner")
    assert runner["conditions"]["shaken"] and runner["wounds"] == 2  # 13 against 5: two raises


def test_damage_from_an_attacker_who_bumped_the_vehicle_this_turn_bumps_it_no_more(client):
    table = cars(client)
    table.act("Sedan", "force", target_id="Bike", direction=1, table_dice=[6, 2], defender_table_dice=[3, 2])
    body = table.damage("Bike", "2d6", [5, 5], roller_id="Dan")  # 10: at Toughness 10, a control roll...
    assert table.pending(body["chase"]) == ["control roll"]  # ...but no second Bump by the Sedan this turn
