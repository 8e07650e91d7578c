"""Call of Cthulhu 7e percentile rolls, forced with table dice.

Faces are entered tens dice first, then the units die: [30, 4] reads 34, [0, 0] reads 100.
"""
from __future__ import annotations

import pytest

from domain.dice import TENS, UNITS, InvalidTableDice, TableDice
from domain.rules.coc7e import percentile
from domain.rules.coc7e.percentile import (
    InvalidPercentileRoll,
    dice_for,
    dodge_winner,
    fight_back_winner,
    level_of,
    meets,
    net_dice,
)


def faces_for(result: int) -> list[int]:
    """The tens and units faces that read as ``result`` (1..100)."""
    tens, units = divmod(result % 100, 10)
    return [tens * 10, units]


def roll(target: int, faces: list[int], **options) -> dict:
    return percentile.roll(TableDice(faces), 3, target, **options)


# --- levels of success -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "result, level",
    [
        (1, "critical"),
        (2, "extreme"),
        (10, "extreme"),  # 1/5 of 50
        (11, "hard"),
        (25, "hard"),  # 1/2 of 50
        (26, "regular"),
        (50, "regular"),  # the skill itself
        (51, "failure"),
        (95, "failure"),
        (96, "failure"),  # skill 50 or more: 96..99 are plain failures
        (99, "failure"),
        (100, "fumble"),
    ],
)
def test_levels_of_success_against_skill_50(result, level):
    assert level_of(result, 50) == level
    # The same through a real roll of table dice.
    assert roll(50, faces_for(result))["level"] == level


@pytest.mark.parametrize(
    "result, level",
    [
        (1, "critical"),
        (9, "extreme"),  # 49 // 5
        (10, "hard"),
        (24, "hard"),  # 49 // 2
        (25, "regular"),
        (49, "regular"),
        (50, "failure"),
        (95, "failure"),
        (96, "fumble"),  # skill under 50: 96..100 are fumbles
        (97, "fumble"),
        (99, "fumble"),
        (100, "fumble"),
    ],
)
def test_levels_of_success_against_skill_49(result, level):
    assert level_of(result, 49) == level


@pytest.mark.parametrize("result", [96, 97, 98, 99, 100])
def test_the_fumble_range_widens_below_skill_50(result):
    assert level_of(result, 49) == "fumble"
    assert level_of(result, 50) == ("fumble" if result == 100 else "failure")


def test_01_is_a_critical_even_for_a_tiny_skill_and_100_a_fumble_even_for_a_huge_one():
    assert level_of(1, 3) == "critical"
    assert level_of(1, 1) == "critical"
    assert level_of(100, 120) == "fumble"
    # Skill 120: 99 is above half (60) so only regular; 24 is a fifth of 120, extreme.
    assert level_of(99, 120) == "regular"
    assert level_of(24, 120) == "extreme"


def test_a_skill_of_99_succeeds_on_99_and_fumbles_only_on_100():
    assert level_of(99, 99) == "regular"
    assert level_of(100, 99) == "fumble"


# --- difficulty ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "level, regular, hard, extreme, critical",
    [
        ("fumble", False, False, False, False),
        ("failure", False, False, False, False),
        ("regular", True, False, False, False),
        ("hard", True, True, False, False),
        ("extreme", True, True, True, False),
        ("critical", True, True, True, True),
    ],
)
def test_a_level_meets_every_difficulty_up_to_its_own(level, regular, hard, extreme, critical):
    assert [meets(level, d) for d in ("regular", "hard", "extreme", "critical")] == [
        regular,
        hard,
        extreme,
        critical,
    ]


def test_a_hard_roll_needs_half_the_skill():
    # Skill 60: 30 is a hard success, 31 only regular.
    assert roll(60, [30, 0], difficulty="hard")["success"] is True
    assert roll(60, [30, 1], difficulty="hard")["success"] is False
    assert roll(60, [30, 1])["success"] is True


def test_an_unknown_difficulty_or_impossible_target_is_refused():
    with pytest.raises(InvalidPercentileRoll, match="difficulty"):
        roll(50, [10, 0], difficulty="heroic")
    with pytest.raises(InvalidPercentileRoll, match="target"):
        roll(-1, [10, 0])
    with pytest.raises(InvalidPercentileRoll, match="target"):
        roll(True, [10, 0])


# --- the faces of a d100 ---------------------------------------------------------------------


def test_tens_and_units_are_recorded_separately():
    record = roll(50, [30, 4])

    assert record["tens"] == [{"face": 30, "kept": True}]
    assert record["units"] == 4
    assert record["result"] == 34
    assert record["source"] == {"kind": "table", "entered_by": "keeper", "sequence": 3}


def test_00_with_0_reads_100_but_00_with_a_units_face_reads_that_face():
    assert roll(50, [0, 0])["result"] == 100
    assert roll(50, [0, 1])["result"] == 1
    assert roll(50, [0, 1])["level"] == "critical"
    assert roll(50, [90, 0])["result"] == 90


# --- bonus and penalty dice ------------------------------------------------------------------


def test_a_bonus_die_keeps_the_lower_tens_die():
    # Skill 40: 70 would fail, but the bonus die shows 20, so 24 is kept.
    record = roll(40, [70, 20, 4], bonus=1)

    assert record["tens"] == [{"face": 70, "kept": False}, {"face": 20, "kept": True}]
    assert record["units"] == 4
    assert record["result"] == 24
    assert record["level"] == "regular"
    assert record["success"] is True
    assert record["bonus_dice"] == 1


def test_a_penalty_die_keeps_the_higher_tens_die():
    # Skill 40: 24 would succeed, but the penalty die shows 70, so 74 is kept.
    record = roll(40, [20, 70, 4], penalty=1)

    assert [t["kept"] for t in record["tens"]] == [False, True]
    assert record["result"] == 74
    assert record["success"] is False


def test_with_a_units_0_the_00_tens_die_is_100_the_worst_not_the_best():
    # Bonus: 00+0 = 100 is higher than 10+0 = 10, so 10 is kept.
    bonus = roll(50, [0, 10, 0], bonus=1)
    assert bonus["result"] == 10
    assert [t["kept"] for t in bonus["tens"]] == [False, True]
    # Penalty: 100 is kept, a fumble.
    penalty = roll(50, [0, 10, 0], penalty=1)
    assert penalty["result"] == 100
    assert penalty["level"] == "fumble"


def test_two_bonus_dice_keep_the_lowest_of_three():
    record = roll(50, [80, 50, 60, 5], bonus=2)
    assert record["result"] == 55
    assert [t["kept"] for t in record["tens"]] == [False, True, False]


def test_two_penalty_dice_keep_the_highest_of_three():
    record = roll(50, [10, 90, 60, 5], penalty=2)
    assert record["result"] == 95
    assert [t["kept"] for t in record["tens"]] == [False, True, False]


@pytest.mark.parametrize(
    "bonus, penalty, net, tens_dice",
    [
        (0, 0, 0, 1),
        (1, 0, 1, 2),
        (0, 1, -1, 2),
        (2, 0, 2, 3),
        (0, 2, -2, 3),
        (1, 1, 0, 1),  # they cancel one for one
        (2, 1, 1, 2),
        (1, 3, -2, 3),
        (3, 0, 2, 3),  # at most two net
        (5, 0, 2, 3),
        (0, 4, -2, 3),
        (4, 1, 2, 3),
    ],
)
def test_bonus_and_penalty_dice_cancel_and_at_most_two_remain(bonus, penalty, net, tens_dice):
    assert net_dice(bonus, penalty) == net
    dice = dice_for(bonus, penalty)
    # The roll asks for one tens die per net bonus or penalty die more, then the units die.
    assert dice == [TENS] * tens_dice + [UNITS]


def test_a_cancelled_bonus_and_penalty_roll_takes_a_single_tens_die():
    record = roll(50, [30, 4], bonus=1, penalty=1)
    assert record["result"] == 34
    assert len(record["tens"]) == 1
    # Entering a second tens die for it is refused.
    with pytest.raises(InvalidTableDice, match="2 dice"):
        roll(50, [30, 10, 4], bonus=1, penalty=1)


@pytest.mark.parametrize("bonus, penalty", [(-1, 0), (0, -1), (1.0, 0), (True, 0), (0, "1")])
def test_bonus_and_penalty_dice_must_be_whole_numbers_0_or_more(bonus, penalty):
    with pytest.raises(InvalidPercentileRoll):
        net_dice(bonus, penalty)


# --- opposed rolls and fighting --------------------------------------------------------------


def test_opposed_rolls_compare_levels_of_success():
    assert percentile.compare("hard", "regular") == 1
    assert percentile.compare("regular", "extreme") == -1
    assert percentile.compare("regular", "regular") == 0
    assert percentile.compare("failure", "fumble") == 1
    assert percentile.compare("critical", "extreme") == 1


@pytest.mark.parametrize(
    "attacker, defender, winner",
    [
        ("hard", "regular", "attacker"),  # higher level: attacker deals damage
        ("regular", "hard", "defender"),  # defender blocks and lands a blow
        ("regular", "regular", "attacker"),  # a draw: the attacker wins
        ("critical", "critical", "attacker"),
        ("extreme", "critical", "defender"),
        ("regular", "failure", "attacker"),
        ("failure", "regular", "defender"),
        ("fumble", "regular", "defender"),
        ("failure", "failure", None),  # both fail: no damage
        ("fumble", "failure", None),
        ("failure", "fumble", None),
    ],
)
def test_fight_back_attacker_wins_ties(attacker, defender, winner):
    """coc7e-combat.txt: "In the case of a draw, the attacker wins (when their opponent is fighting back)"."""
    assert fight_back_winner(attacker, defender) == winner


@pytest.mark.parametrize(
    "attacker, defender, winner",
    [
        ("hard", "regular", "attacker"),  # higher level: the attack lands
        ("regular", "hard", "defender"),  # dodged
        ("regular", "regular", "defender"),  # a draw: the dodger wins
        ("extreme", "extreme", "defender"),
        ("critical", "extreme", "attacker"),
        ("regular", "failure", "attacker"),
        ("failure", "regular", "defender"),
        ("failure", "failure", None),  # both fail: no damage
        ("fumble", "fumble", None),
    ],
)
def test_dodge_defender_wins_ties(attacker, defender, winner):
    """coc7e-combat.txt: "In the case of a draw, the defender wins (when the defender is dodging)"."""
    assert dodge_winner(attacker, defender) == winner


def test_a_fist_fight_from_table_dice_to_the_winner():
    # Attacker, Fighting 60, rolls 28: hard. Defender, Fighting 50, rolls 25: hard too.
    attack = roll(60, [20, 8])
    defence = roll(50, [20, 5])
    assert (attack["level"], defence["level"]) == ("hard", "hard")
    # Fighting back, the attacker wins the draw; dodging, the defender would have.
    assert fight_back_winner(attack["level"], defence["level"]) == "attacker"
    assert dodge_winner(attack["level"], defence["level"]) == "defender"


# --- validating table dice for a percentile roll ---------------------------------------------


@pytest.mark.parametrize(
    "faces, options, message",
    [
        ([30], {}, "2 dice"),  # too few
        ([30, 4, 5], {}, "2 dice"),  # too many
        ([30, 4], {"bonus": 1}, "3 dice"),  # the bonus die is missing
        ([30, 20, 10, 4], {"penalty": 1}, "3 dice"),
        ([35, 4], {}, "d100 tens"),  # a tens face is a multiple of 10
        ([100, 4], {}, "d100 tens"),
        ([-10, 4], {}, "d100 tens"),
        ([30, 10], {}, "d100 units"),  # a units face is 0..9
        ([30, -1], {}, "d100 units"),
        ([True, 4], {}, "d100 tens"),  # booleans are not faces
        ([30, False], {}, "d100 units"),
        (["30", 4], {}, "d100 tens"),  # nor are strings
        ([30, "4"], {}, "d100 units"),
        ([30.0, 4], {}, "d100 tens"),
    ],
)
def test_table_dice_that_do_not_fit_the_roll_are_refused(faces, options, message):
    with pytest.raises(InvalidTableDice, match=message) as refused:
        roll(50, faces, **options)
    # The message says what would have been right.
    assert "00, 10, ..., 90" in str(refused.value) or "0..9" in str(refused.value) or "entered" in str(
        refused.value
    )


def test_the_message_names_the_position_of_the_bad_face():
    with pytest.raises(InvalidTableDice, match="position 1"):
        roll(50, [30, 25, 4], bonus=1)
