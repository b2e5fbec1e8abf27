"""irmeans' split-half experiment as it was before the O(n log n) τ and the blocks: the reference of the benchmark.

A copy of ``irmeans.consistency`` at the commit before that work (``draw_halves``,
``halves_tau``, ``split_half`` and their helpers, unchanged but for the imports):
Kendall's τ-b with its discordant pairs counted in O(n²) byte comparisons per
split, all splits' halves drawn at once. ``benchmarks/bench_split_half.py`` times
it against the library and checks that both give the same τ, bit for bit. Not
part of the library.
"""

from __future__ import annotations

import numpy as np
from irmeans._numeric import dense_ranks
from irmeans.averages import AM, GM, HM, Average, Logit, Median, parse_average
from irmeans.errors import IrmeansError

# The argument checks and the log-odds of that commit, kept here so that the reference does not
# change when the library's private helpers do.


def whole_number(value, name, *, minimum=None):
    if isinstance(value, bool) or int(value) != value or (minimum is not None and value < minimum):
        raise IrmeansError(f"{name} must be a whole number" + (f" >= {minimum}" if minimum is not None else ""))
    return int(value)


def float_array(x, name):
    a = np.asarray(x, dtype=np.float64)
    if not np.isfinite(a).all():
        raise IrmeansError(f"{name}: values must be finite numbers")
    return a


def _log_odds(a, eps):
    return np.log(a + eps) - np.log1p(-a + eps)


def _check_finite(a, name):
    float_array(a, name)


def _tied_pairs_of_ranks(r):
    """Pairs of equal values in each row of non-negative integers below the row length: Σ c(c − 1)/2 over values."""
    rows, n = r.shape
    counts = np.bincount((r + (np.arange(rows) * (n + 1))[:, None]).ravel(), minlength=rows * (n + 1))
    counts = counts.reshape(rows, n + 1)
    return (counts * (counts - 1) // 2).sum(axis=1)


def _rank_type(n):
    """An integer type for ranks 0 … n − 1 that numpy sorts fast (its uint8 row sorts are slow)."""
    return np.int16 if n < np.iinfo(np.int16).max else np.int64


def _scatter_dense_ranks(order, sorted_values, rank_type):
    """Dense ranks (0 for the smallest) from each row's sorting ``order`` and its sorted values."""
    rows, n = order.shape
    dense = np.empty((rows, n), dtype=rank_type)
    dense[:, 0] = 0
    dense[:, 1:] = np.cumsum(sorted_values[:, 1:] != sorted_values[:, :-1], axis=1, dtype=np.int32)
    rank = np.empty((rows, n), dtype=rank_type)
    # Flat indices (row offset + position) are much faster than put_along_axis.
    rank.ravel()[order + (np.arange(rows) * n)[:, None]] = dense
    return rank


def _dense_ranks(v):
    """Dense ranks of each row of a float array: equal values get equal ranks.

    "Equal" is the library's one rule, equal within its tolerance
    (``irmeans._numeric.dense_ranks``): the reference ties what the library ties, so
    the benchmark compares the two ways of counting pairs, not two rules for ties.
    """
    return dense_ranks(v).astype(_rank_type(v.shape[1]))


def _tau_rows(x, y):
    """τ-b for each row of two (rows, n) float arrays, checked and finite."""
    return _tau_from_ranks(_dense_ranks(x), _dense_ranks(y))


def _tau_from_ranks(rx, ry):
    """τ-b for each row of two (rows, n) arrays of dense ranks (as from :func:`_dense_ranks`)."""
    rows, n = rx.shape
    # The comparisons below are cheapest on the smallest type that holds the ranks and counts.
    rank_type = np.uint8 if n < 255 else _rank_type(n)
    # Sort each row by x, then y: one sort of a combined integer key. Within
    # tied x the y are then ascending, so every strict inversion of y is a
    # discordant pair and nothing else is.
    if n < 255:
        key = np.sort((rx.astype(np.int32) << 8) | ry.astype(np.int32), axis=1)
        p = (key & 255).astype(np.uint8)
    else:
        key = np.sort(rx.astype(np.int64) * n + ry, axis=1)
        p = (key % n).astype(rank_type)
    x_ties = _tied_pairs_of_ranks(rx)
    y_ties = _tied_pairs_of_ranks(ry)
    # Pairs tied in both: runs of equal keys, counted by the dense rank of the sorted keys.
    runs = np.zeros((rows, n), dtype=np.int32)
    np.cumsum(key[:, 1:] != key[:, :-1], axis=1, out=runs[:, 1:])
    both_ties = _tied_pairs_of_ranks(runs)

    # Discordant pairs: i < j with p[i] > p[j]. Row k of the accumulator
    # counts, for the item in position k, the later items ranked below it.
    pt = np.ascontiguousarray(p.T)
    later_below = np.zeros((n - 1, rows), dtype=rank_type)
    below = np.empty((n - 1, rows), dtype=bool)
    for gap in range(1, n):
        m = n - gap
        np.greater(pt[:m], pt[gap:], out=below[:m])
        np.add(later_below[:m], below[:m].view(np.uint8), out=later_below[:m], casting="unsafe")
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


def _monotone_form(average, s):
    """The elementwise transform g for which ``average`` is a strictly increasing function of mean(g(x)).

    So the order of the systems by ``average`` on a half is their order by
    the sum of g over the half, which one matrix product gives for every
    split at once. ``None`` for an average without such a form (the median),
    or where g would not be finite on these scores.
    """
    eps = getattr(average, "eps", 0.0)
    with np.errstate(divide="ignore"):
        if isinstance(average, AM):
            g = s
        elif isinstance(average, GM):
            if average.form == "floor":
                g = np.log(np.maximum(s, eps))
            elif average.form == "zeros":
                g = np.log(np.where(s == 0, eps, s))
            else:
                g = np.log1p(s / eps) if eps > 1 else np.log(s + eps)
        elif isinstance(average, HM):
            g = -1.0 / (s + eps)
        elif isinstance(average, Logit):
            g = _log_odds(s, eps)
            # Far out in the log-odds the map back to a score saturates at 0 or 1.
            if np.abs(g).max() > 30:
                return None
        else:
            return None
    return g if np.isfinite(g).all() else None


def _half_averages(by_topic, average, halves):
    """``average`` of every system on each half: (splits, systems), as the average itself computes it."""
    if isinstance(average, Median):
        # np.median's own values (the middle score, or the mean of the two middle
        # ones), from one sort of each half: much faster than its partitions here.
        x = np.sort(by_topic[halves].transpose(0, 2, 1), axis=-1)
        h = x.shape[-1]
        return x[..., h // 2] if h % 2 else (x[..., h // 2 - 1] + x[..., h // 2]) / 2
    return np.asarray(average(by_topic[halves].transpose(0, 2, 1), axis=-1))


def halves_tau(scores, average: Average | str, first, second, *, chunk_size: int = 500) -> np.ndarray:
    """Kendall's τ between the system orders on given pairs of topic halves.

    For each split k the systems are averaged with ``average`` over the
    topics ``first[k]`` and over ``second[k]``, and τ-b compares the two
    orders. The result is exactly τ-b of those averages as ``average``
    computes them (``scipy.stats.kendalltau`` of them, to rounding).

    Parameters
    ----------
    scores : array_like, shape (systems, topics)
    average : Average or str
        An :mod:`irmeans.averages` value or its spec.
    first, second : array_like of int, shape (splits, h1) and (splits, h2)
        Topic indices of each split's two halves (as from :func:`draw_halves`
        or :func:`difficulty_halves`).
    chunk_size : int, default 500
        Splits handled per step; bounds memory, not the result.

    Returns
    -------
    ndarray, shape (splits,)

    Notes
    -----
    Most averages (AM, εGM in all its forms, εHM, the logit mean) are a
    strictly increasing function of the mean of some transform g of the
    scores (log(x + ε) for the εGM), so they order the systems as the sum of
    g over the half does; those sums come from one matrix product for all
    splits. A split in which two distinct systems come within rounding of
    each other is recomputed with ``average`` itself, so that ties are those
    of the average's own arithmetic; so is every split for the median.
    Systems with identical scores on every topic are averaged once.

    Examples
    --------
    >>> s = [[0.1, 0.2, 0.3, 0.4], [0.2, 0.1, 0.4, 0.3], [0.3, 0.4, 0.5, 0.6]]
    >>> halves_tau(s, "am", [[0, 1], [0, 2]], [[2, 3], [1, 3]]).round(3).tolist()
    [1.0, 0.333]
    """
    average = parse_average(average)
    s = _system_scores(scores)
    chunk_size = whole_number(chunk_size, "chunk_size", minimum=1)
    halves = []
    for name, h in (("first", first), ("second", second)):
        h = np.asarray(h)
        if h.ndim != 2 or h.shape[1] < 1 or not np.issubdtype(h.dtype, np.integer):
            raise IrmeansError(f"{name} must be a 2-d array of topic indices (splits, topics), got shape {h.shape}")
        if h.size and (h.min() < 0 or h.max() >= s.shape[1]):
            raise IrmeansError(f"{name} holds a topic index outside 0 … {s.shape[1] - 1}")
        halves.append(h)
    if halves[0].shape[0] != halves[1].shape[0]:
        raise IrmeansError(f"first has {halves[0].shape[0]} splits but second {halves[1].shape[0]}")
    # The average's own checks (zeros for an HM without ε, scores outside [0, 1] for the logit...).
    average(s, axis=1)

    # Identical systems get identical averages: average the distinct ones, expand at the end.
    distinct, back = np.unique(s, axis=0, return_inverse=True)
    back = back.ravel()
    by_topic = np.ascontiguousarray(distinct.T)
    g = _monotone_form(average, distinct)
    g_by_topic = None if g is None else np.ascontiguousarray(g.T)
    taus = np.empty(halves[0].shape[0])
    for start in range(0, len(taus), chunk_size):
        part = [h[start : start + chunk_size] for h in halves]
        if g_by_topic is None:
            ranks = [_dense_ranks(_half_averages(by_topic, average, h)) for h in part]
        else:
            ranks = [_ranks_by_sums(distinct, by_topic, g_by_topic, average, h) for h in part]
        taus[start : start + chunk_size] = _tau_from_ranks(ranks[0][:, back], ranks[1][:, back])
    return taus


# Rows of a matrix product per BLAS call in _products: the m·n·k of each call stays below
# the size from which OpenBLAS splits a product over threads.
_PRODUCT_VALUES = 200_000


def _products(pick, g):
    """``pick @ g`` in blocks of rows small enough for the BLAS to use one thread.

    On a busy machine a second BLAS thread, left spinning after each product,
    slows down all the numpy work that follows; one-thread blocks cost a few
    milliseconds for 10,000 splits.
    """
    step = max(1, _PRODUCT_VALUES // (g.shape[0] * g.shape[1]))
    if step >= pick.shape[0]:
        return pick @ g
    out = np.empty((pick.shape[0], g.shape[1]))
    for start in range(0, pick.shape[0], step):
        np.matmul(pick[start : start + step], g, out=out[start : start + step])
    return out


def _ranks_by_sums(distinct, by_topic, g_by_topic, average, halves):
    """Dense ranks of the distinct systems by ``average`` on each half, from the sums of g over the half.

    Two systems whose sums are within rounding of each other are tied only
    if their scores on the half are the same; any other near tie sends its
    split to the average itself.
    """
    n_splits, n_topics = halves.shape
    pick = np.zeros((n_splits, by_topic.shape[0]))
    np.put_along_axis(pick, halves, 1.0, axis=1)
    sums = _products(pick, g_by_topic)
    order = np.argsort(sums, axis=1)
    srt = sums.ravel()[order + (np.arange(n_splits) * sums.shape[1])[:, None]]
    gap = np.diff(srt, axis=1)
    near = gap <= 1e-9 * (1.0 + np.abs(srt).max(axis=1))[:, None]
    if near.any():
        # Exactly equal sums of systems with equal scores on the half are true ties.
        k, i = np.nonzero(near & (gap == 0))
        a, b = order[k, i], order[k, i + 1]
        differ = ((distinct[a] != distinct[b]) & (pick[k] == 1)).any(axis=1)
        near[k[~differ], i[~differ]] = False
    redo = near.any(axis=1)
    ranks = _scatter_dense_ranks(order, srt, _rank_type(sums.shape[1]))
    if redo.any():
        ranks[redo] = _dense_ranks(_half_averages(by_topic, average, halves[redo]))
    return ranks


def split_half(
    scores, average: Average | str, n_splits: int = 10_000, seed=None, *, chunk_size: int = 500
) -> np.ndarray:
    """Kendall's τ between system orders on random halves of the topics.

    Each split takes the halves of :func:`draw_halves` (drawn all at once
    from ``numpy.random.default_rng(seed)``), averages every system's scores
    on each half with ``average`` and compares the two orders of the systems
    with :func:`kendall_tau` (see :func:`halves_tau`). The same seed gives
    the same splits for every average, so averages can be compared split by
    split.

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
        Splits handled per step; bounds memory, not the result.

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
    s = _system_scores(scores)
    first, second = draw_halves(s.shape[1], n_splits, np.random.default_rng(seed))
    return halves_tau(s, average, first, second, chunk_size=chunk_size)
