"""The statistics of analytics against what a Keeper can work out by hand."""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

import pytest

from application.analytics import inference, play, rolls, stats
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


def luck_of(chances: list[float], successes: int) -> dict:
    tally = rolls.Tally()
    for i, p in enumerate(chances):
        tally.add({"undone": False, "data": {"source": "server", "p": p, "success": i < successes, "outcome": None, "outcomes": {}}})
    return tally.luck()


def test_luck_of_two_rolls_by_hand_in_both_tails():
    # A 50% roll and a 25% roll; one succeeded. Expected 0.75; P(0 or 1 success) = 1 - 1/8;
    # P(1 or 2) = 1 - P(none) = 1 - 0.5 * 0.75 = 5/8; two-sided: twice the smaller tail, 1.
    luck = luck_of([0.5, 0.25], 1)

    assert luck["expected"] == 0.75
    assert luck["z_score"] == pytest.approx(0.25 / (0.25 + 0.1875) ** 0.5)
    assert luck["p_this_well_or_worse"] == pytest.approx(7 / 8)
    assert luck["p_this_well_or_better"] == pytest.approx(5 / 8)
    assert luck["p_two_sided"] == 1.0
    assert luck["verdict"] == "too few rolls to judge"


def test_the_z_score_is_an_approximation_the_exact_tail_corrects():
    # Twenty rolls at 50%, six successes: z = (6 - 10) / sqrt(5) = -1.79, whose normal tail is 0.037;
    # the exact binomial tail is the sum of C(20, k) for k <= 6 over 2^20 = 60,460 / 1,048,576 = 0.0577.
    luck = luck_of([0.5] * 20, 6)

    assert luck["z_score"] == pytest.approx(-4 / 5 ** 0.5)
    exact = Fraction(sum(comb(20, k) for k in range(7)), 2 ** 20)
    assert exact == Fraction(60460, 2 ** 20)
    assert luck["p_this_well_or_worse"] == pytest.approx(float(exact), abs=1e-12)
    assert luck["p_two_sided"] == pytest.approx(2 * float(exact), abs=1e-12)
    assert "verdict" not in luck  # twenty rolls are enough: the verdict is the report's, after adjustment


def test_streaks_are_read_in_order():
    assert stats.longest_streaks([True, True, False, True, False, False, False]) == {"successes": 2, "failures": 3}
    assert stats.longest_streaks([]) == {"successes": 0, "failures": 0}


def test_the_expected_longest_run_is_the_mean_over_every_way_the_rolls_fall():
    # Four rolls at 30%, 50%, 60%, 90%: the longest runs of each of the 16 ways, weighted by their chance.
    chances = [Fraction(3, 10), Fraction(1, 2), Fraction(3, 5), Fraction(9, 10)]
    by_hand = {True: Fraction(0), False: Fraction(0)}
    for fell in product((True, False), repeat=4):
        weight = Fraction(1)
        for p, success in zip(chances, fell):
            weight *= p if success else 1 - p
        longest = stats.longest_streaks(fell)
        by_hand[True] += weight * longest["successes"]
        by_hand[False] += weight * longest["failures"]

    expected = inference.expected_longest_runs([float(p) for p in chances])

    assert expected["successes"] == pytest.approx(float(by_hand[True]), abs=1e-12)
    assert expected["failures"] == pytest.approx(float(by_hand[False]), abs=1e-12)


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
