"""Tokenising TREC files: a file read in pieces of whole lines, each piece split into fields.

Files are read in chunks of a few megabytes cut at newlines (:func:`chunks`), so memory
stays bounded whatever the file size.  Each chunk is tokenised with numpy (:class:`Lines`):
a whitespace mask gives the start and end of every token, tokens are assigned to lines, and
the wanted fields are taken straight from the buffer.  Docnos are copied out end to end
(:class:`~.strings.Strings`: no padding to the longest); topic ids become small integer
codes into a table of the file's distinct topics (:class:`TopicTable`).  Scores and grades
of the usual plain decimal form are converted without Python objects; other forms must be
what C's ``strtod``/``strtol`` read in full (:mod:`.numbers`), so no token is read
differently from trec_eval.  Only when something is wrong does a slow path look for the
first offending line, so that the error message can name it.  A big file's pieces go to
pyarrow's tokeniser (:mod:`.arrow`) when it takes them.

A qrels line is ``qid iter docno rel``; a run line is ``qid Q0 docno rank score tag``
(extra trailing fields are ignored, as is the rank): :data:`QRELS` and :data:`RUN` say so.
In a run, like trec_eval, a line whose first non-blank character is ``#`` is a comment; in
qrels only a ``#`` in the first column marks one, because docnos may contain ``#``.  Blank
lines are skipped in both.

``-`` reads standard input, and gzip-compressed files (recognised by their first bytes) are
read transparently.  A NUL byte (a binary file) or a line longer than :data:`MAX_LINE_BYTES`
stops reading with a one-line error instead of filling memory.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, SupportsInt, cast

import numpy as np
from numpy.typing import DTypeLike

from ..errors import FileFormatError
from ..number_syntax import BadNumber, number_field
from .strings import Strings, equal_at, hash_strings

if TYPE_CHECKING:
    from .arrow import ArrowColumn, FastReader

__all__ = [
    "Layout",
    "QRELS",
    "RUN",
    "Piece",
    "pieces",
    "TopicTable",
    "Input",
    "chunks",
    "Lines",
    "ConsecutiveLines",
    "line_numbers",
    "line_error",
    "MAX_LINE_BYTES",
    "ARROW_BYTES",
]

# Chunks are about this many bytes; a line longer than a chunk grows it.
_CHUNK_BYTES = 1 << 21
#: The longest line read (a docno may be a long URL; nothing real comes near this).
MAX_LINE_BYTES = 1 << 26
# Spare bytes after a chunk: room for a missing final newline and for reading
# eight bytes from any token start.
_SLACK = 1 << 12
# The pieces given to the fast reader are this many chunks.
_FAST_CHUNKS = 2
#: From this many bytes on, a file's pieces go to pyarrow's tokeniser (its import costs more
#: than it saves on a smaller file, and its libraries add tens of megabytes).
ARROW_BYTES = 1 << 25


@dataclass(frozen=True)
class Layout:
    """Which fields of a line are read: a qrels line or a run line."""

    what: str  # "qrels" or "run", for messages
    fields: int  # fields a line has (exactly, or at least)
    exact: bool  # exactly ``fields`` (qrels) or at least (run)
    value: int  # the grade's or the score's field
    fraction: bool  # scores are decimals, grades whole numbers
    tag: int | None  # the run tag's field
    comment_anywhere: bool  # '#' as the first non-blank character is a comment (run), or only in column 0


#: ``qid iter docno rel``
QRELS = Layout("qrels", 4, True, 3, False, None, False)
#: ``qid Q0 docno rank score tag``
RUN = Layout("run", 6, False, 4, True, 5, True)


@dataclass
class Piece:
    """The rows of a piece of a file: topic codes (into the file's :class:`TopicTable`), docnos,
    grades or scores, the last line's run tag, and the rows' line numbers (``(first, count)``
    when they are consecutive, else an array)."""

    codes: np.ndarray
    docnos: Strings | ArrowColumn  # Strings, or a pyarrow binary column from the fast reader
    values: np.ndarray
    tag: str | None
    lines: tuple[int, int] | np.ndarray


class TopicTable:
    """The distinct topic ids of a file, coded 0, 1, ... in order of first appearance."""

    def __init__(self) -> None:
        self.code: dict[bytes, int] = {}

    def ids(self) -> list[bytes]:
        return list(self.code)


class Input:
    """A file, ``-`` (standard input) or a gzip file opened for binary reading."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.fh: io.BufferedIOBase
        if name == "-":
            self.fh = cast(io.BufferedIOBase, sys.stdin.buffer)  # a BufferedReader: typeshed says BinaryIO
            self.own = False
        else:
            try:
                self.fh = open(name, "rb")
            except FileNotFoundError:
                raise FileFormatError("no such file", path=name) from None
            except IsADirectoryError:
                raise FileFormatError("is a directory, not a file", path=name) from None
            except OSError as exc:
                raise FileFormatError(f"cannot read file ({exc.strerror})", path=name) from None
            self.own = True
        self.size = 0
        try:
            if self.own:
                self.size = os.fstat(self.fh.fileno()).st_size
        except OSError:  # pragma: no cover
            pass
        self.gz = False
        self.errors: tuple[type[Exception], ...] = (OSError, EOFError)
        try:
            head = self.fh.peek(2)[:2] if hasattr(self.fh, "peek") else b""
        except OSError:
            head = b""
        if head == b"\x1f\x8b":
            import gzip  # only for gzip input
            import zlib

            self.gz = True
            self.size = 0
            self.raw = self.fh
            self.fh = gzip.GzipFile(fileobj=self.raw, mode="rb")
            self.errors = (OSError, EOFError, zlib.error)

    def readinto(self, view: memoryview) -> int:
        try:
            return self.fh.readinto(view)
        except self.errors as exc:
            what = getattr(exc, "strerror", None) or str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            kind = "cannot read gzip file" if self.gz else "cannot read file"
            raise FileFormatError(f"{kind} ({what})", path=self.name) from None

    def close(self) -> None:
        if self.own:
            (self.raw if self.gz else self.fh).close()

    def __enter__(self) -> Input:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def chunks(name: str, chunk_bytes: int | None = None) -> Iterator[tuple[np.ndarray, int, int, int, bytearray]]:
    """Read a file in pieces that end at a newline.

    Yields ``(buf, n, first_line, newlines, store)``: ``buf[:n]`` is the piece
    (a newline is added after a last line that has none), ``buf`` holds at
    least ``_SLACK`` more bytes, ``first_line`` is the 1-based number of its
    first line, ``newlines`` the number of lines in it and ``store`` the
    ``bytearray`` under ``buf``.  The buffer is reused:
    a piece is only valid until the next one is asked for.  A NUL byte or a
    line longer than :data:`MAX_LINE_BYTES` raises.
    """
    with Input(name) as fh:
        cap = chunk_bytes or _CHUNK_BYTES
        if fh.size > 0:  # a pipe or terminal reports 0: its size is unknown
            cap = max(1, min(cap, fh.size + 1))
        store = bytearray(cap + _SLACK)
        have, line, eof, checked = 0, 1, False, 0
        while not eof:
            view = memoryview(store)
            try:
                while have < cap:
                    got = fh.readinto(view[have:cap])
                    if not got:
                        eof = True
                        break
                    have += got
            finally:
                view.release()
            nul = store.find(b"\0", checked, have)
            if nul >= 0:
                at = line + store.count(b"\n", 0, nul)
                raise FileFormatError("a NUL byte: this is not a text file", path=name, line=at)
            checked = have
            if eof:
                cut = have
                if have and store[have - 1] != 10:
                    store[have] = 10
                    cut = have + 1
            else:
                cut = store.rfind(b"\n", 0, have) + 1
                if cut == 0:  # a line longer than the buffer: grow it
                    if cap >= MAX_LINE_BYTES:
                        what = f"line longer than {MAX_LINE_BYTES >> 20} MiB: this is not a TREC file"
                        raise FileFormatError(what, path=name, line=line)
                    cap *= 2
                    bigger = bytearray(cap + _SLACK)
                    bigger[:have] = store[:have]
                    store = bigger
                    continue
            if cut:
                newlines = store.count(b"\n", 0, cut)
                yield np.frombuffer(store, dtype=np.uint8), cut, line, newlines, store
                line += newlines
            if not eof:
                store[: have - cut] = store[cut:have]
                have -= cut
                checked = have


class Lines:
    """Tokens of one piece, grouped by line, comments and blank lines removed.

    ``field(k)`` gives the start and end offsets of the k-th token of every
    kept line and ``line_numbers`` the lines' numbers in the file.  When
    every line has exactly ``expect`` tokens separated by single whitespace
    characters (the usual case) no per-line search is needed, and the token
    ends follow from the starts.
    """

    def __init__(
        self, buf: np.ndarray, n: int, first_line: int, newlines: int, expect: int, hash_comment_anywhere: bool
    ) -> None:
        b = buf[:n]
        self.buf, self.n = buf, n
        # isspace(): ' ' and \t \n \v \f \r; when the only control character
        # is the newline, "<= 32" is the same test in one pass
        if np.count_nonzero(b < 32) == newlines:
            ws = b <= 32
        else:
            ws = b - np.uint8(9) < 5
            ws |= b == 32
        lead_ws = bool(ws[0])
        # a token starts after each whitespace-to-text switch (and at 0)
        starts = np.flatnonzero(ws[:-1] > ws[1:])
        starts += 1
        if not lead_ws:
            starts = np.concatenate((np.zeros(1, np.int64), starts))
        ntok = len(starts)
        self.starts = starts
        self.regular = 0
        # The piece ends with a newline.  With no leading whitespace, as many
        # whitespace bytes as tokens means every gap is a single byte.
        single = not lead_ws and np.count_nonzero(ws) == ntok
        self.ends: np.ndarray | None
        if single:
            self.ends = None
        else:
            ends = np.flatnonzero(ws[:-1] < ws[1:])
            ends += 1
            self.ends = ends
        del ws
        if expect and ntok and ntok == expect * newlines:
            # each line-final token must be followed by the newline (or
            # CRLF): with exactly `expect` tokens per newline, no line is
            # then blank or has more or fewer tokens
            if single:
                after = np.append(starts[expect::expect] - 1, n - 1)
                ok = b[after] == 10
            else:
                assert self.ends is not None  # made above when the gaps are not all single
                after = self.ends[expect - 1 :: expect]
                tail = b[after]
                ok = tail == 10
                if not ok.all():
                    ok |= (tail == 13) & (b[np.minimum(after + 1, n - 1)] == 10)
            if ok.all() and not (b[starts[::expect]] == 35).any():
                self.regular = expect
                self.line_numbers = np.arange(first_line, first_line + newlines, dtype=np.int64)
                return
        if self.ends is None:
            ends = np.empty(ntok, dtype=np.int64)
            ends[:-1] = starts[1:] - 1
            ends[-1:] = n - 1
            self.ends = ends
        line_begin = np.empty(newlines, dtype=np.int64)
        line_begin[:1] = 0
        line_begin[1:] = np.flatnonzero(b == 10)[:-1] + 1
        first = np.searchsorted(starts, line_begin)
        count = np.diff(np.append(first, ntok))
        if hash_comment_anywhere:
            lead_char = np.zeros(len(first), dtype=np.uint8)
            has = count > 0
            lead_char[has] = b[starts[first[has]]]
            comment = has & (lead_char == ord("#"))
        else:
            comment = b[line_begin] == ord("#")
        keep = (count > 0) & ~comment
        self.line_numbers = np.flatnonzero(keep) + first_line
        self.first = first[keep]
        self.count = count[keep]

    def __len__(self) -> int:
        return len(self.line_numbers)

    def check_counts(self, source: str, need: int, exact: bool, what: str) -> None:
        if self.regular:
            return
        bad = self.count < need
        if exact:
            bad |= self.count > need
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            k = int(self.count[i])
            problem = "too few fields" if k < need else "too many fields"
            raise line_error(
                source,
                self.line_numbers[i],
                f"{problem} ({k}, a {what} line has {'exactly' if exact else 'at least'} {need})",
            )

    def field(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Start and end offsets of token ``k`` of every line."""
        step = self.regular
        if not step:
            assert self.ends is not None  # an irregular piece always has its ends
            idx = self.first + k
            return self.starts[idx], self.ends[idx]
        s = self.starts[k::step]
        if self.ends is not None:
            return s, self.ends[k::step]
        if k + 1 < step:
            return s, self.starts[k + 1 :: step] - 1
        e = np.empty(len(s), dtype=np.int64)
        e[:-1] = self.starts[step::step] - 1
        e[-1:] = self.n - 1
        return s, e

    def text(self, start: int, end: int) -> str:
        return self.buf[start:end].tobytes().decode("utf-8", "replace")


def line_error(source: str, line: SupportsInt, message: str) -> FileFormatError:
    return FileFormatError(message, path=source, line=int(line))


class ConsecutiveLines:
    """Line numbers ``1 .. n`` of a file whose every line is a row, made only when asked for.

    Indexing, ``len``, ``tolist`` and ``numpy.asarray`` work as on the array.
    """

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        return np.arange(1, self.n + 1, dtype=dtype or np.int64)

    def __getitem__(self, i: int | np.integer[Any] | slice | np.ndarray) -> np.int64 | np.ndarray:
        if isinstance(i, (int, np.integer)):
            if not -self.n <= i < self.n:
                raise IndexError(i)
            return np.int64(i % self.n + 1)
        return np.asarray(self)[i]

    def tolist(self) -> list[int]:
        return list(range(1, self.n + 1))


def line_numbers(parts: list[tuple[int, int] | np.ndarray]) -> ConsecutiveLines | np.ndarray:
    """The rows' line numbers from each piece's (see :func:`pieces`)."""
    total = 0
    for p in parts:
        if not isinstance(p, tuple) or p[0] != total + 1:
            break
        total += p[1]
    else:
        return ConsecutiveLines(total)
    arrays = [np.arange(p[0], p[0] + p[1], dtype=np.int64) if isinstance(p, tuple) else p for p in parts]
    return _concat(arrays, np.int64)


def _topic_codes(buf: np.ndarray, s: np.ndarray, e: np.ndarray, topics: TopicTable) -> np.ndarray:
    """Code of each line's topic in ``topics`` (new topics are added), from the buffer."""
    n = len(s)
    lengths = e - s
    h = hash_strings(buf, s, lengths)
    change = np.empty(n, dtype=bool)
    change[:1] = True
    np.not_equal(h[1:], h[:-1], out=change[1:])
    heads = np.flatnonzero(change)
    _, first, inv = np.unique(h[heads], return_index=True, return_inverse=True)
    rep = heads[first]
    table = topics.code
    known = [table.setdefault(buf[a:b].tobytes(), len(table)) for a, b in zip(s[rep].tolist(), e[rep].tolist())]
    runs = np.diff(np.append(heads, n))
    codes = np.repeat(np.array(known, dtype=np.int64)[inv], runs)
    rep_row = np.repeat(rep[inv], runs)
    if not equal_at(buf, s, lengths, buf, s[rep_row], lengths[rep_row]).all():  # a hash collision
        codes = np.array(
            [table.setdefault(buf[a:b].tobytes(), len(table)) for a, b in zip(s.tolist(), e.tolist())],
            dtype=np.int64,
        )
    return codes


def _docnos(buf: np.ndarray, s: np.ndarray, e: np.ndarray) -> Strings:
    return Strings.from_buffer(buf, s, e)


def _concat(parts: list[np.ndarray], dtype: DTypeLike) -> np.ndarray:
    return parts[0] if len(parts) == 1 else np.concatenate(parts).astype(dtype, copy=False)


def pieces(source: str, layout: Layout, topics: TopicTable) -> Iterator[Piece]:
    """The rows of ``source``, piece by piece, read as ``layout`` says; topics are coded into ``topics``.

    A file of at least :data:`ARROW_BYTES` (or a stream once that much has been read), or any
    file once pyarrow is loaded, is tokenised by pyarrow's reader where it takes a piece
    (:mod:`.arrow`), the exact reader doing the rest.  Wrong field counts are reported first wherever they are, then bad
    values, as if the file were checked in one go: after a bad value no more pieces are
    given, but the rest of the file is still read for field counts before the error.
    """
    try:
        size = os.stat(source).st_size if source != "-" else 0
    except OSError:
        size = 0
    fast: FastReader | Literal[False] | None = None
    pending: BadNumber | None = None
    seen = 0
    chunk = _CHUNK_BYTES * _FAST_CHUNKS if size >= ARROW_BYTES else None
    try:
        for buf, n, first_line, newlines, store in chunks(source, chunk):
            seen += n
            # pyarrow for a big file, or whenever it is loaded already (irmeans eval of many runs)
            if fast is None and pending is None and (max(size, seen) >= ARROW_BYTES or "pyarrow" in sys.modules):
                from .arrow import fast_reader

                fast = fast_reader(layout.what, topics) or False
            if fast and pending is None:
                got = fast(store, n)
                if got is not None:
                    # got[:3] is codes, docnos and values: mypy cannot count the items of a list.
                    yield Piece(*got[:3], got[3] if len(got) > 3 else None, (first_line, newlines))  # type: ignore[call-arg]
                    continue
            lines = Lines(buf, n, first_line, newlines, layout.fields, layout.comment_anywhere)
            if not len(lines):
                continue
            lines.check_counts(source, layout.fields, layout.exact, layout.what)
            if pending is not None:
                continue
            try:
                piece = _parse(lines, layout, topics, source)
            except BadNumber as exc:
                pending = exc
                continue
            yield piece
    finally:
        if fast:
            from .arrow import release_memory

            release_memory()
    if pending is not None:
        raise line_error(source, pending.line, pending.message) from None


def _parse(lines: Lines, layout: Layout, topics: TopicTable, source: str) -> Piece:
    """The exact reader's rows of one piece."""
    codes = _topic_codes(lines.buf, *lines.field(0), topics)
    docnos = _docnos(lines.buf, *lines.field(2))
    values = number_field(lines.buf, *lines.field(layout.value), lines.line_numbers, layout.fraction)
    tag = None
    if layout.tag is not None:
        s, e = lines.field(layout.tag)
        tag = lines.buf[int(s[-1]) : int(e[-1])].tobytes().decode("utf-8", "surrogateescape")
    return Piece(codes, docnos, values, tag, lines.line_numbers)
