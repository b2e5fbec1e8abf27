"""Robertson's check: does another scale for the scores change a comparison of two systems substantially?

Robertson (2006, §3) proposes putting the per-topic scores through nonlinear but strictly
increasing transformations before averaging them, and repeating the comparison with each:
"Good robustness would be indicated if the conclusions looked the same whatever
transformation we used". Every such transformation keeps each topic's order of the two
systems; what it changes is how much a change at one end of the scale counts against a
change at the other, and so the sign of the mean difference can flip.

:data:`FAMILY` is the stated family the check uses: the scales of averages (each asked for
its own, :attr:`irmeans.averages.Average.scale` and :meth:`~irmeans.averages.Average.transform`):
the scores themselves (the arithmetic mean), the log with several ε (the εGM's scale, from
trec_eval's 10⁻⁵ to 1), the log-odds with ε = 0.01 (the logit mean's, stretching both ends;
Robertson §4.2); and powers below and above 1. A member applies only where it is finite and
strictly increasing on the scores given (an average's scale on the scores it takes, the
powers on scores >= 0). :func:`sign_survives` says which members flip the sign of the mean
difference, for many pairs of systems at once.

Robertson asks whether transformations that would change the conclusions *substantially* are
"easy to find", and sets no bar for "substantially". A flip of a difference that is within the
noise of the topics changes nothing a reader should act on, so :func:`robertson_check` names,
for each pair, the first member that reverses the arithmetic mean's verdict, and counts that
reversal as substantial only when the reversed difference's own bootstrap interval (over
topics, at the comparison's level) excludes 0: a pair is robust when the arithmetic mean
prefers one system and no reversal is substantial. That rule is this library's reading of
Robertson, not his own.

>>> import numpy as np
>>> from irmeans.comparison.robustness import sign_survives
>>> a, b = np.array([[0.0, 0.9, 0.9, 0.9]]), np.array([[0.4, 0.4, 0.4, 0.4]])
>>> survives, reversed_by, used = sign_survives(a, b)
>>> bool(survives[0]), reversed_by[0][:2]
(False, ('log(x + 1e-05)', 'log(x + 0.001)'))
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .._numeric import TOLERANCE
from ..averages import AM, GM, Average, Logit

__all__ = [
    "Transform",
    "FAMILY",
    "sign_survives",
    "applicable",
    "robertson_check",
    "Robertson",
    "reversals",
    "Reversals",
    "reversal_intervals",
]


@dataclass(frozen=True)
class Transform:
    """One strictly increasing transformation g of the scores: a label, g, and the scores it takes."""

    label: str
    g: Callable[[np.ndarray], np.ndarray]
    #: Whether g is finite and strictly increasing on these scores (all of them at once).
    takes: Callable[[np.ndarray], bool]


def _scale_of(average: Average) -> Transform:
    """An average's own scale, on the scores it takes."""
    assert average.scale is not None  # every average of the family has one
    return Transform(
        average.scale, lambda x: np.asarray(average.transform(x)), lambda x: average.on_scale(x) is not None
    )


def _power(p: float) -> Transform:
    return Transform(f"x^{p:g}", lambda x: np.power(x, p), lambda x: bool((x >= 0).all()))


#: The family of :func:`sign_survives`, in order: the scores, logs, the log-odds, powers.
FAMILY: tuple[Transform, ...] = (
    _scale_of(AM()),
    *(_scale_of(GM(eps=eps)) for eps in (1e-5, 1e-3, 0.01, 0.1, 1.0)),
    _scale_of(Logit(eps=0.01)),
    *(_power(p) for p in (0.25, 0.5, 2.0, 4.0)),
)


def applicable(scores: np.ndarray, family: tuple[Transform, ...] = FAMILY) -> tuple[Transform, ...]:
    """The members of ``family`` that take every one of ``scores``."""
    x = np.asarray(scores, dtype=np.float64)
    return tuple(t for t in family if t.takes(x))


def _signs(ga: np.ndarray, gb: np.ndarray) -> np.ndarray:
    ma, mb = ga.mean(axis=-1), gb.mean(axis=-1)
    d = ma - mb
    tie = np.abs(d) <= TOLERANCE * np.maximum(np.abs(ma), np.abs(mb))
    return np.where(tie, 0, np.sign(d)).astype(np.int8)


def sign_survives(
    a: np.ndarray, b: np.ndarray, family: tuple[Transform, ...] = FAMILY
) -> tuple[np.ndarray, list[tuple[str, ...]], tuple[str, ...]]:
    """For each pair of rows of ``a`` and ``b`` (pairs, topics): is mean(g(a)) − mean(g(b)) of one sign for every g?

    Parameters
    ----------
    a, b : ndarray, shape (pairs, topics)
        Each pair's two systems, topic by topic.
    family : tuple of Transform
        The transformations tried (those that do not take the scores are left out).

    Returns
    -------
    survives : ndarray of bool, shape (pairs,)
        True where every transformation gives the same sign, and not 0.
    reversed_by : list of tuple of str
        For each pair, the transformations whose sign differs from the first one's (the
        scores themselves, the arithmetic mean), a tie counted as differing.
    used : tuple of str
        The labels of the transformations tried.
    """
    used = applicable(np.concatenate([a.ravel(), b.ravel()]), family)
    signs = np.stack([_signs(t.g(a), t.g(b)) for t in used])  # (transforms, pairs)
    survives = (signs == signs[0]).all(axis=0) & (signs[0] != 0)
    differs = signs != signs[0]
    labels = [t.label for t in used]
    reversed_by = [tuple(labels[k] for k in np.flatnonzero(differs[:, j])) for j in range(signs.shape[1])]
    return survives, reversed_by, tuple(labels)


@dataclass(frozen=True, eq=False)
class Robertson:
    """Robertson's check of many pairs: for each pair, the first transformation that reverses the arithmetic
    mean's verdict, its difference and interval, and whether the reversal is substantial.

    Attributes
    ----------
    robust : ndarray of bool, shape (pairs,)
        The arithmetic mean prefers one system, and no transformation reverses it substantially.
    reversed_by : tuple of str or None
        For each pair, the first transformation of ``family`` under which the other system is ahead, or None.
    difference, low, high : ndarray, shape (pairs,)
        That transformation's difference of means, A − B, on its own scale, and its bootstrap interval
        (NaN where nothing reverses the verdict).
    substantial : ndarray of bool, shape (pairs,)
        The reversal's interval excludes 0.
    family : tuple of str
        The transformations tried, in order (the first is the scores themselves).
    """

    robust: np.ndarray
    reversed_by: tuple[str | None, ...]
    difference: np.ndarray
    low: np.ndarray
    high: np.ndarray
    substantial: np.ndarray
    family: tuple[str, ...]


#: Values held at once by a block of the reversals' bootstrap (32 MiB of doubles).
_BLOCK_VALUES = 1 << 22


def _chunks(total: int, size: int) -> Iterator[slice]:
    size = max(1, size)
    for start in range(0, total, size):
        yield slice(start, min(total, start + size))


def reversal_intervals(d: np.ndarray, resamples: int, confidence: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Percentile bootstrap intervals of each row's mean of ``d`` (rows, topics): topics resampled with replacement,
    the same resamples for every row (drawn again from ``seed`` for each block of rows, so that memory stays
    bounded).

    >>> low, high = reversal_intervals(np.array([[0.1, 0.2, 0.3, 0.4]]), 500, 0.95, seed=1)
    >>> bool(0.1 <= low[0] < 0.25 < high[0] <= 0.4)
    True
    """
    rows, n = d.shape
    low, high = np.empty(rows), np.empty(rows)
    tail = (1 - confidence) / 2
    for part in _chunks(rows, _BLOCK_VALUES // resamples):
        rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(2)[1])
        means = np.empty((part.stop - part.start, resamples))
        for block in _chunks(resamples, _BLOCK_VALUES // n):
            m = block.stop - block.start
            drawn = rng.integers(0, n, size=(m, n))
            cells = (drawn + (np.arange(m) * n)[:, None]).ravel()
            times = np.bincount(cells, minlength=m * n).reshape(m, n).astype(np.float64)
            means[:, block] = (d[part] @ times.T) / n
        low[part], high[part] = np.quantile(means, [tail, 1 - tail], axis=1)
    return low, high


def robertson_check(
    a: np.ndarray,
    b: np.ndarray,
    *,
    resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
    family: tuple[Transform, ...] = FAMILY,
) -> Robertson:
    """Robertson's check for each pair of rows of ``a`` and ``b`` (pairs, topics): which transformation reverses
    the arithmetic mean's verdict first, and is the reversal substantial?

    Parameters
    ----------
    a, b : ndarray, shape (pairs, topics)
        Each pair's two systems, topic by topic.
    resamples : int, default 10 000
        Bootstrap resamples of the topics for the reversed difference's interval.
    confidence : float, default 0.95
        Level of that interval; the reversal is substantial when it excludes 0.
    seed : int, default 0
        Seed of the resamples (a stream of its own, not :func:`irmeans.compare`'s other streams).
    family : tuple of Transform
        The transformations tried, the scores themselves first (those that do not take the scores are left out).

    Returns
    -------
    Robertson

    Examples
    --------
    >>> import numpy as np
    >>> a = np.array([[0.0, 0.9, 0.9, 0.9, 0.9, 0.9], [0.5, 0.6, 0.7, 0.8, 0.1, 0.5]])
    >>> b = np.array([[0.4, 0.4, 0.4, 0.4, 0.4, 0.4], [0.4, 0.5, 0.6, 0.7, 0.2, 0.4]])
    >>> check = robertson_check(a, b, resamples=2000)
    >>> check.reversed_by, check.substantial.tolist(), check.robust.tolist()
    (('log(x + 1e-05)', None), [False, False], [True, True])
    """
    found = reversals(a, b, family)
    low, high = reversal_intervals(found.d, resamples, confidence, seed)
    return found.check(low, high)


@dataclass(frozen=True, eq=False)
class Reversals:
    """Each pair's first reversal of the arithmetic mean's verdict, before its interval: what
    :func:`robertson_check` bootstraps (:func:`irmeans.compare` does it on its own resamples).

    Attributes
    ----------
    am_sign : ndarray of int8, shape (pairs,)
        The arithmetic mean's verdict: +1 A, −1 B, 0 a tie.
    first : ndarray of int, shape (pairs,)
        The index in ``labels`` of the first transformation under which the other system is ahead, or −1.
    rows : ndarray of int
        The pairs with a reversal, in order.
    d : ndarray, shape (rows, topics)
        Those pairs' per-topic differences on their reversing scale, whose mean is the reversed difference.
    labels : tuple of str
        The transformations tried, in order.
    """

    am_sign: np.ndarray
    first: np.ndarray
    rows: np.ndarray
    d: np.ndarray
    labels: tuple[str, ...]

    def check(self, low: np.ndarray, high: np.ndarray) -> Robertson:
        """The check, given the interval of each reversed difference (``low``, ``high``: one per row of ``d``)."""
        n_pairs = self.first.size
        difference, lo, hi = np.full(n_pairs, np.nan), np.full(n_pairs, np.nan), np.full(n_pairs, np.nan)
        difference[self.rows], lo[self.rows], hi[self.rows] = self.d.mean(axis=1), low, high
        with np.errstate(invalid="ignore"):
            substantial = (self.first >= 0) & ((lo > 0) | (hi < 0))
        return Robertson(
            robust=(self.am_sign != 0) & ~substantial,
            reversed_by=tuple(self.labels[k] if k >= 0 else None for k in self.first.tolist()),
            difference=difference,
            low=lo,
            high=hi,
            substantial=substantial,
            family=self.labels,
        )


def reversals(a: np.ndarray, b: np.ndarray, family: tuple[Transform, ...] = FAMILY) -> Reversals:
    """Each pair's first reversal of the arithmetic mean's verdict (rows of ``a`` and ``b``, (pairs, topics)).

    >>> import numpy as np
    >>> found = reversals(np.array([[0.0, 0.9, 0.9, 0.9]]), np.array([[0.4, 0.4, 0.4, 0.4]]))
    >>> found.labels[found.first[0]], found.rows.tolist(), found.d.shape
    ('log(x + 1e-05)', [0], (1, 4))
    """
    used = applicable(np.concatenate([a.ravel(), b.ravel()]), family)
    signs = np.stack([_signs(t.g(a), t.g(b)) for t in used])  # (transforms, pairs)
    reverses = (signs == -signs[0]) & (signs[0] != 0)
    first = np.where(reverses.any(axis=0), reverses.argmax(axis=0), -1)
    rows = np.flatnonzero(first >= 0)
    d = np.empty((rows.size, a.shape[1]))
    for k, t in enumerate(used):  # each pair's differences on its first reversing scale
        picked = np.flatnonzero(first[rows] == k)
        if picked.size:
            d[picked] = t.g(a[rows[picked]]) - t.g(b[rows[picked]])
    return Reversals(signs[0], first, rows, d, tuple(t.label for t in used))
