"""pyarrow's tokeniser of TREC files: chunks of plain files read by pyarrow's CSV reader.

A chunk (some megabytes of whole lines, see :mod:`.source`) whose lines are fields separated
by one space (or, in a file without spaces, by one tab) is parsed by pyarrow's multi-threaded
CSV reader in C++: one pass over the bytes instead of several numpy passes.  Topic ids and
grades come back dictionary-encoded (each distinct token once), docnos as a binary column
(copied once into :class:`~.strings.Strings`), scores as doubles.

Nothing is read differently from the exact tokeniser (:mod:`.tokens`): a chunk is taken only
if, for it, both agree by construction, and otherwise :func:`fast_reader`'s function gives
None and the exact tokeniser reads the chunk, and writes the error messages.  A chunk is
left to it when it holds a carriage return, a vertical tab or a form feed, both spaces and
tabs, a byte-order mark, an empty field (two separators in a row, a separator at the start
or end of a line, a blank line), lines with different numbers of fields, a comment (a topic
starting with ``#``), a score pyarrow does not read or that is NaN, a grade
:func:`~irmeans.number_syntax.c_grade` does not read or that is out of range, or a line too
long for pyarrow's blocks.  pyarrow reads exactly the plain and e-notation decimals (of any
length) and ``inf``/``infinity`` in any case (and ``nan``, refused) to the correctly rounded
double, as C's ``strtod`` does; grades are read from their distinct tokens with
:func:`~irmeans.number_syntax.c_grade`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

import numpy as np

from ..number_syntax import c_grade, grade_problem
from .arrow_buffers import ArrowColumn, offsets, primitive
from .source import Chunk
from .strings import PAD, Strings
from .tokens import Layout, Piece, TopicTable

__all__ = ["fast_reader", "column_strings"]

# pyarrow's block: a line longer than this is left to the exact reader
_BLOCK_BYTES = 1 << 22
_BOM = b"\xef\xbb\xbf"

#: What :func:`fast_reader` gives: ``fast(chunk)``, the rows of a chunk of a file, or None.
FastReader: TypeAlias = Callable[[Chunk], Piece | None]


def fast_reader(layout: Layout, topics: TopicTable) -> FastReader:
    """A function reading a chunk of a file laid out as ``layout`` into a :class:`~.tokens.Piece`, or None.

    Topics are coded into ``topics``, the file's table.  None means the chunk is left to the
    exact tokeniser (see the module's text).
    """
    import pyarrow as pa
    import pyarrow.csv as csv

    kind = layout.what
    binary = pa.binary()
    coded = pa.dictionary(pa.int32(), pa.binary())
    if kind == "qrels":
        types = {"f0": coded, "f1": binary, "f2": binary, "f3": coded}
    else:
        types = {"f0": coded, "f1": binary, "f2": binary, "f3": binary, "f4": pa.float64(), "f5": binary}
    convert = csv.ConvertOptions(
        column_types=types,
        # a qrels line has exactly four fields: all columns are kept, to count them
        include_columns=list(types) if kind == "run" else [],
        null_values=[],
        true_values=[],
        false_values=[],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
    )
    # the C library's allocator, which gives freed memory back (see arrow_buffers.release_memory)
    pool = pa.system_memory_pool()
    read = csv.ReadOptions(autogenerate_column_names=True, block_size=_BLOCK_BYTES, use_threads=True)
    parse_space, parse_tab = (
        csv.ParseOptions(delimiter=d, quote_char=False, double_quote=False, escape_char=False, ignore_empty_lines=False)
        for d in (" ", "\t")
    )

    def fast(chunk: Chunk) -> Piece | None:
        raw, n = chunk.raw, chunk.n
        if n < 2 or raw[0] in b" \t\n" or raw.startswith(_BOM):
            return None
        for ch in (b"\r", b"\v", b"\f", b"\0"):  # NUL: not text, and the exact reader names its line
            if raw.find(ch, 0, n) >= 0:
                return None
        options = parse_space
        if raw.find(b"\t", 0, n) >= 0:
            if raw.find(b" ", 0, n) >= 0:
                return None
            options = parse_tab
        try:
            table = csv.read_csv(
                pa.py_buffer(raw).slice(0, n),
                read_options=read,
                parse_options=options,
                convert_options=convert,
                memory_pool=pool,
            )
        except (pa.ArrowException, ValueError, KeyError):
            return None
        if table.schema.names != list(types):  # qrels: not four fields; run: fewer than six
            return None
        for name, typ in types.items():
            if typ == binary and not _nonempty(table.column(name)):
                return None
        codes = _topic_codes(table.column("f0"), topics)
        if codes is None:
            return None
        docnos = column_strings(table.column("f2"))
        lines = (chunk.first_line, len(codes))
        if kind == "qrels":
            rels = _grades(table.column("f3"))
            return None if rels is None else Piece(codes, docnos, rels, None, lines, chunk.goes_on)
        scores: list[np.ndarray] | np.ndarray = [primitive(c, np.float64) for c in table.column("f4").chunks]
        scores = scores[0] if len(scores) == 1 else np.concatenate(scores)
        if np.isnan(scores).any():
            return None
        tag = table.column("f5")[-1].as_py().decode("utf-8", "surrogateescape")
        return Piece(codes, docnos, scores, tag, lines, chunk.goes_on)

    return fast


def column_strings(column: ArrowColumn) -> Strings:
    """A pyarrow binary column as :class:`~.strings.Strings` (its bytes copied out once, end to end)."""
    total = sum(int(offsets(c)[-1]) - int(offsets(c)[0]) for c in column.chunks)
    n = sum(len(c) for c in column.chunks)
    data = np.zeros(total + PAD, dtype=np.uint8)
    starts = np.zeros(n, dtype=np.int64)
    at = row = 0
    for chunk in column.chunks:
        o = offsets(chunk)
        first, size, m = int(o[0]), int(o[-1]) - int(o[0]), len(chunk)
        raw = np.frombuffer(chunk.buffers()[2], dtype=np.uint8, count=first + size)
        data[at : at + size] = raw[first:]
        starts[row : row + m] = o[:-1] - (first - at)
        at, row = at + size, row + m
    lengths = np.diff(np.append(starts, at)).astype(np.int32)
    return Strings(data, starts, lengths)


def _nonempty(column: ArrowColumn) -> bool:
    """No empty token in a binary column (an empty field: the exact reader splits differently)."""
    for chunk in column.chunks:
        o = offsets(chunk)
        if len(chunk) and not (o[1:] > o[:-1]).all():
            return False
    return True


def _dictionary_codes(column: ArrowColumn, decode: Callable[[list[bytes]], np.ndarray | None]) -> np.ndarray | None:
    """Each row's value of a dictionary column, from ``decode(list of distinct bytes)`` (an array)."""
    parts = []
    for chunk in column.chunks:
        values = decode(chunk.dictionary.to_pylist())
        if values is None:
            return None
        index = primitive(chunk.indices, np.int32)
        parts.append(values[index])
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else np.concatenate(parts)


def _topic_codes(column: ArrowColumn, topics: TopicTable) -> np.ndarray | None:
    def decode(ids: list[bytes]) -> np.ndarray | None:
        if any(not t or t[0] == 35 for t in ids):  # empty, or a comment line ('#')
            return None
        return topics.code_ids(ids)

    return _dictionary_codes(column, decode)


def _grades(column: ArrowColumn) -> np.ndarray | None:
    def decode(tokens: list[bytes]) -> np.ndarray | None:
        values = [c_grade(t) for t in tokens]
        if any(v is None or grade_problem(v) for v in values):
            return None
        return np.array(values, dtype=np.int64)

    return _dictionary_codes(column, decode)
