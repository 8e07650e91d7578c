"""Dice expressions as the rules write them, rolled with table dice so every outcome is forced.

A Keeper types "1D3+DB" or "1D10+1D4+2"; the engine must read it, ask for exactly the right
dice, add them up, and keep every face in the record.
"""
from __future__ import annotations

import pytest

from domain.dice import InvalidDiceExpression, InvalidTableDice, TableDice, parse


def roll(text: str, faces: list[int], damage_bonus: str | None = None, sequence: int = 7) -> dict:
    return parse(text, damage_bonus).roll(TableDice(faces, entered_by="keeper"), sequence)


# --- reading and rolling the expressions the rules use -------------------------------------


@pytest.mark.parametrize(
    "text, faces, total, minimum, maximum",
    [
        ("1D3", [2], 2, 1, 3),
        ("1D6", [6], 6, 1, 6),
        ("1D10", [1], 1, 1, 10),
        ("2D10", [3, 9], 12, 2, 20),
        ("5D10", [1, 2, 3, 4, 10], 20, 5, 50),
        ("1D3-1", [2], 1, 0, 2),
        ("1D4+2", [4], 6, 3, 6),
        ("1D10+1D4+2", [7, 3], 12, 4, 16),
    ],
)
def test_rules_expressions_roll_to_the_sum_of_their_faces(text, faces, total, minimum, maximum):
    expression = parse(text)
    assert expression.text == text
    assert (expression.minimum(), expression.maximum()) == (minimum, maximum)

    record = roll(text, faces)

    assert record["total"] == total
    assert record["expression"] == text


def test_one_d3_minus_one_can_do_no_damage():
    # A 1 on the d3 minus 1 is zero, not an error and not negative.
    assert roll("1D3-1", [1])["total"] == 0
    assert roll("1D3-1", [3])["total"] == 2


def test_lowercase_and_spaces_read_the_same_as_the_rules_text():
    assert parse(" 1d10 + 1d4 + 2 ").text == "1D10+1D4+2"
    assert roll("1d10 + 1d4 + 2", [10, 4])["total"] == 16


def test_the_record_keeps_every_face_die_by_die_and_how_it_was_rolled():
    record = roll("1D10+1D4+2", [7, 3], sequence=12)

    # Each die is named and keeps its own face, in the order rolled.
    assert record["dice"] == [{"die": "d10", "face": 7}, {"die": "d4", "face": 3}]
    assert record["modifier"] == 2
    # Provenance: table dice, who entered them, and the roll's sequence number.
    assert record["source"] == {"kind": "table", "entered_by": "keeper", "sequence": 12}


def test_five_d10_records_all_five_faces_even_when_they_repeat():
    record = roll("5D10", [10, 10, 1, 10, 1])
    assert [d["face"] for d in record["dice"]] == [10, 10, 1, 10, 1]
    assert all(d["die"] == "d10" for d in record["dice"])
    assert record["total"] == 32


def test_the_expression_asks_for_exactly_its_dice():
    dice = parse("2D10+1D4-1").dice()
    assert [d.label for d in dice] == ["d10", "d10", "d4"]


def test_every_face_from_minimum_to_maximum_is_reachable_for_1d10_plus_1d4_plus_2():
    expression = parse("1D10+1D4+2")
    totals = {expression.total([a, b]) for a in range(1, 11) for b in range(1, 5)}
    assert totals == set(range(expression.minimum(), expression.maximum() + 1))


def test_a_subtracted_die_counts_against_the_total_and_the_bounds():
    expression = parse("1D6-1D4")
    assert (expression.minimum(), expression.maximum()) == (-3, 5)
    assert roll("1D6-1D4", [2, 4])["total"] == -2


# --- DB: the roller's damage bonus -----------------------------------------------------------


@pytest.mark.parametrize(
    "damage_bonus, resolved, faces, total, minimum, maximum",
    [
        ("+1D4", "1D3+1D4", [3, 4], 7, 2, 7),
        ("1D4", "1D3+1D4", [1, 1], 2, 2, 7),  # a bonus written without its sign is added
        ("+1D6", "1D3+1D6", [2, 6], 8, 2, 9),
        ("-1", "1D3-1", [1], 0, 0, 2),
        ("-2", "1D3-2", [3], 1, -1, 1),
        ("0", "1D3", [2], 2, 1, 3),
        ("", "1D3", [3], 3, 1, 3),
    ],
)
def test_db_is_replaced_by_the_rollers_damage_bonus(damage_bonus, resolved, faces, total, minimum, maximum):
    expression = parse("1D3+DB", damage_bonus)
    assert expression.text == resolved
    assert (expression.minimum(), expression.maximum()) == (minimum, maximum)

    record = roll("1D3+DB", faces, damage_bonus)

    assert record["total"] == total
    # The damage bonus dice are real dice in the record, not hidden in a number.
    assert len(record["dice"]) == len(faces)


def test_db_is_read_whatever_its_case():
    # "+Db" and "+db" are the same damage bonus as "+DB".
    assert parse("1D3+Db", "+1D4").text == "1D3+1D4"
    assert parse("1d3 + db", "-1").text == "1D3-1"


def test_a_db_bonus_of_1d4_asks_for_the_d4_as_well():
    with pytest.raises(InvalidTableDice, match="2 dice"):
        roll("1D3+DB", [2], "+1D4")


# --- expressions that cannot be read ---------------------------------------------------------


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "required"),
        ("   ", "required"),
        ("2D", "cannot read"),
        ("1D1", "2 to 1000 sides"),
        ("1D0", "2 to 1000 sides"),
        ("D", "cannot read"),
        ("1D6+", "cannot read"),
        ("abc", "cannot read"),
        ("1D6 2", "missing \\+ or -"),
        ("101D6", "at most 100"),
        ("60D6+41D6", "at most 100"),
        ("0D6", "0 dice"),
        ("1D3+DB", "no damage bonus"),
    ],
)
def test_bad_expressions_are_refused_with_a_message(text, message):
    with pytest.raises(InvalidDiceExpression, match=message) as refused:
        parse(text)
    assert str(refused.value)


def test_one_hundred_dice_is_the_most_one_expression_may_roll():
    assert len(parse("100D6").dice()) == 100


def test_db_can_only_be_added():
    with pytest.raises(InvalidDiceExpression, match=r"\+DB"):
        parse("1D3-DB", "+1D4")


def test_an_invalid_expression_is_a_value_error_for_callers_that_map_errors():
    with pytest.raises(ValueError):
        parse("1D6+")


def test_table_faces_out_of_range_for_the_expression_are_refused():
    # A 4 cannot be shown on a d3.
    with pytest.raises(InvalidTableDice, match="d3"):
        roll("1D3", [4])
