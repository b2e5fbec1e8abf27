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

from ..errors import IrmeansError, TopicsLeftOutWarning, shown_path
from .arrow import primitive, release_memory
from .files import Qrels, Run, check_unique
from .segments import seg_cumsum
from .strings import equal_at, order_descending

#: How many of the missing topics the warning names.
MISSING_SHOWN = 10

__all__ = ["NONPOOL", "UNJUDGED", "Ranked", "build_ranked"]

NONPOOL = -1
UNJUDGED = -2
_BLOCK = 1 << 18  # rows handled at a time where full-size temporaries are avoided
# Runs of more lines than this are ordered by pyarrow's sort
_ARROW_ROWS = 20000


@dataclass
class Ranked:
    """Ranked relevance lists of the evaluated topics, as flat row arrays."""

    topics: np.ndarray  # evaluated topic ids (bytes objects), strcmp order
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
    judged_positive: int = 0  # qrels lines with a grade > 0, all topics (trec_eval's num_rel under -c)
    levels: tuple = ()  # (topic, grade, count) of the judged grades >= 0 of each topic

    @property
    def ntopics(self) -> int:
        return len(self.topics)

    @property
    def isrel(self) -> np.ndarray:
        return self.rel >= self.level

    def cum(self, mask: np.ndarray) -> np.ndarray:
        """Running count of ``mask`` within each topic (inclusive)."""
        return seg_cumsum(mask.astype(np.int64), self.seg, self.pos, self.num_ret)


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


def _table(pa, tcode, scores, names):
    """The sort's table, from the arrays' buffers (``pa.table`` of numpy arrays would import pandas)."""
    t = pa.int32() if tcode.dtype == np.int32 else pa.int64()
    columns = [
        pa.Array.from_buffers(t, len(tcode), [None, pa.py_buffer(np.ascontiguousarray(tcode))]),
        pa.Array.from_buffers(pa.float64(), len(scores), [None, pa.py_buffer(np.ascontiguousarray(scores))]),
        names,
    ]
    return pa.Table.from_arrays(columns, names=["t", "s", "d"])


def _blocks_order(docnos, tcode: np.ndarray, scores: np.ndarray, ntop: int, nkeep: int):
    """Like :func:`_arrow_order` for a run that lists each topic in one block (the usual case).

    The file is cut at block boundaries into ranges of about ``_BLOCK`` rows, each sorted on
    its own by pyarrow, and each topic's sorted rows are moved to their place: no sort of the
    whole run, so the temporaries are those of one range.  Rows of topics not evaluated
    (code -1) are left out.  The order is 32-bit while it fits.  Returns None if a topic
    comes in more than one block, if blocks are too many to be worth it, or without pyarrow.
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    n = len(tcode)
    heads = np.flatnonzero(tcode[1:] != tcode[:-1]) + 1
    if len(heads) * 64 > n:
        return None
    heads = np.concatenate(([0], heads))
    codes = tcode[heads]
    if len(np.unique(codes)) != len(codes):
        return None
    count = np.bincount(tcode[tcode >= 0], minlength=ntop)
    dest = np.cumsum(count) - count
    order = np.empty(nkeep, dtype=np.int32 if n < np.iinfo(np.int32).max else np.int64)
    kind = pa.binary() if docnos.offsets.dtype == np.int32 else pa.large_binary()
    names = pa.Array.from_buffers(kind, n, [None, pa.py_buffer(docnos.offsets), pa.py_buffer(docnos.data)])
    table = _table(pa, tcode, scores, names)
    keys = [("t", "ascending"), ("s", "descending"), ("d", "descending")]
    pool = pa.system_memory_pool()
    # each range ends at the first topic head at or after a multiple of _BLOCK; past the last
    # head, at the end of the run
    ends = np.append(heads, n)
    cuts = ends[np.searchsorted(heads, np.arange(_BLOCK, n, _BLOCK))]
    bounds = np.unique(np.concatenate(([0], cuts, [n])))
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
        local = primitive(pc.sort_indices(table.slice(a, b - a), sort_keys=keys, memory_pool=pool), np.int64)
        t = tcode[a:b][local]
        # sorted by topic: each row goes to its topic's place, at its rank inside the topic
        first = np.searchsorted(t, t)
        keep = t >= 0
        order[dest[t[keep]] + (np.arange(b - a) - first)[keep]] = local[keep] + a
    del table, names
    release_memory()
    return order


def _arrow_order(docnos, tcode: np.ndarray, scores: np.ndarray):
    """All run rows ordered by topic code, score descending, docno descending (pyarrow's sort).

    Rows of topics not evaluated must have the highest code, to come last.  Returns None
    without pyarrow.
    """
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    n = len(tcode)
    kind = pa.binary() if docnos.offsets.dtype == np.int32 else pa.large_binary()
    names = pa.Array.from_buffers(kind, n, [None, pa.py_buffer(docnos.offsets), pa.py_buffer(docnos.data)])
    table = _table(pa, tcode, scores, names)
    keys = [("t", "ascending"), ("s", "descending"), ("d", "descending")]
    order = pc.sort_indices(table, sort_keys=keys, memory_pool=pa.system_memory_pool())
    del table, names
    out = primitive(order, np.int64).copy()
    del order
    release_memory()
    return out


def _tie_order(docnos, order: np.ndarray, tcode: np.ndarray, scores: np.ndarray) -> np.ndarray:
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
    sub = order_descending(docnos.data, docnos.starts[members], docnos.lengths[members], group)
    order = order.copy()
    order[slots] = members[sub]
    return order


def build_ranked(
    qrels: Qrels, run: Run, *, relevance_level: int = 1, depth=None, complete: bool = False, consume: bool = False
) -> Ranked:
    """Rank the run, cut it at ``depth`` and look up relevance (see module doc).

    With ``consume``, the run's scores and docnos are released as soon as they are no
    longer needed (its ``scores`` and ``docno_strings`` become None), which lowers the
    peak memory: for a run read only to be evaluated.
    """
    level = int(relevance_level)
    universe = sorted(set(qrels.topic_ids) | set(run.topic_ids))
    where = {t: i for i, t in enumerate(universe)}
    qmap = np.array([where[t] for t in qrels.topic_ids], dtype=np.int64)
    rmap = np.array([where[t] for t in run.topic_ids], dtype=np.int64)
    qcode = qmap[qrels.topic_codes] if len(qrels) else np.zeros(0, np.int64)
    universe = np.array(universe + [b""], dtype=object)[:-1]

    in_qrels = np.zeros(len(universe), dtype=bool)
    in_qrels[qmap] = True
    in_run = np.zeros(len(universe), dtype=bool)
    in_run[rmap] = True
    missing_codes = np.flatnonzero(in_qrels & ~in_run)
    missing = [universe[c].decode("utf-8", "surrogateescape") for c in missing_codes]
    evaluated = in_qrels & (in_run | complete)
    if not evaluated.any():
        if not run.checked:
            check_unique(run)
        raise IrmeansError(f"{shown_path(run.source)}: no topic of the run has judgments in {shown_path(qrels.source)}")
    if missing and not complete:
        warning = TopicsLeftOutWarning(
            _missing_text(missing_codes, universe, qrels.source, run.source, "complete=True")
        )
        warning.missing, warning.qrels, warning.run = missing, qrels.source, run.source
        warning.shown = [universe[c] for c in missing_codes[:MISSING_SHOWN]]
        warnings.warn(warning, stacklevel=3)
    topic_index = np.full(len(universe), -1, dtype=np.int64)
    topic_index[evaluated] = np.arange(int(evaluated.sum()))
    topics = universe[evaluated]
    ntop = len(topics)

    # rank the run rows of evaluated topics
    small = ntop < np.iinfo(np.int32).max
    tcode = topic_index[rmap].astype(np.int32 if small else np.int64)[run.topic_codes]
    nrun = len(tcode)
    nkeep = int(np.count_nonzero(tcode >= 0))
    everything = nkeep == nrun
    pending = not run.checked
    if pending and (not everything or (depth is not None and int(depth) < nrun)):
        check_unique(run)  # the join sees only some rows: check them all now
        pending = False
    scores = run.scores
    order = None
    if nrun > _ARROW_ROWS:
        order = _blocks_order(run.docno_strings, tcode, scores, ntop, nkeep)
        if order is None:
            order = _arrow_order(run.docno_strings, tcode if everything else np.where(tcode < 0, ntop, tcode), scores)
            if order is not None and nkeep < nrun:
                order = order[:nkeep]
    if order is None:
        rows = np.flatnonzero(tcode >= 0) if not everything else np.arange(nrun)
        order = _score_order(rows, tcode, scores)
        del rows
        order = _tie_order(run.docno_strings, order, tcode, scores)
    del scores
    if consume:
        object.__setattr__(run, "scores", None)
    seg = tcode[order]  # 32-bit, as pos, while they fit (memory)
    del tcode
    lengths = np.bincount(seg, minlength=ntop).astype(np.int64)
    starts = np.cumsum(lengths) - lengths
    pos = np.empty(len(order), dtype=np.int32 if len(order) < np.iinfo(np.int32).max else np.int64)
    for a in range(0, len(pos), _BLOCK):
        pos[a : a + _BLOCK] = np.arange(a, a + len(pos[a : a + _BLOCK])) - starts[seg[a : a + _BLOCK]]
    # -c: a topic without results is evaluated, like trec_eval does, as a ranking of one
    # document that is not in the pool (added below, after the depth cut-off)
    bogus = lengths == 0
    if depth is not None and int(depth) < len(order):
        cut = pos < int(depth)
        order, seg, pos = order[cut], seg[cut], pos[cut]
        lengths = np.minimum(lengths, int(depth))
        starts = np.cumsum(lengths) - lengths

    qtop = topic_index[qcode]
    qkeep = qtop >= 0
    qrows = np.flatnonzero(qkeep) if not qkeep.all() else np.arange(len(qtop))
    qtop, qrel = qtop[qrows], qrels.rels[qrows]
    rel = _lookup(qtop, qrows, qrel, qrels.docno_strings, seg, pos, starts, order, run.docno_strings, ntop, pending)
    if rel is None:  # a document retrieved twice
        check_unique(run)
        raise AssertionError("duplicates found by the join but not by check_unique")  # pragma: no cover
    del order
    if consume:
        object.__setattr__(run, "docno_strings", None)

    if bogus.any() and depth != 0:  # with -M 0, trec_eval cuts that document too
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
    levels = _levels(qtop[judged], qrel[judged])
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
        int(np.count_nonzero(qrels.rels > 0)),
        levels,
    )


def missing_text(count, shown, qrels, run, remedy) -> str:
    """The one-line summary of judged topics without results: how many, and the first few."""
    names = ", ".join(t.decode("utf-8", "backslashreplace") for t in shown)
    more = f" and {count - len(shown)} more" if count > len(shown) else ""
    plural = count > 1
    qrels, run = shown_path(qrels), shown_path(run)
    return (
        f"{count} topic{'s' if plural else ''} in {qrels} {'have' if plural else 'has'} no results in {run} and "
        f"{'are' if plural else 'is'} left out ({remedy} counts them as empty rankings): {names}{more}"
    )


def _missing_text(codes, universe, qrels, run, remedy):
    return missing_text(len(codes), [universe[c] for c in codes[:MISSING_SHOWN]], qrels, run, remedy)


def _levels(topic, grade):
    """(topic, grade, count) of each distinct judged (topic, grade) pair, sorted."""
    if len(topic) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    o = np.lexsort((grade, topic))
    t, g = topic[o], grade[o]
    head = np.ones(len(t), dtype=bool)
    head[1:] = (t[1:] != t[:-1]) | (g[1:] != g[:-1])
    at = np.flatnonzero(head)
    return t[at], g[at], np.diff(np.append(at, len(t)))


def _lookup(qtop, qrows, qrel, qdocs, seg, pos, starts, order, rdocs, ntop, check=False):
    """Relevance of each ranked row (run row ``order[i]``, topic ``seg``, rank ``pos``).

    Qrels and run rows become 64-bit keys: topic, then a hash of the docno,
    then a tag bit (qrels 0, run 1) and the row's place within its topic.
    One sort of all keys puts each run row right after the qrels row of the
    same topic and hash, if any.  Matches are then checked on the strings;
    on any collision of the shortened hashes the lookup is redone on whole
    hashes (:func:`_exact_lookup`).  With ``check`` (every run row is ranked),
    the same sort finds documents retrieved twice for a topic: two run keys in
    a row with the same topic and hash, then compared as strings; if there is
    one, None is returned.
    """
    small = len(qrel) == 0 or int(qrel.max()) <= np.iinfo(np.int32).max  # negative grades become UNJUDGED
    rel = np.full(len(seg), NONPOOL, dtype=np.int32 if small else np.int64)  # 32-bit while grades fit (memory)
    if len(qtop) == 0 or len(seg) == 0:
        return None if check and _has_duplicates(seg, order, rdocs) else rel
    if np.any(qtop[1:] < qtop[:-1]):
        qo = np.argsort(qtop, kind="stable")
        qtop, qrows, qrel = qtop[qo], qrows[qo], qrel[qo]
    qhash = qdocs.hashes()[qrows]
    qcount = np.bincount(qtop, minlength=ntop)
    qstart = np.cumsum(qcount) - qcount
    qpos = np.arange(len(qtop), dtype=np.int64) - np.repeat(qstart, qcount)
    topic_bits = max(1, int(ntop).bit_length())
    pos_bits = max(1, int(max(qcount.max(), pos.max() + 1)).bit_length())
    hash_bits = 64 - topic_bits - 1 - pos_bits
    if hash_bits < 24:  # pragma: no cover - too many topics and rows for one key
        if check and _has_duplicates(seg, order, rdocs):
            return None
        return _exact_lookup(qtop, qrows, qrel, qdocs, seg, order, rdocs)
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
    rdocs.hashes_at(order, out=r)
    tag = u(1) << u(pos_bits)
    for a in range(0, len(r), _BLOCK):  # in blocks: no full-size temporaries
        part = r[a : a + _BLOCK]
        part >>= drop
        part <<= low
        part |= seg[a : a + _BLOCK].astype(np.uint64) << top
        part |= pos[a : a + _BLOCK].astype(np.uint64) | tag
    keys.sort()
    # (topic, hash, tag) of each key: a qrels key k is followed by k + 1 if
    # a run row matches it, by k itself if two qrels rows collide
    found, twice, collide = [], [], False
    for a in range(0, len(keys) - 1, _BLOCK):
        tagged = keys[a : a + _BLOCK + 1] >> u(pos_bits)
        qrels_key = (tagged[:-1] & u(1)) == 0
        step = tagged[1:] - tagged[:-1]
        collide = collide or bool(np.any((step == 0) & qrels_key))
        found.append(np.flatnonzero((step == 1) & qrels_key) + a)
        if check:
            twice.append(np.flatnonzero((step == 0) & ~qrels_key) + a)
    del tagged, qrels_key, step
    found = np.concatenate(found) if found else np.zeros(0, np.int64)
    if check:
        twice = np.concatenate(twice) if twice else np.zeros(0, np.int64)
        if len(twice):
            rtopic = (keys[twice] >> top).astype(np.int64)
            mask = u((1 << pos_bits) - 1)
            a = order[starts[rtopic] + (keys[twice] & mask).astype(np.int64)]
            b = order[starts[rtopic] + (keys[twice + 1] & mask).astype(np.int64)]
            if equal_at(rdocs.data, *rdocs.spans(a), rdocs.data, *rdocs.spans(b)).any():
                return None
    if collide:
        if check and _has_duplicates(seg, order, rdocs):
            return None
        return _exact_lookup(qtop, qrows, qrel, qdocs, seg, order, rdocs)
    mask = u((1 << pos_bits) - 1)
    rtopic = (keys[found + 1] >> top).astype(np.int64)
    rrow = starts[rtopic] + (keys[found + 1] & mask).astype(np.int64)
    qrow = qstart[rtopic] + (keys[found] & mask).astype(np.int64)
    del keys, q, r
    a, b = qrows[qrow], order[rrow]
    if not equal_at(qdocs.data, *qdocs.spans(a), rdocs.data, *rdocs.spans(b)).all():
        return _exact_lookup(qtop, qrows, qrel, qdocs, seg, order, rdocs)
    grades = qrel[qrow]
    rel[rrow] = np.where(grades < 0, UNJUDGED, grades)
    return rel


def _has_duplicates(seg, order, rdocs) -> bool:
    """Whether a ranked topic retrieves a document twice (by hash, then by the strings)."""
    if len(seg) < 2:
        return False
    key = seg.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    key ^= rdocs.hashes()[order]
    o = np.argsort(key)
    same = np.flatnonzero(key[o][1:] == key[o][:-1])
    a, b = order[o[same]], order[o[same + 1]]
    real = seg[o[same]] == seg[o[same + 1]]
    real &= equal_at(rdocs.data, rdocs.starts[a], rdocs.lengths[a], rdocs.data, rdocs.starts[b], rdocs.lengths[b])
    return bool(real.any())


def _exact_lookup(qtop, qrows, qrel, qdocs, seg, order, rdocs):
    """Relevance lookup on (topic, whole hash), checked on the strings (after a collision of shortened hashes).

    Two different docnos of one topic with the same 64-bit hash are looked up by their bytes.
    """
    rel = np.full(len(seg), NONPOOL, dtype=np.int64)
    qh = qdocs.hashes()[qrows]
    rh = rdocs.hashes()[order]
    qo = np.lexsort((qh, qtop))
    qt, qh, qr, qi = qtop[qo], qh[qo], qrel[qo], qrows[qo]
    clash = (qt[1:] == qt[:-1]) & (qh[1:] == qh[:-1])
    if clash.any():  # a true 64-bit collision: by the bytes themselves
        table = {(int(t), qdocs[int(i)]): int(g) for t, i, g in zip(qt.tolist(), qi.tolist(), qr.tolist())}
        for k, (t, i) in enumerate(zip(seg.tolist(), order.tolist())):
            g = table.get((t, rdocs[i]))
            if g is not None:
                rel[k] = UNJUDGED if g < 0 else g
        return rel
    # position of each run row's (topic, hash) among the sorted qrels keys
    lo = np.searchsorted(qt, seg, side="left")
    hi = np.searchsorted(qt, seg, side="right")
    at = lo.copy()
    for t in np.unique(seg[hi > lo]).tolist():  # one binary search per topic, over that topic's hashes
        rows = np.flatnonzero(seg == t)
        a, b = int(lo[rows[0]]), int(hi[rows[0]])
        at[rows] = a + np.searchsorted(qh[a:b], rh[rows])
    hit = (at < hi) & (at >= lo)
    hit[hit] = qh[at[hit]] == rh[hit]
    k = np.flatnonzero(hit)
    i, j = qi[at[k]], order[k]
    same = equal_at(qdocs.data, qdocs.starts[i], qdocs.lengths[i], rdocs.data, rdocs.starts[j], rdocs.lengths[j])
    k = k[same]
    grades = qr[at[k]]
    rel[k] = np.where(grades < 0, UNJUDGED, grades)
    return rel
