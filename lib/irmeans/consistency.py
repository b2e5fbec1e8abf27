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
from .averages import Average, Logit, Median, parse_average
from .errors import IrmeansError

__all__ = [
    "kendall_tau",
    "draw_halves",
    "halves_tau",
    "split_half",
    "DIFFICULTY",
    "SPLIT_KINDS",
    "topic_difficulty",
    "difficulty_halves",
    "make_halves",
    "standardize",
]

# Rows of a stacked kendall_tau are processed in blocks of about this many
# values, which bounds the size of the temporary arrays.
_BLOCK_VALUES = 1 << 21

# Splits are evaluated (by default) in chunks of about this many scores, splits ×
# systems × topics, and random halves drawn in blocks of this many topic draws:
# memory stays bounded whatever the number of splits or systems. An average without
# sums to order them by (the median) takes every score of a chunk's halves at once;
# its chunks are smaller, which keeps them in the processor's caches (faster).
_CHUNK_VALUES = 1 << 22
_AVERAGED_CHUNK_VALUES = 1 << 20
_DRAW_VALUES = 1 << 20

# The pair counts of τ go through rows in blocks of about this many values, so
# that their temporaries stay in the processor's caches.
_TAU_BLOCK_VALUES = 1 << 18

# Rows of at most this many items have their discordant pairs counted pair by
# pair (O(n²) byte comparisons: fastest for short rows); longer rows are split
# by bits (O(n log n)) into blocks of _PAIRWISE_BLOCK values counted pair by pair.
_PAIRWISE_ITEMS = 256
_PAIRWISE_BLOCK = 64


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
    Knight's (1966) method: each comparison is ordered by ``x`` (ties broken
    by ``y``) and the discordant pairs are the inversions of ``y`` in that
    order. They are counted in O(n log n) per row, by splitting the ranks bit
    by bit from the highest (a merge sort run backwards), in numpy over all
    rows at once: one Python step per bit, none per row. Short vectors (up to
    256 items) are counted pair by pair in bytes, which is faster there. All
    counts are exact integers; only the final ratio is a float.

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


def _rank_type(n):
    """An integer type for ranks 0 … n − 1 that numpy sorts fast (its uint8 row sorts are slow)."""
    return np.int16 if n < np.iinfo(np.int16).max else np.int64


def _scatter_dense_ranks(order, sorted_values, rank_type):
    """Dense ranks (0 for the smallest) from each row's sorting ``order`` and its sorted values."""
    return _scatter_ranks(order, sorted_values[:, 1:] != sorted_values[:, :-1], rank_type)


def _scatter_ranks(order, step, rank_type):
    """Dense ranks from each row's sorting ``order`` and where, in that order, the value goes up (``step``)."""
    rows, n = order.shape
    dense = np.empty((rows, n), dtype=rank_type)
    dense[:, 0] = 0
    dense[:, 1:] = np.cumsum(step, axis=1, dtype=np.int32)
    rank = np.empty((rows, n), dtype=rank_type)
    # Flat indices (row offset + position) are much faster than put_along_axis.
    rank.ravel()[order + (np.arange(rows) * n)[:, None]] = dense
    return rank


def _dense_ranks(v):
    """Dense ranks of each row of a float array: equal values get equal ranks."""
    order = np.argsort(v, axis=1)
    flat = order + (np.arange(v.shape[0]) * v.shape[1])[:, None]
    return _scatter_dense_ranks(order, v.ravel()[flat], _rank_type(v.shape[1]))


def _tau_rows(x, y):
    """τ-b for each row of two (rows, n) float arrays, checked and finite."""
    return _tau_from_ranks(_dense_ranks(x), _dense_ranks(y))


def _tau_from_ranks(rx, ry):
    """τ-b for each row of two (rows, n) arrays of dense ranks (as from :func:`_dense_ranks`)."""
    rows, n = rx.shape
    tau = np.empty(rows)
    step = max(1, _TAU_BLOCK_VALUES // n)
    for start in range(0, rows, step):
        tau[start : start + step] = _tau_block(rx[start : start + step], ry[start : start + step])
    return tau


def _tau_block(rx, ry):
    """τ-b for each row of two (rows, n) arrays of dense ranks: the pair counts, exact in integers."""
    rows, n = rx.shape
    # Dense ranks without ties reach n − 1: a row with a smaller largest rank has ties.
    x_tied = rx.max(axis=1) < n - 1
    y_tied = ry.max(axis=1) < n - 1
    x_ties, y_ties, both_ties = (np.zeros(rows, dtype=np.int64) for _ in range(3))
    discordant = np.empty(rows, dtype=np.int64)
    # Discordant pairs are the strict inversions of y's ranks listed in the order of x, ties
    # in x broken by y (Knight 1966). Where x has no ties its ranks are a permutation and put
    # each y in its place directly; where only x has ties, x and y swap roles (the count is
    # symmetric); where both have ties, one sort of a combined key orders by x, then y. Pairs
    # tied in one ranking are counted from the runs of equal values of that ranking sorted.
    for which, first, second, ties in (
        (~x_tied & ~y_tied, rx, ry, None),
        (~x_tied & y_tied, rx, ry, y_ties),
        (x_tied & ~y_tied, ry, rx, x_ties),
    ):
        if which.any():
            part = slice(None) if which.all() else which
            discordant[part], ordered = _discordant(_place(first[part], second[part]), ties is None)
            if ties is not None:
                ties[part] = _tied_pairs_sorted(np.sort(second[part], axis=1) if ordered is None else ordered)
    both = x_tied & y_tied
    if both.any():
        part = slice(None) if both.all() else both
        bits = (n - 1).bit_length()
        key = np.left_shift(rx[part], bits, dtype=np.int32 if 2 * bits < 31 else np.int64)
        np.bitwise_or(key, ry[part], out=key)
        key.sort(axis=1)
        x_ties[part] = _tied_pairs_sorted(key >> bits)
        both_ties[part] = _tied_pairs_sorted(key)
        discordant[part], ordered = _discordant(np.bitwise_and(key, (1 << bits) - 1).astype(_item_type(n)), False)
        y_ties[part] = _tied_pairs_sorted(np.sort(ry[part], axis=1) if ordered is None else ordered)

    pairs = n * (n - 1) // 2
    con_minus_dis = pairs - x_ties - y_ties + both_ties - 2 * discordant
    # One square root of the product (in floats: it can pass 2**63 for very
    # long vectors) makes identical orders come out as exactly 1.
    with np.errstate(divide="ignore", invalid="ignore"):
        tau = con_minus_dis / np.sqrt((pairs - x_ties).astype(np.float64) * (pairs - y_ties))
    tau[(x_ties == pairs) | (y_ties == pairs)] = np.nan
    return np.clip(tau, -1.0, 1.0)


def _tied_pairs_sorted(s):
    """Pairs of equal values in each row of a row-sorted array: Σ c(c − 1)/2 over its runs of c equal values.

    Only the places where a value repeats the one before are looked at, so a
    row with few ties costs one comparison an item.
    """
    rows, n = s.shape
    links = np.flatnonzero(s[:, 1:] == s[:, :-1])  # in (rows, n − 1): value i + 1 repeats value i
    if not len(links):
        return np.zeros(rows, dtype=np.int64)
    row = links // (n - 1)
    starts = np.ones(len(links), dtype=bool)
    starts[1:] = (np.diff(links) != 1) | (row[1:] != row[:-1])
    first = np.flatnonzero(starts)
    c = np.diff(np.append(first, len(links)))  # links in each run: a run of c + 1 equal values
    pairs = np.bincount(row[first], weights=c * (c + 1) // 2, minlength=rows)
    return pairs.astype(np.int64)  # exact: counts below 2**53


def _item_type(n):
    """The integer type for item positions and ranks 0 … n − 1 in the discordant-pair count."""
    return np.uint8 if n <= 256 else np.int16 if n <= 1 << 15 else np.int32 if n < 1 << 31 else np.int64


def _place(order, values):
    """Each row of ``values`` listed in the order given by ``order``, a permutation of 0 … n − 1."""
    rows, n = order.shape
    placed = np.empty((rows, n), dtype=_item_type(n))
    placed.ravel()[order + (np.arange(rows, dtype=np.intp) * n)[:, None]] = values
    return placed


def _discordant(p, permutation):
    """Pairs i < j with p[i] > p[j] in each row of p, integers 0 … n − 1 (``permutation``: each once).

    Rows of up to :data:`_PAIRWISE_ITEMS` items are counted pair by pair. Longer
    rows are made permutations (the stable order of p, which has the same
    inversions) and counted by :func:`_inversions_of_permutations`. Returns the
    counts and, when it had to sort them, each row of p sorted (else None).
    """
    rows, n = p.shape
    if n <= _PAIRWISE_ITEMS:
        return _pairwise_inversions(p.astype(np.uint8, copy=False)), None
    if permutation:
        return _inversions_of_permutations(p), None
    order = np.argsort(p, axis=1, kind="stable")  # a radix sort for 16-bit p
    return _inversions_of_permutations(order), np.take_along_axis(p, order, axis=1)


def _pairwise_inversions(p):
    """Pairs i < j with p[i] > p[j] in each row of a (rows, n) uint8 array, n ≤ 256: O(n²) comparisons.

    Fastest for short rows: every comparison is a byte compared in numpy
    over all rows at once. Row k of the accumulator counts, for the item in
    position k, the later items below it.
    """
    rows, n = p.shape
    if n < 2:
        return np.zeros(rows, dtype=np.int64)
    pt = np.ascontiguousarray(p.T)
    later_below = np.zeros((n - 1, rows), dtype=np.uint8)
    below = np.empty((n - 1, rows), dtype=bool)
    for gap in range(1, n):
        m = n - gap
        np.greater(pt[:m], pt[gap:], out=below[:m])
        np.add(later_below[:m], below[:m].view(np.uint8), out=later_below[:m], casting="unsafe")
    return later_below.sum(axis=0, dtype=np.int64)


def _inversions_of_permutations(sigma):
    """Inversions of each row of a (rows, n) array whose rows are permutations of 0 … n − 1: O(n log n).

    The bits of the values are taken from the highest down. Before bit b is
    taken, each row is stably ordered by its values' higher bits, so that
    block g of 2^(b+1) positions holds exactly the values g·2^(b+1) …, in
    their original order. A pair inverted by its highest differing bit b is
    a 1 followed by a 0 in one block: for each 0, the 1s before it in the
    block, a running count. Each block is then stably split into its 0s and
    1s (a merge sort run backwards). The blocks are complete but for the last,
    so where every value lands and how many 1s precede a block are known in
    advance. Once blocks hold :data:`_PAIRWISE_BLOCK` values, the pairs left
    are counted within each block by :func:`_pairwise_inversions`. Counts are
    exact integers; one Python step per bit, none per row.
    """
    rows, n = sigma.shape
    work_type = np.int32 if n < 1 << 30 else np.int64
    a = sigma.astype(work_type)
    moved, bit, ones, where = (np.empty_like(a) for _ in range(4))
    flat = np.empty((rows, n), dtype=np.intp)
    row_start = (np.arange(rows, dtype=np.intp) * n)[:, None]
    position = np.arange(n, dtype=work_type)
    values = np.arange(n, dtype=np.int64)
    inversions = np.zeros(rows, dtype=np.int64)
    base = _PAIRWISE_BLOCK
    for b in range((n - 1).bit_length() - 1, base.bit_length() - 2, -1):
        half = 1 << b
        np.right_shift(a, b, out=bit)
        np.bitwise_and(bit, 1, out=bit)
        np.cumsum(bit, axis=1, out=ones)  # 1s up to each position
        # Σ over the 0s of the 1s before them in their block: the running count summed over
        # all positions, less its value at the 1s (1, 2, …) and at the blocks' starts (g·half).
        value_bit = (values >> b) & 1
        n_ones = int(value_bit.sum())
        before_blocks = int((((values >> (b + 1)) << b) * (1 - value_bit)).sum())
        inversions += ones.sum(axis=1, dtype=np.int64) - (n_ones * (n_ones + 1) // 2 + before_blocks)
        # The stable split: a 0 goes to i − ones + g·half, a 1 to ones − 1 + (g + 1)·half,
        # for position i in block g: i − ones + g·half + bit·(2·ones + half − 1 − i).
        np.add(ones, ones, out=where)
        np.add(where, (half - 1) - position, out=where)
        np.multiply(where, bit, out=where)
        np.subtract(where, ones, out=where)
        np.add(where, position + ((position >> (b + 1)) << b), out=where)
        np.add(where, row_start, out=flat)
        moved.ravel()[flat.ravel()] = a.ravel()
        a, moved = moved, a
    # Blocks of `base` values (and a shorter last one), each in its original order.
    local = np.bitwise_and(a, base - 1).astype(np.uint8)
    full = n // base
    if full:
        inversions += (
            _pairwise_inversions(local[:, : full * base].reshape(rows * full, base)).reshape(rows, full).sum(axis=1)
        )
    inversions += _pairwise_inversions(local[:, full * base :])
    return inversions


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
    h = n_topics // 2
    first = np.empty((n_splits, h), dtype=np.intp)
    second = np.empty((n_splits, n_topics - h), dtype=np.intp)
    for start, a, b in _random_halves(n_topics, n_splits, np.random.default_rng(rng)):
        first[start : start + len(a)] = a
        second[start : start + len(b)] = b
    return first, second


def _random_halves(n_topics, n_splits, rng):
    """The halves of :func:`draw_halves`, drawn in blocks of splits: (first split's index, first, second).

    The uniform draws of a block of rows are the next rows of the one draw of
    all splits (the generator fills an array in row order), so the halves
    are the same; only a block's draws and sorts are in memory at a time.
    """
    h = n_topics // 2
    step = max(1, _DRAW_VALUES // n_topics)
    for start in range(0, n_splits, step):
        order = np.argsort(rng.random((min(step, n_splits - start), n_topics)), axis=1)
        yield start, np.sort(order[:, :h], axis=1), np.sort(order[:, h:], axis=1)


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

    So the order of the systems by ``average`` on a half is their order by the sum of g
    over the half, which one matrix product gives for every split at once (see
    :meth:`irmeans.averages.Average.transform`). ``None`` for an average without such a
    form (the median), or where g would not be finite on these scores.
    """
    g = average.transform(s)
    if g is None or not np.isfinite(g).all():
        return None
    if isinstance(average, Logit) and np.abs(g).max() > 30:
        return None  # far out in the log-odds the map back to a score saturates at 0 or 1
    return g


def _half_averages(by_topic, average, halves):
    """``average`` of every system on each half: (splits, systems), as the average itself computes it."""
    return _averages_of(by_topic[halves], average)


def _averages_of(x, average):
    """``average`` over the topics of x, shape (splits, topics of a half, systems): (splits, systems).

    Every caller hands over this layout (systems innermost, each average taken
    along the topics), so each value comes out of the same arithmetic.
    """
    if isinstance(average, Median):
        # np.median's own values (the middle score, or the mean of the two middle
        # ones), from one sort of each half: much faster than its partitions here.
        x = np.sort(x.transpose(0, 2, 1), axis=-1)
        h = x.shape[-1]
        return x[..., h // 2] if h % 2 else (x[..., h // 2 - 1] + x[..., h // 2]) / 2
    return np.asarray(average(x.transpose(0, 2, 1), axis=-1))


def halves_tau(scores, average: Average | str, first, second, *, chunk_size: int | None = None) -> np.ndarray:
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
    splits. Systems whose sums come within rounding of each other are
    averaged with ``average`` itself and ordered by those averages, so that
    ties are those of the average's own arithmetic; every split of the
    median is averaged in full. Systems with identical scores on every topic
    are averaged once. τ is counted in O(n log n) for n systems (see
    :func:`kendall_tau`).

    Examples
    --------
    >>> s = [[0.1, 0.2, 0.3, 0.4], [0.2, 0.1, 0.4, 0.3], [0.3, 0.4, 0.5, 0.6]]
    >>> halves_tau(s, "am", [[0, 1], [0, 2]], [[2, 3], [1, 3]]).round(3).tolist()
    [1.0, 0.333]
    """
    average = parse_average(average)
    s = _system_scores(scores)
    if chunk_size is not None:
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
    taus = np.empty(halves[0].shape[0])
    _HalvesTau(s, average, chunk_size)(halves[0], halves[1], taus)
    return taus


class _HalvesTau:
    """τ of one average between the system orders on pairs of halves, set up once for any number of splits.

    ``scores`` are checked (:func:`_system_scores`), ``average`` parsed; the
    average's own checks run here. Calling it with blocks of halves fills
    their τ in ``out`` (see :func:`halves_tau`), ``chunk_size`` splits at a time.
    """

    def __init__(self, scores, average, chunk_size=None):
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

    def __call__(self, first, second, out, progress=None):
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

    Systems whose sums are within rounding of each other (1e-9 of the largest)
    are ordered and tied by ``average`` itself (:func:`_order_near_ties`).
    """
    n_splits, n_topics = halves.shape
    pick = np.zeros((n_splits, by_topic.shape[0]))
    np.put_along_axis(pick, halves, 1.0, axis=1)
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
    # Neighbours this close are ordered, and tied, by the averages: the sums' rounding
    # could differ from the average's.
    close = gap <= 1e-9 * (1.0 + np.abs(srt).max(axis=1))[:, None]
    step = srt[:, 1:] != srt[:, :-1]
    redo = np.flatnonzero(close.any(axis=1))
    if len(redo):
        order[redo], tied = _order_near_ties(by_topic, average, halves[redo], order[redo], close[redo])
        step[redo] = True
        step[redo[tied[0]], tied[1] - 1] = False
    return _scatter_ranks(order, step, _rank_type(sums.shape[1]))


def _order_within_rounding(v):
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
    return key & ((1 << bits) - 1)


def _order_near_ties(by_topic, average, halves, order, close):
    """Systems ordered by ``average`` itself where their sums are within rounding of each other.

    ``order`` sorts each split's systems by their sums; ``close`` marks the
    neighbours in that order whose sums are within rounding. A system apart
    from its neighbours keeps its place (its average is as far from theirs
    as its sum); each run of close systems gets the averages ``average``
    computes and is sorted by them. Returns the new order (``order``,
    rewritten) and the places (rows, positions) whose average equals that of
    the place before.
    """
    rows, n = order.shape
    member = np.zeros((rows, n), dtype=bool)
    member[:, 1:] = close
    member[:, :-1] |= close
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
    tied = np.flatnonzero(~new_run[1:] & (values[1:] == values[:-1])) + 1
    return order, (r[tied], i[tied])


def split_half(
    scores, average: Average | str, n_splits: int = 10_000, seed=None, *, chunk_size: int | None = None
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
        Number of random splits.
    seed : int or numpy.random.Generator, optional
        Seed of the random halves; the same seed gives the same τ values.
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
    s = _system_scores(scores)
    n_splits = whole_number(n_splits, "n_splits", minimum=1)
    (taus,) = _split_half_taus([(s, average)], n_splits, seed, chunk_size=chunk_size)
    return taus


def _split_half_taus(experiments, n_splits, seed, *, chunk_size=None, progress=None):
    """τ of several (scores, average) pairs over the same random splits: a list of arrays, one per pair.

    Every pair's scores must have the same topics. The halves are drawn block
    by block (:func:`_random_halves`) and each block goes to every pair before
    the next is drawn, so memory is bounded whatever ``n_splits``. ``progress(k)``
    is called after each k splits of one pair.
    """
    evaluators = []
    for scores, average in experiments:
        scores = _system_scores(scores)
        average = parse_average(average)
        if chunk_size is not None:
            chunk_size = whole_number(chunk_size, "chunk_size", minimum=1)
        evaluators.append(_HalvesTau(scores, average, chunk_size))
    n_topics = {e.by_topic.shape[0] for e in evaluators}
    if len(n_topics) != 1:
        raise IrmeansError(f"the score matrices have different numbers of topics: {sorted(n_topics)}")
    taus = [np.empty(n_splits) for _ in evaluators]
    for start, first, second in _random_halves(n_topics.pop(), n_splits, np.random.default_rng(seed)):
        for evaluate, t in zip(evaluators, taus):
            evaluate(first, second, t[start : start + len(first)], progress)
    return taus


#: The definitions of topic difficulty :func:`topic_difficulty` knows.
DIFFICULTY = ("eq2", "eq1", "max")

#: The kinds of split :func:`make_halves` makes.
SPLIT_KINDS = ("random", "hard-easy", "middle-rest")


def topic_difficulty(scores, definition: str = "eq2") -> np.ndarray:
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
        has no such system and gets D = 0.
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
    s = _system_scores(scores)
    if definition == "eq1":
        return 1.0 - s.mean(axis=0)
    if definition == "max":
        return 1.0 - s.max(axis=0)
    if definition != "eq2":
        raise IrmeansError(f"definition must be one of {', '.join(DIFFICULTY)}, got {definition!r}")
    spread = s.max(axis=0) - s.mean(axis=0)
    sd = s.std(axis=0, ddof=1)
    flat = sd == 0
    return np.where(flat, 0.0, spread / np.where(flat, 1.0, sd))


def difficulty_halves(difficulty, kind: str = "hard-easy") -> tuple[np.ndarray, np.ndarray]:
    """The two halves of a split by topic difficulty (Ravana & Moffat 2009, §5.4).

    Topics are ranked from hardest (highest difficulty) to easiest; topics
    of equal difficulty keep their order. With t topics and h = t // 2:

    - ``"hard-easy"``: the h hardest against the other t − h;
    - ``"middle-rest"``: the h middle topics against the ⌊(t − h) / 2⌋
      hardest and the rest of the easiest (for 50 topics: the 25 middle
      against the 12 hardest and the 13 easiest).

    Parameters
    ----------
    difficulty : array_like, shape (topics,)
        As from :func:`topic_difficulty`.
    kind : {"hard-easy", "middle-rest"}

    Returns
    -------
    first, second : ndarray of int, shape (1, h) and (1, t − h)
        One split, each half sorted, ready for :func:`halves_tau`.

    Examples
    --------
    >>> first, second = difficulty_halves([0.1, 0.9, 0.5, 0.7, 0.3, 0.2])
    >>> first.tolist(), second.tolist()
    ([[1, 2, 3]], [[0, 4, 5]])
    >>> [h.tolist() for h in difficulty_halves([0.1, 0.9, 0.5, 0.7, 0.3, 0.2], "middle-rest")]
    [[[2, 3, 4]], [[0, 1, 5]]]
    """
    d = float_array(difficulty, "difficulty")
    if d.ndim != 1 or d.size < 2:
        raise IrmeansError(f"difficulty must be a 1-d array of at least 2 topics, got shape {d.shape}")
    t = d.size
    h = t // 2
    order = np.argsort(-d, kind="stable")  # hardest first
    if kind == "hard-easy":
        first, second = order[:h], order[h:]
    elif kind == "middle-rest":
        k = (t - h) // 2
        first, second = order[k : k + h], np.concatenate([order[:k], order[k + h :]])
    else:
        raise IrmeansError(f"kind must be 'hard-easy' or 'middle-rest', got {kind!r}")
    return np.sort(first)[None, :], np.sort(second)[None, :]


def make_halves(
    scores, kind: str = "random", n_splits: int = 10_000, seed=None, *, difficulty: str = "eq2"
) -> tuple[np.ndarray, np.ndarray]:
    """The halves of a split-half experiment of any kind in :data:`SPLIT_KINDS`.

    ``"random"`` draws ``n_splits`` random halves (:func:`draw_halves` with
    ``seed``); the other kinds make the one split by the ``difficulty`` of the
    topics in ``scores`` (:func:`topic_difficulty`, :func:`difficulty_halves`),
    and ignore ``n_splits`` and ``seed``.

    Examples
    --------
    >>> s = [[0.1, 0.5, 0.0, 0.4], [0.2, 0.6, 0.0, 0.3], [0.9, 0.7, 0.3, 0.5]]
    >>> [h.shape for h in make_halves(s, "random", 5, seed=1)]
    [(5, 2), (5, 2)]
    >>> [h.tolist() for h in make_halves(s, "hard-easy")]
    [[[0, 2]], [[1, 3]]]
    """
    s = _system_scores(scores)
    if kind == "random":
        return draw_halves(s.shape[1], n_splits, np.random.default_rng(seed))
    if kind not in SPLIT_KINDS:
        raise IrmeansError(f"split kind must be one of {', '.join(SPLIT_KINDS)}, got {kind!r}")
    return difficulty_halves(topic_difficulty(s, difficulty), kind)


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
