"""Adventure Edition: Complications by suit, critical failures by mode, vehicle damage, Out of Control
and Vehicle Critical Hits, over HTTP with table dice and a physical deck
(swade-chases-reference.txt "COMPLICATIONS", "CRITICAL FAILURE ON MANEUVERING SKILLS", "DAMAGE",
"OUT OF CONTROL", "VEHICLE CRITICAL HITS")."""
from __future__ import annotations

import pytest

from tests.e2e.savage_worlds_table import SavageTable

ROW = ["2S", "3H", "4D", "5C", "RJ", "6S", "7H", "8D", "9C"]  # Spades 0, Hearts 1, Diamonds 2, Clubs 3, Joker 4
SUIT_AT = {"Spades": 0, "Hearts": 1, "Diamonds": 2, "Clubs": 3, "Joker": 4}


def chase_with(client, sedan=None, driver="d8", wild_card=True, at=3, bike_at=8, sedan_card="AC", bike_card="2H") -> SavageTable:
    table = SavageTable(client, "swade")
    table.add(name="Sedan", kind="vehicle", role="chaser", toughness=10, top_speed=60, **(sedan or {}))
    table.add(name="Dan", with_id="Sedan", seat="driver", maneuver_die=driver, wild_card=wild_card)
    table.add(name="Pat", with_id="Sedan", seat="passenger", maneuver_die="d6")
    table.vehicle_with_driver("Bike", "quarry", "Eve")
    table.begin(mode="vehicular", placements={"Sedan": at, "Bike": bike_at}, row=ROW)
    table.deal(Sedan=sedan_card, Bike=bike_card)
    return table


# -- Complications --------------------------------------------------------------------------------


def test_a_club_action_card_brings_a_complication_before_anything_else(client):
    table = chase_with(client)
    chase = table.track()
    assert chase["whose_turn"] == table.ids["Sedan"] and table.pending(chase) == ["complication"]
    problem = table.refused(f"/swade/participants/{table.ids['Sedan']}/change-position", {"direction": 1, "table_dice": [5, 2]}, 409)
    assert "complication" in problem["detail"]


@pytest.mark.parametrize(
    "suit, modifier, follow_up",
    [
        ("Spades", 0, "out of control"),  # a Critical Failure: a vehicle goes Out of Control
        ("Hearts", 0, "bump"),
        ("Diamonds", -2, "bump"),
        ("Clubs", -2, "out of control"),
    ],
)
def test_each_suit_of_the_chase_card_sets_the_modifier_and_the_failure(client, suit, modifier, follow_up):
    table = chase_with(client, at=SUIT_AT[suit])
    body = table.resolve(table_dice=[3, 2])  # 3: a failure at any modifier

    roll = body["rolls"][0]
    assert roll["purpose"] == "Complication" and roll["suit"] == suit and roll["modifiers"]["Complication"] == modifier
    assert not roll["success"] and body["outcome"]["outcome"] != "avoided"
    assert table.pending(body["chase"]) == [follow_up]
    assert body["chase"]["pending"][0]["participant_id"] == table.ids["Sedan"]


def test_a_bump_from_a_complication_goes_the_way_the_gm_chooses(client):
    table = chase_with(client, at=SUIT_AT["Hearts"])
    table.resolve(table_dice=[3, 2])
    table.resolve(status=422)  # the GM must say which way
    chase = table.resolve(direction=-1)["chase"]
    assert table.position("Sedan", chase) == 0 and chase["pending"] == []


def test_a_joker_chase_card_gives_two_and_bumps_up_to_two_cards(client):
    table = chase_with(client, at=SUIT_AT["Joker"], wild_card=False)  # an Extra: no Wild Die
    body = table.resolve(table_dice=[1, 4])  # 1 + 2 = 3, and the Extra's check die is no 1

    roll = body["rolls"][0]
    assert roll["modifiers"]["Complication"] == 2 and roll["total"] == 3 and not roll["critical_failure"]
    assert body["chase"]["pending"][0]["cards"] == 2
    chase = table.resolve(direction=1, cards=2)["chase"]
    assert table.position("Sedan", chase) == 6


def test_a_complication_avoided(client):
    table = chase_with(client, at=SUIT_AT["Diamonds"])
    body = table.resolve(table_dice=[6, 1])  # 6 - 2 = 4
    assert body["rolls"][0]["success"] and body["outcome"]["outcome"] == "avoided" and body["chase"]["pending"] == []


# -- critical failures by mode --------------------------------------------------------------------


def riders(client, mounted: bool) -> SavageTable:
    table = SavageTable(client, "swade")
    table.add(name="Kit", role="chaser", maneuver_die="d8", mounted=mounted, **({"top_speed": 40} if mounted else {"pace": 6}))
    table.add(name="Lou", role="quarry", maneuver_die="d8")
    table.begin(mode="mounted" if mounted else "foot", placements={"Kit": 2, "Lou": 7}, row=ROW)
    table.deal(Kit="KH", Lou="5D")
    body = table.act("Kit", "change-position", direction=1, table_dice=[1, 1])
    assert body["rolls"][0]["critical_failure"] and body["chase"]["pending"][0]["kind"] == "critical failure"
    return table


@pytest.mark.parametrize("face, effect", [(1, "loses turn"), (4, "mount fatigue"), (6, "rider fatigue")])
def test_a_mounted_critical_failure_rolls_a_d6(client, face, effect):
    table = riders(client, mounted=True)
    body = table.resolve(table_dice=[face])
    assert body["rolls"][0]["dice"] == [{"index": 0, "die": "d6", "face": face}] and body["outcome"]["outcome"] == effect
    chase, kit = body["chase"], body["chase"]["participants"][table.ids["Kit"]]
    if effect == "loses turn":
        assert chase["whose_turn"] == table.ids["Lou"]
    elif effect == "mount fatigue":
        assert kit["mount_fatigue"] == "Fatigued" and kit["conditions"]["fatigue"] == "fresh"
        table.end_turn("Kit")
        table.end_turn("Lou")
        table.deal(Kit="KS", Lou="5S")
        roll = table.act("Kit", "change-position", direction=1, table_dice=[5, 2])["rolls"][0]
        assert roll["modifiers"]["mount fatigue"] == -1  # the animal's Fatigue hampers the Riding roll
    else:
        assert kit["conditions"]["fatigue"] == "Fatigued" and kit["mount_fatigue"] == "fresh"


@pytest.mark.parametrize("face, effect", [(2, "loses turn"), (3, "fatigue")])
def test_on_foot_even_loses_the_turn_odd_is_fatigue(client, face, effect):
    table = riders(client, mounted=False)
    body = table.resolve(table_dice=[face])
    assert body["outcome"]["outcome"] == effect
    if effect == "fatigue":
        assert body["chase"]["participants"][table.ids["Kit"]]["conditions"]["fatigue"] == "Fatigued"
        roll = table.act("Kit", "attack", target_id="Lou", trait_die="d6", weapon_range="30/60/120", table_dice=[4, 1])["rolls"][0]
        assert roll["modifiers"]["conditions"] == -1
    else:
        assert body["chase"]["whose_turn"] == table.ids["Lou"]


def test_a_critical_failure_off_turn_costs_the_next_turn(client):
    table = SavageTable(client, "swade")
    table.add(name="Kit", role="chaser", maneuver_die="d8")
    table.add(name="Lou", role="quarry", maneuver_die="d8")
    table.begin(mode="foot", placements={"Kit": 4, "Lou": 4}, row=ROW)
    table.deal(Kit="5D", Lou="KH")
    # Lou Forces Kit with a raise (11 against 2): a Bump, and Kit's Critical Failure on foot.
    table.act("Lou", "force", target_id="Kit", direction=-1, table_dice=[8, 5, 3], defender_table_dice=[2, 1])
    body = table.resolve(table_dice=[4])  # even: he loses his turn, which has not come yet
    assert body["outcome"]["outcome"] == "loses turn" and body["chase"]["whose_turn"] == table.ids["Lou"]

    chase = table.end_turn("Lou")["chase"]
    assert chase["whose_turn"] is None and chase["stage"] == "over"
    assert table.names()[-5:] == ["TurnEnded", "TurnBegan", "TurnEnded", "RoundEnded", "CardsDiscarded"]
    lost = [e for e in table.events() if e["name"] == "TurnEnded"][-1]
    assert lost["data"]["reason"] == "lost turn (Critical Failure)"


# -- damage to vehicles ---------------------------------------------------------------------------


def test_damage_below_toughness_does_nothing(client):
    table = chase_with(client, sedan_card="KH")
    body = table.damage("Sedan", "2d6", [4, 5])
    assert body["chase"]["pending"] == [] and table.vehicle("Sedan")["log"] == []


def test_damage_at_toughness_bumps_and_calls_for_a_control_roll_without_a_wound(client):
    table = chase_with(client, sedan_card="KH")
    body = table.damage("Sedan", "2d6", [5, 5])
    assert table.pending(body["chase"]) == ["control roll", "bump"]
    assert table.vehicle("Sedan")["wounds"] == 0 and table.vehicle("Sedan")["log"][0]["damage"] == 10
    body = table.resolve(table_dice=[2, 1])  # Dan fails: Out of Control
    assert table.pending(body["chase"]) == ["bump", "out of control"]


def test_each_raise_is_a_wound_and_a_critical_hit(client):
    table = chase_with(client, sedan_card="KH")
    body = table.damage("Sedan", "2d6+8", [5, 5])  # 18: two raises
    assert table.pending(body["chase"]) == ["control roll", "bump", "critical hit", "critical hit"]
    vehicle = table.vehicle("Sedan")
    assert vehicle["wounds"] == 2 and vehicle["log"][0]["wounds_taken"] == 2


def test_a_vehicle_beyond_its_wounds_is_wrecked_and_out_of_the_chase(client):
    table = chase_with(client, sedan_card="KH")
    body = table.damage("Bike", "2d6+24", [1, 1])  # 26 against 10: four raises, four Wounds (three at most)
    chase = body["chase"]
    assert table.who(chase, "Bike")["status"] == "wrecked" and table.who(chase, "Eve")["status"] == "wrecked"
    assert chase["phase"] == "ended" and chase["outcome"] == "captured"
    assert table.vehicle("Bike")["wrecked"]


# -- Out of Control -------------------------------------------------------------------------------


def out_of_control(client, **kw) -> SavageTable:
    table = chase_with(client, sedan_card="KH", **kw)
    body = table.act("Sedan", "change-position", direction=1, table_dice=[1, 1])  # a Critical Failure
    assert table.pending(body["chase"]) == ["out of control"]
    return table


def test_out_of_control_2_major_collision(client):
    table = out_of_control(client)
    body = table.resolve(table_dice=[1, 1])
    assert body["outcome"]["outcome"] == "Major Collision"
    chase = body["chase"]
    assert table.who(chase, "Dan")["conditions"]["distracted"] and table.who(chase, "Pat")["conditions"]["distracted"]
    assert table.pending(chase) == ["collision wounds", "critical hit"]
    body = table.resolve(table_dice=[3])  # d4 Wounds
    assert body["rolls"][0]["dice"][0]["die"] == "d4" and table.vehicle("Sedan")["wounds"] == 3
    assert body["chase"]["pending"][0]["collision"] is True


@pytest.mark.parametrize("faces", [[1, 2], [2, 2]])
def test_out_of_control_3_to_4_minor_collision(client, faces):
    table = out_of_control(client)
    body = table.resolve(table_dice=faces)
    assert body["outcome"]["outcome"] == "Minor Collision"
    assert table.vehicle("Sedan")["wounds"] == 1 and table.pending(body["chase"]) == ["critical hit"]
    # The Wound from Out of Control brings no further Out of Control roll (nor a Bump).
    assert [e["cause"] for e in table.vehicle("Sedan")["log"] if e["event"] == "damage"] == ["Out of Control: Minor Collision"]


@pytest.mark.parametrize("faces", [[2, 3], [4, 5]])
def test_out_of_control_5_to_9_distracted(client, faces):
    table = out_of_control(client)
    chase = table.resolve(table_dice=faces)["chase"]
    assert table.who(chase, "Dan")["conditions"]["distracted"] and table.who(chase, "Pat")["conditions"]["distracted"]
    assert chase["pending"] == [] and table.vehicle("Sedan")["wounds"] == 0
    # Distracted: -2 to Dan's trait rolls, during this turn and his next.
    roll = table.act("Pat", "attack", target_id="Eve", trait_die="d6", weapon_range="30/60/120", table_dice=[4, 1])["rolls"][0]
    assert roll["modifiers"]["conditions"] == -2


@pytest.mark.parametrize("faces", [[5, 5], [5, 6]])
def test_out_of_control_10_to_11_vulnerable(client, faces):
    table = out_of_control(client)
    chase = table.resolve(table_dice=faces)["chase"]
    assert all(table.who(chase, n)["conditions"]["vulnerable"] for n in ("Sedan", "Dan", "Pat"))
    table.end_turn("Sedan")
    roll = table.act("Eve", "attack", target_id="Pat", trait_die="d6", weapon_range="30/60/120", table_dice=[4, 1])["rolls"][0]
    # +2 against the Vulnerable, named in the log (issue 17); -2 Unstable Platform in the chase's.
    assert roll["modifiers"]["Vulnerable"] == 2 and roll["modifiers"]["chase"] == -2


def test_out_of_control_12_glitch_rerolls_crew(client):
    table = out_of_control(client)
    body = table.resolve(table_dice=[6, 6])
    assert body["outcome"]["outcome"] == "Glitch" and body["chase"]["pending"][0]["reroll_crew"] is True
    body = table.resolve(table_dice=[4, 5])  # 9: Crew, rerolled
    assert body["chase"]["pending"][0]["kind"] == "critical hit"
    body = table.resolve(table_dice=[3, 3])  # 6: Chassis
    assert [(h["name"], h["reroll"]) for h in table.vehicle("Sedan")["critical_hits"]] == [("Crew", True), ("Chassis", False)]


# -- Vehicle Critical Hits ------------------------------------------------------------------------


def critical(client, faces: list[int], **sedan) -> tuple[SavageTable, dict]:
    table = chase_with(client, sedan_card="KH", sedan=sedan)
    table.damage("Sedan", "2d6+4", [5, 5])  # 14: one raise
    table.resolve(table_dice=[5, 2])  # in control
    table.resolve(direction=1)
    body = table.resolve(table_dice=faces)
    return table, body


@pytest.mark.parametrize(
    "faces, name, effect",
    [
        ([1, 1], "Scratch and Dent", "none"),
        ([1, 2], "Guidance/Traction", "handling"),
        ([2, 2], "Locomotion", "top speed"),
        ([2, 3], "Locomotion", "top speed"),
        ([3, 3], "Chassis", "chassis"),
        ([4, 4], "Chassis", "chassis"),
        ([4, 5], "Crew", "crew"),
        ([5, 5], "Crew", "crew"),
        ([5, 6], "Weapon", "chassis"),  # no weapon: a Chassis hit instead
        ([6, 6], "System", "chassis"),  # no special features: a Chassis hit instead
    ],
)
def test_each_row_of_the_critical_hits_table(client, faces, name, effect):
    table, body = critical(client, faces)
    hit = table.vehicle("Sedan")["critical_hits"][0]
    assert (hit["name"], hit["effect"], hit["total"]) == (name, effect, sum(faces))
    vehicle = table.vehicle("Sedan")
    assert vehicle["handling_penalty"] == (-1 if effect == "handling" else 0)
    assert vehicle["top_speed_percent"] == (90 if effect == "top speed" else 100)
    if effect == "crew":
        assert "random crew member" in hit["crew"]
        assert not table.who(body["chase"], "Pat")["conditions"]["shaken"]  # not a Collision


def test_weapon_and_system_hits_on_a_vehicle_that_has_them(client):
    table, _ = critical(client, [5, 6], weapons=2, has_systems=True)
    assert table.vehicle("Sedan")["weapons"] == 1
    table, _ = critical(client, [6, 6], has_systems=True)
    assert table.vehicle("Sedan")["critical_hits"][0]["effect"] == "system"


def test_guidance_hits_add_up_to_minus_four_and_slow_the_driver(client):
    table = chase_with(client, sedan_card="KH", sedan={"max_wounds": 10})
    table.damage("Sedan", "2d6+23", [1, 1])  # 25: three raises... and more
    table.resolve(table_dice=[5, 2])
    table.resolve(direction=1)
    for _ in range(3):
        table.resolve(table_dice=[1, 2])
    assert table.vehicle("Sedan")["handling_penalty"] == -3
    roll = table.act("Sedan", "change-position", direction=1, table_dice=[7, 1])["rolls"][0]
    assert roll["modifiers"]["handling"] == -3 and roll["total"] == 4


def test_a_crew_hit_in_a_collision_shakes_the_occupants(client):
    table = out_of_control(client)
    table.resolve(table_dice=[1, 2])  # Minor Collision
    chase = table.resolve(table_dice=[4, 5])["chase"]  # Crew
    assert table.who(chase, "Dan")["conditions"]["shaken"] and table.who(chase, "Pat")["conditions"]["shaken"]
    assert not table.who(chase, "Sedan")["conditions"]["shaken"]  # vehicles cannot be Shaken
