"""The full distribution of a dice expression, checked against every way its dice can fall."""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from domain.dice import TableDice, parse
from domain.dice.odds import MAX_TOTALS, expression_odds, total_chances


def enumerate_totals(text: str) -> dict[int, Fraction]:
    """Roll the expression with every combination of faces, as table dice, and count totals."""
    expression = parse(text)
    dice = expression.dice()
    counts: Counter[int] = Counter()
    for faces in itertools.product(*[list(d.faces()) for d in dice]):
        counts[expression.roll(TableDice(list(faces)), 1)["total"]] += 1
    every = sum(counts.values())
    return {total: Fraction(n, every) for total, n in sorted(counts.items())}


@pytest.mark.parametrize(
    "text", ["1D3", "1D6", "2D6", "1D3-1", "1D4+2", "1D10+1D4+2", "3D4", "1D8-1D4", "2D6-1D3+1", "1D4+1D4", "1D100", "2"]
)
def test_each_total_is_exactly_as_often_as_the_dice_give_it(text: str) -> None:
    # Given every way the expression's dice can fall
    expected = enumerate_totals(text) if parse(text).terms else {2: Fraction(1)}
    # Then the distribution gives each total exactly that chance, and nothing else
    assert total_chances(parse(text)) == expected


def test_two_six_sided_dice_make_seven_one_time_in_six() -> None:
    chances = total_chances(parse("2D6"))
    assert chances is not None
    assert chances[7] == Fraction(1, 6)
    assert chances[2] == chances[12] == Fraction(1, 36)


def test_the_odds_name_each_total_as_the_roll_record_writes_it_and_count_no_success() -> None:
    # Given a damage roll of 1D4+DB with a +1D4 damage bonus, as recorded (DB read already)
    record = parse("1D4+DB", "+1D4").roll(TableDice([2, 3]), 5)
    odds = expression_odds(record["expression"])
    # Then its odds name totals 2..8, the recorded 5 among them, and an amount is no success
    assert odds is not None
    assert list(odds.outcomes) == [str(t) for t in range(2, 9)]
    assert odds.outcomes[str(record["total"])] == Fraction(4, 16)
    assert odds.successes == frozenset()


def test_an_expression_with_too_many_totals_to_list_has_no_odds() -> None:
    # 100D1000 has 99,901 totals; listing them is no use to anyone
    assert parse("100D1000").maximum() - parse("100D1000").minimum() + 1 > MAX_TOTALS
    assert expression_odds("100D1000") is None
    # ... while 100D10 (901 totals) is listed, and is exact
    odds = expression_odds("100D10")
    assert odds is not None and odds.outcomes["100"] == Fraction(1, 10**100)


def test_text_that_is_not_an_expression_has_no_odds() -> None:
    assert expression_odds("1D4+DB") is None  # DB unread: the record always holds it read
    assert expression_odds("fireball") is None
