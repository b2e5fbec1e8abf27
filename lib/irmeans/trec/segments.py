"""Segment (per-topic) helpers for the vectorised evaluator.

Rows are grouped into contiguous segments, one per topic.  ``seg`` gives the
segment of each row, ``starts``/``lengths`` the extent of each segment.
Sums run in row order within each segment (``np.bincount`` and ``np.cumsum``
add sequentially), the order trec_eval adds in, and a segment's sums never
involve other segments, so a topic's values do not depend on what else is
evaluated with it.
"""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["seg_sum", "seg_count", "seg_cumsum", "seg_suffix_max", "value_at", "stretches", "Stretches"]

#: ``(first row, segments, width)`` of each stretch of consecutive segments of one length (see :func:`stretches`).
Stretches = list[tuple[int, int, int]]


def seg_sum(values: np.ndarray, seg: np.ndarray, nseg: int) -> np.ndarray:
    """Sum ``values`` per segment, adding in row order.

    Examples
    --------
    >>> seg_sum(np.array([1.0, 2.0, 4.0]), np.array([0, 0, 2]), 3).tolist()
    [3.0, 0.0, 4.0]
    """
    return np.bincount(seg, weights=values, minlength=nseg)


def seg_count(mask: np.ndarray, seg: np.ndarray, nseg: int) -> np.ndarray:
    """Count true entries of ``mask`` per segment (int64)."""
    return np.bincount(seg[mask], minlength=nseg).astype(np.int64)


def seg_cumsum(
    values: np.ndarray, seg: np.ndarray, pos: np.ndarray, lengths: np.ndarray, parts: Stretches | None = None
) -> np.ndarray:
    """Running sum within each segment (restarting at every segment).

    ``pos`` is each row's position inside its segment; ``parts``, the :func:`stretches` of
    ``lengths``, says that the rows are in segment order (else it is checked).  Float sums are done
    segment by segment, row by row, as trec_eval adds, so a segment's sums
    never depend on the other segments: when the rows are in segment order
    (as :class:`~.join.Ranked` keeps them), each stretch of consecutive
    segments of one length is a segments-by-length matrix summed along its
    rows; otherwise segments are grouped by length (lengths in ``(w/2, w]``
    share a padded segments-by-``w`` matrix), so the padding costs at most as
    much as the input.  Integer sums are exact anyway and use one global
    cumulative sum.

    Examples
    --------
    >>> seg_cumsum(np.array([1, 1, 1, 1]), np.array([0, 0, 1, 1]),
    ...            np.array([0, 1, 0, 1]), np.array([2, 2])).tolist()
    [1, 2, 1, 2]
    >>> seg_cumsum(np.array([0.1, 0.2, 0.3]), np.array([0, 1, 1]),
    ...            np.array([0, 0, 1]), np.array([1, 2])).tolist()
    [0.1, 0.2, 0.5]
    """
    n = len(values)
    if n == 0:
        return values.copy()
    if values.dtype.kind in "iub":
        total = np.cumsum(values)
        starts = np.cumsum(lengths) - lengths
        before = total[starts] - values[starts]
        return cast(np.ndarray, total - before[seg])
    lengths = np.asarray(lengths)
    out = _cumsum_in_order(values, parts if parts is not None else _stretches(n, seg, pos, lengths))
    if out is not None:
        return out
    out = np.empty(n, dtype=np.float64)
    width_class = np.zeros(len(lengths), dtype=np.int64)
    has = lengths > 0
    width_class[has] = np.ceil(np.log2(lengths[has])).astype(np.int64)
    row_class = width_class[seg]
    for k in sorted(set(width_class[has].tolist())):
        members = np.flatnonzero(has & (width_class == k))
        slot = np.full(len(lengths), -1, dtype=np.int64)
        slot[members] = np.arange(len(members))
        rows = np.flatnonzero(row_class == k) if len(members) < len(lengths) else np.arange(n)
        width = int(lengths[members].max())
        grid = np.zeros((len(members), width), dtype=np.float64)
        grid[slot[seg[rows]], pos[rows]] = values[rows]
        np.cumsum(grid, axis=1, out=grid)
        out[rows] = grid[slot[seg[rows]], pos[rows]]
    return out


# at most this many stretches of equal-length segments are handled one by one
_STRETCHES = 64


def stretches(lengths: ArrayLike) -> Stretches | None:
    """``(first row, segments, width)`` of each stretch of consecutive segments of one length, or None if many.

    For rows in segment order (segments ascending, positions 0, 1, ... in each, as
    :func:`~.ranked.segments` makes them), a stretch is a segments-by-width matrix.

    >>> stretches([2, 2, 0, 3]), stretches([0])
    ([(0, 2, 2), (4, 1, 3)], [])
    """
    lengths = np.asarray(lengths)
    used = lengths[lengths > 0]
    if not len(used):
        return []
    change = np.flatnonzero(used[1:] != used[:-1])
    if len(change) >= _STRETCHES:
        return None
    bounds = np.concatenate(([0], change + 1, [len(used)]))
    out, row = [], 0
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        width = int(used[a])
        out.append((row, b - a, width))
        row += (b - a) * width
    return out


def _stretches(n: int, seg: np.ndarray, pos: np.ndarray, lengths: ArrayLike) -> Stretches | None:
    """:func:`stretches` of ``lengths`` if the ``n`` rows (``seg``, ``pos``) are in segment order, else None."""
    lengths = np.asarray(lengths)
    ids = np.flatnonzero(lengths > 0)
    used = lengths[ids]
    if int(used.sum()) != n or not np.array_equal(seg, np.repeat(ids, used)):
        return None
    if not np.array_equal(pos, np.arange(n) - np.repeat(np.cumsum(used) - used, used)):
        return None
    return stretches(lengths)


def _cumsum_in_order(values: np.ndarray, parts: Stretches | None) -> np.ndarray | None:
    """:func:`seg_cumsum` of float rows in segment order, stretch by stretch; None without the stretches."""
    if parts is None:
        return None
    out = np.empty(len(values), dtype=np.float64)
    for row, k, width in parts:
        end = row + k * width
        np.cumsum(values[row:end].reshape(k, width), axis=1, out=out[row:end].reshape(k, width))
    return out


def seg_suffix_max(
    values: np.ndarray,
    seg: np.ndarray,
    nseg: int,
    pos: np.ndarray | None = None,
    lengths: np.ndarray | None = None,
    parts: Stretches | None = None,
) -> np.ndarray:
    """Maximum of ``values`` over each row and the rows after it in its segment.

    Exact: with ``pos`` and ``lengths`` of rows in segment order (or ``parts``, their
    :func:`stretches`, which says they are), each stretch of segments of one length is a
    matrix whose rows are accumulated from the right; otherwise values are replaced by their
    ranks, offset per segment so that one running maximum over the reversed array restarts at
    each segment.

    Examples
    --------
    >>> seg_suffix_max(np.array([0.5, 0.2, 0.3, 0.9, 0.1]),
    ...                np.array([0, 0, 0, 1, 1]), 2).tolist()
    [0.5, 0.3, 0.3, 0.9, 0.1]
    """
    if len(values) == 0:
        return values.copy()
    if parts is None and pos is not None and lengths is not None:
        parts = _stretches(len(values), seg, pos, lengths)
    if parts is not None:
        out = np.empty(len(values), dtype=values.dtype)
        for row, k, width in parts:
            end = row + k * width
            block = values[row:end].reshape(k, width)[:, ::-1]
            out[row:end].reshape(k, width)[:, ::-1] = np.maximum.accumulate(block, axis=1)
        return out
    uniq, rank = np.unique(values, return_inverse=True)
    span = len(uniq)
    key = (nseg - 1 - seg).astype(np.int64) * span + rank
    run = np.maximum.accumulate(key[::-1])[::-1]
    return uniq[run - (nseg - 1 - seg).astype(np.int64) * span]


def value_at(cum: np.ndarray, starts: np.ndarray, lengths: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """``cum`` at depth ``k`` (1-based) of each segment, 0 at depth 0.

    Depths beyond a segment's length take its last value; ``k`` may be a column of depths
    (one row of the result per depth).

    Examples
    --------
    >>> value_at(np.array([1, 2, 3, 1]), np.array([0, 3]), np.array([3, 1]), 2).tolist()
    [2, 1]
    """
    depth = np.minimum(np.asarray(k, dtype=np.int64), lengths)  # a column of depths gives a row each
    idx = starts + np.maximum(depth, 1) - 1
    out = cum[np.minimum(idx, max(len(cum) - 1, 0))] if len(cum) else np.zeros(depth.shape, cum.dtype)
    return np.where(depth > 0, out, 0)
