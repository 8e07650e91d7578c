"""The rest of d6-movement.txt over HTTP: short distances, one movement of each type a round,
the optional speed cap, leaping and its running start, deceleration to a stop or a trip,
fatigue, terrain by stretch, flying, and the finish of a race."""
from __future__ import annotations

from tests.e2e.d6_table import D6Table


def race(client, **begin) -> D6Table:
    table = D6Table(client, name="A race")
    table.add("Ann", "racer", move=10, skills={"running": "4D"})
    table.add("Bob", "racer", move=10)
    table.begin(**{"finish": 200, **begin})
    return table


def test_half_the_rate_is_free_no_roll_and_no_dice(client):
    # "a character with a base Move of 10 could move five meters on land or 2.5 meters in the
    # water with no action penalty" ("Short Distances").
    table = race(client)
    assert table.who("Ann")["may_move"]["swimming"]["free_up_to"] == 2.5

    ran = table.run("Ann", 5)
    swum = table.move("Ann", "swimming", 2.5)

    assert ran["rolls"] == [] and swum["rolls"] == [] and swum["outcome"]["metres"] == 2.5
    assert table.position("Ann", swum["chase"]) == 7.5 and table.last_moved()["outcome"] == "free"
    # Faces entered for a move that takes no roll are refused rather than ignored.
    table.refused(f"/d6/participants/{table.ids['Bob']}/move", {"movement": "running", "rate": 4, "table_dice": [1, 2, 3]}, 422)


def test_one_movement_action_of_each_type_a_round_and_the_optional_cap_of_four_times_the_move(client):
    table = race(client, speed_limit=True)
    table.run("Ann", 20, [2, 2, 2, 2])

    # A second run in the round is refused ("Maximum Movement"); swimming is another type.
    problem = table.refused(f"/d6/participants/{table.ids['Ann']}/move", {"movement": "running", "rate": 10, "table_dice": [2, 2, 2, 2]}, 409)
    assert "Maximum Movement" in problem["rule"]
    assert "running" not in table.who("Ann")["may_move"] and "swimming" in table.who("Ann")["may_move"]

    # The GM limits each type to 4 times its Move: Bob may run 40 m, not 50.
    assert table.who("Bob")["may_move"]["running"]["fastest"] == 40
    table.refused(f"/d6/participants/{table.ids['Bob']}/move", {"movement": "running", "rate": 50, "table_dice": [6, 6, 5]}, 409)

    # The next round opens every type again.
    assert "running" in table.end_round()["chase"]["participants"][table.ids["Ann"]]["may_move"]


def test_leaping_a_quarter_of_the_move_then_10_per_two_metres_with_a_running_start(client):
    # "one-quarter of his Move in meters (rounded up). The base difficulty is 5 to move this
    # distance, and +10 for each additional two meters ... add 5 to his skill total per round of
    # the running start, up to a maximum of +10 (two rounds) ... must have beat the running
    # difficulty in both rounds".
    table = race(client)
    leaping = table.who("Ann")["may_move"]["leaping"]
    assert leaping["base_rate"] == 3 and {o["rate"]: o["difficulty"] for o in leaping["options"]}[5] == 15

    # Round 1: Ann beats her running difficulty; a two-round running start is not there yet.
    table.run("Ann", 20, [2, 2, 2, 2])
    refused = table.refused(f"/d6/participants/{table.ids['Ann']}/move", {"movement": "leaping", "rate": 7, "running_start": 2, "table_dice": [5, 5, 5]}, 409)
    assert "leaping" in refused["rule"]
    table.end_round()

    # Round 2: she runs again, then leaps 7 m (difficulty 25) with +10 for two rounds of running start.
    table.run("Ann", 20, [2, 2, 2, 2])
    leap = table.move("Ann", "leaping", 7, [4, 4, 4], running_start=2)
    roll = leap["rolls"][0]
    assert roll["difficulty"] == 25 and roll["bonus"] == {"running start": 10} and roll["total"] == 22 and roll["success"] is False
    # 22 counts as 12 without the bonus ... the leap covers what the total allows: 3 m for 5 to 14, 5 m for 15 to 24.
    assert leap["outcome"]["metres"] == 5 and table.position("Ann", leap["chase"]) == 45


def test_deceleration_to_zero_stops_and_below_zero_trips(client):
    # "If this makes the current movement zero, then the character stops. If it's less than
    # zero, the character trips."
    table = race(client, acceleration=True, terrain=[{"from": 15, "to": 200, "terrain": "moderate"}])
    table.run("Ann", 20, [3, 3, 3, 3])
    table.run("Bob", 10, [2, 2, 2])
    table.end_round()

    # Ann, at 20 m a round, fails to hold it (difficulty 5 + 5 moderate terrain): 20 - 2 x 10 = 0.
    stopped = table.run("Ann", 20, [1, 1, 1, 2])
    assert stopped["outcome"]["metres"] == 0 and table.last_moved()["outcome"] == "stopped"
    # Bob, at 10 m, fails even that (moderate terrain +5): 10 - 20 is below zero, he trips.
    tripped = table.run("Bob", 10, [1, 2, 1])
    assert tripped["outcome"]["metres"] == 0 and table.last_moved()["outcome"] == "tripped"
    assert table.who("Bob", tripped["chase"])["this_round"]["tripped"] is True


def test_fatigue_adds_3_a_round_beyond_the_limit_and_stamina_overcomes_it(client):
    # "a fatigue modifier of +3 to the difficulty for each additional round ... cumulative";
    # stamina or willpower against "a base difficulty of 5" plus that modifier.
    table = D6Table(client)
    table.add("Ann", "racer", fatigue_limit=1, skills={"running": "4D", "stamina": "2D"})
    table.add("Bob", "racer")
    table.begin(finish=500)

    table.run("Ann", 20, [2, 2, 2, 2])  # round 1: within her limit
    table.end_round()
    second = table.run("Ann", 20, [2, 2, 2, 2])  # round 2: +3
    assert second["rolls"][0]["difficulty_parts"]["fatigue"] == 3 and second["rolls"][0]["difficulty"] == 8
    table.end_round()
    assert table.who("Ann")["fatigue"] == {"limit": 1, "fast_rounds": 2, "modifier": 3}
    assert {o["rate"]: o["difficulty"] for o in table.who("Ann")["may_move"]["running"]["options"]}[20] == 11  # round 3: +6

    # Her stamina (2D) against 5 + 3: a total of 8 overcomes it, and the rounds count afresh.
    rolled = table.post(f"/d6/participants/{table.ids['Ann']}/fatigue-roll", {"skill": "stamina", "table_dice": [4, 4]})
    assert rolled["outcome"]["overcome"] is True and rolled["rolls"][0]["difficulty"] == 8
    assert table.who("Ann", rolled["chase"])["fatigue"]["modifier"] == 0
    # Bob has no fatigue to overcome.
    table.refused(f"/d6/participants/{table.ids['Bob']}/fatigue-roll", {"table_dice": [4, 4, 4]}, 409)


def test_terrain_is_the_worst_stretch_the_move_crosses_and_the_gm_adds_modifiers(client):
    table = race(client, terrain=[{"from": 0, "to": 15, "terrain": "easy"}, {"from": 15, "to": 60, "terrain": "rough"}])

    # 20 m from the start reaches the rough stretch (+10); the GM adds +5 for a sharp turn.
    ran = table.run("Ann", 20, [5, 5, 5, 5], modifier=5)
    assert ran["rolls"][0]["difficulty_parts"] == {"base": 0, "rate": 5, "terrain": 10, "fatigue": 0, "gm": 5}
    assert ran["rolls"][0]["terrain"] == "rough" and ran["rolls"][0]["difficulty"] == 20
    # Players may not set the GM's modifiers.
    player = table.player("Bob")
    assert player.answer(f"/d6/participants/{table.ids['Bob']}/move", {"movement": "running", "rate": 20, "modifier": -5, "table_dice": [2, 2, 2]}).status_code == 403


def test_flying_by_a_flying_move_and_refused_without_one(client):
    table = D6Table(client)
    table.add("Hawk", "pursuer", move=2, flying_move=20)
    table.add("Mouse", "quarry", move=5, position=30)
    table.begin()

    flown = table.move("Hawk", "flying", 40, [3, 3, 3])  # two flying movements: difficulty 5
    assert flown["rolls"][0]["difficulty"] == 5 and flown["outcome"]["metres"] == 40
    assert "flying" not in table.who("Mouse")["may_move"]
    table.refused(f"/d6/participants/{table.ids['Mouse']}/move", {"movement": "flying", "rate": 10, "table_dice": [3, 3]}, 409)
    # The hawk has reached the mouse: caught when the round ends.
    assert table.end_round()["chase"]["outcome"] == "caught"


def test_the_first_racer_past_the_finish_wins_when_the_round_ends(client):
    table = race(client, finish=30)
    table.run("Ann", 40, [5, 5, 5, 5])
    table.run("Bob", 30, [5, 5, 5])

    ended = table.end_round()["chase"]

    assert ended["phase"] == "ended" and ended["outcome"] == "finished" and ended["end_note"].endswith("Ann, Bob")
    assert table.who("Ann", ended)["finished_round"] == 1 and ended["revealed_seeds"]  # the seed is revealed at the end


def test_a_failed_run_never_covers_more_than_the_rate_declared(client):
    # "A character who fails his running roll covers only his Move": Bob declares 8 m (less
    # than his Move of 10) over rough terrain (+10) and fails with a total of 6.
    table = race(client, terrain=[{"from": 0, "to": 60, "terrain": "rough"}])

    failed = table.run("Bob", 8, [1, 2, 3])

    assert failed["rolls"][0]["difficulty"] == 10 and failed["rolls"][0]["success"] is False
    assert failed["outcome"]["metres"] == 8 and table.position("Bob", failed["chase"]) == 8  # not 10 m, more than asked


def test_fatigue_weighs_on_fast_movement_only(client):
    # "Any additional fast movement beyond that predetermined length requires a fatigue modifier":
    # Ann, two fast rounds past a limit of one, then runs at her Move (no fast movement) or leaps.
    table = D6Table(client)
    table.add("Ann", "racer", fatigue_limit=1, skills={"running": "4D"})
    table.add("Bob", "racer")
    table.begin(finish=500)
    for _ in range(2):
        table.run("Ann", 20, [4, 4, 4, 4])
        table.end_round()
    options = {o["rate"]: o["difficulty"] for o in table.who("Ann")["may_move"]["running"]["options"]}
    assert options[20] == 5 + 6  # fast again: a third round beyond the limit

    # At her Move, and leaping, the fatigue modifier does not apply.
    assert options[10] == 0
    walked = table.run("Ann", 10, [1, 1, 1, 2])
    leapt = table.move("Ann", "leaping", 3, [1, 1, 2])  # Physique 3D
    assert walked["rolls"][0]["difficulty_parts"]["fatigue"] == 0 and leapt["rolls"][0]["difficulty_parts"]["fatigue"] == 0
