"""Per-topic views of a systems × topics score matrix: how hard each topic is, and standardized scores."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._numeric import flat
from .._validation import score_matrix, whole_number
from ..errors import IrmeansError

__all__ = ["DIFFICULTY", "DIFFICULTY_FROM", "topic_difficulty", "standardize"]

#: The definitions of topic difficulty :func:`topic_difficulty` knows.
DIFFICULTY = ("eq2", "eq1", "max")

#: Whose scores decide topic difficulty in a split-half experiment with averages of raw and of
#: standardized scores (:func:`irmeans.consistency.intervals.tau_intervals`): each average's own scores
#: (standardized for a ``std-`` average), the raw scores, or the standardized scores.
DIFFICULTY_FROM = ("own", "raw", "standardized")


def topic_difficulty(scores: ArrayLike, definition: str = "eq2") -> np.ndarray:
    """How hard each topic is, from the systems' scores on it: higher is harder.

    Parameters
    ----------
    scores : array_like, shape (systems, topics)
    definition : {"eq2", "eq1", "max"}
        ``"eq2"``: Ravana & Moffat's (2009) Equation 2, D = (max − mean) / sd
        of the topic's scores over the systems: a topic is hard when one
        system does surprisingly well on it compared with the rest. The sd is
        the sample standard deviation; any other choice scales every D alike
        and keeps their order. A topic on which every system scores the same
        (equal within irmeans' tolerance, see :mod:`irmeans._numeric`: the
        rounding of a computed score does not make a topic hard) has no such
        system and gets D = 0.
        ``"eq1"``: their Equation 1, D = 1 − mean.
        ``"max"``: D = 1 − max, hard when even the best system does poorly.

    Returns
    -------
    ndarray, shape (topics,)

    Examples
    --------
    >>> s = [[0.1, 0.5, 0.0], [0.2, 0.6, 0.0], [0.9, 0.7, 0.3]]
    >>> topic_difficulty(s).round(3).tolist()
    [1.147, 1.0, 1.155]
    >>> topic_difficulty(s, "eq1").round(3).tolist()
    [0.6, 0.4, 0.9]
    """
    s = score_matrix(scores)
    if definition == "eq1":
        return np.asarray(1.0 - s.mean(axis=0))
    if definition == "max":
        return np.asarray(1.0 - s.max(axis=0))
    if definition != "eq2":
        raise IrmeansError(f"definition must be one of {', '.join(DIFFICULTY)}, got {definition!r}")
    level = flat(s, axis=0)
    # (max − mean) / sd is the same for a topic's scores scaled by a power of two (exactly): scaled to below 1,
    # scores whose squares underflow (1e-170) or overflow (1e200) give the difficulty of ordinary ones
    with np.errstate(over="ignore"):
        s = s * np.ldexp(1.0, -np.frexp(np.abs(s).max(axis=0))[1])
    spread = s.max(axis=0) - s.mean(axis=0)
    sd = s.std(axis=0, ddof=1)
    return np.where(level, 0.0, spread / np.where(level | (sd == 0), 1.0, sd))


def standardize(
    scores: ArrayLike, *, reference: ArrayLike | None = None, ddof: int = 1, constant: str = "raise"
) -> np.ndarray:
    """Standardized scores of Webber, Moffat & Zobel (2008).

    On each topic every score becomes z = (score − μ) / σ, with μ and σ the
    mean and standard deviation of the topic's scores over the reference
    systems, and is then mapped through the standard normal CDF to (0, 1): a
    system at the topic's mean gets 0.5, one a standard deviation above it
    about 0.84, whatever the topic's difficulty.

    Parameters
    ----------
    scores : array_like, shape (systems, topics)
        Per-topic scores to standardize.
    reference : array_like, shape (reference systems, topics), optional
        The systems whose scores define μ and σ; by default ``scores`` itself.
    ddof : int, default 1
        Delta degrees of freedom of σ: 1 is the sample standard deviation,
        0 the population one.
    constant : {"raise", "half"}, default "raise"
        What to do with a topic on which every reference system has the same
        score (σ = 0, z undefined; scores equal within irmeans' tolerance count
        as the same, see :mod:`irmeans._numeric`): raise ``ValueError``, or give
        every system 0.5 on that topic.

    Returns
    -------
    ndarray, shape (systems, topics)
        Values strictly inside (0, 1) for moderate z; the normal CDF rounds
        to 0 or 1 only beyond about 8 standard deviations.

    Examples
    --------
    >>> standardize([[0.1, 0.5], [0.3, 0.5], [0.5, 0.8]]).round(4)
    array([[0.1587, 0.2819],
           [0.5   , 0.2819],
           [0.8413, 0.8759]])
    """
    s = score_matrix(scores)
    r = s if reference is None else score_matrix(reference)
    if r.shape[1] != s.shape[1]:
        raise IrmeansError(f"reference has {r.shape[1]} topics but scores has {s.shape[1]}: they must share the topics")
    if constant not in ("raise", "half"):
        raise IrmeansError(f"constant must be 'raise' or 'half', got {constant!r}")
    ddof = whole_number(ddof, "ddof", minimum=0)
    if r.shape[0] <= ddof:
        raise IrmeansError(f"ddof={ddof} needs more than {ddof} reference systems, got {r.shape[0]}")
    # z is the same for a topic's scores scaled by a power of two (exactly): scaled to below 1, scores near
    # the largest double do not overflow the mean and the standard deviation
    scale = np.ldexp(1.0, -np.frexp(np.abs(r).max(axis=0))[1])
    with np.errstate(over="ignore"):  # a score far above the reference's: z is infinite, its CDF 1
        r, s = r * scale, s * scale
    mu = r.mean(axis=0)
    sd = r.std(axis=0, ddof=ddof)
    level = flat(r, axis=0)
    if level.any() and constant == "raise":
        t = int(np.argmax(level))
        raise IrmeansError(
            f"topic {t}: every reference system scores {float(r[0, t] / scale[t])!r}, so its standard deviation is 0 "
            "and the scores cannot be standardized; pass constant='half' to give them all 0.5"
        )
    z = (s - mu) / np.where(level | (sd == 0), 1.0, sd)
    from scipy.special import ndtr  # here, not at the top: `import irmeans` stays light for the CLI

    return np.where(level, 0.5, ndtr(z))
