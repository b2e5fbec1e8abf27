"""Fast readers for TREC qrels and run files.

Files are read in chunks of a few megabytes cut at newlines, so memory stays
bounded whatever the file size.  Each chunk is tokenised with numpy: a
whitespace mask gives the start and end of every token, tokens are assigned
to lines, and the wanted fields are gathered straight from the buffer, eight
bytes at a time, into fixed-width byte-string arrays; scores and grades of
the usual plain decimal form are converted without Python objects.  Only
when something is wrong does a slow path look for the first offending line,
so that the error message can name it.

A qrels line is ``qid iter docno rel``; a run line is
``qid Q0 docno rank score tag`` (extra trailing fields are ignored, as is the
rank).  Lines starting with ``#`` are comments.  In a run, like trec_eval,
a line whose first non-blank character is ``#`` is a comment; in qrels only
a ``#`` in the first column marks one, because docnos may contain ``#``.
Blank lines are skipped in both.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..errors import FileFormatError, IrmeansError

__all__ = ["Qrels", "Run", "read_qrels", "read_run"]

# Chunks are about this many bytes; a line longer than a chunk grows it.
_CHUNK_BYTES = 1 << 21
# Spare bytes after a chunk: room for a missing final newline and for reading
# eight bytes from any token start.
_SLACK = 1 << 12

_POW10 = 10.0 ** np.arange(16)
# _LOW_BYTES[k] keeps the first k bytes of a little-endian 64-bit word
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments: one row per judged (topic, document) pair.

    Attributes
    ----------
    topics, docnos : numpy.ndarray of bytes (dtype ``S``)
    rels : numpy.ndarray of int64
        Relevance grades; negative means judged but unusable.
    source : str
        File name (or ``"<arrays>"``) used in error messages.
    lines : numpy.ndarray of int64 or None
        Line number of each row in ``source``.

    Examples
    --------
    >>> q = Qrels.from_arrays(["1", "1"], ["d1", "d2"], [1, 0])
    >>> q.rels.tolist()
    [1, 0]
    """

    topics: np.ndarray
    docnos: np.ndarray
    rels: np.ndarray
    source: str = "<arrays>"
    lines: np.ndarray | None = None

    @classmethod
    def from_arrays(cls, topics, docnos, rels, source="<arrays>"):
        """Build qrels from in-memory sequences (str or bytes).

        Raises ``ValueError`` for relevance values that are not integers,
        sequences of different lengths, or a document judged twice for one
        topic (the message names the row, counted from 0).
        """
        rels = np.asarray(rels)
        if rels.dtype.kind == "f":
            if not np.all(np.isfinite(rels)) or np.any(rels != np.round(rels)):
                raise IrmeansError(f"{source}: relevance values must be integers")
        elif rels.dtype.kind not in "iub":
            raise IrmeansError(f"{source}: relevance values must be integers")
        t, d = _as_bytes(topics), _as_bytes(docnos)
        if not (len(t) == len(d) == len(rels)):
            raise IrmeansError(f"{source}: topics, docnos and rels differ in length")
        _check_unique(t, d, None, source, "judged")
        return cls(t, d, rels.astype(np.int64), source, None)

    def __len__(self):
        return len(self.rels)


@dataclass(frozen=True, eq=False)
class Run:
    """A retrieval run: one row per retrieved (topic, document) pair.

    Attributes
    ----------
    topics, docnos : numpy.ndarray of bytes (dtype ``S``)
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

    topics: np.ndarray
    docnos: np.ndarray
    scores: np.ndarray
    runid: str = "run"
    source: str = "<arrays>"
    lines: np.ndarray | None = None

    @classmethod
    def from_arrays(cls, topics, docnos, scores, runid="run", source="<arrays>"):
        """Build a run from in-memory sequences (str or bytes).

        Raises ``ValueError`` for an empty run, sequences of different
        lengths, a score that is not finite, or a document retrieved twice for
        one topic (the message names the row, counted from 0).
        """
        s = np.asarray(scores, dtype=np.float64)
        t, d = _as_bytes(topics), _as_bytes(docnos)
        if not (len(t) == len(d) == len(s)):
            raise IrmeansError(f"{source}: topics, docnos and scores differ in length")
        if len(s) == 0:
            raise IrmeansError(f"{source}: the run is empty")
        bad = np.flatnonzero(~np.isfinite(s))
        if len(bad):
            raise IrmeansError(f"{source}: row {bad[0]}: score {s[bad[0]]!r} is not finite")
        _check_unique(t, d, None, source, "retrieved")
        return cls(t, d, s, str(runid), source, None)

    def __len__(self):
        return len(self.scores)


def _as_bytes(values) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind == "S":
        return arr
    if arr.dtype.kind == "U":
        return np.char.encode(arr, "utf-8")
    return np.array([v if isinstance(v, bytes) else str(v).encode("utf-8") for v in arr.tolist()], dtype="S")


def _open(name):
    try:
        return open(name, "rb")
    except FileNotFoundError:
        raise IrmeansError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise IrmeansError(f"{name}: is a directory, not a file") from None
    except OSError as exc:
        raise IrmeansError(f"{name}: cannot read file ({exc.strerror})") from None


def _chunks(name, chunk_bytes=None):
    """Read a file in pieces that end at a newline.

    Yields ``(buf, n, first_line, newlines)``: ``buf[:n]`` is the piece (a
    newline is added after a last line that has none), ``buf`` holds at least
    ``_SLACK`` more bytes, ``first_line`` is the 1-based number of its first
    line and ``newlines`` the number of lines in it.  The buffer is reused:
    a piece is only valid until the next one is asked for.
    """
    with _open(name) as fh:
        try:
            size = os.fstat(fh.fileno()).st_size
        except OSError:  # pragma: no cover
            size = 0
        cap = chunk_bytes or _CHUNK_BYTES
        if size > 0:  # a pipe or terminal reports 0: its size is unknown
            cap = max(1, min(cap, size + 1))
        store = bytearray(cap + _SLACK)
        have, line, eof = 0, 1, False
        while not eof:
            view = memoryview(store)
            try:
                while have < cap:
                    got = fh.readinto(view[have:cap])
                    if not got:
                        eof = True
                        break
                    have += got
            except OSError as exc:
                raise IrmeansError(f"{name}: cannot read file ({exc.strerror})") from None
            finally:
                view.release()
            if eof:
                cut = have
                if have and store[have - 1] != 10:
                    store[have] = 10
                    cut = have + 1
            else:
                cut = store.rfind(b"\n", 0, have) + 1
                if cut == 0:  # a line longer than the buffer: grow it
                    cap *= 2
                    bigger = bytearray(cap + _SLACK)
                    bigger[:have] = store[:have]
                    store = bigger
                    continue
            if cut:
                newlines = store.count(b"\n", 0, cut)
                yield np.frombuffer(store, dtype=np.uint8), cut, line, newlines
                line += newlines
            if not eof:
                store[: have - cut] = store[cut:have]
                have -= cut


class _ValueProblem(IrmeansError):
    """A bad score or grade: reported only if no line has a wrong field count."""


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
    return FileFormatError(message, path=source, line=line)


def _read_fields(source, expect, exact, what, hash_comment_anywhere, parse):
    """Parse a file piece by piece with ``parse(lines)`` and collect the results.

    Wrong field counts are reported first wherever they are, then bad values,
    as if the file were checked in one go.
    """
    pieces, pending = [], None
    for buf, n, first_line, newlines in _chunks(source):
        lines = _Lines(buf, n, first_line, newlines, expect, hash_comment_anywhere)
        if not len(lines):
            continue
        lines.check_counts(source, expect, exact, what)
        if pending is not None:
            continue
        try:
            pieces.append(parse(lines))
        except _ValueProblem as exc:
            pending, pieces = exc, []
    if pending is not None:
        raise IrmeansError(*pending.args) from None
    return pieces


def _columns(pieces):
    """Concatenate the pieces' fields one by one, letting each field's parts go at once."""
    out = []
    for i in range(len(pieces[0])):
        parts = [p[i] for p in pieces]
        for p in pieces:
            p[i] = None
        out.append(parts[0] if len(parts) == 1 else np.concatenate(parts))
        del parts
    pieces.clear()
    return out


def read_qrels(path) -> Qrels:
    """Read a TREC qrels file (``qid iter docno rel``).

    Parameters
    ----------
    path : str or os.PathLike

    Returns
    -------
    Qrels

    Raises
    ------
    ValueError
        Missing file, a line without exactly four fields, a relevance that is
        not an integer, or a document judged twice for one topic; the message
        names the file and the line.

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

    def parse(lines):
        topics = lines.gather(0)[0]
        docnos = lines.gather(2)[0]
        hashes = hash_bytes(docnos)
        text, words, lengths = lines.gather(3)
        rels, ok = _decimal(words, lengths, fraction=False)
        if not ok.all():
            bad = np.flatnonzero(~ok)
            rels[bad] = _slow_grades(text[bad], lines.line_numbers[bad], source)
        return [topics, docnos, rels, lines.line_numbers, hashes]

    pieces = _read_fields(source, 4, True, "qrels", False, parse)
    if not pieces:
        raise IrmeansError(f"{source}: no judgments in the file")
    widths = {p[1].dtype.itemsize for p in pieces}
    topics, docnos, rels, line_numbers, hashes = _columns(pieces)
    qrels = Qrels(topics, docnos, rels, source, line_numbers)
    if len(widths) == 1:
        _keep_hashes(qrels, hashes)
    del hashes
    _check_unique(qrels.topics, qrels.docnos, qrels.lines, source, "judged", docno_hashes(qrels))
    return qrels


def _slow_grades(text, line_numbers, source):
    try:
        return text.astype(np.int64)
    except (ValueError, OverflowError):
        pass
    for i, value in enumerate(text.tolist()):
        try:
            int(value)
        except ValueError:
            raise _ValueProblem(
                f"{source}:{line_numbers[i]}: relevance {value.decode('utf-8', 'replace')!r} is not an integer"
            ) from None
    raise _ValueProblem(f"{source}: relevance values could not be read")  # pragma: no cover


def read_run(path) -> Run:
    """Read a TREC run file (``qid Q0 docno rank score tag``).

    The rank column is ignored, as trec_eval does; the ranking is rebuilt
    from the scores.  Fields after the sixth are ignored.

    Parameters
    ----------
    path : str or os.PathLike

    Returns
    -------
    Run

    Raises
    ------
    ValueError
        Missing or empty file, a line with fewer than six fields, a score
        that is not a finite number, or a document retrieved twice for one
        topic; the message names the file and the line.

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

    def parse(lines):
        topics = lines.gather(0)[0]
        docnos = lines.gather(2)[0]
        hashes = hash_bytes(docnos)
        text, words, lengths = lines.gather(4)
        scores, ok = _decimal(words, lengths, fraction=True)
        if not ok.all():
            bad = np.flatnonzero(~ok)
            scores[bad] = _slow_scores(text[bad], lines.line_numbers[bad], source)
        s, e = lines.field(5)
        return [topics, docnos, scores, lines.line_numbers, hashes, lines.text(int(s[-1]), int(e[-1]))]

    pieces = _read_fields(source, 6, False, "run", True, parse)
    if not pieces:
        raise IrmeansError(f"{source}: the run is empty")
    runid = pieces[-1][5]
    widths = {p[1].dtype.itemsize for p in pieces}
    for p in pieces:
        p[5] = np.zeros(0)
    topics, docnos, scores, line_numbers, hashes, _ = _columns(pieces)
    run = Run(topics, docnos, scores, runid, source, line_numbers)
    if len(widths) == 1:  # the hashes depend on the width of the array
        _keep_hashes(run, hashes)
    del hashes
    _check_unique(run.topics, run.docnos, run.lines, source, "retrieved", docno_hashes(run))
    return run


def _slow_scores(text, line_numbers, source):
    try:
        scores = text.astype(np.float64)
        if np.isfinite(scores).all():
            return scores
    except ValueError:
        pass
    for i, value in enumerate(text.tolist()):
        shown = value.decode("utf-8", "replace")
        try:
            number = float(value)
        except ValueError:
            raise _ValueProblem(f"{source}:{line_numbers[i]}: score {shown!r} is not a number") from None
        if not np.isfinite(number):
            raise _ValueProblem(f"{source}:{line_numbers[i]}: score {shown!r} is not finite")
    raise _ValueProblem(f"{source}: scores could not be read")  # pragma: no cover


def hash_bytes(values: np.ndarray, width: int | None = None) -> np.ndarray:
    """64-bit FNV-style hash of each fixed-width byte string (vectorised).

    Strings hash alike whatever the width of their array as long as the same
    ``width`` (at least the widest item size involved) is given.

    Examples
    --------
    >>> h = hash_bytes(np.array([b"a", b"b", b"a"]))
    >>> bool(h[0] == h[2]), bool(h[0] == h[1])
    (True, False)
    """
    width = max(values.dtype.itemsize, width or 0)
    padded = -(-width // 8) * 8
    if padded != values.dtype.itemsize:
        values = values.astype(f"S{padded}")
    words = np.ascontiguousarray(values).view("<u8").reshape(len(values), padded // 8)
    h = np.full(len(values), 0xCBF29CE484222325, dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    for j in range(words.shape[1]):
        h ^= words[:, j]
        h *= prime
        h ^= h >> np.uint64(29)
    return h


def docno_hashes(data, width: int | None = None) -> np.ndarray:
    """:func:`hash_bytes` of ``data.docnos`` (a Qrels or Run), computed once per width.

    Examples
    --------
    >>> r = Run.from_arrays(["1", "1"], ["d1", "d2"], [2.0, 1.0])
    >>> bool(np.array_equal(docno_hashes(r, 16), hash_bytes(r.docnos, 16)))
    True
    """
    width = -(-max(data.docnos.dtype.itemsize, width or 0) // 8) * 8
    cache = data.__dict__.setdefault("_docno_hashes", {})
    if width not in cache:
        cache[width] = hash_bytes(data.docnos, width)
    return cache[width]


def _keep_hashes(data, hashes):
    width = -(-data.docnos.dtype.itemsize // 8) * 8
    data.__dict__.setdefault("_docno_hashes", {})[width] = hashes


def _pair_hash(topics, docnos, hashes=None):
    key = hash_bytes(docnos) if hashes is None else hashes.copy()
    mixed = hash_bytes(topics)
    mixed *= np.uint64(0x9E3779B97F4A7C15)
    key ^= mixed
    return key


def _check_unique(topics, docnos, lines, source, verb, hashes=None):
    """Raise if a (topic, docno) pair occurs twice (hash first, then verify)."""
    n = len(docnos)
    if n < 2:
        return
    key = _pair_hash(topics, docnos, hashes)
    key.sort()
    if not (key[1:] == key[:-1]).any():
        return
    key = _pair_hash(topics, docnos, hashes)
    order = np.argsort(key, kind="stable")
    k = key[order]
    same = np.flatnonzero(k[1:] == k[:-1])
    if len(same) == 0:
        return
    a, b = order[same], order[same + 1]
    real = (topics[a] == topics[b]) & (docnos[a] == docnos[b])
    if not real.any():
        return
    first, second = np.minimum(a[real], b[real]), np.maximum(a[real], b[real])
    j = int(np.argmin(second))
    i1, i2 = int(first[j]), int(second[j])
    where = lambda i: lines[i] if lines is not None else f"row {i}"  # noqa: E731
    doc = docnos[i2].decode("utf-8", "replace")
    topic = topics[i2].decode("utf-8", "replace")
    if lines is not None:
        raise _line_error(
            source, where(i2), f"document {doc!r} {verb} twice for topic {topic!r} (first on line {where(i1)})"
        )
    raise IrmeansError(f"{source}: row {i2}: document {doc!r} {verb} twice for topic {topic!r} (first in row {i1})")
