"""Argument checks shared by every public function: one place, one wording.

Each check returns the cleaned value or raises :class:`irmeans.errors.IrmeansError`
with a message that names the argument and the value given.
"""

from __future__ import annotations

import numbers
import os
import sys
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from .errors import IrmeansError, shown_value

__all__ = [
    "whole_number",
    "finite_number",
    "eps_value",
    "check_axis",
    "float_array",
    "as_array",
    "is_decimal",
    "first_index",
    "scores_array",
    "integer_array",
    "score_matrix",
    "counts",
    "relevance_level",
    "random_generator",
    "split_count",
    "check_memory",
    "MAX_SPLITS",
]

#: The most random splits irmeans draws in one experiment (a billion already takes hours).
MAX_SPLITS = 10**9

_INT64_MAX = np.iinfo(np.int64).max


def whole_number(value: object, name: str, *, minimum: int | None = None, maximum: int | None = _INT64_MAX) -> int:
    """``value`` as an int if it is a whole number (``3``, ``3.0``, ``Decimal('3')``; not ``True``, ``2.5`` or
    ``"3"``) from ``minimum`` to ``maximum`` (by default the largest 64-bit integer, as every count and size
    that goes into an array must be; ``None`` for none, as for a seed, which any whole number makes).

    A Python int is taken as it is, however large (a float could not hold it exactly).
    """
    if isinstance(value, (bool, np.bool_)) or not _real(value):
        raise IrmeansError(f"{name} must be a whole number, got {shown_value(value)}")
    try:
        out = int(cast(Any, value))  # exact for ints, Fractions and Decimals of any size
        whole = bool(out == value)
    except (ArithmeticError, ValueError):  # inf, NaN (a signalling NaN raises when compared)
        whole = False
    if not whole:
        raise IrmeansError(f"{name} must be a whole number, got {shown_value(value)}")
    if minimum is not None and out < minimum:
        raise IrmeansError(f"{name} must be a whole number >= {minimum}, got {shown_value(value)}")
    if maximum is not None and out > maximum:
        bound = "2**63 - 1, the largest 64-bit integer" if maximum == _INT64_MAX else f"{maximum:,}"
        raise IrmeansError(f"{name} must be at most {bound}, got {shown_value(value)}")
    return out


def finite_number(value: object, name: str, *, minimum: float | None = None) -> float:
    """``value`` as a float if it is a finite real number that a double holds (and ``>= minimum``): ``0.5``,
    ``Fraction(1, 2)``, ``Decimal('0.5')``; not ``10**400``, ``True`` or ``"0.5"``."""
    bound = "" if minimum is None else f" >= {minimum:g}"
    if isinstance(value, (bool, np.bool_)) or not _real(value):
        raise IrmeansError(f"{name} must be a finite number{bound}, got {shown_value(value)}")
    try:
        out = float(cast(Any, value))
    except OverflowError:
        raise IrmeansError(
            f"{name} must be a finite number{bound} that a double holds, got {shown_value(value)}"
        ) from None
    if not np.isfinite(out) or (minimum is not None and out < minimum):
        raise IrmeansError(f"{name} must be a finite number{bound}, got {shown_value(value)}")
    return out


def eps_value(eps: object) -> float:
    """ε: a finite number >= 0 (-0 is 0)."""
    return finite_number(eps, "eps", minimum=0.0) + 0.0


def check_axis(axis: object, ndim: int) -> int | None:
    """``axis`` if it is ``None`` or a whole number in [-ndim, ndim)."""
    if axis is None:
        return None
    axis = whole_number(axis, "axis")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise IrmeansError(f"axis {shown_value(axis)} is out of range for an array of {ndim} dimension(s)")
    return axis


def first_index(mask: np.ndarray) -> int | tuple[int, ...]:
    """Index of the first True in ``mask``: an int for 1-d input, a tuple otherwise."""
    idx = np.unravel_index(int(np.argmax(mask)), mask.shape)
    return int(idx[0]) if len(idx) == 1 else tuple(int(i) for i in idx)


_KINDS = {"U": "strings", "S": "bytes", "c": "complex numbers", "M": "dates", "m": "time spans", "V": "records"}


def as_array(x: object, name: str) -> np.ndarray:
    """``np.asarray(x)``, or the library's error for what numpy cannot make an array of: ragged or too deeply
    nested lists (numpy takes at most 64 dimensions), numbers beyond its types, an iterator (read as one object).
    """
    if isinstance(x, Iterator):
        raise IrmeansError(f"{name} must be an array or a sequence, got an iterator ({type(x).__name__})")
    try:
        return np.asarray(x)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        deep = "dimension" in str(exc) or isinstance(exc, RecursionError)
        what = "nested at most 64 deep (numpy's most dimensions)" if deep else "in a rectangular array"
        raise IrmeansError(f"{name} must be numbers {what}, got {shown_value(x)}") from None


def is_decimal(v: object) -> bool:
    """Whether ``v`` is a ``decimal.Decimal`` (a SQL NUMERIC column's numbers), without importing decimal (which
    ``irmeans eval`` never needs): if nothing imported it, nothing made a Decimal."""
    module = sys.modules.get("decimal")
    return module is not None and isinstance(v, module.Decimal)


def _real(v: object) -> bool:
    return isinstance(v, numbers.Real) or is_decimal(v)


def float_array(x: ArrayLike, name: str, *, infinite: bool = False) -> np.ndarray:
    """``x`` as a float64 array, refusing masked arrays, non-numbers, NaN and (unless ``infinite``) ±inf.

    Real numbers of any numpy or Python type are taken (booleans as 0 and 1); strings, even of
    digits (numpy would read ``'1_0'`` as 10), complex numbers, dates and anything else are not.
    """
    if isinstance(x, np.ma.MaskedArray):
        raise IrmeansError(
            f"{name} is a masked array: fill or drop the masked values first (irmeans does not ignore a mask)"
        )
    raw = as_array(x, name)
    kind = raw.dtype.kind
    if kind in _KINDS:
        raise IrmeansError(f"{name} must be numbers, got {_KINDS[kind]}: {shown_value(x)}")
    if kind == "O":
        flat = raw.ravel().tolist()
        for i, v in enumerate(flat):
            if not _real(v):
                where = first_index(np.arange(raw.size).reshape(raw.shape) == i) if raw.ndim else 0
                raise IrmeansError(f"{name} must be numbers, got {shown_value(v)} at index {where}")
    try:
        a = raw.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        raise IrmeansError(f"{name} must be numbers that fit in a double, got {shown_value(x)}") from None
    bad = np.isnan(a) if infinite else ~np.isfinite(a)
    if bad.any():
        where = first_index(bad)
        what = "numbers (not NaN)" if infinite else "finite numbers"
        given = raw[where] if kind == "O" else float(a[where])  # 10**400 or Decimal('1e400') as given, not inf
        if kind == "O" and np.isinf(a[where]) and not (isinstance(given, float) and np.isinf(given)):
            what += " a double holds"
        raise IrmeansError(f"{name} at index {where} is {shown_value(given)}: values must be {what}")
    return a


def scores_array(x: ArrayLike, axis: object) -> tuple[np.ndarray, int | None]:
    """Scores to average and their ``axis``: a float64 array (a scalar becomes one score) and a checked axis.

    Refuses what :func:`float_array` refuses, an axis out of range, and an empty set of scores.
    """
    a = float_array(x, "score")
    if a.ndim == 0:
        a = a.reshape(1)
    axis = check_axis(axis, a.ndim)
    if axis is not None and a.shape[axis] == 0:
        raise IrmeansError(f"cannot average an empty set of scores along axis {axis}")
    if a.size == 0:
        raise IrmeansError("cannot average an empty set of scores")
    return a, axis


def integer_array(x: ArrayLike, name: str, source: str = "<arrays>") -> np.ndarray:
    """``x`` as a 1-d int64 array of whole numbers (``2`` or ``2.0``), refusing masked arrays and anything else.

    The message names ``source``, the row (counted from 0) and the value: not an integer,
    or out of the range of 64-bit integers.
    """
    if isinstance(x, np.ma.MaskedArray):
        raise IrmeansError(f"{source}: {name} is a masked array: fill or drop the masked values first")
    a = np.asarray(x)
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.round(a))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise IrmeansError(f"{source}: row {i}: {name} {float(a[i])!r} is not an integer")
        big = np.abs(a) >= 2.0**63
        if big.any():
            i = int(np.flatnonzero(big)[0])
            raise IrmeansError(f"{source}: row {i}: {name} {float(a[i])!r} is out of range (64-bit integers)")
    elif a.dtype.kind == "u":
        big = a > _INT64_MAX
        if big.any():
            i = int(np.flatnonzero(big)[0])
            raise IrmeansError(f"{source}: row {i}: {name} {int(a[i])} is out of range (64-bit integers)")
    elif a.dtype.kind == "O":
        for i, v in enumerate(a.tolist()):
            if not isinstance(v, (int, np.integer)) or isinstance(v, (bool, np.bool_)):
                raise IrmeansError(f"{source}: row {i}: {name} {v!r} is not an integer")
            if not -_INT64_MAX - 1 <= v <= _INT64_MAX:
                raise IrmeansError(f"{source}: row {i}: {name} {shown_value(v)} is out of range (64-bit integers)")
    elif a.dtype.kind not in "ib":
        raise IrmeansError(f"{source}: {name} values must be integers")
    return a.astype(np.int64).reshape(-1)


def score_matrix(x: ArrayLike, name: str = "score") -> np.ndarray:
    """A systems × topics matrix of scores: a 2-d float64 array of finite numbers, at least 2 × 2.

    Refuses what :func:`float_array` refuses (masked arrays, words, NaN, ±inf) and any other shape.
    """
    a = float_array(x, name)
    if a.ndim != 2:
        raise IrmeansError(f"{name}s must be a 2-d systems × topics array, got shape {a.shape}")
    if a.shape[0] < 2 or a.shape[1] < 2:
        raise IrmeansError(f"{name}s needs at least 2 systems and 2 topics, got shape {a.shape}")
    return a


def counts(value: object, name: str, shape: tuple[int, ...] = ()) -> np.ndarray:
    """Whole numbers >= 0 that fit in 64 bits, one or an array that broadcasts to ``shape``: an int64 array.

    >>> counts(3, "num_relevant").tolist(), counts([1, 2.0], "num_relevant", (2,)).tolist()
    (3, [1, 2])
    """
    if not isinstance(value, (np.ndarray, list, tuple)):
        n = whole_number(value, name, minimum=0, maximum=None)
        if n > _INT64_MAX:
            raise IrmeansError(f"{name}={shown_value(n)} is out of range (64-bit integers)")
        return np.asarray(n, dtype=np.int64)
    if isinstance(value, np.ma.MaskedArray):
        raise IrmeansError(f"{name} is a masked array: fill or drop the masked values first")
    raw = as_array(value, name)
    if raw.ndim == 0:
        return counts(raw.item(), name, shape)
    kind = raw.dtype.kind
    if kind == "O" and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in raw.ravel().tolist()):
        if any(not 0 <= v <= _INT64_MAX for v in raw.ravel().tolist()):
            raise IrmeansError(f"{name} must be whole numbers >= 0 that fit in 64 bits, got {shown_value(value)}")
        raw = raw.astype(np.int64)
        kind = "i"
    if kind == "f":
        ok = np.isfinite(raw) & (raw == np.floor(raw)) & (raw >= 0) & (raw < 2.0**63)
    elif kind in "iu":
        ok = (raw >= 0) & (raw <= _INT64_MAX)
    else:
        raise IrmeansError(f"{name} must be whole numbers >= 0, got {shown_value(value)}")
    if not ok.all():
        where = first_index(~ok)
        raise IrmeansError(
            f"{name} must be whole numbers >= 0 that fit in 64 bits; at index {where} it is {raw[where]!r}"
        )
    try:
        fits = np.broadcast_shapes(raw.shape, shape) == tuple(shape)
    except ValueError:
        fits = False
    if not fits:
        raise IrmeansError(f"{name} has shape {raw.shape}, which does not match the rankings' shape {tuple(shape)}")
    return raw.astype(np.int64)


def relevance_level(level: object) -> float:
    """The least relevance value that counts as relevant: a finite number (``level=nan`` would count nothing)."""
    return finite_number(level, "level")


def random_generator(seed: object, name: str = "seed") -> np.random.Generator:
    """A numpy Generator from ``seed``: None, a whole number >= 0 (or a sequence of them), or a Generator.

    >>> float(random_generator(3).random()) == float(np.random.default_rng(3).random())
    True
    """
    if seed is None or isinstance(seed, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)):
        return np.random.default_rng(seed)
    if isinstance(seed, (list, tuple)) and seed:
        return np.random.default_rng(
            [whole_number(v, f"{name} (each of its numbers)", minimum=0, maximum=None) for v in seed]
        )
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Real):
        raise IrmeansError(f"{name} must be a whole number >= 0 or a numpy Generator, got {shown_value(seed)}")
    return np.random.default_rng(whole_number(seed, name, minimum=0, maximum=None))


def check_memory(nbytes: float, what: str) -> None:
    """Refuse, before allocating, an array larger than the machine's memory (where it can be known)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not a POSIX system
        return
    if total > 0 and nbytes > total:  # nbytes may be a whole number beyond any double's range
        shown = _size(float(nbytes)) if nbytes < 2**1000 else "more bytes than a double can count"
        raise IrmeansError(f"{what} would take {shown}, more than this machine's {_size(total)} of memory")


def _size(nbytes: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if nbytes < 1024 or unit == "PiB":
            return f"{nbytes:.0f} {unit}" if unit == "bytes" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    raise AssertionError  # pragma: no cover


def split_count(value: object, name: str = "n_splits") -> int:
    """A number of random splits: a whole number from 1 to :data:`MAX_SPLITS`."""
    n = whole_number(value, name, minimum=1, maximum=None)
    if n > MAX_SPLITS:
        raise IrmeansError(f"{name}={shown_value(n)} is more than the {MAX_SPLITS:,} splits irmeans draws")
    return n
