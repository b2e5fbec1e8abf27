"""The ranked lists of an evaluation: what the join gives the measures.

:class:`Ranked` holds every evaluated topic's ranking as grades, flat (rows topic after topic,
in rank order), with :class:`TopicJudgments`, what the measures need of each topic's
judgments.  A row's grade is the document's grade in the qrels, :data:`NONPOOL` if the qrels
do not judge it, or :data:`UNJUDGED` if they judge it with a negative grade.  Where each
topic's rows start, and each row's topic and rank, follow from the number of rows of each
topic and are made when first asked for.

>>> j = TopicJudgments.of(np.array([0, 0, 1]), np.array([2, 0, 1]), level=1, topics=2)
>>> r = Ranked(np.array([b"1", b"2"], dtype=object), np.array([2, NONPOOL, 1]), np.array([2, 1]),
...            np.zeros(2, bool), 1, j, "run")
>>> r.seg.tolist(), r.pos.tolist(), r.judged.num_rel.tolist()
([0, 0, 1], [0, 1, 0], [1, 1])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

__all__ = ["NONPOOL", "UNJUDGED", "Ranked", "TopicJudgments", "segments"]

#: The grade of a ranked document the qrels do not judge.
NONPOOL = -1
#: The grade of a ranked document the qrels judge with a negative grade.
UNJUDGED = -2

_INT32_MAX = np.iinfo(np.int32).max


def segments(lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(start of each segment, segment of each row, position of each row in its segment) from the lengths.

    Rows, positions and segments are 32-bit while they fit (memory).

    >>> [a.tolist() for a in segments(np.array([2, 0, 3]))]
    [[0, 2, 2], [0, 0, 2, 2, 2], [0, 1, 0, 1, 2]]
    """
    total = int(lengths.sum())
    index: type[np.signedinteger[Any]] = np.int32 if total < _INT32_MAX else np.int64
    starts = (np.cumsum(lengths) - lengths).astype(np.int64)
    seg = np.repeat(np.arange(len(lengths), dtype=index), lengths)
    pos = np.arange(total, dtype=index)
    pos -= np.repeat(starts.astype(index), lengths)
    return starts, seg, pos


@dataclass(frozen=True, eq=False)
class TopicJudgments:
    """What the measures need of each topic's judgments at one relevance level.

    Attributes
    ----------
    num_rel, num_nonrel : numpy.ndarray of int64
        Documents judged with a grade >= the level, and with 0 <= grade < the level.
    max_grade : numpy.ndarray of int64
        The highest grade >= 0 judged (-1 if none).
    num_pos : numpy.ndarray of int64
        Documents judged with a grade > 0.
    ideal : numpy.ndarray of int64
        The positive grades of every topic, each topic's in descending order, topic after topic.
    levels : tuple of numpy.ndarray
        (topic, grade, count) of each distinct grade >= 0 judged for a topic, sorted.
    """

    num_rel: np.ndarray
    num_nonrel: np.ndarray
    max_grade: np.ndarray
    num_pos: np.ndarray
    ideal: np.ndarray
    levels: tuple[np.ndarray, np.ndarray, np.ndarray]

    @classmethod
    def of(cls, topic: np.ndarray, grade: np.ndarray, level: int, topics: int) -> TopicJudgments:
        """The judgments of qrels rows (each row's topic index and grade) for ``topics`` topics.

        Everything is counted from the distinct (topic, grade) pairs of the judged rows
        (:func:`_levels`): the rows are read once, and only the pairs are ordered.
        """
        t, g, n = _levels(topic, grade, topics)
        num_rel = _count(t, n, g >= level, topics)
        num_nonrel = _count(t, n, g < level, topics)
        max_grade = np.full(topics, -1, dtype=np.int64)
        last = np.ones(len(t), dtype=bool)  # each topic's highest grade is its last pair
        last[:-1] = t[1:] != t[:-1]
        max_grade[t[last]] = g[last]
        positive = g > 0
        num_pos = _count(t, n, positive, topics)
        tp, gp, np_ = t[positive], g[positive], n[positive]
        down = np.lexsort((-gp, tp))  # each topic's positive grades, highest first
        ideal = np.repeat(gp[down], np_[down])
        return cls(num_rel, num_nonrel, max_grade, num_pos, ideal, (t, g, n))

    def take(self, topics: np.ndarray) -> TopicJudgments:
        """The judgments of some topics (ascending indices), renumbered 0, 1, ..."""
        keep = np.zeros(len(self.num_rel), dtype=bool)
        keep[topics] = True
        new = np.full(len(self.num_rel), -1, dtype=np.int64)
        new[topics] = np.arange(len(topics))
        t, g, n = self.levels
        kept = keep[t]
        return TopicJudgments(
            self.num_rel[topics],
            self.num_nonrel[topics],
            self.max_grade[topics],
            self.num_pos[topics],
            self.ideal[np.repeat(keep, self.num_pos)],
            (new[t[kept]], g[kept], n[kept]),
        )

    def slice(self, a: int, b: int) -> TopicJudgments:
        """The judgments of topics ``a`` to ``b - 1``, numbered from 0."""
        starts = self.ideal_starts
        ilo = int(starts[a]) if a < len(starts) else len(self.ideal)
        ihi = int(starts[b - 1] + self.num_pos[b - 1]) if b > 0 else 0
        t, g, n = self.levels
        la, lb = np.searchsorted(t, [a, b])
        return TopicJudgments(
            self.num_rel[a:b],
            self.num_nonrel[a:b],
            self.max_grade[a:b],
            self.num_pos[a:b],
            self.ideal[ilo:ihi],
            (t[la:lb] - a, g[la:lb], n[la:lb]),
        )

    @cached_property
    def _ideal_segments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return segments(self.num_pos)

    @property
    def ideal_starts(self) -> np.ndarray:
        """Where each topic's grades start in :attr:`ideal`."""
        return self._ideal_segments[0]

    @property
    def ideal_seg(self) -> np.ndarray:
        """The topic of each grade of :attr:`ideal`."""
        return self._ideal_segments[1]

    @property
    def ideal_pos(self) -> np.ndarray:
        """The place of each grade of :attr:`ideal` among its topic's."""
        return self._ideal_segments[2]


def _count(t: np.ndarray, n: np.ndarray, which: np.ndarray, topics: int) -> np.ndarray:
    """Each topic's count over the (topic ``t``, count ``n``) pairs ``which`` selects."""
    out = np.zeros(topics, dtype=np.int64)
    np.add.at(out, t[which], n[which])
    return out


# Qrels rows counted at a time (bounded temporaries); a table of (topic, grade) counts is made
# instead of sorting the rows when it has at most _TABLE_PER_ROW cells a row, plus _TABLE_ANYWAY
# (sorting takes about 25 bytes a row).
_ROWS_AT_ONCE = 1 << 18
_TABLE_PER_ROW = 4
_TABLE_ANYWAY = 1 << 16


def _levels(topic: np.ndarray, grade: np.ndarray, topics: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(topic, grade, count) of each distinct judged (topic, grade >= 0) pair, sorted.

    Grades are few: the rows are counted into a table of a count per topic and grade, block
    by block; grades too far apart for a table are sorted instead.

    >>> [a.tolist() for a in _levels(np.array([1, 0, 1, 1]), np.array([2, -1, 0, 2]), 2)]
    [[1, 1], [0, 2], [1, 2]]
    """
    if len(topic) == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    width = int(grade.max()) + 1
    if width <= 0:  # nothing judged with a grade >= 0
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    if topics * width <= _TABLE_PER_ROW * len(topic) + _TABLE_ANYWAY:
        counts = np.zeros(topics * width, dtype=np.int64)
        for a in range(0, len(topic), _ROWS_AT_ONCE):
            t, g = topic[a : a + _ROWS_AT_ONCE], grade[a : a + _ROWS_AT_ONCE]
            judged = g >= 0
            cell = t[judged].astype(np.int64)
            cell *= width
            cell += g[judged]
            counts += np.bincount(cell, minlength=len(counts))
        cells = np.flatnonzero(counts)
        return cells // width, cells % width, counts[cells]
    judged = grade >= 0
    topic, grade = topic[judged], grade[judged]
    o = np.lexsort((grade, topic))
    t, g = topic[o].astype(np.int64), grade[o]
    head = np.ones(len(t), dtype=bool)
    head[1:] = (t[1:] != t[:-1]) | (g[1:] != g[:-1])
    at = np.flatnonzero(head)
    return t[at], g[at], np.diff(np.append(at, len(t)))


@dataclass(frozen=True, eq=False)
class Ranked:
    """The ranked grades of the evaluated topics, as flat row arrays (rows topic after topic, in rank order).

    Attributes
    ----------
    topics : numpy.ndarray of bytes objects
        The evaluated topics, in ``strcmp`` order.
    rel : numpy.ndarray
        The grade of each ranked row: :data:`NONPOOL`, :data:`UNJUDGED` or the judged grade.
    num_ret : numpy.ndarray of int64
        Each topic's rows.
    bogus : numpy.ndarray of bool
        Topics evaluated under ``-c`` without results (their one row is trec_eval's stand-in).
    level : int
        The grade from which a document counts as relevant.
    judged : TopicJudgments
        What the measures need of each topic's judgments.
    runid : str
    missing : list of str
        Qrels topics without results (left out unless ``-c``).
    judged_positive : int
        Qrels lines with a grade > 0, all topics (trec_eval's ``num_rel`` total under ``-c``).
    """

    topics: np.ndarray
    rel: np.ndarray
    num_ret: np.ndarray
    bogus: np.ndarray
    level: int
    judged: TopicJudgments
    runid: str
    missing: list[str] = field(default_factory=list)
    judged_positive: int = 0

    @property
    def ntopics(self) -> int:
        """The number of topics."""
        return len(self.topics)

    @cached_property
    def _segments(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return segments(self.num_ret)

    @property
    def starts(self) -> np.ndarray:
        """The first row of each topic."""
        return self._segments[0]

    @property
    def seg(self) -> np.ndarray:
        """The topic (its index) of each row."""
        return self._segments[1]

    @property
    def pos(self) -> np.ndarray:
        """The 0-based rank of each row."""
        return self._segments[2]

    def topic_slice(self, a: int, b: int) -> Ranked:
        """Topics ``a`` to ``b - 1`` on their own (their rows, their judgments), numbered from 0."""
        lo = int(self.num_ret[:a].sum())
        hi = lo + int(self.num_ret[a:b].sum())
        return Ranked(
            topics=self.topics[a:b],
            rel=self.rel[lo:hi],
            num_ret=self.num_ret[a:b],
            bogus=self.bogus[a:b],
            level=self.level,
            judged=self.judged.slice(a, b),
            runid=self.runid,
            missing=self.missing,
            judged_positive=self.judged_positive,
        )
