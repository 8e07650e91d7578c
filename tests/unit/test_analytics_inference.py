"""No false accusations: the tests behind analytics' verdicts against figures worked out by
enumerating every way the dice could have fallen."""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb, factorial

import pytest

from application.analytics import inference


def pearson(counts: list[int]) -> Fraction:
    n, k = sum(counts), len(counts)
    return sum((Fraction(c) - Fraction(n, k)) ** 2 / Fraction(n, k) for c in counts)


def enumerated_p(observed: list[int], faces: int) -> Fraction:
    """P(a fair die's rolls are at least as uneven as observed), over every sequence of faces.
    For n rolls of k faces Pearson's statistic is k/n times the sum of squared counts, minus n:
    the sum of squares orders the sequences the same way, in whole numbers."""
    n, threshold, hits = sum(observed), sum(c * c for c in observed), 0
    for rolled in product(range(faces), repeat=n):
        if sum(rolled.count(f) ** 2 for f in set(rolled)) >= threshold:
            hits += 1
    return Fraction(hits, faces ** n)


def test_three_d20_all_twenty_have_an_exact_tail_of_one_in_four_hundred():
    # A player enters three d20 results of 20. The old chi-square said p = 1.14e-5; only "all three
    # alike" is as uneven, and a fair d20 gives it 20 times in 8,000: 1/400.
    counts = [0] * 19 + [3]
    assert enumerated_p(counts, 20) == Fraction(1, 400)

    assert inference.exact_uniform_p(counts) == pytest.approx(1 / 400, rel=1e-12)
    # And three rolls of a twenty-sided die are too few to judge: no p-value, no verdict of unfairness.
    test = inference.uniform_test({20: 3}, list(range(1, 21)))
    assert (test["p_value"], test["verdict"], test["minimum_rolls"]) == (None, "too few rolls to judge", 40)


def test_four_d100_units_dice_all_seven_have_an_exact_tail_of_one_in_a_thousand():
    counts = [0, 0, 0, 0, 0, 0, 0, 4, 0, 0]
    assert enumerated_p(counts, 10) == Fraction(1, 1000)

    assert inference.exact_uniform_p(counts) == pytest.approx(1 / 1000, rel=1e-12)


def test_an_uneven_d6_over_twelve_rolls_matches_the_enumeration():
    # Twelve rolls of a d6 (the smallest sample judged: two a face), a 6 five times.
    counts = [1, 2, 1, 2, 1, 5]
    # Six to the twelfth sequences are too many to list: every sharing of the twelve rolls among
    # the six faces instead (6,188 of them), each weighted by how many sequences give it.
    total, threshold = Fraction(0), pearson(counts)
    for shares in compositions(12, 6):
        if pearson(shares) >= threshold:  # (Pearson's own statistic here, as a reader would compute it)
            ways = factorial(12)
            for c in shares:
                ways //= factorial(c)
            total += Fraction(ways, 6 ** 12)

    test = inference.uniform_test(dict(zip(range(1, 7), counts)), list(range(1, 7)))

    assert test["method"] == "exact multinomial"
    assert test["p_value"] == pytest.approx(float(total), rel=1e-9)


def compositions(n: int, k: int) -> list[list[int]]:
    if k == 1:
        return [[n]]
    return [[first, *rest] for first in range(n + 1) for rest in compositions(n - first, k - 1)]


def test_two_criticals_in_ten_skill_50_rolls_are_unusual_but_no_accusation():
    # Each roll at skill 50 is a critical on 01: 1 in 100. Two or more of ten, by enumeration over
    # how many criticals (binomial weights): 1 - 0.99^10 - 10 * 0.01 * 0.99^9 = 0.0043.
    p = Fraction(1, 100)
    at_least_two = sum(comb(10, k) * p ** k * (1 - p) ** (10 - k) for k in range(2, 11))
    assert round(float(at_least_two), 4) == 0.0043
    # The levels of ten skill-50 rolls: critical 1, extreme 9, hard 15, regular 25, failure 49, fumble 1 in 100.
    chances = {"critical": 0.01, "extreme": 0.09, "hard": 0.15, "regular": 0.25, "failure": 0.49, "fumble": 0.01}
    observed = {"critical": 2, "extreme": 0, "hard": 1, "regular": 2, "failure": 5, "fumble": 0}

    test = inference.levels_test({name: {c: 10} for name, c in chances.items()}, observed, rolls=10)

    assert test["levels"]["critical"]["p_at_least"] == pytest.approx(float(at_least_two), abs=1e-12)
    assert test["levels"]["critical"]["p_two_sided"] == pytest.approx(2 * float(at_least_two), abs=1e-12)
    # The levels together: six levels, the smallest two-sided p times six, 0.051: nothing to see.
    assert test["p_value"] == pytest.approx(min(1.0, 6 * 2 * float(at_least_two)), abs=1e-12)
    assert test["p_value"] > inference.ERROR_RATE


def test_a_level_the_rolls_could_not_have_is_flagged_whatever_the_count():
    # A fumble at skill 50 needs a 100; seen once among rolls that could not fumble at all.
    test = inference.levels_test({"fumble": {0.0: 10}, "failure": {1.0: 10}}, {"fumble": 1, "failure": 9}, rolls=10)
    assert test["levels"]["fumble"]["p_at_least"] == 0.0 and test["p_value"] == 0.0


def test_between_exact_and_asymptotic_the_p_value_is_simulated_with_its_error():
    # 46 rolls of a d20 (2.3 expected a face): too many to enumerate, too few for the chi-square.
    counts = {face: (8 if face == 20 else 2) for face in range(1, 21)}  # 19 x 2 + 8 = 46 rolls

    test = inference.uniform_test(counts, list(range(1, 21)))

    assert test["rolls"] == 46 and test["method"].startswith("Monte Carlo")
    assert test["simulation_error"] == pytest.approx((test["p_value"] * (1 - test["p_value"]) / inference.SIMULATIONS) ** 0.5)
    assert inference.uniform_test(counts, list(range(1, 21)))["p_value"] == test["p_value"]  # the same rolls, the same report


def test_many_rolls_use_the_chi_square_whose_reference_distribution_then_holds():
    counts = {face: 50 for face in range(1, 7)}
    counts[6] = 80
    test = inference.uniform_test(counts, list(range(1, 7)))
    # Pearson: 5 faces at 50 against 55 and one at 80: (5 * 25 + 625) / 55 = 13.64 on 5 degrees of freedom.
    assert test["method"] == "chi-square"
    assert test["chi_square"] == pytest.approx(750 / 55)
    assert test["p_value"] == pytest.approx(0.01808, abs=1e-4)


def test_holm_adjusts_a_family_by_hand():
    # Three tests at 0.01, 0.04, 0.03: sorted 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06 (monotone).
    family = [{"p_value": 0.01}, {"p_value": 0.04}, {"p_value": 0.03}]

    inference.holm(family, error_rate=0.05)

    assert [f["p_adjusted"] for f in family] == pytest.approx([0.03, 0.06, 0.06])
    assert [f["suspect"] for f in family] == [True, False, False]


def test_both_tails_and_the_range_fair_dice_give():
    # Ten rolls at 50%: P(X <= 2) = 56/1024, P(X >= 2) = 1013/1024; 95% of counts lie in 2..8.
    tails = inference.tails({0.5: 10}, 2)
    assert tails["p_at_most"] == pytest.approx(56 / 1024)
    assert tails["p_at_least"] == pytest.approx(1013 / 1024)
    assert tails["p_two_sided"] == pytest.approx(112 / 1024)
    assert tails["expected_range"] == [2, 8]
