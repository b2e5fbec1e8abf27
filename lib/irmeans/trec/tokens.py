"""The exact tokeniser of TREC files: a chunk of whole lines split into fields with numpy.

:class:`Lines` finds the tokens of a chunk (:class:`~.source.Chunk`) and groups them by
line, comments and blank lines removed.  In the usual file every line has its fields
separated by one space (or one tab) and nothing else: the positions of the separators then
give every field at once.  Any other chunk goes through a whitespace mask, as C's
``isspace`` sees whitespace.  :func:`parse` takes the wanted fields of every line: topic ids
coded into a table of the file's distinct topics (:class:`TopicTable`), docnos as spans of
the chunk's buffer (:class:`~.strings.Strings`, no copy), scores or grades read as C reads
them (:func:`irmeans.number_syntax.number_field`), and the run's tag.

A qrels line is ``qid iter docno rel``; a run line is ``qid Q0 docno rank score tag`` (extra
trailing fields are ignored, as is the rank): :data:`QRELS` and :data:`RUN` say so.  In a
run, like trec_eval, a line whose first non-blank character is ``#`` is a comment; in qrels
only a ``#`` in the first column marks one, because docnos may contain ``#``.  Blank lines
are skipped in both.

>>> from irmeans.trec.source import Chunk, SLACK
>>> raw = bytearray(b"7 Q0 d1 1 2.5 bm25\\n7 Q0 d2 2 1 bm25\\n" + bytes(SLACK))
>>> p = parse(Chunk(raw, 36, 1), RUN, TopicTable(), "run.txt")
>>> p.codes.tolist(), p.docnos.tolist(), p.values.tolist(), p.tag
([0, 0], [b'd1', b'd2'], [2.5, 1.0], 'bm25')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, SupportsInt

import numpy as np
from numpy.typing import DTypeLike

from ..errors import FileFormatError
from ..number_syntax import number_field
from .source import Chunk
from .strings import Strings, equal_at, hash_strings

__all__ = [
    "Layout",
    "QRELS",
    "RUN",
    "Piece",
    "TopicTable",
    "Lines",
    "parse",
    "ConsecutiveLines",
    "line_numbers",
    "line_error",
]


@dataclass(frozen=True)
class Layout:
    """Which fields of a line are read: a qrels line or a run line."""

    what: Literal["qrels", "run"]  # for messages
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
    """The rows of a chunk of a file: topic codes (into the file's :class:`TopicTable`), docnos,
    grades or scores, the last line's run tag, the rows' line numbers (``(first, count)`` when
    they are consecutive, else an array), and whether the last topic's lines may go on in the
    next piece (:attr:`~.source.Chunk.goes_on`)."""

    codes: np.ndarray
    docnos: Strings
    values: np.ndarray
    tag: str | None
    lines: tuple[int, int] | np.ndarray
    goes_on: bool = False

    def __len__(self) -> int:
        return len(self.codes)

    def slice(self, a: int, b: int) -> Piece:
        """Rows ``a`` to ``b - 1`` (sharing the buffers); it goes on if it ends where the piece does, which goes on."""
        lines = self.lines
        lines = (lines[0] + a, b - a) if isinstance(lines, tuple) else lines[a:b]
        goes_on = self.goes_on and b == len(self)
        return Piece(self.codes[a:b], self.docnos.slice(a, b), self.values[a:b], self.tag, lines, goes_on)


# Topic ids up to this many words of 8 bytes are compared as whole words read at once (longer ones by hash, then bytes).
_WORDS = 4
_INT32_MAX = np.iinfo(np.int32).max
# _LOW_BYTES[k] keeps the first k bytes of a little-endian 64-bit word
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


class TopicTable:
    """The distinct topic ids of a file, coded 0, 1, ... in order of first appearance.

    >>> t = TopicTable(); t.code_ids([b"401", b"402"]).tolist(), t.code_ids([b"402", b"7"]).tolist(), t.ids()
    ([0, 1], [1, 2], [b'401', b'402', b'7'])
    """

    def __init__(self) -> None:
        self.code: dict[bytes, int] = {}

    def ids(self) -> list[bytes]:
        """The topic ids, in order of their codes (of first appearance)."""
        return list(self.code)

    def code_ids(self, ids: list[bytes]) -> np.ndarray:
        """The codes of some topic ids (new ones are added)."""
        table = self.code
        return np.array([table.setdefault(t, len(table)) for t in ids], dtype=np.int64)

    def code_spans(self, buf: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray:
        """The code of each topic id ``buf[s:e]`` (new ones are added), decided on the bytes.

        Lines of one topic come in stretches: each id is compared with the one on the line
        before it, and only the first id of a stretch is looked up.  Ids of up to 32 bytes
        (all real ones) are compared as four words read at once; longer ones by a hash, every
        id then checked against the bytes of its stretch's first.
        """
        n = len(s)
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        lengths = e - s
        longest = int(lengths.max())
        if longest <= 8 * _WORDS:
            k = max(1, -(-longest // 8))
            width = 8 * k
            at = np.ndarray(shape=(len(buf) - width + 1,), dtype=f"V{width}", buffer=buf, strides=(1,))
            words = at[s].view("<u8").reshape(n, k)  # a copy: fancy indexing
            # the id's bytes only: each length's masks, a row of k words
            words &= np.take(_LOW_BYTES[np.clip(np.arange(width + 1)[:, None] - 8 * np.arange(k), 0, 8)], lengths, 0)
            change = np.empty(n, dtype=bool)
            change[0] = True
            np.not_equal(lengths[1:], lengths[:-1], out=change[1:])
            for j in range(k):
                change[1:] |= words[1:, j] != words[:-1, j]
            heads = np.flatnonzero(change)
            codes = self._code_heads(buf, s, e, heads, words[heads].view(f"V{width}").ravel())
            return np.repeat(codes.astype(np.int32), np.diff(np.append(heads, n)))
        h = hash_strings(buf, s, lengths)
        change = np.empty(n, dtype=bool)
        change[0] = True
        np.not_equal(h[1:], h[:-1], out=change[1:])
        heads = np.flatnonzero(change)
        codes = np.repeat(self._code_heads(buf, s, e, heads, None).astype(np.int32), np.diff(np.append(heads, n)))
        rep = np.repeat(heads, np.diff(np.append(heads, n)))
        if not equal_at(buf, s, lengths, buf, s[rep], lengths[rep]).all():  # a hash collision: every id looked up
            codes = self.code_ids([buf[a:b].tobytes() for a, b in zip(s.tolist(), e.tolist())]).astype(np.int32)
        return codes

    def _code_heads(self, buf: np.ndarray, s: np.ndarray, e: np.ndarray, heads: np.ndarray, key: Any) -> np.ndarray:
        """The codes of the ids at ``heads`` (each distinct one read once when they are many)."""
        if key is not None and len(heads) > 64:
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            rep = heads[first]
            return self.code_ids([buf[a:b].tobytes() for a, b in zip(s[rep].tolist(), e[rep].tolist())])[inverse]
        return self.code_ids([buf[a:b].tobytes() for a, b in zip(s[heads].tolist(), e[heads].tolist())])


class ConsecutiveLines:
    """Line numbers ``first .. first + n - 1``, made only when asked for.

    Indexing, ``len``, ``tolist`` and ``numpy.asarray`` work as on the array.

    >>> lines = ConsecutiveLines(4, first=10); int(lines[1]), lines[[0, 3]].tolist(), lines.tolist()
    (11, [10, 13], [10, 11, 12, 13])
    """

    __slots__ = ("n", "first")

    def __init__(self, n: int, first: int = 1) -> None:
        self.n = n
        self.first = first

    def __len__(self) -> int:
        return self.n

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        return np.arange(self.first, self.first + self.n, dtype=dtype or np.int64)

    def __getitem__(self, i: int | np.integer[Any] | slice | np.ndarray) -> np.int64 | np.ndarray:
        if isinstance(i, (int, np.integer)):
            if not -self.n <= i < self.n:
                raise IndexError(i)
            return np.int64(i % self.n + self.first)
        return np.asarray(self)[i]

    def tolist(self) -> list[int]:
        """The line numbers as a list.

        >>> ConsecutiveLines(3, 10).tolist()
        [10, 11, 12]
        """
        return list(range(self.first, self.first + self.n))


def line_numbers(parts: list[tuple[int, int] | np.ndarray]) -> ConsecutiveLines | np.ndarray:
    """The rows' line numbers from each piece's (see :class:`Piece`)."""
    if parts and isinstance(parts[0], tuple):
        first = total = parts[0][0]
        for p in parts:
            if not isinstance(p, tuple) or p[0] != total:
                break
            total += p[1]
        else:
            return ConsecutiveLines(total - first, first)
    arrays = [np.arange(p[0], p[0] + p[1], dtype=np.int64) if isinstance(p, tuple) else p for p in parts]
    return np.concatenate(arrays).astype(np.int64, copy=False) if arrays else np.zeros(0, np.int64)


def line_error(source: str, line: SupportsInt, message: str) -> FileFormatError:
    """A :class:`~irmeans.FileFormatError` for line ``line`` of ``source`` that says ``message``.

    >>> str(line_error("qrels.txt", 7, "too few fields"))
    'qrels.txt:7: too few fields'
    """
    return FileFormatError(message, path=source, line=int(line))


class Lines:
    """Tokens of one chunk, grouped by line, comments and blank lines removed.

    ``field(k)`` gives the start and end offsets of the k-th token of every kept line and
    ``lines`` the lines' numbers in the file (``(first, count)`` when every line is kept).
    ``regular`` is true when every line has exactly ``expect`` tokens separated by single
    whitespace characters (the usual case): then no per-line search is needed.
    """

    def __init__(self, chunk: Chunk, expect: int, comment_anywhere: bool) -> None:
        buf, n = chunk.buf, chunk.n
        b = buf[:n]
        self.buf, self.n = buf, n
        # every whitespace byte, and the control bytes C does not count as such (32-bit offsets: half the memory)
        sep = np.flatnonzero(b <= 32)
        if n < _INT32_MAX:
            sep = sep.astype(np.int32)
        kinds = b[sep]
        self.newlines = int(np.count_nonzero(kinds == 10))
        self.regular = self._regular(b, sep, kinds, expect)
        if self.regular:
            self.lines: tuple[int, int] | np.ndarray = (chunk.first_line, self.newlines)
            self.count = np.full(self.newlines, expect)
            return
        self._irregular(b, chunk.first_line, comment_anywhere)

    def _regular(self, b: np.ndarray, sep: np.ndarray, kinds: np.ndarray, expect: int) -> bool:
        """Whether every line is ``expect`` tokens, one space or one tab between them, no comment."""
        lines = self.newlines
        if not expect or len(sep) != expect * lines or not lines or sep[0] == 0:
            return False
        if not (kinds[expect - 1 :: expect] == 10).all():  # each line's last separator ends it
            return False
        # every other separator is one space or one tab
        if np.count_nonzero(kinds == 32) + np.count_nonzero(kinds == 9) != len(kinds) - lines:
            return False
        # no separator right after another (an empty token, a blank before a token), and no line starting with '#'
        if (sep[1:] - sep[:-1] == 1).any() or b[0] == 35 or (b[sep[expect - 1 : -1 : expect] + 1] == 35).any():
            return False
        self.ends, self.step = sep, expect
        self.starts = np.empty(len(sep), dtype=sep.dtype)
        self.starts[0] = 0
        np.add(sep[:-1], 1, out=self.starts[1:])
        return True

    def _irregular(self, b: np.ndarray, first_line: int, comment_anywhere: bool) -> None:
        # isspace(): ' ' and \t \n \v \f \r
        ws = b - np.uint8(9) < 5
        ws |= b == 32
        lead_ws = bool(ws[0])
        starts = np.flatnonzero(ws[:-1] > ws[1:])  # a token starts after each whitespace-to-text switch (and at 0)
        starts += 1
        if not lead_ws:
            starts = np.concatenate((np.zeros(1, np.int64), starts))
        ends = np.flatnonzero(ws[:-1] < ws[1:])
        ends += 1
        del ws
        ntok = len(starts)
        line_begin = np.empty(self.newlines, dtype=np.int64)
        line_begin[:1] = 0
        line_begin[1:] = np.flatnonzero(b == 10)[:-1] + 1
        first = np.searchsorted(starts, line_begin)
        count = np.diff(np.append(first, ntok))
        if comment_anywhere:
            lead_char = np.zeros(len(first), dtype=np.uint8)
            has = count > 0
            lead_char[has] = b[starts[first[has]]]
            comment = has & (lead_char == ord("#"))
        else:
            comment = b[line_begin] == ord("#")
        keep = (count > 0) & ~comment
        self.starts, self.ends, self.step = starts, ends, 0
        self.lines = np.flatnonzero(keep) + first_line
        self.first = first[keep]
        self.count = count[keep]

    def __len__(self) -> int:
        return len(self.count)

    def line_numbers(self) -> np.ndarray | ConsecutiveLines:
        """Each kept line's number in the file: an array, or :class:`ConsecutiveLines` where every line is kept."""
        return ConsecutiveLines(self.lines[1], self.lines[0]) if isinstance(self.lines, tuple) else self.lines

    def check_counts(self, source: str, need: int, exact: bool, what: str) -> None:
        """Raise a :class:`~irmeans.FileFormatError` for the first line with fewer than ``need`` fields (or, with
        ``exact``, other than ``need``), naming its line and ``what`` the file is.
        """
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
                self.line_numbers()[i],
                f"{problem} ({k}, a {what} line has {'exactly' if exact else 'at least'} {need})",
            )

    def field(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Start and end offsets of token ``k`` of every line."""
        if self.step:
            return self.starts[k :: self.step], self.ends[k :: self.step]
        idx = self.first + k
        return self.starts[idx], self.ends[idx]


def parse(chunk: Chunk, layout: Layout, topics: TopicTable, source: str) -> Piece | None:
    """The rows of a chunk as ``layout`` reads them (None if it holds no line), topics coded into ``topics``.

    A wrong number of fields raises its :class:`~irmeans.errors.FileFormatError`, a score or
    grade that is not read an :class:`~irmeans.number_syntax.BadNumber`, each with its line.
    """
    lines = Lines(chunk, layout.fields, layout.comment_anywhere)
    if not len(lines):
        return None
    lines.check_counts(source, layout.fields, layout.exact, layout.what)
    buf = lines.buf
    first = lines.field(0)
    codes = topics.code_spans(buf, *first)
    docnos = Strings.from_buffer(buf, *lines.field(2))
    values = number_field(buf, *lines.field(layout.value), lines.line_numbers(), layout.fraction)
    tag = None
    if layout.tag is not None:
        s, e = lines.field(layout.tag)
        tag = buf[int(s[-1]) : int(e[-1])].tobytes().decode("utf-8", "surrogateescape")
    return Piece(codes, docnos, values, tag, lines.lines, chunk.goes_on)
