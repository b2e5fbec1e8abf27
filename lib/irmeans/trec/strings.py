"""Byte strings without padding to the longest: docnos (and topic ids) as spans of a buffer.

A :class:`Strings` column keeps its strings as spans (start, length) of one ``uint8``
buffer: the chunk of the file they were read from (no copy), or a buffer of their own with
the strings end to end, so memory and time grow with the total size of the strings, never
with the longest one times their number.  Strings are hashed, compared and ordered eight
bytes at a time, straight from the buffer: hashes (:func:`hash_strings`) to find candidates
for joining and duplicate checks, word-by-word comparison (:func:`equal_at`) to decide, and
:func:`order_descending` for trec_eval's tie-break (docno descending, ``strcmp`` order).
Strings longer than :data:`LONG` bytes finish with Python's bytes hash and comparison, so a
single long name costs what its length costs, once.

>>> s = Strings.from_sequence([b"doc-2", b"doc-10", b"doc-2"])
>>> s.tolist(), bool(s.hashes()[0] == s.hashes()[2]), bool(s.hashes()[0] == s.hashes()[1])
([b'doc-2', b'doc-10', b'doc-2'], True, False)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["Strings", "hash_strings", "equal_at", "order_descending", "gather", "LONG", "PAD"]

#: Strings longer than this many bytes are hashed and compared past it with Python's bytes.
LONG = 512
_HEAD = 4  # every string is hashed over at least this many (zero-padded) words, read at once
_BLOCK = 1 << 18  # strings hashed at a time
#: Zero bytes kept after the last string of a buffer, so that reading a string's first 32 bytes at once stays inside it.
PAD = 32
_INT32_MAX = np.iinfo(np.int32).max
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
    rem = lengths - 8 * j
    np.minimum(rem, 8, out=rem)
    np.maximum(rem, 0, out=rem)
    w &= (_HIGH if big else _LOW)[rem]
    return w


def _head_words(lengths: np.ndarray) -> int:
    """The words of the first 32 bytes the longest of the strings reaches (1 to 4)."""
    return min(_HEAD, max(1, (int(lengths.max()) + 7) >> 3)) if len(lengths) else 1


def _heads(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, k: int = _HEAD) -> np.ndarray:
    """The first ``8 k`` bytes (``k`` <= 4) of each string as ``k`` little-endian words, zero past the string's end.

    One read of ``8 k`` bytes per string; ``data`` should hold 32 readable bytes after every start
    (:data:`PAD` after the last string), else its end is copied with zeros after it.
    """
    head = 8 * k
    if not len(starts):
        return np.zeros((0, k), dtype=np.uint64)
    tail = starts > len(data) - head
    if tail.any():  # strings that start near the end of data: from a zero-padded copy of the end
        w = np.empty((len(starts), k), dtype=np.uint64)
        lo = int(starts[tail].min())
        end = np.concatenate((data[lo:], np.zeros(head, np.uint8)))
        w[tail] = _heads(end, starts[tail] - lo, lengths[tail], k)
        w[~tail] = _heads(data, starts[~tail], lengths[~tail], k)
        return w
    at = np.ndarray(shape=(len(data) - head + 1,), dtype=f"V{head}", buffer=data, strides=(1,))
    words: np.ndarray = at[starts].view("<u8").reshape(len(starts), k)
    words &= np.take(_HEAD_MASK[:, :k], np.minimum(lengths, head), axis=0)
    return words


def hash_strings(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """64-bit hash of each string ``data[starts[i] : starts[i] + lengths[i]]``.

    The hash depends on the string's bytes alone, not on where it lies or what else is
    hashed with it.  ``data`` must hold 8 readable bytes after the last string start.
    The first 32 bytes (zero-padded) are four words, each mixed with its own constants and
    combined; a word of zeros adds nothing, so only the words the longest string reaches are
    read (one gather per string); longer strings go on word by word.

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
    k = _head_words(lengths)
    w = _heads(data, starts, lengths, k)
    w *= _HEAD_MUL[:k]
    w ^= w >> np.uint64(29)
    w *= _PRIME
    for j in range(k):
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
    words = np.minimum((lengths + 7) >> 3, LONG // 8)
    rows = np.flatnonzero(same)
    # the first 32 bytes of every pair at once (the words the longest reaches), then word by word
    k = _head_words(lengths[rows])
    heads = _heads(a_data, a_starts[rows], lengths[rows], k) == _heads(b_data, b_starts[rows], lengths[rows], k)
    heads_equal = heads[:, 0].copy()
    for j in range(1, k):
        heads_equal &= heads[:, j]
    same[rows[~heads_equal]] = False
    rows = rows[heads_equal]
    va, vb = _view(a_data, "<u8"), _view(b_data, "<u8")
    la, lb = len(a_data) - 8, len(b_data) - 8
    j = _HEAD
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

    One sort of the keys; then, where the groups are numbered below 2**16, a stable radix sort
    of their numbers in that order; else each key's rank, and one sort of group * n + rank,
    all different, orders both at once (faster than a lexsort's two stable sorts).
    """
    n = len(key)
    if n and int(group.min()) >= 0 and int(group.max()) < 1 << 16:
        by_key = np.argsort(~key)
        by_group: np.ndarray = by_key[np.argsort(group[by_key].astype(np.uint16), kind="stable")]
        return by_group
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
    """A column of byte strings, each a span (start, length) of one buffer.

    A column read from a file points into the file's buffer (no copy); :meth:`compact`
    copies its strings end to end into a buffer of their own, so that memory grows with the
    total size of the strings, never with the longest one times their number.  The buffer
    holds at least :data:`PAD` readable bytes after the end of every string, so that any
    eight-byte read of a string stays inside it.

    Attributes
    ----------
    data : numpy.ndarray of uint8
        The buffer.
    starts : numpy.ndarray of int64 (or int32)
        Where each string starts in ``data``.
    lengths : numpy.ndarray of int32 (or int64)
        Each string's length in bytes.

    Examples
    --------
    >>> s = Strings.from_sequence(["q1", "passage-7"])
    >>> len(s), s[1], s.lengths.tolist()
    (2, b'passage-7', [2, 9])
    """

    __slots__ = ("data", "starts", "lengths", "_hashes")

    def __init__(self, data: np.ndarray, starts: np.ndarray, lengths: np.ndarray, hashes: np.ndarray | None = None):
        self.data = data
        self.starts = starts
        self.lengths = lengths
        self._hashes = hashes

    def __len__(self) -> int:
        return len(self.starts)

    def take_hashes(self) -> np.ndarray | None:
        """The hashes :meth:`hashes` keeps, handed over (the column keeps them no longer), or None."""
        hashes, self._hashes = self._hashes, None
        return hashes

    def hashes(self, keep: bool = True) -> np.ndarray:
        """:func:`hash_strings` of every string (computed once, and kept unless ``keep`` is false)."""
        if self._hashes is not None:
            return self._hashes
        hashes = hash_strings(self.data, self.starts, self.lengths)
        if keep:
            self._hashes = hashes
        return hashes

    def spans(self, rows: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Starts and lengths (int64) of the strings at ``rows``."""
        rows = np.asarray(rows, dtype=np.int64)
        return self.starts[rows].astype(np.int64), self.lengths[rows].astype(np.int64)

    def hashes_at(self, rows: np.ndarray) -> np.ndarray:
        """``hashes()[rows]``, made block by block without keeping all hashes if they are not made yet."""
        rows = np.asarray(rows)
        if self._hashes is not None:
            return np.take(self._hashes, rows)
        out = np.empty(len(rows), dtype=np.uint64)
        for a in range(0, len(rows), _BLOCK):
            r = rows[a : a + _BLOCK]
            out[a : a + _BLOCK] = hash_strings(self.data, self.starts[r], self.lengths[r])
        return out

    def __getitem__(self, i: int) -> bytes:
        start = int(self.starts[i])
        return self.data[start : start + int(self.lengths[i])].tobytes()

    def tolist(self) -> list[bytes]:
        """The strings as a list of bytes."""
        data = self.data
        return [data[a : a + n].tobytes() for a, n in zip(self.starts.tolist(), self.lengths.tolist())]

    def to_array(self) -> np.ndarray:
        """The strings as a numpy bytes array (``S`` dtype, padded to the longest)."""
        return np.array(self.tolist(), dtype="S") if len(self) else np.zeros(0, dtype="S1")

    def slice(self, a: int, b: int) -> Strings:
        """Strings ``a`` to ``b - 1``, sharing this column's buffer (no copy).

        >>> Strings.from_sequence(["x", "yy", "zzz"]).slice(1, 3).tolist()
        [b'yy', b'zzz']
        """
        hashes = None if self._hashes is None else self._hashes[a:b]
        return Strings(self.data, self.starts[a:b], self.lengths[a:b], hashes)

    def take(self, rows: np.ndarray) -> Strings:
        """The strings at ``rows``, sharing this column's buffer (no copy of the bytes)."""
        hashes = None if self._hashes is None else self._hashes[rows]
        return Strings(self.data, self.starts[rows], self.lengths[rows], hashes)

    def offsets(self) -> np.ndarray | None:
        """The ``n + 1`` offsets of strings stored end to end, in order (as pyarrow keeps them); else None."""
        n = len(self)
        if n and (self.starts[1:] != self.starts[:-1] + self.lengths[:-1]).any():
            return None
        end = int(self.starts[-1]) + int(self.lengths[-1]) if n else 0
        return np.append(self.starts, end)

    def compact(self) -> Strings:
        """The same strings copied end to end into a buffer of their own (the old buffer can then be freed).

        >>> buf = np.frombuffer(b"1 Q0 doc-7 1\\n" + bytes(64), np.uint8)
        >>> s = Strings.from_buffer(buf, np.array([5]), np.array([10]))
        >>> c = s.compact(); c.tolist(), len(c.data) < len(s.data)
        ([b'doc-7'], True)
        """
        return Strings.concat([self])

    @classmethod
    def from_buffer(cls, buf: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> Strings:
        """The strings ``buf[starts[i]:ends[i]]``, pointing into ``buf`` (no copy).

        ``buf`` must hold :data:`PAD` readable bytes after the end of the last string (the
        pieces of a file read by :mod:`.source` do).

        >>> buf = np.frombuffer(b"1 Q0 doc-7 1\\n2 Q0 d 1\\n" + bytes(64), dtype=np.uint8)
        >>> Strings.from_buffer(buf, np.array([5, 18]), np.array([10, 19])).tolist()
        [b'doc-7', b'd']
        """
        index = np.int32 if len(buf) <= _INT32_MAX else np.int64
        return cls(buf, starts.astype(index), (ends - starts).astype(np.int32))

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
        data = np.zeros(int(offsets[-1]) + PAD, dtype=np.uint8)
        data[: int(offsets[-1])] = np.frombuffer(b"".join(items), dtype=np.uint8)
        return cls(data, offsets[:-1], lengths)

    @classmethod
    def concat(cls, parts: list[Strings]) -> Strings:
        """One column of the strings of ``parts`` in turn, copied end to end into a new buffer.

        >>> Strings.concat([Strings.from_sequence(["a", "bc"]), Strings.from_sequence(["d", "e"]).slice(1, 2)]).tolist()
        [b'a', b'bc', b'e']
        """
        lengths = np.concatenate([p.lengths for p in parts]).astype(np.int64) if parts else np.zeros(0, np.int64)
        starts = np.zeros(len(lengths), dtype=np.int64)
        np.cumsum(lengths[:-1], out=starts[1:])
        total = int(lengths.sum())
        data = np.zeros(total + PAD, dtype=np.uint8)
        at = 0
        for p in parts:  # each part's strings gathered into place
            data[at : at + int(p.lengths.sum())] = gather(p.data, p.starts, p.lengths)
            at += int(p.lengths.sum())
        hashes = None
        if parts and all(p._hashes is not None for p in parts):
            hashes = np.concatenate([p._hashes for p in parts if p._hashes is not None])
        return cls(data, starts, lengths.astype(np.int32) if total < _INT32_MAX else lengths, hashes)


# width -> a row per length k of a slot of ``width`` bytes, true for its first k bytes
_FIRST_BYTES: dict[int, np.ndarray] = {}


def _first_bytes(width: int) -> np.ndarray:
    """Which bytes of a slot of ``width`` bytes a string of each length 0 .. width takes (made once a width)."""
    table = _FIRST_BYTES.get(width)
    if table is None:
        table = _FIRST_BYTES[width] = np.arange(width) < np.arange(width + 1)[:, None]
    return table


def gather(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The bytes of the strings (spans of ``data``) one after the other."""
    if not len(starts):
        return np.zeros(0, np.uint8)
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    end = int(starts[-1] + lengths[-1])
    if not (starts[1:] != starts[:-1] + lengths[:-1]).any():  # already end to end: one slice
        return data[int(starts[0]) : end]
    width = -(-int(lengths.max()) // 8) * 8
    if width <= _GATHER and int(starts.max()) + width <= len(data):
        # one fixed-width read per string, then the bytes inside each kept
        at = np.ndarray(shape=(len(data) - width + 1,), dtype=f"S{width}", buffer=data, strides=(1,))
        padded: np.ndarray = at[starts].view(np.uint8).reshape(len(starts), width)
        kept: np.ndarray = padded[np.take(_first_bytes(width), lengths, axis=0)]
        return kept
    index = np.repeat(starts - (np.cumsum(lengths) - lengths), lengths)
    index += np.arange(len(index), dtype=np.int64)
    return np.take(data, index)
