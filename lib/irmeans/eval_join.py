"""Joining a run with qrels: ranking, depth cut-off and relevance lookup.

This is trec_eval's ``form_res_rels`` done for every topic at once.  Within
a topic documents are ranked by score descending, ties broken by docno
descending (strcmp order); each retrieved document gets the relevance value
from the qrels, -1 if it is not in the qrels (not pooled) and -2 if it is
judged with a negative value (pooled but unjudged).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .eval_segments import seg_cumsum
from .trec_files import Qrels, Run, hash_bytes

NONPOOL = -1
UNJUDGED = -2


@dataclass
class Ranked:
    """Ranked relevance lists of the evaluated topics, as flat row arrays."""

    topics: np.ndarray        # evaluated topic ids (bytes), strcmp order
    seg: np.ndarray           # topic index of each row
    pos: np.ndarray           # 0-based rank of each row
    rel: np.ndarray           # relevance of each row (NONPOOL / UNJUDGED / grade)
    starts: np.ndarray        # first row of each topic
    num_ret: np.ndarray       # rows per topic
    bogus: np.ndarray         # topic evaluated as an empty ranking (-c)
    level: int
    num_rel: np.ndarray       # judged with grade >= level
    num_nonrel: np.ndarray    # judged with 0 <= grade < level
    max_grade: np.ndarray     # highest non-negative grade judged (-1 if none)
    ideal: np.ndarray         # positive grades of each topic, descending, flat
    ideal_seg: np.ndarray
    ideal_pos: np.ndarray
    ideal_starts: np.ndarray
    num_pos: np.ndarray       # judged documents with a positive grade
    runid: str
    missing: list

    @property
    def ntopics(self) -> int:
        return len(self.topics)

    @property
    def isrel(self) -> np.ndarray:
        return self.rel >= self.level

    def cum(self, mask: np.ndarray) -> np.ndarray:
        """Running count of ``mask`` within each topic (inclusive)."""
        return seg_cumsum(mask.astype(np.int64), self.seg, self.pos, self.num_ret)


def _codes(values: np.ndarray, universe: np.ndarray) -> np.ndarray:
    """Index of each value in the sorted ``universe``; runs of equal values share work."""
    n = len(values)
    change = np.empty(n, dtype=bool)
    change[:1] = True
    change[1:] = values[1:] != values[:-1]
    heads = np.flatnonzero(change)
    block = np.searchsorted(universe, values[heads])
    lengths = np.diff(np.append(heads, n))
    return np.repeat(block, lengths)


def _tie_order(docnos: np.ndarray, order: np.ndarray, tcode: np.ndarray,
               scores: np.ndarray) -> np.ndarray:
    """Within runs of equal (topic, score), put docnos in descending order."""
    t, s = tcode[order], scores[order]
    same = (t[1:] == t[:-1]) & (s[1:] == s[:-1])
    if not same.any():
        return order
    in_tie = np.zeros(len(order), dtype=bool)
    in_tie[1:] |= same
    in_tie[:-1] |= same
    slots = np.flatnonzero(in_tie)
    group = np.cumsum(~np.concatenate(([False], same)))[slots]
    members = order[slots]
    _, drank = np.unique(docnos[members], return_inverse=True)
    sub = np.lexsort((-drank, group))
    order = order.copy()
    order[slots] = members[sub]
    return order


def build_ranked(qrels: Qrels, run: Run, *, relevance_level: int = 1, depth=None,
                 complete: bool = False) -> Ranked:
    """Rank the run, cut it at ``depth`` and look up relevance (see module doc)."""
    level = int(relevance_level)
    qtopics = np.unique(qrels.topics)
    run_topic_universe = np.unique(run.topics[np.r_[True, run.topics[1:] != run.topics[:-1]]])
    universe = np.union1d(qtopics, run_topic_universe)
    qcode = _codes(qrels.topics, universe) if len(qrels) else np.zeros(0, np.int64)
    rcode = _codes(run.topics, universe)

    in_qrels = np.zeros(len(universe), dtype=bool)
    in_qrels[np.searchsorted(universe, qtopics)] = True
    in_run = np.zeros(len(universe), dtype=bool)
    in_run[np.unique(rcode)] = True
    missing_codes = np.flatnonzero(in_qrels & ~in_run)
    missing = [universe[c].decode("utf-8", "replace") for c in missing_codes]
    evaluated = in_qrels & (in_run | complete)
    if not evaluated.any():
        raise ValueError(f"{run.source}: no topic of the run has judgments in {qrels.source}")
    if missing and not complete:
        warnings.warn(f"{len(missing)} topic(s) in {qrels.source} have no results in {run.source} "
                      f"and are left out (use complete=True / -c to count them as 0): "
                      f"{', '.join(missing)}", stacklevel=3)
    topic_index = np.full(len(universe), -1, dtype=np.int64)
    topic_index[evaluated] = np.arange(int(evaluated.sum()))
    topics = universe[evaluated]
    ntop = len(topics)

    # rank the run rows of evaluated topics
    keep = evaluated[rcode]
    rows = np.flatnonzero(keep) if not keep.all() else np.arange(len(rcode))
    tcode = topic_index[rcode]
    scores = run.scores
    t, s = tcode[rows], scores[rows]
    sorted_already = bool(np.all((t[1:] > t[:-1]) | ((t[1:] == t[:-1]) & (s[1:] <= s[:-1]))))
    order = rows if sorted_already else rows[np.lexsort((-s, t))]
    order = _tie_order(run.docnos, order, tcode, scores)
    seg = tcode[order]
    lengths = np.bincount(seg, minlength=ntop).astype(np.int64)
    starts = np.cumsum(lengths) - lengths
    pos = np.arange(len(order), dtype=np.int64) - starts[seg]
    if depth is not None:
        cut = pos < int(depth)
        order, seg, pos = order[cut], seg[cut], pos[cut]
        lengths = np.minimum(lengths, int(depth))
        starts = np.cumsum(lengths) - lengths

    # relevance lookup: hash (topic, docno) pairs, then verify the strings
    qtop = topic_index[qcode]
    qkeep = qtop >= 0
    qdoc = qrels.docnos[qkeep]
    qtop, qrel = qtop[qkeep], qrels.rels[qkeep]
    mix = np.uint64(0x9E3779B97F4A7C15)
    width = max(qdoc.dtype.itemsize, run.docnos.dtype.itemsize)
    qkey = hash_bytes(qdoc, width) ^ (qtop.astype(np.uint64) * mix)
    qorder = np.argsort(qkey, kind="stable")
    qkey_sorted = qkey[qorder]
    rdoc = run.docnos[order]
    rkey = hash_bytes(rdoc, width) ^ (seg.astype(np.uint64) * mix)
    at = np.minimum(np.searchsorted(qkey_sorted, rkey), max(len(qkey_sorted) - 1, 0))
    rel = np.full(len(order), NONPOOL, dtype=np.int64)
    if len(qkey_sorted):
        hit = qkey_sorted[at] == rkey
        match = qorder[at[hit]]
        ok = (qtop[match] == seg[hit]) & (qdoc[match] == rdoc[hit])
        collide = bool(np.any(qkey_sorted[1:] == qkey_sorted[:-1]))
        if collide or not ok.all():
            rel = _exact_lookup(qtop, qdoc, qrel, seg, rdoc)
        else:
            grades = qrel[match]
            rel[hit] = np.where(grades < 0, UNJUDGED, grades)

    # -c: a topic without results is evaluated, like trec_eval does, as a
    # ranking of one document that is not in the pool
    bogus = lengths == 0
    if bogus.any():
        add = np.flatnonzero(bogus)
        seg = np.concatenate((seg, add))
        pos = np.concatenate((pos, np.zeros(len(add), np.int64)))
        rel = np.concatenate((rel, np.full(len(add), NONPOOL, np.int64)))
        o = np.argsort(seg, kind="stable")
        seg, pos, rel = seg[o], pos[o], rel[o]
        lengths = np.bincount(seg, minlength=ntop).astype(np.int64)
        starts = np.cumsum(lengths) - lengths

    judged = qrel >= 0
    num_rel = np.bincount(qtop[judged & (qrel >= level)], minlength=ntop).astype(np.int64)
    num_nonrel = np.bincount(qtop[judged & (qrel < level)], minlength=ntop).astype(np.int64)
    max_grade = np.full(ntop, -1, dtype=np.int64)
    np.maximum.at(max_grade, qtop[judged], qrel[judged])
    positive = qrel > 0
    io = np.lexsort((-qrel[positive], qtop[positive]))
    ideal = qrel[positive][io]
    ideal_seg = qtop[positive][io]
    num_pos = np.bincount(ideal_seg, minlength=ntop).astype(np.int64)
    ideal_starts = np.cumsum(num_pos) - num_pos
    ideal_pos = np.arange(len(ideal), dtype=np.int64) - ideal_starts[ideal_seg]
    return Ranked(topics, seg, pos, rel, starts, lengths, bogus, level, num_rel, num_nonrel,
                  max_grade, ideal, ideal_seg, ideal_pos, ideal_starts, num_pos,
                  run.runid, missing)


def _exact_lookup(qtop, qdoc, qrel, seg, rdoc):
    """Relevance lookup by string comparison (used only on a hash collision)."""
    o = np.lexsort((qdoc, qtop))
    qt, qd, qr = qtop[o], qdoc[o], qrel[o]
    rel = np.full(len(seg), NONPOOL, dtype=np.int64)
    lo = np.searchsorted(qt, seg, side="left")
    hi = np.searchsorted(qt, seg, side="right")
    for t in np.unique(seg):
        rows = np.flatnonzero(seg == t)
        a, b = lo[rows[0]], hi[rows[0]]
        if a == b:
            continue
        docs = qd[a:b]
        at = np.minimum(np.searchsorted(docs, rdoc[rows]), b - a - 1)
        hit = docs[at] == rdoc[rows]
        grades = qr[a:b][at[hit]]
        rel[rows[hit]] = np.where(grades < 0, UNJUDGED, grades)
    return rel
