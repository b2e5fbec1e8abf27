"""TREC qrels and runs as rows: :class:`Qrels` and :class:`Run`, and their readers.

:func:`read_qrels` and :func:`read_run` read a file piece by piece (:func:`.tokens.pieces`:
the tokenising) and collect its rows into arrays that grow in place: topic codes, docnos
stored end to end (:class:`~.strings.Strings`), grades or scores, line numbers.  Any error
names the file and the line.  :meth:`Qrels.from_arrays` and :meth:`Run.from_arrays` build
the same from sequences in memory.  :func:`find_duplicate` is the one place that looks for
a document judged or retrieved twice for a topic.

``-`` reads standard input, and gzip-compressed files are read transparently.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from .._validation import float_array, integer_array, labels
from ..errors import FileFormatError, IrmeansError, shown_token
from ..number_syntax import MAX_GRADE, grade_problem
from .strings import _PAD, Strings, equal_at
from .tokens import (
    _SLACK,
    MAX_LINE_BYTES,
    QRELS,
    RUN,
    ConsecutiveLines,
    Layout,
    Piece,
    TopicTable,
    line_error,
    line_numbers,
    pieces,
)

__all__ = ["Qrels", "Run", "read_qrels", "read_run", "check_unique", "find_duplicate", "MAX_LINE_BYTES"]

_INT32_MAX = np.iinfo(np.int32).max


class _Rows:
    """What qrels and runs share: each row's topic id and docno, built on demand as numpy arrays."""

    # The fields of both (declared here for the type checker; the subclasses are the dataclasses).
    topic_ids: list[bytes]
    topic_codes: np.ndarray
    docno_strings: Strings

    @property
    def topics(self) -> np.ndarray:
        """Each row's topic id (numpy bytes array)."""
        return _topic_array(self.topic_ids, self.topic_codes)

    @property
    def docnos(self) -> np.ndarray:
        """Each row's docno (numpy bytes array, padded to the longest: for small data and tests)."""
        return self.docno_strings.to_array()


@dataclass(frozen=True, eq=False)
class Qrels(_Rows):
    """Relevance judgments: one row per judged (topic, document) pair.

    Attributes
    ----------
    topic_ids : list of bytes
        The distinct topics, in order of first appearance.
    topic_codes : numpy.ndarray of int64
        Each row's topic, as an index into ``topic_ids``.
    docno_strings : Strings
        Each row's docno (bytes stored end to end, see :mod:`irmeans.trec.strings`).
    rels : numpy.ndarray of int64
        Relevance grades; negative means judged but unusable.
    source : str
        File name (or ``"<arrays>"``) used in error messages.
    lines : numpy.ndarray of int64 or None
        Line number of each row in ``source``.

    ``topics`` and ``docnos`` give the rows' topics and docnos as numpy bytes arrays.

    Examples
    --------
    >>> q = Qrels.from_arrays(["1", "1"], ["d1", "d2"], [1, 0])
    >>> q.rels.tolist(), q.docnos.tolist()
    ([1, 0], [b'd1', b'd2'])
    """

    topic_ids: list[bytes]
    topic_codes: np.ndarray
    docno_strings: Strings
    rels: np.ndarray
    source: str = "<arrays>"
    lines: np.ndarray | ConsecutiveLines | None = None

    @classmethod
    def from_arrays(
        cls, topics: Iterable[str | bytes], docnos: Iterable[str | bytes], rels: ArrayLike, source: str = "<arrays>"
    ) -> Qrels:
        """Build qrels from in-memory sequences (str or bytes).

        Raises ``ValueError`` for relevance values that are not integers (or
        do not fit in 64 bits), masked arrays, sequences of different lengths,
        or a document judged twice for one topic (the message names the row,
        counted from 0).

        Examples
        --------
        >>> Qrels.from_arrays(["7"], ["d"], [2.0]).rels.tolist()
        [2]
        """
        topics, docnos = labels(topics, "the qrels' topics", source), labels(docnos, "the qrels' docnos", source)
        rels = integer_array(rels, "relevance", source)
        high = rels > MAX_GRADE
        if high.any():
            i = int(np.flatnonzero(high)[0])
            raise IrmeansError(f"{source}: row {i}: relevance {int(rels[i])} {grade_problem(int(rels[i]))}")
        ids, codes = _code_topics(topics)
        d = Strings.from_sequence(docnos)
        if not (len(codes) == len(d) == len(rels)):
            raise IrmeansError(f"{source}: topics, docnos and rels differ in length")
        q = cls(ids, codes, d, rels, source, None)
        _raise_duplicate(q, "judged")
        return q

    def __len__(self) -> int:
        return len(self.rels)


@dataclass(frozen=True, eq=False)
class Run(_Rows):
    """A retrieval run: one row per retrieved (topic, document) pair.

    Attributes
    ----------
    topic_ids, topic_codes, docno_strings
        As in :class:`Qrels`; ``topics`` and ``docnos`` give numpy bytes arrays.
    scores : numpy.ndarray of float64
    runid : str
        The tag of the last line (what trec_eval reports as ``runid``).
    source : str
    lines : numpy.ndarray of int64 or None
    checked : bool
        False for a run whose duplicates are still to be checked (one read by
        ``read_run(path, check=False)``: :func:`~irmeans.trec.join.build_ranked`
        checks them while joining, at no extra cost).

    Examples
    --------
    >>> r = Run.from_arrays(["1", "1"], ["d1", "d2"], [2.0, 1.0], runid="bm25")
    >>> r.runid, r.scores.tolist()
    ('bm25', [2.0, 1.0])
    """

    topic_ids: list[bytes]
    topic_codes: np.ndarray
    docno_strings: Strings
    scores: np.ndarray
    runid: str = "run"
    source: str = "<arrays>"
    lines: np.ndarray | ConsecutiveLines | None = None
    checked: bool = True

    @classmethod
    def from_arrays(
        cls,
        topics: Iterable[str | bytes],
        docnos: Iterable[str | bytes],
        scores: ArrayLike,
        runid: str = "run",
        source: str = "<arrays>",
    ) -> Run:
        """Build a run from in-memory sequences (str or bytes).

        Raises ``ValueError`` for an empty run, sequences of different
        lengths, a masked array, a score that is NaN, or a document
        retrieved twice for one topic (the message names the row, counted from 0).

        Examples
        --------
        >>> Run.from_arrays([b"7"], [b"d"], [0.5]).topics.tolist()
        [b'7']
        """
        topics, docnos = labels(topics, "the run's topics", source), labels(docnos, "the run's docnos", source)
        s = float_array(scores, "scores", infinite=True).reshape(-1)
        ids, codes = _code_topics(topics)
        d = Strings.from_sequence(docnos)
        if not (len(codes) == len(d) == len(s)):
            raise IrmeansError(f"{source}: topics, docnos and scores differ in length")
        if len(s) == 0:
            raise IrmeansError(f"{source}: the run is empty")
        r = cls(ids, codes, d, s, str(runid), source, None)
        _raise_duplicate(r, "retrieved")
        return r

    def __len__(self) -> int:
        return len(self.scores)


def _topic_array(ids: list[bytes], codes: np.ndarray) -> np.ndarray:
    table = np.array(ids, dtype="S") if ids else np.zeros(0, dtype="S1")
    return table[codes] if len(codes) else np.zeros(0, dtype=table.dtype)


def _code_topics(topics: Iterable[str | bytes]) -> tuple[list[bytes], np.ndarray]:
    """Distinct topic ids (first-appearance order) and each value's code."""
    values = Strings.from_sequence(topics).tolist()
    table: dict[bytes, int] = {}
    codes = np.fromiter((table.setdefault(v, len(table)) for v in values), dtype=np.int64, count=len(values))
    return list(table), codes


class _Growing:
    """A numpy array appended to in place: no list of pieces to concatenate at the end.

    The first allocation is the expected size (from the file's size); memory that is
    reserved but never written is not resident, so a generous guess costs nothing.
    """

    def __init__(self, dtype: DTypeLike, capacity: int) -> None:
        self.a = np.empty(max(int(capacity), 16), dtype=dtype)
        self.n = 0

    def reserve(self, m: int) -> np.ndarray:
        """The next ``m`` slots, to be written by the caller."""
        need = self.n + m
        if need > len(self.a):
            bigger = np.empty(max(need, 2 * len(self.a)), dtype=self.a.dtype)
            bigger[: self.n] = self.a[: self.n]
            self.a = bigger
        out = self.a[self.n : need]
        self.n = need
        return out

    def append(self, values: np.ndarray) -> None:
        self.reserve(len(values))[:] = values

    def result(self) -> np.ndarray:
        return self.a[: self.n]


class _Collector:
    """The rows of a file, piece by piece: topic codes, docnos (bytes and offsets), values.

    Topic codes and docno offsets are 32-bit while they fit (4 bytes a line saved on each);
    docno hashes are left to be computed when needed (:meth:`Strings.hashes`; the join of
    :func:`~irmeans.trec.evaluate.evaluate` makes them in rank order, without keeping them).
    """

    def __init__(self, size: int, values_dtype: DTypeLike) -> None:
        rows = size // 8 + 1  # a line has at least 8 bytes ("1 0 d 1\n")
        self.codes = _Growing(np.int32, rows)
        self.values = _Growing(values_dtype, rows)
        self.data = _Growing(np.uint8, size + _SLACK)
        self.offsets = _Growing(np.int32, rows + 1)
        self.offsets.append(np.zeros(1, np.int32))
        self.lines: list[tuple[int, int] | np.ndarray] = []
        self.tag: str | None = None

    def _room(self, size: int) -> None:
        """Make the offsets 64-bit before they would pass 2**31 - 1."""
        if self.offsets.a.dtype == np.int32 and self.data.n + size + _PAD >= _INT32_MAX:
            self.offsets.a = self.offsets.a.astype(np.int64)

    def __len__(self) -> int:
        return self.codes.n

    def add(self, piece: Piece) -> None:
        if piece.tag is not None:
            self.tag = piece.tag
        docnos = piece.docnos
        if not isinstance(docnos, Strings):  # a binary column of pyarrow's reader (see .arrow)
            from .arrow import column_strings

            docnos = column_strings(docnos)
        self.codes.append(piece.codes)
        self.values.append(piece.values)
        first, size = int(docnos.offsets[0]), int(docnos.offsets[-1]) - int(docnos.offsets[0])
        self._room(size)
        at = self.data.n
        self.data.append(docnos.data[first : first + size])
        self.offsets.append(docnos.offsets[1:] - (first - at))
        self.lines.append(piece.lines)

    def strings(self) -> Strings:
        n = self.data.n
        self.data.reserve(_PAD)[:] = 0
        return Strings(self.data.a[: n + _PAD], self.offsets.result())


def _collect(source: str, layout: Layout, values_dtype: DTypeLike) -> tuple[TopicTable, _Collector]:
    """Every row of ``source``, collected piece by piece."""
    topics = TopicTable()
    rows = _Collector(_size(source), values_dtype)
    for piece in pieces(source, layout, topics):
        rows.add(piece)
    return topics, rows


def _size(source: str) -> int:
    try:
        return os.stat(source).st_size if source != "-" else 0
    except OSError:
        return 0


def read_qrels(path: str | os.PathLike[str]) -> Qrels:
    """Read a TREC qrels file (``qid iter docno rel``).

    Parameters
    ----------
    path : str or os.PathLike
        A file (gzip-compressed or not), or ``"-"`` for standard input.

    Returns
    -------
    Qrels

    Raises
    ------
    irmeans.errors.FileFormatError
        A line without exactly four fields, a relevance that is not an
        integer, a document judged twice for one topic, a binary file; the
        message names the file and the line, as for a missing file.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".qrels", delete=False) as fh:
    ...     _ = fh.write("# judged by hand\\n1 0 d1 1\\n1 0 d2 0\\n")
    >>> q = read_qrels(fh.name); os.unlink(fh.name)
    >>> q.docnos.tolist(), q.rels.tolist(), q.lines.tolist()
    ([b'd1', b'd2'], [1, 0], [2, 3])
    """
    source = os.fspath(path)
    topics, rows = _collect(source, QRELS, np.int64)
    if not len(rows):
        raise FileFormatError("no judgments in the file", path=source)
    qrels = Qrels(
        topics.ids(), rows.codes.result(), rows.strings(), rows.values.result(), source, line_numbers(rows.lines)
    )
    del rows
    _raise_duplicate(qrels, "judged")
    return qrels


def read_run(path: str | os.PathLike[str], check: bool = True) -> Run:
    """Read a TREC run file (``qid Q0 docno rank score tag``).

    The rank column is ignored, as trec_eval does; the ranking is rebuilt
    from the scores.  Fields after the sixth are ignored.

    Parameters
    ----------
    path : str or os.PathLike
        A file (gzip-compressed or not), or ``"-"`` for standard input.
    check : bool
        Check that no document is retrieved twice for a topic.  With False
        the check is left to :func:`~irmeans.trec.evaluate.evaluate`, which
        makes it while joining the run with the qrels.

    Returns
    -------
    Run

    Raises
    ------
    irmeans.errors.FileFormatError
        An empty file, a line with fewer than six fields, a score that is not
        a number in C's syntax or is NaN (``inf`` and ``1e400`` rank first, as in
        trec_eval), a document retrieved twice for one
        topic, a binary file; the message names the file and the line.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".run", delete=False) as fh:
    ...     _ = fh.write("1 Q0 d1 1 2.5 bm25\\n1 Q0 d2 2 1.5 bm25 extra\\n")
    >>> r = read_run(fh.name); os.unlink(fh.name)
    >>> r.docnos.tolist(), r.scores.tolist(), r.runid
    ([b'd1', b'd2'], [2.5, 1.5], 'bm25')
    """
    source = os.fspath(path)
    topics, rows = _collect(source, RUN, np.float64)
    if not len(rows):
        raise FileFormatError("the run is empty", path=source)
    assert rows.tag is not None  # every line of a run has its tag
    run = Run(
        topics.ids(),
        rows.codes.result(),
        rows.strings(),
        rows.values.result(),
        rows.tag,
        source,
        line_numbers(rows.lines),
        checked=check,
    )
    del rows
    if check:
        _raise_duplicate(run, "retrieved")
    return run


def check_unique(run: Run) -> None:
    """Raise the error of :func:`read_run` if a document is retrieved twice for a topic."""
    _raise_duplicate(run, "retrieved")


_MIX = np.uint64(0x9E3779B97F4A7C15)


def find_duplicate(codes: np.ndarray, strings: Strings, rows: np.ndarray | None = None) -> tuple[int, int] | None:
    """The first pair of rows with the same topic code and docno, as (earlier, later), or None.

    "First" is the pair whose later row comes first.  ``rows`` restricts the search to those
    rows (indices into ``codes`` and ``strings``).  Hashes find the candidates, the strings
    decide.

    Examples
    --------
    >>> find_duplicate(np.array([0, 0, 1, 0]), Strings.from_sequence(["a", "b", "a", "a"]))
    (0, 3)
    """
    if rows is None:  # every row: the hashes are kept, the lookup of the join uses them too
        rows = np.arange(len(codes))
        hashes = strings.hashes() if len(rows) > 1 else None
    else:
        rows = np.asarray(rows)
        hashes = strings.hashes_at(rows) if len(rows) > 1 else None
    if len(rows) < 2:
        return None
    assert hashes is not None  # made above for two rows or more
    key = codes[rows].astype(np.uint64) * _MIX
    key ^= hashes
    in_order = np.sort(key)  # the usual answer, no pair, costs a sort; only a pair needs the rows
    if not (in_order[1:] == in_order[:-1]).any():
        return None
    order = np.argsort(key, kind="stable")
    k = key[order]
    same = np.flatnonzero(k[1:] == k[:-1])
    if not len(same):
        return None
    a, b = rows[order[same]], rows[order[same + 1]]
    real = codes[a] == codes[b]
    real &= equal_at(strings.data, *strings.spans(a), strings.data, *strings.spans(b))
    if not real.any():
        return None
    first, second = np.minimum(a[real], b[real]), np.maximum(a[real], b[real])
    j = int(np.argmin(second))
    return int(first[j]), int(second[j])


def duplicate_error(data: Qrels | Run, pair: tuple[int, int], verb: str) -> IrmeansError:
    """The error for a document judged or retrieved twice: file and line, or the rows of arrays."""
    i1, i2 = pair
    doc = shown_token(data.docno_strings[i2])
    topic = shown_token(data.topic_ids[int(data.topic_codes[i2])])
    if data.lines is not None:
        return line_error(
            data.source,
            data.lines[i2],
            f"document {doc!r} {verb} twice for topic {topic!r} (first on line {int(data.lines[i1])})",
        )
    return IrmeansError(
        f"{data.source}: row {i2}: document {doc!r} {verb} twice for topic {topic!r} (first in row {i1})"
    )


def _raise_duplicate(data: Qrels | Run, verb: str) -> None:
    pair = find_duplicate(data.topic_codes, data.docno_strings)
    if pair is not None:
        raise duplicate_error(data, pair, verb)
