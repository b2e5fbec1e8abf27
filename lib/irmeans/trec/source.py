"""The bytes of a TREC file: a file, ``-`` (standard input) or a gzip file, read in chunks of whole lines.

:func:`chunks` reads a file in chunks of a few megabytes that end at a newline, each in a
buffer of its own (so that what is read from a chunk may point into it after the next one is
read), with spare zero bytes after it.  :func:`open_source` is the one place that opens a
file for reading, and :func:`standard_input` the one place that checks standard input:
closed, or a directory, is one clear error.  A NUL byte (a binary file) or a line longer
than :data:`MAX_LINE_BYTES` stops reading with a one-line error instead of filling memory.

>>> import tempfile, os
>>> with tempfile.NamedTemporaryFile("wb", delete=False) as fh:
...     _ = fh.write(b"1 0 a 1\\n1 0 b 0")
>>> [(bytes(c.buf[: c.n]), c.first_line) for c in chunks(fh.name)]; os.unlink(fh.name)
[(b'1 0 a 1\\n1 0 b 0\\n', 1)]
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

import numpy as np

from ..errors import FileFormatError, IrmeansError

__all__ = [
    "Chunk",
    "Source",
    "chunks",
    "open_source",
    "standard_input",
    "file_size",
    "stretch_start",
    "CHUNK_BYTES",
    "MAX_LINE_BYTES",
    "MAX_STRETCH_BYTES",
    "SLACK",
    "STDIN",
]

#: The name that means standard input.
STDIN = "-"
#: Chunks are about this many bytes; a line longer than a chunk grows it.
CHUNK_BYTES = 1 << 19
#: A stretch of lines of one first field is kept in one chunk up to this size.
MAX_STRETCH_BYTES = 1 << 24
#: The longest line read (a docno may be a long URL; nothing real comes near this).
MAX_LINE_BYTES = 1 << 26
#: Zero bytes after a chunk: room for a missing final newline, and for reading a few words
#: from any token start.
SLACK = 1 << 12


# The standard input stream once read: it cannot be read again.
_read: object | None = None


def standard_input() -> io.BufferedIOBase:
    """Standard input, opened for reading bytes; an :class:`~irmeans.errors.IrmeansError` if it cannot be read.

    The one check of standard input: closed (no stream, or no open file descriptor 0), a
    directory, or already read (``-`` given twice) are refused here with one line, whatever
    asks to read ``-``.
    """
    global _read
    stream = sys.stdin
    try:
        fd = stream.fileno() if stream is not None else -1
        mode: int | None = os.fstat(fd).st_mode if fd >= 0 else None
    except io.UnsupportedOperation:  # a stream without a file descriptor (a test's)
        mode = stat.S_IFIFO
    except (OSError, ValueError):  # closed, or not a real file descriptor
        mode = None
    if stream is None or mode is None or stream.closed:
        raise IrmeansError("'-': standard input is closed, there is nothing to read")
    if stat.S_ISDIR(mode):
        raise IrmeansError("'-': standard input is a directory, not a file")
    buffer = cast(io.BufferedIOBase, stream.buffer)  # a BufferedReader: typeshed says BinaryIO
    if buffer is _read:
        raise IrmeansError("'-' (standard input) may be given once: it has been read already")
    _read = buffer
    return buffer


def file_size(name: str) -> int | None:
    """The size of a regular file in bytes; None for standard input, a pipe or a device, whose size is unknown."""
    if name == STDIN:
        return None
    try:
        st = os.stat(name)
    except OSError:
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def open_source(name: str) -> io.BufferedIOBase:
    """``name`` opened for reading bytes (``-``: standard input), or the error naming the file."""
    if name == STDIN:
        return standard_input()
    try:
        return open(name, "rb")
    except FileNotFoundError:
        raise FileFormatError("no such file", path=name) from None
    except IsADirectoryError:
        raise FileFormatError("is a directory, not a file", path=name) from None
    except OSError as exc:
        raise FileFormatError(f"cannot read file ({exc.strerror})", path=name) from None


class Source:
    """A file, ``-`` or a gzip file (recognised by its first bytes), open for binary reading."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.fh = open_source(name)
        self.own = name != STDIN
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
            self.raw = self.fh
            self.fh = gzip.GzipFile(fileobj=self.raw, mode="rb")
            self.errors = (OSError, EOFError, zlib.error)

    def readinto(self, view: memoryview) -> int:
        """Read into ``view``; return the number of bytes read (0 at the end). A file that cannot be read
        (a broken gzip stream, an I/O error) raises :class:`~irmeans.FileFormatError` naming it.
        """
        try:
            return self.fh.readinto(view)
        except self.errors as exc:
            what = getattr(exc, "strerror", None) or str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            kind = "cannot read gzip file" if self.gz else "cannot read file"
            raise FileFormatError(f"{kind} ({what})", path=self.name) from None

    def close(self) -> None:
        """Close the file, if it was opened here (standard input is left open)."""
        if self.own:
            (self.raw if self.gz else self.fh).close()

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass(frozen=True)
class Chunk:
    """Whole lines of a file: ``raw[:n]`` (ending with a newline), :data:`SLACK` zero bytes after them.

    ``buf`` is ``raw`` seen as a numpy array, ``first_line`` the 1-based number of the
    chunk's first line.  The buffer is the chunk's own: what points into it stays valid after
    the next chunk is read.  ``goes_on`` is true when the chunk was asked to end at a change
    of first field (see :func:`chunks`) and could not: the lines of its last first field may
    go on in the next chunk.
    """

    raw: bytearray
    n: int
    first_line: int
    goes_on: bool = False

    @property
    def buf(self) -> np.ndarray:
        """The chunk's bytes, ``raw``, as a numpy array of uint8 (no copy)."""
        return np.frombuffer(self.raw, dtype=np.uint8)

    @property
    def newlines(self) -> int:
        """The number of lines in the chunk."""
        return int(np.count_nonzero(self.buf[: self.n] == 10))


def chunks(name: str, size: int | None = None, *, stretches: bool = False) -> Iterator[Chunk]:
    """Read a file in chunks of about ``size`` (default :data:`CHUNK_BYTES`) bytes that end at a newline.

    A newline is added after a last line that has none.  A NUL byte or a line longer than
    :data:`MAX_LINE_BYTES` raises, naming the file and the line.

    With ``stretches``, a chunk ends where the first field of the lines changes (a run's
    topic id), so that the lines of one first field that come one after another are in one
    chunk: the stretch of lines at the end of a chunk starts the next one instead.  A
    stretch longer than :data:`MAX_STRETCH_BYTES`, or one whose first field cannot be told
    from its bytes alone (a blank line, a comment, a line starting with a blank), ends its
    chunk at a newline with :attr:`Chunk.goes_on` set.
    """
    cap = size or CHUNK_BYTES
    size = file_size(name)
    with Source(name) as fh:
        if size and not fh.gz:
            cap = max(1, min(cap, size + 1))
        store = bytearray(cap + SLACK)
        have, line, eof, checked = 0, 1, False, 0
        search = _SEARCH_BYTES  # bytes searched for the last stretch's start, at first: a bit more than the last one's
        while True:
            view = memoryview(store)
            try:
                while have < cap and not eof:
                    got = fh.readinto(view[have:cap])
                    if not got:
                        eof = True
                        break
                    have += got
            finally:
                view.release()
            _check_nul(store, checked, have, name, line)  # at once: a binary file is not read on
            checked = have
            goes_on = False
            if eof:
                cut = have
                if have and store[have - 1] != 10:
                    store[have] = 10
                    cut = have + 1
            else:
                cut = store.rfind(b"\n", 0, have) + 1
                if cut and stretches:
                    start = stretch_start(np.frombuffer(store, np.uint8), cut, search)
                    if start:
                        search = max(_SEARCH_BYTES, (cut - start) * 5 // 4)
                    if start is None or (start == 0 and cap >= MAX_STRETCH_BYTES):
                        goes_on = True  # cut at the newline, the stretch going on
                    elif start == 0:
                        cut = 0  # one stretch fills the chunk: read more of it
                    else:
                        cut = start
                if cut == 0:  # a line (or a stretch) longer than the buffer: grow it
                    if cap >= MAX_LINE_BYTES:
                        what = f"line longer than {MAX_LINE_BYTES >> 20} MiB: this is not a TREC file"
                        raise FileFormatError(what, path=name, line=line)
                    cap *= 2
                    bigger = bytearray(cap + SLACK)
                    bigger[:have] = store[:have]
                    store = bigger
                    continue
            if not cut:
                return
            left = bytes(store[cut:have])  # what is left of this chunk starts the next one
            store[cut : cut + SLACK] = bytes(SLACK)  # zeros after the chunk
            yield Chunk(store, cut, line, goes_on)
            if eof:
                return
            line += int(np.count_nonzero(np.frombuffer(store, np.uint8, cut) == 10))
            store = bytearray(cap + SLACK)  # the next chunk's own buffer
            store[: len(left)] = left
            have = checked = len(left)


# The last bytes of a chunk searched for a change of first field, at first (four times as many until one is found).
_SEARCH_BYTES = 1 << 14


def stretch_start(buf: np.ndarray, end: int, search: int = _SEARCH_BYTES) -> int | None:
    """Where the last stretch of lines of ``buf[:end]`` (whole lines) with the last line's first field starts.

    0 if every line has it; None if the stretch, or the line before it, does not start with
    its first field (a blank line, a comment, a leading blank), or if the first field is
    longer than 39 bytes: those are left to the reader of the lines.  ``buf`` holds
    :data:`SLACK` readable bytes after ``end``.  The last ``search`` bytes are looked at
    first, four times as many next, and so on.

    >>> b = np.frombuffer(b"1 a\\n2 b\\n2 c\\n" + bytes(SLACK), np.uint8)
    >>> stretch_start(b, 12), stretch_start(b, 4)
    (4, 0)
    """
    window, field = search, None
    while True:
        lo = max(0, end - 1 - window)
        starts = np.flatnonzero(buf[lo : end - 1] == 10) + (lo + 1)
        if lo == 0:
            starts = np.concatenate((np.zeros(1, np.int64), starts))
        if not len(starts):  # a line longer than the window
            window *= 4
            continue
        if field is None:
            field = _first_field(buf, int(starts[-1]))
            if field is None:
                return None
        same = _starts_with(buf, starts, field)
        if not same.all():
            k = int(np.flatnonzero(~same)[-1])
            first = int(buf[starts[k]])
            return None if first <= 32 or first == 35 else int(starts[k + 1])
        if lo == 0:
            return 0
        window *= 4


_FIELD_BYTES = 39  # the longest first field a chunk is cut by
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)  # the first k bytes of a word


def _first_field(buf: np.ndarray, start: int) -> np.ndarray | None:
    """The first field of the line at ``start`` (its bytes, up to the first byte <= 32), or None if the line
    does not start with one (a blank, a ``#``) or it is longer than 39 bytes."""
    head = buf[start : start + _FIELD_BYTES + 1]
    ends = np.flatnonzero(head <= 32)
    if not len(ends) or ends[0] == 0 or head[0] == 35:
        return None
    return head[: int(ends[0])]


def _starts_with(buf: np.ndarray, starts: np.ndarray, field: np.ndarray) -> np.ndarray:
    """Whether each line at ``starts`` starts with ``field`` followed by a byte <= 32 (its whole first field).

    The field's bytes are read a word of 8 at a time, every line at once, and compared with its words.
    """
    n = len(field)
    k = -(-n // 8)
    padded = np.zeros(8 * k, dtype=np.uint8)
    padded[:n] = field
    want = padded.view("<u8")
    at = np.ndarray(shape=(len(buf) - 8 * k + 1,), dtype=f"V{8 * k}", buffer=buf, strides=(1,))
    words = at[starts].view("<u8").reshape(len(starts), k)
    same: np.ndarray = buf[starts + n] <= 32
    for j in range(k):
        mask = _LOW_BYTES[min(8, n - 8 * j)]
        same &= (words[:, j] & mask) == want[j]
    return same


def _check_nul(store: bytearray, start: int, end: int, name: str, line: int) -> None:
    """A NUL byte in ``store[start:end]`` (``line`` is the number of the line at 0) raises."""
    nul = store.find(b"\0", start, end)
    if nul >= 0:
        at = line + store.count(b"\n", 0, nul)
        raise FileFormatError("a NUL byte: this is not a text file", path=name, line=at)
