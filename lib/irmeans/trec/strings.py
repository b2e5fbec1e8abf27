"""Byte strings stored end to end: docnos and topic ids without padding to the longest.

A :class:`Strings` column keeps its strings in one ``uint8`` buffer with an offset per
string, so memory and time grow with the total size of the strings, never with the longest
one times their number.  Strings are hashed, compared and ordered eight bytes at a time,
straight from the buffer: hashes (:func:`hash_strings`) for joining and duplicate checks,
word-by-word comparison (:func:`equal_at`) to verify what the hashes suggest, and
:func:`order_descending` for trec_eval's tie-break (docno descending, ``strcmp`` order).
Strings longer than :data:`LONG` bytes finish with Python's bytes hash and comparison,
so a single long name costs what its length costs, once.

>>> s = Strings.from_sequence([b"doc-2", b"doc-10", b"doc-2"])
>>> s.tolist(), bool(s.hashes()[0] == s.hashes()[2]), bool(s.hashes()[0] == s.hashes()[1])
([b'doc-2', b'doc-10', b'doc-2'], True, False)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["Strings", "hash_strings", "equal_at", "order_descending", "LONG"]

#: Strings longer than this many bytes are hashed and compared past it with Python's bytes.
LONG = 512
_HEAD = 4  # every string is hashed over at least this many (zero-padded) words, read at once
_BLOCK = 1 << 18  # strings hashed at a time
_PAD = 16  # zero bytes kept after the last string, so any 8-byte read stays inside the buffer
_GATHER = 64  # strings up to this long are copied out of a buffer by one fixed-width read each
_LOW = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)  # first k bytes, little-endian
_HIGH = np.array([((1 << (8 * k)) - 1) << (64 - 8 * k) if k else 0 for k in range(9)], dtype=np.uint64)
_PRIME = np.uint64(0x100000001B3)
_SEED = np.uint64(0xCBF29CE484222325)
_GOLD = np.uint64(0x9E3779B97F4A7C15)
_MASK64 = (1 << 64) - 1
# _HEAD_MASK[k] keeps the first k bytes of the first _HEAD words; each word has its multiplier
_HEAD_MASK = np.array([[_LOW[min(max(k - 8 * j, 0), 8)] for j in range(_HEAD)] for k in range(8 * _HEAD + 1)])
_HEAD_MUL = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93], dtype=np.uint64)


def _view(data: np.ndarray, dtype: str) -> np.ndarray:
    """Every 8-byte word of ``data`` at every byte offset (unaligned, no copy)."""
    return np.ndarray(shape=(len(data) - 7,), dtype=dtype, buffer=data, strides=(1,))


def _word(
    view: np.ndarray, limit: int, starts: np.ndarray, lengths: np.ndarray, j: int, big: bool = False
) -> np.ndarray:
    """Word ``j`` of each string (bytes ``8j .. 8j+7``), zero past the string's end."""
    pos = starts + 8 * j
    np.minimum(pos, limit, out=pos)
    w: np.ndarray = view[pos]
    rem = np.clip(lengths - 8 * j, 0, 8)
    w &= (_HIGH if big else _LOW)[rem]
    return w


def hash_strings(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """64-bit hash of each string ``data[starts[i] : starts[i] + lengths[i]]``.

    The hash depends on the string's bytes alone, not on where it lies or what else is
    hashed with it.  ``data`` must hold 8 readable bytes after the last string start.
    The first 32 bytes (zero-padded) are read in one 32-byte gather per string, their
    four words mixed each with its own constants and combined; longer strings go on
    word by word.

    Examples
    --------
    >>> buf = np.frombuffer(b"ab cd ab" + bytes(16), dtype=np.uint8)
    >>> h = hash_strings(buf, np.array([0, 3, 6]), np.array([2, 2, 2]))
    >>> bool(h[0] == h[2]), bool(h[0] == h[1])
    (True, False)
    """
    n = len(starts)
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    if n > _BLOCK:  # bounded temporaries
        out = np.empty(n, dtype=np.uint64)
        for a in range(0, n, _BLOCK):
            out[a : a + _BLOCK] = hash_strings(data, starts[a : a + _BLOCK], lengths[a : a + _BLOCK])
        return out
    h = lengths.astype(np.uint64) * _GOLD
    h ^= _SEED
    if n == 0:
        return h
    head = _HEAD * 8
    tail = starts > len(data) - head
    if tail.any():  # strings that start near the end of data: from a zero-padded copy of the end
        out = np.empty(n, dtype=np.uint64)
        lo = int(starts[tail].min())
        end = np.concatenate((data[lo:], np.zeros(head, np.uint8)))
        out[tail] = hash_strings(end, starts[tail] - lo, lengths[tail])
        rest = ~tail
        out[rest] = hash_strings(data, starts[rest], lengths[rest])
        return out
    at = np.ndarray(shape=(len(data) - head + 1,), dtype=f"V{head}", buffer=data, strides=(1,))
    w = at[starts].view("<u8").reshape(n, _HEAD)
    w &= np.take(_HEAD_MASK, np.minimum(lengths, head), axis=0)
    w *= _HEAD_MUL
    w ^= w >> np.uint64(29)
    w *= _PRIME
    for j in range(_HEAD):
        h ^= w[:, j]
    del w
    words = (lengths + 7) >> 3
    most = int(np.minimum(words, LONG // 8).max())
    if most > _HEAD:
        view = _view(data, "<u8")
        limit = len(data) - 8
        head_words = np.minimum(words, LONG // 8)
        rows = np.flatnonzero(head_words > _HEAD)
        rows = rows[np.argsort(-head_words[rows], kind="stable")]
        left = np.sort(head_words[rows])
        for j in range(_HEAD, most):
            act = rows[: len(rows) - int(np.searchsorted(left, j, side="right"))]
            w = _word(view, limit, starts[act], lengths[act], j)
            g = h[act] ^ w
            g *= _PRIME
            g ^= g >> np.uint64(29)
            h[act] = g
    for i in np.flatnonzero(lengths > LONG).tolist():  # the tails of long strings
        s = int(starts[i])
        tail_hash = hash(data[s + LONG : s + int(lengths[i])].tobytes()) & _MASK64
        h[i] ^= np.uint64(tail_hash)
    h ^= h >> np.uint64(32)
    h *= _GOLD
    h ^= h >> np.uint64(29)
    return h


def equal_at(
    a_data: np.ndarray,
    a_starts: ArrayLike,
    a_lengths: ArrayLike,
    b_data: np.ndarray,
    b_starts: ArrayLike,
    b_lengths: ArrayLike,
) -> np.ndarray:
    """Elementwise equality of the strings of ``a`` and ``b`` (same number of each), word by word.

    Examples
    --------
    >>> buf = np.frombuffer(b"abc abd abc" + bytes(16), dtype=np.uint8)
    >>> equal_at(buf, np.array([0, 0]), np.array([3, 3]), buf, np.array([8, 4]), np.array([3, 3])).tolist()
    [True, False]
    """
    a_starts = np.asarray(a_starts, dtype=np.int64)
    b_starts = np.asarray(b_starts, dtype=np.int64)
    same: np.ndarray = np.asarray(a_lengths) == np.asarray(b_lengths)
    if not len(same):
        return same
    lengths = np.asarray(a_lengths, dtype=np.int64)
    va, vb = _view(a_data, "<u8"), _view(b_data, "<u8")
    la, lb = len(a_data) - 8, len(b_data) - 8
    words = np.minimum((lengths + 7) >> 3, LONG // 8)
    j = 0
    rows = np.flatnonzero(same)
    while len(rows):
        rows = rows[words[rows] > j]
        if not len(rows):
            break
        wa = _word(va, la, a_starts[rows], lengths[rows], j)
        wb = _word(vb, lb, b_starts[rows], lengths[rows], j)
        bad = wa != wb
        same[rows[bad]] = False
        rows = rows[~bad]
        j += 1
    for i in np.flatnonzero(same & (lengths > LONG)).tolist():
        sa, sb, n = int(a_starts[i]), int(b_starts[i]), int(lengths[i])
        same[i] = a_data[sa : sa + n].tobytes() == b_data[sb : sb + n].tobytes()
    return same


def _by_group_descending(key: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Permutation sorting by ``group`` ascending, then ``key`` descending (equal keys in any order).

    One sort of the keys gives each its rank; one sort of group * n + rank, all different,
    orders both at once (faster than a lexsort's two stable sorts).
    """
    n = len(key)
    rank = np.empty(n, dtype=np.int64)
    rank[np.argsort(~key)] = np.arange(n)
    rank += group.astype(np.int64) * n
    return np.argsort(rank)


def order_descending(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, group: ArrayLike) -> np.ndarray:
    """Permutation sorting strings by ``group`` (ascending), then by the strings descending (``strcmp``).

    Compares eight bytes at a time (big-endian words) and goes on to the next word only for
    the strings still tied, so the work grows with the length of shared prefixes, not with
    the longest string.

    Examples
    --------
    >>> s = Strings.from_sequence([b"b", b"ab", b"abc", b"a"])
    >>> order_descending(s.data, s.starts, s.lengths, np.array([0, 0, 0, 1])).tolist()
    [0, 2, 1, 3]
    """
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    view = _view(data, ">u8")
    limit = len(data) - 8
    key = _word(view, limit, starts, lengths, 0, big=True)
    out = _by_group_descending(key, np.asarray(group))
    rows, grp, key = out, np.asarray(group)[out], key[out]
    slots = np.arange(n)
    j = 0
    while len(rows) > 1:
        same = (grp[1:] == grp[:-1]) & (key[1:] == key[:-1])
        if not same.any():
            break
        tied = np.zeros(len(rows), dtype=bool)
        tied[1:] |= same
        tied[:-1] |= same
        keep = np.flatnonzero(tied)
        grp = np.cumsum(np.concatenate(([True], ~same)))[keep]
        rows, slots = rows[keep], slots[keep]
        j += 1
        if 8 * j >= LONG:  # what is left shares a long prefix: finish with bytes
            names = [data[s : s + n].tobytes() for s, n in zip(starts[rows].tolist(), lengths[rows].tolist())]
            local: list[int] | np.ndarray = sorted(
                range(len(rows)), key=lambda i: (-int(grp[i]), names[i]), reverse=True
            )
            out[slots] = rows[local]
            break
        key = _word(view, limit, starts[rows], lengths[rows], j, big=True)
        local = _by_group_descending(key, grp)
        rows, grp, key = rows[local], grp[local], key[local]
        out[slots] = rows
    return out


class Strings:
    """A column of byte strings stored end to end.

    Attributes
    ----------
    data : numpy.ndarray of uint8
        The strings' bytes, one after the other, then some zero bytes.
    offsets : numpy.ndarray of int64
        ``n + 1`` offsets: string ``i`` is ``data[offsets[i]:offsets[i + 1]]``.

    Examples
    --------
    >>> s = Strings.from_sequence(["q1", "passage-7"])
    >>> len(s), s[1], s.lengths.tolist()
    (2, b'passage-7', [2, 9])
    """

    __slots__ = ("data", "offsets", "_hashes")

    def __init__(self, data: np.ndarray, offsets: np.ndarray, hashes: np.ndarray | None = None):
        self.data = data
        self.offsets = offsets
        self._hashes = hashes

    def __len__(self) -> int:
        return len(self.offsets) - 1

    @property
    def starts(self) -> np.ndarray:
        return self.offsets[:-1]

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def hashes(self) -> np.ndarray:
        """:func:`hash_strings` of every string (computed once)."""
        if self._hashes is None:
            self._hashes = hash_strings(self.data, self.starts, self.lengths)
        return self._hashes

    def spans(self, rows: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Starts and lengths (int64) of the strings at ``rows``."""
        rows = np.asarray(rows, dtype=np.int64)
        starts = self.offsets[rows].astype(np.int64)
        return starts, self.offsets[rows + 1] - starts

    def hashes_at(self, rows: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """``hashes()[rows]``, made block by block without keeping all hashes if they are not made yet."""
        rows = np.asarray(rows)
        if out is None:
            out = np.empty(len(rows), dtype=np.uint64)
        if self._hashes is not None:
            return np.take(self._hashes, rows, out=out)
        o = self.offsets
        for a in range(0, len(rows), _BLOCK):
            r = rows[a : a + _BLOCK]
            starts = o[r].astype(np.int64)
            out[a : a + _BLOCK] = hash_strings(self.data, starts, o[r + 1] - starts)
        return out

    def __getitem__(self, i: int) -> bytes:
        return self.data[self.offsets[i] : self.offsets[i + 1]].tobytes()

    def tolist(self) -> list[bytes]:
        """The strings as a list of bytes."""
        o = self.offsets.tolist()
        blob = self.data[o[0] : o[-1]].tobytes()
        return [blob[a - o[0] : b - o[0]] for a, b in zip(o[:-1], o[1:])]

    def to_array(self) -> np.ndarray:
        """The strings as a numpy bytes array (``S`` dtype, padded to the longest)."""
        return np.array(self.tolist(), dtype="S") if len(self) else np.zeros(0, dtype="S1")

    def slice(self, a: int, b: int) -> Strings:
        """Strings ``a`` to ``b - 1``, sharing this column's bytes (no copy).

        >>> Strings.from_sequence(["x", "yy", "zzz"]).slice(1, 3).tolist()
        [b'yy', b'zzz']
        """
        hashes = None if self._hashes is None else self._hashes[a:b]
        return Strings(self.data, self.offsets[a : b + 1], hashes)

    def take(self, rows: np.ndarray) -> Strings:
        """The strings at ``rows``, as a new column."""
        rows = np.asarray(rows, dtype=np.int64)
        lengths = self.lengths[rows]
        offsets = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        total = int(offsets[-1])
        idx = np.repeat(self.starts[rows] - offsets[:-1], lengths)
        idx += np.arange(total, dtype=np.int64)
        data = np.zeros(total + _PAD, dtype=np.uint8)
        data[:total] = self.data[idx]
        hashes = None if self._hashes is None else self._hashes[rows]
        return Strings(data, offsets, hashes)

    @classmethod
    def from_buffer(cls, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Strings:
        """The strings ``buf[starts[i]:ends[i]]`` (non-overlapping, in increasing order), copied out.

        Strings of at most 64 bytes (docnos, almost always) are read in one fixed-width gather
        each and compacted with a mask; otherwise the bytes between the marks are kept.  ``buf``
        must hold 64 readable bytes after the last start (the chunks of :mod:`.tokens` do).

        >>> buf = np.frombuffer(b"1 Q0 doc-7 1\\n2 Q0 d 1\\n" + bytes(64), dtype=np.uint8)
        >>> Strings.from_buffer(buf, np.array([5, 18]), np.array([10, 19])).tolist()
        [b'doc-7', b'd']
        """
        lengths = ends - starts
        offsets = np.zeros(len(starts) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        total = int(offsets[-1])
        data = np.zeros(total + _PAD, dtype=np.uint8)
        width = -(-int(lengths.max()) // 8) * 8 if len(lengths) else 0
        if total and width <= _GATHER and int(starts[-1]) + width <= len(buf):
            at = np.ndarray(shape=(len(buf) - width + 1,), dtype=f"S{width}", buffer=buf, strides=(1,))
            padded = at[starts].view(np.uint8).reshape(len(starts), width)
            data[:total] = padded[np.arange(width, dtype=np.int32) < lengths[:, None]]
        elif total:
            marks = np.zeros(int(ends[-1]) + 1, dtype=np.int8)
            marks[starts] = 1
            marks[ends] -= 1
            inside = np.cumsum(marks, dtype=np.int8).view(bool)[: int(ends[-1])]
            data[:total] = buf[: int(ends[-1])][inside]
        return cls(data, offsets)

    @classmethod
    def from_sequence(cls, values: Iterable[str | bytes]) -> Strings:
        """A column from str or bytes values (str is encoded as UTF-8), or a numpy ``S``/``U`` array."""
        arr = values if isinstance(values, np.ndarray) else None
        if arr is not None and arr.dtype.kind == "U":
            arr = np.char.encode(arr, "utf-8")
        if arr is not None and arr.dtype.kind == "S" and arr.ndim == 1:
            items = arr.tolist()
        else:
            seq = values.tolist() if isinstance(values, np.ndarray) else list(values)
            items = [v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogateescape") for v in seq]
        lengths = np.fromiter((len(v) for v in items), dtype=np.int64, count=len(items))
        offsets = np.zeros(len(items) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        data = np.zeros(int(offsets[-1]) + _PAD, dtype=np.uint8)
        data[: int(offsets[-1])] = np.frombuffer(b"".join(items), dtype=np.uint8)
        return cls(data, offsets)

    @classmethod
    def concat(cls, parts: list[Strings]) -> Strings:
        """One column of the strings of ``parts`` in turn (the parts' buffers are released as it goes).

        >>> Strings.concat([Strings.from_sequence(["a", "bc"]), Strings.from_sequence(["d", "e"]).slice(1, 2)]).tolist()
        [b'a', b'bc', b'e']
        """
        if len(parts) == 1:
            return parts[0]
        total = sum(int(p.offsets[-1]) - int(p.offsets[0]) for p in parts)
        n = sum(len(p) for p in parts)
        data = np.zeros(total + _PAD, dtype=np.uint8)
        offsets = np.zeros(n + 1, dtype=np.int64)
        hashes = np.zeros(n, dtype=np.uint64) if all(p._hashes is not None for p in parts) else None
        at, row = 0, 0
        for i, p in enumerate(parts):
            first, size, m = int(p.offsets[0]), int(p.offsets[-1]) - int(p.offsets[0]), len(p)
            data[at : at + size] = p.data[first : first + size]
            offsets[row + 1 : row + m + 1] = p.offsets[1:] - (first - at)
            if hashes is not None:
                assert p._hashes is not None  # every part has its hashes when hashes is made
                hashes[row : row + m] = p._hashes
            at, row = at + size, row + m
            # The caller's list lets go of each part once copied (its buffers can be freed):
            # a None where a Strings is expected, on purpose.
            parts[i] = None  # type: ignore[call-overload]
        return cls(data, offsets, hashes)
