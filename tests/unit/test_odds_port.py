"""The exact-odds port: a roll's chances are exact fractions that add up to one."""
from fractions import Fraction

import pytest

from domain.odds import Odds


def test_a_coin_flip_succeeds_half_the_time_and_reads_as_exact_fractions() -> None:
    # Given a roll that succeeds on heads
    odds = Odds({"heads": Fraction(1, 2), "tails": Fraction(1, 2)}, frozenset({"heads"}))
    # Then its success chance is exactly one half, shown both ways to a front-end
    assert odds.success == Fraction(1, 2)
    assert odds.as_json() == {
        "outcomes": {"heads": {"p": 0.5, "exact": "1/2"}, "tails": {"p": 0.5, "exact": "1/2"}},
        "success": 0.5,
    }


def test_chances_that_do_not_add_up_to_one_are_refused() -> None:
    with pytest.raises(ValueError, match="sum to exactly 1"):
        Odds({"hit": Fraction(1, 3), "miss": Fraction(1, 3)}, frozenset({"hit"}))


def test_a_success_must_be_an_outcome_the_roll_can_have() -> None:
    with pytest.raises(ValueError, match="one of the roll's outcomes"):
        Odds({"hit": Fraction(1, 2), "miss": Fraction(1, 2)}, frozenset({"raise"}))


def test_a_recorded_roll_shows_the_outcome_it_had_among_its_odds() -> None:
    # Given the odds of a coin flip that came up heads
    odds = Odds({"heads": Fraction(1, 2), "tails": Fraction(1, 2)}, frozenset({"heads"})).had("heads")
    # Then the outcome it had is shown with the chances it had
    assert odds.observed == "heads"
    assert odds.as_json()["observed"] == "heads"
    # ... and an outcome the roll could not have is refused
    with pytest.raises(ValueError, match="one of its outcomes"):
        odds.had("edge")
