"""How sure a split-half experiment is: intervals for each average's mean τ and for its difference from the AM's.

The splits of one experiment all reuse the same topics and systems, so their τ values are not
independent samples of anything beyond those topics. A paired t-test across them is valid only for
the mean over every split of *these* topics, and its p-value falls as low as one likes as splits are
added; it says nothing about other topics of the same kind (chapter 9). Two questions have honest
answers:

- **Over splits**: how far would the mean τ move with other random splits of *these* topics?
  The splits are drawn independently, so the mean over n of them has the usual standard error
  sd / √n, and the interval mean ± z·sd/√n (normal approximation) says how precisely n splits
  pin down the mean over every possible split. It shrinks as more splits are drawn.
- **Over topics**: how far would it move with *another sample of topics* from the same kind of
  collection? The bootstrap answers it: resample the topics with replacement, rerun the splits
  on the resampled matrix, and take the interval of the replicates' mean τ. A resample holds
  some topics twice, which the two halves can then share, and that raises τ; the interval is
  therefore the bias-corrected percentile interval (Efron 1981), which recentres it on the
  observed mean. Each replicate draws only ``bootstrap_splits`` splits: their own noise widens
  the interval a little, never narrows it. By default the resamples draw about as many splits
  in all as the experiment itself (:func:`bootstrap_size`), so that the intervals cost what
  ``n_splits`` asks for, not a fixed 50,000 splits.

The difference of an average's mean τ from the baseline's (the AM's, by default) gets both
intervals too, from the differences split by split (the same splits for every average) and
from the same resamples of topics.

:func:`tau_intervals` runs all of it and returns a :class:`ConsistencyReport`; ``irmeans
consistency`` prints it.

>>> from irmeans import datasets
>>> ap = datasets.load("adhoc8", "ap").scores
>>> report = tau_intervals(ap, ["am", "gm:0.01"], n_splits=200, seed=1, n_bootstrap=20, bootstrap_splits=20)
>>> row = report.rows["gm:0.01"]
>>> row.over_splits.low < row.mean < row.over_splits.high, row.difference < 0
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_memory, finite_number, random_generator, score_matrix, split_count, whole_number
from ..averages import Average, parse_average
from ..errors import IrmeansError, shown_value
from .experiment import _HalvesTau, _split_half_taus
from .halves import SPLIT_KINDS, _random_halves, difficulty_halves
from .topics import DIFFICULTY, DIFFICULTY_FROM, standardize, topic_difficulty

__all__ = [
    "tau_intervals",
    "ConsistencyReport",
    "TauSummary",
    "Interval",
    "parse_spec",
    "spec_label",
    "bootstrap_size",
    "BOOTSTRAP",
    "BOOTSTRAP_SPLITS",
    "DIFFICULTY_FROM",
]

#: The most topic resamples the intervals over topics draw by default.
BOOTSTRAP = 1000
#: The most splits of each resample they draw by default.
BOOTSTRAP_SPLITS = 50


def bootstrap_size(
    n_splits: int, n_bootstrap: int | None = None, bootstrap_splits: int | None = None, *, random: bool = True
) -> tuple[int, int]:
    """(resamples of the topics, splits of each) of the intervals over topics: each as given, or by default.

    By default about as many splits in all as the experiment draws, so that the bootstrap costs
    what ``n_splits`` asks for: ``min(1000, n_splits)`` resamples of ``n_splits // resamples``
    splits each, at least 1 and at most 50.  A split by difficulty (not ``random``) is one split a
    resample, of 1,000 resamples by default.

    >>> bootstrap_size(10_000), bootstrap_size(100), bootstrap_size(100_000), bootstrap_size(1, random=False)
    ((1000, 10), (100, 1), (1000, 50), (1000, 1))
    """
    if not random:
        return (BOOTSTRAP if n_bootstrap is None else n_bootstrap), 1
    resamples = min(BOOTSTRAP, n_splits) if n_bootstrap is None else n_bootstrap
    if bootstrap_splits is None:
        bootstrap_splits = min(BOOTSTRAP_SPLITS, max(1, n_splits // max(resamples, 1)))
    return resamples, bootstrap_splits


def parse_spec(spec: str | Average) -> tuple[Average, bool]:
    """An average spec with an optional ``std-`` prefix (the average of standardized scores): (Average, standardize?).

    >>> avg, std = parse_spec("std-gm:0.01")
    >>> avg.spec, std
    ('gm:0.01', True)
    """
    if not isinstance(spec, str):
        return parse_average(spec), False  # an Average as it is, anything else refused
    text = spec.strip().lower()
    standardized = text.startswith("std-")
    return parse_average(text[4:] if standardized else text), standardized


def spec_label(spec: str | Average) -> str:
    """The spec as it is read back: ``"std-gm:0.01"``, ``"gm:0.01"`` for ``"GM:1e-2"``.

    >>> spec_label("GM:1e-2"), spec_label("std-am")
    ('gm:0.01', 'std-am')
    """
    average, std = parse_spec(spec)
    return ("std-" if std else "") + average.spec


@dataclass(frozen=True)
class Interval:
    """A two-sided interval ``[low, high]``."""

    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high


@dataclass(frozen=True)
class TauSummary:
    """One average's τ over the splits, and its difference from the baseline's on the same splits.

    Attributes
    ----------
    average : str
        Its spec label (``"gm:0.01"``, ``"std-am"``).
    mean : float
        Mean τ over the splits that have one (NaN if none has).
    splits, undefined : int
        Splits with a τ, and without one (a half on which every system has the same average).
    spread : Interval or None
        The middle ``level`` of the splits' τ (None for one split): how much one split varies.
    over_splits : Interval or None
        Interval of the mean over random splits of these topics (None for one split).
    over_topics : Interval or None
        Bootstrap interval of the mean over samples of topics (None without a bootstrap).
    difference : float or None
        Mean of τ − the baseline's τ, over the splits where both have one (None for the baseline).
    higher, lower : int or None
        Splits on which τ is above, and below, the baseline's.
    difference_over_splits, difference_over_topics : Interval or None
        The two intervals, for the difference.
    """

    average: str
    mean: float
    splits: int
    undefined: int
    spread: Interval | None
    over_splits: Interval | None
    over_topics: Interval | None
    difference: float | None = None
    higher: int | None = None
    lower: int | None = None
    difference_over_splits: Interval | None = None
    difference_over_topics: Interval | None = None


@dataclass(frozen=True)
class ConsistencyReport:
    """What :func:`tau_intervals` found: a :class:`TauSummary` per average, and how it was found.

    Attributes
    ----------
    rows : dict of str to TauSummary
        By spec label, in the order the averages were given.
    taus : dict of str to ndarray
        Every split's τ, by spec label (the baseline's too).
    baseline : str
        The label of the average the differences are from.
    split : str
        ``"random"``, ``"hard-easy"`` or ``"middle-rest"``.
    n_splits, n_bootstrap, bootstrap_splits : int
        Splits drawn (1 for a split by difficulty), topic resamples, splits per resample.
    level : float
        The intervals' coverage (0.95).
    difficulty, difficulty_from : str
        For a split by difficulty: the definition and whose scores it is computed from.
    """

    rows: dict[str, TauSummary]
    taus: dict[str, np.ndarray] = field(repr=False)
    baseline: str
    split: str
    n_splits: int
    n_bootstrap: int
    bootstrap_splits: int
    level: float
    difficulty: str
    difficulty_from: str

    def to_frame(self) -> Any:
        """The rows as a pandas DataFrame, one row per average (pandas is imported here, when asked for)."""
        import pandas as pd

        def flat(s: TauSummary) -> dict[str, object]:
            out: dict[str, object] = {}
            for name, value in vars(s).items():
                if isinstance(value, Interval) or (value is None and name not in ("difference", "higher", "lower")):
                    out[f"{name}_low"] = None if value is None else value.low
                    out[f"{name}_high"] = None if value is None else value.high
                else:
                    out[name] = value
            return out

        return pd.DataFrame([flat(s) for s in self.rows.values()]).set_index("average")


def _z(level: float) -> float:
    from scipy.special import ndtri  # here, not at the top: `import irmeans` stays light for the CLI

    return float(ndtri(0.5 + level / 2))


def _over_splits(values: np.ndarray, level: float) -> Interval | None:
    """mean ± z·sd/√n of independent draws (None for fewer than two)."""
    if len(values) < 2:
        return None
    half = _z(level) * float(np.std(values, ddof=1)) / math.sqrt(len(values))
    mean = float(np.mean(values))
    return Interval(mean - half, mean + half)


def _bias_corrected(replicates: np.ndarray, observed: float, level: float) -> Interval | None:
    """Efron's bias-corrected percentile interval of bootstrap ``replicates`` around ``observed``."""
    from scipy.special import ndtr, ndtri

    r = replicates[np.isfinite(replicates)]
    if len(r) < 2 or not math.isfinite(observed):
        return None
    below = (np.sum(r < observed) + 0.5 * np.sum(r == observed)) / len(r)
    below = min(max(below, 0.5 / len(r)), 1 - 0.5 / len(r))
    z0, z = float(ndtri(below)), _z(level)
    low, high = np.quantile(r, [float(ndtr(2 * z0 - z)), float(ndtr(2 * z0 + z))])
    return Interval(float(low), float(high))


def _summaries(taus: dict[str, np.ndarray], baseline: str, level: float) -> dict[str, dict[str, Any]]:
    """The summary of every average's τ over the splits (the intervals over topics come later)."""
    out: dict[str, dict[str, Any]] = {}
    base = taus[baseline]
    for label, t in taus.items():
        ok = t[~np.isnan(t)]
        row: dict[str, Any] = {
            "average": label,
            "mean": float(ok.mean()) if len(ok) else math.nan,
            "splits": int(len(ok)),
            "undefined": int(len(t) - len(ok)),
            "spread": Interval(*(float(v) for v in np.quantile(ok, [0.5 - level / 2, 0.5 + level / 2])))
            if len(ok) > 1
            else None,
            "over_splits": _over_splits(ok, level),
        }
        if label != baseline:
            both = ~(np.isnan(t) | np.isnan(base))
            d = t[both] - base[both]
            row.update(
                difference=float(d.mean()) if len(d) else math.nan,
                higher=int((d > 0).sum()),
                lower=int((d < 0).sum()),
                difference_over_splits=_over_splits(d, level),
            )
        out[label] = row
    return out


def _means(t: np.ndarray, base: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean τ of each row of ``t`` (splits without a τ left out), and mean difference from ``base``'s.

    NaN for a row with nothing to average.
    """
    ok = ~np.isnan(t)
    both = ok & ~np.isnan(base)
    n, m = ok.sum(axis=-1), both.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(ok, t, 0.0).sum(axis=-1) / n
        diff = np.where(both, t - np.where(both, base, 0.0), 0.0).sum(axis=-1) / m
    return np.where(n > 0, mean, np.nan), np.where(m > 0, diff, np.nan)


# Topic resamples are handled in blocks of about this many topic indices (resamples × splits × topics).
_RESAMPLE_VALUES = 1 << 21


def tau_intervals(
    scores: ArrayLike,
    averages: str | Average | Sequence[str | Average],
    n_splits: int = 10_000,
    seed: int | np.random.Generator | None = None,
    *,
    baseline: str | Average = "am",
    split: str = "random",
    difficulty: str = "eq2",
    difficulty_from: str = "own",
    n_bootstrap: int | None = None,
    bootstrap_splits: int | None = None,
    level: float = 0.95,
    progress: Callable[[int], object] | None = None,
) -> ConsistencyReport:
    """The split-half experiment with intervals for each average's mean τ and its difference from the baseline's.

    Parameters
    ----------
    scores : array_like, shape (systems, topics)
    averages : str, Average, or a sequence of them
        Specs (``"am"``, ``"gm:0.01"``, ``"median"``...), each optionally ``std-``
        for the average of standardized scores (:func:`irmeans.standardize` over
        all the systems, a flat topic giving 0.5), or Average values.
    n_splits : int, default 10 000
        Random splits (ignored for a split by difficulty, which is one split).
    seed : int or numpy.random.Generator, optional
        The splits are those of :func:`irmeans.split_half` with this seed; the
        topic resamples follow from the same generator.
    baseline : str or Average, default "am"
        The average the differences are taken from (computed if not among ``averages``).
    split : {"random", "hard-easy", "middle-rest"}
    difficulty : {"eq2", "eq1", "max"}
        For a split by difficulty: :func:`irmeans.topic_difficulty`'s definition.
    difficulty_from : {"own", "raw", "standardized"}
        For a split by difficulty: whose scores decide it. ``"own"``: each average's,
        so a ``std-`` average's split is by the standardized scores' difficulty (as
        chapter 9 reproduces Ravana & Moffat's SP cells); ``"raw"`` or
        ``"standardized"``: one split for every average, by those scores.
    n_bootstrap : int, optional
        Resamples of the topics for the intervals over topics; 0 for none.  By default as
        many as ``n_splits``, at most 1,000 (:func:`bootstrap_size`).
    bootstrap_splits : int, optional
        Random splits of each resample.  By default ``n_splits`` over the resamples, 1 to 50:
        the resamples draw about as many splits in all as the experiment.
    level : float, default 0.95
        Coverage of every interval.
    progress : callable, optional
        Called with a count of splits of one average done, as the work goes.

    Returns
    -------
    ConsistencyReport
    """
    s = score_matrix(scores)
    parsed, base_label, asked = _averages_to_run(averages, baseline)
    _check_choices(split, difficulty, difficulty_from)
    random = split == "random"
    n_splits = split_count(n_splits) if random else 1
    n_bootstrap, bootstrap_splits = _resamples(n_splits, n_bootstrap, bootstrap_splits, random)
    level = finite_number(level, "level")
    if not 0 < level < 1:
        raise IrmeansError(f"level must be between 0 and 1, got {level!r}")
    rng = random_generator(seed)

    experiment = _Experiment.of(s, parsed, split, difficulty, difficulty_from)
    taus = experiment.observed(n_splits, rng, progress)
    rows = _summaries(taus, base_label, level)
    if n_bootstrap:
        replicated = experiment.replicated(n_bootstrap, bootstrap_splits if random else 1, rng, progress)
        _add_intervals_over_topics(rows, taus, replicated, base_label, level)
    shown = {label: TauSummary(**{"over_topics": None, **rows[label]}) for label in parsed if label in asked}
    return ConsistencyReport(
        rows=shown,
        taus=taus,
        baseline=base_label,
        split=split,
        n_splits=n_splits,
        n_bootstrap=n_bootstrap,
        bootstrap_splits=bootstrap_splits if n_bootstrap else 0,
        level=level,
        difficulty=difficulty,
        difficulty_from=difficulty_from,
    )


def _averages_to_run(
    averages: str | Average | Sequence[str | Average] | Iterable[str | Average], baseline: str | Average
) -> tuple[dict[str, tuple[Average, bool]], str, set[str]]:
    """Each average once by its label, the baseline's among them: (labels to (Average, standardized?), the
    baseline's label, the labels asked for, whose rows the report shows)."""
    if isinstance(averages, str) or not isinstance(averages, Iterable):
        averages = [averages]  # one average, not a sequence of letters
    parsed: dict[str, tuple[Average, bool]] = {}
    for spec in averages:  # a generator read once
        parsed.setdefault(spec_label(spec), parse_spec(spec))
    if not parsed:
        raise IrmeansError("averages is empty: give at least one average")
    asked = set(parsed)
    base_label = spec_label(baseline)
    parsed.setdefault(base_label, parse_spec(baseline))
    return parsed, base_label, asked


def _check_choices(split: str, difficulty: str, difficulty_from: str) -> None:
    for name, value, choices in (
        ("split", split, SPLIT_KINDS),
        ("difficulty", difficulty, DIFFICULTY),
        ("difficulty_from", difficulty_from, DIFFICULTY_FROM),
    ):
        if value not in choices:
            raise IrmeansError(f"{name} must be one of {', '.join(choices)}, got {shown_value(value)}")


def _resamples(n_splits: int, n_bootstrap: object, bootstrap_splits: object, random: bool) -> tuple[int, int]:
    """(topic resamples, splits of each): as given, checked, or :func:`bootstrap_size`'s defaults."""
    if n_bootstrap is not None:
        n_bootstrap = whole_number(n_bootstrap, "n_bootstrap", minimum=0)
        if n_bootstrap == 1:  # its interval would be left out, printed '-', without a word
            raise IrmeansError("1 bootstrap resample gives an interval of a single point: give 0 (none) or at least 2")
    if bootstrap_splits is not None:
        bootstrap_splits = split_count(bootstrap_splits, "bootstrap_splits")
    return bootstrap_size(n_splits, n_bootstrap, bootstrap_splits, random=random)


@dataclass(frozen=True)
class _Experiment:
    """The splits tau_intervals runs: each average's matrix (the standardized scores for a ``std-`` one), how the
    topics split (at random, or by difficulty, and then by whose scores), on the topics or on a resample of them."""

    matrices: dict[str, tuple[np.ndarray, Average]]
    basis: dict[str, np.ndarray]  # whose scores decide a split by difficulty, for each average
    split: str
    difficulty: str

    @classmethod
    def of(
        cls, s: np.ndarray, parsed: dict[str, tuple[Average, bool]], split: str, difficulty: str, difficulty_from: str
    ) -> _Experiment:
        needs_std = any(std for _, std in parsed.values()) or (split != "random" and difficulty_from == "standardized")
        standardized = standardize(s, constant="half") if needs_std else s
        matrices = {label: (standardized if std else s, avg) for label, (avg, std) in parsed.items()}
        whose = {"raw": s, "standardized": standardized}
        basis = {label: whose.get(difficulty_from, m) for label, (m, _) in matrices.items()}
        return cls(matrices, basis, split, difficulty)

    @property
    def n_topics(self) -> int:
        return int(next(iter(self.matrices.values()))[0].shape[1])

    def by_difficulty(self, label: str, columns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The split by difficulty of the topics ``columns`` (a resample), as indices of the whole matrix."""
        first, second = difficulty_halves(topic_difficulty(self.basis[label][:, columns], self.difficulty), self.split)
        return columns[first], columns[second]

    def observed(
        self, n_splits: int, rng: np.random.Generator, progress: Callable[[int], object] | None
    ) -> dict[str, np.ndarray]:
        """Every split's τ for each average, on the topics themselves."""
        if self.split == "random":
            values = list(self.matrices.values())
            return dict(zip(self.matrices, _split_half_taus(values, n_splits, rng, progress=progress)))
        taus = {}
        for label, (m, avg) in self.matrices.items():
            taus[label] = np.empty(1)
            _HalvesTau(m, avg)(*self.by_difficulty(label, np.arange(self.n_topics)), taus[label], progress)
        return taus

    def replicated(
        self, n_bootstrap: int, per: int, rng: np.random.Generator, progress: Callable[[int], object] | None
    ) -> dict[str, np.ndarray]:
        """τ of ``per`` splits of each of ``n_bootstrap`` resamples of the topics, (resamples, per) for each average.

        Each resample's splits are halves of the whole matrix (a topic drawn twice is in the resample twice),
        drawn in blocks; every average gets the same resamples and splits.
        """
        n_topics = self.n_topics
        check_memory(8.0 * n_bootstrap * per * (len(self.matrices) + 2 * n_topics), "the topic resamples")
        evaluate = {label: _HalvesTau(m, avg) for label, (m, avg) in self.matrices.items()}
        replicated = {label: np.empty((n_bootstrap, per)) for label in self.matrices}
        step = max(1, _RESAMPLE_VALUES // (per * n_topics))
        for start in range(0, n_bootstrap, step):
            count = min(step, n_bootstrap - start)
            columns = rng.integers(0, n_topics, (count, n_topics))
            if self.split == "random":
                first, second = _random_halves_of(columns, per, rng)
            for label, out in replicated.items():
                if self.split != "random":
                    halves = [self.by_difficulty(label, c) for c in columns]
                    first, second = (np.stack([h[i] for h in halves])[:, 0] for i in (0, 1))
                evaluate[label](first, second, out[start : start + count].reshape(-1), progress)
        return replicated


def _random_halves_of(columns: np.ndarray, per: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``per`` random splits of each resample (a row of ``columns``), as indices of the whole matrix."""
    count, n_topics = columns.shape
    rows_of = np.repeat(np.arange(count), per)[:, None]
    first = np.empty((count * per, n_topics // 2), dtype=np.intp)
    second = np.empty((count * per, n_topics - n_topics // 2), dtype=np.intp)
    for at, a, b in _random_halves(n_topics, count * per, rng):
        first[at : at + len(a)] = columns[rows_of[at : at + len(a)], a]
        second[at : at + len(b)] = columns[rows_of[at : at + len(b)], b]
    return first, second


def _add_intervals_over_topics(
    rows: dict[str, dict[str, Any]],
    taus: dict[str, np.ndarray],
    replicated: dict[str, np.ndarray],
    base_label: str,
    level: float,
) -> None:
    """Each average's bias-corrected intervals over topics, of its mean τ and of its difference from the
    baseline's, from the resamples' means."""
    base_observed, base_replicated = taus[base_label], replicated[base_label]
    for label in replicated:
        mean, diff = _means(taus[label], base_observed)
        means, diffs = _means(replicated[label], base_replicated)
        rows[label]["over_topics"] = _bias_corrected(means, float(mean), level)
        if label != base_label:
            rows[label]["difference_over_topics"] = _bias_corrected(diffs, float(diff), level)
