"""Ways of averaging per-topic effectiveness scores across topics: the averages as functions.

Every function takes an array of scores and an ``axis`` like numpy: with a
systems × topics array and ``axis=1`` each system gets its own average. Each
is its average value of :mod:`irmeans.averages` called on the scores
(``geometric_mean(x, eps=0.01)`` is ``GM(eps=0.01)(x)``), where the formula and the
checks of the input live, so every mean answers bad input (empty, NaN, infinite,
negative where a logarithm follows, outside [0, 1] for the logit) with the same
kind of ``ValueError``, naming the index.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._numeric import log_odds_of
from ._validation import eps_value, first_index, float_array
from .averages import AM, GM, HM, TREC_EVAL_GM_EPS, Logit, Median
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
    return AM()(x, axis=axis)


def geometric_mean(x: ArrayLike, eps: float = 0.0, form: str = "add", axis: int | None = None) -> float | np.ndarray:
    """Geometric mean of scores, with ε to keep zeros from sending it to 0.

    Parameters
    ----------
    x : array_like
        Per-topic scores, all >= 0.
    eps : float, default 0
        The ε. With ε = 0 any zero makes the mean 0.
    form : {"add", "floor", "zeros"}
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
    >>> round(geometric_mean([0.0, 0.4, 0.2, 0.4, 0.3], eps=1e-5, form="floor"), 3)
    0.039
    """
    return GM(eps=eps, form=form)(x, axis=axis)


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
    return HM(eps=eps)(x, axis=axis)


def median(x: ArrayLike, axis: int | None = None) -> float | np.ndarray:
    """Median of scores.

    Examples
    --------
    >>> median([0.0, 0.4, 0.2, 0.4, 0.3])
    0.3
    """
    return Median()(x, axis=axis)


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
        return log_odds_of(a, eps)


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
    return Logit(eps=eps)(x, axis=axis)
