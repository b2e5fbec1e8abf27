"""Argument checks shared by every public function: one place, one wording.

Each check returns the cleaned value or raises :class:`irmeans.errors.IrmeansError`
with a message that names the argument and the value given.
"""

from __future__ import annotations

import numbers

import numpy as np
from numpy.typing import ArrayLike

from .errors import IrmeansError

__all__ = [
    "whole_number",
    "finite_number",
    "eps_value",
    "check_axis",
    "float_array",
    "first_index",
    "scores_array",
    "integer_array",
    "score_matrix",
]


def whole_number(value: object, name: str, *, minimum: int | None = None) -> int:
    """``value`` as an int if it is a whole number (``3`` or ``3.0``, not ``True``, ``2.5`` or ``"3"``).

    A Python int is taken as it is, however large (a float could not hold it exactly).
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise IrmeansError(f"{name} must be a whole number, got {value!r}")
    # int() takes any numbers.Real, but typeshed's Real.__trunc__ returns a protocol rather than int,
    # so mypy finds no overload of int() for it: hence the two ignores below.
    if not isinstance(value, (int, np.integer)) and (not np.isfinite(float(value)) or float(value) != int(value)):  # type: ignore[call-overload]
        raise IrmeansError(f"{name} must be a whole number, got {value!r}")
    out: int = int(value)  # type: ignore[call-overload]
    if minimum is not None and out < minimum:
        raise IrmeansError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    return out


def finite_number(value: object, name: str, *, minimum: float | None = None) -> float:
    """``value`` as a float if it is a finite real number (and ``>= minimum``)."""
    bound = "" if minimum is None else f" >= {minimum:g}"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise IrmeansError(f"{name} must be a finite number{bound}, got {value!r}")
    out = float(value)
    if not np.isfinite(out) or (minimum is not None and out < minimum):
        raise IrmeansError(f"{name} must be a finite number{bound}, got {value!r}")
    return out


def eps_value(eps: object) -> float:
    """ε: a finite number >= 0."""
    return finite_number(eps, "eps", minimum=0.0)


def check_axis(axis: object, ndim: int) -> int | None:
    """``axis`` if it is ``None`` or a whole number in [-ndim, ndim)."""
    if axis is None:
        return None
    axis = whole_number(axis, "axis")
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise IrmeansError(f"axis {axis} is out of range for an array of {ndim} dimension(s)")
    return axis


def first_index(mask: np.ndarray) -> int | tuple[int, ...]:
    """Index of the first True in ``mask``: an int for 1-d input, a tuple otherwise."""
    idx = np.unravel_index(int(np.argmax(mask)), mask.shape)
    return int(idx[0]) if len(idx) == 1 else tuple(int(i) for i in idx)


def float_array(x: ArrayLike, name: str, *, infinite: bool = False) -> np.ndarray:
    """``x`` as a float64 array, refusing masked arrays, non-numbers, NaN and (unless ``infinite``) ±inf."""
    if isinstance(x, np.ma.MaskedArray):
        raise IrmeansError(
            f"{name} is a masked array: fill or drop the masked values first (irmeans does not ignore a mask)"
        )
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise IrmeansError(f"{name} must be numbers, got {x!r:.80}") from None
    bad = np.isnan(a) if infinite else ~np.isfinite(a)
    if bad.any():
        where = first_index(bad)
        what = "numbers (not NaN)" if infinite else "finite numbers"
        raise IrmeansError(f"{name} at index {where} is {float(a[where])!r}: values must be {what}")
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


_INT64_MAX = np.iinfo(np.int64).max


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
                raise IrmeansError(f"{source}: row {i}: {name} {v} is out of range (64-bit integers)")
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
