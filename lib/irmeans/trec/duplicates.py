"""The one place that decides whether a document is judged or retrieved twice for a topic.

Hashes of the docnos (:meth:`~.strings.Strings.hashes`) only find the candidates: two rows
can hold the same document only if their (topic, hash) keys are equal.  The rows of every
group of equal keys are then compared on their topics and bytes, all with all, so that a
collision of hashes can neither hide a duplicate nor make one.

>>> from irmeans.trec.strings import Strings
>>> find_duplicate(np.array([0, 0, 1, 0]), Strings.from_sequence(["a", "b", "a", "a"]))
(0, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..errors import IrmeansError, shown_token
from .strings import Strings, equal_at, order_descending
from .tokens import ConsecutiveLines, line_error

__all__ = ["find_duplicate", "duplicate_error", "raise_duplicate", "Rows", "KeyIndex", "topic_keys", "topic_bits"]


class Rows(Protocol):
    """What a duplicate's message needs of qrels or a run (:class:`~.files.Qrels`, :class:`~.files.Run`)."""

    @property
    def topic_ids(self) -> list[bytes]:
        """The topic ids, indexed by the codes of :attr:`topic_codes`."""

    @property
    def topic_codes(self) -> np.ndarray:
        """Each row's topic, coded (an index into :attr:`topic_ids`)."""

    @property
    def docno_strings(self) -> Strings:
        """Each row's document number."""

    @property
    def source(self) -> str:
        """The file the rows were read from, as messages name it."""

    @property
    def lines(self) -> np.ndarray | ConsecutiveLines | None:
        """Each row's line number in the file (None where the rows came from arrays, not a file)."""


def topic_bits(topics: int) -> int:
    """The bits a topic code takes in a key of :func:`topic_keys`, for codes ``0 .. topics - 1``."""
    return max(topics - 1, 0).bit_length()


def topic_keys(codes: np.ndarray, hashes: np.ndarray, bits: int, *, in_place: bool = False) -> np.ndarray:
    """One 64-bit key for each (topic code, docno hash): the code in the high ``bits`` bits, the hash's high bits below.

    Two rows of one document have one key; keys sort topic by topic, so that the rows of a
    file, which come topic after topic, are sorted in runs (a stable sort merges them) and
    the rows of a ranked run look up neighbouring keys one after the other.  With
    ``in_place``, the keys are made in ``hashes`` (hashes made for them alone).

    >>> topic_keys(np.array([0, 1]), np.array([2**63, 2**63], dtype=np.uint64), 1).tolist() == [2**62, 3 * 2**62]
    True
    """
    if not bits:
        return hashes if in_place else hashes.copy()
    key: np.ndarray = np.right_shift(hashes, np.uint64(bits), out=hashes if in_place else None)
    key |= codes.astype(np.uint64) << np.uint64(64 - bits)
    return key


@dataclass(frozen=True, eq=False)
class KeyIndex:
    """The (topic, docno) keys of some rows, sorted: what finds a document twice, and what the join looks up.

    Attributes
    ----------
    keys : numpy.ndarray of uint64
        :func:`topic_keys` of the rows, sorted.
    rows : numpy.ndarray of int32 (int64 past 2**31 rows)
        The row of each key.
    bits : int
        The bits of the topic code in a key.
    unique : bool
        Whether the keys are all different (else two rows share a topic and a hash).
    duplicate : tuple of int or None
        The first pair of rows with one topic and one docno (see :func:`find_duplicate`).
    """

    keys: np.ndarray
    rows: np.ndarray
    bits: int
    unique: bool
    duplicate: tuple[int, int] | None

    @classmethod
    def of(cls, codes: np.ndarray, strings: Strings) -> KeyIndex:
        """The sorted keys of every row (topic code ``codes[i]``, docno ``strings[i]``), checked for a duplicate.

        The hashes ``strings`` keeps, if any, are taken to make the keys in (it keeps them no longer).

        >>> from irmeans.trec.strings import Strings
        >>> ix = KeyIndex.of(np.array([0, 0, 1]), Strings.from_sequence(["a", "b", "a"]))
        >>> sorted(ix.rows.tolist()), ix.duplicate
        ([0, 1, 2], None)
        """
        n = len(codes)
        bits = topic_bits(int(codes.max()) + 1 if n else 0)
        # the column's hashes (made as the rows were read) become the keys, in their own array
        hashes = strings.take_hashes()
        key = topic_keys(codes, hashes if hashes is not None else strings.hashes(keep=False), bits, in_place=True)
        order = _key_order(key, codes)
        keys = key[order]
        del key
        rows = order.astype(np.int32) if n <= _INT32_MAX else order
        del order
        repeats = _repeats(keys)
        if repeats is None:
            return cls(keys, rows, bits, True, None)
        return cls(keys, rows, bits, False, _first_pair(codes, strings, rows[repeats[0]], repeats[1]))


_INT32_MAX = np.iinfo(np.int32).max
# Keys sorted in two halves at once, in two threads, from this many on.
_HALVES_FROM = 1 << 17


def _key_order(key: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """The stable sorting order of ``key`` (keys topic by topic, the topic's ``codes`` in the high bits).

    A file's topics come one after another in the order they were coded, so that its first and
    second halves, cut where a topic starts, hold keys of different topics: each half is then
    sorted on its own, the second in a thread of its own (numpy lets go of the interpreter's lock
    while it sorts), and the two orders put end to end.
    """
    n = len(key)
    cut = int(np.searchsorted(codes, codes[n // 2])) if n >= _HALVES_FROM else 0
    if not 0 < cut < n or int(codes[:cut].max()) >= int(codes[cut:].min()):
        return np.argsort(key, kind="stable")
    import threading

    second: list[np.ndarray] = []
    worker = threading.Thread(target=lambda: second.append(np.argsort(key[cut:], kind="stable")))
    worker.start()
    first = np.argsort(key[:cut], kind="stable")
    worker.join()
    if not second:  # pragma: no cover - the thread failed (its error is printed): sort here
        second.append(np.argsort(key[cut:], kind="stable"))
    order = np.empty(n, dtype=np.intp)
    order[:cut] = first
    np.add(second[0], cut, out=order[cut:])
    return order


def _repeats(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Where sorted ``keys`` repeat: (the places of every key of a group of equal keys, each one's group), or None."""
    same = keys[1:] == keys[:-1]
    if not same.any():
        return None
    member = np.zeros(len(keys), dtype=bool)  # every row of a group of two or more equal keys
    member[1:] |= same
    member[:-1] |= same
    group = np.cumsum(np.concatenate(([True], ~same))[member])
    return np.flatnonzero(member), group


def find_duplicate(codes: np.ndarray, strings: Strings, rows: np.ndarray | None = None) -> tuple[int, int] | None:
    """The first pair of rows with the same topic code and docno, as (earlier, later), or None.

    "First" is the pair whose later row comes first.  ``rows`` restricts the search to those
    rows (indices into ``codes`` and ``strings``).  Hashes only find the candidates: two rows
    can be the same document only if their (topic, hash) keys are equal, and the rows of
    every group of equal keys are then compared on their topics and bytes, all of them (not
    only neighbours), so that a collision of hashes can neither hide a duplicate nor make one.

    Examples
    --------
    >>> find_duplicate(np.array([0, 0, 0]), Strings.from_sequence(["a", "b", "a"]))
    (0, 2)
    """
    if rows is None:
        if len(codes) < 2:
            return None
        hashes, row_codes = strings.hashes(keep=False), codes
    else:
        rows = np.asarray(rows)
        if len(rows) < 2:
            return None
        hashes, row_codes = strings.hashes_at(rows), codes[rows]
    low = int(row_codes.min())
    key = topic_keys(row_codes - low if low else row_codes, hashes, topic_bits(int(row_codes.max()) - low + 1))
    # the usual answer, no pair, costs a sort (a stable one: the keys come in runs, topic by topic)
    in_order = np.sort(key, kind="stable")
    if not (in_order[1:] == in_order[:-1]).any():
        return None
    del in_order
    order = np.argsort(key, kind="stable")
    found = _repeats(key[order])
    assert found is not None  # the sorted keys repeat
    at, group = found
    cand = order[at] if rows is None else rows[order[at]]
    return _first_pair(codes, strings, cand, group)


def _first_pair(codes: np.ndarray, strings: Strings, cand: np.ndarray, group: np.ndarray) -> tuple[int, int] | None:
    """The first pair of rows ``cand`` (in groups ``group`` of equal keys) with one topic and one docno, or None."""
    cand = np.asarray(cand, dtype=np.int64)
    # the groups of equal keys, each split by topic, then the docnos in order within each
    group = group.astype(np.int64) * (int(codes[cand].max()) + 1) + codes[cand]
    by = order_descending(strings.data, *strings.spans(cand), group)
    cand, group = cand[by], group[by]
    equal = group[1:] == group[:-1]
    equal &= equal_at(strings.data, *strings.spans(cand[1:]), strings.data, *strings.spans(cand[:-1]))
    if not equal.any():
        return None
    # runs of rows with one topic and one docno: each run's first two rows in file order
    run = np.cumsum(np.concatenate(([True], ~equal)))
    dup = np.zeros(len(cand), dtype=bool)
    dup[1:] |= equal
    dup[:-1] |= equal
    members, run = cand[dup], run[dup]
    o = np.lexsort((members, run))
    members, run = members[o], run[o]
    head = np.flatnonzero(np.concatenate(([True], run[1:] != run[:-1])))
    j = int(np.argmin(members[head + 1]))
    return int(members[head[j]]), int(members[head[j] + 1])


def duplicate_error(data: Rows, pair: tuple[int, int], verb: str) -> IrmeansError:
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


def raise_duplicate(data: Rows, verb: str, index: KeyIndex | None = None) -> None:
    """Raise :func:`duplicate_error` for the first document of ``data`` judged or retrieved twice, if there is one.

    With the rows' :class:`KeyIndex`, its :attr:`~KeyIndex.duplicate` is the pair.
    """
    pair = index.duplicate if index is not None else find_duplicate(data.topic_codes, data.docno_strings)
    if pair is not None:
        raise duplicate_error(data, pair, verb)
