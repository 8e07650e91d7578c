"""The Wild Die over HTTP: a 6 is added and rolled again as often as it comes up; a 1 on its
first roll is handled by the GM's choice, the chase's by default, the command's when the GM
gives one (domain/rules/d6/dice.py). Every face is recorded with its role and source."""
from __future__ import annotations

import pytest

from tests.e2e.d6_table import D6Table


def running_chase(client, **begin) -> D6Table:
    table = D6Table(client)
    table.add("Ann", "pursuer")
    table.add("Thief", "quarry", position=20)
    table.begin(**begin)
    return table


def skill_roll(table: D6Table, faces: list[int], **body) -> dict:
    return table.post("/d6/skill-rolls", {"code": "3D+1", "difficulty": 10, "table_dice": faces, **body})["rolls"][0]


def test_a_six_on_the_wild_die_that_aces_twice_is_added_with_every_reroll(client):
    table = running_chase(client)

    # 2D: an ordinary 3, the Wild Die 6, rerolled 6, rerolled 4.
    roll = table.post("/d6/skill-rolls", {"code": "2D", "difficulty": 15, "table_dice": [3, 6, 6, 4]})["rolls"][0]

    assert roll["total"] == 19 and roll["success"] is True
    assert roll["wild_die"] == [6, 6, 4]
    assert [d["role"] for d in roll["dice"]] == ["die", "wild die", "wild die reroll", "wild die reroll"]
    assert roll["source"] == {"kind": "table", "entered_by": "keeper", "sequence": 1}


def test_an_exploding_roll_entered_short_or_long_is_refused_naming_the_dice(client):
    table = running_chase(client)
    # The Wild Die's second 6 still wants a reroll ...
    short = table.refused("/d6/skill-rolls", {"code": "2D", "table_dice": [3, 6, 6]}, 422)
    assert short["errors"][0]["field"] == "table_dice" and "rolled again" in short["detail"]
    # ... and a face after the Wild Die settled is one too many.
    table.refused("/d6/skill-rolls", {"code": "2D", "table_dice": [3, 6, 4, 2]}, 422)
    # A face no six-sided die shows.
    table.refused("/d6/skill-rolls", {"code": "2D", "table_dice": [3, 7]}, 422)


@pytest.mark.parametrize(
    "choice, total, removed, complication",
    [
        ("remove", 4, [0, 2], False),  # the 1 and the highest other die (5) taken away: 3 + 1 pip
        ("no_effect", 10, [], False),  # 5 + 3 + 1 + 1 pip
        ("complication", 10, [], True),  # counted as rolled; the log notes a complication
    ],
)
def test_a_one_on_the_wild_die_under_each_choice_of_the_gm(client, choice, total, removed, complication):
    table = running_chase(client)

    roll = skill_roll(table, [5, 3, 1], wild_die_one=choice)

    assert roll["wild_die_one"] == choice and roll["wild_die_one_rolled"] is True
    assert roll["total"] == total and roll["removed"] == removed and roll["complication"] is complication
    assert [d["removed"] for d in roll["dice"]] == [i in removed for i in range(3)]


def test_the_chases_choice_is_the_default_and_a_1_on_a_reroll_is_only_a_1(client):
    # The GM chose "complication" for this chase when it began.
    table = running_chase(client, wild_die_one="complication")
    assert table.track()["settings"]["wild_die_one"] == "complication"

    assert skill_roll(table, [5, 3, 1])["complication"] is True
    # A 1 after a 6 is a reroll, not the first roll: no complication, just 1 more.
    later = skill_roll(table, [5, 3, 6, 1])
    assert later["complication"] is False and later["wild_die_one_rolled"] is False and later["total"] == 16


def test_only_the_gm_chooses_how_a_1_on_the_wild_die_counts(client):
    table = running_chase(client)
    player = table.player("Ann")
    ann, thief = f"/d6/participants/{table.ids['Ann']}/move", f"/d6/participants/{table.ids['Thief']}/move"

    # The player moves Ann with table dice, but may not choose the Wild Die's rule ...
    assert player.answer(ann, {"movement": "running", "rate": 20, "table_dice": [2, 2, 1], "wild_die_one": "no_effect"}).status_code == 403
    moved = player.answer(ann, {"movement": "running", "rate": 20, "table_dice": [2, 3, 2]})
    assert moved.status_code == 200 and moved.get_json()["rolls"][0]["source"]["entered_by"].startswith("player")
    # ... nor move someone else's participant.
    assert player.answer(thief, {"movement": "running", "rate": 20, "table_dice": [2, 3, 2]}).status_code == 403
