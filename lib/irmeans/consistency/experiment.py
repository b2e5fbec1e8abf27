"""The split-half experiment: how consistently an average of per-topic scores orders a set of systems.

Ravana & Moffat (2009) split the topics of a collection into two random
halves, order the systems on each half by some average of their per-topic
scores, and compare the two orders with Kendall's τ. The more consistent the
average, the closer the τ values of many such splits sit to 1.

:func:`split_half` runs the experiment for any average and :func:`halves_tau`
evaluates given halves, with Kendall's τ of :mod:`.kendall` and the halves of
:mod:`.halves`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._numeric import equal_steps
from .._validation import as_array, check_memory, random_generator, score_matrix, split_count, whole_number
from ..averages import Average, parse_average
from ..errors import IrmeansError
from .halves import _random_halves
from .kendall import _dense_ranks, _rank_type, _scatter_ranks, _tau_from_ranks

__all__ = ["halves_tau", "split_half"]

# Splits are evaluated (by default) in chunks of about this many scores, splits ×
# systems × topics: memory stays bounded whatever the number of splits or
# systems. An average without sums to order them by (the median) takes every
# score of a chunk's halves at once; its chunks are smaller, which keeps them in
# the processor's caches (faster).
_CHUNK_VALUES = 1 << 22
_AVERAGED_CHUNK_VALUES = 1 << 20


def _monotone_form(average: Average, s: np.ndarray) -> np.ndarray | None:
    """The elementwise transform g for which ``average`` is a strictly increasing function of mean(g(x)).

    So the order of the systems by ``average`` on a half is their order by the sum of g
    over the half, which one matrix product gives for every split at once (see
    :meth:`irmeans.averages.Average.transform`). ``None`` for an average without such a
    form (the median), where g would not be finite on these scores, or where means of g
    would not map back to averages with their digits (:meth:`~irmeans.averages.Average.maps_back`).
    """
    g = average.on_scale(s)
    return g if g is not None and average.maps_back(g) else None


def _half_averages(by_topic: np.ndarray, average: Average, halves: np.ndarray) -> np.ndarray:
    """``average`` of every system on each half: (splits, systems), as the average itself computes it."""
    return _averages_of(by_topic[halves], average)


def _averages_of(x: np.ndarray, average: Average) -> np.ndarray:
    """``average`` over the topics of x, shape (splits, topics of a half, systems): (splits, systems).

    Every caller hands over this layout (systems innermost, each average taken
    along the topics), so each value comes out of the same arithmetic.
    """
    return np.asarray(average(x.transpose(0, 2, 1), axis=-1))


def halves_tau(
    scores: ArrayLike, average: Average | str, first: ArrayLike, second: ArrayLike, *, chunk_size: int | None = None
) -> np.ndarray:
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
        or :func:`difficulty_halves`). A topic may be in a half more than once
        (the halves of a resample of the topics, as the bootstrap of
        :func:`irmeans.consistency.intervals.tau_intervals` makes): it counts as often.
    chunk_size : int, optional
        Splits handled per step; bounds memory, not the result. By default
        about four million scores' worth (splits × systems × topics).

    Returns
    -------
    ndarray, shape (splits,)

    Notes
    -----
    Most averages (AM, εGM in all its forms, εHM, the logit mean) are a
    strictly increasing function of the mean of some transform g of the
    scores (log(x + ε) for the εGM), so they order the systems as the sum of
    g over the half does; those sums come from one matrix product for all
    splits. Systems whose averages, mapped back from those sums, come close to
    each other are averaged with ``average`` itself and ordered by those
    averages; two averages of a half are tied when they are equal within
    irmeans' tolerance (they differ by at most 1e-12 of the largest average on
    the half, see :mod:`irmeans._numeric`), so that the rounding of a sum, which
    depends on the order of its terms and on how the matrix product is blocked,
    neither makes nor breaks a tie. Every split of the median is averaged in
    full. Systems with identical scores on every topic are averaged once. τ is
    counted in O(n log n) for n systems (see :func:`kendall_tau`).

    Examples
    --------
    >>> s = [[0.1, 0.2, 0.3, 0.4], [0.2, 0.1, 0.4, 0.3], [0.3, 0.4, 0.5, 0.6]]
    >>> halves_tau(s, "am", [[0, 1], [0, 2]], [[2, 3], [1, 3]]).round(3).tolist()
    [1.0, 0.333]
    """
    average = parse_average(average)
    s = score_matrix(scores)
    if chunk_size is not None:
        chunk_size = whole_number(chunk_size, "chunk_size", minimum=1)
    halves = []
    for name, h in (("first", first), ("second", second)):
        h = as_array(h, name)
        if h.ndim != 2 or h.shape[1] < 1 or not np.issubdtype(h.dtype, np.integer):
            raise IrmeansError(f"{name} must be a 2-d array of topic indices (splits, topics), got shape {h.shape}")
        if h.size and (h.min() < 0 or h.max() >= s.shape[1]):
            raise IrmeansError(f"{name} holds a topic index outside 0 … {s.shape[1] - 1}")
        halves.append(h)
    if halves[0].shape[0] != halves[1].shape[0]:
        raise IrmeansError(f"first has {halves[0].shape[0]} splits but second {halves[1].shape[0]}")
    taus = np.empty(halves[0].shape[0])
    _HalvesTau(s, average, chunk_size)(halves[0], halves[1], taus)
    return taus


class _HalvesTau:
    """τ of one average between the system orders on pairs of halves, set up once for any number of splits.

    ``scores`` are a checked score matrix (:func:`irmeans._validation.score_matrix`) and
    ``average`` a parsed one; the average's own checks run here. Calling it with blocks of halves fills
    their τ in ``out`` (see :func:`halves_tau`), ``chunk_size`` splits at a time.
    """

    def __init__(self, scores: np.ndarray, average: Average, chunk_size: int | None = None):
        self.average = average
        # The average's own checks (zeros for an HM without ε, scores outside [0, 1] for the logit...).
        average(scores, axis=1)
        # Identical systems get identical averages: average the distinct ones, expand at the end.
        self.distinct, back = np.unique(scores, axis=0, return_inverse=True)
        self.back = back.ravel()
        self.by_topic = np.ascontiguousarray(self.distinct.T)
        g = _monotone_form(average, self.distinct)
        self.g_by_topic = None if g is None else np.ascontiguousarray(g.T)
        if chunk_size is None:
            values = _CHUNK_VALUES if g is not None else _AVERAGED_CHUNK_VALUES
            chunk_size = max(1, values // scores.size)
        self.chunk_size = chunk_size

    def __call__(
        self, first: np.ndarray, second: np.ndarray, out: np.ndarray, progress: Callable[[int], object] | None = None
    ) -> np.ndarray:
        """τ of each split (rows of ``first`` and ``second``) into ``out``; ``progress(k)`` after each k splits."""
        step = self.chunk_size
        for start in range(0, len(out), step):
            part = (first[start : start + step], second[start : start + step])
            if self.g_by_topic is None:
                ranks = [_dense_ranks(_half_averages(self.by_topic, self.average, h)) for h in part]
            else:
                ranks = [_ranks_by_sums(self.distinct, self.by_topic, self.g_by_topic, self.average, h) for h in part]
            out[start : start + step] = _tau_from_ranks(ranks[0][:, self.back], ranks[1][:, self.back])
            if progress is not None:
                progress(len(part[0]))
        return out


# Neighbours in the order of the sums whose averages, mapped back from the sums, are within
# this share of the half's largest average (or of ε, where the map back subtracts it) are
# averaged again by the average itself: far above the rounding of the sums and of the map
# back, so that every pair of systems tied within TOLERANCE (1e-12) is looked at again.
_CLOSE = 1e-9

# Rows of a matrix product per BLAS call in _products: the m·n·k of each call stays below
# the size from which OpenBLAS splits a product over threads.
_PRODUCT_VALUES = 200_000


def _products(pick: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``pick @ g`` in blocks small enough for the BLAS to use one thread.

    On a busy machine a second BLAS thread, left spinning after each product,
    slows down all the numpy work that follows; one-thread blocks cost a few
    milliseconds for 10,000 splits.  Blocks are rows of ``pick`` while a row's product is
    small enough, else columns of ``g`` too (10,000 systems: a product of one row each
    would be a matrix-vector product, several times slower than a few rows at once).  A
    block's sums may differ in the last bit from the whole product's (the BLAS adds in
    another order): nothing here depends on it.
    """
    m, k = pick.shape
    n = g.shape[1]
    if m * k * n <= _PRODUCT_VALUES:
        return np.asarray(pick @ g)
    out = np.empty((m, n))
    rows = max(1, _PRODUCT_VALUES // (k * n))
    if rows > 1 or k * n <= _PRODUCT_VALUES:
        for start in range(0, m, rows):
            np.matmul(pick[start : start + rows], g, out=out[start : start + rows])
        return out
    rows = min(m, max(1, _PRODUCT_VALUES // (k * 256)))  # a row is too long: columns of g blocked too
    columns = max(1, _PRODUCT_VALUES // (rows * k))
    for start in range(0, m, rows):
        for at in range(0, n, columns):
            np.matmul(
                pick[start : start + rows], g[:, at : at + columns], out=out[start : start + rows, at : at + columns]
            )
    return out


def _ranks_by_sums(
    distinct: np.ndarray, by_topic: np.ndarray, g_by_topic: np.ndarray, average: Average, halves: np.ndarray
) -> np.ndarray:
    """Dense ranks of the distinct systems by ``average`` on each half, from the sums of g over the half.

    Systems whose averages, mapped back from the sums (:meth:`Average.from_mean`), are
    within :data:`_CLOSE` of each other are ordered and tied by ``average`` itself
    (:func:`_order_near_ties`).
    """
    n_splits, n_topics = halves.shape
    # How many times each topic is in each half: once, or more in a resample of the topics.
    cells = (np.arange(n_splits)[:, None] * by_topic.shape[0] + halves).ravel()
    pick = np.bincount(cells, minlength=n_splits * by_topic.shape[0]).reshape(n_splits, -1).astype(np.float64)
    sums = _products(pick, g_by_topic)
    order = _order_within_rounding(sums)
    srt = sums.ravel()[order + (np.arange(n_splits) * sums.shape[1])[:, None]]
    gap = np.diff(srt, axis=1)
    swapped = (gap < 0).any(axis=1)
    if swapped.any():
        # Values closer than the order's rounding, out of order: a stable sort of those
        # nearly sorted rows (a merge of short runs) puts them in order.
        part = slice(None) if swapped.all() else np.flatnonzero(swapped)
        fix = np.argsort(srt[part], axis=1, kind="stable")
        order[part] = np.take_along_axis(order[part], fix, axis=1)
        srt[part] = np.take_along_axis(srt[part], fix, axis=1)
        gap[part] = np.diff(srt[part], axis=1)
    # Neighbours this close are ordered, and tied, by the averages themselves: the sums'
    # rounding, and the map back from them, could differ from the average's own arithmetic.
    approx = average.from_mean(srt / n_topics)
    scale = np.maximum(np.abs(approx[:, :1]), np.abs(approx[:, -1:])) + min(getattr(average, "eps", 0.0), 1.0)
    close = (gap <= _CLOSE * (1.0 + np.abs(srt).max(axis=1))[:, None]) | (np.diff(approx, axis=1) <= _CLOSE * scale)
    step = np.ones(gap.shape, dtype=bool)
    redo = np.flatnonzero(close.any(axis=1))
    if len(redo):
        order[redo], tied = _order_near_ties(by_topic, average, halves[redo], order[redo], close[redo])
        step[redo] = True
        step[redo[tied[0]], tied[1] - 1] = False
    return _scatter_ranks(order, step, _rank_type(sums.shape[1]))


def _order_within_rounding(v: np.ndarray) -> np.ndarray:
    """An order of each row of finite floats, exact but between values less than 2**-31 of their size apart.

    The values' bits, as integers in the same order, lose their lowest bits
    to the item's position, and one integer sort (much faster than an argsort
    of floats on short rows) gives the order. Values that close may come out
    in either order (the caller checks). Rows of more than 2**20 items get an
    exact argsort.
    """
    rows, n = v.shape
    bits = max(1, (n - 1).bit_length())
    if bits > 20:
        return np.argsort(v, axis=1)
    key = v.view(np.int64)
    key = key ^ ((key >> 63) & np.int64(0x7FFFFFFFFFFFFFFF))  # negative floats count down
    key >>= bits
    key <<= bits
    key |= np.arange(n)
    key.sort(axis=1)
    return np.asarray(key & ((1 << bits) - 1))


def _order_near_ties(
    by_topic: np.ndarray, average: Average, halves: np.ndarray, order: np.ndarray, close: np.ndarray
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Systems ordered by ``average`` itself where their sums are close.

    ``order`` sorts each split's systems by their sums; ``close`` marks the
    neighbours in that order whose sums are close. A system apart from its
    neighbours keeps its place (its average is as far from theirs as its
    sum); each run of close systems gets the averages ``average`` computes
    and is sorted by them. Two neighbours of a run are tied when their
    averages are equal within the tolerance of the half (:mod:`irmeans._numeric`:
    its scale is the largest magnitude among the half's averages, which the
    first and the last system of the order hold, so they are averaged too).
    Returns the new order (``order``, rewritten) and the places (rows,
    positions) tied with the place before.
    """
    rows, n = order.shape
    member = np.zeros((rows, n), dtype=bool)
    member[:, 1:] = close
    member[:, :-1] |= close
    member[:, [0, -1]] = True
    flat = np.flatnonzero(member)  # row by row, in the order of the sums
    r, i = np.divmod(flat, n)
    per_row = np.bincount(r, minlength=rows)
    slot = np.arange(len(flat)) - (np.cumsum(per_row) - per_row)[r]
    systems = order.ravel()[flat]
    # The averages of each split's close systems, laid out as _half_averages lays out
    # every system (a row with fewer such systems than the longest padded with one of them).
    padded = np.full((rows, per_row.max()), systems[0])
    padded[r, slot] = systems
    picked = by_topic.ravel()[halves[:, :, None] * by_topic.shape[1] + padded[:, None, :]]
    values = _averages_of(picked, average)[r, slot]
    # Runs of close systems: a new run wherever a system is not close to the one before.
    new_run = np.ones(len(flat), dtype=bool)
    inside = i > 0
    new_run[inside] = ~close.ravel()[r[inside] * (n - 1) + i[inside] - 1]
    run = np.cumsum(new_run)
    # Each split's close systems sorted by their averages: a stable sort of the row, which
    # the sums have put nearly in order. Runs are far apart, so it keeps each run in its
    # places; were two runs to overlap, a sort within runs (lexsort) decides.
    by_value = np.full(padded.shape, np.inf)
    by_value[r, slot] = values
    by_value = np.argsort(by_value, axis=1, kind="stable")[r, slot] + (np.cumsum(per_row) - per_row)[r]
    if (np.diff(run[by_value]) < 0).any():
        by_value = np.lexsort((values, run))
    order.ravel()[flat] = systems[by_value]
    values = values[by_value]
    scale = np.zeros(rows)
    np.maximum.at(scale, r, np.abs(values))
    tied = np.flatnonzero(~new_run[1:] & equal_steps(values[1:] - values[:-1], scale[r[1:]])) + 1
    return order, (r[tied], i[tied])


def split_half(
    scores: ArrayLike,
    average: Average | str,
    n_splits: int = 10_000,
    seed: int | np.random.Generator | None = None,
    *,
    chunk_size: int | None = None,
) -> np.ndarray:
    """Kendall's τ between system orders on random halves of the topics.

    Each split takes the halves of :func:`draw_halves` (from
    ``numpy.random.default_rng(seed)``), averages every system's scores
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
        Number of random splits, at most a billion.
    seed : int or numpy.random.Generator, optional
        Seed of the random halves (a whole number >= 0); the same seed gives the same τ values.
    chunk_size : int, optional
        Splits handled per step; bounds memory, not the result (see
        :func:`halves_tau`).

    Returns
    -------
    ndarray, shape (n_splits,)
        τ of each split, in [−1, 1] (NaN if a half gives every system the same
        average).

    Notes
    -----
    The halves are drawn and evaluated block by block, so that memory does
    not grow with ``n_splits`` beyond the 8 bytes of each split's τ; they
    are the same halves, and the same τ, as :func:`halves_tau` of
    :func:`draw_halves` with the same seed.

    Examples
    --------
    >>> scores = [[0.1, 0.2, 0.3, 0.4], [0.2, 0.3, 0.4, 0.5], [0.3, 0.4, 0.5, 0.6]]
    >>> split_half(scores, "am", n_splits=3, seed=1)
    array([1., 1., 1.])
    """
    s = score_matrix(scores)
    n_splits = split_count(n_splits)
    (taus,) = _split_half_taus([(s, average)], n_splits, seed, chunk_size=chunk_size)
    return taus


def _split_half_taus(
    experiments: Sequence[tuple[ArrayLike, Average | str]],
    n_splits: int,
    seed: int | np.random.Generator | None,
    *,
    chunk_size: int | None = None,
    progress: Callable[[int], object] | None = None,
) -> list[np.ndarray]:
    """τ of several (scores, average) pairs over the same random splits: a list of arrays, one per pair.

    Every pair's scores must have the same topics. The halves are drawn block
    by block (:func:`_random_halves`) and each block goes to every pair before
    the next is drawn, so memory is bounded whatever ``n_splits``. ``progress(k)``
    is called after each k splits of one pair.
    """
    evaluators = []
    for scores, average in experiments:
        scores = score_matrix(scores)
        average = parse_average(average)
        if chunk_size is not None:
            chunk_size = whole_number(chunk_size, "chunk_size", minimum=1)
        evaluators.append(_HalvesTau(scores, average, chunk_size))
    n_topics = {e.by_topic.shape[0] for e in evaluators}
    if len(n_topics) != 1:
        raise IrmeansError(f"the score matrices have different numbers of topics: {sorted(n_topics)}")
    rng = random_generator(seed)
    check_memory(8 * n_splits * len(evaluators), f"the τ of {n_splits:,} splits")
    taus = [np.empty(n_splits) for _ in evaluators]
    for start, first, second in _random_halves(n_topics.pop(), n_splits, rng):
        for evaluate, t in zip(evaluators, taus):
            evaluate(first, second, t[start : start + len(first)], progress)
    return taus
