"""Paired tests: two systems on the same topics.

:func:`paired_t_test` is the t-test on paired differences, with the case of
no difference at all made explicit (t = 0, p = 1) instead of scipy's NaN;
chapter 7 runs it on per-topic AP and on log(AP + ε). :func:`randomization_test`
is Fisher's paired randomization test (every topic's pair of scores swapped or
not, at random or in every way), :func:`sign_test` the sign test, which no
increasing transformation of the scores changes, and :func:`holm` Holm's
correction of many p-values at once. Each takes many pairs of systems at once
(leading axes), as :func:`irmeans.compare` runs them.

Two averages compared over the same split-half splits get no test here: the
splits share their topics and systems, so their τ values are not independent
samples of topics: a p-value across them speaks of these topics' splits alone.
:func:`irmeans.consistency.intervals.tau_intervals` gives intervals instead.

>>> from irmeans.comparison.significance import paired_t_test
>>> t, p = paired_t_test([0.2, 0.4, 0.5], [0.1, 0.3, 0.5])
>>> round(float(t), 3), round(float(p), 3)
(2.0, 0.184)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._numeric import TOLERANCE
from .._validation import as_array, float_array, whole_number
from ..errors import IrmeansError, shown_value

__all__ = [
    "paired_t_test",
    "randomization_test",
    "sign_test",
    "holm",
    "sign_flips",
    "flip_count",
    "count_at_least",
    "randomization_p",
    "randomization_floor",
    "FLOOR_SHARE",
    "choose_test",
    "SignTest",
    "wilcoxon_test",
]


def _paired(a: ArrayLike, b: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    x = float_array(a, "a")
    y = float_array(b, "b")
    try:
        x, y = np.broadcast_arrays(x, y)
    except ValueError:
        raise IrmeansError(f"a and b must pair up: shapes {x.shape} and {y.shape}") from None
    if x.ndim == 0 or x.shape[-1] < 2:
        raise IrmeansError(f"a paired test needs at least 2 pairs along the last axis, got shape {x.shape}")
    return x, y


def paired_t_test(a: ArrayLike, b: ArrayLike) -> tuple[float, float] | tuple[np.ndarray, np.ndarray]:
    """Student's paired t-test of a − b along the last axis (two-sided).

    Parameters
    ----------
    a, b : array_like, shape (..., n)
        Paired values: ``a[..., i]`` with ``b[..., i]``; leading axes are
        independent tests (shapes broadcast).

    Returns
    -------
    t, p : float or ndarray
        The t statistic (positive when ``a`` is higher) and its two-sided
        p-value, those of ``scipy.stats.ttest_rel``. Where every difference is 0,
        t = 0 and p = 1 (scipy gives NaN); where all differences are equal but
        not 0, t is infinite and p = 0.

    Examples
    --------
    >>> t, p = paired_t_test([[0.2, 0.4, 0.5], [0.1, 0.3, 0.5]], [0.1, 0.3, 0.5])
    >>> t.round(3).tolist(), p.round(3).tolist()
    ([2.0, 0.0], [0.184, 1.0])
    """
    from scipy import special  # here, not at the top: `import irmeans` stays light (scipy.stats is slower still)

    x, y = _paired(a, b)
    d = _scaled_differences(x, y)
    n = d.shape[-1]
    same = np.all(x == y, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        # scipy.stats.ttest_rel's own arithmetic: the mean difference over its standard error,
        # two-sided p from Student's t with n - 1 degrees of freedom.
        t = d.mean(axis=-1) / np.sqrt(d.var(axis=-1, ddof=1) / n)
        p = 2 * special.stdtr(n - 1, -np.abs(t))
    t = np.where(same, 0.0, t)
    p = np.where(same, 1.0, p)
    if t.ndim == 0:
        return float(t), float(p)
    return t, p


def _scaled_differences(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x − y along the last axis, each row scaled by a power of two to a largest |difference| in [0.5, 1).

    t is the same for differences scaled by any factor, and a power of two scales them exactly, so ordinary
    differences give t to the last bit as before. Differences near the smallest doubles (log(x + ε) of an ε of
    1e200, scores scaled by 1e-170) have squares that underflow: their variance came out 0 and t infinite, "p <
    1e-300" for pairs whose t is 1 unscaled; differences near the largest double overflowed it. Scaled, both are
    the t of the unscaled pairs.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        d = x - y
        overflow = ~np.isfinite(d).all(axis=-1) & np.isfinite(x).all(axis=-1) & np.isfinite(y).all(axis=-1)
        if overflow.any():  # x - y beyond the largest double: halved first (exact), then scaled as the others
            d = np.where(overflow[..., None], x / 2 - y / 2, d)
        largest = np.abs(d).max(axis=-1, keepdims=True)
        exponent = np.frexp(np.where(np.isfinite(largest) & (largest > 0), largest, 1.0))[1]
    scaled: np.ndarray = np.ldexp(d, -exponent)
    return scaled


#: Sign vectors are drawn and used this many at a time (rows of one block of flips)...
FLIP_BLOCK = 1000
#: ... or fewer, so that a block holds at most this many signs (32 MiB of doubles) whatever the topics.
FLIP_VALUES = 1 << 22
# A permuted statistic counts as "at least as large" as the observed one within the project's one
# tolerance for equality (irmeans._numeric.TOLERANCE): the identity and the all-swapped permutation
# must count whatever the rounding of their sums.


def _rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(None if seed is None else whole_number(seed, "seed", minimum=0, maximum=None))


def flip_count(n: int, permutations: int) -> tuple[int, bool]:
    """How many sign vectors a randomization test over ``n`` topics uses, and whether that is all of them.

    >>> flip_count(10, 10_000), flip_count(50, 10_000)
    ((1024, True), (10000, False))
    """
    n = whole_number(n, "n", minimum=1)
    permutations = whole_number(permutations, "permutations", minimum=1, maximum=None)  # 2**70: every vector
    exact = n < 63 and 2**n <= permutations
    return (2**n if exact else permutations), exact


def sign_flips(
    n: int, permutations: int, seed: int | np.random.Generator | None = 0, *, block: int = FLIP_BLOCK
) -> tuple[Iterator[np.ndarray], int, bool]:
    """The sign vectors of a paired randomization test over ``n`` topics, in blocks.

    Returns (blocks, count, exact): each block a (rows, n) float64 array of ±1 (−1 where
    the topic's two scores are swapped), of ``block`` rows, or fewer for many topics (at most
    :data:`FLIP_VALUES` signs a block, so that memory does not grow with the topics). When
    2**n <= ``permutations`` every vector is given once (exact: count = 2**n); otherwise
    ``permutations`` vectors drawn uniformly at random, with replacement, from ``seed``.

    Examples
    --------
    >>> blocks, count, exact = sign_flips(2, 1000)
    >>> count, exact, next(blocks).tolist()
    (4, True, [[1.0, 1.0], [-1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]])
    """
    total, exact = flip_count(n, permutations)
    rng = _rng(seed)  # checked even when every vector is used
    block = max(1, min(block, FLIP_VALUES // n))

    def blocks() -> Iterator[np.ndarray]:
        bits = np.arange(n, dtype=np.int64)
        for start in range(0, total, block):
            rows = min(block, total - start)
            if exact:
                swapped = (np.arange(start, start + rows, dtype=np.int64)[:, None] >> bits) & 1
            else:
                swapped = rng.integers(0, 2, size=(rows, n), dtype=np.int8)
            yield 1.0 - 2.0 * swapped

    return blocks(), total, exact


def count_at_least(d: np.ndarray, flips: np.ndarray) -> np.ndarray:
    """For each row of differences ``d`` (k, n), how many sign vectors of ``flips`` (b, n) give a sum
    at least as far from 0 as the row's own sum: (k,) counts. One matrix product for all rows."""
    observed = np.abs(d.sum(axis=1))
    slack = TOLERANCE * np.abs(d).sum(axis=1)
    sums = d @ flips.T
    np.abs(sums, out=sums)
    counts: np.ndarray = np.count_nonzero(sums >= (observed - slack)[:, None], axis=1)
    return counts


def randomization_p(counts: ArrayLike, total: int, exact: bool) -> np.ndarray:
    """Two-sided p-values from :func:`count_at_least` counts over ``total`` sign vectors.

    Exact: the share of all 2**n vectors. Drawn at random: (count + 1) / (total + 1), the
    observed order counted as one of the permutations, so that p is never 0 and the
    test keeps its level (Phipson & Smyth 2010).
    """
    c = np.asarray(counts, dtype=np.float64)
    return c / total if exact else (c + 1) / (total + 1)


#: ``irmeans.compare(test="auto")`` takes the randomization test when its smallest Holm-adjusted p-value is at most
#: this share of α, and the t-test otherwise.
FLOOR_SHARE = 0.1


def randomization_floor(total: int, exact: bool) -> float:
    """The smallest two-sided p-value :func:`randomization_p` can give over ``total`` sign vectors.

    Exact, 2 / 2**n: a sign vector and its opposite give the same sum, so the observed one and its
    opposite always count. Drawn at random, 1 / (total + 1). Holm's correction multiplies it by
    the size of the family, so that with many comparisons no verdict can reach a small α
    unless more sign vectors are drawn.

    >>> randomization_floor(1024, True), randomization_floor(10_000, False)
    (0.001953125, 9.999000099990002e-05)
    """
    return 2 / total if exact else 1 / (total + 1)


def choose_test(test: str, comparisons: int, total: int, exact: bool, alpha: float) -> str:
    """The test that marks verdicts: ``test`` itself, or for ``auto`` the randomization test when its smallest
    Holm-adjusted p over ``comparisons`` (:func:`randomization_floor` of ``total`` sign vectors times them) is at
    most :data:`FLOOR_SHARE` × ``alpha``, and the t-test otherwise.

    >>> choose_test("auto", 9, 10_000, False, 0.05), choose_test("auto", 14_850, 10_000, False, 0.05)
    ('randomization', 't')
    """
    if test != "auto":
        return test
    floor = min(1.0, comparisons * randomization_floor(total, exact))
    return "randomization" if floor <= FLOOR_SHARE * alpha else "t"


def randomization_test(
    a: ArrayLike, b: ArrayLike, *, permutations: int = 10_000, seed: int | np.random.Generator | None = 0
) -> float | np.ndarray:
    """Fisher's paired randomization test of mean(a − b) along the last axis (two-sided).

    Under the null hypothesis each topic's two scores could as well have been the other
    way round; the test swaps them, topic by topic, and counts how often the mean
    difference is at least as far from 0 as the one observed. Every pair of leading
    axes is tested with the same sign vectors (the tests are seeded together).

    Parameters
    ----------
    a, b : array_like, shape (..., n)
        Paired scores (on the scale to test: log(x + ε) for a GM).
    permutations : int, default 10 000
        Random sign vectors; if 2**n is no more, every one of them is used once and
        the p-value is exact.
    seed : int or numpy.random.Generator, default 0

    Returns
    -------
    p : float or ndarray
        Exact: the share of the 2**n sign vectors. Random: (count + 1) / (permutations + 1).

    Examples
    --------
    >>> # 2 of the 16 sign vectors give a difference as extreme
    >>> randomization_test([0.5, 0.6, 0.7, 0.8], [0.1, 0.2, 0.3, 0.4])
    0.125
    >>> a, b = [[0.5, 0.6, 0.7, 0.8] * 5], [[0.1, 0.2, 0.3, 0.4] * 5]
    >>> p = randomization_test(a, b, permutations=999)
    >>> p.tolist()  # none of 999 random ones as extreme: 1/1000
    [0.001]
    """
    x, y = _paired(a, b)
    d = (x - y).reshape(-1, x.shape[-1])
    blocks, total, exact = sign_flips(x.shape[-1], permutations, seed)
    counts = np.zeros(d.shape[0], dtype=np.int64)
    for flips in blocks:
        counts += count_at_least(d, flips)
    p = randomization_p(counts, total, exact).reshape(x.shape[:-1])
    return float(p) if p.ndim == 0 else p


@dataclass(frozen=True)
class SignTest:
    """The sign test of a − b: topics on which a is higher (``wins``), lower (``losses``) or equal (``ties``),
    and the two-sided binomial p-value of the wins among the topics that differ (ties left out).

    Scalars for one pair, arrays for many."""

    wins: np.ndarray
    losses: np.ndarray
    ties: np.ndarray
    p: np.ndarray


def sign_test(a: ArrayLike, b: ArrayLike) -> SignTest:
    """The sign test of a − b along the last axis: does a win on more topics than chance would give?

    Only the signs of the differences count, so any strictly increasing transformation of
    the scores (the log of a GM, the logit) gives the same test: one test for every average.

    Returns
    -------
    SignTest
        p = min(1, 2·P(X <= min(wins, losses))) for X ~ Binomial(wins + losses, 1/2),
        ``scipy.stats.binomtest``'s two-sided p; 1 when no topic differs.

    Examples
    --------
    >>> s = sign_test([0.5, 0.6, 0.7, 0.8, 0.1], [0.1, 0.2, 0.3, 0.4, 0.1])
    >>> int(s.wins), int(s.losses), int(s.ties), float(s.p)
    (4, 0, 1, 0.125)
    """
    from scipy import special

    x, y = _paired(a, b)
    wins = (x > y).sum(axis=-1)
    losses = (x < y).sum(axis=-1)
    ties = x.shape[-1] - wins - losses
    p = np.minimum(1.0, 2.0 * special.bdtr(np.minimum(wins, losses), wins + losses, 0.5))
    p = np.where(wins + losses == 0, 1.0, p)
    return SignTest(wins, losses, ties, p)


def holm(p: ArrayLike) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values, any shape (NaN left out of the family).

    The i-th smallest of m p-values becomes max over j <= i of min(1, (m − j + 1)·p_(j)):
    rejecting where the adjusted p is below α keeps the chance of any false rejection
    in the family below α, whatever the dependence between the tests.

    Examples
    --------
    >>> holm([0.01, 0.04, 0.03, float("nan")]).tolist()
    [0.03, 0.06, 0.06, nan]
    """
    try:
        q = as_array(p, "p").astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        raise IrmeansError(f"p must be numbers, got {shown_value(p)}") from None
    if ((q < 0) | (q > 1)).any():
        raise IrmeansError(f"p-values must lie in [0, 1] (or be NaN, left out), got {q[(q < 0) | (q > 1)][0]!r}")
    flat = q.reshape(-1)
    given = np.flatnonzero(~np.isnan(flat))
    order = given[np.argsort(flat[given], kind="stable")]
    m = order.size
    adjusted = np.full(flat.shape, np.nan)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * flat[order]))
    return adjusted.reshape(q.shape)


def wilcoxon_test(a: ArrayLike, b: ArrayLike) -> tuple[float, float]:
    """Wilcoxon's signed-rank test of a − b (two-sided, 1-d), zero differences left out.

    Returns
    -------
    statistic, p : float
        scipy's statistic and p-value (``scipy.stats.wilcoxon`` with
        ``zero_method="wilcox"``); with no non-zero difference, p = 1.

    Examples
    --------
    >>> s, p = wilcoxon_test([0.5, 0.6, 0.7, 0.8, 0.9, 1.0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    >>> s, round(p, 4)
    (0.0, 0.0312)
    """
    from scipy import stats

    x, y = _paired(a, b)
    if x.ndim != 1:
        raise IrmeansError(f"wilcoxon_test takes 1-d pairs, got shape {x.shape}")
    if np.all(x == y):
        return 0.0, 1.0
    res = stats.wilcoxon(x, y, zero_method="wilcox")
    return float(res.statistic), float(res.pvalue)
