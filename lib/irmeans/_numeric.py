"""Numeric helpers shared by the teaching measures, the evaluator and the split-half experiment.

**When two numbers count as equal.** Scores and averages come out of floating-point
arithmetic: the mean of three scores of 0.1 is not exactly 0.1, and a system whose
scores on a half are another's in a different order can get an average that differs
in the last bit. Wherever irmeans asks whether numbers are *equal* (a topic on which
every system scores the same is *flat*; two systems with the same average are *tied*)
it answers with one tolerance, :data:`TOLERANCE`, relative to the set the numbers
belong to: two numbers of a set are equal when they differ by at most
``TOLERANCE`` times the largest magnitude in the set. Sorted, a set splits into runs
in which each number is equal to the one before it; the numbers of a run are all
equal to each other (ties chain). The sets are: a topic's scores over the systems
(flat topics: :func:`irmeans.topic_difficulty`, :func:`irmeans.standardize`), the
systems' averages on one half of the topics and any vector given to
:func:`irmeans.kendall_tau` (τ's ties), and the topics' difficulties (the order of
:func:`irmeans.difficulty_halves`).

>>> bool(flat([0.3, 0.1 + 0.2])), bool(flat([0.3, 0.3001]))
(True, False)
>>> dense_ranks(np.array([0.3, 0.1 + 0.2, 0.1])).tolist()  # 0.1 + 0.2 is 0.30000000000000004
[1, 1, 0]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["safe_div", "ordered_mean", "log_odds_of", "TOLERANCE", "equal_steps", "steps", "dense_ranks", "flat"]

#: Two numbers of one set are equal when they differ by at most this share of the largest
#: magnitude in the set: far above the rounding of sums of thousands of scores (about 1e-13
#: of their size), far below the smallest difference real scores make (AP on 1,000 ranks
#: moves by more than 1e-9).
TOLERANCE = 1e-12


def safe_div(num: ArrayLike, den: ArrayLike) -> np.ndarray:
    """``num / den`` elementwise, and 0 where ``den`` is 0 (a topic with nothing relevant scores 0).

    >>> safe_div([1, 2], [4, 0]).tolist()
    [0.25, 0.0]
    """
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64))
    out = np.zeros(num.shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


def equal_steps(gap: ArrayLike, scale: ArrayLike) -> np.ndarray:
    """Whether a step ``gap`` up from one number to the next of a set is none: ``gap <= TOLERANCE * scale``.

    ``scale`` is the largest magnitude in the set. A negative gap (numbers a hair out of
    order) is a step of none too.

    >>> equal_steps([1e-17, 1e-3], 0.5).tolist()
    [True, False]
    """
    return np.asarray(np.asarray(gap) <= TOLERANCE * np.asarray(scale))


def steps(sorted_values: np.ndarray) -> np.ndarray:
    """Where each number of a sorted row (last axis) is more than the tolerance above the one before.

    Shape ``(..., n - 1)``. The scale of a row is the larger magnitude of its two ends.

    >>> steps(np.array([0.1, 0.1 + 1e-17, 0.2])).tolist()
    [False, True]
    """
    s = np.asarray(sorted_values, dtype=np.float64)
    if s.shape[-1] < 2:
        return np.zeros(s.shape[:-1] + (0,), dtype=bool)
    scale = np.maximum(np.abs(s[..., :1]), np.abs(s[..., -1:]))
    return ~equal_steps(np.diff(s, axis=-1), scale)


def dense_ranks(values: ArrayLike) -> np.ndarray:
    """Dense ranks along the last axis (0 for the smallest), equal numbers sharing a rank.

    >>> dense_ranks([[0.2, 0.1, 0.2], [3.0, 1.0, 2.0]]).tolist()
    [[1, 0, 1], [2, 0, 1]]
    """
    v = np.asarray(values, dtype=np.float64)
    order = np.argsort(v, axis=-1, kind="stable")
    srt = np.take_along_axis(v, order, axis=-1)
    dense = np.zeros(v.shape, dtype=np.int64)
    np.cumsum(steps(srt), axis=-1, out=dense[..., 1:])
    ranks = np.empty_like(dense)
    np.put_along_axis(ranks, order, dense, axis=-1)
    return ranks


def flat(values: ArrayLike, axis: int = -1) -> np.ndarray:
    """Whether all the numbers along ``axis`` are equal (a bool, or an array over the other axes).

    >>> flat([[0.5, 0.5], [0.1, 0.3]], axis=0).tolist()
    [False, False]
    >>> flat([[0.5, 0.1], [0.5, 0.3]], axis=0).tolist()
    [True, False]
    """
    s = np.sort(np.asarray(values, dtype=np.float64), axis=axis)
    return np.asarray(~steps(np.moveaxis(s, axis, -1)).any(axis=-1))


def _last(total: np.ndarray, axis: int | None) -> np.ndarray:
    return np.asarray(total[-1] if axis is None else np.take(total, -1, axis=axis))


def ordered_mean(a: np.ndarray, axis: int | None) -> np.ndarray:
    """The mean with the scores added one after the other, as trec_eval adds them.

    np.mean's pairwise sum can differ in the last bits, so this is what makes MAP here
    trec_eval's MAP to the last bit. A sum that passes the largest double (finite scores
    near 1e308) is formed again from the scores halved k times, an exact scaling that
    keeps the order of the additions and so the bits, and the mean doubled back.

    >>> float(ordered_mean(np.array([0.1, 0.2, 0.3]), None)) == (0.1 + 0.2 + 0.3) / 3
    True
    """
    n = a.size if axis is None else a.shape[axis]
    with np.errstate(over="ignore", invalid="ignore"):
        total = _last(np.cumsum(a, axis=axis), axis)
    mean = total / n
    # Only a sum of finite scores is formed again: a NaN or an infinity among the scores (which
    # trec_eval's C arithmetic carries into its mean, sign and all) stays as the sum left it.
    over = ~np.isfinite(mean) & np.isfinite(a).all(axis=axis)
    if over.any():
        k = int(n).bit_length() + 1
        scaled = np.ldexp(_last(np.cumsum(np.ldexp(a, -k), axis=axis), axis) / n, k)
        with np.errstate(over="ignore"):  # a mean is never past its largest score: kept within them
            scaled = np.clip(scaled, np.min(a, axis=axis), np.max(a, axis=axis))
        mean = np.where(over, scaled, mean)
    return np.asarray(mean)


def log_odds_of(a: np.ndarray, eps: float) -> np.ndarray:
    """log((a + ε) / (1 − a + ε)), elementwise, without checks (:func:`irmeans.means.log_odds` checks them).

    For ε > 1 it is log1p((2a − 1) / (1 − a + ε)), which a large ε does not swamp (the
    log-odds of ε = 1e13 differ by 1e-13, below the rounding of log(a + ε)). Where 1 − a + ε
    is tiny (a score near 1 with a tiny ε) the second log is taken of (1 − a) + ε, in which
    1 − a is exact, so that −a + ε rounded near −1 does not lose ε.
    """
    if eps > 1:
        return np.asarray(np.log1p((2.0 * a - 1.0) / ((1.0 - a) + eps)))
    with np.errstate(divide="ignore"):
        rest = (1.0 - a) + eps
        second = np.where(rest < 2.0**-10, np.log(rest), np.log1p(-a + eps))
        return np.asarray(np.log(a + eps) - second)
