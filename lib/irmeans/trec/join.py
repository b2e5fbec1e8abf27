"""Joining a run with qrels: each topic ranked, cut at the depth, and every document's grade looked up.

This is trec_eval's ``form_res_rels`` done for many topics at once.  The qrels side,
:class:`Judgments`, is made once per qrels and relevance level (:func:`judgments`): the
judged topics in ``strcmp`` order, a sorted table of (topic, docno) keys for the lookup, and
what the measures need of each topic's judgments.  A run is ranked and joined a block of
whole topics at a time (:func:`rank_block`): within a topic, documents by score descending,
ties by docno descending (:mod:`.ranking`); each gets its grade from the qrels,
:data:`~.ranked.NONPOOL` if it is not in them and :data:`~.ranked.UNJUDGED` if it is judged
with a negative grade.  The join takes a run as blocks of whole topics, checked by their
reader (:class:`~.run_blocks.RunBlocks`: a file's :class:`~.run_blocks.RunReader` gives them as it
reads), so only the grades of ranked documents are kept, not the run's docnos and scores.
:func:`build_ranked` puts the ranked blocks together into a :class:`~.ranked.Ranked`.
"""

from __future__ import annotations

import warnings
import weakref
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ..errors import IrmeansError, TopicsLeftOutWarning, shown_path
from .duplicates import topic_keys
from .files import Qrels, Run
from .ranked import NONPOOL, UNJUDGED, Ranked, TopicJudgments
from .ranking import rank
from .run_blocks import RunBlocks
from .strings import Strings, equal_at

__all__ = ["Judgments", "QrelsIndex", "Block", "judgments", "rank_block", "build_ranked"]

_INT32_MAX = np.iinfo(np.int32).max
_KEYS_AT_ONCE = 1 << 18
_MIX = np.uint64(0x9E3779B97F4A7C15)


class QrelsIndex:
    """Where each (judged topic, docno) pair of the qrels is: the qrels side of the lookup.

    A run row's (topic, docno) key (:func:`~.duplicates.topic_keys`: the qrels' code of its
    topic in the high bits, the docno's hash below) is searched for among the qrels' sorted
    keys (:attr:`~.files.Qrels.key_index`, made when the qrels were read), and what is found
    is checked on the topic and the docno's bytes; the qrels' keys are all different (else
    the lookup goes by the bytes alone), so a row whose key is found for another document is
    not judged.  A bitmap of a few bits of the keys first sets aside the rows whose key cannot
    be there (most of a run: one read of a small table instead of a binary search each).
    """

    def __init__(self, qrels: Qrels, code_of: np.ndarray) -> None:
        index = qrels.key_index
        self.codes, self.docnos, self.code_of = qrels.topic_codes, qrels.docno_strings, code_of
        self.keys, self.order, self.bits, self.unique = index.keys, index.rows, index.bits, index.unique
        # the bitmap: a bit for each value of a few bits of the keys, mixed from the whole key (the topic
        # too: a document judged for one topic is often retrieved for another), about eight bits a key
        # (a table of a megabyte for a million keys, which stays in the caches)
        self.shift = np.uint64(64 - max(16, (8 * len(self.keys)).bit_length()))
        there = np.zeros(1 << (64 - int(self.shift)), dtype=bool)
        for a in range(0, len(self.keys), _KEYS_AT_ONCE):  # bounded temporaries
            there[self._bit(self.keys[a : a + _KEYS_AT_ONCE])] = True
        self.maybe = np.packbits(there, bitorder="little")
        del there
        self._by_bytes: dict[tuple[int, bytes], int] | None = None

    def _bit(self, key: np.ndarray) -> np.ndarray:
        """The bitmap's bit of each key: the high bits of the key times an odd constant."""
        return ((key * _MIX) >> self.shift).astype(np.intp)

    def _may_be_there(self, key: np.ndarray) -> np.ndarray:
        """The places of the keys whose bit some qrels key has (all the keys there, and a few more)."""
        bit = self._bit(key)
        return np.flatnonzero(self.maybe[bit >> 3] & np.left_shift(1, bit & 7).astype(np.uint8))

    def find(self, topic: np.ndarray, docnos: Strings, rows: np.ndarray) -> np.ndarray:
        """The qrels row of each run row ``rows`` (of ``docnos``) for its judged ``topic``, or -1."""
        out = np.full(len(rows), -1, dtype=np.int64)
        if not len(rows) or not len(self.keys):
            return out
        code = self.code_of[topic]
        if not self.unique:  # two qrels rows share a 64-bit key: the bytes decide
            return self._find_bytes(code, docnos, rows, out)
        key = topic_keys(code, docnos.hashes_at(rows), self.bits)
        cand = self._may_be_there(key)
        at = np.minimum(np.searchsorted(self.keys, key[cand]), len(self.keys) - 1)
        match = self.keys[at] == key[cand]
        hit, qrow = cand[match], self.order[at[match]]
        same = self.codes[qrow] == code[hit]
        same &= equal_at(self.docnos.data, *self.docnos.spans(qrow), docnos.data, *docnos.spans(rows[hit]))
        out[hit[same]] = qrow[same]
        return out

    def _find_bytes(self, code: np.ndarray, docnos: Strings, rows: np.ndarray, out: np.ndarray) -> np.ndarray:
        if self._by_bytes is None:
            self._by_bytes = {(int(t), self.docnos[i]): i for i, t in enumerate(self.codes.tolist())}
        for k, (t, i) in enumerate(zip(code.tolist(), rows.tolist())):
            out[k] = self._by_bytes.get((t, docnos[i]), -1)
        return out


class Judgments:
    """The qrels side of the join, for one relevance level.

    Attributes
    ----------
    topic_ids : list of bytes
        The judged topics, in ``strcmp`` order (a topic's index is its place here).
    index : dict of bytes to int
    judged : TopicJudgments
        What the measures need of each judged topic's judgments.
    judged_positive : int
        Qrels lines with a grade > 0, all topics (trec_eval's num_rel under ``-c``).
    docnos : QrelsIndex
        Where each (topic, docno) pair of the qrels is.
    """

    def __init__(self, qrels: Qrels, level: int):
        # nothing here refers to the qrels object itself: it is the key that keeps these (see judgments)
        self.level = level
        self.topic_ids = sorted(set(qrels.topic_ids))
        self.index = {t: i for i, t in enumerate(self.topic_ids)}
        of_code = np.array([self.index[t] for t in qrels.topic_ids], dtype=np.int32)
        code_of = np.empty(len(of_code), dtype=np.int64)  # a judged topic's code in the qrels
        code_of[of_code] = np.arange(len(of_code))
        topic = of_code[qrels.topic_codes]
        self.grade = qrels.rels
        self.judged = TopicJudgments.of(topic, self.grade, level, len(self.topic_ids))
        self.judged_positive = int(np.count_nonzero(self.grade > 0))
        self.docnos = QrelsIndex(qrels, code_of)

    @property
    def rel_dtype(self) -> type:
        """The grades' type in a ranking: 32-bit while the judged grades fit (memory)."""
        return np.int32 if self.judged.max_grade.max(initial=0) <= _INT32_MAX else np.int64

    def lookup(self, topic: np.ndarray, docnos: Strings, rows: np.ndarray) -> np.ndarray:
        """The grade of each run row ``rows`` (of ``docnos``) for its judged ``topic``: NONPOOL, UNJUDGED or >= 0."""
        qrow = self.docnos.find(topic, docnos, rows)
        found = qrow >= 0
        grades = self.grade[qrow[found]]
        rel: np.ndarray = np.full(len(rows), NONPOOL, dtype=self.rel_dtype)
        rel[found] = np.where(grades < 0, UNJUDGED, grades)
        return rel


# Judgments made for qrels, by relevance level: kept while the qrels are (irmeans eval QRELS RUN RUN...), and
# no longer (a value that referred to its key would keep it, and every qrels read, for ever).
_MADE: weakref.WeakKeyDictionary[Qrels, dict[int, Judgments]] = weakref.WeakKeyDictionary()


def judgments(qrels: Qrels, level: int) -> Judgments:
    """The :class:`Judgments` of ``qrels`` at relevance ``level``, made once for each qrels object."""
    made = _MADE.setdefault(qrels, {})
    if level not in made:
        made[level] = Judgments(qrels, level)
    return made[level]


@dataclass
class Block:
    """The ranked grades of some whole topics of a run.

    ``topics`` (judged topic indices, ascending), each topic's rows before the depth
    cut-off (``retrieved``) and after it (``kept``), and ``rel``, the grades of the kept
    rows, topic after topic in rank order.
    """

    topics: np.ndarray
    retrieved: np.ndarray
    kept: np.ndarray
    rel: np.ndarray


def rank_block(judged: Judgments, rows: Run, depth: int | None) -> Block:
    """Rank and join the rows of whole topics (a run, or a block of one): trec_eval's ranked grades.

    Rows of topics the qrels do not judge are left out.
    """
    # only the codes the block holds are looked up: a block of a file read topic after topic
    # holds a few of the file's topics, the codes of which are near each other
    codes = rows.topic_codes
    low = int(codes.min()) if len(codes) else 0
    high = int(codes.max()) + 1 if len(codes) else 0
    of_code = np.array([judged.index.get(t, -1) for t in rows.topic_ids[low:high]], dtype=np.int64)
    topic = of_code[codes - low] if low else of_code[codes]
    keep = np.flatnonzero(topic >= 0)
    grade = np.full(len(topic), NONPOOL, dtype=np.int64)
    grade[keep] = judged.lookup(topic[keep], rows.docno_strings, keep)
    order = rank(keep, topic, rows.scores, rows.docno_strings, grade)
    seg = topic[order]
    heads = np.flatnonzero(np.concatenate(([True], seg[1:] != seg[:-1]))) if len(seg) else np.zeros(0, np.int64)
    topics = seg[heads]
    retrieved = np.diff(np.append(heads, len(seg)))
    if depth is not None and len(seg) and int(depth) < int(retrieved.max()):
        pos = np.arange(len(seg)) - np.repeat(heads, retrieved)
        cut = pos < int(depth)
        order, seg = order[cut], seg[cut]
        kept = np.minimum(retrieved, int(depth))
    else:
        kept = retrieved
    return Block(topics, retrieved, kept, grade[order].astype(judged.rel_dtype))


def build_ranked(
    qrels: Qrels,
    run: RunBlocks,
    *,
    relevance_level: int = 1,
    depth: int | None = None,
    complete: bool = False,
) -> Ranked:
    """Rank the run's blocks, cut them at ``depth`` and look up relevance (see the module's text).

    Qrels topics without results are left out with a :class:`~irmeans.errors.TopicsLeftOutWarning`,
    or with ``complete`` evaluated as trec_eval's ``-c`` does.
    """
    judged = judgments(qrels, int(relevance_level))
    blocks = run.map(partial(rank_block, judged, depth=depth))
    return _assemble(judged, blocks, set(run.topic_ids), run.runid, complete, depth, qrels.source, run.source)


def _assemble(
    judged: Judgments,
    blocks: list[Block],
    run_ids: set[bytes],
    runid: str,
    complete: bool,
    depth: int | None,
    qrels_source: str,
    run_source: str,
) -> Ranked:
    """The blocks' topics in strcmp order, -c's stand-ins, and the qrels' numbers of the evaluated topics."""
    T = len(judged.topic_ids)
    retrieved = np.zeros(T, dtype=np.int64)
    kept = np.zeros(T, dtype=np.int64)
    for b in blocks:
        retrieved[b.topics] = b.retrieved
        kept[b.topics] = b.kept
    in_run = np.array([t in run_ids for t in judged.topic_ids], dtype=bool)
    missing = [judged.topic_ids[c].decode("utf-8", "surrogateescape") for c in np.flatnonzero(~in_run)]
    evaluated = in_run | complete
    if not evaluated.any():
        raise IrmeansError(
            f"{shown_path(run_source)}: no topic of the run has judgments in {shown_path(qrels_source)}: the run's "
            f"topics are {_some(run_ids)}, the qrels' {_some(set(judged.topic_ids))}"
        )
    if missing and not complete:
        warnings.warn(TopicsLeftOutWarning(missing, qrels_source, run_source), stacklevel=4)
    ev = np.flatnonzero(evaluated)
    bogus = retrieved[ev] == 0
    # -c: a topic without results is evaluated, as trec_eval does, as a ranking of one
    # document that is not in the pool (with -M 0, trec_eval cuts that document too)
    stand_in = bogus & (depth != 0)
    num_ret = kept[ev] + stand_in
    total = int(num_ret.sum())
    starts = np.cumsum(num_ret) - num_ret
    index: type[np.signedinteger[Any]] = np.int32 if total < _INT32_MAX else np.int64
    new_index = np.full(T, -1, dtype=np.int64)
    new_index[ev] = np.arange(len(ev))
    rel = np.full(total, NONPOOL, dtype=blocks[0].rel.dtype if blocks else np.int32)
    while blocks:  # each block's topics moved to their places, and the block let go
        b = blocks.pop(0)
        local = np.arange(len(b.rel), dtype=index) - np.repeat((np.cumsum(b.kept) - b.kept).astype(index), b.kept)
        rel[np.repeat(starts[new_index[b.topics]].astype(index), b.kept) + local] = b.rel
    return Ranked(
        topics=np.array([*(judged.topic_ids[i] for i in ev), b""], dtype=object)[:-1],
        rel=rel,
        num_ret=num_ret,
        bogus=bogus,
        level=judged.level,
        judged=judged.judged.take(ev) if len(ev) < T else judged.judged,
        runid=runid,
        missing=missing,
        judged_positive=judged.judged_positive,
    )


def _some(topic_ids: set[bytes], shown: int = 5) -> str:
    """A few topic ids, in strcmp order, for a message: ``'401', '402', ... (50 in all)``."""
    names = sorted(topic_ids)
    text = ", ".join(repr(t.decode("utf-8", "backslashreplace")) for t in names[:shown])
    return text + (f", ... ({len(names)} in all)" if len(names) > shown else "")
