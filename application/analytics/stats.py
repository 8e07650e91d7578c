"""The statistics of analytics, free of any game: luck against the rolls' own odds, streaks, and
chi-square tests of dice against uniform and of outcomes against their expected counts.

Luck is measured against each roll's exact chance of success (domain/odds.py): the number of
successes of n independent rolls with chances p_i is Poisson-binomial, whose mean is the sum of
the p_i and variance the sum of p_i (1 - p_i). Its distribution is built exactly in shape (the
convolution of one binomial per distinct chance, so a session of 100,000 rolls made at a few
hundred distinct chances is a few hundred convolutions, not 100,000 squared steps) and in
floating point, which is exact to about 1e-15 of the largest probability.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Mapping, Sequence

import numpy as np
from scipy import signal, special, stats

SUSPECT = 0.001  # a test whose p-value is below this flags the dice (or the outcomes) as suspect
FFT_FROM = 500  # convolve by FFT once both distributions are this long (numpy's direct sum below)


def poisson_binomial(chances: Iterable[float] | Mapping[float, int]) -> np.ndarray:
    """P(exactly k successes) for k = 0..n, for independent rolls with these chances of success:
    one binomial per distinct chance, convolved pairwise (a tree: each level costs one pass over
    n, so 100,000 rolls at 200 distinct chances take eight passes)."""
    counts = chances if isinstance(chances, Mapping) else Counter(chances)
    parts = [binomial(n, p) for p, n in sorted(counts.items()) if n] or [np.ones(1)]
    while len(parts) > 1:
        parts = [_convolve(parts[i], parts[i + 1]) if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    pmf = np.clip(parts[0], 0.0, None)  # FFT noise below zero
    return pmf / pmf.sum()


def binomial(n: int, p: float) -> np.ndarray:
    """P(exactly k of n rolls succeed), k = 0..n, each with chance p (log-gamma form: one numpy
    pass, where scipy.stats.binom.pmf spent a millisecond a call on checks)."""
    if p <= 0 or p >= 1:
        pmf = np.zeros(n + 1)
        pmf[n if p >= 1 else 0] = 1.0
        return pmf
    k = np.arange(n + 1)
    log_pmf = special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)
    return np.exp(log_pmf)


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if min(len(a), len(b)) >= FFT_FROM:
        return signal.fftconvolve(a, b)
    return np.convolve(a, b)


def luck(chances: Sequence[float] | Mapping[float, int], successes: int) -> dict[str, float | int | None]:
    """Successes observed against expected: the z-score, and the exact probability of doing this
    well or worse, P(X <= observed), under the Poisson-binomial of the rolls' own chances (given
    one by one, or as chance -> rolls made with it)."""
    counts = chances if isinstance(chances, Mapping) else Counter(chances)
    rolls = sum(counts.values())
    expected = float(sum(p * n for p, n in counts.items()))
    variance = float(sum(p * (1 - p) * n for p, n in counts.items()))
    z = (successes - expected) / math.sqrt(variance) if variance > 0 else None
    p_value = float(min(1.0, poisson_binomial(counts)[: successes + 1].sum())) if rolls else None
    return {"rolls": rolls, "successes": successes, "expected": expected, "difference": successes - expected,
            "z_score": z, "p_this_well_or_worse": p_value}


def longest_streaks(outcomes: Iterable[bool]) -> dict[str, int]:
    """The longest run of successes and of failures, in the order the rolls were made."""
    best = {True: 0, False: 0}
    run, last = 0, None
    for success in outcomes:
        run = run + 1 if success == last else 1
        last = success
        best[success] = max(best[success], run)
    return {"successes": best[True], "failures": best[False]}


def chi_square(observed: Sequence[float], expected: Sequence[float]) -> dict[str, float | int | bool | None]:
    """Pearson's chi-square of observed counts against expected ones (same total), with its
    p-value (scipy.stats.chisquare); bins expected never to happen are left out unless one was
    observed, which makes the p-value 0. None for fewer than two bins or no observations."""
    kept = [(o, e) for o, e in zip(observed, expected) if e > 0]
    impossible = any(o > 0 for o, e in zip(observed, expected) if e <= 0)
    if impossible:
        return {"chi_square": math.inf, "degrees_of_freedom": max(len(kept) - 1, 0), "p_value": 0.0, "suspect": True}
    if len(kept) < 2 or sum(o for o, _ in kept) == 0:
        return {"chi_square": None, "degrees_of_freedom": max(len(kept) - 1, 0), "p_value": None, "suspect": False}
    f_obs = np.array([o for o, _ in kept], dtype=float)
    f_exp = np.array([e for _, e in kept], dtype=float)
    f_exp *= f_obs.sum() / f_exp.sum()  # float sums of the rolls' chances: same total as observed
    result = stats.chisquare(f_obs, f_exp)
    p = float(result.pvalue)
    return {"chi_square": float(result.statistic), "degrees_of_freedom": len(kept) - 1, "p_value": p, "suspect": p < SUSPECT}


def uniform_test(faces: Mapping[int, int], all_faces: Sequence[int]) -> dict[str, object]:
    """A die's face counts against uniform: every face of ``all_faces`` equally likely."""
    counts = [int(faces.get(face, 0)) for face in all_faces]
    n = sum(counts)
    return {"rolls": n, "faces": {str(face): c for face, c in zip(all_faces, counts)},
            "expected_per_face": n / len(all_faces) if all_faces else None,
            **chi_square(counts, [n / len(all_faces)] * len(all_faces))}
