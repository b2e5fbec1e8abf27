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

from typing import Protocol

import numpy as np

from ..errors import IrmeansError, shown_token
from .strings import Strings, equal_at, order_descending
from .tokens import ConsecutiveLines, line_error

__all__ = ["find_duplicate", "duplicate_error", "raise_duplicate", "Rows"]


class Rows(Protocol):
    """What a duplicate's message needs of qrels or a run (:class:`~.files.Qrels`, :class:`~.files.Run`)."""

    @property
    def topic_ids(self) -> list[bytes]: ...
    @property
    def topic_codes(self) -> np.ndarray: ...
    @property
    def docno_strings(self) -> Strings: ...
    @property
    def source(self) -> str: ...
    @property
    def lines(self) -> np.ndarray | ConsecutiveLines | None: ...


_MIX = np.uint64(0x9E3779B97F4A7C15)


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
    rows = np.arange(len(codes)) if rows is None else np.asarray(rows)
    hashes = strings.hashes_at(rows) if len(rows) > 1 else None  # the column's kept hashes, or made here
    if len(rows) < 2:
        return None
    assert hashes is not None  # made above for two rows or more
    key = codes[rows].astype(np.uint64) * _MIX
    key ^= hashes
    in_order = np.sort(key)  # the usual answer, no pair, costs a sort; only a pair needs the rows
    if not (in_order[1:] == in_order[:-1]).any():
        return None
    order = np.argsort(key, kind="stable")
    k = key[order]
    same = k[1:] == k[:-1]
    member = np.zeros(len(k), dtype=bool)  # every row of a group of two or more equal keys
    member[1:] |= same
    member[:-1] |= same
    cand = rows[order[member]]
    # the groups of equal keys, each split by topic, then the docnos in order within each
    group = np.cumsum(np.concatenate(([True], ~same))[member])
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


def raise_duplicate(data: Rows, verb: str) -> None:
    """Raise :func:`duplicate_error` for the first document of ``data`` judged or retrieved twice, if there is one."""
    pair = find_duplicate(data.topic_codes, data.docno_strings)
    if pair is not None:
        raise duplicate_error(data, pair, verb)
