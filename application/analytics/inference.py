"""Tests a statistician would sign: exact where the samples are small, two-sided, against each
roll's own odds, with the report's tests adjusted together (Holm) so that fair dice are flagged in
at most ``ERROR_RATE`` of reports.

- A die against uniform: the exact multinomial test for up to ``EXACT_UP_TO`` rolls (every way
  the rolls could have fallen, ordered by Pearson's statistic), a Monte Carlo one (with its
  simulation error) while some face is expected fewer than ``ASYMPTOTIC_FROM`` times, and
  Pearson's chi-square only beyond, where its reference distribution holds.
- A count of successes (or of one level of success) over rolls with different chances: both exact
  tails of its Poisson-binomial, and the two-sided p-value (twice the smaller tail).
- No verdict below ``MIN_ROLLS_PER_FACE`` rolls a face of a die, or ``MIN_ROLLS_WITH_ODDS`` rolls
  with known odds: "too few rolls to judge".
"""
from __future__ import annotations

import math
import zlib
from typing import Iterator, Mapping, MutableMapping, Sequence

import numpy as np
from scipy import stats as scipy_stats

from application.analytics.stats import poisson_binomial

ERROR_RATE = 0.01  # the family-wise error of one report: fair dice are flagged in at most 1 report in 100
MIN_ROLLS_PER_FACE = 2  # a die is judged from twice as many rolls as it has faces (12 for a d6, 40 for a d20)
MIN_ROLLS_WITH_ODDS = 10  # luck and levels of success are judged from 10 rolls with known odds
EXACT_UP_TO = 20  # rolls of one die tested by enumeration (at most 627 ways the faces can be shared)
ASYMPTOTIC_FROM = 5.0  # rolls expected per face from which Pearson's chi-square is used (Cochran's rule)
SIMULATIONS = 10_000  # Monte Carlo draws between the two: a p-value near 0.01 has a simulation error of 0.001
TOO_FEW = "too few rolls to judge"
SUSPECT = "suspect: unlikely with fair dice"
NO_SIGN = "no sign of unfair dice"
HOLM = "Holm"
RUNS_EXACT_UP_TO = 200  # rolls of one character in one chase whose expected longest run is worked out


def partitions(n: int, parts: int, largest: int | None = None) -> Iterator[list[int]]:
    """Every way of writing n as at most ``parts`` counts, largest first (faces are unordered)."""
    largest = n if largest is None else largest
    if n == 0:
        yield []
        return
    if parts == 0:
        return
    for first in range(min(n, largest), 0, -1):
        for rest in partitions(n - first, parts - 1, first):
            yield [first, *rest]


def exact_uniform_p(counts: Sequence[int]) -> float:
    """P(a fair die shows its faces at least as unevenly as ``counts``), by enumeration: the sum,
    over every sharing of the n rolls among the k faces, of its multinomial probability, for
    those whose sum of squared counts (Pearson's statistic for fixed n and k) is at least the
    observed one. Three d20 all 20: only "all three alike" is as uneven, 20 / 20^3 = 1/400."""
    n, k = sum(counts), len(counts)
    observed = sum(c * c for c in counts)
    log_total = math.lgamma(n + 1) - n * math.log(k) + math.lgamma(k + 1)
    p = 0.0
    for shares in partitions(n, k):
        if sum(c * c for c in shares) < observed:
            continue
        multiplicity = [shares.count(v) for v in set(shares)] + [k - len(shares)]
        # ways: n! / prod(c!) orderings of rolls, times k! / prod(multiplicity!) faces to give the counts
        log_ways = log_total - sum(math.lgamma(c + 1) for c in shares) - sum(math.lgamma(m + 1) for m in multiplicity)
        p += math.exp(log_ways)
    return min(1.0, p)


def simulated_uniform_p(counts: Sequence[int], simulations: int = SIMULATIONS) -> tuple[float, float]:
    """The Monte Carlo p-value (b + 1) / (N + 1) of Pearson's statistic, and its simulation error.
    Seeded by the counts themselves: the same rolls always give the same report."""
    n, k = sum(counts), len(counts)
    rng = np.random.default_rng(zlib.crc32(repr(list(counts)).encode()))
    draws = rng.multinomial(n, [1.0 / k] * k, size=simulations)
    as_uneven = int(np.count_nonzero((draws.astype(np.int64) ** 2).sum(axis=1) >= sum(c * c for c in counts)))
    p = (as_uneven + 1) / (simulations + 1)
    return p, math.sqrt(p * (1 - p) / simulations)


def uniform_test(faces: Mapping[int, int], all_faces: Sequence[int]) -> dict[str, object]:
    """A die's face counts against uniform: the test its sample size allows, and no verdict below
    ``MIN_ROLLS_PER_FACE`` rolls a face."""
    counts = [int(faces.get(face, 0)) for face in all_faces]
    n, k = sum(counts), len(all_faces)
    shown: dict[str, object] = {"rolls": n, "faces": {str(face): c for face, c in zip(all_faces, counts)},
                                "expected_per_face": n / k if k else None, "minimum_rolls": MIN_ROLLS_PER_FACE * k,
                                "degrees_of_freedom": max(k - 1, 0)}
    impossible = sum(int(c) for face, c in faces.items() if face not in all_faces)
    if impossible:  # a face the die does not have: unfair whatever the count
        return {**shown, "method": "impossible face", "chi_square": None, "p_value": 0.0, "simulation_error": None}
    statistic = sum((c - n / k) ** 2 / (n / k) for c in counts) if n and k else None
    if n < MIN_ROLLS_PER_FACE * k or k < 2:
        return {**shown, "method": None, "chi_square": statistic, "p_value": None, "simulation_error": None, "verdict": TOO_FEW}
    if n <= EXACT_UP_TO:
        return {**shown, "method": "exact multinomial", "chi_square": statistic, "p_value": exact_uniform_p(counts), "simulation_error": None}
    if n / k < ASYMPTOTIC_FROM:
        p, error = simulated_uniform_p(counts)
        return {**shown, "method": f"Monte Carlo ({SIMULATIONS:,} draws)", "chi_square": statistic, "p_value": p, "simulation_error": error}
    p = float(scipy_stats.chi2.sf(statistic, k - 1))
    return {**shown, "method": "chi-square", "chi_square": statistic, "p_value": p, "simulation_error": None}


def tails(chances: Mapping[float, int], observed: int, coverage: float = 0.95) -> dict[str, object]:
    """Both exact tails of a count over rolls with these chances (chance -> rolls), the two-sided
    p-value (twice the smaller tail, at most 1), and the counts between which it falls with at
    least ``coverage`` (equal tails): one Poisson-binomial for all four."""
    if not sum(chances.values()):
        return {"p_at_most": None, "p_at_least": None, "p_two_sided": None, "expected_range": [0, 0]}
    pmf = poisson_binomial(chances)
    at_most = float(min(1.0, pmf[: observed + 1].sum()))
    at_least = float(min(1.0, pmf[observed:].sum())) if observed < len(pmf) else 0.0
    cdf = np.cumsum(pmf)
    tail = (1 - coverage) / 2
    low = int(np.searchsorted(cdf, tail - 1e-12, side="left"))
    high = min(int(np.searchsorted(cdf, 1 - tail - 1e-12, side="left")), len(cdf) - 1)
    return {"p_at_most": at_most, "p_at_least": at_least, "p_two_sided": min(1.0, 2 * min(at_most, at_least)),
            "expected_range": [low, high]}


def levels_test(level_chances: Mapping[str, Mapping[float, int]], observed: Mapping[str, int], rolls: int) -> dict[str, object]:
    """Every level of success against its own Poisson-binomial (each roll's chance of that level),
    two-sided; the levels together by Bonferroni over the levels (valid however they depend on each
    other: one roll has one level). No verdict below ``MIN_ROLLS_WITH_ODDS`` rolls."""
    per_level = {name: tails(chances, int(observed.get(name, 0))) for name, chances in level_chances.items()}
    tested = [float(t["p_two_sided"]) for t in per_level.values() if t["p_two_sided"] is not None]  # type: ignore[arg-type]
    judged = rolls >= MIN_ROLLS_WITH_ODDS and tested
    p = min(1.0, len(tested) * min(tested)) if judged else None
    return {"method": "exact Poisson-binomial per level, Bonferroni over the levels", "rolls": rolls, "minimum_rolls": MIN_ROLLS_WITH_ODDS,
            "p_value": p, **({} if judged else {"verdict": TOO_FEW}), "levels": per_level}


def holm(family: Sequence[MutableMapping[str, object]], error_rate: float = ERROR_RATE) -> None:
    """Holm's step-down over the family: each test gets ``p_adjusted`` and ``suspect`` (its adjusted
    p-value at most ``error_rate``), so fair dice are flagged in at most that share of reports
    however the tests depend on each other."""
    order = sorted(range(len(family)), key=lambda i: float(family[i]["p_value"]))  # type: ignore[arg-type]
    m, running = len(family), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * float(family[i]["p_value"])))  # type: ignore[arg-type]
        family[i]["p_adjusted"] = running
        family[i]["suspect"] = running <= error_rate


def expected_longest_runs(chances: Sequence[float]) -> dict[str, float | None]:
    """The expected longest run of successes and of failures of rolls made in this order with these
    chances, exactly: E[L] = sum over r >= 1 of P(L >= r), each P(L < r) by one pass over the rolls
    keeping the chance of each current run shorter than r (all r at once, as a matrix). None beyond
    ``RUNS_EXACT_UP_TO`` rolls (the matrix grows as the square of the rolls)."""
    return {"successes": _expected_longest(chances), "failures": _expected_longest([1 - p for p in chances])}


def _expected_longest(chances: Sequence[float]) -> float | None:
    n = len(chances)
    if n > RUNS_EXACT_UP_TO:
        return None
    if not n:
        return 0.0
    # state[r - 1, j]: P(no run of r so far, and the current run is j long), for r = 1..n and j < r
    state = np.zeros((n, n))
    state[:, 0] = 1.0
    shorter = np.tril(np.ones((n, n)))  # row r - 1 keeps the runs 0..r - 1 long
    for p in chances:
        total = state.sum(axis=1)
        state[:, 1:] = p * state[:, :-1]
        state[:, 0] = (1 - p) * total
        state *= shorter
    return float((1.0 - state.sum(axis=1)).sum())
