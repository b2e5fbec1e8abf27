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


def _changes(values: np.ndarray) -> np.ndarray:
    """Mask of the rows whose value differs from the previous row's (row 0 included)."""
    n = len(values)
    change = np.empty(n, dtype=bool)
    change[:1] = True
    if values.dtype.kind == "S" and values.dtype.itemsize % 8 == 0 and n > 1:
        # compare 8 bytes at a time rather than string by string
        words = np.ascontiguousarray(values).view("<u8").reshape(n, -1)
        np.not_equal(words[1:, 0], words[:-1, 0], out=change[1:])
        for j in range(1, words.shape[1]):
            change[1:] |= words[1:, j] != words[:-1, j]
    else:
        change[1:] = values[1:] != values[:-1]
    return change


def _codes(values: np.ndarray, universe: np.ndarray) -> np.ndarray:
    """Index of each value in the sorted ``universe``; runs of equal values share work."""
    n = len(values)
    heads = np.flatnonzero(_changes(values))
    block = np.searchsorted(universe, values[heads])
    lengths = np.diff(np.append(heads, n))
    return np.repeat(block, lengths)


def _distinct(values: np.ndarray) -> np.ndarray:
    """Sorted distinct values (of runs of equal values first, which is cheap)."""
    return np.unique(values[_changes(values)]) if len(values) else values[:0]


def _score_order(rows: np.ndarray, tcode: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """``rows`` ordered by topic code, then score descending (ties in any order)."""
    if len(rows) == 0:
        return rows
    t, s = tcode[rows], scores[rows]
    n = len(rows)
    heads = np.flatnonzero(np.r_[True, t[1:] != t[:-1]])
    codes = t[heads]
    # The usual case: each topic in one block, scores never rising inside
    # it; then only the blocks need to be put in topic order.
    if len(np.unique(codes)) == len(codes):
        rising = s[1:] > s[:-1]
        rising[heads[1:] - 1] = False
        if not rising.any():
            if np.all(codes[1:] > codes[:-1]):
                return rows
            lengths = np.diff(np.append(heads, n))
            bo = np.argsort(codes)
            new_start = np.cumsum(lengths[bo]) - lengths[bo]
            shift = np.repeat(heads[bo] - new_start, lengths[bo])
            return rows[np.arange(n) + shift]
    by_score = np.argsort(-s)
    small = t.max() < np.iinfo(np.int16).max
    by_topic = np.argsort(t[by_score].astype(np.int16 if small else np.int64), kind="stable")
    return rows[by_score[by_topic]]


def _dense_rank(x: np.ndarray) -> np.ndarray:
    o = np.argsort(x)
    sx = x[o]
    rank = np.empty(len(x), dtype=np.int64)
    rank[o] = np.cumsum(np.r_[False, sx[1:] != sx[:-1]])
    return rank


def _docno_rank(docnos: np.ndarray) -> np.ndarray:
    """Rank of each docno in strcmp order (equal docnos share a rank).

    Docnos are compared as big-endian 64-bit words, after dropping the bytes
    they all share at the front, which often leaves a single word.
    """
    m = len(docnos)
    width = docnos.dtype.itemsize
    raw = np.ascontiguousarray(docnos).view(np.uint8).reshape(m, width)
    differs = (raw != raw[0]).any(axis=0)
    skip = int(np.argmax(differs)) if differs.any() else width
    rest = raw[:, skip:]
    k = max(1, -(-rest.shape[1] // 8))
    padded = np.zeros((m, 8 * k), dtype=np.uint8)
    padded[:, : rest.shape[1]] = rest
    words = padded.view(">u8")
    rank = _dense_rank(words[:, 0])
    for j in range(1, k):
        rank = _dense_rank(rank * m + _dense_rank(words[:, j]))
    return rank


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
    m = len(members)
    rank = _docno_rank(docnos[members])
    # groups are already in order, so this sort is of nearly sorted keys
    sub = np.argsort(group * m + (m - 1 - rank), kind="stable")
    order = order.copy()
    order[slots] = members[sub]
    return order


def build_ranked(qrels: Qrels, run: Run, *, relevance_level: int = 1, depth=None,
                 complete: bool = False) -> Ranked:
    """Rank the run, cut it at ``depth`` and look up relevance (see module doc)."""
    level = int(relevance_level)
    qtopics = _distinct(qrels.topics)
    universe = np.union1d(qtopics, _distinct(run.topics))
    qcode = _codes(qrels.topics, universe) if len(qrels) else np.zeros(0, np.int64)
    rcode = _codes(run.topics, universe)

    in_qrels = np.zeros(len(universe), dtype=bool)
    in_qrels[np.searchsorted(universe, qtopics)] = True
    in_run = np.zeros(len(universe), dtype=bool)
    in_run[rcode] = True
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
    order = _score_order(rows, tcode, scores)
    order = _tie_order(run.docnos, order, tcode, scores)
    seg = tcode[order]
    lengths = np.bincount(seg, minlength=ntop).astype(np.int64)
    starts = np.cumsum(lengths) - lengths
    pos = np.arange(len(order), dtype=np.int64) - np.repeat(starts, lengths)
    if depth is not None:
        cut = pos < int(depth)
        order, seg, pos = order[cut], seg[cut], pos[cut]
        lengths = np.minimum(lengths, int(depth))
        starts = np.cumsum(lengths) - lengths

    # relevance lookup: keys with the topic in the high bits and a hash of
    # the docno below, so that the run's lookups stay within its topic's
    # stretch of the sorted qrels keys; hits are then checked on the strings
    qtop = topic_index[qcode]
    qkeep = qtop >= 0
    if not qkeep.all():
        qdoc, qtop, qrel = qrels.docnos[qkeep], qtop[qkeep], qrels.rels[qkeep]
    else:
        qdoc, qrel = qrels.docnos, qrels.rels
    width = max(qdoc.dtype.itemsize, run.docnos.dtype.itemsize)
    bits = np.uint64(max(1, int(ntop).bit_length()))
    top_shift = np.uint64(64) - bits
    qkey = (qtop.astype(np.uint64) << top_shift) | (hash_bytes(qdoc, width) >> bits)
    qorder = np.argsort(qkey)
    qkey_sorted = qkey[qorder]
    rkey = (seg.astype(np.uint64) << top_shift) | (hash_bytes(run.docnos, width)[order] >> bits)
    rel = np.full(len(order), NONPOOL, dtype=np.int64)
    if len(qkey_sorted):
        at = np.searchsorted(qkey_sorted, rkey)
        np.minimum(at, len(qkey_sorted) - 1, out=at)
        hit = qkey_sorted[at] == rkey
        match = qorder[at[hit]]
        ok = qdoc[match] == run.docnos[order[hit]]
        collide = bool(np.any(qkey_sorted[1:] == qkey_sorted[:-1]))
        if collide or not ok.all():
            rel = _exact_lookup(qtop, qdoc, qrel, seg, run.docnos[order])
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
