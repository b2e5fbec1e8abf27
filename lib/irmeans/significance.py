"""Paired tests: two systems on the same topics, or two averages on the same splits.

:func:`paired_t_test` is the t-test on paired differences, with the case of
no difference at all made explicit (t = 0, p = 1) instead of scipy's NaN;
chapter 7 runs it on per-topic AP and on log(AP + ε). :func:`compare_taus`
compares two averages over the same split-half splits
(:func:`irmeans.consistency.split_half` with one seed): the mean difference
of their τ, a paired t-test and a Wilcoxon signed-rank test on the paired τ.

The τ values of different splits of one collection are not independent
samples (the splits share topics and systems), so these p-values overstate
the certainty: read them, as Ravana & Moffat (2009) did, as a yardstick for
how consistently one average beats the other over the splits.

>>> from irmeans.significance import paired_t_test
>>> t, p = paired_t_test([0.2, 0.4, 0.5], [0.1, 0.3, 0.5])
>>> round(float(t), 3), round(float(p), 3)
(2.0, 0.184)
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validation import float_array
from .errors import IrmeansError

__all__ = ["paired_t_test", "wilcoxon_test", "PairedComparison", "compare_taus"]


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
        p-value, from ``scipy.stats.ttest_rel``. Where every difference is 0,
        t = 0 and p = 1 (scipy gives NaN); where all differences are equal but
        not 0, |t| is infinite and p = 0.

    Examples
    --------
    >>> t, p = paired_t_test([[0.2, 0.4, 0.5], [0.1, 0.3, 0.5]], [0.1, 0.3, 0.5])
    >>> t.round(3).tolist(), p.round(3).tolist()
    ([2.0, 0.0], [0.184, 1.0])
    """
    from scipy import stats  # here, not at the top: `import irmeans` stays light for the CLI

    x, y = _paired(a, b)
    same = np.all(x == y, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        # Equal non-zero differences: scipy warns of lost precision and returns an infinite t.
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.ttest_rel(x, y, axis=-1)
    t = np.where(same, 0.0, res.statistic)
    p = np.where(same, 1.0, res.pvalue)
    if t.ndim == 0:
        return float(t), float(p)
    return t, p


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


@dataclass(frozen=True)
class PairedComparison:
    """Two averages' τ over the same splits: ``a`` against ``b``.

    Attributes
    ----------
    n : int
        Number of paired splits.
    mean_a, mean_b : float
        Mean τ of each.
    mean_difference : float
        Mean of τ_a − τ_b (positive: ``a`` is the more consistent).
    a_higher, b_higher : int
        Splits on which τ_a > τ_b, and τ_b > τ_a.
    t, t_p : float
        Paired t-test of τ_a − τ_b and its two-sided p-value.
    wilcoxon, wilcoxon_p : float
        Wilcoxon signed-rank statistic and p-value (ties left out).
    """

    n: int
    mean_a: float
    mean_b: float
    mean_difference: float
    a_higher: int
    b_higher: int
    t: float
    t_p: float
    wilcoxon: float
    wilcoxon_p: float


def compare_taus(tau_a: ArrayLike, tau_b: ArrayLike) -> PairedComparison:
    """Compare two averages' τ over the same splits with a paired t-test and a Wilcoxon test.

    The tests take the splits as independent samples, which they are not (they share their
    topics and systems): their p-values overstate the evidence, however many splits are drawn.
    :func:`irmeans.intervals.tau_intervals` gives what can be said instead (an interval for
    the difference over splits, and one over samples of topics, by the bootstrap), and
    ``irmeans consistency`` prints those.

    Parameters
    ----------
    tau_a, tau_b : array_like, shape (n,)
        τ of each split under the two averages, split by split (the same
        seed of :func:`irmeans.consistency.split_half`). NaN τ are refused.

    Returns
    -------
    PairedComparison

    Examples
    --------
    >>> c = compare_taus([0.80, 0.82, 0.78, 0.81], [0.75, 0.80, 0.77, 0.79])
    >>> round(c.mean_difference, 4), c.a_higher, c.b_higher, round(c.t_p, 3)
    (0.025, 4, 0, 0.063)
    """
    a, b = _paired(tau_a, tau_b)
    if a.ndim != 1:
        raise IrmeansError(f"compare_taus takes 1-d τ, got shape {a.shape}")
    t, t_p = paired_t_test(a, b)
    w, w_p = wilcoxon_test(a, b)
    d = a - b
    return PairedComparison(
        n=int(a.size),
        mean_a=float(a.mean()),
        mean_b=float(b.mean()),
        mean_difference=float(d.mean()),
        a_higher=int((d > 0).sum()),
        b_higher=int((d < 0).sum()),
        t=float(t),
        t_p=float(t_p),
        wilcoxon=w,
        wilcoxon_p=w_p,
    )
