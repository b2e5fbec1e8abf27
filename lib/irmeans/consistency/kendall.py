"""Kendall's τ-b between score vectors, one pair or a whole stack of them at once.

:func:`kendall_tau` is the public function; the rank helpers below it are
shared with :mod:`irmeans.consistency.experiment`, which ranks the systems on every half
of a split-half experiment and compares the two orders with them.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._numeric import steps
from .._validation import as_array, float_array
from ..errors import IrmeansError

__all__ = ["kendall_tau"]

# Rows of a stacked kendall_tau are processed in blocks of about this many
# values, which bounds the size of the temporary arrays.
_BLOCK_VALUES = 1 << 21

# The pair counts of τ go through rows in blocks of about this many values, so
# that their temporaries stay in the processor's caches.
_TAU_BLOCK_VALUES = 1 << 18

# Rows of at most this many items have their discordant pairs counted pair by
# pair (O(n²) byte comparisons: fastest for short rows); longer rows are split
# by bits (O(n log n)) into blocks of _PAIRWISE_BLOCK values counted pair by pair.
_PAIRWISE_ITEMS = 256
_PAIRWISE_BLOCK = 64


def kendall_tau(x: ArrayLike, y: ArrayLike) -> float | np.ndarray:
    """Kendall's τ-b between two score vectors, or between stacks of them.

    τ-b = (C − D) / √((P − Tx)(P − Ty)), where P is the number of pairs of
    items, C and D the concordant and discordant pairs, and Tx, Ty the pairs
    tied in ``x`` and in ``y``. Without ties it is the usual τ. Two scores of
    a vector are tied when they are equal within irmeans' tolerance (they
    differ by at most 1e-12 of the vector's largest magnitude; see
    :mod:`irmeans._numeric`), so that rounding alone neither makes nor breaks a
    tie; integers, which have no rounding, are tied only when they are equal
    (and are compared as integers, however large). Otherwise the value is that
    of ``scipy.stats.kendalltau(x, y).statistic``.

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
    >>> # 5 of the 6 pairs agree
    >>> round(kendall_tau([0.1, 0.4, 0.3, 0.8], [0.2, 0.5, 0.6, 0.7]), 6)
    0.666667
    >>> kendall_tau([[1, 2, 3], [1, 2, 3]], [[1, 2, 3], [3, 2, 1]])
    array([ 1., -1.])
    >>> round(kendall_tau([1, 1, 2, 3], [1, 2, 2, 3]), 6)  # ties in both: τ-b
    0.8
    """
    x, y = _scores(x, "x"), _scores(y, "y")
    if x.ndim == 0 or y.ndim == 0:
        raise IrmeansError("kendall_tau needs score vectors, got a scalar")
    try:
        x, y = np.broadcast_arrays(x, y)
    except ValueError:
        raise IrmeansError(f"x and y must have the same shape (..., n), got {x.shape} and {y.shape}") from None
    n = x.shape[-1]
    if n < 2:
        raise IrmeansError(f"kendall_tau needs at least 2 items to order, got {n}")

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


def _scores(v: ArrayLike, name: str) -> np.ndarray:
    """Scores to rank: floats (checked), or, for integers, their exact dense ranks as floats (2**53 + 1 is not
    2**53, and no tolerance applies to integers)."""
    raw = as_array(v, name) if not isinstance(v, np.ma.MaskedArray) else v
    if _integers(raw) and raw.ndim >= 1 and raw.shape[-1] > 0:  # sorted as integers, Python's of any size too
        order = np.argsort(raw, axis=-1, kind="stable")
        ordered = np.take_along_axis(raw, order, axis=-1)
        dense = np.zeros(raw.shape, dtype=np.float64)
        dense[..., 1:] = np.cumsum(ordered[..., 1:] != ordered[..., :-1], axis=-1)
        ranks = np.empty_like(dense)
        np.put_along_axis(ranks, order, dense, axis=-1)
        return ranks
    return float_array(v, name)


def _integers(a: np.ndarray) -> bool:
    """Whether ``a`` holds integers only: numpy's, or Python's of any size (beyond 2**64 an array of objects,
    which a float would round: 2**70 and 2**70 + 1 are one double)."""
    if not isinstance(a, np.ndarray) or isinstance(a, np.ma.MaskedArray):
        return False
    if a.dtype.kind in "iu":
        return True
    return a.dtype.kind == "O" and all(
        isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)) for x in a.ravel().tolist()
    )


def _rank_type(n: int) -> type[np.integer]:
    """An integer type for ranks 0 … n − 1 that numpy sorts fast (its uint8 row sorts are slow)."""
    return np.int16 if n < np.iinfo(np.int16).max else np.int64


def _scatter_dense_ranks(order: np.ndarray, sorted_values: np.ndarray, rank_type: type[np.integer]) -> np.ndarray:
    """Dense ranks (0 for the smallest) from each row's sorting ``order`` and its sorted values.

    Values equal within the tolerance (:func:`irmeans._numeric.steps`) share a rank.
    """
    return _scatter_ranks(order, steps(sorted_values), rank_type)


def _scatter_ranks(order: np.ndarray, step: np.ndarray, rank_type: type[np.integer]) -> np.ndarray:
    """Dense ranks from each row's sorting ``order`` and where, in that order, the value goes up (``step``)."""
    rows, n = order.shape
    dense = np.empty((rows, n), dtype=rank_type)
    dense[:, 0] = 0
    dense[:, 1:] = np.cumsum(step, axis=1, dtype=np.int32)
    rank = np.empty((rows, n), dtype=rank_type)
    # Flat indices (row offset + position) are much faster than put_along_axis.
    rank.ravel()[order + (np.arange(rows) * n)[:, None]] = dense
    return rank


def _dense_ranks(v: np.ndarray) -> np.ndarray:
    """Dense ranks of each row of a float array: equal values (within the tolerance) get equal ranks."""
    order = np.argsort(v, axis=1)
    flat = order + (np.arange(v.shape[0]) * v.shape[1])[:, None]
    return _scatter_dense_ranks(order, v.ravel()[flat], _rank_type(v.shape[1]))


def _tau_rows(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """τ-b for each row of two (rows, n) float arrays, checked and finite."""
    return _tau_from_ranks(_dense_ranks(x), _dense_ranks(y))


def _tau_from_ranks(rx: np.ndarray, ry: np.ndarray) -> np.ndarray:
    """τ-b for each row of two (rows, n) arrays of dense ranks (as from :func:`_dense_ranks`)."""
    rows, n = rx.shape
    tau = np.empty(rows)
    step = max(1, _TAU_BLOCK_VALUES // n)
    for start in range(0, rows, step):
        tau[start : start + step] = _tau_block(rx[start : start + step], ry[start : start + step])
    return tau


def _tau_block(rx: np.ndarray, ry: np.ndarray) -> np.ndarray:
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
    return np.asarray(np.clip(tau, -1.0, 1.0))


def _tied_pairs_sorted(s: np.ndarray) -> np.ndarray:
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


def _item_type(n: int) -> type[np.integer]:
    """The integer type for item positions and ranks 0 … n − 1 in the discordant-pair count."""
    return np.uint8 if n <= 256 else np.int16 if n <= 1 << 15 else np.int32 if n < 1 << 31 else np.int64


def _place(order: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each row of ``values`` listed in the order given by ``order``, a permutation of 0 … n − 1."""
    rows, n = order.shape
    placed = np.empty((rows, n), dtype=_item_type(n))
    placed.ravel()[order + (np.arange(rows, dtype=np.intp) * n)[:, None]] = values
    return placed


def _discordant(p: np.ndarray, permutation: bool) -> tuple[np.ndarray, np.ndarray | None]:
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


def _pairwise_inversions(p: np.ndarray) -> np.ndarray:
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
    return np.asarray(later_below.sum(axis=0, dtype=np.int64))


def _inversions_of_permutations(sigma: np.ndarray) -> np.ndarray:
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
    position: np.ndarray = np.arange(n, dtype=work_type)
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
