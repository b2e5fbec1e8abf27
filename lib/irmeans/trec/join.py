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

from ..errors import IrmeansError, TopicsLeftOutWarning
from .files import Qrels, Run, docno_hashes
from .segments import seg_cumsum

__all__ = ["NONPOOL", "UNJUDGED", "Ranked", "build_ranked"]

NONPOOL = -1
UNJUDGED = -2


@dataclass
class Ranked:
    """Ranked relevance lists of the evaluated topics, as flat row arrays."""

    topics: np.ndarray  # evaluated topic ids (bytes), strcmp order
    seg: np.ndarray  # topic index of each row
    pos: np.ndarray  # 0-based rank of each row
    rel: np.ndarray  # relevance of each row (NONPOOL / UNJUDGED / grade)
    starts: np.ndarray  # first row of each topic
    num_ret: np.ndarray  # rows per topic
    bogus: np.ndarray  # topic evaluated as an empty ranking (-c)
    level: int
    num_rel: np.ndarray  # judged with grade >= level
    num_nonrel: np.ndarray  # judged with 0 <= grade < level
    max_grade: np.ndarray  # highest non-negative grade judged (-1 if none)
    ideal: np.ndarray  # positive grades of each topic, descending, flat
    ideal_seg: np.ndarray
    ideal_pos: np.ndarray
    ideal_starts: np.ndarray
    num_pos: np.ndarray  # judged documents with a positive grade
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
    if len(np.unique(codes)) == len(codes) and not np.any((s[1:] > s[:-1]) & ~change):
        if np.all(codes[1:] > codes[:-1]):
            return rows
        lengths = np.diff(np.append(heads, n))
        bo = np.argsort(codes)
        new_start = np.cumsum(lengths[bo]) - lengths[bo]
        moved = np.repeat(heads[bo] - new_start, lengths[bo])
        moved += np.arange(n)
        return moved if everything else rows[moved]
    by_score = np.argsort(-s)
    small = t.max() < np.iinfo(np.int16).max
    by_topic = np.argsort(t[by_score].astype(np.int16 if small else np.int64), kind="stable")
    return rows[by_score[by_topic]]


def _docno_keys(docnos: np.ndarray) -> list:
    """Big-endian 64-bit words that compare like the docnos (strcmp order).

    Byte columns on which all docnos agree never decide a comparison, so
    only the span from the first to the last column where they differ is
    kept: often a single word.
    """
    m = len(docnos)
    width = -(-docnos.dtype.itemsize // 8) * 8
    if width != docnos.dtype.itemsize:
        docnos = docnos.astype(f"S{width}")
    words = np.ascontiguousarray(docnos).view("<u8").reshape(m, width // 8)
    differ = np.array([np.bitwise_or.reduce(words[:, j] ^ words[0, j]) for j in range(words.shape[1])], dtype="<u8")
    varying = np.flatnonzero(differ.view(np.uint8))
    if len(varying) == 0:
        return [np.zeros(m, dtype=np.uint64)]
    lo, hi = int(varying[0]), int(varying[-1]) + 1
    k = -(-(hi - lo) // 8)
    raw = words.view(np.uint8)
    span = np.zeros((m, 8 * k), dtype=np.uint8)
    span[:, : hi - lo] = raw[:, lo:hi]
    be = span.view(">u8")
    return [be[:, j].astype(np.uint64) for j in range(k)]


def _group_sort(group: np.ndarray, docnos: np.ndarray) -> np.ndarray:
    """Permutation sorting rows by ``group`` (nondecreasing already), then docno descending.

    One sort of 64-bit keys (group, then the top bits of the first docno
    word) does it, except where two docnos of a group agree on those bits;
    such rows are then sorted again on their whole docnos.
    """
    keys = _docno_keys(docnos)
    gbits = max(1, int(group[-1]).bit_length())
    both = (group.astype(np.uint64) << np.uint64(64 - gbits)) | (~keys[0] >> np.uint64(gbits))
    sub = np.argsort(both)
    ordered = both[sub]
    del both
    eq = ordered[1:] == ordered[:-1]
    del ordered
    if eq.any():
        tied = np.zeros(len(sub), dtype=bool)
        tied[1:] |= eq
        tied[:-1] |= eq
        p = np.flatnonzero(tied)
        run_id = np.cumsum(np.concatenate(([True], ~eq)))[p]
        rows = sub[p]
        local = np.lexsort([~k[rows] for k in reversed(keys)] + [run_id])
        sub[p] = rows[local]
    return sub


def _tie_order(docnos: np.ndarray, order: np.ndarray, tcode: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Within runs of equal (topic, score), put docnos in descending order."""
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
    sub = _group_sort(group, docnos[members])
    order = order.copy()
    order[slots] = members[sub]
    return order


def build_ranked(qrels: Qrels, run: Run, *, relevance_level: int = 1, depth=None, complete: bool = False) -> Ranked:
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
        raise IrmeansError(f"{run.source}: no topic of the run has judgments in {qrels.source}")
    if missing and not complete:
        warnings.warn(
            TopicsLeftOutWarning(
                f"{len(missing)} topic(s) in {qrels.source} have no results in {run.source} "
                f"and are left out (use complete=True / -c to count them as 0): "
                f"{', '.join(missing)}"
            ),
            stacklevel=3,
        )
    topic_index = np.full(len(universe), -1, dtype=np.int64)
    topic_index[evaluated] = np.arange(int(evaluated.sum()))
    topics = universe[evaluated]
    ntop = len(topics)

    # rank the run rows of evaluated topics
    keep = evaluated[rcode]
    rows = np.flatnonzero(keep) if not keep.all() else np.arange(len(rcode))
    tcode = topic_index[rcode]
    del rcode, keep
    scores = run.scores
    order = _score_order(rows, tcode, scores)
    del rows
    order = _tie_order(run.docnos, order, tcode, scores)
    seg = tcode[order]
    del tcode
    lengths = np.bincount(seg, minlength=ntop).astype(np.int64)
    starts = np.cumsum(lengths) - lengths
    pos = np.arange(len(order), dtype=np.int64)
    pos -= np.repeat(starts, lengths)
    if depth is not None:
        cut = pos < int(depth)
        order, seg, pos = order[cut], seg[cut], pos[cut]
        lengths = np.minimum(lengths, int(depth))
        starts = np.cumsum(lengths) - lengths

    qtop = topic_index[qcode]
    qkeep = qtop >= 0
    if not qkeep.all():
        qdoc, qtop, qrel = qrels.docnos[qkeep], qtop[qkeep], qrels.rels[qkeep]
    else:
        qdoc, qrel = qrels.docnos, qrels.rels
    width = -(-max(qrels.docnos.dtype.itemsize, run.docnos.dtype.itemsize) // 8) * 8
    qhash = docno_hashes(qrels, width)
    rel = _lookup(
        qtop,
        qdoc,
        qrel,
        qhash if qkeep.all() else qhash[qkeep],
        seg,
        pos,
        starts,
        order,
        run.docnos,
        docno_hashes(run, width),
        ntop,
    )

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
    return Ranked(
        topics,
        seg,
        pos,
        rel,
        starts,
        lengths,
        bogus,
        level,
        num_rel,
        num_nonrel,
        max_grade,
        ideal,
        ideal_seg,
        ideal_pos,
        ideal_starts,
        num_pos,
        run.runid,
        missing,
    )


def _lookup(qtop, qdoc, qrel, qhash, seg, pos, starts, order, docnos, rhash, ntop):
    """Relevance of each ranked row (``docnos[order]``, topic ``seg``, rank ``pos``).

    Qrels and run rows become 64-bit keys: topic, then a hash of the docno,
    then a tag bit (qrels 0, run 1) and the row's place within its topic.
    One sort of all keys puts each run row right after the qrels row of the
    same topic and hash, if any.  Matches are then checked on the strings;
    on any hash collision the lookup is redone by string comparison.
    """
    rel = np.full(len(seg), NONPOOL, dtype=np.int64)
    if len(qtop) == 0 or len(seg) == 0:
        return rel
    qo = None
    if np.any(qtop[1:] < qtop[:-1]):
        qo = np.argsort(qtop, kind="stable")
        qtop, qdoc, qrel, qhash = qtop[qo], qdoc[qo], qrel[qo], qhash[qo]
    qcount = np.bincount(qtop, minlength=ntop)
    qstart = np.cumsum(qcount) - qcount
    qpos = np.arange(len(qtop), dtype=np.int64) - np.repeat(qstart, qcount)
    topic_bits = max(1, int(ntop).bit_length())
    pos_bits = max(1, int(max(qcount.max(), pos.max() + 1)).bit_length())
    hash_bits = 64 - topic_bits - 1 - pos_bits
    if hash_bits < 24:  # pragma: no cover - too many topics and rows for one key
        return _exact_lookup(qtop, qdoc, qrel, seg, docnos[order])
    u = np.uint64
    drop = u(64 - hash_bits)
    low = u(pos_bits + 1)
    top = u(64 - topic_bits)
    keys = np.empty(len(qtop) + len(seg), dtype=np.uint64)
    q, r = keys[: len(qtop)], keys[len(qtop) :]
    np.right_shift(qhash, drop, out=q)
    q <<= low
    q |= qtop.astype(np.uint64) << top
    q |= qpos.astype(np.uint64)
    np.take(rhash, order, out=r)
    r >>= drop
    r <<= low
    r |= seg.astype(np.uint64) << top
    r |= pos.astype(np.uint64) | (u(1) << u(pos_bits))
    keys.sort()
    # (topic, hash, tag) of each key: a qrels key k is followed by k + 1 if
    # a run row matches it, by k itself if two qrels rows collide
    tagged = keys >> u(pos_bits)
    qrels_key = (tagged[:-1] & u(1)) == 0
    step = tagged[1:] - tagged[:-1]
    del tagged
    if np.any((step == 0) & qrels_key):
        return _exact_lookup(qtop, qdoc, qrel, seg, docnos[order])
    found = np.flatnonzero((step == 1) & qrels_key)
    del step, qrels_key
    mask = u((1 << pos_bits) - 1)
    rtopic = (keys[found + 1] >> top).astype(np.int64)
    rrow = starts[rtopic] + (keys[found + 1] & mask).astype(np.int64)
    qrow = qstart[rtopic] + (keys[found] & mask).astype(np.int64)
    del keys, q, r
    if not np.array_equal(qdoc[qrow], docnos[order[rrow]]):
        return _exact_lookup(qtop, qdoc, qrel, seg, docnos[order])
    grades = qrel[qrow]
    rel[rrow] = np.where(grades < 0, UNJUDGED, grades)
    return rel


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
