"""A run file a block of whole topics at a time, for the join to rank each block as it is read.

The join takes a run as :class:`RunBlocks`: blocks of whole topics, handed one by one to a
function, each checked for documents retrieved twice.  :class:`RunReader` reads a file so,
without holding it whole: its chunks end where the topic changes (:mod:`.source`) and each
chunk's rows are a block; :class:`InMemory` is a :class:`~.files.Run` already in memory, one
block.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

import numpy as np

from ..errors import FileFormatError
from . import source as source_module
from .duplicates import duplicate_error, find_duplicate
from .files import Errors, Rows, Run, lines_of, pieces, read_run
from .source import STDIN, file_size
from .tokens import RUN, Piece, TopicTable

__all__ = ["RunBlocks", "RunReader", "InMemory", "STREAM_BYTES"]

#: A run file of this many bytes or more is ranked a block of whole topics at a time as it is
#: read; a smaller one is read whole.
STREAM_BYTES = 1 << 22

_T = TypeVar("_T")


class RunBlocks(Protocol):
    """What the join takes: a run's blocks of whole topics, handed one by one to a function.

    :meth:`map` calls ``f`` on each block (a :class:`Run` of whole topics, in file order,
    checked for documents retrieved twice) and returns what it gave; then ``topic_ids`` holds
    every topic of the run, ``runid`` its tag and ``source`` its name.
    """

    @property
    def topic_ids(self) -> list[bytes]:
        """Every topic id of the run, once :meth:`map` has run."""

    @property
    def runid(self) -> str:
        """The run's tag (its last field), once :meth:`map` has run."""

    @property
    def source(self) -> str:
        """The run's file, as messages name it."""

    def map(self, f: Callable[[Run], _T]) -> list[_T]:
        """``f`` of each block of whole topics, in file order."""


class InMemory:
    """A :class:`Run` in memory as :class:`RunBlocks`: one block."""

    def __init__(self, run: Run) -> None:
        self.run = run
        self.topic_ids, self.runid, self.source = run.topic_ids, run.runid, run.source

    def map(self, f: Callable[[Run], _T]) -> list[_T]:
        """``[f(run)]``: the run in memory is one block."""
        return [f(self.run)]


class _TopicComesBack(Exception):
    """A topic's lines come back after another topic's: the file is not read a topic at a time."""


class RunReader:
    """A run file as :class:`RunBlocks`: its rows a block of whole topics at a time, as it is read.

    A file of :data:`STREAM_BYTES` or more is read in chunks that end where the topic changes
    (:func:`~.source.chunks`), and each chunk's rows are a block (pointing into it: no copy);
    the rows of a topic longer than a chunk are put together into a block of their own.  A
    smaller file, or standard input, is one block.  Each block is checked here for documents
    retrieved twice, and errors are reported in the order of :class:`Errors`.  If a topic's
    lines come back after another topic's (the reader learns it only when they do), what was
    made of the blocks so far is dropped and the file is read again, whole, as one block:
    the price of such a file is a second reading, never a wrong ranking.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.source = os.fspath(path)
        self.topic_ids: list[bytes] = []
        self.runid = ""
        size = file_size(self.source)
        self.streamed = self.source != STDIN and size is not None and size >= STREAM_BYTES

    def map(self, f: Callable[[Run], _T]) -> list[_T]:
        """``f`` of each block, in file order (see the class's text)."""
        if self.streamed:
            try:
                return [f(block) for block in self._blocks()]
            except _TopicComesBack:
                pass
        run = read_run(self.source)
        self.topic_ids, self.runid = run.topic_ids, run.runid
        return [f(run)]

    def _blocks(self) -> Iterator[Run]:
        topics = TopicTable()
        errors = Errors(self.source)
        size = file_size(self.source) or 2 * source_module.CHUNK_BYTES
        carry = Rows(size)  # the rows of a topic that goes on past a piece
        known = 0  # topics of the pieces before this one (a topic's code is its place in the table)
        for piece in pieces(self.source, RUN, topics, errors, stretches=True, hashed=True):
            assert piece.tag is not None  # every line of a run has its tag
            self.runid, self.topic_ids = piece.tag, topics.ids()
            codes = piece.codes
            # topics are coded in order of first appearance: this piece's new ones have the codes
            # from `known` on (the table may hold the next piece's already: it is read ahead)
            before, known = known, max(known, int(codes.max()) + 1)
            head = 0
            if carry:  # the open topic's rows at the head of this piece
                open_topic = carry.topic()
                other = codes != open_topic
                head = int(np.argmax(other)) if other.any() else len(codes)
                carry.add(piece.slice(0, head))
                if head == len(codes) and piece.goes_on:
                    continue  # the open topic goes on
                block = self._checked(carry.piece(), errors)
                carry = Rows(size)
                if block is None:
                    continue
                yield block
                piece, codes = piece.slice(head, len(codes)), codes[head:]
            if not len(codes):
                continue
            if (codes < before).any():
                raise _TopicComesBack
            tail = len(codes)
            if piece.goes_on:  # the last topic may go on in the next piece
                tail -= int(np.argmax(codes[::-1] != codes[-1])) if (codes != codes[-1]).any() else len(codes)
                carry.add(piece.slice(tail, len(codes)))
            if tail:
                block = self._checked(piece.slice(0, tail), errors)
                if block is not None:
                    yield block
        if carry:
            block = self._checked(carry.piece(), errors)
            if block is not None:
                yield block
        if not self.runid:
            raise FileFormatError("the run is empty", path=self.source)

    def _checked(self, rows: Piece, errors: Errors) -> Run | None:
        """The rows as a block, or None once an error is found (kept in ``errors`` for after the rest of the file)."""
        if errors.found:
            return None
        run = Run(self.topic_ids, rows.codes, rows.docnos, rows.values, self.runid, self.source, lines_of(rows))
        run.docno_strings.hashes()  # made once (as the piece was read, as a rule), for the check and the lookup
        pair = find_duplicate(run.topic_codes, run.docno_strings)
        if pair is not None:
            errors.duplicate = duplicate_error(run, pair, "retrieved")
            return None
        return run
