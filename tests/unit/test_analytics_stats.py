"""The statistics of analytics against what a Keeper can work out by hand."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from application.analytics import play, stats
from application.analytics.facts import ROUND_BEGAN, ROUND_ENDED, TURN_ENDED


def exact_distribution(chances: list[Fraction]) -> list[Fraction]:
    """P(k successes) by going through every way the rolls could fall."""
    dist = [Fraction(0)] * (len(chances) + 1)
    for fell in product((True, False), repeat=len(chances)):
        weight = Fraction(1)
        for p, success in zip(chances, fell):
            weight *= p if success else 1 - p
        dist[sum(fell)] += weight
    return dist


def test_the_poisson_binomial_is_the_distribution_of_every_way_the_rolls_fall():
    # Ten rolls at skills from 5 to 95, some at the same skill.
    chances = [Fraction(n, 100) for n in (5, 30, 30, 50, 55, 60, 60, 60, 80, 95)]

    pmf = stats.poisson_binomial([float(p) for p in chances])

    assert [float(p) for p in exact_distribution(chances)] == pytest.approx(list(pmf), abs=1e-14)


def test_a_hundred_thousand_rolls_keep_their_mean_and_spread():
    # 100,000 rolls at 99 different chances: the distribution's mean and variance are the sums.
    chances = [(i % 99 + 1) / 100 for i in range(100_000)]
    pmf = stats.poisson_binomial(chances)
    k = range(len(pmf))

    mean = sum(i * p for i, p in zip(k, pmf))
    assert pmf.sum() == pytest.approx(1.0)
    assert mean == pytest.approx(sum(chances), rel=1e-9)
    assert sum((i - mean) ** 2 * p for i, p in zip(k, pmf)) == pytest.approx(sum(p * (1 - p) for p in chances), rel=1e-6)


def test_luck_of_two_rolls_by_hand():
    # A 50% roll and a 25% roll; one succeeded. Expected 0.75; P(0 or 1 success) = 1 - 1/8.
    luck = stats.luck([0.5, 0.25], 1)

    assert luck["expected"] == 0.75
    assert luck["z_score"] == pytest.approx(0.25 / (0.25 + 0.1875) ** 0.5)
    assert luck["p_this_well_or_worse"] == pytest.approx(7 / 8)
    # The same rolls given as chance -> count.
    assert stats.luck({0.5: 1, 0.25: 1}, 1) == luck


def test_streaks_are_read_in_order():
    assert stats.longest_streaks([True, True, False, True, False, False, False]) == {"successes": 2, "failures": 3}
    assert stats.longest_streaks([]) == {"successes": 0, "failures": 0}


def test_an_outcome_expected_never_to_happen_but_seen_is_suspect():
    assert stats.chi_square([1, 9], [0.0, 10.0])["p_value"] == 0.0
    assert stats.chi_square([5, 5], [5.0, 5.0]) == {"chi_square": 0.0, "degrees_of_freedom": 1, "p_value": 1.0, "suspect": False}


def fact(kind: str, at: str, name: str | None = None, amount: float = 1, participant: str | None = None, undone: bool = False) -> dict:
    data = {"name": name, "amount": amount, "by_roll": None} if kind == "count" else {"outcome": "escaped"}
    return {"chase_id": "c", "version": 0, "index": 0, "action": 0, "kind": kind, "participant_id": participant,
            "at": f"2026-11-23T20:{at}+00:00", "undone": undone, "undone_by": None, "data": data}


def test_rounds_and_turns_take_the_time_between_their_marks():
    # Round 1 begins at 20:00:00; Harvey's turn ends 30 s later, the farmer's 45 s after that;
    # the round ends at 01:30. Round 2 begins at 02:00; an undone turn is left out; the chase ends at 03:00.
    facts = [
        fact("count", "00:00", ROUND_BEGAN, 1), fact("count", "00:30", TURN_ENDED, participant="harvey"),
        fact("count", "01:15", TURN_ENDED, participant="farmer"), fact("count", "01:30", ROUND_ENDED, 1),
        fact("count", "02:00", ROUND_BEGAN, 2), fact("count", "02:20", TURN_ENDED, participant="harvey", undone=True),
        fact("count", "02:40", TURN_ENDED, participant="harvey"), fact("ended", "03:00"),
    ]

    clock = play.clock(facts)

    assert clock["rounds"] == 2
    assert [r["seconds"] for r in clock["round_seconds"]] == [90.0, 60.0]
    assert clock["turns"]["harvey"]["seconds"] == [30.0, 40.0]
    assert clock["turns"]["farmer"]["seconds"] == [45.0]
