"""trec_eval's ranking of a run: within each topic, score descending, ties by docno descending.

trec_eval sorts a topic's documents by score, highest first, and breaks ties by docno in
``strcmp`` order, highest first (the rank column of the file is ignored).  :func:`rank`
orders the rows of many topics at once: a numpy sort by topic and score, then the tied
stretches by docno, eight bytes at a time (:func:`~.strings.order_descending`); a set of
more than :data:`ARROW_ROWS` rows is ordered by pyarrow's multi-key sort instead, faster
there than the numpy sort by enough to pay for pyarrow's import.

>>> from irmeans.trec.strings import Strings
>>> docnos = Strings.from_sequence(["a", "b", "c", "d"])
>>> rank(np.arange(4), np.array([0, 0, 0, 1]), np.array([1.0, 2.0, 2.0, 0.5]), docnos).tolist()
[2, 1, 0, 3]
"""

from __future__ import annotations

import numpy as np

from .strings import Strings, order_descending

__all__ = ["rank", "ARROW_ROWS"]

_INT16_MAX = np.iinfo(np.int16).max
#: A set of more rows than this is ordered by pyarrow's sort.
ARROW_ROWS = 1 << 20


def rank(
    rows: np.ndarray, topic: np.ndarray, scores: np.ndarray, docnos: Strings, grade: np.ndarray | None = None
) -> np.ndarray:
    """``rows`` in trec_eval's order: by ``topic`` (ascending), score descending, docno descending.

    ``topic``, ``scores`` and ``docnos`` (and ``grade``) are indexed by row; ``rows`` are the
    rows to order, ascending.  With each row's ``grade``, documents tied on score that all
    have the same grade are left in any order among themselves: the ranked grades are the
    same whichever way they go, and ordering their docnos is most of the work.
    """
    if len(rows) > ARROW_ROWS:
        return _arrow_order(docnos, rows, topic, scores)
    order = _score_order(rows, topic, scores)
    return _tie_order(docnos, order, topic, scores, grade)


def _score_order(rows: np.ndarray, tcode: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``rows`` ordered by topic code, then score descending (ties in any order)."""
    n = len(rows)
    if n == 0:
        return rows
    everything = n == len(tcode)  # rows is then 0 .. n-1
    t = tcode if everything else tcode[rows]
    s = scores if everything else scores[rows]
    change = t[1:] != t[:-1]
    heads = np.flatnonzero(change) + 1
    heads = np.concatenate((np.zeros(1, np.int64), heads))
    codes = t[heads]
    # The usual case: each topic in one block, scores never rising inside
    # it; then only the blocks need to be put in topic order.
    if len(set(codes.tolist())) == len(codes) and not np.any((s[1:] > s[:-1]) & ~change):
        if np.all(codes[1:] > codes[:-1]):
            return rows
        lengths = np.diff(np.append(heads, n))
        bo = np.argsort(codes)
        new_start = np.cumsum(lengths[bo]) - lengths[bo]
        moved = np.repeat(heads[bo] - new_start, lengths[bo])
        moved += np.arange(n)
        return moved if everything else rows[moved]
    by_score = np.argsort(-s)
    small = t.max() < _INT16_MAX
    by_topic = np.argsort(t[by_score].astype(np.int16 if small else np.int64), kind="stable")
    return rows[by_score[by_topic]]


def _arrow_order(docnos: Strings, rows: np.ndarray, tcode: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``rows`` ordered by topic code, score descending, docno descending (pyarrow's sort)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from .arrow_buffers import binary_column, numbers_column, primitive, release_memory

    subset = len(rows) != len(tcode)  # else rows are all the rows, in some order
    names = docnos.take(rows) if subset else docnos
    if subset:
        tcode, scores = tcode[rows], scores[rows]
    columns = [numbers_column(tcode), numbers_column(scores), binary_column(names)]
    table = pa.Table.from_arrays(columns, names=["t", "s", "d"])  # pa.table of numpy arrays would import pandas
    keys = [("t", "ascending"), ("s", "descending"), ("d", "descending")]
    order = pc.sort_indices(table, sort_keys=keys, memory_pool=pa.system_memory_pool())
    del table, columns
    out = primitive(order, np.int64).copy()
    del order
    release_memory()
    return rows[out] if subset else out


def _tie_order(
    docnos: Strings, order: np.ndarray, tcode: np.ndarray, scores: np.ndarray, grade: np.ndarray | None = None
) -> np.ndarray:
    """Within runs of equal (topic, score), put docnos in descending order (only runs of mixed ``grade``, if given)."""
    t = tcode[order]
    same = t[1:] == t[:-1]
    del t
    s = scores[order]
    same &= s[1:] == s[:-1]
    del s
    if not same.any():
        return order
    in_tie = np.zeros(len(order), dtype=bool)
    in_tie[1:] |= same
    in_tie[:-1] |= same
    slots = np.flatnonzero(in_tie)
    del in_tie
    # a slot opens a new group unless it ties with the row before it
    opens = np.ones(len(slots), dtype=bool)
    inner = slots > 0
    opens[inner] = ~same[slots[inner] - 1]
    group = np.cumsum(opens)
    members = order[slots]
    if grade is not None:  # a run of one grade ranks its grades alike in any order
        g = grade[members]
        heads = np.flatnonzero(opens)
        mixed = np.repeat(
            np.minimum.reduceat(g, heads) != np.maximum.reduceat(g, heads), np.diff(np.append(heads, len(g)))
        )
        if not mixed.all():
            slots, group, members = slots[mixed], group[mixed], members[mixed]
            if not len(slots):
                return order
    sub = order_descending(docnos.data, *docnos.spans(members), group)
    order = order.copy()
    order[slots] = members[sub]
    return order
