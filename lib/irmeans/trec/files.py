"""TREC qrels and runs as rows, and their readers: :class:`Qrels`, :class:`Run`, :func:`read_qrels`, :func:`read_run`.

A file is read chunk by chunk (:mod:`.source`), each chunk split into fields by the exact
tokeniser (:mod:`.tokens`) or, for a big file, by pyarrow's (:mod:`.arrow`) where it takes
the chunk; the rows of the chunks are then put together.  Any error names the file and the
line, and a file's errors are reported in one order however it is read (:class:`Errors`).
:meth:`Qrels.from_arrays` and :meth:`Run.from_arrays` build the same from sequences in
memory.  :mod:`.run_blocks` reads a run a block of whole topics at a time with these pieces.

``-`` reads standard input, and gzip-compressed files are read transparently.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import ArrayLike

from .. import _python_input as given
from ..errors import FileFormatError, IrmeansError
from ..number_syntax import MAX_GRADE, BadNumber, grade_problem
from . import source as source_module
from .ahead import ahead
from .duplicates import KeyIndex, raise_duplicate
from .source import Chunk, chunks, file_size
from .strings import PAD, Strings, gather
from .tokens import QRELS, RUN, ConsecutiveLines, Layout, Piece, TopicTable, line_error, line_numbers, parse

__all__ = ["Qrels", "Run", "Errors", "Rows", "read_qrels", "read_run", "pieces", "lines_of", "ARROW_BYTES"]

#: From this many bytes on, a file's chunks go to pyarrow's tokeniser: its threads then read a
#: big file faster, but its libraries take about 40 MiB of memory, more than a run of a few
#: hundred megabytes takes streamed (the 34 MiB of two tracks' runs stacked: 104 MiB with it,
#: 57 without; trec_eval 76).
ARROW_BYTES = 1 << 28
#: A file smaller than this is read as one chunk when it is read whole.
WHOLE_BYTES = 1 << 22
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

    ``topics`` and ``docnos`` give the rows' topics and docnos as numpy bytes arrays.

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
        """Build qrels from in-memory sequences.

        Ids and grades are read as the Python API reads them (:mod:`irmeans._python_input`):
        ids as text or whole numbers (``1.0`` is ``'1'``), grades as integers or text read as
        C reads them.  Raises ``ValueError`` for a missing or malformed id, two values read
        as one id, relevance values that are not integers (or do not fit in 64 bits), masked
        arrays, sequences of different lengths, or a document judged twice for one topic (the
        message names the row, counted from 0).

        Examples
        --------
        >>> Qrels.from_arrays(["7"], ["d"], [2.0]).rels.tolist()
        [2]
        """
        where = f"{source} (qrels)"
        topics, docnos = given.ids(topics, "topic", where), given.ids(docnos, "document", where)
        rels = given.values(rels, "relevance", source, kind="grade")
        high = rels > MAX_GRADE
        if high.any():
            i = int(np.flatnonzero(high)[0])
            raise IrmeansError(f"{source}: row {i}: relevance {int(rels[i])} {grade_problem(int(rels[i]))}")
        ids, codes = _code_topics(topics)
        d = Strings.from_sequence(docnos)
        if not (len(codes) == len(d) == len(rels)):
            raise IrmeansError(f"{source}: topics, docnos and rels differ in length")
        q = cls(ids, codes, d, rels, source, None)
        raise_duplicate(q, "judged", q.key_index)
        return q

    def __len__(self) -> int:
        return len(self.rels)

    @cached_property
    def key_index(self) -> KeyIndex:
        """The rows' (topic, docno) keys, sorted: made when the qrels are read (the check for a document judged
        twice), kept for the join's lookups."""
        return KeyIndex.of(self.topic_codes, self.docno_strings)


@dataclass(frozen=True, eq=False)
class Run(_Rows):
    """A retrieval run: one row per retrieved (topic, document) pair.

    A run is checked for documents retrieved twice when it is made, by :meth:`from_arrays`,
    :func:`read_run` or :class:`RunReader` (block by block).

    Attributes
    ----------
    topic_ids, topic_codes, docno_strings
        As in :class:`Qrels`; ``topics`` and ``docnos`` give numpy bytes arrays.
    scores : numpy.ndarray of float64
    runid : str
        The tag of the last line (what trec_eval reports as ``runid``).
    source : str
    lines : numpy.ndarray of int64 or None

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

    @classmethod
    def from_arrays(
        cls,
        topics: Iterable[str | bytes],
        docnos: Iterable[str | bytes],
        scores: ArrayLike,
        runid: str = "run",
        source: str = "<arrays>",
    ) -> Run:
        """Build a run from in-memory sequences.

        Ids and scores are read as the Python API reads them (:mod:`irmeans._python_input`):
        ids as text or whole numbers (``1.0`` is ``'1'``), scores as numbers or text read as
        C reads them.  Raises ``ValueError`` for an empty run, a missing or malformed id, two
        values read as one id, sequences of different lengths, a masked array, a score that
        is NaN, or a document retrieved twice for one topic (the message names the row,
        counted from 0).

        Examples
        --------
        >>> Run.from_arrays([b"7"], [b"d"], [0.5]).topics.tolist()
        [b'7']
        """
        where = f"{source} (run)"
        topics, docnos = given.ids(topics, "topic", where), given.ids(docnos, "document", where)
        s = given.values(scores, "score", source, infinite=True)
        ids, codes = _code_topics(topics)
        d = Strings.from_sequence(docnos)
        if not (len(codes) == len(d) == len(s)):
            raise IrmeansError(f"{source}: topics, docnos and scores differ in length")
        if len(s) == 0:
            raise IrmeansError(f"{source}: the run is empty")
        r = cls(ids, codes, d, s, str(runid), source, None)
        raise_duplicate(r, "retrieved")
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


class Errors:
    """The one place that decides which of a file's errors is reported, however the file is read.

    A wrong number of fields comes first (the first in the file), then a score or grade that
    is not read (the first), then a document judged or retrieved twice (the first found, the
    pair whose later line comes first): as if the file were checked in one go, field counts,
    then values, then duplicates.  A count error is raised where it is found; a bad value or
    a duplicate is kept, nothing more is handed on, and the rest of the file is still read
    for what outranks it before :meth:`raise_found` reports it.
    """

    def __init__(self, source: str) -> None:
        self.source = source
        self.value: BadNumber | None = None
        self.duplicate: IrmeansError | None = None

    @property
    def found(self) -> bool:
        """Whether a bad value or a duplicate is kept, to be raised by :meth:`raise_found`."""
        return self.value is not None or self.duplicate is not None

    def raise_found(self) -> None:
        """Raise the error kept, if any: a bad value before a duplicate."""
        if self.value is not None:
            raise line_error(self.source, self.value.line, self.value.message) from None
        if self.duplicate is not None:
            raise self.duplicate


def pieces(
    source: str,
    layout: Layout,
    topics: TopicTable,
    errors: Errors,
    *,
    whole: bool = False,
    stretches: bool = False,
    hashed: bool = False,
) -> Iterator[Piece]:
    """The rows of ``source``, chunk by chunk, read as ``layout`` says; topics are coded into ``topics``.

    A file of at least :data:`ARROW_BYTES` is tokenised by pyarrow where it takes a chunk, the
    exact tokeniser doing the rest.  With ``whole``, a file of fewer than
    :data:`~.run_blocks.STREAM_BYTES` is read as one chunk (its rows then point into one
    buffer: nothing to copy together).
    With ``stretches``, a chunk ends where the topic changes (:func:`~.source.chunks`), its
    piece's :attr:`~.tokens.Piece.goes_on` saying when it could not.  A regular file of more than
    two chunks is read and split a chunk ahead, in a thread of its own
    (:func:`~.ahead.ahead`): topics are coded there, so ``topics`` may already hold the next
    chunk's when a piece is given; with ``hashed``, each piece's docnos are hashed there too
    (:meth:`~.strings.Strings.hashes`, kept).  Errors are reported in
    the order :class:`Errors` keeps: no piece is given after one is found, and the generator
    raises it when the file has been read to its end.
    """
    size = file_size(source) or 0
    fast = None
    chunk_bytes = source_module.CHUNK_BYTES
    if size >= ARROW_BYTES:
        from .arrow import fast_reader

        fast = fast_reader(layout, topics)
        chunk_bytes *= 2  # pyarrow's reader: bigger chunks
    elif whole and 0 < size < WHOLE_BYTES:
        chunk_bytes = max(chunk_bytes, size + 1)

    def split() -> Generator[Piece, None, None]:
        """Each chunk's rows, in file order (in a thread of its own for a file of several chunks)."""
        for chunk in chunks(source, chunk_bytes, stretches=stretches):
            if errors.value is not None:
                _check_counts(chunk, layout, source)
                continue
            got = fast(chunk) if fast is not None else None
            if got is None:
                try:
                    got = parse(chunk, layout, topics, source)
                except BadNumber as exc:
                    errors.value = exc
                    continue
            if got is not None:
                if hashed:
                    got.docnos.hashes()
                yield got

    # the next chunk is split while this one's rows are used, in a file of several (standard input,
    # or a pipe, is read here: the thread could wait on it for ever when the reading stops)
    split_pieces = ahead(split()) if size > 2 * chunk_bytes else split()
    try:
        for got in split_pieces:
            if not errors.found:
                yield got
    finally:
        split_pieces.close()  # the thread stops, the file is closed
        if fast is not None:
            from .arrow_buffers import release_memory

            release_memory()
    errors.raise_found()


def _check_counts(chunk: Chunk, layout: Layout, source: str) -> None:
    """Check a chunk's field counts only (a bad value was found before: it is reported after them)."""
    from .tokens import Lines

    lines = Lines(chunk, layout.fields, layout.comment_anywhere)
    if len(lines):
        lines.check_counts(source, layout.fields, layout.exact, layout.what)


class _Gathered:
    """The rows of successive pieces put together as they come: one piece of them all.

    The arrays are reserved for as many rows and bytes as the file can hold (memory that is
    reserved but never written is not resident) and grow if a guess is short, so that the
    pieces can be let go one by one, never all copied at once at the end.  The docnos' hashes
    come along (made here for a piece that has none), kept by the rows' :class:`Strings`.
    """

    def __init__(self, size: int) -> None:
        rows = max(size // 8, 16)  # a line has at least 8 bytes ("1 0 d 1\n")
        self.n = self.at = 0
        self.codes = np.empty(rows, dtype=np.int32)
        self.values: np.ndarray | None = None
        self.starts: np.ndarray = np.empty(rows, dtype=np.int32 if size + PAD < _INT32_MAX else np.int64)
        self.lengths = np.empty(rows, dtype=np.int32)
        self.hashes = np.empty(rows, dtype=np.uint64)
        self.data = np.empty(max(size, 16) + PAD, dtype=np.uint8)
        self.lines: list[tuple[int, int] | np.ndarray] = []
        self.tag: str | None = None

    def add(self, piece: Piece) -> None:
        m = len(piece)
        if self.values is None:
            self.values = np.empty(len(self.codes), dtype=piece.values.dtype)
        if self.n + m > len(self.codes):
            grow = max(self.n + m, 2 * len(self.codes))
            self.codes, self.values, self.starts, self.lengths, self.hashes = (
                np.resize(a, grow) for a in (self.codes, self.values, self.starts, self.lengths, self.hashes)
            )
        docnos = piece.docnos
        size = int(docnos.lengths.sum())
        if self.at + size + PAD > len(self.data):
            self.data = np.resize(self.data, max(self.at + size + PAD, 2 * len(self.data)))
            if len(self.data) >= _INT32_MAX and self.starts.dtype != np.int64:  # offsets past 32 bits
                self.starts = self.starts.astype(np.int64)
        self.data[self.at : self.at + size] = gather(docnos.data, docnos.starts, docnos.lengths)
        end = self.n + m
        self.codes[self.n : end] = piece.codes
        self.values[self.n : end] = piece.values
        self.lengths[self.n : end] = docnos.lengths
        # each piece's docnos hashed as it comes (while the next is read), unless they were when it was read
        self.hashes[self.n : end] = docnos.hashes(keep=False)
        np.cumsum(docnos.lengths, out=self.starts[self.n : end])
        self.starts[self.n : end] += self.at - docnos.lengths
        self.n, self.at = end, self.at + size
        self.lines.append(piece.lines)
        self.tag = piece.tag if piece.tag is not None else self.tag

    def piece(self) -> Piece:
        """Every row added, as one piece."""
        n = self.n
        assert self.values is not None  # a piece was added
        self.data[self.at : self.at + PAD] = 0
        docnos = Strings(self.data[: self.at + PAD], self.starts[:n], self.lengths[:n], self.hashes[:n])
        lines = line_numbers(self.lines)
        return Piece(
            self.codes[:n],
            docnos,
            self.values[:n],
            self.tag,
            lines if isinstance(lines, np.ndarray) else (lines.first, lines.n),
        )


def _collect(source: str, layout: Layout, errors: Errors) -> tuple[TopicTable, Piece | None]:
    """Every row of ``source``, each piece added as it is read."""
    topics = TopicTable()
    rows = Rows(file_size(source) or 2 * source_module.CHUNK_BYTES)
    for piece in pieces(source, layout, topics, errors, whole=True):
        rows.add(piece)
    return topics, rows.piece() if rows else None


def lines_of(piece: Piece) -> ConsecutiveLines | np.ndarray:
    """The line numbers of ``piece``'s rows: its array, or its ``(first, count)`` as :class:`ConsecutiveLines`."""
    return ConsecutiveLines(piece.lines[1], piece.lines[0]) if isinstance(piece.lines, tuple) else piece.lines


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
    topics, rows = _collect(source, QRELS, Errors(source))
    if rows is None:
        raise FileFormatError("no judgments in the file", path=source)
    qrels = Qrels(topics.ids(), rows.codes, rows.docnos, rows.values, source, lines_of(rows))
    raise_duplicate(qrels, "judged", qrels.key_index)
    return qrels


def read_run(path: str | os.PathLike[str]) -> Run:
    """Read a TREC run file (``qid Q0 docno rank score tag``).

    The rank column is ignored, as trec_eval does; the ranking is rebuilt
    from the scores.  Fields after the sixth are ignored.

    Parameters
    ----------
    path : str or os.PathLike
        A file (gzip-compressed or not), or ``"-"`` for standard input.

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
    topics, rows = _collect(source, RUN, Errors(source))
    if rows is None:
        raise FileFormatError("the run is empty", path=source)
    assert rows.tag is not None  # every line of a run has its tag
    run = Run(topics.ids(), rows.codes, rows.docnos, rows.values, rows.tag, source, lines_of(rows))
    raise_duplicate(run, "retrieved")
    return run


class Rows:
    """Rows that come in several pieces (a topic longer than a piece, a file read whole): one piece, or several
    put together as they come (:class:`_Gathered`), each let go once added (``size``: the file's, for the
    room reserved)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.one: Piece | None = None
        self.rows: _Gathered | None = None

    def __bool__(self) -> bool:
        return self.one is not None or self.rows is not None

    def add(self, piece: Piece) -> None:
        """Take ``piece`` (an empty one is left out): kept as it is while it is the only one, gathered after."""
        if not len(piece):
            return
        if self.one is None and self.rows is None:
            self.one = piece
            return
        if self.rows is None:
            assert self.one is not None  # the one piece so far
            self.rows = _Gathered(self.size)
            self.rows.add(self.one)
            self.one = None
        self.rows.add(piece)

    def topic(self) -> int:
        """The topic code of the first row."""
        return int(self.one.codes[0]) if self.one is not None else int(self.rows.codes[0]) if self.rows else -1

    def piece(self) -> Piece:
        """The rows added, as one piece (only asked for once something was added)."""
        if self.one is not None:
            return self.one
        assert self.rows is not None  # only asked for when something was added
        return self.rows.piece()
