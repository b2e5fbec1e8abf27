"""trec_eval's number syntax, read strictly: what C's ``strtod``/``strtol`` read in full.

trec_eval reads scores with ``atof``, grades, ``-l``, ``-M`` and cutoffs with ``atol``: a
token is read up to its first character that does not fit, so ``1_0`` is read as 1 and ``x``
as 0.  Python reads ``1_0`` as 10.  irmeans accepts a token only if C would read all of it,
and then reads the same value; anything else is refused with a message, never read differently.

>>> c_float("-1.5e-3"), c_float("0x1.8p1"), c_int("+7")
(-0.0015, 3.0, 7)
>>> c_float("1_0") is None, c_int("1_0") is None, c_int("1.0") is None
(True, True, True)

Grades are read by :func:`c_grade`, which also takes a whole number written as a decimal
(``1.0``, ``1e0``) when ``atol`` reads the same whole number from it, and :func:`grade_problem`
says which grades are out of range.
"""

from __future__ import annotations

import re

__all__ = ["c_float", "c_int", "c_grade", "grade_problem", "FLOAT_CHARS", "INT64_MAX", "MAX_GRADE"]

INT64_MAX = (1 << 63) - 1
#: The highest grade irmeans counts with: trec_eval sizes its table of grades by the highest
#: grade + 1, which a grade of 2**63 - 1 overflows (trec_eval then fails on every measure).
MAX_GRADE = INT64_MAX - 1

_DECIMAL = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_HEX = re.compile(rb"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?")
_SPECIAL = re.compile(rb"[+-]?(?:inf|infinity|nan(?:\([0-9a-zA-Z_]*\))?)", re.IGNORECASE)
_INT = re.compile(rb"[+-]?[0-9]+")
_INT_PREFIX = re.compile(rb"[+-]?[0-9]+")

#: The bytes of a plain decimal or e-notation number: a token of only these that Python's
#: ``float`` (or numpy) reads in full is read in full, to the same double, by C's ``strtod``.
FLOAT_CHARS = b"0123456789+-.eE"


def _bytes(text) -> bytes:
    return text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)


def c_float(text) -> float | None:
    """The value C's ``strtod`` reads from all of ``text``, or None if it would stop early.

    Decimal, e-notation and hexadecimal (``0x1.8p1``) forms are read; ``inf``, ``infinity``
    and ``nan`` in any case are read as such, and so is a number too large for a double
    (``1e400`` is ``inf``, as for ``strtod``).  Python-only forms (``1_0``, surrounding
    blanks) give None.

    Examples
    --------
    >>> c_float("2."), c_float(".5"), c_float("1e"), c_float(" 1")
    (2.0, 0.5, None, None)
    """
    b = _bytes(text)
    if _DECIMAL.fullmatch(b):
        return float(b)
    if _HEX.fullmatch(b):
        s = b.decode("ascii")
        neg = s.startswith("-")
        s = s.lstrip("+-")
        if "p" not in s.lower():
            s += "p0"
        value = float.fromhex(s)
        return -value if neg else value
    if _SPECIAL.fullmatch(b):
        low = b.lower().lstrip(b"+-")
        sign = -1.0 if b.startswith(b"-") else 1.0
        return sign * (float("inf") if low.startswith(b"inf") else float("nan"))
    return None


def c_int(text) -> int | None:
    """The integer of ``text`` if it is ``[+-]digits`` (what C's ``strtol`` reads in full), else None.

    The value is not bounded here; callers check the range they need.

    Examples
    --------
    >>> c_int("-2"), c_int("007"), c_int("2.0"), c_int("")
    (-2, 7, None, None)
    """
    b = _bytes(text)
    return int(b) if _INT.fullmatch(b) else None


def c_grade(text) -> int | None:
    """A relevance grade as trec_eval's ``atol`` reads it, or None if irmeans could read it differently.

    ``[+-]digits`` is read as it is.  A decimal or e-notation number is read when it is a
    whole number and ``atol``, which stops at the first character that is not a digit, reads
    the same whole number from it: ``1.0`` and ``1e0`` are 1, but ``1.5`` (``atol``: 1, a
    silent truncation) and ``1e1`` (``atol``: 1, not 10) are refused.  The value is not
    bounded here (see :func:`grade_problem`).

    Examples
    --------
    >>> c_grade("2"), c_grade("2.0"), c_grade("-1e0"), c_grade("1.5"), c_grade("1e1"), c_grade("inf")
    (2, 2, -1, None, None, None)
    >>> c_grade("9223372036854775807.0"), c_grade(".0")
    (9223372036854775807, None)
    """
    value = c_int(text)
    if value is not None:
        return value
    b = _bytes(text)
    if not _DECIMAL.fullmatch(b):
        return None
    from decimal import Decimal  # the exact value of the token (a double could round a long one)

    head = _INT_PREFIX.match(b)
    if head is None or Decimal(b.decode("ascii")) != int(head.group()):
        return None
    return int(head.group())


def grade_problem(value: int) -> str | None:
    """What is wrong with a grade's value (for a message), or None if irmeans can count with it.

    Examples
    --------
    >>> grade_problem(3) is None, grade_problem(-2) is None
    (True, True)
    >>> grade_problem(2**63 - 1)
    'is too large (the highest grade irmeans and trec_eval count with is 9223372036854775806)'
    """
    if not -INT64_MAX - 1 <= value <= INT64_MAX:
        return "is out of range (64-bit integers)"
    if value > MAX_GRADE:
        return f"is too large (the highest grade irmeans and trec_eval count with is {MAX_GRADE})"
    return None
