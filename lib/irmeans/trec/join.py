"""Joining a run with qrels: each topic ranked, cut at the depth, and every document's grade looked up.

This is trec_eval's ``form_res_rels`` done for many topics at once.  The qrels side,
:class:`Judgments`, is made once per qrels and relevance level: the judged topics in
``strcmp`` order, a sorted table of (topic, docno) keys for the lookup, and what the
measures need of each topic's judgments.  A run is then ranked and joined a block of
whole topics at a time (:func:`rank_block`): within a topic, documents by score descending,
ties by docno descending (:mod:`.ranking`); each gets its grade from the qrels, ``NONPOOL``
(-1) if it is not in them and ``UNJUDGED`` (-2) if it is judged with a negative grade.  A
run read from a file goes through block by block as it is read (:func:`build_ranked`), so
only the grades of ranked documents are kept, not the run's docnos and scores; a file
whose topics are not each in one stretch of lines is read whole instead.  :class:`Ranked`
holds the result: every evaluated topic's ranked grades as flat arrays.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import FileFormatError, IrmeansError, TopicsLeftOutWarning, shown_path
from .files import Qrels, Run, duplicate_error, find_duplicate, read_run
from .ranking import rank
from .segments import seg_cumsum
from .strings import Strings, equal_at
from .tokens import RUN, Piece, TopicTable, line_numbers, pieces

__all__ = ["NONPOOL", "UNJUDGED", "Judgments", "Block", "Ranked", "judgments", "rank_block", "build_ranked"]

NONPOOL = -1
UNJUDGED = -2
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_INT32_MAX = np.iinfo(np.int32).max


def _topic_key(hashes: np.ndarray, topic: np.ndarray, topic_bits: int) -> np.ndarray:
    """One 64-bit key for a (topic, docno) pair: the topic in the high bits, then the docno's hash.

    Keys sort topic by topic, so the rows of a run, ranked topic after topic, look up
    neighbouring keys one after the other.
    """
    key = hashes >> np.uint64(topic_bits) if topic_bits else hashes.copy()
    if topic_bits:
        key |= topic.astype(np.uint64) << np.uint64(64 - topic_bits)
    return key


class Judgments:
    """The qrels side of the join, for one relevance level.

    Attributes
    ----------
    topic_ids : list of bytes
        The judged topics, in ``strcmp`` order (a topic's index is its place here).
    index : dict of bytes to int
    num_rel, num_nonrel, max_grade, num_pos : numpy.ndarray
        For each judged topic: documents with a grade >= the level, judged with
        0 <= grade < level, the highest grade >= 0 (-1 if none), and with a grade > 0.
    ideal : numpy.ndarray
        The positive grades of every topic, each topic's in descending order, topic after topic.
    levels : tuple of numpy.ndarray
        (topic, grade, count) of each distinct grade >= 0 judged for a topic.
    judged_positive : int
        Qrels lines with a grade > 0, all topics (trec_eval's num_rel under ``-c``).
    """

    def __init__(self, qrels: Qrels, level: int):
        self.qrels = qrels
        self.level = level
        self.topic_ids = sorted(set(qrels.topic_ids))
        self.index = {t: i for i, t in enumerate(self.topic_ids)}
        T = len(self.topic_ids)
        of_code = np.array([self.index[t] for t in qrels.topic_ids], dtype=np.int64)
        self.topic = of_code[qrels.topic_codes] if len(qrels) else np.zeros(0, np.int64)
        self.grade = qrels.rels
        # the lookup table: each row's (topic, docno) key, sorted
        self.topic_bits = max(T - 1, 0).bit_length()
        key = _topic_key(qrels.docno_strings.hashes(), self.topic, self.topic_bits)
        self.key_row = np.argsort(key, kind="stable")
        self.keys = key[self.key_row]
        self.unique = not bool(np.any(self.keys[1:] == self.keys[:-1]))
        self._by_bytes: dict[tuple[int, bytes], int] | None = None
        # what the measures need of each topic's judgments
        t, g = self.topic, self.grade
        judged = g >= 0
        self.num_rel = np.bincount(t[judged & (g >= level)], minlength=T).astype(np.int64)
        self.num_nonrel = np.bincount(t[judged & (g < level)], minlength=T).astype(np.int64)
        self.max_grade = np.full(T, -1, dtype=np.int64)
        np.maximum.at(self.max_grade, t[judged], g[judged])
        positive = g > 0
        order = np.lexsort((-g[positive], t[positive]))
        self.ideal = g[positive][order]
        self.ideal_topic = t[positive][order]
        self.num_pos = np.bincount(self.ideal_topic, minlength=T).astype(np.int64)
        self.levels = _levels(t[judged], g[judged])
        self.judged_positive = int(np.count_nonzero(positive))

    @property
    def rel_dtype(self) -> type:
        """The grades' type in a ranking: 32-bit while the judged grades fit (memory)."""
        return np.int32 if self.max_grade.max(initial=0) <= _INT32_MAX else np.int64

    def lookup(self, topic: np.ndarray, docnos: Strings, rows: np.ndarray) -> np.ndarray:
        """The grade of each run row ``rows`` (of ``docnos``) for its judged ``topic``: NONPOOL, UNJUDGED or >= 0.

        A key found in the table is checked on the topic and the docno's bytes; the keys of
        the qrels are all different (else the lookup goes by the bytes themselves), so a row
        whose key is found for another document is not judged.
        """
        rel: np.ndarray = np.full(len(rows), NONPOOL, dtype=self.rel_dtype)
        if not len(rows) or not len(self.keys):
            return rel
        if not self.unique:  # two qrels rows share a 64-bit key: the bytes decide
            return self._lookup_bytes(topic, docnos, rows, rel)
        key = _topic_key(docnos.hashes_at(rows), topic, self.topic_bits)
        at = np.minimum(np.searchsorted(self.keys, key), len(self.keys) - 1)
        hit = np.flatnonzero(self.keys[at] == key)
        qrow = self.key_row[at[hit]]
        qdocs = self.qrels.docno_strings
        same = self.topic[qrow] == topic[hit]
        same &= equal_at(qdocs.data, *qdocs.spans(qrow), docnos.data, *docnos.spans(rows[hit]))
        grades = self.grade[qrow[same]]
        rel[hit[same]] = np.where(grades < 0, UNJUDGED, grades)
        return rel

    def _lookup_bytes(self, topic: np.ndarray, docnos: Strings, rows: np.ndarray, rel: np.ndarray) -> np.ndarray:
        if self._by_bytes is None:
            qdocs = self.qrels.docno_strings
            self._by_bytes = {(int(t), qdocs[i]): int(g) for i, (t, g) in enumerate(zip(self.topic, self.grade))}
        for k, (t, i) in enumerate(zip(topic.tolist(), rows.tolist())):
            g = self._by_bytes.get((t, docnos[i]))
            if g is not None:
                rel[k] = UNJUDGED if g < 0 else g
        return rel


def judgments(qrels: Qrels, level: int) -> Judgments:
    """The :class:`Judgments` of ``qrels`` at relevance ``level``, made once and kept with the qrels."""
    cache: dict[int, Judgments] = qrels.__dict__.setdefault("_judgments", {})
    if level not in cache:
        cache[level] = Judgments(qrels, level)
    return cache[level]


def _levels(topic: np.ndarray, grade: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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

    A document retrieved twice for a topic is an error, whether or not the topic is judged.
    Rows of topics the qrels do not judge are left out.
    """
    rows.docno_strings.hashes()  # made once, for the duplicate check and the lookup
    pair = find_duplicate(rows.topic_codes, rows.docno_strings)
    if pair is not None:
        raise duplicate_error(rows, pair, "retrieved")
    of_code = np.array([judged.index.get(t, -1) for t in rows.topic_ids], dtype=np.int64)
    topic = of_code[rows.topic_codes]
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


class _NotInOneStretch(Exception):
    """A topic of the file comes back after other topics: the file is read whole instead."""


def _stream_blocks(judged: Judgments, source: str, depth: int | None) -> tuple[list[Block], list[bytes], str | None]:
    """Rank and join a run file block by block as it is read: (blocks, the run's topic ids, its tag).

    A block is the rows of a piece of the file with the previous piece's last topic in front
    and its own last topic held back (it may go on in the next piece).  A document retrieved
    twice is reported after the rest of the file has been read, so that a wrong field count
    or value anywhere is reported first, as when the file is read whole.
    """
    topics = TopicTable()
    blocks: list[Block]
    closed: set[int]
    carry: list[Piece]
    tag: str | None
    problem: IrmeansError | None
    blocks, closed, carry, tag, problem = [], set(), [], None, None

    def close(parts: list[Piece]) -> None:
        block = _rows(parts, topics, source)
        c = block.topic_codes
        codes = set(c[np.flatnonzero(np.concatenate(([True], c[1:] != c[:-1])))].tolist())
        if codes & closed:
            raise _NotInOneStretch
        closed.update(codes)
        blocks.append(rank_block(judged, block, depth))

    for piece in pieces(source, RUN, topics):
        tag = piece.tag
        if problem is not None:
            continue  # only reading on, for an error that comes first
        piece = _with_strings(piece)
        codes = piece.codes
        last = codes[-1]
        tail = len(codes) - int(np.argmax(codes[::-1] != last)) if (codes != last).any() else 0
        if tail == 0 and carry and carry[0].codes[0] == last:
            carry.append(piece)  # the open topic goes on
            continue
        try:
            if carry or tail:
                close([*carry, _slice(piece, 0, tail)])
        except IrmeansError as exc:
            problem = exc
        carry = [_slice(piece, tail, len(codes))]
    if problem is not None:
        raise problem
    if carry:
        close(carry)
    return blocks, topics.ids(), tag


def _with_strings(piece: Piece) -> Piece:
    """The piece with its docnos as :class:`~.strings.Strings` (pyarrow's reader gives a binary column)."""
    if isinstance(piece.docnos, Strings):
        return piece
    from .arrow import column_strings

    return Piece(piece.codes, column_strings(piece.docnos), piece.values, piece.tag, piece.lines)


def _slice(piece: Piece, a: int, b: int) -> Piece:
    lines = piece.lines
    if isinstance(lines, tuple):
        lines = np.arange(lines[0], lines[0] + lines[1], dtype=np.int64)
    return Piece(piece.codes[a:b], piece.docnos.slice(a, b), piece.values[a:b], piece.tag, lines[a:b])


def _rows(parts: list[Piece], topics: TopicTable, source: str) -> Run:
    """The rows of some pieces as one :class:`~.files.Run` (for ranking and messages)."""
    parts = [p for p in parts if len(p.codes)]
    if len(parts) == 1:
        p = parts[0]
        return Run(topics.ids(), p.codes, p.docnos, p.values, "", source, line_numbers([p.lines]))
    return Run(
        topics.ids(),
        np.concatenate([p.codes for p in parts]),
        Strings.concat([p.docnos for p in parts]),
        np.concatenate([p.values for p in parts]),
        "",
        source,
        line_numbers([p.lines for p in parts]),
    )


@dataclass(eq=False)
class Ranked:
    """Ranked relevance lists of the evaluated topics, as flat row arrays (rows topic after topic, in rank order).

    Built by keyword (see :func:`build_ranked`).
    """

    topics: np.ndarray  # evaluated topic ids (bytes objects), strcmp order
    seg: np.ndarray  # topic index of each row
    pos: np.ndarray  # 0-based rank of each row
    rel: np.ndarray  # relevance of each row (NONPOOL / UNJUDGED / grade)
    starts: np.ndarray  # first row of each topic
    num_ret: np.ndarray  # rows per topic
    bogus: np.ndarray  # topic evaluated under -c without results (its one row a stand-in)
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
    missing: list[str] = field(default_factory=list)  # qrels topics without results (left out unless -c)
    judged_positive: int = 0  # qrels lines with a grade > 0, all topics (trec_eval's num_rel under -c)
    levels: tuple[np.ndarray, ...] = ()  # (topic, grade, count) of the judged grades >= 0 of each topic

    @property
    def ntopics(self) -> int:
        return len(self.topics)

    @property
    def isrel(self) -> np.ndarray:
        return self.rel >= self.level

    def cum(self, mask: np.ndarray) -> np.ndarray:
        """Running count of ``mask`` within each topic (inclusive)."""
        return seg_cumsum(mask.astype(np.int64), self.seg, self.pos, self.num_ret)

    def topic_slice(self, a: int, b: int) -> Ranked:
        """Topics ``a`` to ``b - 1`` on their own (their rows, their judgments), numbered from 0."""
        lo, hi = int(self.starts[a]) if a < self.ntopics else len(self.rel), _end(self.starts, self.num_ret, b)
        ilo, ihi = (
            int(self.ideal_starts[a]) if a < self.ntopics else len(self.ideal),
            _end(self.ideal_starts, self.num_pos, b),
        )
        lt, lg, ln = self.levels
        la, lb = np.searchsorted(lt, [a, b])
        return Ranked(
            topics=self.topics[a:b],
            seg=self.seg[lo:hi] - self.seg.dtype.type(a),
            pos=self.pos[lo:hi],
            rel=self.rel[lo:hi],
            starts=self.starts[a:b] - lo,
            num_ret=self.num_ret[a:b],
            bogus=self.bogus[a:b],
            level=self.level,
            num_rel=self.num_rel[a:b],
            num_nonrel=self.num_nonrel[a:b],
            max_grade=self.max_grade[a:b],
            ideal=self.ideal[ilo:ihi],
            ideal_seg=self.ideal_seg[ilo:ihi] - a,
            ideal_pos=self.ideal_pos[ilo:ihi],
            ideal_starts=self.ideal_starts[a:b] - ilo,
            num_pos=self.num_pos[a:b],
            runid=self.runid,
            missing=self.missing,
            judged_positive=self.judged_positive,
            levels=(lt[la:lb] - a, lg[la:lb], ln[la:lb]),
        )


def _end(starts: np.ndarray, lengths: np.ndarray, b: int) -> int:
    """Where topic ``b - 1``'s rows end."""
    return int(starts[b - 1] + lengths[b - 1]) if b > 0 else 0


def build_ranked(
    qrels: Qrels,
    run: Run | str | os.PathLike[str],
    *,
    relevance_level: int = 1,
    depth: int | None = None,
    complete: bool = False,
) -> Ranked:
    """Rank the run, cut it at ``depth`` and look up relevance (see the module's text).

    ``run`` is a :class:`~.files.Run`, or a file, which is then read and joined block by block.
    Qrels topics without results are left out with a :class:`~irmeans.errors.TopicsLeftOutWarning`,
    or with ``complete`` evaluated as trec_eval's ``-c`` does.
    """
    judged = judgments(qrels, int(relevance_level))
    runid: str | None
    if isinstance(run, Run):
        blocks, run_ids, runid, source = [rank_block(judged, run, depth)], run.topic_ids, run.runid, run.source
    else:
        source = os.fspath(run)
        try:
            if source == "-":  # standard input is read once: whole
                raise _NotInOneStretch
            blocks, run_ids, runid = _stream_blocks(judged, source, depth)
            if not run_ids:
                raise FileFormatError("the run is empty", path=source)
        except _NotInOneStretch:
            whole = read_run(source, check=False)
            blocks, run_ids, runid = [rank_block(judged, whole, depth)], whole.topic_ids, whole.runid
    assert runid is not None  # a run with rows has its tag
    return _assemble(judged, blocks, set(run_ids), runid, complete, depth, qrels.source, source)


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
    missing_codes = np.flatnonzero(~in_run)
    missing = [judged.topic_ids[c].decode("utf-8", "surrogateescape") for c in missing_codes]
    evaluated = in_run | complete
    if not evaluated.any():
        raise IrmeansError(f"{shown_path(run_source)}: no topic of the run has judgments in {shown_path(qrels_source)}")
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
    # rows, ranks and topics: 32-bit while they fit
    index: type[np.signedinteger[Any]] = np.int32 if total < _INT32_MAX else np.int64
    new_index = np.full(T, -1, dtype=np.int64)
    new_index[ev] = np.arange(len(ev))
    rel = np.full(total, NONPOOL, dtype=blocks[0].rel.dtype if blocks else np.int32)
    while blocks:  # each block's topics moved to their places, and the block let go
        b = blocks.pop(0)
        local = np.arange(len(b.rel), dtype=index) - np.repeat((np.cumsum(b.kept) - b.kept).astype(index), b.kept)
        rel[np.repeat(starts[new_index[b.topics]].astype(index), b.kept) + local] = b.rel
    seg = np.repeat(np.arange(len(ev), dtype=index), num_ret)
    pos = np.arange(total, dtype=index)
    pos -= np.repeat(starts.astype(index), num_ret)
    keep_ideal = evaluated[judged.ideal_topic]
    ideal = judged.ideal[keep_ideal]
    ideal_seg = new_index[judged.ideal_topic[keep_ideal]]
    num_pos = judged.num_pos[ev]
    ideal_starts = np.cumsum(num_pos) - num_pos
    lt, lg, ln = judged.levels
    keep_levels = evaluated[lt]
    return Ranked(
        topics=np.array([*(judged.topic_ids[i] for i in ev), b""], dtype=object)[:-1],
        seg=seg,
        pos=pos,
        rel=rel,
        starts=starts,
        num_ret=num_ret,
        bogus=bogus,
        level=judged.level,
        num_rel=judged.num_rel[ev],
        num_nonrel=judged.num_nonrel[ev],
        max_grade=judged.max_grade[ev],
        ideal=ideal,
        ideal_seg=ideal_seg,
        ideal_pos=np.arange(len(ideal), dtype=np.int64) - ideal_starts[ideal_seg],
        ideal_starts=ideal_starts,
        num_pos=num_pos,
        runid=runid,
        missing=missing,
        judged_positive=judged.judged_positive,
        levels=(new_index[lt[keep_levels]], lg[keep_levels], ln[keep_levels]),
    )
