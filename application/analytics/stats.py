"""The statistics of analytics, free of any game: the distribution of successes over rolls with
their own odds, and streaks (the tests built on them: inference.py).

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
from functools import lru_cache
from typing import Iterable, Mapping

import numpy as np
from scipy import signal, special

FFT_FROM = 500  # convolve by FFT once both distributions are this long (numpy's direct sum below)
KEPT_DISTRIBUTIONS = 32  # distributions kept (100,000 rolls: 0.8 MB each)


def poisson_binomial(chances: Iterable[float] | Mapping[float, int]) -> np.ndarray:
    """P(exactly k successes) for k = 0..n, for independent rolls with these chances of success:
    one binomial per distinct chance, convolved pairwise (a tree: each level costs one pass over
    n, so 100,000 rolls at 200 distinct chances take eight passes). Read-only: the last few are
    kept, as a report asks the same one again (the Keeper's rolls are often all the rolls, a
    session's skill rolls often all its rolls)."""
    counts = chances if isinstance(chances, Mapping) else Counter(chances)
    return _poisson_binomial(tuple(sorted((p, n) for p, n in counts.items() if n)))


@lru_cache(maxsize=KEPT_DISTRIBUTIONS)
def _poisson_binomial(counts: tuple[tuple[float, int], ...]) -> np.ndarray:
    parts = [binomial(n, p) for p, n in counts] or [np.ones(1)]
    while len(parts) > 1:
        parts = [_convolve(parts[i], parts[i + 1]) if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    pmf = np.clip(parts[0], 0.0, None)  # FFT noise below zero
    pmf = pmf / pmf.sum()
    pmf.setflags(write=False)
    return pmf


def binomial(n: int, p: float) -> np.ndarray:
    """P(exactly k of n rolls succeed), k = 0..n, each with chance p (log-gamma form: one numpy
    pass, where scipy.stats.binom.pmf spent a millisecond a call on checks)."""
    if p <= 0 or p >= 1:
        pmf = np.zeros(n + 1)
        pmf[n if p >= 1 else 0] = 1.0
        return pmf
    if n == 1:  # (most chances of a small report: one roll each)
        return np.array([1.0 - p, p])
    k = np.arange(n + 1)
    log_pmf = special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)
    return np.exp(log_pmf)


def _convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if min(len(a), len(b)) >= FFT_FROM:
        return signal.fftconvolve(a, b)
    return np.convolve(a, b)


def longest_streaks(outcomes: Iterable[bool]) -> dict[str, int]:
    """The longest run of successes and of failures, in the order the rolls were made."""
    best = {True: 0, False: 0}
    run, last = 0, None
    for success in outcomes:
        run = run + 1 if success == last else 1
        last = success
        best[success] = max(best[success], run)
    return {"successes": best[True], "failures": best[False]}
