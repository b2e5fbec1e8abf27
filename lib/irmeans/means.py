"""Ways of averaging per-topic effectiveness scores across topics.

Every function takes an array of scores and an ``axis`` like numpy: with a
systems × topics array and ``axis=1`` each system gets its own average.
Input is checked in one place, :func:`_as_scores`, so every mean answers bad
input (empty, NaN, infinite, negative where a logarithm follows, outside
[0, 1] for the logit) with the same kind of ``ValueError``, naming the index.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import check_axis, eps_value, first_index, float_array
from .errors import IrmeansError

__all__ = [
    "arithmetic_mean",
    "geometric_mean",
    "harmonic_mean",
    "median",
    "logit_mean",
    "log_odds",
    "TREC_EVAL_GM_EPS",
]

#: The ε of trec_eval's ``gm_map``: each AP below it is raised to it before the log.
TREC_EVAL_GM_EPS = 1e-5


def _as_scores(x, axis, *, nonnegative=False, unit=False):
    """Validate scores and ``axis``; return the scores as a float64 array and the axis.

    Raises :class:`~irmeans.errors.IrmeansError` for a masked array, empty
    input, NaN or infinite values, negative values when ``nonnegative``,
    values outside [0, 1] when ``unit``, and an ``axis`` out of range; the
    message gives the offending index.
    """
    a = float_array(x, "score")
    if a.ndim == 0:
        a = a.reshape(1)
    axis = check_axis(axis, a.ndim)
    if axis is not None and a.shape[axis] == 0:
        raise IrmeansError(f"cannot average an empty set of scores along axis {axis}")
    if a.size == 0:
        raise IrmeansError("cannot average an empty set of scores")
    if nonnegative and (a < 0).any():
        where = first_index(a < 0)
        raise IrmeansError(f"score at index {where} is {float(a[where])!r}: this mean needs scores >= 0")
    if unit and ((a < 0) | (a > 1)).any():
        where = first_index((a < 0) | (a > 1))
        raise IrmeansError(f"score at index {where} is {float(a[where])!r}: the logit needs scores in [0, 1]")
    return a, axis


def arithmetic_mean(x: ArrayLike, axis: int | None = None) -> float | np.ndarray:
    """Arithmetic mean of scores: MAP when the scores are per-topic AP.

    Parameters
    ----------
    x : array_like
        Per-topic scores.
    axis : int, optional
        Axis along which to average, as in numpy; ``None`` averages everything.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> arithmetic_mean([0.1, 0.1, 0.3, 0.8, 0.1])
    0.28
    """
    a, axis = _as_scores(x, axis)
    return _scalar(np.mean(a, axis=axis))


def geometric_mean(x: ArrayLike, eps: float = 0.0, method: str = "add", axis: int | None = None) -> float | np.ndarray:
    """Geometric mean of scores, with ε to keep zeros from sending it to 0.

    Parameters
    ----------
    x : array_like
        Per-topic scores, all >= 0.
    eps : float, default 0
        The ε. With ε = 0 any zero makes the mean 0.
    method : {"add", "floor", "zeros"}
        ``"add"``: exp(mean(log(x + ε))) − ε, the form of Robertson (2006) and
        Ravana & Moffat's εGM; as ε grows it tends to the arithmetic mean.
        ``"floor"``: exp(mean(log(max(x, ε)))), trec_eval's ``gm_map``, which
        uses ε = 1e-5 (:data:`TREC_EVAL_GM_EPS`).
        ``"zeros"``: only scores of exactly 0 become ε, then the plain geometric
        mean: the TREC Robust track's GMAP. A score in (0, ε) stays as it is.
        In both these forms the logs are added in order, as trec_eval adds them,
        so the floor form's value is trec_eval's ``gm_map`` to the last bit.
    axis : int, optional
        Axis along which to average.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(geometric_mean([0.0, 0.4, 0.2, 0.4, 0.3], eps=0.01), 3)
    0.151
    >>> round(geometric_mean([0.0, 0.4, 0.2, 0.4, 0.3], eps=1e-5, method="floor"), 3)
    0.039
    """
    eps = eps_value(eps)
    a, axis = _as_scores(x, axis, nonnegative=True)
    if method == "add":
        if eps > 1:
            # Written as ε·(exp(mean(log1p(x/ε))) − 1) so that a large ε does not
            # swamp the scores in x + ε: the mean then tends to the arithmetic mean.
            m = eps * np.expm1(np.mean(np.log1p(a / eps), axis=axis))
        else:
            with np.errstate(divide="ignore"):  # log(0) = -inf gives exp(-inf) = 0, as it should
                m = np.exp(np.mean(np.log(a + eps), axis=axis)) - eps
        # exp(log(y)) may come back a hair below y; a mean of scores >= 0 is never below 0.
        m = np.maximum(m, 0.0)
    elif method in ("floor", "zeros"):
        if eps == 0:
            raise IrmeansError(f"method={method!r} needs eps > 0 (trec_eval uses 1e-5)")
        lifted = np.maximum(a, eps) if method == "floor" else np.where(a == 0, eps, a)
        # trec_eval's own arithmetic: the logs added one topic after the other, then divided
        total = np.cumsum(np.log(lifted), axis=axis)
        total = total[-1] if axis is None else np.take(total, -1, axis=axis)
        m = np.exp(total / (a.size if axis is None else a.shape[axis]))
    else:
        raise IrmeansError(f"method must be 'add', 'floor' or 'zeros', got {method!r}")
    return _scalar(m)


def harmonic_mean(x: ArrayLike, eps: float = 0.0, axis: int | None = None) -> float | np.ndarray:
    """Harmonic mean of scores: t / Σ 1/(x + ε) − ε.

    Parameters
    ----------
    x : array_like
        Per-topic scores, all >= 0.
    eps : float, default 0
        Added to each score before the reciprocal and taken off the result.
        With ε = 0 a zero score has no reciprocal and raises ``ValueError``.
    axis : int, optional
        Axis along which to average.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(harmonic_mean([0.1, 0.1, 0.3, 0.8, 0.1]), 3)
    0.145
    >>> round(harmonic_mean([0.0, 0.4, 0.2, 0.4, 0.3], eps=0.01), 3)
    0.034
    """
    eps = eps_value(eps)
    a, axis = _as_scores(x, axis, nonnegative=True)
    if eps == 0 and (a == 0).any():
        where = first_index(a == 0)
        raise IrmeansError(
            f"score at index {where} is 0: the harmonic mean of a set with a zero is undefined; "
            "pass eps > 0 (for example eps=0.01) to use the ε-harmonic mean"
        )
    if eps > 1:
        # The same mean written with u = x/ε, so that a large ε does not swamp the
        # scores: ε·mean(u/(1+u)) / mean(1/(1+u)), which tends to the arithmetic mean.
        u = a / eps
        m = eps * np.mean(u / (1 + u), axis=axis) / np.mean(1 / (1 + u), axis=axis)
    else:
        t = a.size if axis is None else a.shape[axis]
        m = t / np.sum(1.0 / (a + eps), axis=axis) - eps
    return _scalar(np.maximum(m, 0.0))


def median(x: ArrayLike, axis: int | None = None) -> float | np.ndarray:
    """Median of scores.

    Examples
    --------
    >>> median([0.0, 0.4, 0.2, 0.4, 0.3])
    0.3
    """
    a, axis = _as_scores(x, axis)
    return _scalar(np.median(a, axis=axis))


def log_odds(x: ArrayLike, eps: float = 0.0) -> np.ndarray:
    """The logit with ε at both ends, log((x + ε) / (1 − x + ε)): the scale :func:`logit_mean` averages on.

    Parameters
    ----------
    x : array_like
        Scores in [0, 1].
    eps : float, default 0
        With ε = 0 a score of 0 or 1 maps to −inf or +inf.

    Examples
    --------
    >>> log_odds([0.5, 0.0, 1.0], eps=0.01).round(4).tolist()
    [0.0, -4.6151, 4.6151]
    """
    eps = eps_value(eps)
    a = float_array(x, "score")
    if ((a < 0) | (a > 1)).any():
        where = first_index((a < 0) | (a > 1))
        raise IrmeansError(f"score at index {where} is {float(a[where])!r}: the logit needs scores in [0, 1]")
    with np.errstate(divide="ignore"):
        return _log_odds(a, eps)


def _log_odds(a, eps):
    return np.log(a + eps) - np.log1p(-a + eps)


def logit_mean(x: ArrayLike, eps: float = 0.0, axis: int | None = None) -> float | np.ndarray:
    """Mean in log-odds space, mapped back to a score.

    Each score becomes log((x + ε) / (1 − x + ε)); the mean of those, y, maps
    back through x = ((1 + ε)·e^y − ε) / (1 + e^y), so that equal scores give
    that score back. ε > 0 keeps scores of 0 and 1 finite (Robertson 2006, §4.2).

    Parameters
    ----------
    x : array_like
        Per-topic scores in [0, 1].
    eps : float, default 0
        Added to numerator and denominator of the odds. With ε = 0 a score of
        exactly 0 or 1 raises ``ValueError``.
    axis : int, optional
        Axis along which to average.

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(logit_mean([0.5, 0.5]), 6)
    0.5
    >>> round(logit_mean([0.9, 0.99]), 4)
    0.9676
    """
    eps = eps_value(eps)
    a, axis = _as_scores(x, axis, unit=True)
    if eps == 0 and ((a == 0) | (a == 1)).any():
        where = first_index((a == 0) | (a == 1))
        raise IrmeansError(
            f"score at index {where} is {float(a[where])!r}: its log-odds are infinite; "
            "pass eps > 0 (for example eps=0.01)"
        )
    y = np.mean(_log_odds(a, eps), axis=axis)
    # Written with exp(-|y|) so that large |y| neither overflows nor loses the answer.
    e = np.exp(-np.abs(y))
    m = np.where(y >= 0, ((1 + eps) - eps * e) / (1 + e), ((1 + eps) * e - eps) / (1 + e))
    return _scalar(np.clip(m, 0.0, 1.0))


def _scalar(m):
    """Return a Python float for 0-d results, the array otherwise."""
    m = np.asarray(m)
    return float(m) if m.ndim == 0 else m
