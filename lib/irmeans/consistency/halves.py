"""The two halves of the topics that a split-half experiment compares.

:func:`draw_halves` draws random splits; :func:`difficulty_halves` makes the
one split by topic difficulty (hardest against easiest, or the middle against
the rest) and :func:`make_halves` makes either kind from a score matrix.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike

from .._numeric import dense_ranks
from .._validation import check_memory, float_array, random_generator, score_matrix, split_count, whole_number
from ..errors import IrmeansError, shown_count, shown_value
from .topics import topic_difficulty

__all__ = ["draw_halves", "SPLIT_KINDS", "difficulty_halves", "make_halves"]

# Random halves are drawn in blocks of about this many topic draws (splits ×
# topics), so that memory stays bounded whatever the number of splits.
_DRAW_VALUES = 1 << 20

#: The kinds of split :func:`make_halves` makes.
SPLIT_KINDS = ("random", "hard-easy", "middle-rest")


def draw_halves(
    n_topics: int, n_splits: int, rng: np.random.Generator | int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Random splits of the topics 0 … n_topics − 1 into two halves.

    Each split is a uniformly random permutation of the topics (the argsort
    of ``n_topics`` uniform draws from ``rng``); its first ``n_topics // 2``
    topics are the first half and the rest the second, so with an odd number
    of topics the second half has one more. Each half is returned sorted.

    Parameters
    ----------
    n_topics : int
        Number of topics, at least 2.
    n_splits : int
        Number of splits, from 1 to a billion (and the halves must fit in memory:
        :func:`irmeans.split_half` draws and uses them block by block instead).
    rng : numpy.random.Generator or int or None
        The generator, or a seed (a whole number >= 0) for ``numpy.random.default_rng``.

    Returns
    -------
    first, second : ndarray of int, shapes (n_splits, n_topics // 2) and (n_splits, n_topics - n_topics // 2)

    Examples
    --------
    >>> first, second = draw_halves(5, 3, rng=0)
    >>> first.shape, second.shape
    ((3, 2), (3, 3))
    >>> sorted(first[0].tolist() + second[0].tolist())
    [0, 1, 2, 3, 4]
    """
    n_topics = whole_number(n_topics, "n_topics", minimum=2, maximum=None)  # too many: check_memory says so
    n_splits = split_count(n_splits)
    generator = random_generator(rng, "rng")
    check_memory(
        n_splits * n_topics * np.dtype(np.intp).itemsize,
        f"the halves of {shown_count(n_splits)} split(s) of {shown_count(n_topics)} topics",
    )
    h = n_topics // 2
    first = np.empty((n_splits, h), dtype=np.intp)
    second = np.empty((n_splits, n_topics - h), dtype=np.intp)
    for start, a, b in _random_halves(n_topics, n_splits, generator):
        first[start : start + len(a)] = a
        second[start : start + len(b)] = b
    return first, second


def _random_halves(
    n_topics: int, n_splits: int, rng: np.random.Generator
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """The halves of :func:`draw_halves`, drawn in blocks of splits: (first split's index, first, second).

    The uniform draws of a block of rows are the next rows of the one draw of
    all splits (the generator fills an array in row order), so the halves
    are the same; only a block's draws and sorts are in memory at a time.
    """
    h = n_topics // 2
    step = max(1, _DRAW_VALUES // n_topics)
    for start in range(0, n_splits, step):
        order = np.argsort(rng.random((min(step, n_splits - start), n_topics)), axis=1)
        yield start, np.sort(order[:, :h], axis=1), np.sort(order[:, h:], axis=1)


def difficulty_halves(difficulty: ArrayLike, kind: str = "hard-easy") -> tuple[np.ndarray, np.ndarray]:
    """The two halves of a split by topic difficulty (Ravana & Moffat 2009, §5.4).

    Topics are ranked from hardest (highest difficulty) to easiest; topics
    of equal difficulty (equal within irmeans' tolerance, see
    :mod:`irmeans._numeric`) keep their order. With t topics and h = t // 2:

    - ``"hard-easy"``: the h hardest against the other t − h;
    - ``"middle-rest"``: the h middle topics against the ⌊(t − h) / 2⌋
      hardest and the rest of the easiest (for 50 topics: the 25 middle
      against the 12 hardest and the 13 easiest).

    Parameters
    ----------
    difficulty : array_like, shape (topics,)
        As from :func:`topic_difficulty`.
    kind : {"hard-easy", "middle-rest"}

    Returns
    -------
    first, second : ndarray of int, shape (1, h) and (1, t − h)
        One split, each half sorted, ready for :func:`halves_tau`.

    Examples
    --------
    >>> first, second = difficulty_halves([0.1, 0.9, 0.5, 0.7, 0.3, 0.2])
    >>> first.tolist(), second.tolist()
    ([[1, 2, 3]], [[0, 4, 5]])
    >>> halves = difficulty_halves([0.1, 0.9, 0.5, 0.7, 0.3, 0.2], "middle-rest")
    >>> [h.tolist() for h in halves]
    [[[2, 3, 4]], [[0, 1, 5]]]
    """
    d = float_array(difficulty, "difficulty")
    if d.ndim != 1 or d.size < 2:
        raise IrmeansError(f"difficulty must be a 1-d array of at least 2 topics, got shape {d.shape}")
    t = d.size
    h = t // 2
    order = np.argsort(-dense_ranks(d), kind="stable")  # hardest first
    if kind == "hard-easy":
        first, second = order[:h], order[h:]
    elif kind == "middle-rest":
        k = (t - h) // 2
        first, second = order[k : k + h], np.concatenate([order[:k], order[k + h :]])
    else:
        raise IrmeansError(f"kind must be 'hard-easy' or 'middle-rest', got {kind!r}")
    return np.sort(first)[None, :], np.sort(second)[None, :]


def make_halves(
    scores: ArrayLike,
    kind: str = "random",
    n_splits: int = 10_000,
    seed: int | np.random.Generator | None = None,
    *,
    difficulty: str = "eq2",
) -> tuple[np.ndarray, np.ndarray]:
    """The halves of a split-half experiment of any kind in :data:`SPLIT_KINDS`.

    ``"random"`` draws ``n_splits`` random halves (:func:`draw_halves` with
    ``seed``); the other kinds make the one split by the ``difficulty`` of the
    topics in ``scores`` (:func:`topic_difficulty`, :func:`difficulty_halves`),
    and ignore ``n_splits`` and ``seed``.

    Examples
    --------
    >>> s = [[0.1, 0.5, 0.0, 0.4], [0.2, 0.6, 0.0, 0.3], [0.9, 0.7, 0.3, 0.5]]
    >>> [h.shape for h in make_halves(s, "random", 5, seed=1)]
    [(5, 2), (5, 2)]
    >>> [h.tolist() for h in make_halves(s, "hard-easy")]
    [[[0, 2]], [[1, 3]]]
    """
    s = score_matrix(scores)
    if kind == "random":
        return draw_halves(s.shape[1], n_splits, random_generator(seed))
    if kind not in SPLIT_KINDS:
        raise IrmeansError(f"split kind must be one of {', '.join(SPLIT_KINDS)}, got {shown_value(kind)}")
    return difficulty_halves(topic_difficulty(s, difficulty), kind)
