"""Fast readers for TREC qrels and run files.

Both readers tokenise the whole file at once with numpy: a whitespace mask
gives the start and end of every token, tokens are assigned to lines, and
the fields are gathered into fixed-width byte-string arrays.  Only when
something is wrong does a slow path look for the first offending line, so
that the error message can name it.

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

__all__ = ["Qrels", "Run", "read_qrels", "read_run"]

_WHITESPACE = np.zeros(256, dtype=bool)
_WHITESPACE[[9, 10, 11, 12, 13, 32]] = True


@dataclass(frozen=True)
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
        """Build qrels from in-memory sequences (str or bytes)."""
        rels = np.asarray(rels)
        if rels.dtype.kind == "f":
            if not np.all(np.isfinite(rels)) or np.any(rels != np.round(rels)):
                raise ValueError(f"{source}: relevance values must be integers")
        elif rels.dtype.kind not in "iub":
            raise ValueError(f"{source}: relevance values must be integers")
        t, d = _as_bytes(topics), _as_bytes(docnos)
        if not (len(t) == len(d) == len(rels)):
            raise ValueError(f"{source}: topics, docnos and rels differ in length")
        return cls(t, d, rels.astype(np.int64), source, None)

    def __len__(self):
        return len(self.rels)


@dataclass(frozen=True)
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
        """Build a run from in-memory sequences (str or bytes)."""
        s = np.asarray(scores, dtype=np.float64)
        t, d = _as_bytes(topics), _as_bytes(docnos)
        if not (len(t) == len(d) == len(s)):
            raise ValueError(f"{source}: topics, docnos and scores differ in length")
        if len(s) == 0:
            raise ValueError(f"{source}: the run is empty")
        bad = np.flatnonzero(~np.isfinite(s))
        if len(bad):
            raise ValueError(f"{source}: row {bad[0]}: score {s[bad[0]]!r} is not finite")
        return cls(t, d, s, str(runid), source, None)

    def __len__(self):
        return len(self.scores)


def _as_bytes(values) -> np.ndarray:
    arr = np.asarray(values)
    if arr.dtype.kind == "S":
        return arr
    if arr.dtype.kind == "U":
        return np.char.encode(arr, "utf-8")
    return np.array([v if isinstance(v, bytes) else str(v).encode("utf-8") for v in arr.tolist()],
                    dtype="S")


def _read_bytes(path) -> bytes:
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        raise ValueError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"{name}: is a directory, not a file") from None
    except OSError as exc:
        raise ValueError(f"{name}: cannot read file ({exc.strerror})") from None


class _Tokens:
    """Tokens of a text buffer, grouped by line, comments and blanks removed."""

    def __init__(self, data: bytes, hash_comment_anywhere: bool):
        if data and not data.endswith(b"\n"):
            data += b"\n"
        buf = np.frombuffer(data, dtype=np.uint8)
        # isspace(): ' ' and \t \n \v \f \r (9..13); the uint8 subtraction wraps below 9
        ws = np.empty(len(buf) + 2, dtype=bool)
        ws[0] = ws[-1] = True
        np.less(buf - np.uint8(9), 5, out=ws[1:-1])
        ws[1:-1] |= buf == 32
        # whitespace/non-whitespace switches alternate: token start, token end, ...
        edges = np.flatnonzero(ws[1:] != ws[:-1])
        self.buf = buf
        self.starts = edges[0::2]
        self.ends = edges[1::2]
        newlines = np.flatnonzero(buf == 10)
        line_begin = np.empty(len(newlines), dtype=np.int64)
        line_begin[:1] = 0
        line_begin[1:] = newlines[:-1] + 1
        first = np.searchsorted(self.starts, line_begin)
        count = np.diff(np.append(first, len(self.starts)))
        if hash_comment_anywhere:
            lead = np.zeros(len(first), dtype=np.uint8)
            has = count > 0
            lead[has] = buf[self.starts[first[has]]]
            comment = (count > 0) & (lead == ord("#"))
        else:
            comment = buf[line_begin] == ord("#")
        keep = (count > 0) & ~comment
        self.line_numbers = np.flatnonzero(keep) + 1
        self.first = first[keep]
        self.count = count[keep]

    def field(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        idx = self.first + k
        return self.starts[idx], self.ends[idx]

    def text(self, start: int, end: int) -> str:
        return self.buf[start:end].tobytes().decode("utf-8", "replace")

    def gather(self, k: int) -> np.ndarray:
        """Field ``k`` of every line as a fixed-width bytes array."""
        s, e = self.field(k)
        return _gather(self.buf, s, e)


def _gather(buf: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray:
    n = len(s)
    lengths = e - s
    width = int(lengths.max()) if n else 1
    out = np.zeros((n, width), dtype=np.uint8)
    step = max(1, 4_000_000 // width)
    cols = np.arange(width)
    last = len(buf) - 1
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        idx = np.minimum(s[lo:hi, None] + cols, last)
        block = buf[idx]
        block[cols >= lengths[lo:hi, None]] = 0
        out[lo:hi] = block
    return out.view(f"S{width}").ravel()


def _line_error(source, line, message):
    return ValueError(f"{source}:{line}: {message}")


def _check_field_counts(tok: _Tokens, source: str, need: int, exact: bool, what: str):
    bad = tok.count < need
    if exact:
        bad |= tok.count > need
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        n = int(tok.count[i])
        problem = "too few fields" if n < need else "too many fields"
        raise _line_error(source, tok.line_numbers[i],
                          f"{problem} ({n}, a {what} line has {'exactly' if exact else 'at least'} {need})")


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
    tok = _Tokens(_read_bytes(path), hash_comment_anywhere=False)
    if len(tok.count) == 0:
        raise ValueError(f"{source}: no judgments in the file")
    _check_field_counts(tok, source, 4, True, "qrels")
    topics = tok.gather(0)
    docnos = tok.gather(2)
    rel_text = tok.gather(3)
    try:
        rels = rel_text.astype(np.int64)
    except (ValueError, OverflowError):
        rels = None
    if rels is None:
        for i, value in enumerate(rel_text.tolist()):
            try:
                int(value)
            except ValueError:
                raise _line_error(source, tok.line_numbers[i],
                                  f"relevance {value.decode('utf-8', 'replace')!r} is not an integer") from None
        raise ValueError(f"{source}: relevance values could not be read")  # pragma: no cover
    qrels = Qrels(topics, docnos, rels, source, tok.line_numbers)
    _check_unique(qrels.topics, qrels.docnos, qrels.lines, source, "judged")
    return qrels


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
    tok = _Tokens(_read_bytes(path), hash_comment_anywhere=True)
    if len(tok.count) == 0:
        raise ValueError(f"{source}: the run is empty")
    _check_field_counts(tok, source, 6, False, "run")
    topics = tok.gather(0)
    docnos = tok.gather(2)
    score_text = tok.gather(4)
    try:
        scores = score_text.astype(np.float64)
        ok = np.isfinite(scores)
    except ValueError:
        scores, ok = None, None
    if scores is None or not ok.all():
        for i, value in enumerate(score_text.tolist()):
            text = value.decode("utf-8", "replace")
            try:
                number = float(value)
            except ValueError:
                raise _line_error(source, tok.line_numbers[i], f"score {text!r} is not a number") from None
            if not np.isfinite(number):
                raise _line_error(source, tok.line_numbers[i], f"score {text!r} is not finite")
        raise ValueError(f"{source}: scores could not be read")  # pragma: no cover
    s, e = tok.field(5)
    runid = tok.text(int(s[-1]), int(e[-1]))
    run = Run(topics, docnos, scores, runid, source, tok.line_numbers)
    _check_unique(run.topics, run.docnos, run.lines, source, "retrieved")
    return run


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


def _check_unique(topics, docnos, lines, source, verb):
    """Raise if a (topic, docno) pair occurs twice (hash first, then verify)."""
    n = len(docnos)
    if n < 2:
        return
    key = hash_bytes(docnos) ^ (hash_bytes(topics) * np.uint64(0x9E3779B97F4A7C15))
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
        raise _line_error(source, where(i2),
                          f"document {doc!r} {verb} twice for topic {topic!r} (first on line {where(i1)})")
    raise ValueError(f"{source}: row {i2}: document {doc!r} {verb} twice for topic {topic!r} "
                     f"(first in row {i1})")
