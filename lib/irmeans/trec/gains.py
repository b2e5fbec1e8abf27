"""trec_eval's gains: the ``GRADE=GAIN`` parameters of the nDCG family and rbp, and its table of gains.

A grade's gain is the grade itself unless a parameter names it (``ndcg.1=0,2=5``).  trec_eval
keeps, for each topic, a table of the grades 0 .. highest judged with their gains, sorts it by
gain with glibc's ``qsort`` (a stable merge sort) and a comparison that truncates the difference
of two gains to an integer, and walks it from the highest gain down to build the ideal ranking;
:func:`gain_walk` does the same.  :func:`gain_range` gives the table's lowest and highest gain
(rbp rescales the gains to [0, 1] when they leave it) without listing the table.

>>> g = Gains([("1", 0.5), ("3", 9.0)])
>>> [(level, gain) for _, level, gain in gain_walk(g, 4, {0, 1, 2, 3})]
[(3, 9.0), (2, 2.0), (0, 0.0), (1, 0.5)]

(Gains of 0.5 and 0 differ by less than 1, so trec_eval's comparison holds them equal.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from ..number_syntax import c_int

__all__ = ["Gains", "c_long", "gain_walk", "gain_range", "MANY_LEVELS"]

#: Beyond this many grades, only the grades judged somewhere take part in the sort.
MANY_LEVELS = 10_000

_T = TypeVar("_T")


class Gains:
    """trec_eval's ``rel_level=gain`` parameters (``ndcg.1=3.5,2=9``).

    Parameters
    ----------
    pairs : sequence of (str, float)
        The parsed ``name=value`` pairs in the order given.  Names that are
        integers (``[+-]digits``) set the gain of that grade (the first pair
        for a grade wins); other names are not gains (``rbp``'s ``p``).

    Examples
    --------
    >>> g = Gains([("1", 0.0), ("2", 5.0), ("p", 0.5), ("2", 7.0)])
    >>> g.levels, g.value("p", 0.9)
    ({1: 0.0, 2: 5.0}, 0.5)
    """

    def __init__(self, pairs: Iterable[tuple[str, float]] = (), shift: int = 0) -> None:
        self.pairs = tuple(pairs)
        #: Every gain is multiplied by 2**shift once trec_eval's ideal order is found (:meth:`for_ratios`).
        self.shift = shift
        # (level, gain) of the integer-named pairs, in order (duplicates kept)
        self.entries: list[tuple[int, float]] = []
        for name, value in self.pairs:
            level = c_int(name)  # [+-]digits, of any length (trec_eval's atol saturates)
            if level is not None:
                self.entries.append((level, float(value)))
        self.levels: dict[int, float] = {}
        for level, gain in self.entries:
            self.levels.setdefault(level, gain)

    def value(self, name: str, default: float) -> float:
        """The last value given for ``name`` (trec_eval reads ``p`` that way), else ``default``."""
        out = default
        for n, v in self.pairs:
            if n == name:
                out = float(v)
        return out

    def key(self) -> tuple[tuple[tuple[int, float], ...], int]:
        """A hashable key of these gains (their entries and shift): equal gains, equal keys."""
        return tuple(self.entries), self.shift

    def for_ratios(self) -> Gains:
        """These gains for a ratio of two DCGs (nDCG and its kin), which any common factor leaves as it is:
        gains near the largest double (``ndcg.1=1e308,2=1e308``) scaled down by a power of two, so that their
        sums do not overflow to inf (inf / inf printed -nan; trec_eval prints 0), and gains near the
        smallest scaled up, so that theirs do not vanish. A power of two scales every gain and every sum
        exactly: the nDCG of ``1e308`` for every grade is the binary nDCG, as it is for ``1`` for every grade.
        Ordinary gains (from 2**-500 to 2**500) are left as they are, to the last bit.

        >>> Gains([("1", 1e308), ("2", 1e308)]).for_ratios().shift, Gains([("1", 1e-320)]).for_ratios().shift
        (-1024, 1063)
        """
        largest = max((abs(gain) for _, gain in self.entries), default=0.0)
        if largest == 0 or 2.0**-500 <= largest <= 2.0**500 or not math.isfinite(largest):
            return self
        return Gains(self.pairs, shift=-math.frexp(largest)[1])


def c_long(x: float) -> int:
    """C's conversion of a double to int: truncation toward zero."""
    return int(x) if math.isfinite(x) else 0


def _msort(items: Sequence[_T], cmp: Callable[[_T, _T], int]) -> list[_T]:
    """glibc's ``qsort`` (a top-down merge sort, stable) with comparison ``cmp``."""
    n = len(items)
    if n <= 1:
        return list(items)
    n1 = n // 2
    a, b = _msort(items[:n1], cmp), _msort(items[n1:], cmp)
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if cmp(a[i], b[j]) <= 0:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]


def gain_walk(gains: Gains, n_levels: int, present: Iterable[int]) -> list[tuple[int, int, float]]:
    """trec_eval's gain table of a topic with grades 0 .. n_levels - 1, from the highest gain down.

    Returns ``[(index, level, gain)]`` in walk order, ``index`` being the entry's place in
    the unsorted table (where the topic's count of a grade is kept: the first entry of it).
    """
    table = list(gains.entries)
    named = {lv for lv, _ in table}
    grades = range(n_levels) if n_levels <= MANY_LEVELS else sorted(present)
    table += [(i, float(i)) for i in grades if i not in named]
    indexed = [(k, lv, g) for k, (lv, g) in enumerate(table)]
    ordered = _msort(indexed, lambda x, y: c_long(x[2] - y[2]))
    return ordered[::-1]


def gain_range(gains: Gains, n_levels: int) -> tuple[float, float]:
    """Lowest and highest gain of trec_eval's gain table for grades 0 .. n_levels - 1 (and 0.0).

    The table holds the named gains and every unnamed grade as its own gain; its extremes
    come from the named ones and the lowest and highest unnamed grades, without listing the
    grades (a grade of 10**15 is a table of 10**15 entries in trec_eval).  The 0.0 stands
    for trec_eval's starting minimum and maximum, which it leaves uninitialised (0 in practice).
    """
    named = set(gains.levels)
    values = [gain for _, gain in gains.entries] + [0.0]
    low = next((i for i in range(len(named) + 1) if i not in named), None)
    high = next((n_levels - 1 - i for i in range(len(named) + 1) if n_levels - 1 - i not in named), None)
    for grade in (low, high):
        if grade is not None and 0 <= grade < n_levels:
            values.append(float(grade))
    return min(values), max(values)
