"""Fast readers for TREC qrels and run files.

Files are read in chunks of a few megabytes cut at newlines, so memory stays
bounded whatever the file size.  Each chunk is tokenised with numpy: a
whitespace mask gives the start and end of every token, tokens are assigned
to lines, and the wanted fields are taken straight from the buffer.  Docnos
are copied out end to end (:class:`~irmeans.trec.strings.Strings`: no padding
to the longest) and hashed from the buffer; topic ids become small integer
codes into a table of the file's distinct topics.  Scores and grades of the
usual plain decimal form are converted without Python objects; other forms
must be what C's ``strtod``/``strtol`` read in full (:mod:`.numbers`), so no
token is read differently from trec_eval.  Only when something is wrong does
a slow path look for the first offending line, so that the error message can
name it.

A qrels line is ``qid iter docno rel``; a run line is
``qid Q0 docno rank score tag`` (extra trailing fields are ignored, as is the
rank).  In a run, like trec_eval, a line whose first non-blank character is
``#`` is a comment; in qrels only a ``#`` in the first column marks one,
because docnos may contain ``#``.  Blank lines are skipped in both.

``-`` reads standard input, and gzip-compressed files (``.gz``, recognised by
their first bytes) are read transparently.  A NUL byte (a binary file) or a
line longer than :data:`MAX_LINE_BYTES` stops reading with a one-line error
instead of filling memory.
"""

from __future__ import annotations

import gzip
import os
import sys
import zlib
from dataclasses import dataclass

import numpy as np

from .._validation import float_array
from ..errors import FileFormatError, IrmeansError
from .arrow import arrow_offsets, fast_reader, release_memory
from .numbers import FLOAT_CHARS, INT64_MAX, MAX_GRADE, c_float, c_grade, grade_problem
from .strings import _PAD, Strings, equal_at, hash_strings

__all__ = ["Qrels", "Run", "read_qrels", "read_run", "check_unique", "MAX_LINE_BYTES"]

# Chunks are about this many bytes; a line longer than a chunk grows it.
_CHUNK_BYTES = 1 << 21
#: The longest line read (a docno may be a long URL; nothing real comes near this).
MAX_LINE_BYTES = 1 << 26
# Spare bytes after a chunk: room for a missing final newline and for reading
# eight bytes from any token start.
_SLACK = 1 << 12
_INT32_MAX = np.iinfo(np.int32).max
# The pieces given to the fast reader are this many chunks.
_FAST_CHUNKS = 2
# Score and grade tokens longer than this are read one by one.
_SHORT_NUMBER = 40

_POW10 = 10.0 ** np.arange(16)
# _LOW_BYTES[k] keeps the first k bytes of a little-endian 64-bit word
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


class _Topics:
    """The distinct topic ids of a file, coded 0, 1, ... in order of first appearance."""

    def __init__(self):
        self.code = {}

    def ids(self) -> list:
        return list(self.code)


def _text(value: bytes) -> str:
    """A topic or docno for a message (undecodable bytes as \\x escapes)."""
    return value.decode("utf-8", "backslashreplace")


class _Rows:
    """What qrels and runs share: each row's topic id and docno, built on demand as numpy arrays."""

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

    topic_ids: list
    topic_codes: np.ndarray
    docno_strings: Strings
    rels: np.ndarray
    source: str = "<arrays>"
    lines: np.ndarray | None = None

    @classmethod
    def from_arrays(cls, topics, docnos, rels, source="<arrays>") -> Qrels:
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
        if isinstance(rels, np.ma.MaskedArray):
            raise IrmeansError(f"{source}: rels is a masked array: fill or drop the masked values first")
        rels = np.asarray(rels)
        if rels.dtype.kind == "f":
            bad = ~np.isfinite(rels) | (rels != np.round(rels))
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise IrmeansError(f"{source}: row {i}: relevance {float(rels[i])!r} is not an integer")
            big = np.abs(rels) >= 2.0**63
            if big.any():
                i = int(np.flatnonzero(big)[0])
                raise IrmeansError(f"{source}: row {i}: relevance {float(rels[i])!r} is out of range (64-bit integers)")
        elif rels.dtype.kind == "u":
            big = rels > INT64_MAX
            if big.any():
                i = int(np.flatnonzero(big)[0])
                raise IrmeansError(f"{source}: row {i}: relevance {int(rels[i])} is out of range (64-bit integers)")
        elif rels.dtype.kind == "O":
            for i, v in enumerate(rels.tolist()):
                if not isinstance(v, int) or isinstance(v, bool):
                    raise IrmeansError(f"{source}: row {i}: relevance {v!r} is not an integer")
                if grade_problem(v):
                    raise IrmeansError(f"{source}: row {i}: relevance {v} {grade_problem(v)}")
        elif rels.dtype.kind not in "ib":
            raise IrmeansError(f"{source}: relevance values must be integers")
        rels = rels.astype(np.int64)
        high = rels > MAX_GRADE
        if high.any():
            i = int(np.flatnonzero(high)[0])
            raise IrmeansError(f"{source}: row {i}: relevance {int(rels[i])} {grade_problem(int(rels[i]))}")
        ids, codes = _code_topics(topics)
        d = Strings.from_sequence(docnos)
        if not (len(codes) == len(d) == len(rels)):
            raise IrmeansError(f"{source}: topics, docnos and rels differ in length")
        q = cls(ids, codes, d, rels, source, None)
        _check_unique(q, "judged")
        return q

    def __len__(self):
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

    topic_ids: list
    topic_codes: np.ndarray
    docno_strings: Strings
    scores: np.ndarray
    runid: str = "run"
    source: str = "<arrays>"
    lines: np.ndarray | None = None
    checked: bool = True

    @classmethod
    def from_arrays(cls, topics, docnos, scores, runid="run", source="<arrays>") -> Run:
        """Build a run from in-memory sequences (str or bytes).

        Raises ``ValueError`` for an empty run, sequences of different
        lengths, a masked array, a score that is NaN, or a document
        retrieved twice for one topic (the message names the row, counted from 0).

        Examples
        --------
        >>> Run.from_arrays([b"7"], [b"d"], [0.5]).topics.tolist()
        [b'7']
        """
        s = float_array(scores, "scores", infinite=True).reshape(-1)
        ids, codes = _code_topics(topics)
        d = Strings.from_sequence(docnos)
        if not (len(codes) == len(d) == len(s)):
            raise IrmeansError(f"{source}: topics, docnos and scores differ in length")
        if len(s) == 0:
            raise IrmeansError(f"{source}: the run is empty")
        r = cls(ids, codes, d, s, str(runid), source, None)
        _check_unique(r, "retrieved")
        return r

    def __len__(self):
        return len(self.scores)


def _topic_array(ids, codes):
    table = np.array(ids, dtype="S") if ids else np.zeros(0, dtype="S1")
    return table[codes] if len(codes) else np.zeros(0, dtype=table.dtype)


def _code_topics(topics):
    """Distinct topic ids (first-appearance order) and each value's code."""
    values = Strings.from_sequence(topics).tolist()
    table = {}
    codes = np.fromiter((table.setdefault(v, len(table)) for v in values), dtype=np.int64, count=len(values))
    return list(table), codes


class _Input:
    """A file, ``-`` (standard input) or a gzip file opened for binary reading."""

    def __init__(self, name):
        self.name = name
        if name == "-":
            self.fh = sys.stdin.buffer
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
        try:
            head = self.fh.peek(2)[:2] if hasattr(self.fh, "peek") else b""
        except OSError:
            head = b""
        if head == b"\x1f\x8b":
            self.gz = True
            self.size = 0
            self.raw = self.fh
            self.fh = gzip.GzipFile(fileobj=self.raw, mode="rb")

    def readinto(self, view):
        try:
            return self.fh.readinto(view)
        except (OSError, EOFError, zlib.error) as exc:
            what = getattr(exc, "strerror", None) or str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            kind = "cannot read gzip file" if self.gz else "cannot read file"
            raise FileFormatError(f"{kind} ({what})", path=self.name) from None

    def close(self):
        if self.own:
            (self.raw if self.gz else self.fh).close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _chunks(name, chunk_bytes=None):
    """Read a file in pieces that end at a newline.

    Yields ``(buf, n, first_line, newlines, store)``: ``buf[:n]`` is the piece
    (a newline is added after a last line that has none), ``buf`` holds at
    least ``_SLACK`` more bytes, ``first_line`` is the 1-based number of its
    first line, ``newlines`` the number of lines in it and ``store`` the
    ``bytearray`` under ``buf``.  The buffer is reused:
    a piece is only valid until the next one is asked for.  A NUL byte or a
    line longer than :data:`MAX_LINE_BYTES` raises.
    """
    with _Input(name) as fh:
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


class _Lines:
    """Tokens of one piece, grouped by line, comments and blank lines removed.

    ``field(k)`` gives the start and end offsets of the k-th token of every
    kept line and ``line_numbers`` the lines' numbers in the file.  When
    every line has exactly ``expect`` tokens separated by single whitespace
    characters (the usual case) no per-line search is needed, and the token
    ends follow from the starts.
    """

    def __init__(self, buf, n, first_line, newlines, expect, hash_comment_anywhere):
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

    def __len__(self):
        return len(self.line_numbers)

    def check_counts(self, source, need, exact, what):
        if self.regular:
            return
        bad = self.count < need
        if exact:
            bad |= self.count > need
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            k = int(self.count[i])
            problem = "too few fields" if k < need else "too many fields"
            raise _line_error(
                source,
                self.line_numbers[i],
                f"{problem} ({k}, a {what} line has {'exactly' if exact else 'at least'} {need})",
            )

    def field(self, k):
        """Start and end offsets of token ``k`` of every line."""
        step = self.regular
        if not step:
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

    def text(self, start, end):
        return self.buf[start:end].tobytes().decode("utf-8", "replace")

    def gather(self, k):
        """Field ``k`` of every line (see :func:`_gather`)."""
        return _gather(self.buf, *self.field(k))


_ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)


def _gather(buf, s, e):
    """Tokens ``buf[s:e]`` as a zero-padded ``S{8k}`` array, its (n, k) words and lengths.

    Each token is one unaligned read of 8k bytes at its offset, cleared past
    its end with 64-bit masks: no per-byte indexing.  ``buf`` must hold 8k
    readable bytes after the last token start (the chunk's slack).
    """
    n = len(s)
    lengths = e - s
    if n == 0:
        return np.zeros(0, "S8"), np.zeros((0, 1), "<u8"), lengths
    short, width = int(lengths.min()), int(lengths.max())
    k = -(-width // 8)
    if int(s[-1]) + 8 * k > len(buf):  # pragma: no cover - a token longer than the slack
        buf = np.concatenate((buf, np.zeros(8 * k, np.uint8)))
    at = np.ndarray(shape=(len(buf) - 8 * k + 1,), dtype=f"S{8 * k}", buffer=buf, strides=(1,))
    text = at[s]
    words = text.view("<u8").reshape(n, k)
    for j in range(k):
        lo, hi = short - 8 * j, width - 8 * j
        if lo >= 8:
            continue
        if lo == hi:
            words[:, j] &= _ALL_BITS >> np.uint64(64 - 8 * lo)
        else:
            # the mask of word j for each possible token length
            table = _LOW_BYTES[np.clip(np.arange(width + 1) - 8 * j, 0, 8)]
            words[:, j] &= table[lengths]
    return text, words, lengths


def _decimal(words, lengths, fraction):
    """Parse ``[+-]digits`` (and a ``.`` among them if ``fraction``) from token words.

    Returns the values (float64 if ``fraction``, else int64) and a mask of
    the tokens parsed; the others (exponents, ``inf``, too many digits, junk)
    are left to Python's parser.  With at most 15 digits the mantissa and the
    power of ten are exact doubles, so one division gives the correctly
    rounded value, as ``float()`` does.
    """
    n = len(lengths)
    chars = words.view(np.uint8).reshape(n, -1)
    width = int(lengths.max()) if n else 0
    c0 = chars[:, 0]
    neg = c0 == 45
    signed = neg | (c0 == 43)
    mantissa = np.zeros(n, dtype=np.int64)
    digits = np.zeros(n, dtype=np.uint8)
    dots = np.zeros(n, dtype=np.uint8)
    after_dot = np.zeros(n, dtype=np.uint8)
    ten = np.uint8(10)
    for j in range(min(width, 40)):
        c = chars[:, j]
        d = c - np.uint8(48)
        is_digit = d < ten
        if j == 0:
            is_digit &= ~signed
        # a digit shifts the mantissa; anything else leaves it alone
        mantissa *= np.where(is_digit, ten, np.uint8(1))
        mantissa += d * is_digit
        digits += is_digit
        if fraction:
            after_dot += is_digit & (dots > 0)
            dots += c == 46
    limit = 15 if fraction else 18
    ok = (digits > 0) & (digits <= limit) & (dots <= 1)
    ok &= (digits.astype(np.int64) + dots + signed) == lengths
    if fraction:
        values = mantissa.astype(np.float64)
        values /= _POW10[np.minimum(after_dot, 15)]
        np.negative(values, out=values, where=neg)
    else:
        values = np.where(neg, -mantissa, mantissa)
    return values, ok


def _line_error(source, line, message):
    return FileFormatError(message, path=source, line=int(line))


def _read_fields(source, expect, exact, what, hash_comment_anywhere, parse, fast, values_dtype):
    """Parse a file piece by piece and collect the rows (a :class:`_Collector`).

    ``fast(store, n)`` (see :mod:`.arrow`), if not None, is tried first on each piece; it
    returns the piece's ``[codes, docnos, values, tag]``, or None for a piece it does not
    take, which then goes to the exact ``parse(lines)``.  Wrong field counts are reported
    first wherever they are, then bad values, as if the file were checked in one go.
    """
    try:
        size = os.stat(source).st_size if source != "-" else 0
    except OSError:
        size = 0
    rows = _Collector(size, values_dtype)
    try:
        _read_pieces(rows, source, expect, exact, what, hash_comment_anywhere, parse, fast)
    finally:
        if fast is not None:
            release_memory()
    return rows


def _read_pieces(rows, source, expect, exact, what, hash_comment_anywhere, parse, fast):
    pending = None
    chunk = _CHUNK_BYTES * _FAST_CHUNKS if fast is not None else None
    for buf, n, first_line, newlines, store in _chunks(source, chunk):
        if fast is not None and pending is None:
            got = fast(store, n)
            if got is not None:
                rows.add(got, (first_line, newlines))
                continue
        lines = _Lines(buf, n, first_line, newlines, expect, hash_comment_anywhere)
        if not len(lines):
            continue
        lines.check_counts(source, expect, exact, what)
        if pending is not None:
            continue
        try:
            rows.add(parse(lines), lines.line_numbers)
        except _ValueProblem as exc:
            pending, rows = exc, None
    if pending is not None:
        raise _line_error(source, pending.line, pending.message) from None


class _Growing:
    """A numpy array appended to in place: no list of pieces to concatenate at the end.

    The first allocation is the expected size (from the file's size); memory that is
    reserved but never written is not resident, so a generous guess costs nothing.
    """

    def __init__(self, dtype, capacity):
        self.a = np.empty(max(int(capacity), 16), dtype=dtype)
        self.n = 0

    def reserve(self, m):
        """The next ``m`` slots, to be written by the caller."""
        need = self.n + m
        if need > len(self.a):
            bigger = np.empty(max(need, 2 * len(self.a)), dtype=self.a.dtype)
            bigger[: self.n] = self.a[: self.n]
            self.a = bigger
        out = self.a[self.n : need]
        self.n = need
        return out

    def append(self, values):
        self.reserve(len(values))[:] = values

    def result(self):
        return self.a[: self.n]


class _Collector:
    """The rows of a file, piece by piece: topic codes, docnos (bytes and offsets), values.

    Topic codes and docno offsets are 32-bit while they fit (4 bytes a line saved on each);
    docno hashes are left to be computed when needed (:meth:`Strings.hashes`; the join of
    :func:`~irmeans.trec.evaluate.evaluate` makes them in rank order, without keeping them).
    """

    def __init__(self, size, values_dtype):
        rows = size // 8 + 1  # a line has at least 8 bytes ("1 0 d 1\n")
        self.codes = _Growing(np.int32, rows)
        self.values = _Growing(values_dtype, rows)
        self.data = _Growing(np.uint8, size + _SLACK)
        self.offsets = _Growing(np.int32, rows + 1)
        self.offsets.append(np.zeros(1, np.int32))
        self.lines = []
        self.tag = None

    def _room(self, size):
        """Make the offsets 64-bit before they would pass 2**31 - 1."""
        if self.offsets.a.dtype == np.int32 and self.data.n + size + _PAD >= _INT32_MAX:
            self.offsets.a = self.offsets.a.astype(np.int64)

    def __len__(self):
        return self.codes.n

    def add(self, piece, lines):
        codes, docnos, values = piece[:3]
        if len(piece) > 3:
            self.tag = piece[3]
        self.codes.append(codes)
        self.values.append(values)
        if isinstance(docnos, Strings):
            size = int(docnos.offsets[-1])
            self._room(size)
            at = self.data.n
            self.data.append(docnos.data[:size])
            self.offsets.append(docnos.offsets[1:] + at)
        else:  # a binary column of pyarrow (see .arrow)
            self._room(sum(chunk.buffers()[2].size for chunk in docnos.chunks))
            at, row = self.data.n, self.offsets.n - 1
            self.offsets.reserve(len(codes))
            offsets = self.offsets.a
            for chunk in docnos.chunks:
                o = arrow_offsets(chunk)
                first, size, m = int(o[0]), int(o[-1]) - int(o[0]), len(chunk)
                raw = np.frombuffer(chunk.buffers()[2], dtype=np.uint8, count=first + size)
                self.data.append(raw[first:])
                out = offsets[row + 1 : row + m + 1]
                np.subtract(o[1:], first - at, out=out, casting="unsafe")
                at, row = at + size, row + m
        self.lines.append(lines)

    def strings(self) -> Strings:
        n = self.data.n
        self.data.reserve(_PAD)[:] = 0
        return Strings(self.data.a[: n + _PAD], self.offsets.result())


class ConsecutiveLines:
    """Line numbers ``1 .. n`` of a file whose every line is a row, made only when asked for.

    Indexing, ``len``, ``tolist`` and ``numpy.asarray`` work as on the array.
    """

    __slots__ = ("n",)

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __array__(self, dtype=None, copy=None):
        return np.arange(1, self.n + 1, dtype=dtype or np.int64)

    def __getitem__(self, i):
        if isinstance(i, (int, np.integer)):
            if not -self.n <= i < self.n:
                raise IndexError(i)
            return np.int64(i % self.n + 1)
        return np.asarray(self)[i]

    def tolist(self):
        return list(range(1, self.n + 1))


def _line_numbers(parts):
    """The rows' line numbers from each piece's (see :func:`_read_fields`)."""
    total = 0
    for p in parts:
        if not isinstance(p, tuple) or p[0] != total + 1:
            break
        total += p[1]
    else:
        return ConsecutiveLines(total)
    arrays = [np.arange(p[0], p[0] + p[1], dtype=np.int64) if isinstance(p, tuple) else p for p in parts]
    return _concat(arrays, np.int64)


class _ValueProblem(IrmeansError):
    """A bad score or grade (reported only if no line has a wrong field count), with its line."""

    def __init__(self, message, line):
        super().__init__(message)
        self.message, self.line = message, line


def _topic_codes(buf, s, e, topics: _Topics) -> np.ndarray:
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


def _docnos(buf, s, e) -> Strings:
    return Strings.from_buffer(buf, s, e)


_FLOAT_TABLE = np.zeros(256, dtype=bool)
_FLOAT_TABLE[np.frombuffer(FLOAT_CHARS, dtype=np.uint8)] = True
_FLOAT_TABLE[0] = True  # the zero padding after a token


def _numbers(lines, k, fraction, source):
    """Field ``k`` of every line as scores (float64) or grades (int64), strictly."""
    s, e = lines.field(k)
    lengths = e - s
    short = lengths <= _SHORT_NUMBER
    values = np.zeros(len(s), dtype=np.float64 if fraction else np.int64)
    rows = None if short.all() else np.flatnonzero(short)
    ss, ee = (s, e) if rows is None else (s[rows], e[rows])
    text, words, toklen = _gather(lines.buf, ss, ee)
    got, ok = _decimal(words, toklen, fraction)
    if rows is None:
        values[:] = got
    else:
        values[rows] = got
    if ok.all() and rows is None:
        return values
    bad = np.flatnonzero(~ok) if rows is None else rows[~ok]
    if fraction:
        chars = words[~ok].view(np.uint8).reshape(int((~ok).sum()), -1)
        plain = _FLOAT_TABLE[chars].all(axis=1)
        if plain.all() and len(bad):
            try:
                vals = text[~ok].astype(np.float64)
                if not np.isnan(vals).any():
                    values[bad] = vals
                    bad = bad[:0]
            except ValueError:
                pass
    if rows is not None:
        bad = np.union1d(bad, np.flatnonzero(~short))
    slow = _slow_scores if fraction else _slow_grades
    if len(bad):
        values[bad] = slow(lines, s[bad], e[bad], lines.line_numbers[bad], source)
    return values


def _slow_scores(lines, s, e, line_numbers, source):
    out = np.empty(len(s))
    for i, (a, b) in enumerate(zip(s.tolist(), e.tolist())):
        token = lines.buf[a:b].tobytes()
        value = c_float(token)
        shown = _text(token[:60]) + ("..." if len(token) > 60 else "")
        if value is None:
            raise _ValueProblem(f"score {shown!r} is not a number", line_numbers[i])
        if value != value:  # trec_eval's sort has no order for NaN: its ranking would be arbitrary
            raise _ValueProblem(f"score {shown!r} is not a number (NaN cannot be ranked)", line_numbers[i])
        out[i] = value
    return out


def _slow_grades(lines, s, e, line_numbers, source):
    out = np.empty(len(s), dtype=np.int64)
    for i, (a, b) in enumerate(zip(s.tolist(), e.tolist())):
        token = lines.buf[a:b].tobytes()
        value = c_grade(token)
        shown = _text(token[:60]) + ("..." if len(token) > 60 else "")
        if value is None:
            raise _ValueProblem(f"relevance {shown!r} is not an integer", line_numbers[i])
        problem = grade_problem(value)
        if problem:
            raise _ValueProblem(f"relevance {shown!r} {problem}", line_numbers[i])
        out[i] = value
    return out


def _concat(parts, dtype):
    return parts[0] if len(parts) == 1 else np.concatenate(parts).astype(dtype, copy=False)


def read_qrels(path) -> Qrels:
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
        message names the file and the line.  A missing file raises
        :class:`~irmeans.errors.IrmeansError`.

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
    topics = _Topics()

    def parse(lines):
        codes = _topic_codes(lines.buf, *lines.field(0), topics)
        docnos = _docnos(lines.buf, *lines.field(2))
        rels = _numbers(lines, 3, False, source)
        return [codes, docnos, rels]

    rows = _read_fields(source, 4, True, "qrels", False, parse, fast_reader("qrels", topics), np.int64)
    if not len(rows):
        raise FileFormatError("no judgments in the file", path=source)
    qrels = Qrels(
        topics.ids(), rows.codes.result(), rows.strings(), rows.values.result(), source, _line_numbers(rows.lines)
    )
    del rows
    _check_unique(qrels, "judged")
    return qrels


def read_run(path, check=True) -> Run:
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
    topics = _Topics()

    def parse(lines):
        codes = _topic_codes(lines.buf, *lines.field(0), topics)
        docnos = _docnos(lines.buf, *lines.field(2))
        scores = _numbers(lines, 4, True, source)
        s, e = lines.field(5)
        tag = lines.buf[int(s[-1]) : int(e[-1])].tobytes().decode("utf-8", "surrogateescape")
        return [codes, docnos, scores, tag]

    rows = _read_fields(source, 6, False, "run", True, parse, fast_reader("run", topics), np.float64)
    if not len(rows):
        raise FileFormatError("the run is empty", path=source)
    run = Run(
        topics.ids(),
        rows.codes.result(),
        rows.strings(),
        rows.values.result(),
        rows.tag,
        source,
        _line_numbers(rows.lines),
        checked=check,
    )
    del rows
    if check:
        _check_unique(run, "retrieved")
    return run


def check_unique(run: Run):
    """Raise the error of :func:`read_run` if a document is retrieved twice for a topic."""
    _check_unique(run, "retrieved")


_MIX = np.uint64(0x9E3779B97F4A7C15)


def _check_unique(data, verb):
    """Raise if a (topic, docno) pair occurs twice (hashes first, then the strings)."""
    n = len(data.topic_codes)
    if n < 2:
        return
    strings = data.docno_strings
    key = data.topic_codes.astype(np.uint64) * _MIX
    key ^= strings.hashes()
    key.sort()
    if not (key[1:] == key[:-1]).any():
        return
    key = data.topic_codes.astype(np.uint64) * _MIX
    key ^= strings.hashes()
    order = np.argsort(key, kind="stable")
    k = key[order]
    same = np.flatnonzero(k[1:] == k[:-1])
    a, b = order[same], order[same + 1]
    starts, lengths = strings.starts, strings.lengths
    real = data.topic_codes[a] == data.topic_codes[b]
    real &= equal_at(strings.data, starts[a], lengths[a], strings.data, starts[b], lengths[b])
    if not real.any():
        return
    first, second = np.minimum(a[real], b[real]), np.maximum(a[real], b[real])
    j = int(np.argmin(second))
    i1, i2 = int(first[j]), int(second[j])
    doc = _text(strings[i2])
    topic = _text(data.topic_ids[int(data.topic_codes[i2])])
    if data.lines is not None:
        raise _line_error(
            data.source,
            data.lines[i2],
            f"document {doc!r} {verb} twice for topic {topic!r} (first on line {int(data.lines[i1])})",
        )
    raise IrmeansError(
        f"{data.source}: row {i2}: document {doc!r} {verb} twice for topic {topic!r} (first in row {i1})"
    )
