"""numpy and pyarrow sharing memory: the helpers the reader and the ranking stage both use.

pyarrow has no type stubs, so its objects are ``Any`` to a type checker; the aliases below
say which is meant.  :func:`primitive` and :func:`offsets` view a pyarrow array's buffers as
numpy arrays (no copy, no pandas import), :func:`binary_column` and :func:`numbers_column`
go the other way, and :func:`release_memory` gives back to the system what pyarrow has freed.
Nothing here imports pyarrow at the top: a caller that uses it has imported it already.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy as np
from numpy.typing import DTypeLike

from .strings import Strings

__all__ = [
    "ArrowArray",
    "ArrowColumn",
    "ArrowTable",
    "primitive",
    "offsets",
    "binary_column",
    "numbers_column",
    "release_memory",
]

#: A pyarrow ``Array``: one chunk of a column.
ArrowArray: TypeAlias = Any
#: A pyarrow ``ChunkedArray``: a column of a table.
ArrowColumn: TypeAlias = Any
#: A pyarrow ``Table``.
ArrowTable: TypeAlias = Any


def primitive(chunk: ArrowArray, dtype: DTypeLike) -> np.ndarray:
    """A pyarrow array of fixed-width values without nulls, as numpy (no copy)."""
    size = np.dtype(dtype).itemsize
    return np.frombuffer(chunk.buffers()[1], dtype=dtype, count=len(chunk), offset=chunk.offset * size)


def offsets(chunk: ArrowArray) -> np.ndarray:
    """The int32 offsets of a binary array chunk (``len + 1`` of them)."""
    buf = chunk.buffers()[1]
    return np.frombuffer(buf, dtype=np.int32, count=len(chunk) + 1, offset=4 * chunk.offset)


def numbers_column(values: np.ndarray) -> ArrowArray:
    """A numpy array of int32, int64 or float64 as a pyarrow array on the same memory."""
    import pyarrow as pa

    kind = {np.dtype(np.int32): pa.int32(), np.dtype(np.int64): pa.int64(), np.dtype(np.float64): pa.float64()}
    values = np.ascontiguousarray(values)
    return pa.Array.from_buffers(kind[values.dtype], len(values), [None, pa.py_buffer(values)])


def binary_column(strings: Strings) -> ArrowArray:
    """Strings as a pyarrow binary array (copied end to end first if they are not stored so)."""
    import pyarrow as pa

    ends = strings.offsets()
    if ends is None:
        strings = strings.compact()
        ends = strings.offsets()
        assert ends is not None  # compact strings are end to end
    big = int(ends[-1]) >= np.iinfo(np.int32).max
    kind, width = (pa.large_binary(), np.int64) if big else (pa.binary(), np.int32)
    data = np.ascontiguousarray(strings.data)
    return pa.Array.from_buffers(kind, len(strings), [None, pa.py_buffer(ends.astype(width)), pa.py_buffer(data)])


def release_memory() -> None:
    """Give the memory pyarrow has freed back to the system (its pool keeps it otherwise)."""
    import pyarrow as pa

    pa.system_memory_pool().release_unused()
