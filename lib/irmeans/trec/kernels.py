"""trec_eval 10's measures, every topic at once: one kernel per measure family.

Each kernel is ``calc_NAME(c, params) -> list of per-topic arrays``: ``c`` is the
:class:`~.context.Context` of the evaluation (the ranked lists and what several measures
share), ``params`` the family's parameters as :mod:`.table` read them (cutoffs, gains,
numbers, or None), and the list holds one array per line the family prints (one per cutoff
for ``P``, one for ``map``), in the order of :attr:`~.table.Chosen.lines`.  What a family's
values mean for a topic evaluated under ``-c`` without results, and how they are averaged,
is the measure table's business (:mod:`.table`), not the kernel's.

Sums run topic by topic in trec_eval's order, so each topic's value is what trec_eval
computes for it, whatever else is evaluated.  Comments give trec_eval's convention where it
is not the obvious one.

>>> from irmeans.trec.evaluate import evaluate
>>> ev = evaluate((["1", "1"], ["a", "b"], [1, 1]), (["1", "1"], ["a", "c"], [2.0, 1.0]), measures=["P.1,2"])
>>> ev["P_1"].tolist(), ev["P_2"].tolist()
([1.0], [0.5])
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .._numeric import safe_div
from .context import Context
from .gains import Gains, c_long, gain_range
from .ranked import NONPOOL, UNJUDGED
from .segments import seg_count, seg_cumsum, seg_sum, stretches, value_at

__all__ = [
    "calc_num_q",
    "calc_num_ret",
    "calc_num_rel",
    "calc_num_rel_ret",
    "calc_map",
    "calc_rprec",
    "calc_bpref",
    "calc_recip_rank",
    "calc_iprec_at_recall",
    "calc_11pt_avg",
    "calc_P",
    "calc_recall",
    "calc_relative_P",
    "calc_success",
    "calc_map_cut",
    "calc_Rprec_mult",
    "calc_infAP",
    "calc_utility",
    "calc_binG",
    "calc_G",
    "calc_dcg",
    "calc_ideal_dcg",
    "calc_ndcg",
    "calc_ndcg_cut",
    "calc_ndcg_rel",
    "calc_Rndcg",
    "calc_set_P",
    "calc_set_relative_P",
    "calc_set_recall",
    "calc_set_map",
    "calc_set_F",
    "calc_num_nonrel_judged_ret",
    "calc_yaap",
    "calc_rbp",
    "calc_rbp_resid",
    "calc_unj",
    "calc_relstring",
    "Params",
    "Values",
]


#: A kernel's parameters: cutoffs, numbers or (name, value) pairs (see :mod:`.table`), or None.
Params = Any
#: A kernel's result: one per-topic array per line its family prints.
Values = list[np.ndarray]

INFAP_EPSILON = 1e-5
RBP_P = 0.9  # rbp's default persistence
# C's 0.0 / 0.0 on x86: the default NaN, whose sign bit is set (trec_eval prints "-nan")
_C_NAN = -np.nan


def _column(cutoffs: Params) -> np.ndarray:
    """Cutoffs as a column (int64): a kernel's values at every cutoff in one pass, a row each."""
    return np.asarray(cutoffs, dtype=np.int64).reshape(-1, 1)


def calc_num_q(c: Context, params: Params = None) -> Values:
    """trec_eval's num_q: each evaluated topic counts 1 (the table sums them)."""
    return [np.ones(c.T, dtype=np.int64)]


def calc_num_ret(c: Context, params: Params = None) -> Values:
    """trec_eval's num_ret: documents retrieved (a -c topic's stand-in document is reset by the table)."""
    return [c.r.num_ret]


def calc_num_rel(c: Context, params: Params = None) -> Values:
    """trec_eval's num_rel: documents judged relevant (grade >= the level)."""
    return [c.judged.num_rel]


def calc_num_rel_ret(c: Context, params: Params = None) -> Values:
    """trec_eval's num_rel_ret: relevant documents retrieved."""
    return [c.num_rel_ret]


def calc_map(c: Context, params: Params = None) -> Values:
    """trec_eval's map (and gm_map): AP, the precision at each relevant document summed over num_rel."""
    rows, prec = c.prec_at_rel
    s = seg_sum(prec, c.r.seg[rows], c.T)
    return [safe_div(s, c.judged.num_rel)]


def calc_rprec(c: Context, params: Params = None) -> Values:
    """trec_eval's Rprec: precision after num_rel documents, per topic."""
    return [safe_div(c.rel_at(c.judged.num_rel), c.judged.num_rel)]


def calc_bpref(c: Context, params: Params = None) -> Values:
    """trec_eval's bpref (and gm_bpref): binary preference."""
    r = c.r
    judged_nonrel = (r.rel >= 0) & (r.rel < r.level)
    nonrel_before = c.cum(judged_nonrel) - judged_nonrel
    rows = np.flatnonzero(c.judged_rel)  # judged and at or above the level
    R = c.judged.num_rel[r.seg[rows]]
    nb = nonrel_before[rows]
    denom = np.minimum(c.judged.num_nonrel, c.judged.num_rel)[r.seg[rows]]
    frac = safe_div(np.minimum(nb, R), denom)
    contrib = np.where(nb > 0, 1.0 - frac, 1.0)
    return [safe_div(seg_sum(contrib, r.seg[rows], c.T), c.judged.num_rel)]


def calc_recip_rank(c: Context, params: Params = None) -> Values:
    """trec_eval's recip_rank: 1 / rank of the first relevant document, or 0."""
    r = c.r
    has = c.rel.count > 0
    if not has.any():  # also: no row at all (-M 0)
        return [np.zeros(c.T)]
    first_pos = r.pos[c.kth_rel_row(np.ones(c.T, np.int64))]
    return [np.where(has, safe_div(1.0, first_pos + 1.0), 0.0)]


def _iprec(c: Context, fractions: Iterable[float]) -> Values:
    """Interpolated precision at recall fractions (rounded like C's lround)."""
    r = c.r
    out = []
    for p in fractions:
        cut = _whole(p * c.judged.num_rel + 0.5)
        at = c.kth_rel(np.maximum(cut, 1) + c.surplus)
        value = np.where(c.num_rel_ret > 0, c.int_prec[at] if len(c.int_prec) else 0.0, 0.0)
        # an empty ranking (-M 0): trec_eval's precision num_rel_ret / num_ret is 0.0 / 0.0
        value = np.where(r.num_ret == 0, _C_NAN, value)
        out.append(np.where(cut <= c.num_rel_ret, value, 0.0))
    return out


def _whole(x: np.ndarray) -> np.ndarray:
    """C's ``(long)`` of a double that may be far beyond any ranking (``Rprec_mult.1e19``): past ±2**62 documents
    held there, which is past every ranking all the same, so that nothing is cast out of int64's range (in C
    undefined; numpy warns "invalid value encountered in cast" and gives what the processor gives)."""
    whole: np.ndarray = np.floor(np.clip(x, -(2.0**62), 2.0**62)).astype(np.int64)
    return whole


def calc_iprec_at_recall(c: Context, params: Params) -> Values:
    """trec_eval's iprec_at_recall: interpolated precision at each recall level of ``params``."""
    return _iprec(c, params)


def calc_11pt_avg(c: Context, params: Params) -> Values:
    """trec_eval's 11pt_avg: mean interpolated precision at the recall levels ``params``."""
    values = _iprec(c, params)
    total = np.zeros(c.T)
    for v in reversed(values):  # trec_eval adds from the highest cutoff down
        total = total + v
    return [total / len(params)]


def calc_P(c: Context, params: Params) -> Values:
    """trec_eval's P: relevant documents in the first k / k, for each k in ``params``."""
    k = _column(params)
    return list(c.rel_at(k) / k.astype(np.float64))


def calc_recall(c: Context, params: Params) -> Values:
    """trec_eval's recall: relevant in the first k / num_rel, for each k."""
    return list(safe_div(c.rel_at(_column(params)), c.judged.num_rel))


def calc_relative_P(c: Context, params: Params) -> Values:
    """trec_eval's relative_P: relevant in the first k / min(k, num_rel)."""
    k = _column(params)
    return list(safe_div(c.rel_at(k), np.minimum(k, c.judged.num_rel)))


def calc_success(c: Context, params: Params) -> Values:
    """trec_eval's success: 1.0 if a relevant document is in the first k, else 0."""
    return list((c.rel_at(_column(params)) > 0).astype(np.float64))


def calc_map_cut(c: Context, params: Params) -> Values:
    """trec_eval's map_cut: AP of the first k ranks, over num_rel, for each k."""
    rows, prec = c.prec_at_rel
    out = []
    for k in params:
        sel = c.r.pos[rows] < k
        out.append(safe_div(seg_sum(prec[sel], c.r.seg[rows][sel], c.T), c.judged.num_rel))
    return out


def calc_Rprec_mult(c: Context, params: Params) -> Values:
    """trec_eval's Rprec_mult: precision after (long)(m * R + 0.9) documents, for each m."""
    out = []
    for p in params:
        cut = _whole(p * c.judged.num_rel + 0.9)
        # trec_eval counts down from num_rel_ret (see int_prec): the surplus is subtracted
        found = c.rel_at(cut) - c.surplus
        out.append(np.where(found > 0, safe_div(found, cut), 0.0))
    return out


def calc_infAP(c: Context, params: Params = None) -> Values:
    """trec_eval's infAP: inferred average precision of each topic."""
    r = c.r
    judged_nonrel = (r.rel >= 0) & (r.rel < r.level)
    unjudged = r.rel == UNJUDGED
    rows = np.flatnonzero(c.judged_rel)
    rel_before = c.cum(c.judged_rel)[rows] - 1
    nonrel_before = (c.cum(judged_nonrel) - judged_nonrel)[rows]
    unj_before = (c.cum(unjudged) - unjudged)[rows]
    fj = r.pos[rows].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((rel_before + nonrel_before + unj_before) / fj) * (
            (rel_before + INFAP_EPSILON) / (rel_before + nonrel_before + 2 * INFAP_EPSILON)
        )
    contrib = np.where(fj == 0, 1.0, later)
    return [safe_div(seg_sum(contrib, r.seg[rows], c.T), c.judged.num_rel)]


def calc_utility(c: Context, params: Params = (1.0, -1.0, 0.0, 0.0)) -> Values:
    """trec_eval's utility: p1 * a + p2 * b + p3 * c + p4 * d over the contingency table (a: relevant retrieved)."""
    r = c.r
    a = c.num_rel_ret.astype(np.float64)
    ret = r.num_ret.astype(np.float64)
    rel = c.judged.num_rel.astype(np.float64)
    p1, p2, p3, p4 = params
    return [p1 * a + p2 * (ret - a) + p3 * (rel - a) + p4 * (c.num_docs + a - ret - rel)]


def calc_binG(c: Context, params: Params = None) -> Values:
    """trec_eval's binG: per-topic binary gain with a log2 discount, over num_rel."""
    r = c.r
    rows = np.flatnonzero(c.isrel)
    contrib = 1.0 / np.log2(3.0 + r.pos[rows] - c.cumrel[rows])
    total = seg_sum(contrib, r.seg[rows], c.T)
    return [np.where(c.rel.count > 0, safe_div(total, c.judged.num_rel), 0.0)]


def calc_G(c: Context, params: Params = ()) -> Values:
    """trec_eval's G: gain / log2(2 + ideal cost - gain so far), summed, over the ideal gain."""
    gains = Gains(params)
    r = c.r
    gain = c.gained(gains).gain
    ideal, iseg, ipos, istarts, ilen = c.gained(gains).ideal
    rows = np.flatnonzero(gain)  # only the rows with a gain add to G, and to the gain so far
    seg, pos = r.seg[rows], r.pos[rows]
    count = np.bincount(seg, minlength=c.T)
    local = np.arange(len(rows)) - np.repeat(np.cumsum(count) - count, count)
    sum_results = seg_cumsum(gain[rows], seg, local, count)
    # cost of the ideal ranking at each rank: its gain, but at least 1, then 1 a rank past its end
    cost = np.maximum(ideal, 1.0)
    if np.all(cost == np.floor(cost)) and float(cost.sum(initial=0.0)) < 2.0**52:
        # whole numbers: every running sum is exact, so the cost so far is the ideal's, plus 1 a rank past it
        icost = seg_cumsum(cost, iseg, ipos, ilen, stretches(ilen))
        end = ilen[seg]
        last = np.minimum(pos, end - 1)
        at = np.minimum(istarts[seg] + np.maximum(last, 0), len(icost) - 1)  # (a topic without any: 0)
        base = np.where(end > 0, icost[at] if len(icost) else 0.0, 0.0)
        sum_cost = base + np.maximum(pos - end + 1, 0)
    else:  # the costs added one by one, as trec_eval adds them
        ideal_here = np.zeros(len(r.rel))
        inside = r.pos < ilen[r.seg]
        ideal_here[inside] = ideal[istarts[r.seg[inside]] + r.pos[inside]]
        sum_cost = seg_cumsum(np.maximum(ideal_here, 1.0), r.seg, r.pos, r.num_ret, c.layout)[rows]
    total = seg_sum(gain[rows] / np.log2(2 + sum_cost - sum_results), seg, c.T)
    sum_ideal = seg_sum(np.where(ideal > 0, ideal, 0.0), iseg, c.T)
    return [np.where(sum_ideal > 0, safe_div(total, sum_ideal), 0.0)]


def calc_dcg(c: Context, params: Params = ()) -> Values:
    """trec_eval's dcg: DCG of the whole ranking (gains from ``params``), per topic."""
    return [c.dcg_at(c.r.num_ret, Gains(params))]


def calc_ideal_dcg(c: Context, params: Params = ()) -> Values:
    """trec_eval's ideal_dcg: DCG of the ideal ranking (gains from ``params``), per topic."""
    return [c.idcg_total(Gains(params))]


def calc_ndcg(c: Context, params: Params = ()) -> Values:
    """trec_eval's ndcg: DCG of the ranking / DCG of the ideal ranking, per topic."""
    gains = Gains(params).for_ratios()
    ideal = c.idcg_total(gains)
    return [np.where(ideal > 0, safe_div(c.dcg_at(c.r.num_ret, gains), ideal), 0.0)]


def calc_ndcg_cut(c: Context, params: Params) -> Values:
    """trec_eval's ndcg_cut: DCG of the first k / ideal DCG at k, for each k (grades as gains)."""
    k = _column(params)
    return list(safe_div(c.dcg_at(k), c.idcg_at(k)))


def calc_ndcg_rel(c: Context, params: Params = ()) -> Values:
    """trec_eval's ndcg_rel: nDCG averaged over the relevant (positive-gain) documents, per topic."""
    gains = Gains(params).for_ratios()
    r = c.r
    g = c.gained(gains).gain
    ideal, _, _, istarts, ilen = c.gained(gains).ideal
    icum = c.gained(gains).idcg_cum
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
        total = seg_sum(c.gained(gains).dcg_at_rows(rows) / ideal_here, seg, c.T)
        retrieved = np.bincount(seg, minlength=c.T)
        final_dcg = c.dcg_at(r.num_ret, gains)
        final_ideal = c.idcg_at(ilen, gains)
        total = total + ((ilen - retrieved).astype(np.float64) * final_dcg) / final_ideal
        value = total / ilen
    return [np.where(total > 0, value, 0.0)]


def calc_Rndcg(c: Context, params: Params = ()) -> Values:
    """trec_eval's Rndcg: nDCG averaged where the ideal gain changes, and at num_ret."""
    gains = Gains(params).for_ratios()
    r = c.r
    ideal, iseg, ipos, istarts, ilen = c.gained(gains).ideal
    icum = c.gained(gains).idcg_cum
    # boundaries: the ends of the runs of equal ideal gain
    change = np.ones(len(ideal), dtype=bool)
    if len(ideal):
        change[:-1] = (ideal[1:] != ideal[:-1]) | (iseg[1:] != iseg[:-1])
    ends = np.flatnonzero(change)
    bseg = iseg[ends]
    depth = ipos[ends] + 1
    here = c.gained(gains).dcg_upto(depth, bseg)
    ok = icum[ends] > 0
    total = seg_sum(np.where(ok, safe_div(here, icum[ends]), 0.0), bseg, c.T)
    count = np.bincount(bseg[ok], minlength=c.T).astype(np.float64)
    ideal_total = c.idcg_at(ilen, gains)
    extra = ((ilen + 1) < r.num_ret) & (ideal_total > 0)
    final = safe_div(c.dcg_at(r.num_ret, gains), ideal_total)
    total = np.where(extra, total + final, total)
    count = count + extra
    with np.errstate(invalid="ignore", divide="ignore"):
        value = total / count
    return [np.where(c.judged.num_rel > 0, value, 0.0)]


def _contingency(c: Context) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """num_rel_ret, num_ret and num_rel of each topic, as floats."""
    r = c.r
    return c.num_rel_ret.astype(np.float64), r.num_ret.astype(np.float64), c.judged.num_rel.astype(np.float64)


def calc_set_P(c: Context, params: Params = None) -> Values:
    """trec_eval's set_P: precision of the retrieved set."""
    a, ret, _ = _contingency(c)
    return [safe_div(a, ret)]


def calc_set_relative_P(c: Context, params: Params = None) -> Values:
    """trec_eval's set_relative_P: num_rel_ret / min(num_ret, num_rel)."""
    a, ret, rel = _contingency(c)
    return [np.where((ret > 0) & (rel > 0), safe_div(a, np.minimum(ret, rel)), 0.0)]


def calc_set_recall(c: Context, params: Params = None) -> Values:
    """trec_eval's set_recall: recall of the retrieved set."""
    a, _, rel = _contingency(c)
    return [safe_div(a, rel)]


def calc_set_map(c: Context, params: Params = None) -> Values:
    """trec_eval's set_map: num_rel_ret^2 / (num_ret num_rel), not P * R (they differ in the last bit)."""
    a, ret, rel = _contingency(c)
    return [np.where((ret > 0) & (rel > 0), safe_div(a * a, ret * rel), 0.0)]


def calc_set_F(c: Context, params: Params = (1.0,)) -> Values:
    """trec_eval's set_F: (x + 1) P R / (x P + R) with x = ``params[0]`` (default 1)."""
    r = c.r
    a = c.num_rel_ret.astype(np.float64)
    x = float(params[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        p = a / r.num_ret
        rc = a / c.judged.num_rel
        value = (x + 1.0) * p * rc / (x * p + rc)
    return [np.where(a > 0, value, 0.0)]


def calc_num_nonrel_judged_ret(c: Context, params: Params = None) -> Values:
    """trec_eval's num_nonrel_judged_ret: judged non-relevant retrieved, int."""
    r = c.r
    return [seg_count((r.rel >= 0) & (r.rel < r.level), r.seg, c.T)]


def calc_yaap(c: Context, params: Params = None) -> Values:
    """trec_eval's yaap: log((1 + S) / (1 + num_rel - S)), S the sum of precisions at relevant documents."""
    rows, prec = c.prec_at_rel
    s = seg_sum(prec, c.r.seg[rows], c.T)
    with np.errstate(divide="ignore", invalid="ignore"):
        return [np.log((1.0 + s) / (1.0 + c.judged.num_rel - s))]


def _powers(n: int, p: float) -> np.ndarray:
    out = np.empty(max(n, 1) + 1)
    out[0] = 1.0
    out[1:] = p
    return np.cumprod(out)  # p**i by repeated multiplication, as trec_eval


def calc_rbp(c: Context, params: Params = ()) -> Values:
    """trec_eval's rbp: rank-biased precision with persistence ``p`` (default 0.9) and gains."""
    gains = Gains(params)
    p = gains.value("p", RBP_P)
    r = c.r
    pw = _powers(int(r.num_ret.max()), p)
    rel = r.rel
    gain = c.gained(gains).gain
    # trec_eval rescales a topic's gains to [0, 1] when one is outside it
    t, g, _ = c.judged.levels
    n_levels = np.zeros(c.T, dtype=np.int64)
    np.maximum.at(n_levels, t, g + 1)
    lo, hi = np.zeros(c.T), np.zeros(c.T)
    for lv_count in sorted(set(n_levels.tolist())):
        lo[n_levels == lv_count], hi[n_levels == lv_count] = gain_range(gains, lv_count)
    if ((lo < 0) | (hi > 1)).any():  # some topic's gains are rescaled
        in_table = (rel >= 0) | np.isin(rel, list(gains.levels))
        mn, mx = lo[r.seg], hi[r.seg]
        scale = ((mn < 0) | (mx > 1)) & in_table
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = np.where(scale, (gain - mn) / (mx - mn), gain)
    rows = np.flatnonzero(gain)  # the rows with a gain, in rank order: the others add nothing
    total = seg_sum(gain[rows] * pw[r.pos[rows]], r.seg[rows], c.T)
    return [(1.0 - p) * total]


def calc_rbp_resid(c: Context, params: Params = ()) -> Values:
    """trec_eval's rbp_resid: RBP weight left to unjudged and unranked ranks (persistence ``p``)."""
    p = Gains(params).value("p", RBP_P)
    r = c.r
    pw = _powers(int(r.num_ret.max()), p)
    unj = r.rel < 0
    total = seg_sum(np.where(unj, pw[r.pos], 0.0), r.seg, c.T)
    value = pw[r.num_ret] + (1 - p) * total
    has = seg_count(unj, r.seg, c.T) > 0
    return [np.where(has, value, 0.0)]


def calc_unj(c: Context, params: Params) -> Values:
    """trec_eval's unj: unjudged documents in the first k / k, for each k in ``params``."""
    r = c.r
    cum = c.cum((r.rel == NONPOOL) | (r.rel == UNJUDGED))
    out = []
    for k in params:
        v = value_at(cum, r.starts, r.num_ret, k) / float(k)
        out.append(v)
    return out


def calc_relstring(c: Context, params: Params = (10.0,)) -> Values:
    """trec_eval's relstring: the grades of the first ``params[0]`` ranks, as a quoted string."""
    r = c.r
    width = min(max(c_long(float(params[0])), 0), int(r.num_ret.max()) if len(r.num_ret) else 0)
    sel = np.flatnonzero(r.pos < width)  # the rows shown: the first ranks of each topic
    rel = r.rel[sel]
    chars = np.where(
        rel > 9,
        ord(">"),
        np.where(
            rel >= 0,
            ord("0") + np.minimum(np.maximum(rel, 0), 9),
            np.where(rel == NONPOOL, ord("-"), np.where(rel == UNJUDGED, ord("."), ord("<"))),
        ),
    )
    grid = np.zeros((c.T, max(width, 1)), dtype=np.uint8)
    grid[r.seg[sel], r.pos[sel]] = chars
    strings = grid.view(f"S{grid.shape[1]}").ravel()
    return [np.array(["'" + s.decode() + "'" for s in strings.tolist()], dtype=object)]
