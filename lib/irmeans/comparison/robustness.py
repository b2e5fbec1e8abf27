"""Robertson's check: does a difference between two systems survive other scales for the scores?

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
powers on scores >= 0). :func:`sign_survives` runs the check for many pairs of systems at once.

>>> import numpy as np
>>> from irmeans.comparison.robustness import sign_survives
>>> a, b = np.array([[0.0, 0.9, 0.9, 0.9]]), np.array([[0.4, 0.4, 0.4, 0.4]])
>>> survives, reversed_by, used = sign_survives(a, b)
>>> bool(survives[0]), reversed_by[0][:2]
(False, ('log(x + 1e-05)', 'log(x + 0.001)'))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .._numeric import TOLERANCE
from ..averages import AM, GM, Average, Logit

__all__ = ["Transform", "FAMILY", "sign_survives", "applicable"]


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
