"""Per-topic measures with trec_eval 10's definitions, over a :class:`Ranked`.

Every function takes a :class:`Context` (the ranked lists and what several
measures share) and its parameters, and returns per-topic arrays: one array,
a list (one per cutoff of a cutoff family) or, for the set measures, a dict.
Sums run topic by topic in trec_eval's order, so each topic's value is what
trec_eval computes for it, whatever else is evaluated.  Comments give
trec_eval's convention where it is not the obvious one.

Gains (``ndcg.1=0,2=5``, and ``dcg``, ``ideal_dcg``, ``ndcg_rel``, ``Rndcg``,
``G``, ``rbp``) are parsed by :class:`Gains` and applied as trec_eval's
``setup_gains`` does: a grade's gain is the grade unless a parameter names it,
and the ideal ranking takes the grades in trec_eval's sorted order of gains.
"""

from __future__ import annotations

import math

import numpy as np

from .join import NONPOOL, UNJUDGED, Ranked
from .segments import seg_count, seg_cumsum, seg_suffix_max, seg_sum, value_at

__all__ = [
    "Context",
    "Gains",
    "MIN_GEO_MEAN",
    "INFAP_EPSILON",
    "RBP_P",
    "counts",
    "ap",
    "map_",
    "gm_map",
    "rprec",
    "bpref_values",
    "bpref",
    "gm_bpref",
    "recip_rank",
    "iprec_values",
    "iprec_at_recall",
    "eleven_pt",
    "P",
    "recall",
    "relative_P",
    "success",
    "map_cut",
    "rprec_mult",
    "infap",
    "utility",
    "bin_g",
    "g_measure",
    "dcg",
    "ideal_dcg",
    "ndcg",
    "ndcg_cut",
    "ndcg_rel",
    "rndcg",
    "sets",
    "set_f",
    "num_nonrel_judged_ret",
    "yaap",
    "rbp",
    "rbp_resid",
    "unj",
    "relstring",
]

MIN_GEO_MEAN = 1e-5  # floor of gm_map / gm_bpref
INFAP_EPSILON = 1e-5
RBP_P = 0.9  # rbp's default persistence
# C's 0.0 / 0.0 on x86: the default NaN, whose sign bit is set (trec_eval prints "-nan")
_C_NAN = -np.nan
_MANY_LEVELS = 10_000  # beyond this many grades, only the grades judged somewhere take part in the sort


def _div(num, den):
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


class Gains:
    """trec_eval's ``rel_level=gain`` parameters (``ndcg.1=3.5,2=9``).

    Parameters
    ----------
    pairs : sequence of (str, float)
        The parsed ``name=value`` pairs in the order given.  Names that are
        integers (``[+-]digits``) set the gain of that grade (the first pair
        for a grade wins); other names are not gains (``rbp``'s ``p``).

    Examples
    --------
    >>> g = Gains([("1", 0.0), ("2", 5.0), ("p", 0.5), ("2", 7.0)])
    >>> g.levels, g.value("p", 0.9)
    ({1: 0.0, 2: 5.0}, 0.5)
    """

    def __init__(self, pairs=()):
        self.pairs = tuple(pairs)
        self.entries = []  # (level, gain) of the integer-named pairs, in order (duplicates kept)
        for name, value in self.pairs:
            body = name[1:] if name[:1] in "+-" else name
            if body.isdigit() and body.isascii():
                self.entries.append((int(name), float(value)))
        self.levels = {}
        for level, gain in self.entries:
            self.levels.setdefault(level, gain)

    def value(self, name, default):
        """The last value given for ``name`` (trec_eval reads ``p`` that way), else ``default``."""
        out = default
        for n, v in self.pairs:
            if n == name:
                out = float(v)
        return out

    def key(self):
        return tuple(self.entries)


def _c_int(x: float) -> int:
    """C's conversion of a double to int: truncation toward zero."""
    return int(x) if math.isfinite(x) else 0


def _msort(items, cmp):
    """glibc's ``qsort`` (a top-down merge sort, stable) with comparison ``cmp``."""
    n = len(items)
    if n <= 1:
        return list(items)
    n1 = n // 2
    a, b = _msort(items[:n1], cmp), _msort(items[n1:], cmp)
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if cmp(a[i], b[j]) <= 0:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]


def _walk(gains: Gains, n_levels: int, present):
    """trec_eval's gain table of a topic with grades 0 .. n_levels - 1, from the highest gain down.

    Returns ``[(index, level, gain)]`` in walk order, ``index`` being the entry's place in
    the unsorted table (where the topic's count of a grade is kept: the first entry of it).
    """
    table = list(gains.entries)
    named = {lv for lv, _ in table}
    grades = range(n_levels) if n_levels <= _MANY_LEVELS else sorted(present)
    table += [(i, float(i)) for i in grades if i not in named]
    indexed = [(k, lv, g) for k, (lv, g) in enumerate(table)]
    ordered = _msort(indexed, lambda x, y: _c_int(x[2] - y[2]))
    return ordered[::-1]


class Context:
    """Quantities shared by several measures, computed once on demand."""

    def __init__(self, r: Ranked, num_docs: int = 0):
        self.r = r
        self.T = r.ntopics
        self.num_docs = num_docs
        # trec_eval tests rel >= level on the ranked list (so with a level <= -1,
        # unjudged documents pass) but counts num_rel_ret on judged documents only
        self.isrel = r.isrel
        self.rel = _Sparse(r, np.flatnonzero(self.isrel))
        judged_rel = (r.rel >= 0) & self.isrel
        self.judged_rel = judged_rel
        self.num_rel_ret = seg_count(judged_rel, r.seg, self.T)
        self._cache = {}

    @property
    def cumrel(self):
        """Running count of relevant documents at every row."""
        if "cumrel" not in self._cache:
            self._cache["cumrel"] = self.r.cum(self.isrel)
        return self._cache["cumrel"]

    def rel_at(self, k):
        """Relevant documents among the first ``k`` retrieved, per topic."""
        return self.rel.upto(k)

    @property
    def prec_at_rel(self):
        """Precision at each relevant row (trec_eval's AP summands), and the rows."""
        if "prec" not in self._cache:
            rows = self.rel.rows
            self._cache["prec"] = (rows, (self.rel.local + 1) / (self.r.pos[rows] + 1.0))
        return self._cache["prec"]

    # --- gains -------------------------------------------------------------

    def gain(self, gains: Gains | None = None) -> np.ndarray:
        """Gain of each ranked row (trec_eval's ``get_gain``)."""
        key = ("gain", None if gains is None else gains.key())
        if key not in self._cache:
            rel = self.r.rel
            g = np.where(rel > 0, rel, 0).astype(np.float64)
            if gains is not None:
                for level, value in reversed(list(gains.levels.items())):
                    g[rel == level] = value
            self._cache[key] = g
        return self._cache[key]

    def ideal(self, gains: Gains | None = None):
        """The ideal ranking's gains: (gains, topic, position, start per topic, length per topic)."""
        key = ("ideal", None if gains is None else gains.key())
        if key in self._cache:
            return self._cache[key]
        r = self.r
        if gains is None or not gains.entries:
            out = (r.ideal.astype(np.float64), r.ideal_seg, r.ideal_pos, r.ideal_starts, r.num_pos)
            self._cache[key] = out
            return out
        t, g, n = r.levels
        n_levels = np.zeros(self.T, dtype=np.int64)
        np.maximum.at(n_levels, t, g + 1)
        rank = np.zeros(len(t), dtype=np.int64)
        value = np.zeros(len(t))
        for lv_count in np.unique(n_levels[t]).tolist():
            sel = np.flatnonzero(n_levels[t] == lv_count)
            walk = _walk(gains, lv_count, set(g[sel].tolist()))
            first = {}
            for k, lv, _ in sorted(walk):
                first.setdefault(lv, k)  # the count of a grade goes to its first entry
            place = {k: (i, gv) for i, (k, _, gv) in enumerate(walk)}
            found = [place[first[lv]] for lv in g[sel].tolist()]
            rank[sel] = [f[0] for f in found]
            value[sel] = [f[1] for f in found]
        # the walk stops at the first grade (with documents) whose gain is not positive
        stop = np.full(self.T, np.iinfo(np.int64).max)
        bad = value <= 0
        np.minimum.at(stop, t[bad], rank[bad])
        keep = rank < stop[t]
        t, rank, value, n = t[keep], rank[keep], value[keep], n[keep]
        o = np.lexsort((rank, t))
        t, value, n = t[o], value[o], n[o]
        gains_flat = np.repeat(value, n)
        seg = np.repeat(t, n)
        length = np.bincount(seg, minlength=self.T).astype(np.int64)
        starts = np.cumsum(length) - length
        pos = np.arange(len(seg), dtype=np.int64) - starts[seg]
        out = (gains_flat, seg, pos, starts, length)
        self._cache[key] = out
        return out

    def dcg_cum(self, gains: Gains | None = None):
        """Running DCG at every retrieved row (gain / log2(rank + 1), adding non-zero gains)."""
        key = ("dcg", None if gains is None else gains.key())
        if key not in self._cache:
            r = self.r
            g = self.gain(gains)
            contrib = np.where(g != 0, g / np.log2(r.pos + 2.0), 0.0)
            self._cache[key] = seg_cumsum(contrib, r.seg, r.pos, r.num_ret)
        return self._cache[key]

    def idcg_cum(self, gains: Gains | None = None):
        """Running DCG of the ideal ranking at every row of it."""
        key = ("idcg", None if gains is None else gains.key())
        if key not in self._cache:
            ideal, seg, pos, _, length = self.ideal(gains)
            self._cache[key] = seg_cumsum(ideal / np.log2(pos + 2.0), seg, pos, length)
        return self._cache[key]

    def dcg_at(self, k, gains: Gains | None = None):
        """DCG of the first ``k`` retrieved documents, per topic."""
        r = self.r
        return value_at(self.dcg_cum(gains), r.starts, r.num_ret, k).astype(np.float64)

    def idcg_at(self, k, gains: Gains | None = None):
        """DCG of the first ``k`` documents of the ideal ranking, per topic."""
        _, _, _, starts, length = self.ideal(gains)
        return value_at(self.idcg_cum(gains), starts, length, k).astype(np.float64)

    def idcg_total(self, gains: Gains | None = None):
        _, _, _, _, length = self.ideal(gains)
        return self.idcg_at(length, gains)

    @property
    def surplus(self):
        """Relevant rows beyond num_rel_ret per topic (non-zero only with -l below 0, where unjudged rows pass)."""
        return self.rel.count - self.num_rel_ret

    @property
    def int_prec(self):
        """Interpolated precision at every row: max precision at or below it.

        trec_eval counts down from num_rel_ret at each relevant row from the bottom and stops
        at 0; with a level below 0 more rows pass than num_rel_ret counts, so its running
        count is the usual one minus the surplus, and rows above where it stops take no part.
        """
        if "iprec" not in self._cache:
            r = self.r
            eff = self.cumrel - self.surplus[r.seg]
            prec = np.where(eff >= 1, eff / (r.pos + 1.0), -np.inf)
            self._cache["iprec"] = seg_suffix_max(prec, r.seg, self.T)
        return self._cache["iprec"]

    def kth_rel_row(self, k):
        """Row of the k-th (1-based) relevant document of each topic (k >= 1)."""
        rows = self.rel.rows
        first = self.rel.first
        return (
            rows[np.minimum(first + np.maximum(k, 1) - 1, max(len(rows) - 1, 0))]
            if len(rows)
            else np.zeros(self.T, np.int64)
        )


class _Sparse:
    """Rows of interest of each topic (in rank order), for counts and sums up to a depth.

    ``upto(k)`` gives, per topic, how many of these rows lie in the first
    ``k`` ranks, by one binary search over (topic, rank) keys instead of a
    pass over every retrieved row.
    """

    def __init__(self, r: Ranked, rows: np.ndarray):
        self.rows = rows
        self.seg = r.seg[rows]
        self.count = np.bincount(self.seg, minlength=r.ntopics).astype(np.int64)
        self.first = np.cumsum(self.count) - self.count
        self.local = np.arange(len(rows), dtype=np.int64) - np.repeat(self.first, self.count)
        self._span = int(r.num_ret.max()) + 1 if len(r.num_ret) else 1
        self._keys = self.seg.astype(np.int64) * self._span + r.pos[rows]
        self._num_ret = r.num_ret

    def upto(self, k) -> np.ndarray:
        T = len(self.count)
        k = np.broadcast_to(np.asarray(k, dtype=np.int64), (T,))
        k = np.clip(k, 0, self._num_ret)
        bound = np.arange(T, dtype=np.int64) * self._span + k
        return np.searchsorted(self._keys, bound) - self.first


# --- the measures ------------------------------------------------------------


def counts(c: Context, params=None):
    """trec_eval's num_ret, num_rel, num_rel_ret: {name: per-topic int array}."""
    r = c.r
    num_ret = np.where(r.bogus, 0, r.num_ret)
    return {"num_ret": num_ret, "num_rel": r.num_rel, "num_rel_ret": c.num_rel_ret}


def ap(c: Context):
    """Average precision of each topic (array): precision at each relevant document / num_rel."""
    rows, prec = c.prec_at_rel
    s = seg_sum(prec, c.r.seg[rows], c.T)
    return _div(s, c.r.num_rel)


def map_(c, params=None):
    """trec_eval's map: average precision of each topic."""
    return ap(c)


def gm_map(c, params=None):
    """trec_eval's gm_map: per-topic AP, averaged geometrically by evaluate()."""
    return ap(c)


def rprec(c, params=None):
    """trec_eval's Rprec: precision after num_rel documents, per topic."""
    return _div(c.rel_at(c.r.num_rel), c.r.num_rel)


def bpref_values(c):
    """bpref of each topic as an array (for bpref and gm_bpref)."""
    r = c.r
    judged_nonrel = (r.rel >= 0) & (r.rel < r.level)
    nonrel_before = r.cum(judged_nonrel) - judged_nonrel
    rows = np.flatnonzero(c.judged_rel)  # judged and at or above the level
    R = r.num_rel[r.seg[rows]]
    nb = nonrel_before[rows]
    denom = np.minimum(r.num_nonrel, r.num_rel)[r.seg[rows]]
    frac = _div(np.minimum(nb, R), denom)
    contrib = np.where(nb > 0, 1.0 - frac, 1.0)
    return _div(seg_sum(contrib, r.seg[rows], c.T), r.num_rel)


def bpref(c, params=None):
    """trec_eval's bpref: per-topic bpref."""
    return bpref_values(c)


def gm_bpref(c, params=None):
    """trec_eval's gm_bpref: per-topic bpref, averaged geometrically by evaluate()."""
    return bpref_values(c)


def recip_rank(c, params=None):
    """trec_eval's recip_rank: 1 / rank of the first relevant document, or 0."""
    r = c.r
    has = c.rel.count > 0
    if not has.any():  # also: no row at all (-M 0)
        return np.zeros(c.T)
    first_pos = r.pos[c.kth_rel_row(np.ones(c.T, np.int64))]
    return np.where(has, _div(1.0, first_pos + 1.0), 0.0)


def iprec_values(c, fractions):
    """Interpolated precision at recall fractions (rounded like C's lround)."""
    r = c.r
    out = []
    for p in fractions:
        cut = np.floor(p * r.num_rel + 0.5).astype(np.int64)
        row = c.kth_rel_row(np.maximum(cut, 1) + c.surplus)
        value = np.where(c.num_rel_ret > 0, c.int_prec[row] if len(c.int_prec) else 0.0, 0.0)
        # an empty ranking (-M 0): trec_eval's precision num_rel_ret / num_ret is 0.0 / 0.0
        value = np.where(r.num_ret == 0, _C_NAN, value)
        out.append(np.where(cut <= c.num_rel_ret, value, 0.0))
    return out


def iprec_at_recall(c, params):
    """trec_eval's iprec_at_recall: interpolated precision at each recall level of ``params``."""
    return iprec_values(c, params)


def eleven_pt(c, params):
    """trec_eval's 11pt_avg: mean interpolated precision at the recall levels ``params``."""
    values = iprec_values(c, params)
    total = np.zeros(c.T)
    for v in reversed(values):  # trec_eval adds from the highest cutoff down
        total = total + v
    return total / len(params)


def P(c, params):
    """trec_eval's P: relevant documents in the first k / k, for each k in ``params``."""
    return [c.rel_at(k) / float(k) for k in params]


def recall(c, params):
    """trec_eval's recall: relevant in the first k / num_rel, for each k."""
    return [_div(c.rel_at(k), c.r.num_rel) for k in params]


def relative_P(c, params):
    """trec_eval's relative_P: relevant in the first k / min(k, num_rel)."""
    return [_div(c.rel_at(k), np.minimum(k, c.r.num_rel)) for k in params]


def success(c, params):
    """trec_eval's success: 1.0 if a relevant document is in the first k, else 0."""
    return [(c.rel_at(k) > 0).astype(np.float64) for k in params]


def map_cut(c, params):
    """trec_eval's map_cut: AP of the first k ranks, over num_rel, for each k."""
    rows, prec = c.prec_at_rel
    out = []
    for k in params:
        sel = c.r.pos[rows] < k
        out.append(_div(seg_sum(prec[sel], c.r.seg[rows][sel], c.T), c.r.num_rel))
    return out


def rprec_mult(c, params):
    """trec_eval's Rprec_mult: precision after (long)(m * R + 0.9) documents, for each m."""
    out = []
    for p in params:
        cut = np.floor(p * c.r.num_rel + 0.9).astype(np.int64)
        # trec_eval counts down from num_rel_ret (see int_prec): the surplus is subtracted
        found = c.rel_at(cut) - c.surplus
        out.append(np.where(found > 0, _div(found, cut), 0.0))
    return out


def infap(c, params=None):
    """trec_eval's infAP: inferred average precision of each topic."""
    r = c.r
    judged_nonrel = (r.rel >= 0) & (r.rel < r.level)
    unjudged = r.rel == UNJUDGED
    rows = np.flatnonzero(c.judged_rel)
    rel_before = r.cum(c.judged_rel)[rows] - 1
    nonrel_before = (r.cum(judged_nonrel) - judged_nonrel)[rows]
    unj_before = (r.cum(unjudged) - unjudged)[rows]
    fj = r.pos[rows].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((rel_before + nonrel_before + unj_before) / fj) * (
            (rel_before + INFAP_EPSILON) / (rel_before + nonrel_before + 2 * INFAP_EPSILON)
        )
    contrib = np.where(fj == 0, 1.0, later)
    return _div(seg_sum(contrib, r.seg[rows], c.T), r.num_rel)


def utility(c, params=(1.0, -1.0, 0.0, 0.0), clear=True):
    """trec_eval's utility: p1 * a + p2 * b + p3 * c + p4 * d over the contingency table (a: relevant retrieved)."""
    r = c.r
    a = c.num_rel_ret.astype(np.float64)
    ret = r.num_ret.astype(np.float64)
    rel = r.num_rel.astype(np.float64)
    p1, p2, p3, p4 = params
    # trec_eval's -c topics are a ranking of one unjudged document, then its num_ret, utility,
    # relstring, unj_* and rbp_resid are reset; a name with parameters (utility_1,-2,0,0) is not
    value = p1 * a + p2 * (ret - a) + p3 * (rel - a) + p4 * (c.num_docs + a - ret - rel)
    return np.where(r.bogus & clear, 0.0, value)


def bin_g(c, params=None):
    """trec_eval's binG: per-topic binary gain with a log2 discount, over num_rel."""
    r = c.r
    rows = np.flatnonzero(c.isrel)
    contrib = 1.0 / np.log2(3.0 + r.pos[rows] - c.cumrel[rows])
    total = seg_sum(contrib, r.seg[rows], c.T)
    return np.where(c.rel.count > 0, _div(total, r.num_rel), 0.0)


def g_measure(c, params=()):
    """trec_eval's G: gain / log2(2 + ideal cost - gain so far), summed, over the ideal gain."""
    gains = Gains(params)
    r = c.r
    gain = c.gain(gains)
    ideal, iseg, _, istarts, ilen = c.ideal(gains)
    sum_results = seg_cumsum(gain, r.seg, r.pos, r.num_ret)
    # cost of the ideal ranking at each rank: its gain, but at least 1
    ideal_here = np.zeros(len(r.rel))
    inside = r.pos < ilen[r.seg]
    ideal_here[inside] = ideal[istarts[r.seg[inside]] + r.pos[inside]]
    cost = np.maximum(ideal_here, 1.0)
    sum_cost = seg_cumsum(cost, r.seg, r.pos, r.num_ret)
    contrib = np.where(gain != 0, gain / np.log2(2 + sum_cost - sum_results), 0.0)
    total = seg_sum(contrib, r.seg, c.T)
    sum_ideal = seg_sum(np.where(ideal > 0, ideal, 0.0), iseg, c.T)
    return np.where(sum_ideal > 0, _div(total, sum_ideal), 0.0)


def dcg(c, params=()):
    """trec_eval's dcg: DCG of the whole ranking (gains from ``params``), per topic."""
    return c.dcg_at(c.r.num_ret, Gains(params))


def ideal_dcg(c, params=()):
    """trec_eval's ideal_dcg: DCG of the ideal ranking (gains from ``params``), per topic."""
    return c.idcg_total(Gains(params))


def ndcg(c, params=()):
    """trec_eval's ndcg: DCG of the ranking / DCG of the ideal ranking, per topic."""
    gains = Gains(params)
    ideal = c.idcg_total(gains)
    return np.where(ideal > 0, _div(c.dcg_at(c.r.num_ret, gains), ideal), 0.0)


def ndcg_cut(c, params):
    """trec_eval's ndcg_cut: DCG of the first k / ideal DCG at k, for each k (grades as gains)."""
    return [_div(c.dcg_at(k), c.idcg_at(k)) for k in params]


def ndcg_rel(c, params=()):
    """trec_eval's ndcg_rel: nDCG averaged over the relevant (positive-gain) documents, per topic."""
    gains = Gains(params)
    r = c.r
    g = c.gain(gains)
    ideal, _, _, istarts, ilen = c.ideal(gains)
    icum = c.idcg_cum(gains)
    rows = np.flatnonzero(g > 0)
    seg = r.seg[rows]
    depth = np.minimum(r.pos[rows] + 1, ilen[seg])
    ideal_here = (
        icum[np.minimum(istarts[seg] + np.maximum(depth, 1) - 1, max(len(icum) - 1, 0))]
        if len(icum)
        else np.zeros(len(rows))
    )
    ideal_here = np.where(depth > 0, ideal_here, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        total = seg_sum(c.dcg_cum(gains)[rows] / ideal_here, seg, c.T)
        retrieved = np.bincount(seg, minlength=c.T)
        final_dcg = c.dcg_at(r.num_ret, gains)
        final_ideal = c.idcg_at(ilen, gains)
        total = total + ((ilen - retrieved).astype(np.float64) * final_dcg) / final_ideal
        value = total / ilen
    return np.where(total > 0, value, 0.0)


def rndcg(c, params=()):
    """trec_eval's Rndcg: nDCG averaged where the ideal gain changes, and at num_ret."""
    gains = Gains(params)
    r = c.r
    ideal, iseg, ipos, istarts, ilen = c.ideal(gains)
    icum = c.idcg_cum(gains)
    # boundaries: the ends of the runs of equal ideal gain
    change = np.ones(len(ideal), dtype=bool)
    if len(ideal):
        change[:-1] = (ideal[1:] != ideal[:-1]) | (iseg[1:] != iseg[:-1])
    ends = np.flatnonzero(change)
    bseg = iseg[ends]
    depth = ipos[ends] + 1
    dcg_cum = c.dcg_cum(gains)
    k = np.minimum(depth, r.num_ret[bseg])
    here = np.where(k > 0, dcg_cum[r.starts[bseg] + np.maximum(k, 1) - 1] if len(dcg_cum) else 0.0, 0.0)
    ok = icum[ends] > 0
    total = seg_sum(np.where(ok, _div(here, icum[ends]), 0.0), bseg, c.T)
    count = np.bincount(bseg[ok], minlength=c.T).astype(np.float64)
    ideal_total = c.idcg_at(ilen, gains)
    extra = ((ilen + 1) < r.num_ret) & (ideal_total > 0)
    final = _div(c.dcg_at(r.num_ret, gains), ideal_total)
    total = np.where(extra, total + final, total)
    count = count + extra
    with np.errstate(invalid="ignore", divide="ignore"):
        value = total / count
    return np.where(r.num_rel > 0, value, 0.0)


def sets(c, params=None):
    """trec_eval's set_P, set_relative_P, set_recall, set_map: {name: per-topic array}."""
    r = c.r
    a = c.num_rel_ret.astype(np.float64)
    ret = r.num_ret.astype(np.float64)
    rel = r.num_rel.astype(np.float64)
    return {
        "set_P": _div(a, ret),
        "set_relative_P": np.where((ret > 0) & (rel > 0), _div(a, np.minimum(ret, rel)), 0.0),
        "set_recall": _div(a, rel),
        # trec_eval: num_rel_ret^2 / (num_ret * num_rel), not P * R (they differ in the last bit)
        "set_map": np.where((ret > 0) & (rel > 0), _div(a * a, ret * rel), 0.0),
    }


def set_f(c, params=(1.0,)):
    """trec_eval's set_F: (x + 1) P R / (x P + R) with x = ``params[0]`` (default 1)."""
    r = c.r
    a = c.num_rel_ret.astype(np.float64)
    x = float(params[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        p = a / r.num_ret
        rc = a / r.num_rel
        value = (x + 1.0) * p * rc / (x * p + rc)
    return np.where(a > 0, value, 0.0)


def num_nonrel_judged_ret(c, params=None):
    """trec_eval's num_nonrel_judged_ret: judged non-relevant retrieved, int."""
    r = c.r
    return seg_count((r.rel >= 0) & (r.rel < r.level), r.seg, c.T)


def yaap(c, params=None):
    """trec_eval's yaap: log((1 + S) / (1 + num_rel - S)), S the sum of precisions at relevant documents."""
    rows, prec = c.prec_at_rel
    s = seg_sum(prec, c.r.seg[rows], c.T)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log((1.0 + s) / (1.0 + c.r.num_rel - s))


def _powers(n, p):
    out = np.empty(max(n, 1) + 1)
    out[0] = 1.0
    out[1:] = p
    return np.cumprod(out)  # p**i by repeated multiplication, as trec_eval


def _gain_range(gains: Gains, n_levels: int):
    """Lowest and highest gain of trec_eval's gain table for grades 0 .. n_levels - 1 (and 0.0).

    The table holds the named gains and every unnamed grade as its own gain; its extremes
    come from the named ones and the lowest and highest unnamed grades, without listing the
    grades (a grade of 10**15 is a table of 10**15 entries in trec_eval).  The 0.0 stands
    for trec_eval's starting minimum and maximum, which it leaves uninitialised (0 in practice).
    """
    named = set(gains.levels)
    values = [gain for _, gain in gains.entries] + [0.0]
    low = next((i for i in range(len(named) + 1) if i not in named), None)
    high = next((n_levels - 1 - i for i in range(len(named) + 1) if n_levels - 1 - i not in named), None)
    for grade in (low, high):
        if grade is not None and 0 <= grade < n_levels:
            values.append(float(grade))
    return min(values), max(values)


def rbp(c, params=()):
    """trec_eval's rbp: rank-biased precision with persistence ``p`` (default 0.9) and gains."""
    gains = Gains(params)
    p = gains.value("p", RBP_P)
    r = c.r
    pw = _powers(int(r.num_ret.max()), p)
    rel = r.rel
    gain = c.gain(gains)
    # trec_eval rescales a topic's gains to [0, 1] when one is outside it
    t, g, _ = r.levels
    n_levels = np.zeros(c.T, dtype=np.int64)
    np.maximum.at(n_levels, t, g + 1)
    lo, hi = np.zeros(c.T), np.zeros(c.T)
    for lv_count in np.unique(n_levels).tolist():
        lo[n_levels == lv_count], hi[n_levels == lv_count] = _gain_range(gains, lv_count)
    in_table = (rel >= 0) | np.isin(rel, list(gains.levels))
    mn, mx = lo[r.seg], hi[r.seg]
    scale = ((mn < 0) | (mx > 1)) & in_table
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(scale, (gain - mn) / (mx - mn), gain)
    total = seg_sum(np.where(gain != 0, gain * pw[r.pos], 0.0), r.seg, c.T)
    return (1.0 - p) * total


def rbp_resid(c, params=(), clear=True):
    """trec_eval's rbp_resid: RBP weight left to unjudged and unranked ranks (persistence ``p``)."""
    p = Gains(params).value("p", RBP_P)
    r = c.r
    pw = _powers(int(r.num_ret.max()), p)
    unj = r.rel < 0
    total = seg_sum(np.where(unj, pw[r.pos], 0.0), r.seg, c.T)
    value = pw[r.num_ret] + (1 - p) * total
    has = seg_count(unj, r.seg, c.T) > 0
    return np.where(has & ~(r.bogus & clear), value, 0.0)


def unj(c, params):
    """trec_eval's unj: unjudged documents in the first k / k, for each k in ``params``."""
    r = c.r
    cum = r.cum((r.rel == NONPOOL) | (r.rel == UNJUDGED))
    out = []
    for k in params:
        v = value_at(cum, r.starts, r.num_ret, k) / float(k)
        out.append(np.where(r.bogus, 0.0, v))
    return out


def relstring(c, params=(10.0,), clear=True):
    """trec_eval's relstring: the grades of the first ``params[0]`` ranks, as a quoted string."""
    r = c.r
    width = min(max(_c_int(float(params[0])), 0), int(r.num_ret.max()) if len(r.num_ret) else 0)
    chars = np.where(
        r.rel > 9,
        ord(">"),
        np.where(
            r.rel >= 0,
            ord("0") + np.minimum(np.maximum(r.rel, 0), 9),
            np.where(r.rel == NONPOOL, ord("-"), np.where(r.rel == UNJUDGED, ord("."), ord("<"))),
        ),
    )
    grid = np.zeros((c.T, max(width, 1)), dtype=np.uint8)
    sel = (r.pos < width) & ~(r.bogus[r.seg] & clear)
    grid[r.seg[sel], r.pos[sel]] = chars[sel]
    strings = grid.view(f"S{grid.shape[1]}").ravel()
    return np.array(["'" + s.decode() + "'" for s in strings.tolist()], dtype=object)
