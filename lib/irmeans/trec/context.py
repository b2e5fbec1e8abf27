"""What several of trec_eval's measures share, computed once per evaluation: the :class:`Context`.

A :class:`Context` wraps the ranked lists of every evaluated topic (a
:class:`~.ranked.Ranked`) and computes when first asked, and keeps, what more than one
measure needs: which rows are relevant and their running counts, the precision at each
relevant document (AP's summands), interpolated precision, and for each set of gains
(:meth:`Context.gained`) the gains of the ranking and of the ideal ranking and their running
DCG.  The measures themselves are in :mod:`.kernels`.
"""

from __future__ import annotations

from functools import cached_property
from typing import TypeAlias

import numpy as np

from .gains import Gains, gain_walk
from .ranked import Ranked, TopicJudgments
from .segments import seg_count, seg_cumsum, seg_suffix_max, stretches, value_at

__all__ = ["Context", "Gained"]

#: The ideal ranking's gains: (gains, topic, position, start per topic, length per topic).
Ideal: TypeAlias = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class Context:
    """Quantities shared by several measures, computed once, when first asked for."""

    def __init__(self, r: Ranked, num_docs: int = 0) -> None:
        self.r = r
        self.judged: TopicJudgments = r.judged
        self.T = r.ntopics
        self.num_docs = num_docs
        # trec_eval tests rel >= level on the ranked list (so with a level <= -1,
        # unjudged documents pass) but counts num_rel_ret on judged documents only
        self.isrel = r.rel >= r.level
        self.rel = _Sparse(r, np.flatnonzero(self.isrel))
        self.judged_rel = (r.rel >= 0) & self.isrel
        self.num_rel_ret = seg_count(self.judged_rel, r.seg, self.T)
        # the ranked rows are in topic order (Ranked makes them so): each stretch of topics of
        # one length is a matrix for the running sums
        self.layout = stretches(r.num_ret)
        self._gained: dict[tuple[tuple[tuple[int, float], ...], int] | None, Gained] = {}

    def cum(self, mask: np.ndarray) -> np.ndarray:
        """Running count of ``mask`` within each topic (inclusive)."""
        r = self.r
        return seg_cumsum(mask.astype(np.int64), r.seg, r.pos, r.num_ret, self.layout)

    @cached_property
    def cumrel(self) -> np.ndarray:
        """Running count of relevant documents at every row."""
        return self.cum(self.isrel)

    def rel_at(self, k: int | np.ndarray) -> np.ndarray:
        """Relevant documents among the first ``k`` retrieved, per topic (a row per depth for a column of depths)."""
        return self.rel.upto(k)

    @cached_property
    def prec_at_rel(self) -> tuple[np.ndarray, np.ndarray]:
        """Precision at each relevant row (trec_eval's AP summands), and the rows."""
        rows = self.rel.rows
        return rows, (self.rel.local + 1) / (self.r.pos[rows] + 1.0)

    def gained(self, gains: Gains | None = None) -> Gained:
        """What the measures with gains need, for ``gains`` (None: each grade its own gain)."""
        key = None if gains is None else gains.key()
        if key not in self._gained:
            self._gained[key] = Gained(self.r, gains)
        return self._gained[key]

    def dcg_at(self, k: int | np.ndarray, gains: Gains | None = None) -> np.ndarray:
        """DCG of the first ``k`` retrieved documents, per topic."""
        return self.gained(gains).dcg_upto(k)

    def idcg_at(self, k: int | np.ndarray, gains: Gains | None = None) -> np.ndarray:
        """DCG of the first ``k`` documents of the ideal ranking, per topic."""
        g = self.gained(gains)
        _, _, _, starts, length = g.ideal
        return value_at(g.idcg_cum, starts, length, k).astype(np.float64)

    def idcg_total(self, gains: Gains | None = None) -> np.ndarray:
        """The DCG of the whole ideal ranking, per topic: :meth:`idcg_at` at the ideal ranking's length."""
        _, _, _, _, length = self.gained(gains).ideal
        return self.idcg_at(length, gains)

    @cached_property
    def surplus(self) -> np.ndarray:
        """Relevant rows beyond num_rel_ret per topic (non-zero only with -l below 0, where unjudged rows pass)."""
        surplus: np.ndarray = self.rel.count - self.num_rel_ret
        return surplus

    @cached_property
    def int_prec(self) -> np.ndarray:
        """Interpolated precision at each relevant row (in the order of ``rel.rows``): max precision at or below it.

        trec_eval counts down from num_rel_ret at each relevant row from the bottom and stops
        at 0; with a level below 0 more rows pass than num_rel_ret counts, so its running
        count is the usual one minus the surplus, and rows above where it stops take no part.
        Below a relevant row, precision is highest at the relevant rows (it falls at each row
        between them), so the maximum is taken over the relevant rows alone.
        """
        rel = self.rel
        eff = rel.local + 1 - self.surplus[rel.seg]  # the running count of relevant rows, at each
        prec = np.where(eff >= 1, eff / (self.r.pos[rel.rows] + 1.0), -np.inf)
        return seg_suffix_max(prec, rel.seg, self.T, rel.local, rel.count)

    def kth_rel(self, k: np.ndarray) -> np.ndarray:
        """Where the k-th (1-based) relevant document of each topic is among ``rel.rows`` (k >= 1; 0 if none)."""
        at: np.ndarray = np.minimum(self.rel.first + np.maximum(k, 1) - 1, max(len(self.rel.rows) - 1, 0))
        return at

    def kth_rel_row(self, k: np.ndarray) -> np.ndarray:
        """Row of the k-th (1-based) relevant document of each topic (k >= 1)."""
        rows = self.rel.rows
        return rows[self.kth_rel(k)] if len(rows) else np.zeros(self.T, np.int64)


class Gained:
    """The gains of a ranking and of its ideal ranking, and their running DCG, for one set of gains."""

    def __init__(self, r: Ranked, gains: Gains | None) -> None:
        self.r = r  # the ranked lists (not the Context, which keeps this: no cycle to wait for the collector)
        self.gains = gains

    @cached_property
    def gain(self) -> np.ndarray:
        """Gain of each ranked row (trec_eval's ``get_gain``)."""
        rel = self.r.rel
        g = np.where(rel > 0, rel, 0).astype(np.float64)
        if self.gains is not None:
            for level, value in reversed(list(self.gains.levels.items())):
                g[rel == level] = value
            if self.gains.shift:
                g = np.ldexp(g, self.gains.shift)
        return g

    @cached_property
    def ideal(self) -> Ideal:
        """The ideal ranking's gains: (gains, topic, position, start per topic, length per topic)."""
        gains, T = self.gains, self.r.ntopics
        j = self.r.judged
        if gains is None or not gains.entries:
            return (j.ideal.astype(np.float64), j.ideal_seg, j.ideal_pos, j.ideal_starts, j.num_pos)
        t, g, n = j.levels
        n_levels = np.zeros(T, dtype=np.int64)
        np.maximum.at(n_levels, t, g + 1)
        rank = np.zeros(len(t), dtype=np.int64)
        value = np.zeros(len(t))
        for lv_count in sorted(set(n_levels[t].tolist())):
            sel = np.flatnonzero(n_levels[t] == lv_count)
            walk = gain_walk(gains, lv_count, set(g[sel].tolist()))
            first: dict[int, int] = {}
            for k, lv, _ in sorted(walk):
                first.setdefault(lv, k)  # the count of a grade goes to its first entry
            place = {k: (i, gv) for i, (k, _, gv) in enumerate(walk)}
            found = [place[first[lv]] for lv in g[sel].tolist()]
            rank[sel] = [f[0] for f in found]
            value[sel] = [f[1] for f in found]
        # the walk stops at the first grade (with documents) whose gain is not positive
        stop = np.full(T, np.iinfo(np.int64).max)
        bad = value <= 0
        np.minimum.at(stop, t[bad], rank[bad])
        keep = rank < stop[t]
        t, rank, value, n = t[keep], rank[keep], value[keep], n[keep]
        o = np.lexsort((rank, t))
        t, value, n = t[o], value[o], n[o]
        gains_flat = np.repeat(np.ldexp(value, gains.shift), n)  # scaled once the order is found (Gains.for_ratios)
        seg = np.repeat(t, n)
        length = np.bincount(seg, minlength=T).astype(np.int64)
        starts = np.cumsum(length) - length
        pos = np.arange(len(seg), dtype=np.int64) - starts[seg]
        return (gains_flat, seg, pos, starts, length)

    @cached_property
    def _gainful(self) -> tuple[_Sparse, np.ndarray]:
        """The rows with a gain, and the running DCG at each of them (gain / log2(rank + 1), added in rank order).

        The rows without a gain add nothing, so the DCG at any rank is the running DCG at the last row
        with a gain up to it.
        """
        r = self.r
        rows = np.flatnonzero(self.gain)
        sparse = _Sparse(r, rows)
        contrib = self.gain[rows] / np.log2(r.pos[rows] + 2.0)
        return sparse, seg_cumsum(contrib, sparse.seg, sparse.local, sparse.count)

    def dcg_upto(self, k: int | np.ndarray, topics: np.ndarray | None = None) -> np.ndarray:
        """DCG of the first ``k`` ranks of each topic (a depth per topic or a column of depths), or of ``topics``."""
        sparse, cum = self._gainful
        n = sparse.upto(k, topics)
        first = sparse.first if topics is None else sparse.first[topics]
        at = np.minimum(np.maximum(first + n - 1, 0), max(len(cum) - 1, 0))
        return np.where(n > 0, cum[at] if len(cum) else 0.0, 0.0)

    def dcg_at_rows(self, rows: np.ndarray) -> np.ndarray:
        """The running DCG at each of ``rows``, rows with a gain (ascending)."""
        sparse, cum = self._gainful
        here: np.ndarray = cum[np.searchsorted(sparse.rows, rows)]
        return here

    @cached_property
    def idcg_cum(self) -> np.ndarray:
        """Running DCG of the ideal ranking at every row of it."""
        ideal, seg, pos, _, length = self.ideal  # in topic order
        return seg_cumsum(ideal / np.log2(pos + 2.0), seg, pos, length, stretches(length))


class _Sparse:
    """Rows of interest of each topic (in rank order), for counts and sums up to a depth.

    ``upto(k)`` gives, per topic, how many of these rows lie in the first
    ``k`` ranks, by one binary search over (topic, rank) keys instead of a
    pass over every retrieved row.
    """

    def __init__(self, r: Ranked, rows: np.ndarray) -> None:
        self.rows = rows
        self.seg = r.seg[rows]
        self.count = np.bincount(self.seg, minlength=r.ntopics).astype(np.int64)
        self.first = np.cumsum(self.count) - self.count
        self.local = np.arange(len(rows), dtype=np.int64) - np.repeat(self.first, self.count)
        self._span = int(r.num_ret.max()) + 1 if len(r.num_ret) else 1
        self._keys = self.seg.astype(np.int64) * self._span + r.pos[rows]
        self._num_ret = r.num_ret

    def upto(self, k: int | np.ndarray, topics: np.ndarray | None = None) -> np.ndarray:
        """Per topic, how many rows lie in the first ``k`` ranks; ``k`` a depth per topic, or a column of
        depths (one row of the result per depth, one search for them all); or with ``topics``, a depth for
        each of them."""
        if topics is None:
            topics = np.arange(len(self.count), dtype=np.int64)
        k = np.maximum(np.minimum(np.asarray(k, dtype=np.int64), self._num_ret[topics]), 0)
        bound = topics.astype(np.int64) * self._span + k
        found: np.ndarray = np.searchsorted(self._keys, bound.ravel()).reshape(bound.shape)
        found -= self.first[topics]
        return found


# --- the measures ------------------------------------------------------------
