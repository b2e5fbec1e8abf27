"""The fast path of the TREC readers: pieces of plain files tokenised by pyarrow's CSV reader.

A piece (some megabytes of whole lines, see :func:`irmeans.trec.files._chunks`) whose lines
are fields separated by one space (or, in a file without spaces, by one tab) is parsed by
pyarrow's multi-threaded CSV reader in C++: one pass over the bytes instead of several
numpy passes.  Topic ids and grades come back dictionary-encoded (each distinct token once),
docnos as a binary column (bytes end to end, as :class:`~.strings.Strings` keeps them, and
copied from there once),
scores as doubles.

Nothing is read differently from the exact reader: a piece is taken only if, for it, both
readers agree by construction, and otherwise it goes to the exact reader, which also writes
the error messages.  A piece is left to the exact reader when it holds a carriage return, a
vertical tab or a form feed, both spaces and tabs, a byte-order mark, an empty field (two
separators in a row, a separator at the start or end of a line, a blank line), lines with
different numbers of fields, a comment (a topic starting with ``#``), a score pyarrow does
not read or that is NaN, a grade :func:`~.numbers.c_grade` does not read or that is out of
range, or a line too long for pyarrow's blocks.  pyarrow reads exactly the plain and
e-notation decimals and ``inf``/``infinity`` in any case (and ``nan``, refused) to the
correctly rounded double, as C's ``strtod`` does;
grades are read from their distinct tokens with :func:`~.numbers.c_grade`.

If pyarrow cannot be imported, every piece goes to the exact reader.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
from numpy.typing import DTypeLike

from ..number_syntax import c_grade, grade_problem

if TYPE_CHECKING:
    from .strings import Strings
    from .tokens import TopicTable

__all__ = ["fast_reader", "load", "arrow_offsets", "column_strings", "primitive", "release_memory"]

# pyarrow's block: a line longer than this is left to the exact reader
_BLOCK_BYTES = 1 << 22
_BOM = b"\xef\xbb\xbf"

# pyarrow has no type stubs, so its objects are Any to a type checker; these names say which is meant.
#: A pyarrow ``Array``: one chunk of a column.
ArrowArray: TypeAlias = Any
#: A pyarrow ``ChunkedArray``: a column of a table.
ArrowColumn: TypeAlias = Any
#: A pyarrow ``Table``.
ArrowTable: TypeAlias = Any
#: What :func:`fast_reader` gives: ``fast(store, n)``, the fields of a piece of a file, or None.
FastReader: TypeAlias = Callable[[bytearray, int], list[Any] | None]


def _modules() -> tuple[ModuleType, ModuleType] | None:
    try:
        import pyarrow as pa
        import pyarrow.csv as csv
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    return pa, csv


def load() -> bool:
    """Import pyarrow now (when many files are to be read, its import pays for itself); whether it is there."""
    return _modules() is not None


def fast_reader(kind: str, topics: TopicTable) -> FastReader | None:
    """A ``fast(store, n)`` for :func:`~irmeans.trec.files._read_fields`, or None without pyarrow.

    ``kind`` is ``"qrels"`` (``[codes, docnos, rels]``) or ``"run"`` (``[codes, docnos,
    scores, tag]``); topic codes are added to ``topics`` (a ``_Topics``).
    """
    mods = _modules()
    if mods is None:
        return None
    pa, csv = mods
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
    # the C library's allocator, which gives freed memory back (see release_memory)
    pool = pa.system_memory_pool()
    read = csv.ReadOptions(autogenerate_column_names=True, block_size=_BLOCK_BYTES, use_threads=True)
    parse_space, parse_tab = (
        csv.ParseOptions(delimiter=d, quote_char=False, double_quote=False, escape_char=False, ignore_empty_lines=False)
        for d in (" ", "\t")
    )

    def fast(store: bytearray, n: int) -> list[Any] | None:
        if n < 2 or store[0] in b" \t\n" or store.startswith(_BOM):
            return None
        for ch in (b"\r", b"\v", b"\f", b"\0"):  # NUL: not text, and the exact reader names its line
            if store.find(ch, 0, n) >= 0:
                return None
        options = parse_space
        if store.find(b"\t", 0, n) >= 0:
            if store.find(b" ", 0, n) >= 0:
                return None
            options = parse_tab
        try:
            piece = pa.py_buffer(store).slice(0, n)
            table = csv.read_csv(
                piece, read_options=read, parse_options=options, convert_options=convert, memory_pool=pool
            )
        except (pa.ArrowException, ValueError, KeyError):
            return None
        finally:
            piece = None
        if table.schema.names != list(types):  # qrels: not four fields; run: fewer than six
            return None
        for name, typ in types.items():
            if typ == binary and not _nonempty(table.column(name)):
                return None
        codes = _topic_codes(table.column("f0"), topics)
        if codes is None:
            return None
        docnos = table.column("f2")
        if kind == "qrels":
            rels = _grades(table.column("f3"))
            return None if rels is None else [codes, docnos, rels]
        scores: list[np.ndarray] | np.ndarray = [primitive(chunk, np.float64) for chunk in table.column("f4").chunks]
        scores = scores[0] if len(scores) == 1 else np.concatenate(scores)
        if np.isnan(scores).any():
            return None
        tag = table.column("f5")[-1].as_py().decode("utf-8", "surrogateescape")
        return [codes, docnos, scores, tag]

    return fast


def release_memory() -> None:
    """Give the memory pyarrow has freed back to the system (its pool keeps it otherwise)."""
    mods = _modules()
    if mods is not None:
        mods[0].system_memory_pool().release_unused()


def primitive(chunk: ArrowArray, dtype: DTypeLike) -> np.ndarray:
    """A pyarrow array of fixed-width values without nulls, as numpy (no copy; no pandas import)."""
    size = np.dtype(dtype).itemsize
    return np.frombuffer(chunk.buffers()[1], dtype=dtype, count=len(chunk), offset=chunk.offset * size)


def arrow_offsets(chunk: ArrowArray) -> np.ndarray:
    """The int32 offsets of a binary array chunk (``len + 1`` of them)."""
    buf = chunk.buffers()[1]
    return np.frombuffer(buf, dtype=np.int32, count=len(chunk) + 1, offset=4 * chunk.offset)


def column_strings(column: ArrowColumn) -> Strings:
    """A pyarrow binary column as :class:`~.strings.Strings` (its bytes copied out once)."""
    from .strings import _PAD, Strings

    total = sum(int(arrow_offsets(c)[-1]) - int(arrow_offsets(c)[0]) for c in column.chunks)
    n = sum(len(c) for c in column.chunks)
    data = np.zeros(total + _PAD, dtype=np.uint8)
    offsets = np.zeros(n + 1, dtype=np.int64)
    at = row = 0
    for chunk in column.chunks:
        o = arrow_offsets(chunk)
        first, size, m = int(o[0]), int(o[-1]) - int(o[0]), len(chunk)
        raw = np.frombuffer(chunk.buffers()[2], dtype=np.uint8, count=first + size)
        data[at : at + size] = raw[first:]
        offsets[row + 1 : row + m + 1] = o[1:] - (first - at)
        at, row = at + size, row + m
    return Strings(data, offsets)


def _nonempty(column: ArrowColumn) -> bool:
    """No empty token in a binary column (an empty field: the exact reader splits differently)."""
    for chunk in column.chunks:
        o = arrow_offsets(chunk)
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
    table = topics.code

    def decode(ids: list[bytes]) -> np.ndarray | None:
        if any(not t or t[0] == 35 for t in ids):  # empty, or a comment line ('#')
            return None
        return np.array([table.setdefault(t, len(table)) for t in ids], dtype=np.int64)

    return _dictionary_codes(column, decode)


def _grades(column: ArrowColumn) -> np.ndarray | None:
    def decode(tokens: list[bytes]) -> np.ndarray | None:
        values = [c_grade(t) for t in tokens]
        if any(v is None or grade_problem(v) for v in values):
            return None
        return np.array(values, dtype=np.int64)

    return _dictionary_codes(column, decode)
