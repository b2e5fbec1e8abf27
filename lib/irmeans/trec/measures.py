"""Per-topic measures with trec_eval 10's definitions, over a :class:`Ranked`.

Every function takes the ranked lists (and, for families with cutoffs, the
cutoffs) and returns ``{measure name: array over topics}``.  Comments give
trec_eval's convention where it is not the obvious one.
"""

from __future__ import annotations

import numpy as np

from .join import NONPOOL, UNJUDGED, Ranked
from .segments import seg_count, seg_cumsum, seg_suffix_max, seg_sum, value_at

__all__ = [
    "Context",
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
    "ndcg",
    "ndcg_cut",
    "ndcg_rel",
    "rndcg",
    "sets",
    "num_nonrel_judged_ret",
    "rbp",
    "rbp_resid",
    "unj",
    "relstring",
]

MIN_GEO_MEAN = 1e-5  # floor of gm_map / gm_bpref
INFAP_EPSILON = 1e-5
RBP_P = 0.9


def _div(num, den):
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape)
    np.divide(num, den, out=out, where=den != 0)
    return out


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
        self._keys = self.seg * self._span + r.pos[rows]
        self._num_ret = r.num_ret

    def upto(self, k) -> np.ndarray:
        T = len(self.count)
        k = np.broadcast_to(np.asarray(k, dtype=np.int64), (T,))
        k = np.clip(k, 0, self._num_ret)
        bound = np.arange(T, dtype=np.int64) * self._span + k
        return np.searchsorted(self._keys, bound) - self.first

    def last_value(self, cum: np.ndarray, k) -> np.ndarray:
        """``cum`` (one value per row of interest) at the last such row in the first ``k`` ranks, else 0."""
        n = self.upto(k)
        idx = np.maximum(self.first + n - 1, 0)
        out = cum[np.minimum(idx, max(len(cum) - 1, 0))] if len(cum) else np.zeros(len(n))
        return np.where(n > 0, out, 0.0)


class Context:
    """Quantities shared by several measures, computed once on demand."""

    def __init__(self, r: Ranked):
        self.r = r
        self.T = r.ntopics
        self.isrel = r.isrel
        self.rel = _Sparse(r, np.flatnonzero(self.isrel))
        self.num_rel_ret = self.rel.count
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

    @property
    def gain(self):
        """Gain of each row: its grade if positive, else 0 (trec_eval's default gains)."""
        return np.where(self.r.rel > 0, self.r.rel, 0).astype(np.float64)

    @property
    def dcg_cum(self):
        """Running DCG at every retrieved row (gain / log2(rank + 1))."""
        if "dcg" not in self._cache:
            r = self.r
            g = self.gain
            contrib = np.where(g != 0, g / np.log2(r.pos + 2.0), 0.0)
            self._cache["dcg"] = seg_cumsum(contrib, r.seg, r.pos, r.num_ret)
        return self._cache["dcg"]

    @property
    def _gained(self):
        """Running DCG at the rows with a positive gain only (adding zeros changes no sum)."""
        if "gained" not in self._cache:
            r = self.r
            pos = _Sparse(r, np.flatnonzero(r.rel > 0))
            contrib = r.rel[pos.rows].astype(np.float64) / np.log2(r.pos[pos.rows] + 2.0)
            self._cache["gained"] = (pos, seg_cumsum(contrib, pos.seg, pos.local, pos.count))
        return self._cache["gained"]

    @property
    def idcg_cum(self):
        """Running DCG of the ideal ranking at every row of it."""
        if "idcg" not in self._cache:
            r = self.r
            contrib = r.ideal / np.log2(r.ideal_pos + 2.0)
            self._cache["idcg"] = seg_cumsum(contrib, r.ideal_seg, r.ideal_pos, r.num_pos)
        return self._cache["idcg"]

    def dcg_at(self, k):
        """DCG of the first ``k`` retrieved documents, per topic."""
        pos, cum = self._gained
        return pos.last_value(cum, k).astype(np.float64)

    def idcg_at(self, k):
        """DCG of the first ``k`` documents of the ideal ranking, per topic."""
        return value_at(self.idcg_cum, self.r.ideal_starts, self.r.num_pos, k).astype(np.float64)

    @property
    def int_prec(self):
        """Interpolated precision at every row: max precision at or below it."""
        if "iprec" not in self._cache:
            r = self.r
            prec = self.cumrel / (r.pos + 1.0)
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


def counts(c: Context):
    """trec_eval's num_ret, num_rel, num_rel_ret: {name: per-topic int array}."""
    r = c.r
    num_ret = np.where(r.bogus, 0, r.num_ret)
    return {"num_ret": num_ret, "num_rel": r.num_rel, "num_rel_ret": c.num_rel_ret}


def ap(c: Context):
    """Average precision of each topic (array): precision at each relevant document / num_rel."""
    rows, prec = c.prec_at_rel
    s = seg_sum(prec, c.r.seg[rows], c.T)
    return _div(s, c.r.num_rel)


def map_(c):
    """trec_eval's map: {"map": average precision of each topic}."""
    return {"map": ap(c)}


def gm_map(c):
    """trec_eval's gm_map: {"gm_map": per-topic AP}, averaged geometrically by evaluate()."""
    return {"gm_map": ap(c)}


def rprec(c):
    """trec_eval's Rprec: {"Rprec": precision after num_rel documents, per topic}."""
    return {"Rprec": _div(c.rel_at(c.r.num_rel), c.r.num_rel)}


def bpref_values(c):
    """bpref of each topic as an array (for bpref and gm_bpref)."""
    r = c.r
    judged_nonrel = (r.rel >= 0) & (r.rel < r.level)
    nonrel_before = r.cum(judged_nonrel) - judged_nonrel
    rows = np.flatnonzero(c.isrel)
    R = r.num_rel[r.seg[rows]]
    nb = nonrel_before[rows]
    denom = np.minimum(r.num_nonrel, r.num_rel)[r.seg[rows]]
    frac = _div(np.minimum(nb, R), denom)
    contrib = np.where(nb > 0, 1.0 - frac, 1.0)
    return _div(seg_sum(contrib, r.seg[rows], c.T), r.num_rel)


def bpref(c):
    """trec_eval's bpref: {"bpref": per-topic bpref}."""
    return {"bpref": bpref_values(c)}


def gm_bpref(c):
    """trec_eval's gm_bpref: {"gm_bpref": per-topic bpref}, averaged geometrically by evaluate()."""
    return {"gm_bpref": bpref_values(c)}


def recip_rank(c):
    """trec_eval's recip_rank: {"recip_rank": 1 / rank of the first relevant document, or 0}."""
    r = c.r
    has = c.num_rel_ret > 0
    first_pos = r.pos[c.kth_rel_row(np.ones(c.T, np.int64))]
    return {"recip_rank": np.where(has, _div(1.0, first_pos + 1.0), 0.0)}


def iprec_values(c, fractions):
    """Interpolated precision at recall fractions (rounded like C's lround)."""
    r = c.r
    out = []
    for p in fractions:
        cut = np.floor(p * r.num_rel + 0.5).astype(np.int64)
        row = c.kth_rel_row(np.maximum(cut, 1))
        value = np.where(c.num_rel_ret > 0, c.int_prec[row] if len(c.int_prec) else 0.0, 0.0)
        out.append(np.where(cut <= c.num_rel_ret, value, 0.0))
    return out


def iprec_at_recall(c, params):
    """trec_eval's iprec_at_recall: {"iprec_at_recall_0.10": interpolated precision, ...}."""
    return {f"iprec_at_recall_{p:3.2f}": v for p, v in zip(params, iprec_values(c, params))}


def eleven_pt(c, params):
    """trec_eval's 11pt_avg: {"11pt_avg": mean interpolated precision at the recall levels}."""
    values = iprec_values(c, params)
    total = np.zeros(c.T)
    for v in reversed(values):  # trec_eval adds from the highest cutoff down
        total = total + v
    return {"11pt_avg": total / len(params)}


def P(c, params):
    """trec_eval's P: {"P_k": relevant documents in the first k / k} for each k in params."""
    return {f"P_{k}": c.rel_at(k) / float(k) for k in params}


def recall(c, params):
    """trec_eval's recall: {"recall_k": relevant in the first k / num_rel} for each k."""
    return {f"recall_{k}": _div(c.rel_at(k), c.r.num_rel) for k in params}


def relative_P(c, params):
    """trec_eval's relative_P: {"relative_P_k": relevant in the first k / min(k, num_rel)}."""
    return {f"relative_P_{k}": _div(c.rel_at(k), np.minimum(k, c.r.num_rel)) for k in params}


def success(c, params):
    """trec_eval's success: {"success_k": 1.0 if a relevant document is in the first k, else 0}."""
    return {f"success_{k}": (c.rel_at(k) > 0).astype(np.float64) for k in params}


def map_cut(c, params):
    """trec_eval's map_cut: {"map_cut_k": AP of the first k ranks, over num_rel} for each k."""
    rows, prec = c.prec_at_rel
    out = {}
    for k in params:
        sel = c.r.pos[rows] < k
        out[f"map_cut_{k}"] = _div(seg_sum(prec[sel], c.r.seg[rows][sel], c.T), c.r.num_rel)
    return out


def rprec_mult(c, params):
    """trec_eval's Rprec_mult: {"Rprec_mult_m": precision after (long)(m * R + 0.9) documents}."""
    out = {}
    for p in params:
        cut = np.floor(p * c.r.num_rel + 0.9).astype(np.int64)
        out[f"Rprec_mult_{p:3.2f}"] = _div(c.rel_at(cut), cut)
    return out


def infap(c):
    """trec_eval's infAP: {"infAP": inferred average precision of each topic}."""
    r = c.r
    judged_nonrel = (r.rel >= 0) & (r.rel < r.level)
    unjudged = r.rel == UNJUDGED
    rows = np.flatnonzero(c.isrel)
    rel_before = c.cumrel[rows] - 1
    nonrel_before = (r.cum(judged_nonrel) - judged_nonrel)[rows]
    unj_before = (r.cum(unjudged) - unjudged)[rows]
    fj = r.pos[rows].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((rel_before + nonrel_before + unj_before) / fj) * (
            (rel_before + INFAP_EPSILON) / (rel_before + nonrel_before + 2 * INFAP_EPSILON)
        )
    contrib = np.where(fj == 0, 1.0, later)
    return {"infAP": _div(seg_sum(contrib, r.seg[rows], c.T), r.num_rel)}


def utility(c):
    """trec_eval's utility: {"utility": num_rel_ret - (num_ret - num_rel_ret)} per topic."""
    r = c.r
    a = c.num_rel_ret.astype(np.float64)
    ret = r.num_ret.astype(np.float64)
    value = 1.0 * a + -1.0 * (ret - a) + 0.0 * (r.num_rel - a) + 0.0 * (a - ret - r.num_rel)
    return {"utility": np.where(r.bogus, 0.0, value)}


def bin_g(c):
    """trec_eval's binG: {"binG": per-topic binary gain with a log2 discount, over num_rel}."""
    r = c.r
    rows = np.flatnonzero(c.isrel)
    contrib = 1.0 / np.log2(3.0 + r.pos[rows] - c.cumrel[rows])
    total = seg_sum(contrib, r.seg[rows], c.T)
    return {"binG": np.where(c.num_rel_ret > 0, _div(total, r.num_rel), 0.0)}


def g_measure(c):
    """trec_eval's G: {"G": gain / log2(2 + ideal cost - gain so far), summed, over ideal gain}."""
    r = c.r
    gain = c.gain
    sum_results = seg_cumsum(gain, r.seg, r.pos, r.num_ret)
    # cost of the ideal ranking at each rank: its gain, but at least 1
    ideal_here = np.zeros(len(r.rel))
    inside = r.pos < r.num_pos[r.seg]
    src = r.ideal_starts[r.seg[inside]] + r.pos[inside]
    ideal_here[inside] = r.ideal[src]
    cost = np.maximum(ideal_here, 1.0)
    sum_cost = seg_cumsum(cost, r.seg, r.pos, r.num_ret)
    contrib = np.where(gain != 0, gain / np.log2(2 + sum_cost - sum_results), 0.0)
    total = seg_sum(contrib, r.seg, c.T)
    sum_ideal = seg_sum(r.ideal.astype(np.float64), r.ideal_seg, c.T)
    return {"G": _div(total, sum_ideal)}


def ndcg(c):
    """trec_eval's ndcg: {"ndcg": DCG of the ranking / DCG of the ideal ranking, per topic}."""
    r = c.r
    return {"ndcg": _div(c.dcg_at(r.num_ret), c.idcg_at(r.num_pos))}


def ndcg_cut(c, params):
    """trec_eval's ndcg_cut: {"ndcg_cut_k": DCG of the first k / ideal DCG at k} for each k."""
    return {f"ndcg_cut_{k}": _div(c.dcg_at(k), c.idcg_at(k)) for k in params}


def ndcg_rel(c):
    """trec_eval's ndcg_rel: {"ndcg_rel": nDCG averaged over the relevant documents, per topic}."""
    r = c.r
    rows = np.flatnonzero(c.gain > 0)
    seg = r.seg[rows]
    depth = np.minimum(r.pos[rows] + 1, r.num_pos[seg])
    ideal_here = (
        c.idcg_cum[np.minimum(r.ideal_starts[seg] + depth - 1, max(len(c.idcg_cum) - 1, 0))]
        if len(c.idcg_cum)
        else np.zeros(len(rows))
    )
    total = seg_sum(c.dcg_cum[rows] / ideal_here, seg, c.T)
    retrieved = np.bincount(seg, minlength=c.T)
    final = _div(c.dcg_at(r.num_ret), c.idcg_at(r.num_pos))
    total = total + (r.num_pos - retrieved) * final
    return {"ndcg_rel": np.where(total > 0, _div(total, r.num_pos), 0.0)}


def rndcg(c):
    """trec_eval's Rndcg: {"Rndcg": nDCG averaged where the ideal gain drops and at num_ret}."""
    r = c.r
    # boundaries: cumulative counts of each positive grade, highest grade first
    change = np.ones(len(r.ideal), dtype=bool)
    if len(r.ideal):
        change[:-1] = (r.ideal[1:] != r.ideal[:-1]) | (r.ideal_seg[1:] != r.ideal_seg[:-1])
    ends = np.flatnonzero(change)
    bseg = r.ideal_seg[ends]
    depth = r.ideal_pos[ends] + 1
    values = _div(_dcg_at_rows(c, bseg, depth), c.idcg_cum[ends])
    total = seg_sum(values, bseg, c.T)
    count = np.bincount(bseg, minlength=c.T).astype(np.float64)
    extra = (r.num_pos + 1) < r.num_ret
    final = _div(c.dcg_at(r.num_ret), c.idcg_at(r.num_pos))
    total = np.where(extra, total + final, total)
    count = count + extra
    with np.errstate(invalid="ignore", divide="ignore"):
        value = total / count
    return {"Rndcg": np.where(r.num_rel > 0, value, 0.0)}


def _dcg_at_rows(c, seg, depth):
    r = c.r
    k = np.minimum(depth, r.num_ret[seg])
    idx = r.starts[seg] + np.maximum(k, 1) - 1
    return np.where(k > 0, c.dcg_cum[idx], 0.0)


def sets(c):
    """trec_eval's set_P, set_relative_P, set_recall, set_map, set_F: {name: per-topic array}."""
    r = c.r
    a = c.num_rel_ret
    ret = r.num_ret
    p = _div(a, ret)
    rc = _div(a, r.num_rel)
    f = _div(2.0 * p * rc, p + rc)
    return {
        "set_P": p,
        "set_relative_P": _div(a, np.minimum(ret, r.num_rel)),
        "set_recall": rc,
        "set_map": p * rc,
        "set_F": f,
    }


def num_nonrel_judged_ret(c):
    """trec_eval's num_nonrel_judged_ret: {name: judged non-relevant retrieved, int}."""
    r = c.r
    return {"num_nonrel_judged_ret": seg_count((r.rel >= 0) & (r.rel < r.level), r.seg, c.T)}


def _powers(n, p):
    out = np.empty(max(n, 1) + 1)
    out[0] = 1.0
    out[1:] = p
    return np.cumprod(out)  # p**i by repeated multiplication, as trec_eval


def rbp(c):
    """trec_eval's rbp: {"rbp": rank-biased precision, persistence RBP_P, per topic}."""
    r = c.r
    pw = _powers(int(r.num_ret.max()), RBP_P)
    top = r.max_grade[r.seg].astype(np.float64)
    gain = c.gain
    # gains are rescaled to [0, 1] per topic when the highest grade is above 1
    gain = np.where(top > 1, _div(gain, top), gain)
    total = seg_sum(np.where(gain != 0, gain * pw[r.pos], 0.0), r.seg, c.T)
    return {"rbp": (1.0 - RBP_P) * total}


def rbp_resid(c):
    """trec_eval's rbp_resid: {"rbp_resid": RBP weight left to unjudged and unranked ranks}."""
    r = c.r
    pw = _powers(int(r.num_ret.max()), RBP_P)
    unj = r.rel < 0
    total = seg_sum(np.where(unj, pw[r.pos], 0.0), r.seg, c.T)
    value = pw[r.num_ret] + (1 - RBP_P) * total
    has = seg_count(unj, r.seg, c.T) > 0
    return {"rbp_resid": np.where(has & ~r.bogus, value, 0.0)}


def unj(c, params):
    """trec_eval's unj: {"unj_k": unjudged documents in the first k / k} for each k in params."""
    r = c.r
    cum = r.cum((r.rel == NONPOOL) | (r.rel == UNJUDGED))
    out = {}
    for k in params:
        v = value_at(cum, r.starts, r.num_ret, k) / float(k)
        out[f"unj_{k}"] = np.where(r.bogus, 0.0, v)
    return out


def relstring(c, params):
    """trec_eval's relstring: {"relstring": the grades of the first ranks, as a quoted string}."""
    r = c.r
    width = int(params[0])
    chars = np.where(
        r.rel > 9,
        ord(">"),
        np.where(
            r.rel >= 0,
            ord("0") + np.minimum(r.rel, 9),
            np.where(r.rel == NONPOOL, ord("-"), np.where(r.rel == UNJUDGED, ord("."), ord("<"))),
        ),
    )
    grid = np.zeros((c.T, max(width, 1)), dtype=np.uint8)
    sel = (r.pos < width) & ~r.bogus[r.seg]
    grid[r.seg[sel], r.pos[sel]] = chars[sel]
    strings = grid.view(f"S{grid.shape[1]}").ravel()
    return {"relstring": np.array(["'" + s.decode() + "'" for s in strings.tolist()], dtype=object)}
