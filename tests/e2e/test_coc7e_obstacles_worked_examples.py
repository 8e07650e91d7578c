"""The worked examples of coc7e-chases.txt part 3 (and the fence of part 4) over HTTP, table dice.

"Skills and Hazards": Harvey crosses the mud; the farmer slips, takes 2 (1D6, the Keeper's
Moderate Injury) and pays 1 (1D3) movement action, owed into the next round.
"Using Fighting Maneuvers in a Chase": Harvey, failing his Climb, throws the farmer over the fence;
DEX roll failed, minor injury 3 (1D3), 1 (1D3) movement action: both of the farmer's are used.
"""
from __future__ import annotations

from tests.e2e.coc7e_table import Table, harvey_and_the_farmer


def round_one(keeper) -> Table:
    """Round 1 of part 2: Harvey 2 -> 3, the farmer 0 -> 2. Round 2 begins, Harvey to act."""
    harvey_and_the_farmer(keeper)
    keeper.move("Harvey", 1)
    chase = keeper.move("Farmer", 2)
    assert (keeper.location_of(chase, "Farmer"), keeper.location_of(chase, "Harvey"), chase["round"]) == (2, 3, 2)
    return Table(keeper)


def test_harvey_crosses_the_mud_and_the_farmer_slips_and_owes_a_movement_action(keeper):
    table = round_one(keeper)
    # "the section of track ahead is rough and muddy": a hazard between Harvey's location and the next.
    table.name_location(3, "The track")
    mud = table.place("hazard", ["The track", 4], name="Mud", skills=["DEX"], difficulty="regular")

    # Harvey's turn: reckless, a DEX roll, made (30 against DEX 55); on to the next location.
    crossed = table.negotiate("Harvey", [30, 0], approach="reckless")
    assert crossed["outcome"] == {"passed": True, "moved_on": True, "mishap": False}
    assert crossed["rolls"][0]["skill"] == "DEX" and crossed["rolls"][0]["level"] == "regular"
    chase = crossed["chase"]
    assert keeper.location_of(chase, "Harvey") == 4
    assert chase["whose_turn"] == keeper.ids["Farmer"]  # his one movement action is used

    # Farmer's turn: two movement actions; his move stops in front of the mud.
    chase = keeper.move("Farmer", 2)
    farmer = table.who(chase, "Farmer")
    assert (farmer["location"], farmer["movement_actions"], farmer["obstacle_ahead_id"]) == (3, 1, mud)
    assert [e["name"] for e in keeper.events()][-2:] == ["Moved", "ObstacleReached"]

    # The DEX roll is failed (95 against DEX 50): he slips and falls, and still moves on.
    slipped = table.negotiate("Farmer", [90, 5])
    assert slipped["outcome"] == {"passed": False, "moved_on": True, "mishap": True}
    farmer = table.who(slipped["chase"], "Farmer")
    assert (farmer["location"], farmer["movement_actions"]) == (4, 0)
    assert farmer["mishap"]["cause"] == "failed the hazard Mud" and farmer["mishap"]["default_incident"] == "minor"
    assert slipped["chase"]["whose_turn"] == keeper.ids["Farmer"]  # the Keeper rules first

    # The Keeper chooses Moderate Injury: 2 (1D6); and 1 (1D3) lost movement action.
    ruled = table.consequences("Farmer", incident="moderate", rolls={"damage": [2], "movement_actions": [1]})
    assert [r["expression"] for r in ruled["rolls"]] == ["1D6", "1D3"]
    chase = ruled["chase"]
    farmer = table.who(chase, "Farmer")
    assert (farmer["damage"], farmer["hp_left"], farmer["mishap"]) == (2, 11, None)
    # "He has already used all of his movement actions for this round, so the delay will cost
    # one of his two movement actions in the next round."
    assert chase["round"] == 3
    assert (farmer["movement_actions"], farmer["owed"]) == (1, 0)
    names = [e["name"] for e in keeper.events()]
    assert names[-9:] == [
        "ConsequencesRuled", "DiceRolled", "DamageTaken", "Wounded", "DiceRolled", "MovementActionsLost", "TurnEnded", "RoundEnded", "RoundBegan",
    ]
    lost = next(e for e in reversed(keeper.events()) if e["name"] == "MovementActionsLost")
    assert (lost["data"]["lost"], lost["data"]["paid_now"], lost["data"]["owed"], lost["type"]) == (1, 0, 1, "coc7e:Chase.MovementActionsLost")
    # Every roll is in the roll history.
    purposes = [r["purpose"] for r in keeper.rolls()][-4:]
    assert purposes[0] == "negotiate hazard: Mud" and purposes[1] == "negotiate hazard: Mud"
    assert purposes[2].startswith("Moderate (Table III: Other Forms of Damage)") and purposes[3].startswith("lost movement actions")


def test_a_cautious_approach_buys_bonus_dice_with_movement_actions(keeper):
    table = round_one(keeper)
    keeper.move("Harvey", 1)  # Harvey to 4: the farmer's turn, two movement actions at 2
    table.place("hazard", [2, 3], name="Mud", skills=["DEX"])
    # Cautious, 1 bonus die: 1 movement action for the die and 1 to move on. Tens 90 and 30 with
    # units 5: 95 or 35, the lower kept.
    crossed = table.negotiate("Farmer", [90, 30, 5], approach="cautious", bonus_dice=1)
    roll = crossed["rolls"][0]
    assert (roll["bonus_dice"], roll["result"], roll["level"]) == (1, 35, "regular")
    farmer = table.who(crossed["chase"], "Farmer")
    assert farmer["location"] == 3
    assert crossed["chase"]["round"] == 3  # both of his movement actions were spent


def test_harvey_throws_the_farmer_over_the_fence(keeper):
    table = round_one(keeper)
    keeper.move("Harvey", 1)
    chase = keeper.move("Farmer", 2)
    # Start of the round: Harvey and the farmer at the same location; a fence ahead.
    assert chase["round"] == 3 and keeper.location_of(chase, "Harvey") == keeper.location_of(chase, "Farmer") == 4
    fence = table.place("barrier", [4, 5], name="Fence", skills=["Climb"])

    # Harvey's turn: he fails his Climb roll (70 against 40); the Keeper inflicts nothing more.
    failed = table.negotiate("Harvey", [70, 0])
    assert failed["outcome"] == {"passed": False, "moved_on": False, "mishap": False}
    assert keeper.location_of(failed["chase"], "Harvey") == 4
    assert table.who(failed["chase"], "Harvey")["obstacle_ahead"]["id"] == fence

    # Farmer's turn: he lunges at Harvey (1 movement action); Harvey answers with a maneuver.
    # Both Build 0: no penalty dice. The farmer rolls a Failure (73), Harvey a Regular success (38).
    fight = table.attack("Farmer", "Harvey", method="fighting", response="maneuver", rolls={"attack": [70, 3], "defence": [30, 8]})
    assert [(r["skill"], r["level"], r["penalty_dice"]) for r in fight["rolls"]] == [
        ("Fighting (Brawl)", "failure", 0), ("Fighting (Brawl)", "regular", 0),
    ]
    assert fight["outcome"] == {"winner": "defender", "target_hit": False, "attacker_hit": True, "outnumbered": False, "malfunction": None, "mishaps": [keeper.ids["Farmer"]]}
    farmer = table.who(fight["chase"], "Farmer")
    assert (farmer["movement_actions"], farmer["mishap"]["cause"]) == (1, "fighting maneuver by Harvey")

    # "a skill roll must then be made for the farmer as if encountering a hazard": DEX, failed (90).
    landing = table.mishap_roll("Farmer", "DEX", [90, 0])
    assert landing["outcome"]["passed"] is False
    # A "minor injury" of 3 (1D3) and 1 (1D3) movement action; he lands over the fence.
    ruled = table.consequences("Farmer", incident="minor", to_location=5, rolls={"damage": [3], "movement_actions": [1]})
    assert ruled["outcome"]["incident"] == "minor"
    chase = ruled["chase"]
    farmer = table.who(chase, "Farmer")
    assert farmer["damage"] == 3 and farmer["owed"] == 0
    # "he has used his 2 movement actions for the round (1 to initiate the attack, 1 as part of
    # the cost of the fighting maneuver used on him)": his turn is over, the round too.
    assert chase["round"] == 4
    assert keeper.location_of(chase, "Farmer") == 5 and keeper.location_of(chase, "Harvey") == 4
    names = [e["name"] for e in keeper.events()]
    assert "AttackMade" in names and "MishapIncurred" in names and "MishapRolled" in names and "ParticipantDisplaced" in names


def test_a_passed_roll_as_if_a_hazard_after_a_maneuver_costs_nothing(keeper):
    table = round_one(keeper)
    keeper.move("Harvey", 1)
    keeper.move("Farmer", 2)
    table.place("barrier", [4, 5], name="Fence", skills=["Climb"])
    table.negotiate("Harvey", [70, 0])
    table.attack("Farmer", "Harvey", response="maneuver", rolls={"attack": [70, 3], "defence": [30, 8]})

    landed = table.mishap_roll("Farmer", "DEX", [20, 0])

    assert landed["outcome"]["passed"] is True
    farmer = table.who(landed["chase"], "Farmer")
    assert (farmer["mishap"], farmer["damage"], farmer["movement_actions"]) == (None, 0, 1)
    assert landed["chase"]["whose_turn"] == keeper.ids["Farmer"]  # one movement action left to use
