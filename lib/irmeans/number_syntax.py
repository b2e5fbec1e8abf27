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
from typing import Any, Protocol, SupportsInt

import numpy as np

from .errors import IrmeansError, shown_token

__all__ = [
    "c_float",
    "c_int",
    "MOST_DIGITS",
    "c_grade",
    "c_floats",
    "grade_problem",
    "number_field",
    "BadNumber",
    "FLOAT_CHARS",
    "INT64_MAX",
    "MAX_GRADE",
]

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


def _bytes(text: str | bytes) -> bytes:
    return text.encode("utf-8", "surrogateescape") if isinstance(text, str) else bytes(text)


def c_float(text: str | bytes) -> float | None:
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


def c_int(text: str | bytes) -> int | None:
    """The integer of ``text`` if it is ``[+-]digits`` (what C's ``strtol`` reads in full), else None.

    The value is not bounded here; callers check the range they need.

    Examples
    --------
    >>> c_int("-2"), c_int("007"), c_int("2.0"), c_int("")
    (-2, 7, None, None)
    """
    b = _bytes(text)
    if not _INT.fullmatch(b):
        return None
    digits = b.lstrip(b"+-").lstrip(b"0")
    if len(digits) > MOST_DIGITS:  # past Python's limit on reading digits (4,300): beyond any range anyway
        far: int = 10**MOST_DIGITS
        return -far if b.startswith(b"-") else far
    return int(b)


#: Integers of more digits than this are read as 10**MOST_DIGITS (with their sign): far beyond any range
#: irmeans takes (64 bits), and short enough for Python to turn into text (at most 4,300 digits).
MOST_DIGITS = 1000


def c_grade(text: str | bytes) -> int | None:
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
    if head is None:
        return None
    whole = c_int(head.group())  # saturated past MOST_DIGITS digits, as Decimal's exponent then tells
    if whole is None or Decimal(b.decode("ascii")) != Decimal(head.group().decode("ascii")):
        return None
    return whole


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


# Score and grade tokens longer than this are read one by one.
_SHORT_NUMBER = 40
_POW10 = 10.0 ** np.arange(16)
# _LOW_BYTES[k] keeps the first k bytes of a little-endian 64-bit word
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


class LineNumbers(Protocol):
    """Line numbers of rows: a numpy array, or anything indexed like one."""

    def __getitem__(self, i: Any) -> Any: ...


class BadNumber(IrmeansError):
    """A score or grade that is not read (see :func:`number_field`), with its line."""

    def __init__(self, message: str, line: SupportsInt) -> None:
        super().__init__(message)
        self.message, self.line = message, line


_ALL_BITS = np.uint64(0xFFFFFFFFFFFFFFFF)


def _gather(buf: np.ndarray, s: np.ndarray, e: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Tokens ``buf[s:e]`` as a zero-padded ``S{8k}`` array, its (n, k) words and lengths.

    Each token is one unaligned read of 8k bytes at its offset, cleared past
    its end with 64-bit masks: no per-byte indexing.  ``buf`` must hold 8k
    readable bytes after the last token start (the chunk's slack).
    """
    n = len(s)
    lengths = e - s
    if n == 0:
        return np.zeros(0, "S8"), np.zeros((0, 1), "<u8"), lengths
    short, width = int(lengths.min()), int(lengths.max())
    k = -(-width // 8)
    if int(s[-1]) + 8 * k > len(buf):  # pragma: no cover - a token longer than the slack
        buf = np.concatenate((buf, np.zeros(8 * k, np.uint8)))
    at = np.ndarray(shape=(len(buf) - 8 * k + 1,), dtype=f"S{8 * k}", buffer=buf, strides=(1,))
    text = at[s]
    words = text.view("<u8").reshape(n, k)
    for j in range(k):
        lo, hi = short - 8 * j, width - 8 * j
        if lo >= 8:
            continue
        if lo == hi:
            words[:, j] &= _ALL_BITS >> np.uint64(64 - 8 * lo)
        else:
            # the mask of word j for each possible token length
            table = _LOW_BYTES[np.clip(np.arange(width + 1) - 8 * j, 0, 8)]
            words[:, j] &= table[lengths]
    return text, words, lengths


# A double rounding to 64 bits, then to 53, is a correct rounding unless the first lands on a
# midpoint of two doubles: an 80-bit (or wider) long double reads up to 19 digits with one division.
_EXTENDED = np.finfo(np.longdouble).nmant >= 63
_POW10_INT = np.array([10**k for k in range(20)], dtype=np.uint64)
_POW10_LONG = np.array([10**k for k in range(20)], dtype=np.longdouble) if _EXTENDED else None


def _decimal(words: np.ndarray, lengths: np.ndarray, fraction: bool) -> tuple[np.ndarray, np.ndarray]:
    """Parse ``[+-]digits`` (and a ``.`` among them if ``fraction``) from token words.

    Returns the values (float64 if ``fraction``, else int64) and a mask of the tokens parsed;
    the others (exponents, ``inf``, too many digits, junk) are left to Python's parser.  With
    at most 15 digits the mantissa and the power of ten are exact doubles, so one division
    gives the correctly rounded value, as ``float()`` does.  With 16 to 19 digits (a double
    written in full takes 17) the division is made in the long double where it has a 64-bit
    mantissa, whose one rounding is then a correct one unless the quotient lands exactly
    between two doubles; those few are left to Python's parser too.
    """
    n = len(lengths)
    width = min(int(lengths.max()) if n else 0, 40)
    by_place = np.ascontiguousarray(words.view(np.uint8).reshape(n, -1)[:, :width].T)  # a row per place
    c0 = by_place[0] if width else np.zeros(n, np.uint8)
    neg = c0 == 45
    signed = neg | (c0 == 43)
    mantissa = np.zeros(n, dtype=np.uint64)
    digits = np.zeros(n, dtype=np.uint8)
    dots = np.zeros(n, dtype=np.uint8)
    after_dot = np.zeros(n, dtype=np.uint8)
    value = np.empty(n, dtype=np.uint8)
    is_digit = np.empty(n, dtype=bool)
    for c in by_place:  # Horner's rule, a place of every token at a time, where the byte is a digit
        np.subtract(c, np.uint8(48), out=value)  # a digit's value; any other byte is 10 or more
        np.less(value, 10, out=is_digit)
        np.multiply(mantissa, np.uint64(10), out=mantissa, where=is_digit)
        np.add(mantissa, value, out=mantissa, where=is_digit, casting="unsafe")
        digits += is_digit
        if fraction:
            after_dot += is_digit & (dots > 0)
            dots += c == 46
    longest = 19 if fraction and _EXTENDED else 15 if fraction else 18
    ok = (digits > 0) & (digits <= longest) & (dots <= 1)
    ok &= digits.astype(np.int64) + dots + signed == lengths
    if not fraction:
        whole = mantissa.astype(np.int64)
        np.negative(whole, out=whole, where=neg)
        return whole, ok
    values = mantissa.astype(np.float64)
    values /= _POW10[np.minimum(after_dot, 15)]
    long = ok & (digits > 15)
    if long.any():
        assert _POW10_LONG is not None  # long tokens are taken only with the long double
        q = mantissa[long].astype(np.longdouble) / _POW10_LONG[after_dot[long]]
        near = q.astype(np.float64)
        midpoint = np.abs(q - near.astype(np.longdouble)) * 2 == np.spacing(np.abs(near)).astype(np.longdouble)
        values[long] = near
        ok[np.flatnonzero(long)[midpoint]] = False
    np.negative(values, out=values, where=neg)
    return values, ok


_FLOAT_TABLE = np.zeros(256, dtype=bool)
_FLOAT_TABLE[np.frombuffer(FLOAT_CHARS, dtype=np.uint8)] = True
_FLOAT_TABLE[0] = True  # the zero padding after a token


def number_field(
    buf: np.ndarray, s: np.ndarray, e: np.ndarray, line_numbers: LineNumbers, fraction: bool
) -> np.ndarray:
    """The tokens ``buf[s:e]`` as scores (float64, ``fraction``) or grades (int64), read strictly.

    Plain decimals are read in numpy, many at a time (:func:`_decimal`); any other token
    by :func:`c_float` or :func:`c_grade`.  A token C would read differently, or not at
    all, raises :class:`BadNumber` with its line (from ``line_numbers``).
    """
    lengths = e - s
    short = lengths <= _SHORT_NUMBER
    values = np.zeros(len(s), dtype=np.float64 if fraction else np.int64)
    rows = None if short.all() else np.flatnonzero(short)
    if rows is not None and not len(rows):  # every token is long (a run printed with %.40f): one by one
        slow = _slow_scores if fraction else _slow_grades
        return slow(buf, s, e, line_numbers) if len(s) else values
    ss, ee = (s, e) if rows is None else (s[rows], e[rows])
    text, words, toklen = _gather(buf, ss, ee)
    got, ok = _decimal(words, toklen, fraction)
    if rows is None:
        values[:] = got
    else:
        values[rows] = got
    if ok.all() and rows is None:
        return values
    bad = np.flatnonzero(~ok) if rows is None else rows[~ok]
    if fraction and len(bad):
        chars = words[~ok].view(np.uint8).reshape(int((~ok).sum()), -1)
        plain = _FLOAT_TABLE[chars].all(axis=1)
        if plain.all():
            try:
                with np.errstate(over="ignore"):  # 1e400 is inf, as for strtod
                    vals = text[~ok].astype(np.float64)
                if not np.isnan(vals).any():
                    values[bad] = vals
                    bad = bad[:0]
            except ValueError:
                pass
    if rows is not None:
        bad = np.union1d(bad, np.flatnonzero(~short))
    slow = _slow_scores if fraction else _slow_grades
    if len(bad):
        values[bad] = slow(buf, s[bad], e[bad], line_numbers[bad])
    return values


def _slow_scores(buf: np.ndarray, s: np.ndarray, e: np.ndarray, line_numbers: LineNumbers) -> np.ndarray:
    out = np.empty(len(s))
    for i, (a, b) in enumerate(zip(s.tolist(), e.tolist())):
        token = buf[a:b].tobytes()
        value = c_float(token)
        shown = shown_token(token[:60]) + ("..." if len(token) > 60 else "")
        if value is None:
            raise BadNumber(f"score {shown!r} is not a number", line_numbers[i])
        if value != value:  # trec_eval's sort has no order for NaN: its ranking would be arbitrary
            raise BadNumber(f"score {shown!r} is not a number (NaN cannot be ranked)", line_numbers[i])
        out[i] = value
    return out


def _slow_grades(buf: np.ndarray, s: np.ndarray, e: np.ndarray, line_numbers: LineNumbers) -> np.ndarray:
    out = np.empty(len(s), dtype=np.int64)
    for i, (a, b) in enumerate(zip(s.tolist(), e.tolist())):
        token = buf[a:b].tobytes()
        value = c_grade(token)
        shown = shown_token(token[:60]) + ("..." if len(token) > 60 else "")
        if value is None:
            raise BadNumber(f"relevance {shown!r} is not an integer", line_numbers[i])
        problem = grade_problem(value)
        if problem:
            raise BadNumber(f"relevance {shown!r} {problem}", line_numbers[i])
        out[i] = value
    return out


_PLAIN_TEXT = re.compile(r"[0-9+\-.eE]*")


def c_floats(texts: list[str]) -> tuple[np.ndarray, int]:
    """The values C's ``strtod`` reads from each of ``texts`` in full, and the index of the first it would not.

    The index is -1 when every text is read; values from that index on are then not set.
    Plain decimals (only the characters of :data:`FLOAT_CHARS`) are read by numpy all at
    once, anything else one by one by :func:`c_float`.

    Examples
    --------
    >>> values, bad = c_floats(["0.5", "1e-3", "0x1p-1"])
    >>> values.tolist(), bad
    ([0.5, 0.001, 0.5], -1)
    >>> c_floats(["0.5", "1_0", "x"])[1]
    1
    """
    if _PLAIN_TEXT.fullmatch("".join(texts)):
        try:
            return np.array(texts, dtype=np.float64), -1
        except ValueError:  # an empty text, or '1e': found below
            pass
    values = np.zeros(len(texts))
    for i, text in enumerate(texts):
        value = c_float(text)
        if value is None:
            return values, i
        values[i] = value
    return values, -1
