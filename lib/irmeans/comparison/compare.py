"""Compare systems under several averages at once: differences, paired tests, intervals and verdicts.

:func:`compare` takes a systems × topics matrix (a :class:`~irmeans.score_matrix.ScoreMatrix`,
from :func:`irmeans.evaluate_runs`, :func:`irmeans.datasets.load` or your own scores) and,
for every pair of systems (or each system against a baseline) and every average:

- the difference of the two systems' averages, with a bootstrap confidence interval over
  topics (the topics resampled with replacement, both systems on the same resample);
- the paired t-test on the average's own scale: on g(x), the transform of which the
  average is an increasing function of the mean (:meth:`irmeans.Average.transform`: x for
  the AM, log(x + ε) for the εGM, the log-odds for the logit mean), so that a GM is tested
  on the logs it averages;
- Fisher's paired randomization test of the same difference: each topic's pair of scores
  swapped or not, by random sign vectors shared by every pair and average (seeded), or by
  every one of the 2**n when that is no more than asked for. Since the sum of g over both
  systems does not change when a topic's scores are swapped, the average's difference is
  an increasing function of the mean difference of g: testing one is testing the other;
- the sign test, the same under every average (only the signs of the differences count);

then Holm's correction over all the comparisons each test made, a verdict for each pair
(which system each average prefers, and whether the averages disagree), and Robertson's
check: which transformation of the family of :mod:`irmeans.comparison.robustness` first reverses
the arithmetic mean's verdict, and does it reverse it substantially (the reversed difference's
own bootstrap interval excluding 0)? The result is a
:class:`~irmeans.comparison.result.Comparison`, which prints as a table and writes Markdown,
LaTeX, CSV, JSON and a plot.

The default averages are the AM, the εGM with ε = 0.01 added (chapter 10's advice for a
GM) and the logit mean with ε = 0.01: the first counts a change the same anywhere on the
scale, the second stretches the low end where failures lie, the third both ends
(Robertson 2006, §4.2) — three questions, each with a transform, so every test runs on
every one of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from .._numeric import TOLERANCE
from .._python_input import is_frame
from .._validation import check_memory, finite_number, float_array, whole_number
from ..averages import Average, parse_averages
from ..errors import IrmeansError
from ..score_matrix import ScoreMatrix
from .result import Comparison, Tests
from .robustness import Robertson, reversal_intervals, reversals
from .significance import (
    FLOOR_SHARE,
    SignTest,
    choose_test,
    count_at_least,
    flip_count,
    holm,
    paired_t_test,
    randomization_p,
    sign_flips,
    sign_test,
)

__all__ = ["compare", "work", "DEFAULT_AVERAGES", "TESTS", "FLOOR_SHARE", "MAX_COMPARISONS"]

#: The averages :func:`compare` uses unless told otherwise.
DEFAULT_AVERAGES = ("am", "gm:0.01", "logit:0.01")
#: The tests a verdict can rest on; ``auto`` is the randomization test, or the t-test when the randomization
#: test's smallest Holm-adjusted p-value is not well below α (:data:`FLOOR_SHARE` of it).
TESTS = ("auto", "randomization", "t", "sign")

#: The most comparisons (pairs × averages) :func:`compare` makes in one call.
MAX_COMPARISONS = 10_000_000

#: Values held at once by a block of the randomization test or the bootstrap (about 32 MB of floats).
_BLOCK_VALUES = 1 << 22


def _as_matrix(scores: ScoreMatrix | Mapping[str, Mapping[str, float]] | ArrayLike) -> ScoreMatrix:
    if isinstance(scores, ScoreMatrix):
        return scores
    if isinstance(scores, Mapping):
        return ScoreMatrix.from_dict(scores)
    if is_frame(scores):  # a row per system, a column per topic
        return ScoreMatrix.from_frame(scores)
    a = float_array(scores, "score")
    if a.ndim != 2:
        raise IrmeansError(f"scores must be a systems × topics matrix, got shape {a.shape}")
    return ScoreMatrix(a, tuple(f"run{i + 1}" for i in range(a.shape[0])), tuple(str(j + 1) for j in range(a.shape[1])))


def _pairs(systems: Sequence[str], baseline: str | None) -> tuple[np.ndarray, np.ndarray]:
    k = len(systems)
    if baseline is None:
        first, second = np.triu_indices(k, 1)
        return first.astype(np.intp), second.astype(np.intp)
    if baseline not in systems:
        shown = ", ".join(repr(s) for s in systems[:10]) + (f" and {k - 10} more" if k > 10 else "")
        raise IrmeansError(f"baseline {baseline!r} is not one of the {k} systems: {shown}")
    b = systems.index(baseline)
    first = np.array([i for i in range(k) if i != b], dtype=np.intp)
    return first, np.full(first.size, b, dtype=np.intp)


def _check_scores(matrix: ScoreMatrix, averages: Sequence[Average]) -> None:
    """Refuse a score an average cannot take, naming the system, the topic and the average."""
    for avg in averages:
        bad = avg.refuses(matrix.scores)
        if bad.any():
            i, j = np.argwhere(bad)[0]
            raise IrmeansError(
                f"{matrix.label or 'scores'}: system {matrix.systems[i]!r}, topic {matrix.topics[j]!r}: score "
                f"{float(matrix.scores[i, j])!r}; {avg.label} needs {avg.requirement} (choose other averages with -a)"
            )


def _chunks(total: int, size: int) -> Iterator[slice]:
    size = max(1, size)
    for start in range(0, total, size):
        yield slice(start, min(total, start + size))


def work(n_topics: int, n_pairs: int, n_averages: int, permutations: int, bootstrap: int) -> int:
    """The steps :func:`compare` reports to ``progress``: sign vectors, resamples, intervals (a pair and average each).

    >>> work(50, 4950, 3, 10_000, 10_000)
    34850
    """
    return flip_count(n_topics, permutations)[0] + bootstrap + n_pairs * n_averages


def compare(
    scores: ScoreMatrix | Mapping[str, Mapping[str, float]] | ArrayLike,
    averages: Sequence[Average | str] | None = None,
    *,
    baseline: str | None = None,
    permutations: int = 10_000,
    bootstrap: int = 10_000,
    confidence: float = 0.95,
    alpha: float = 0.05,
    test: Literal["auto", "randomization", "t", "sign"] = "auto",
    seed: int = 0,
    progress: Callable[[int], object] | None = None,
) -> Comparison:
    """Compare every pair of systems (or each with ``baseline``) under each average.

    Parameters
    ----------
    scores : ScoreMatrix, mapping, DataFrame or array_like
        Per-topic scores, a row per system: a :class:`~irmeans.score_matrix.ScoreMatrix`
        (:func:`irmeans.evaluate_runs` gives one from runs), ``{system: {topic: score}}``
        (every system on the same topics), a pandas DataFrame (its index names the systems,
        its columns the topics), or a systems × topics array (systems then named ``run1``…).
    averages : sequence of Average or spec, optional
        Default :data:`DEFAULT_AVERAGES`: ``am``, ``gm:0.01`` and ``logit:0.01``.
    baseline : str, optional
        Compare each other system with this one (difference = system − baseline);
        by default every pair (i, j), i before j in the matrix, difference = i − j.
    permutations : int, default 10 000
        Random sign vectors of the randomization test (all 2**n of them instead when
        that is no more).
    bootstrap : int, default 10 000
        Resamples of the topics for the confidence intervals.
    confidence : float, default 0.95
        Level of the percentile bootstrap intervals.
    alpha : float, default 0.05
        Level at which a Holm-adjusted p-value marks a verdict significant.
    test : {"auto", "randomization", "t", "sign"}
        The test whose Holm-adjusted p-values mark the verdicts (all three are computed). ``auto``, the
        default, is the randomization test unless its smallest possible Holm-adjusted p-value
        (:func:`~irmeans.comparison.significance.randomization_floor` times the comparisons) is above
        :data:`FLOOR_SHARE` × ``alpha``, where no verdict, or only one on the floor, could be marked: then the
        t-test on each average's scale marks them (more ``permutations`` lower the floor; the
        result's ``test`` attribute says which test it was).
    seed : int, default 0
        Seed of the sign vectors (the bootstrap's resamples come from the same seed,
        by a separate stream): the same seed gives the same result.
    progress : callable, optional
        Called as the work goes on with the steps done: sign vectors, resamples, intervals
        (:func:`work` of them in all).

    Returns
    -------
    Comparison

    Raises
    ------
    IrmeansError
        Fewer than 2 systems or topics, an unknown baseline, a bad average spec, a score
        an average cannot take (naming the system and topic), a bad setting.

    Examples
    --------
    >>> import irmeans
    >>> scores = {"A": {"1": 0.0, "2": 0.8, "3": 0.8, "4": 0.8},
    ...           "B": {"1": 0.4, "2": 0.4, "3": 0.4, "4": 0.4}}
    >>> c = irmeans.compare(scores)
    >>> [(v.average, v.better) for v in c.verdicts()[0].by_average]
    [('am', 'A'), ('gm:0.01', 'B'), ('logit:0.01', 'A')]
    >>> c.disagree.tolist(), c.reversed_by, c.robertson.substantial.tolist()
    ([True], ('log(x + 1e-05)',), [False])
    """
    matrix = _as_matrix(scores)
    parsed = _checked_averages(matrix, averages)
    settings = _Settings.checked(permutations, bootstrap, confidence, alpha, test, seed)
    first, second = _pairs(matrix.systems, baseline)
    _check_size(matrix, parsed, first.size, settings.bootstrap)
    done = progress if progress is not None else (lambda k: None)

    s = matrix.scores
    means = np.stack([np.asarray(avg(s, axis=1), dtype=np.float64) for avg in parsed])
    scales = [avg.on_scale(s) for avg in parsed]  # None for the median, or a GM with ε = 0 on zeros
    t, p_t = _t_tests(scales, first, second)
    p_rand, exact, n_flips = _randomization(s, parsed, scales, first, second, settings.permutations, seed, done)
    low, high, robertson = _intervals_and_robertson(s, parsed, scales, first, second, settings, done)
    marking = choose_test(settings.test, len(parsed) * first.size, n_flips, exact, settings.alpha)
    return Comparison(
        matrix=matrix,
        averages=tuple(parsed),
        first=first,
        second=second,
        baseline=baseline,
        means=means,
        ci_low=low,
        ci_high=high,
        tests=_holm_adjusted(t, p_t, p_rand, sign_test(s[first], s[second])),
        robertson=robertson,
        permutations=n_flips,
        exact=exact,
        bootstrap=settings.bootstrap,
        confidence=settings.confidence,
        alpha=settings.alpha,
        test=marking,
        requested_test=settings.test,
        seed=settings.seed,
    )


@dataclass(frozen=True)
class _Settings:
    """compare's settings, checked."""

    permutations: int
    bootstrap: int
    confidence: float
    alpha: float
    test: str
    seed: int

    @classmethod
    def checked(
        cls, permutations: int, bootstrap: int, confidence: float, alpha: float, test: str, seed: int
    ) -> _Settings:
        """The settings, or an error naming the first that is wrong."""
        if test not in TESTS:
            raise IrmeansError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
        permutations = whole_number(permutations, "permutations", minimum=1)
        bootstrap = whole_number(bootstrap, "bootstrap", minimum=1)
        if bootstrap < 2:  # its "interval" would be one resample's difference, low and high alike
            raise IrmeansError("1 bootstrap resample gives an interval of a single point: give at least 2 resamples")
        confidence = finite_number(confidence, "confidence")
        alpha = finite_number(alpha, "alpha")
        for name, value in (("confidence", confidence), ("alpha", alpha)):
            if not 0 < value < 1:
                raise IrmeansError(f"{name} must lie strictly between 0 and 1, got {value!r}")
        seed = whole_number(seed, "seed", minimum=0, maximum=None)
        return cls(permutations, bootstrap, confidence, alpha, test, seed)


def _checked_averages(matrix: ScoreMatrix, averages: Sequence[Average | str] | None) -> list[Average]:
    """The averages read from their specs, once the matrix is known big enough to compare."""
    n_systems, n_topics = matrix.shape
    if n_systems < 2:
        raise IrmeansError(f"compare needs at least 2 systems, got {n_systems}")
    if n_topics < 2:
        raise IrmeansError(f"compare needs at least 2 topics, got {n_topics}")
    parsed = parse_averages(DEFAULT_AVERAGES if averages is None else averages)
    if not parsed:
        raise IrmeansError("no averages to compare under")
    return parsed


def _check_size(matrix: ScoreMatrix, averages: Sequence[Average], n_pairs: int, bootstrap: int) -> None:
    """Refuse, before any work, more comparisons than compare makes, a score an average cannot take, or a
    bootstrap that memory cannot hold."""
    if n_pairs * len(averages) > MAX_COMPARISONS:
        raise IrmeansError(
            f"{n_pairs:,} pairs × {len(averages)} averages is more than the {MAX_COMPARISONS:,} comparisons "
            "compare makes at once: compare with a baseline, or fewer systems"
        )
    _check_scores(matrix, averages)
    n_systems = matrix.shape[0]
    check_memory(  # the replicates of the bootstrap are kept whole
        8.0 * len(averages) * n_systems * bootstrap,
        f"the bootstrap's averages of {n_systems:,} systems under {len(averages)} averages on {bootstrap:,} "
        "resamples of the topics (give fewer resamples: bootstrap, -b)",
    )


def _t_tests(
    scales: Sequence[np.ndarray | None], first: np.ndarray, second: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The paired t-test of every pair on each average's scale, (averages, pairs) ×2; NaN for an average
    without one."""
    t, p_t = np.full((len(scales), first.size), np.nan), np.full((len(scales), first.size), np.nan)
    for k, g in enumerate(scales):
        if g is not None:
            t[k], p_t[k] = paired_t_test(g[first], g[second])
    return t, p_t


def _intervals_and_robertson(
    s: np.ndarray,
    averages: Sequence[Average],
    scales: Sequence[np.ndarray | None],
    first: np.ndarray,
    second: np.ndarray,
    settings: _Settings,
    done: Callable[[int], object],
) -> tuple[np.ndarray, np.ndarray, Robertson]:
    """The bootstrap intervals of the differences, (averages, pairs) ×2, and Robertson's check, whose reversed
    differences are bootstrapped on the same resamples when they are no more than the averages' replicates."""
    found = reversals(s[first], s[second])  # each pair's first reversal of the AM's verdict
    shared = found.d.shape[0] <= len(averages) * s.shape[0]  # its replicates no more than the averages' own
    low, high, reversal = _bootstrap(
        s,
        averages,
        scales,
        first,
        second,
        settings.bootstrap,
        settings.confidence,
        settings.seed,
        done,
        found.d if shared else None,
    )
    if not shared:  # too many reversals to hold beside the replicates: their own pass, a block of pairs at a time
        reversal = reversal_intervals(found.d, settings.bootstrap, settings.confidence, settings.seed)
    return low, high, found.check(*reversal)


def _holm_adjusted(t: np.ndarray, p_t: np.ndarray, p_rand: np.ndarray, signs: SignTest) -> Tests:
    """The tests with each one's p-values Holm-adjusted over its own family (pairs × averages; the sign
    test's over the pairs)."""
    return Tests(
        t=t,
        p_t=p_t,
        p_t_holm=holm(p_t),
        p_randomization=p_rand,
        p_randomization_holm=holm(p_rand),
        sign=signs,
        p_sign_holm=holm(signs.p),
    )


def _randomization(
    s: np.ndarray,
    averages: Sequence[Average],
    scales: Sequence[np.ndarray | None],
    first: np.ndarray,
    second: np.ndarray,
    permutations: int,
    seed: int,
    done: Callable[[int], object],
) -> tuple[np.ndarray, bool, int]:
    """Two-sided randomization p-values, (averages, pairs), with every pair and average on the same sign vectors.

    An average with a finite transform g is tested on the sum of g's differences (one matrix
    product per block of pairs and of sign vectors); one without (the median, or a GM with
    ε = 0 on zero scores) on the average itself, recomputed on the swapped scores.
    """
    n_pairs, n_topics = first.size, s.shape[1]
    blocks, total, exact = sign_flips(n_topics, permutations, seed)
    counts = np.zeros((len(averages), n_pairs), dtype=np.int64)
    diffs = [None if g is None else g[first] - g[second] for g in scales]
    for flips in blocks:
        for k, (avg, d) in enumerate(zip(averages, diffs)):
            if d is not None:
                for part in _chunks(n_pairs, _BLOCK_VALUES // len(flips)):
                    counts[k, part] += count_at_least(d[part], flips)
            else:
                for part in _chunks(n_pairs, _BLOCK_VALUES // (len(flips) * n_topics)):
                    counts[k, part] += _count_by_average(avg, s[first[part]], s[second[part]], flips)
        done(len(flips))
    return randomization_p(counts, total, exact), exact, total


def _count_by_average(avg: Average, x: np.ndarray, y: np.ndarray, flips: np.ndarray) -> np.ndarray:
    """:func:`~.significance.count_at_least` for an average without a transform: the average's own difference
    on the scores swapped where a sign vector says −1; x, y (pairs, topics), flips (b, topics)."""
    observed = np.abs(np.asarray(avg(x, axis=1)) - np.asarray(avg(y, axis=1)))
    swap = flips[None, :, :] < 0
    xs = np.where(swap, y[:, None, :], x[:, None, :])
    ys = np.where(swap, x[:, None, :], y[:, None, :])
    permuted = np.abs(np.asarray(avg(xs, axis=2)) - np.asarray(avg(ys, axis=2)))
    slack = TOLERANCE * (np.abs(x).max(axis=1) + np.abs(y).max(axis=1))
    counted: np.ndarray = (permuted >= (observed - slack)[:, None]).sum(axis=1)
    return counted


def _bootstrap(
    s: np.ndarray,
    averages: Sequence[Average],
    scales: Sequence[np.ndarray | None],
    first: np.ndarray,
    second: np.ndarray,
    resamples: int,
    confidence: float,
    seed: int,
    done: Callable[[int], object],
    extra: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Percentile intervals of each average's difference over topics resampled with replacement: (averages, pairs) ×2,
    and those of the mean of each row of ``extra`` (rows, topics: Robertson's reversed differences) on the same
    resamples.

    Every system is averaged on the same resamples, so each pair's differences are paired;
    the resamples come from ``seed`` by a stream of their own (not the sign vectors').  An
    average with a finite scale g (``scales``) is, on a resample, its map back from the mean of
    g over the resampled topics, which is the times each topic is drawn (one matrix product
    for every system and resample) times g; one without (the median) is computed from the
    resampled scores themselves.
    """
    n_systems, n_topics = s.shape
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    replicates = np.empty((len(averages), n_systems, resamples))
    by_topic = [None if g is None else np.ascontiguousarray(g.T) for g in scales]
    extra = np.empty((0, n_topics)) if extra is None else extra
    extra_means = np.empty((extra.shape[0], resamples))
    for part in _chunks(resamples, _BLOCK_VALUES // (n_systems * n_topics)):
        m = part.stop - part.start
        drawn = rng.integers(0, n_topics, size=(m, n_topics))
        if extra.shape[0] or any(g is not None for g in by_topic):
            cells = (drawn + (np.arange(m) * n_topics)[:, None]).ravel()
            times = np.bincount(cells, minlength=m * n_topics).reshape(m, n_topics).astype(np.float64)
        if any(g is None for g in by_topic):
            picked = s[:, drawn]
        for k, (avg, g) in enumerate(zip(averages, by_topic)):
            if g is not None:
                replicates[k, :, part] = avg.from_mean((times @ g) / n_topics).T
            else:
                replicates[k, :, part] = avg(picked, axis=2)
        if extra.shape[0]:
            extra_means[:, part] = (extra @ times.T) / n_topics
        done(m)
    tail = (1 - confidence) / 2
    low = np.empty((len(averages), first.size))
    high = np.empty_like(low)
    ranks = {q: _order_statistics(resamples, q) for q in (tail, 1 - tail)}
    kth = sorted({r for below, above, _ in ranks.values() for r in (below, above)})
    for k in range(len(averages)):
        for part in _chunks(first.size, _BLOCK_VALUES // resamples):
            d = replicates[k, first[part]] - replicates[k, second[part]]
            d.partition(kth, axis=1)  # the order statistics of the two quantiles, in place (faster than a sort)
            low[k, part], high[k, part] = (_quantile(d, *ranks[q]) for q in (tail, 1 - tail))
            done(part.stop - part.start)
    extra_means.partition(kth, axis=1)
    extra_low, extra_high = (_quantile(extra_means, *ranks[q]) for q in (tail, 1 - tail))
    return low, high, (extra_low, extra_high)


def _order_statistics(n: int, q: float) -> tuple[int, int, float]:
    """The two order statistics of n values that the q-quantile lies between, and its weight on the upper one."""
    h = (n - 1) * q
    below = int(np.floor(h))
    return below, min(below + 1, n - 1), h - below


def _quantile(rows: np.ndarray, below: int, above: int, weight: float) -> np.ndarray:
    """The quantile of each row from its order statistics (in place), interpolated as ``np.quantile``'s default
    (linear) method does."""
    lower, upper = rows[:, below], rows[:, above]
    value: np.ndarray = lower + weight * (upper - lower)
    return value
