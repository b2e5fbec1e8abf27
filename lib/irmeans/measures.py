"""Per-topic effectiveness measures of one ranked list (the teaching API).

Every function takes ``rels``: the relevance values of the retrieved
documents in rank order, 0/1 or graded, as an array of shape ``(..., n)``.
A 1-d array is one ranking and gives a float; a stack of rankings (leading
axes) gives an array over the leading axes, so a table of every setting of a
figure is one call. A document is relevant when its value is ``>= level``.

``num_relevant`` (R) is the number of relevant documents the topic has,
retrieved or not, from its judgments; every measure that divides by R needs
it. It has no default: taking R to be the relevant documents retrieved would
leave out, silently, those the ranking missed, which is what trec_eval,
ir_measures and ranx never do (chapter 2). Relevant documents that were never
retrieved add precision 0 to Average Precision, as in trec_eval. Arguments that are not what they should be (a
``level`` that is not a finite number, a ``num_relevant`` that does not match the
rankings) raise :class:`irmeans.errors.IrmeansError` naming the argument.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike

from ._numeric import safe_div
from ._validation import as_array, counts, finite_number, float_array, relevance_level, whole_number
from .errors import IrmeansError, shown_value

#: A score: a float for one ranking, an array for a stack of rankings.
Score = float | np.ndarray

__all__ = [
    "average_precision",
    "reciprocal_rank",
    "precision_at",
    "recall_at",
    "r_precision",
    "ndcg",
    "expected_reciprocal_rank",
    "precision_recall_points",
    "interpolated_precision",
    "ap_unretrieved_at_end",
    "expected_ap_random_order",
    "STANDARD_RECALL_LEVELS",
]

#: The eleven recall levels 0.0, 0.1, ..., 1.0 of the classic interpolated curve: k / 10 exactly as
#: floats go (``linspace`` gives 0.6000000000000001, above the recall 3/5 of a ranking that reaches 0.6).
STANDARD_RECALL_LEVELS = np.arange(11) / 10


def _relevance(rels: ArrayLike) -> np.ndarray:
    """Relevance values as a float array of at least one dimension, checked."""
    if not isinstance(rels, np.ma.MaskedArray) and as_array(rels, "rels").ndim == 0:
        raise IrmeansError("rels must be a sequence of relevance values in rank order, got a scalar")
    return float_array(rels, "relevance value")


def _relevant(rels: ArrayLike, level: object) -> np.ndarray:
    """Boolean relevance at each rank: a value at least ``level``."""
    level = relevance_level(level)
    return _relevance(rels) >= level


def _hits(rels: ArrayLike, level: object) -> tuple[np.ndarray, np.ndarray]:
    """Boolean relevance at each rank and the count of relevant documents down to each rank."""
    rel = _relevant(rels, level)
    return rel, np.cumsum(rel, axis=-1)


def _num_relevant(num_relevant: ArrayLike | None, rel: np.ndarray, measure: str) -> np.ndarray | np.integer[Any]:
    """R for each ranking: the given value, checked (it is required: see the module's text)."""
    retrieved: np.ndarray | np.integer[Any] = rel.sum(axis=-1)  # a numpy integer for one ranking
    if num_relevant is None:
        raise IrmeansError(
            f"{measure} needs num_relevant: R, the topic's relevant documents, retrieved or not, from its "
            "judgments (taking R to be those retrieved would leave out the ones the ranking missed); if every "
            "relevant document was retrieved, R is the number in the ranking"
        )
    R = counts(num_relevant, "num_relevant", rel.shape[:-1])
    if np.any(R < retrieved):
        raise IrmeansError(
            f"num_relevant={shown_value(num_relevant)} is smaller than the {int(np.max(retrieved))} relevant "
            "documents retrieved"
        )
    return np.broadcast_to(R, retrieved.shape) if R.ndim else R


def _result(x: ArrayLike) -> Score:
    x = np.asarray(x)
    return float(x) if x.ndim == 0 else x


def average_precision(rels: ArrayLike, num_relevant: ArrayLike | None = None, *, level: float = 1) -> Score:
    """Non-interpolated Average Precision.

    The mean, over the R relevant documents, of the precision at the rank of
    each; a relevant document never retrieved adds precision 0.

    Parameters
    ----------
    rels : array_like, shape (..., n)
        Relevance values in rank order.
    num_relevant : int or array_like
        R, the topic's relevant documents, retrieved or not (from its judgments, as
        trec_eval takes it); required.
    level : float, default 1
        The least value counted as relevant.

    Returns
    -------
    float or ndarray
        AP in [0, 1]; 0 when nothing relevant is retrieved or R = 0.

    Examples
    --------
    >>> round(average_precision([1, 0, 1, 0, 0], num_relevant=4), 4)
    0.4167
    >>> # every relevant document retrieved:
    >>> round(average_precision([1, 0, 1, 0, 0], num_relevant=2), 4)
    0.8333
    """
    rel, hits = _hits(rels, level)
    R = _num_relevant(num_relevant, rel, "average_precision")
    ranks = np.arange(1, rel.shape[-1] + 1)
    return _result(safe_div(np.sum(np.where(rel, hits / ranks, 0.0), axis=-1), R))


def reciprocal_rank(rels: ArrayLike, *, level: float = 1) -> Score:
    """Reciprocal of the rank of the first relevant document; 0 if none.

    Examples
    --------
    >>> reciprocal_rank([0, 0, 1, 1])
    0.3333333333333333
    >>> reciprocal_rank([0, 0, 0])
    0.0
    """
    rel = _relevant(rels, level)
    if rel.shape[-1] == 0:
        return _result(np.zeros(rel.shape[:-1]))
    first = np.argmax(rel, axis=-1) + 1
    return _result(np.where(rel.any(axis=-1), 1.0 / first, 0.0))


def _check_k(k: object) -> int:
    return whole_number(k, "the cutoff k", minimum=1)


def precision_at(rels: ArrayLike, k: int, *, level: float = 1) -> Score:
    """Precision at cutoff k: relevant documents in the top k, divided by k.

    The divisor is k even when fewer than k documents were retrieved, as in
    trec_eval's ``P_k``.

    Examples
    --------
    >>> precision_at([1, 0, 1], 2)
    0.5
    >>> precision_at([1, 0, 1], 10)
    0.2
    """
    k = _check_k(k)
    rel = _relevant(rels, level)
    return _result(rel[..., :k].sum(axis=-1) / k)


def recall_at(rels: ArrayLike, k: int, num_relevant: ArrayLike | None = None, *, level: float = 1) -> Score:
    """Recall at cutoff k: relevant documents in the top k, divided by R (``num_relevant``, required).

    Examples
    --------
    >>> recall_at([1, 0, 1], 2, num_relevant=4)
    0.25
    """
    k = _check_k(k)
    rel = _relevant(rels, level)
    R = _num_relevant(num_relevant, rel, "recall_at")
    return _result(safe_div(rel[..., :k].sum(axis=-1), R))


def r_precision(rels: ArrayLike, num_relevant: ArrayLike | None = None, *, level: float = 1) -> Score:
    """Precision at rank R, where R (``num_relevant``, required) is the number of relevant documents.

    At rank R precision equals recall, so R-precision is also the recall
    reached by the time R documents have been seen.

    Examples
    --------
    >>> r_precision([1, 0, 1, 1, 0], num_relevant=4)
    0.75
    """
    rel, hits = _hits(rels, level)
    R = _num_relevant(num_relevant, rel, "r_precision")
    n = rel.shape[-1]
    if n == 0:
        return _result(np.zeros(R.shape))
    at = np.clip(np.minimum(R, n) - 1, 0, None)[..., None]
    found = np.take_along_axis(hits, at, axis=-1)[..., 0]
    return _result(safe_div(np.where(R > 0, found, 0), R))


def ndcg(rels: ArrayLike, judged: ArrayLike | None = None) -> Score:
    """Normalised Discounted Cumulative Gain as trec_eval defines ``ndcg``.

    The gain of a document is its relevance value (negative values gain 0),
    discounted by log2(rank + 1); the ideal ranking orders every judged
    document of the topic by gain, retrieved or not. No cutoff.

    Parameters
    ----------
    rels : array_like, shape (..., n)
        Relevance values of the retrieved documents in rank order.
    judged : array_like, optional
        Relevance values of all the topic's judged documents, for the ideal
        ranking; defaults to ``rels`` (everything relevant was retrieved).
        Every retrieved document with a gain is one of them, so for every
        grade g ``judged`` holds at least as many documents of gain >= g as
        ``rels`` does; judgments that do not (fewer than the ranking shows)
        are refused, since their ideal ranking would score below the ranking
        itself and nDCG above 1.

    Examples
    --------
    >>> round(ndcg([0, 2, 1], judged=[2, 1, 1, 0]), 4)
    0.5627
    """
    gains = np.maximum(_relevance(rels), 0.0)
    ideal = gains if judged is None else np.maximum(_relevance(judged), 0.0)
    ideal = -np.sort(-ideal, axis=-1)
    if judged is not None:
        _check_judged(gains, ideal)
    dcg = np.sum(gains / np.log2(np.arange(2, gains.shape[-1] + 2)), axis=-1)
    idcg = np.sum(ideal / np.log2(np.arange(2, ideal.shape[-1] + 2)), axis=-1)
    return _result(safe_div(dcg, idcg))


def _check_judged(gains: np.ndarray, ideal: np.ndarray) -> None:
    """Refuse judgments (sorted gains ``ideal``) holding fewer documents of some gain or more than ``gains`` do."""
    shown = -np.sort(-gains, axis=-1)
    width = max(shown.shape[-1], ideal.shape[-1])
    shown = np.pad(shown, [(0, 0)] * (shown.ndim - 1) + [(0, width - shown.shape[-1])])
    ideal = np.pad(ideal, [(0, 0)] * (ideal.ndim - 1) + [(0, width - ideal.shape[-1])])
    try:
        shown, ideal = np.broadcast_arrays(shown, ideal)
    except ValueError:
        raise IrmeansError(f"rels and judged must stack alike: shapes {gains.shape} and {ideal.shape}") from None
    short = shown > ideal
    if short.any():
        where = np.unravel_index(int(np.argmax(short)), short.shape)
        lead, g = where[:-1], float(shown[where])
        have, need = int((ideal[lead] >= g).sum()), int((shown[lead] >= g).sum())
        at = f" in ranking {tuple(int(i) for i in lead)}" if lead else ""
        raise IrmeansError(
            f"judged holds {have} document(s) of gain >= {g:g} but rels retrieves {need}{at}: the judgments "
            "must include every retrieved document's grade"
        )


def expected_reciprocal_rank(rels: ArrayLike, k: int | None = None, *, max_grade: float | None = None) -> Score:
    r"""Expected Reciprocal Rank (ERR) of a graded ranking, down to rank ``k``.

    A user reads down the ranking and stops at the document at rank r with
    probability R_r = (2^g − 1) / 2^g_max, g its grade (negative grades count
    as 0) and g_max the highest grade of the scale; ERR is the expected
    reciprocal rank of the document where the user stops:

    .. math::

        \mathrm{ERR} = \sum_r \frac{1}{r} \, R_r \prod_{i<r} (1 - R_i).

    A document of the highest grade satisfies with probability 1 − 2^−g_max,
    not 1; documents below a satisfying one count for less, unlike nDCG.

    Parameters
    ----------
    rels : array_like, shape (..., n)
        Grades of the retrieved documents in rank order.
    k : int, optional
        Cutoff (ERR@k); the whole ranking by default.
    max_grade : float, optional
        g_max, the top of the grading scale; by default the highest grade in ``rels``.

    Examples
    --------
    >>> # 3/4 + (1/4)(1)(1/4)/3
    >>> round(expected_reciprocal_rank([2, 0, 1], max_grade=2), 4)
    0.7708
    """
    g = np.maximum(_relevance(rels), 0.0)
    if k is not None:
        g = g[..., : whole_number(k, "k", minimum=1)]
    top = float(np.max(g, initial=0.0)) if max_grade is None else finite_number(max_grade, "max_grade", minimum=0)
    if top == 0:
        return _result(np.zeros(g.shape[:-1]))
    if (g > top).any():
        raise IrmeansError(f"a grade is above max_grade={top:g}")
    ranks = np.arange(1, g.shape[-1] + 1)
    with np.errstate(under="ignore"):  # tiny probabilities of reaching far down: 0, as they should
        # (2^g − 1) / 2^top, written so that a grade past 1023 (2^g = inf) does not make it NaN
        stop = np.exp2(g - top) - np.exp2(-top)
        reach = np.cumprod(np.concatenate([np.ones(g.shape[:-1] + (1,)), 1.0 - stop[..., :-1]], axis=-1), axis=-1)
        return _result(np.sum(stop * reach / ranks, axis=-1))


def precision_recall_points(
    rels: ArrayLike, num_relevant: ArrayLike | None = None, *, level: float = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Recall and precision after each rank of the ranking (recall over R, ``num_relevant``, required).

    Returns
    -------
    recall, precision : ndarray, shape (..., n)

    Examples
    --------
    >>> r, p = precision_recall_points([1, 0, 1], num_relevant=4)
    >>> r.tolist(), p.round(3).tolist()
    ([0.25, 0.25, 0.5], [1.0, 0.5, 0.667])
    """
    rel, hits = _hits(rels, level)
    R = _num_relevant(num_relevant, rel, "precision_recall_points")
    precision = hits / np.arange(1, rel.shape[-1] + 1)
    recall = safe_div(hits, np.asarray(R)[..., None])
    return recall, precision


def interpolated_precision(
    rels: ArrayLike,
    num_relevant: ArrayLike | None = None,
    recall_levels: ArrayLike | None = None,
    *,
    level: float = 1,
) -> np.ndarray:
    """Interpolated precision: the best precision at any recall >= each level.

    This is the interpolation trec_eval's ``iprec_at_recall`` states in its
    help, Int_Prec(rank X) = max Prec(rank Y) over all Y >= X, read at each
    recall level; at a level no rank reaches, it is 0. trec_eval's code
    differs in where it starts: it takes the best precision from the k-th
    relevant document on, with k = round(level · R), so for a level between
    two recall steps it may count a precision this definition does not (the
    evaluator, :func:`irmeans.evaluate`, follows trec_eval's code).

    Parameters
    ----------
    num_relevant : int or array_like
        R, the topic's relevant documents, retrieved or not; required.
    recall_levels : array_like, optional
        Defaults to :data:`STANDARD_RECALL_LEVELS` (0.0, 0.1, ..., 1.0).

    Returns
    -------
    ndarray, shape (..., len(recall_levels))

    Examples
    --------
    >>> levels = [0.0, 0.5, 1.0]
    >>> p = interpolated_precision([0, 1, 1], num_relevant=2, recall_levels=levels)
    >>> p.round(3).tolist()
    [0.667, 0.667, 0.667]
    """
    levels = STANDARD_RECALL_LEVELS if recall_levels is None else float_array(recall_levels, "recall level").reshape(-1)
    _num_relevant(num_relevant, _relevant(rels, level), "interpolated_precision")  # R is required
    recall, precision = precision_recall_points(rels, num_relevant, level=level)
    reached = recall[..., None, :] >= levels[:, None]
    return cast(np.ndarray, np.max(np.where(reached, precision[..., None, :], 0.0), axis=-1, initial=0.0))


def _unretrieved(
    rels: ArrayLike, num_relevant: ArrayLike | None, collection_size: ArrayLike, level: float
) -> tuple[np.ndarray | np.floating[Any], np.ndarray, np.ndarray | np.integer[Any], np.ndarray, int, np.ndarray]:
    """Shared set-up of the two lower bounds: rel, hits, R, m missing, n, N."""
    rel, hits = _hits(rels, level)
    R = _num_relevant(num_relevant, rel, "the bounds on AP")
    n = rel.shape[-1]
    found = hits[..., -1] if n else np.zeros(R.shape, dtype=np.int64)
    m = R - found
    N = counts(collection_size, "collection_size", np.shape(R))
    if np.any(N < n + m):
        raise IrmeansError(
            f"collection_size={collection_size!r} is smaller than the {n} retrieved documents "
            "plus the relevant documents not retrieved"
        )
    ranks = np.arange(1, n + 1)
    retrieved_sum = np.sum(np.where(rel, hits / ranks, 0.0), axis=-1)
    return retrieved_sum, found, R, m, n, N


def ap_unretrieved_at_end(
    rels: ArrayLike, num_relevant: ArrayLike, collection_size: ArrayLike, *, level: float = 1
) -> Score:
    """AP with the unretrieved relevant documents placed at the very end.

    Robertson (2006, §4.1): if the system ranked the whole collection of N
    documents, the worst it could have done is put the R − r relevant
    documents it did not retrieve at ranks N − m + 1, ..., N. The result is
    a deterministic lower bound on that system's full-ranking AP, never 0
    when R > 0.

    Parameters
    ----------
    rels : array_like, shape (..., n)
        Relevance values of the retrieved documents in rank order.
    num_relevant : int or array_like
        R, the topic's relevant documents.
    collection_size : int
        N, the documents in the collection.

    Examples
    --------
    >>> ap = ap_unretrieved_at_end([0, 0, 0], num_relevant=1, collection_size=1000)
    >>> round(ap, 6)
    0.001
    """
    retrieved_sum, found, R, m, n, N = _unretrieved(rels, num_relevant, collection_size, level)
    j = np.arange(1, int(np.max(m, initial=0)) + 1)
    m_, found_, N_ = (np.asarray(v)[..., None] for v in (m, found, N))
    tail = np.sum(np.where(j <= m_, (found_ + j) / (N_ - m_ + j), 0.0), axis=-1)
    return _result(safe_div(retrieved_sum + tail, R))


def expected_ap_random_order(
    rels: ArrayLike, num_relevant: ArrayLike, collection_size: ArrayLike, *, level: float = 1
) -> Score:
    """Expected AP when the unretrieved documents follow in random order.

    Robertson (2006, §4.1): the N − n documents not retrieved are appended
    below the ranking in a uniformly random order, and the m relevant ones
    among them fall where chance puts them. The expectation is exact: with
    L = N − n and r relevant retrieved, the document at tail position p is
    relevant with probability m/L, and then has on average
    1 + (p − 1)(m − 1)/(L − 1) relevant documents at or above it in the tail,
    which sums in closed form through harmonic numbers.

    Examples
    --------
    >>> ap = expected_ap_random_order([0, 0, 0], num_relevant=1, collection_size=4)
    >>> round(ap, 6)
    0.25
    """
    retrieved_sum, found, R, m, n, N = _unretrieved(rels, num_relevant, collection_size, level)
    L = N - n
    # S0 = sum_{p=1..L} 1/(n+p) = H(N) - H(n); S1 = sum_{p=1..L} (p-1)/(n+p).
    from scipy.special import digamma  # here, not at the top: `import irmeans` stays light

    S0 = digamma(N + 1.0) - digamma(n + 1.0)
    S1 = L - (n + 1) * S0
    pairs = safe_div((m - 1) * S1, L - 1)
    tail = safe_div(m * ((found + 1) * S0 + pairs), L)
    # an AP is at most 1; the harmonic numbers' rounding could otherwise put it a hair above
    return _result(np.minimum(safe_div(retrieved_sum + tail, R), 1.0))
