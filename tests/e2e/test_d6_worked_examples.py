"""Every worked example of d6-movement.txt, played through the HTTP API with table dice.

Faces are entered ordinary dice first, then the Wild Die, then its rerolls after a 6; a 3D
roll of [2, 2, 3] is 7 and a 4D roll of [5, 5, 5, 5] is 20.
"""
from __future__ import annotations

from tests.e2e.d6_table import D6Table


def options(table: D6Table, name: str, movement: str) -> dict[float, int]:
    """The rates the track view offers a participant this round, with their difficulties."""
    return {o["rate"]: o["difficulty"] for o in table.who(name)["may_move"][movement]["options"]}


def test_running_20_metres_at_move_10_is_difficulty_5_and_40_metres_is_15(client):
    # "A character with a Move of 10 meters per round who wants to move 20 meters in one round
    # has a running difficulty of 5, while a character who wants to move 40 meters has a
    # difficulty of 15."
    table = D6Table(client, name="Two runners")
    table.add("Ann", "racer", move=10)
    table.add("Bob", "racer", move=10, skills={"running": "4D"})
    table.begin(finish=100)

    # The track view tells both what each rate costs before they roll.
    offered = options(table, "Ann", "running")
    assert offered[10] == 0 and offered[20] == 5 and offered[30] == 10 and offered[40] == 15

    # Ann runs 20 m: her 3D total of 7 meets difficulty 5.
    ann = table.run("Ann", 20, [2, 2, 3])
    assert ann["outcome"]["metres"] == 20 and ann["rolls"][0]["difficulty"] == 5 and ann["rolls"][0]["total"] == 7
    # Bob runs 40 m: his running 4D total of 15 meets difficulty 15.
    bob = table.run("Bob", 40, [5, 5, 3, 2])
    assert bob["rolls"][0]["difficulty"] == 15 and bob["rolls"][0]["success"] is True
    assert table.position("Ann", bob["chase"]) == 20 and table.position("Bob", bob["chase"]) == 40


def test_a_failed_running_roll_covers_only_the_move_or_trips_when_the_gm_rules_so(client):
    # "A character who fails his running roll covers only his Move or may even trip."
    table = D6Table(client)
    table.add("Ann", "racer")
    table.add("Bob", "racer")
    table.begin(finish=100)

    # Ann wants 40 m (difficulty 15) and rolls 9: she covers only her Move of 10 m.
    ann = table.run("Ann", 40, [3, 3, 3])
    assert ann["outcome"]["metres"] == 10 and table.last_moved()["outcome"] == "covered only the base rate"
    # Bob fails too, and the GM rules that he trips: he covers nothing.
    bob = table.run("Bob", 40, [3, 3, 3], on_failure="trip")
    assert bob["outcome"]["metres"] == 0 and table.who("Bob", bob["chase"])["this_round"]["tripped"] is True


def test_swimming_at_twice_the_swimming_move_is_difficulty_10(client):
    # "the difficulty for a character to move 2 times his swimming speed is 10 (5 for the base
    # difficulty plus 5 for the additional movement)"; the swimming Move is half the Move.
    table = D6Table(client, name="Across the river")
    table.add("Ann", "racer", move=10)
    table.add("Bob", "racer", move=9)
    table.begin(finish=50, terrain=[{"from": 0, "to": 50, "terrain": "easy", "note": "smooth water"}])

    swimming = table.who("Ann")["may_move"]["swimming"]
    assert swimming["base_rate"] == 5 and options(table, "Ann", "swimming")[10] == 10
    assert table.who("Bob")["may_move"]["swimming"]["base_rate"] == 5  # 9 / 2 rounded up

    ann = table.move("Ann", "swimming", 10, [4, 3, 3])
    assert ann["rolls"][0]["difficulty"] == 10 and ann["outcome"]["metres"] == 10


def test_the_tree_climb_without_the_skill_at_8_metres_is_difficulty_20(client):
    # "A character with a running Move of 10 meters and without the climbing skill ... His base
    # climbing Move is 5. To increase this to eight meters per round means a difficulty of 20
    # (10 to climb the tree plus 10 to increase the movement by one-half, or three meters)."
    table = D6Table(client, name="Up the tree")
    table.add("Ann", "racer", move=10)
    table.add("Cat", "racer", move=10, skills={"climbing": "3D"})
    table.begin(finish=20, terrain=[{"from": 0, "to": 20, "terrain": "moderate", "note": "climbing a tree"}])

    ann = table.who("Ann")["may_move"]["climbing"]
    assert ann["base_rate"] == 5 and options(table, "Ann", "climbing")[5] == 10 and options(table, "Ann", "climbing")[8] == 20
    # With the skill, the climbing Move is the full Move.
    assert table.who("Cat")["may_move"]["climbing"]["base_rate"] == 10

    climbed = table.move("Ann", "climbing", 8, [6, 6, 5])  # the Wild Die shows 5; ordinary 6s never explode
    roll = climbed["rolls"][0]
    assert roll["difficulty"] == 20 and roll["difficulty_parts"] == {"base": 5, "rate": 10, "terrain": 5, "fatigue": 0, "gm": 0}
    # Ann has no climbing skill: she rolls her Physique (3D); 6 + 6 + 5 = 17 falls short of 20,
    # and she covers what the total allows: 10 beats the tree (5 m), 17 does not buy 3 m more.
    assert roll["code"] == "3D" and roll["total"] == 17 and climbed["outcome"]["metres"] == 5


def test_the_thief_chase_accelerates_to_20_then_40_and_drops_back_to_20(client):
    # "A character with a Move of 10 is chasing a thief ... In the first round, she may move up
    # to 20 meters, which has a running difficulty of 5. In the second round, she can increase her
    # speed to 40 meters, which has a running difficulty of 15. If, in the second round, the player
    # generates a running total of 20, by the acceleration rules, she may only move 40 meters ..."
    table = D6Table(client, name="The stolen pocketbook")
    table.add("Ann", "pursuer", move=10, skills={"running": "4D"})
    table.add("Thief", "quarry", move=10, position=30)
    table.begin(acceleration=True)

    # Round 1: from a standstill she may reach 20 m (2 x her Move), difficulty 5.
    running = table.who("Ann")["may_move"]["running"]
    assert running["fastest"] == 20 and options(table, "Ann", "running") == {10: 0, 20: 5}
    assert table.run("Ann", 20, [2, 2, 2, 2])["outcome"]["metres"] == 20
    table.run("Thief", 20, [2, 2, 3])
    table.end_round()

    # Round 2: she may double her rate to 40 m (difficulty 15), no more.
    assert table.who("Ann")["may_move"]["running"]["fastest"] == 40
    problem = table.refused(f"/d6/participants/{table.ids['Ann']}/move", {"movement": "running", "rate": 50, "table_dice": [5, 5, 5, 5]}, 409)
    assert "Accelerating and Decelerating" in problem["rule"]
    # Her total of 20 meets the difficulty of 50 m, but she moves 40.
    second = table.run("Ann", 40, [5, 5, 5, 5])
    assert second["rolls"][0]["total"] == 20 and second["rolls"][0]["difficulty"] == 15 and second["outcome"]["metres"] == 40
    assert "would cover 50 m" in table.last_moved()["explanation"]
    table.run("Thief", 40, [5, 5, 5])
    table.end_round()

    # Round 3: to hold 40 m she needs 15 again; she rolls 12, so her speed drops to 20 m
    # (40 minus 2 times her base Move of 10).
    third = table.run("Ann", 40, [3, 3, 3, 3])
    assert third["outcome"]["metres"] == 20 and table.last_moved()["outcome"] == "slowed"
    assert table.who("Ann", third["chase"])["rates"] == {"running": 20}
    assert table.position("Ann", third["chase"]) == 80


def test_a_pursuer_catches_the_quarry_in_the_third_round_of_a_race(client):
    # A hound (Move 12) chases a fox (Move 10) that starts 25 m ahead; no optional rules.
    table = D6Table(client, name="Hound and fox")
    table.add("Hound", "pursuer", move=12, skills={"running": "4D"})
    table.add("Fox", "quarry", move=10, position=25)
    table.begin(finish=300)

    # Round 1: the hound runs 24 m (two movements, difficulty 5), the fox 20 m.
    table.run("Hound", 24, [3, 3, 3, 2])
    table.run("Fox", 20, [2, 2, 2])
    after = table.end_round()["chase"]
    assert (table.position("Hound", after), table.position("Fox", after)) == (24, 45) and after["round"] == 2

    # Round 2: the hound runs 36 m (difficulty 10), the fox 20 m again: 60 against 65.
    table.run("Hound", 36, [4, 4, 4, 3])
    table.run("Fox", 20, [2, 2, 3])
    after = table.end_round()["chase"]
    assert (table.position("Hound", after), table.position("Fox", after)) == (60, 65) and after["phase"] == "running"

    # Round 3: the fox tries 30 m but its Wild Die shows 1: the 1 and its highest die are
    # removed, leaving 2, so it covers only its Move (75 m); the hound's 36 m reach 96 m.
    fox = table.run("Fox", 30, [2, 2, 1])
    assert fox["rolls"][0]["removed"] == [0, 2] and fox["rolls"][0]["total"] == 2 and fox["outcome"]["metres"] == 10
    table.run("Hound", 36, [4, 4, 4, 3])
    ended = table.end_round()
    after = ended["chase"]
    assert (table.position("Hound", after), table.position("Fox", after)) == (96, 75)
    assert ended["outcome"]["caught"] == [{"participant_id": table.ids["Fox"], "by": table.ids["Hound"]}]
    assert after["phase"] == "ended" and after["outcome"] == "caught" and table.who("Fox", after)["status"] == "caught"
