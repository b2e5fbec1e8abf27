"""Robertson's check: does a difference between two systems survive other scales for the scores?

Robertson (2006, §3) proposes putting the per-topic scores through nonlinear but strictly
increasing transformations before averaging them, and repeating the comparison with each:
"Good robustness would be indicated if the conclusions looked the same whatever
transformation we used". Every such transformation keeps each topic's order of the two
systems; what it changes is how much a change at one end of the scale counts against a
change at the other, and so the sign of the mean difference can flip.

:data:`FAMILY` is the stated family the check uses: the scores themselves (the arithmetic
mean), the log with several ε (the εGM's scale, from trec_eval's 10⁻⁵ to 1), the logit with
ε = 0.01 (log-odds, stretching both ends; Robertson §4.2) and powers below and above 1.
A member applies only where it is finite and strictly increasing on the scores given (the
logit on [0, 1], the powers on scores >= 0). :func:`sign_survives` runs the check for many
pairs of systems at once.

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
from ..averages import GM, Logit

__all__ = ["Transform", "FAMILY", "sign_survives", "applicable"]


@dataclass(frozen=True)
class Transform:
    """One strictly increasing transformation g of the scores: a label, g, and the scores it takes."""

    label: str
    g: Callable[[np.ndarray], np.ndarray]
    #: Whether g is finite and strictly increasing on these scores (all of them at once).
    takes: Callable[[np.ndarray], bool]


def _log(eps: float) -> Transform:
    return Transform(f"log(x + {eps:g})", GM(eps=eps).transform, lambda x: bool((x + eps > 0).all()))


def _power(p: float) -> Transform:
    return Transform(f"x^{p:g}", lambda x: np.power(x, p), lambda x: bool((x >= 0).all()))


_LOGIT_EPS = 0.01

#: The family of :func:`sign_survives`, in order: the scores, logs, the logit, powers.
FAMILY: tuple[Transform, ...] = (
    Transform("x", lambda x: np.asarray(x, dtype=np.float64), lambda x: True),
    *(_log(eps) for eps in (1e-5, 1e-3, 0.01, 0.1, 1.0)),
    Transform(
        f"logit (ε = {_LOGIT_EPS:g})",
        Logit(eps=_LOGIT_EPS).transform,
        lambda x: bool(((x >= 0) & (x <= 1)).all()),
    ),
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
