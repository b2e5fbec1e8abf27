"""How consistently an average of per-topic scores orders a set of systems.

Ravana & Moffat (2009) split the topics of a collection into two random
halves, order the systems on each half by some average of their per-topic
scores, and compare the two orders with Kendall's τ. The more consistent the
average, the closer the τ values of many such splits sit to 1.

:func:`kendall_tau` is Kendall's τ-b for one pair of score vectors or for a
whole stack of them; :func:`draw_halves` draws the random halves;
:func:`split_half` runs the experiment for any mean; :func:`standardize` maps
scores to the standardized scores of Webber, Moffat & Zobel (2008).
"""

from __future__ import annotations

import numpy as np

from ._validation import float_array, whole_number
from .averages import parse_average
from .errors import IrmeansError

__all__ = ["kendall_tau", "draw_halves", "split_half", "standardize"]

# Rows of a stacked kendall_tau are processed in blocks of about this many
# values, which bounds the size of the temporary arrays.
_BLOCK_VALUES = 1 << 21


def _check_finite(a, name):
    float_array(a, name)


def kendall_tau(x, y):
    """Kendall's τ-b between two score vectors, or between stacks of them.

    τ-b = (C − D) / √((P − Tx)(P − Ty)), where P is the number of pairs of
    items, C and D the concordant and discordant pairs, and Tx, Ty the pairs
    tied in ``x`` and in ``y``. Without ties it is the usual τ. The value is
    that of ``scipy.stats.kendalltau(x, y).statistic``.

    Parameters
    ----------
    x, y : array_like, shape (..., n)
        Scores of the same n items under two orderings. Leading axes are a
        stack of independent comparisons (shapes must broadcast), so a whole
        experiment's worth of pairs is one call.

    Returns
    -------
    float or ndarray
        τ for each leading index; a float for 1-d input. τ is NaN where every
        item of ``x`` or of ``y`` has the same score (the order is undefined),
        as in scipy.

    Notes
    -----
    Each comparison is sorted by ``x`` (ties broken by ``y``) and the
    discordant pairs are counted as inversions of ``y``, the pair counts being
    done in numpy over all rows at once: O(n²) comparisons per row, with no
    Python loop over rows.

    Examples
    --------
    >>> round(kendall_tau([0.1, 0.4, 0.3, 0.8], [0.2, 0.5, 0.6, 0.7]), 6)  # 5 of 6 pairs agree
    0.666667
    >>> kendall_tau([[1, 2, 3], [1, 2, 3]], [[1, 2, 3], [3, 2, 1]])
    array([ 1., -1.])
    >>> round(kendall_tau([1, 1, 2, 3], [1, 2, 2, 3]), 6)  # ties in both: τ-b
    0.8
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.ndim == 0 or y.ndim == 0:
        raise IrmeansError("kendall_tau needs score vectors, got a scalar")
    try:
        x, y = np.broadcast_arrays(x, y)
    except ValueError:
        raise IrmeansError(f"x and y must have the same shape (..., n), got {x.shape} and {y.shape}") from None
    n = x.shape[-1]
    if n < 2:
        raise IrmeansError(f"kendall_tau needs at least 2 items to order, got {n}")
    _check_finite(x, "x")
    _check_finite(y, "y")

    lead = x.shape[:-1]
    xs = x.reshape(-1, n)
    ys = y.reshape(-1, n)
    out = np.empty(xs.shape[0])
    step = max(1, _BLOCK_VALUES // n)
    for start in range(0, xs.shape[0], step):
        out[start : start + step] = _tau_rows(xs[start : start + step], ys[start : start + step])
    if not lead:
        return float(out[0])
    return out.reshape(lead)


def _tied_pairs(same):
    """Pairs tied within runs, for each row: ``same[:, i]`` says item i+1 equals item i.

    A run of t equal items holds t(t − 1)/2 tied pairs; the sum is taken as
    the number of earlier run members of each item.
    """
    count = np.zeros(same.shape[0], dtype=np.int64)
    rows = same.any(axis=1)
    if rows.any():
        s = same[rows]
        idx = np.arange(s.shape[1] + 1)
        starts = np.where(np.concatenate([np.ones((s.shape[0], 1), bool), ~s], axis=1), idx, 0)
        count[rows] = (idx - np.maximum.accumulate(starts, axis=1)).sum(axis=1)
    return count


def _tau_rows(x, y):
    """τ-b for each row of two (rows, n) float arrays, checked and finite."""
    rows, n = x.shape
    # Sort by y, then stably by x: x ascending, y ascending within ties of x,
    # so every strict inversion of y is a discordant pair and nothing else is.
    by_y = np.argsort(y, axis=1)
    x1 = np.take_along_axis(x, by_y, axis=1)
    y_sorted = np.take_along_axis(y, by_y, axis=1)
    by_x = np.argsort(x1, axis=1, kind="stable")
    x_sorted = np.take_along_axis(x1, by_x, axis=1)

    same_y = y_sorted[:, 1:] == y_sorted[:, :-1]
    same_x = x_sorted[:, 1:] == x_sorted[:, :-1]
    # Dense ranks of y compare like the values themselves and fit a small
    # integer type, which makes the O(n²) comparisons below much cheaper.
    rank_type = np.int16 if n < np.iinfo(np.int16).max else np.int64
    y_rank = np.zeros((rows, n), dtype=rank_type)
    np.cumsum(~same_y, axis=1, out=y_rank[:, 1:])
    p = np.take_along_axis(y_rank, by_x, axis=1)

    x_ties = _tied_pairs(same_x)
    y_ties = _tied_pairs(same_y)
    both_ties = _tied_pairs(same_x & (p[:, 1:] == p[:, :-1]))

    # Discordant pairs: i < j with p[i] > p[j]. Row k of the accumulator
    # counts, for the item in position k, the later items ranked below it.
    pt = np.ascontiguousarray(p.T)
    later_below = np.zeros((n - 1, rows), dtype=rank_type)
    for gap in range(1, n):
        np.add(later_below[: n - gap], pt[: n - gap] > pt[gap:], out=later_below[: n - gap])
    discordant = later_below.sum(axis=0, dtype=np.int64)

    pairs = n * (n - 1) // 2
    con_minus_dis = pairs - x_ties - y_ties + both_ties - 2 * discordant
    # One square root of the product (in floats: it can pass 2**63 for very
    # long vectors) makes identical orders come out as exactly 1.
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = con_minus_dis / np.sqrt((pairs - x_ties).astype(np.float64) * (pairs - y_ties))
    tau[(x_ties == pairs) | (y_ties == pairs)] = np.nan
    return np.clip(tau, -1.0, 1.0)


def draw_halves(n_topics, n_splits, rng=None):
    """Random splits of the topics 0 … n_topics − 1 into two halves.

    Each split is a uniformly random permutation of the topics (the argsort
    of ``n_topics`` uniform draws from ``rng``); its first ``n_topics // 2``
    topics are the first half and the rest the second, so with an odd number
    of topics the second half has one more. Each half is returned sorted.

    Parameters
    ----------
    n_topics : int
        Number of topics, at least 2.
    n_splits : int
        Number of splits, at least 1.
    rng : numpy.random.Generator or int or None
        The generator, or a seed for ``numpy.random.default_rng``.

    Returns
    -------
    first, second : ndarray of int, shapes (n_splits, n_topics // 2) and (n_splits, n_topics - n_topics // 2)

    Examples
    --------
    >>> first, second = draw_halves(5, 3, rng=0)
    >>> first.shape, second.shape
    ((3, 2), (3, 3))
    >>> sorted(first[0].tolist() + second[0].tolist())
    [0, 1, 2, 3, 4]
    """
    n_topics = whole_number(n_topics, "n_topics", minimum=2)
    n_splits = whole_number(n_splits, "n_splits", minimum=1)
    rng = np.random.default_rng(rng)
    order = np.argsort(rng.random((n_splits, n_topics)), axis=1)
    h = n_topics // 2
    return np.sort(order[:, :h], axis=1), np.sort(order[:, h:], axis=1)


def _system_scores(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 2:
        raise IrmeansError(f"scores must be a 2-d systems × topics array, got shape {s.shape}")
    if s.shape[0] < 2 or s.shape[1] < 2:
        raise IrmeansError(f"scores needs at least 2 systems and 2 topics, got shape {s.shape}")
    _check_finite(s, "score")
    return s


def split_half(scores, average, n_splits=10_000, seed=None, *, chunk_size=500):
    """Kendall's τ between system orders on random halves of the topics.

    Each split takes the halves of :func:`draw_halves` (drawn all at once
    from ``numpy.random.default_rng(seed)``), averages every system's scores
    on each half with ``average`` and compares the two orders of the systems
    with :func:`kendall_tau`.

    Parameters
    ----------
    scores : array_like, shape (systems, topics)
        Per-topic scores, one row per system.
    average : Average or str
        The average, an :mod:`irmeans.averages` value such as ``GM(eps=0.01)``
        or its spec (``"gm:0.01"``).
    n_splits : int, default 10 000
        Number of random splits.
    seed : int or numpy.random.Generator, optional
        Seed of the random halves; the same seed gives the same τ values.
    chunk_size : int, default 500
        Splits averaged per call of ``average``; bounds memory, not the result.

    Returns
    -------
    ndarray, shape (n_splits,)
        τ of each split, in [−1, 1] (NaN if a half gives every system the same
        average).

    Examples
    --------
    >>> scores = [[0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.4, 0.5], [0.3, 0.4, 0.5, 0.6]]
    >>> split_half(scores, "am", n_splits=3, seed=1)
    array([1., 1., 1.])
    """
    average = parse_average(average)
    s = _system_scores(scores)
    chunk_size = whole_number(chunk_size, "chunk_size", minimum=1)
    first, second = draw_halves(s.shape[1], n_splits, np.random.default_rng(seed))
    # Indexing the topics × systems array gathers whole rows of systems,
    # which is much faster than picking single scores; the (chunk, systems,
    # half) view of the result is what the mean gets.
    by_topic = np.ascontiguousarray(s.T)
    taus = np.empty(first.shape[0])
    for start in range(0, len(taus), chunk_size):
        stop = start + chunk_size
        avg = [np.asarray(average(by_topic[half[start:stop]].transpose(0, 2, 1), axis=-1)) for half in (first, second)]
        taus[start:stop] = kendall_tau(avg[0], avg[1])
    return taus


def standardize(scores, *, reference=None, ddof=1, constant="raise"):
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
        score (σ = 0, z undefined): raise ``ValueError``, or give every
        system 0.5 on that topic.

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
    s = _system_scores(scores)
    r = s if reference is None else _system_scores(reference)
    if r.shape[1] != s.shape[1]:
        raise IrmeansError(f"reference has {r.shape[1]} topics but scores has {s.shape[1]}: they must share the topics")
    if constant not in ("raise", "half"):
        raise IrmeansError(f"constant must be 'raise' or 'half', got {constant!r}")
    ddof = whole_number(ddof, "ddof", minimum=0)
    if r.shape[0] <= ddof:
        raise IrmeansError(f"ddof={ddof} needs more than {ddof} reference systems, got {r.shape[0]}")
    mu = r.mean(axis=0)
    sd = r.std(axis=0, ddof=ddof)
    flat = sd == 0
    if flat.any() and constant == "raise":
        t = int(np.argmax(flat))
        raise IrmeansError(
            f"topic {t}: every reference system scores {float(r[0, t])!r}, so its standard deviation is 0 "
            "and the scores cannot be standardized; pass constant='half' to give them all 0.5"
        )
    z = (s - mu) / np.where(flat, 1.0, sd)
    from scipy.special import ndtr  # here, not at the top: `import irmeans` stays light for the CLI

    return np.where(flat, 0.5, ndtr(z))
