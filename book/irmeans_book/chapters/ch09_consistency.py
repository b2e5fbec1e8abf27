"""Chapter 9's experiment and figures: Ravana & Moffat's (2009) split-half test on the real TREC-8 runs.

The data are the per-topic AP of the 129 runs of the TREC-8 ad hoc track on
its 50 topics (:func:`irmeans.datasets.load`), the collection the paper calls
TREC8. Every number comes from :mod:`irmeans.consistency`: the random halves
of :func:`~irmeans.consistency.split_half` (one seed, so every average sees
the same splits), the fixed splits by topic difficulty of
:func:`~irmeans.consistency.make_halves`, and the standardized scores of
:func:`~irmeans.consistency.standardize`. The charts' controls only pick
rows of tables computed here; figure data are rounded to 6 decimals.

Beyond the paper, :func:`replication_tables` runs the same protocol on every one
of the 46 matrices of :mod:`irmeans.datasets` (11 collections, 7 measures), the
same random halves (one seed per matrix) serving every average: the AM, the
εGM over a grid of ε, trec_eval's GM (floor form, ε = 1e-5) and the AM of
standardized scores. From the mean τ come the paper's Figure 9 (the share of
scores at most 0.1 against τ(εGM) − τ(AM)) and Figure 10 (εGM against
trec_eval's GM), for every matrix rather than three collections.

Examples
--------
>>> t = table_3c(trec8(), n_splits=20)
>>> row = t.loc[("AP", "hard-easy")]
>>> float(row["εGM, ε = 0.01"].round(3)), float(row["paper: εGM, ε = 0.01"])
(0.732, 0.732)
>>> long, wide = replication_tables(n_splits=20, matrices=["adhoc8_ap"], eps_grid=[0.01])
>>> sorted(long.average.unique())
['AM', 'standardized AM', 'trec_eval GM', 'εGM']
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans import consistency, datasets
from irmeans.averages import AM, GM, HM, Median
from irmeans.consistency.intervals import spec_label
from numpy.typing import ArrayLike
from scipy import stats

from irmeans_book.plots import OKABE_ITO, TREC_DATA, VegaLiteFigure, show, slider_param
from irmeans_book.selfcheck import Number, selfcheck

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "EXAMPLE",
    "TREC8_LABEL",
    "chapter_matrix",
    "score_density_alt",
    "difficulty_alt",
    "sweep_alt",
    "replication_alt",
    "replication_points",
    "replication_state",
    "replication_figure",
    "REPLICATION_SPLITS",
    "replication_intervals",
    "FORM_AND_EPS_COMPARISONS",
    "form_and_eps_intervals",
    "spearman_interval",
    "win_counts",
    "DEFAULT_BOOTSTRAP",
    "DEFAULT_BOOTSTRAP_SPLITS",
    "DEFAULT_INTERVALS",
    "write_default_intervals",
    "default_intervals",
    "verdict_changes",
    "REPLICATION_EPS_GRID",
    "MEASURE_ORDER",
    "replication_tables",
    "replication_chart",
    "FIGURES",
    "score_density_figure",
    "difficulty_figure",
    "sweep_figure",
    "SEED",
    "N_SPLITS",
    "SWEEP_START",
    "TABLE_AVERAGES",
    "PAPER_TABLE_3C",
    "EPS_GRID",
    "trec8",
    "low_shares",
    "score_density_table",
    "score_density_chart",
    "difficulty_table",
    "difficulty_chart",
    "table_3c",
    "PAPER_TABLE_3AB",
    "paper_table_3",
    "resampled_taus",
    "sp_split_variants",
    "tau_sweep",
    "sweep_chart",
    "score_density_state",
    "difficulty_state",
    "sweep_state",
]

#: Seed of the random splits throughout the chapter.
SEED = 2009

#: The number of random splits of the chapter's tables and sweep.
N_SPLITS = 10_000

#: The averages of Table 3(c), by label.
TABLE_AVERAGES = {
    "AM": AM(),
    "εGM, ε = 0.01": GM(eps=0.01),
    "GM, trec_eval (floor, ε = 1e-5)": GM(eps=1e-5, form="floor"),
}

#: Ravana & Moffat (2009), Table 3(c), TREC8: Kendall's τ by (scores, split) and average.
PAPER_TABLE_3C = {
    ("AP", "random"): (0.773, 0.755, 0.681),
    ("AP", "hard-easy"): (0.719, 0.732, 0.672),
    ("AP", "middle-rest"): (0.753, 0.760, 0.676),
    ("SP", "random"): (0.781, 0.769, 0.768),
    ("SP", "hard-easy"): (0.739, 0.714, 0.680),
    ("SP", "middle-rest"): (0.790, 0.785, 0.785),
}

#: Ravana & Moffat (2009), Table 3(a) and 3(b): TREC9 and TREC2001, whose runs are not shipped. Kendall's τ by
#: (collection, scores, split) and average, in the order of :data:`TABLE_AVERAGES`, as printed.
PAPER_TABLE_3AB = {
    ("TREC9", "AP", "random"): (0.748, 0.819, 0.798),
    ("TREC9", "AP", "hard-easy"): (0.694, 0.779, 0.818),
    ("TREC9", "AP", "middle-rest"): (0.722, 0.826, 0.800),
    ("TREC9", "SP", "random"): (0.798, 0.805, 0.806),
    ("TREC9", "SP", "hard-easy"): (0.704, 0.712, 0.802),
    ("TREC9", "SP", "middle-rest"): (0.820, 0.824, 0.826),
    ("TREC2001", "AP", "random"): (0.693, 0.729, 0.682),
    ("TREC2001", "AP", "hard-easy"): (0.584, 0.650, 0.639),
    ("TREC2001", "AP", "middle-rest"): (0.611, 0.674, 0.567),
    ("TREC2001", "SP", "random"): (0.741, 0.740, 0.737),
    ("TREC2001", "SP", "hard-easy"): (0.622, 0.622, 0.657),
    ("TREC2001", "SP", "middle-rest"): (0.798, 0.798, 0.816),
}


def paper_table_3() -> pd.DataFrame:
    """Ravana & Moffat's whole Table 3 as printed: TREC9, TREC2001 and TREC8, one row per cell.

    Examples
    --------
    >>> t = paper_table_3()
    >>> len(t), t.loc[("TREC2001", "AP", "random"), "εGM, ε = 0.01"]
    (18, np.float64(0.729))
    """
    rows = {**PAPER_TABLE_3AB, **{("TREC8", *k): v for k, v in PAPER_TABLE_3C.items()}}
    index = pd.MultiIndex.from_tuples(list(rows), names=["collection", "scores", "split"])
    # Sorted, so that selecting a collection and scores by label is fast and warns of nothing.
    return pd.DataFrame(list(rows.values()), index=index, columns=list(TABLE_AVERAGES)).sort_index()


#: The ε of the sweep (Figures 1 to 3) and of its slider: 10^-5 to 10^0 in steps of 10^0.5.
EPS_GRID = np.round(10.0 ** np.arange(-5.0, 0.01, 0.5), 12)

#: Where the sweep's slider starts: log10 ε = −2, ε = 0.01.
SWEEP_START = -2.0

_SPLITS = ("random", "hard-easy", "middle-rest")


def trec8() -> np.ndarray:
    """The TREC-8 ad hoc AP matrix, 129 systems × 50 topics, as a writable array.

    Examples
    --------
    >>> trec8().shape
    (129, 50)
    """
    return np.array(datasets.load("adhoc8", "ap").scores)


#: The label of the chapter's matrix as the book has it, Ravana & Moffat's TREC8.
TREC8_LABEL = datasets.load("adhoc8", "ap").label

#: The chapter's data by the name its notebook gives them (its cell loads them, for a reader to change): a check of
#: the text is strict on these (irmeans_book.claims).
EXAMPLE: dict[str, Any] = {"ap": datasets.load("adhoc8", "ap").scores}


def chapter_matrix(scores: ArrayLike, label: str, shipped: Mapping[str, ArrayLike]) -> tuple[str, bool]:
    """How the figures name the chapter's matrix among ``shipped`` ({label: scores}), and whether it is one of them.

    A matrix with a shipped label and that matrix's scores is that one; any other is added to the figures under its
    own label, marked as the chapter's if the label is empty or a shipped one's.

    Examples
    --------
    >>> chapter_matrix([[0.5]], "TREC-8 ad hoc (1999), AP", {"TREC-8 ad hoc (1999), AP": [[0.1]]})
    ("TREC-8 ad hoc (1999), AP (the chapter's scores)", False)
    >>> chapter_matrix([[0.5]], "my runs", {}), chapter_matrix([[0.5]], "", {})
    (('my runs', False), ("the chapter's scores", False))
    """
    s = np.asarray(scores, dtype=float)
    if label in shipped:
        theirs = np.asarray(shipped[label], dtype=float)
        if theirs.shape == s.shape and np.array_equal(theirs, s):
            return label, True
        return f"{label} (the chapter's scores)", False
    return label or "the chapter's scores", False


def low_shares(scores: ArrayLike) -> tuple[float, float]:
    """Shares of scores equal to 0 and of scores at most 0.1 (Ravana & Moffat's §5.2).

    Examples
    --------
    >>> low_shares([[0.0, 0.1], [0.5, 0.05]])
    (0.25, 0.75)
    """
    s = np.asarray(scores, dtype=float)
    return float((s == 0).mean()), float((s <= 0.1).mean())


def score_density_table(
    bins: int = 20, extra: Mapping[str, ArrayLike] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The distribution of the scores of every shipped matrix: share of scores per bin of [0, 1].

    The first bin holds the zeros alone (``lo = hi = 0``); the others are
    (lo, hi], ``bins`` equal bins over (0, 1], so that the bins up to 0.1 hold
    exactly the scores at most 0.1.

    Returns
    -------
    bars : DataFrame
        ``matrix`` (the catalogue label), ``lo``, ``hi``, ``share``.
    summary : DataFrame
        ``matrix``, ``zeros`` and ``low`` (shares of scores of 0 and at most 0.1).

    ``extra`` ({label: scores}) adds matrices of one's own after the shipped ones.

    Examples
    --------
    >>> bars, summary = score_density_table()
    >>> float(bars[bars.matrix == "TREC-8 ad hoc (1999), AP"].share.sum().round(4))
    1.0
    >>> summary.set_index("matrix").loc["TREC-8 ad hoc (1999), AP"].round(3).tolist()
    [0.026, 0.36]
    """
    edges = np.round(np.linspace(0.0, 1.0, bins + 1), 10)
    frames, rows = [], []
    matrices = [(m.label, m.scores) for m in datasets.load_all()] + list((extra or {}).items())
    for label, scores in matrices:
        s = np.asarray(scores, dtype=float).ravel()
        # Bin k holds the scores in (edges[k - 1], edges[k]]; bin 0 the zeros.
        counts = np.bincount(np.searchsorted(edges, s, side="left"), minlength=bins + 1)
        frames.append(
            pd.DataFrame(
                {
                    "matrix": label,
                    "lo": np.r_[0.0, edges[:-1]],
                    "hi": edges,
                    "share": np.round(counts / s.size, 6),
                }
            )
        )
        frames[-1].loc[0, "hi"] = 0.0
        zeros, low = low_shares(s)
        rows.append((label, round(zeros, 6), round(low, 6)))
    return pd.concat(frames, ignore_index=True), pd.DataFrame(rows, columns=["matrix", "zeros", "low"])


def score_density_chart(bars: pd.DataFrame, summary: pd.DataFrame, initial: str = TREC8_LABEL) -> alt.TopLevelMixin:
    """Ravana & Moffat's Figure 4 for any shipped matrix: bars of the share of scores per bin.

    A select picks the matrix; a line of text gives its shares of zeros and
    of scores at most 0.1.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(score_density_chart(*score_density_table(5)), "Scores.")
    >>> [p["name"] for p in spec["params"]]
    ['matrix']
    """
    names = list(dict.fromkeys(bars.matrix))
    pick = alt.param(name="matrix", value=initial, bind=alt.binding_select(options=names, name="Collection, measure "))
    this = "datum.matrix == matrix"
    x = alt.X("lo:Q", title="Score (the red bar at 0: scores of exactly 0)", scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("share:Q", title="Share of all scores", axis=alt.Axis(format="%"))
    tooltip = [
        alt.Tooltip("lo:Q", title="above"),
        alt.Tooltip("hi:Q", title="up to"),
        alt.Tooltip("share:Q", format=".1%"),
    ]
    base = alt.Chart(bars).transform_filter(this)
    histogram = (
        base.transform_filter("datum.hi > 0")
        .mark_bar(color=OKABE_ITO[4], stroke="#FFFFFF", strokeWidth=0.5)
        .encode(x=x, x2="hi:Q", y=y, y2=alt.datum(0), tooltip=tooltip)
    )
    zeros = (
        base.transform_filter("datum.hi == 0")
        .mark_rule(strokeWidth=6, color=OKABE_ITO[5])
        .encode(x="lo:Q", y=y, y2=alt.datum(0), tooltip=tooltip)
    )
    readout = (
        alt.Chart(summary)
        .transform_filter(this)
        .transform_calculate(
            text="'zeros ' + format(datum.zeros, '.1%') + ',  at most 0.1: ' + format(datum.low, '.1%')"
        )
        .mark_text(align="left", fontSize=13, fontWeight="bold")
        .encode(text="text:N", x=alt.value(0))
        .properties(width=330, height=18)
    )
    chart = alt.vconcat(alt.layer(histogram, zeros).properties(width=330, height=220), readout).add_params(pick)
    return chart.properties(usermeta={"irmeans_check": "score density"})


def difficulty_table(extra: Mapping[str, ArrayLike] | None = None) -> pd.DataFrame:
    """Each topic of each shipped AP collection with its difficulty by Equations 1 and 2.

    Returns
    -------
    DataFrame
        ``collection`` (label), ``topic``, ``eq1`` (1 − mean AP), ``eq2``
        ((max − mean) / sd), ``hard_eq1``, ``hard_eq2`` (1 if in the hard
        half by that definition) and ``group``, which of the four
        combinations the topic is in.

    ``extra`` ({label: scores}) adds matrices of one's own after the shipped ones (their topics numbered from 1).

    Examples
    --------
    >>> t = difficulty_table()
    >>> int(t[t.collection == "TREC-8 ad hoc (1999), AP"].hard_eq2.sum())
    25
    """
    frames = []
    matrices: list[tuple[str, ArrayLike, list[str]]] = [
        (m.label, m.scores, list(m.topics)) for m in datasets.load_all(["ap"])
    ]
    matrices += [(label, x, [str(t) for t in range(1, np.shape(x)[1] + 1)]) for label, x in (extra or {}).items()]
    for label, scores, topics in matrices:
        s = np.array(scores, dtype=float)
        hard = {}
        for d in ("eq1", "eq2"):
            first, _ = consistency.difficulty_halves(consistency.topic_difficulty(s, d), "hard-easy")
            hard[d] = np.isin(np.arange(s.shape[1]), first[0]).astype(int)
        group = np.where(
            hard["eq1"] & hard["eq2"],
            "hard by both",
            np.where(
                hard["eq2"] == 1, "hard by Eq. 2 only", np.where(hard["eq1"] == 1, "hard by Eq. 1 only", "easy by both")
            ),
        )
        frames.append(
            pd.DataFrame(
                {
                    "collection": label,
                    "topic": topics,
                    "eq1": np.round(consistency.topic_difficulty(s, "eq1"), 6),
                    "eq2": np.round(consistency.topic_difficulty(s, "eq2"), 6),
                    "hard_eq1": hard["eq1"],
                    "hard_eq2": hard["eq2"],
                    "group": group,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


_GROUPS = ["hard by both", "hard by Eq. 2 only", "hard by Eq. 1 only", "easy by both"]


def difficulty_chart(table: pd.DataFrame, initial: str = TREC8_LABEL) -> alt.TopLevelMixin:
    """Topics placed by Equation 1 (x) and Equation 2 (y), coloured by the hard half each puts them in.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(difficulty_chart(difficulty_table()), "Difficulty.")
    >>> [p["name"] for p in spec["params"]]
    ['collection']
    """
    names = list(dict.fromkeys(table.collection))
    pick = alt.param(name="collection", value=initial, bind=alt.binding_select(options=names, name="Collection "))
    half = int(table[table.collection == initial].hard_eq2.sum())
    colour = alt.Color(
        "group:N",
        title=f"Hard half ({half} topics) by",
        scale=alt.Scale(domain=_GROUPS, range=[OKABE_ITO[5], OKABE_ITO[0], OKABE_ITO[4], "#999999"]),
        legend=alt.Legend(orient="bottom", columns=2),
    )
    chart: alt.TopLevelMixin = (
        alt.Chart(table)
        .transform_filter("datum.collection == collection")
        .mark_point(filled=True, size=60)
        .encode(
            x=alt.X("eq1:Q", title="Equation 1: 1 − mean AP over systems", scale=alt.Scale(zero=False)),
            y=alt.Y("eq2:Q", title="Equation 2: (max − mean) / sd", scale=alt.Scale(zero=False)),
            color=colour,
            shape=alt.Shape("group:N", scale=alt.Scale(domain=_GROUPS), legend=None),
            tooltip=["topic:N", alt.Tooltip("eq1:Q", format=".3f"), alt.Tooltip("eq2:Q", format=".3f"), "group:N"],
        )
        .add_params(pick)
        .properties(width=330, height=260, usermeta={"irmeans_check": "topic difficulty"})
    )
    return chart


def table_3c(scores: ArrayLike, n_splits: int = N_SPLITS, seed: int = SEED, ddof: int = 1) -> pd.DataFrame:
    """Table 3(c) of Ravana & Moffat (2009) recomputed, beside the paper's values.

    Rows are (scores, split): AP or SP (the standardized scores, with sample
    standard deviation for ``ddof=1``) by random halves (the mean τ of
    ``n_splits`` splits), Hard/Easy and Middle/Rest (one split each, by
    Equation 2 difficulty computed on the scores being averaged). Columns are
    the three averages and, prefixed ``paper:``, the printed values.

    Returns
    -------
    DataFrame, indexed by (scores, split)
    """
    s = np.asarray(scores, dtype=float)
    sources = {"AP": s, "SP": consistency.standardize(s, ddof=ddof)}
    rows = {}
    for name, x in sources.items():
        for kind in _SPLITS:
            first, second = consistency.make_halves(x, kind, n_splits, seed=seed)
            rows[(name, kind)] = [
                float(np.mean(consistency.halves_tau(x, avg, first, second))) for avg in TABLE_AVERAGES.values()
            ]
    out = pd.DataFrame.from_dict(rows, orient="index", columns=list(TABLE_AVERAGES))
    for k, label in enumerate(TABLE_AVERAGES):
        out[f"paper: {label}"] = [PAPER_TABLE_3C[key][k] for key in out.index]
    out.index = pd.MultiIndex.from_tuples(out.index, names=["scores", "split"])
    return out


def sp_split_variants(scores: ArrayLike, ddof_values: Iterable[int] = (1, 0)) -> pd.DataFrame:
    """The SP Hard/Easy and Middle/Rest cells under each reading of the paper we tried.

    The SP scores are standardized with each ``ddof``; the halves come from
    Equation 2 computed either on the SP scores themselves or on the AP.

    Returns
    -------
    DataFrame
        ``ddof, difficulty from, split`` and one column per average.
    """
    s = np.asarray(scores, dtype=float)
    rows = []
    for ddof in ddof_values:
        sp = consistency.standardize(s, ddof=ddof)
        for source, basis in (("SP", sp), ("AP", s)):
            for kind in ("hard-easy", "middle-rest"):
                first, second = consistency.make_halves(basis, kind)
                taus = [float(consistency.halves_tau(sp, avg, first, second)[0]) for avg in TABLE_AVERAGES.values()]
                rows.append([ddof, source, kind, *taus])
    return pd.DataFrame(rows, columns=["ddof", "difficulty from", "split", *TABLE_AVERAGES])


def resampled_taus(
    scores: ArrayLike, averages: Iterable[str], n_bootstrap: int, bootstrap_splits: int, seed: int = SEED
) -> tuple[dict[str, np.ndarray], float]:
    """What the bootstrap of :func:`irmeans.tau_intervals` does to τ: the mean τ of each average on resamples.

    Each resample draws the topics with replacement, as the bootstrap does, and splits it at random
    ``bootstrap_splits`` times; a topic drawn twice can then lie in both halves.

    Returns
    -------
    means : dict of str to ndarray
        Each average's mean τ on each resample (``n_bootstrap`` values).
    shared : float
        How many topics of a half, on average, have a copy in the other half.

    Examples
    --------
    >>> means, shared = resampled_taus(trec8(), ["am"], 5, 5)
    >>> means["am"].shape, 0 < shared < 25
    ((5,), True)
    """
    s = np.asarray(scores, dtype=float)
    n = s.shape[1]
    rng = np.random.default_rng(seed)
    means = {spec: np.empty(n_bootstrap) for spec in averages}
    shared = []
    for b in range(n_bootstrap):
        columns = rng.integers(0, n, n)
        first, second = consistency.make_halves(s[:, columns], "random", bootstrap_splits, seed=rng)
        shared += [np.isin(columns[f], columns[g]).sum() for f, g in zip(first, second)]  # type: ignore[index]  # integers(low, high, size): an array
        for spec in averages:
            means[spec][b] = np.nanmean(consistency.halves_tau(s[:, columns], spec, first, second))
    return means, float(np.mean(shared))


def _histogram(taus: np.ndarray, edges: ArrayLike) -> np.ndarray:
    counts = np.histogram(taus, bins=edges)[0]
    return np.round(counts / taus.size, 6)


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _remembered(compute: Callable[_P, _T]) -> Callable[_P, _T]:
    """``compute`` with its last results kept, by the bytes of its array arguments: a chapter's figure and its text
    use the same splits, computed once. Each call gets copies of what it returns."""
    kept: dict[Any, Any] = {}

    def key(value: Any) -> Any:
        if isinstance(value, dict):
            return tuple((k, key(v)) for k, v in value.items())
        if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
            return (value.shape, value.dtype.str, value.tobytes())
        if isinstance(value, list | tuple):
            return (type(value).__name__, *(key(v) for v in value))
        return value

    def copied(result: Any) -> Any:
        if isinstance(result, tuple):
            return tuple(copied(r) for r in result)
        if isinstance(result, dict):
            return dict(result)
        return result.copy() if hasattr(result, "copy") else result

    def remembered(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        k = (tuple(key(a) for a in args), tuple(sorted((n, key(v)) for n, v in kwargs.items())))
        if k not in kept:
            if len(kept) >= 4:
                kept.pop(next(iter(kept)))
            kept[k] = compute(*args, **kwargs)
        value: _T = copied(kept[k])
        return value

    remembered.__doc__, remembered.__name__ = compute.__doc__, compute.__name__
    remembered.__wrapped__ = compute  # type: ignore[attr-defined]  # as functools.wraps sets it
    return remembered


@_remembered
def tau_sweep(
    scores: ArrayLike,
    n_splits: int = N_SPLITS,
    seed: int = SEED,
    eps_grid: ArrayLike = EPS_GRID,
    bin_width: float = 0.01,
) -> tuple[pd.DataFrame, pd.DataFrame, dict[tuple[str, float | None], np.ndarray]]:
    """Mean τ against ε for εGM and εHM, and the τ of each split: Ravana & Moffat's Figures 1-3 on any matrix.

    Their Figure 1 plots εGM and εHM on TREC9, Figure 3 εGM alone (with AM as ε → ∞) on TREC8
    and TREC2001, and Figure 2 the distribution of τ at ε = 0.01; this computes all of them.

    All averages use the same ``n_splits`` random halves.

    Returns
    -------
    curve : DataFrame
        ``average`` ("εGM", "εHM", "AM", "median"), ``log_eps`` (NaN for AM and
        the median), ``mean_tau``.
    density : DataFrame
        ``average, log_eps, lo, share``: the share of splits with τ in
        [lo, lo + bin_width), bins with no split left out.
    taus : dict
        The τ of every split, by (average, log_eps), with log_eps ``None`` for the AM and the median.

    Examples
    --------
    >>> curve, density, taus = tau_sweep(trec8(), n_splits=30, eps_grid=[0.01])
    >>> sorted(curve.average)
    ['AM', 'median', 'εGM', 'εHM']
    """
    s = np.asarray(scores, dtype=float)
    first, second = consistency.make_halves(s, "random", n_splits, seed=seed)
    runs = [("AM", np.nan, AM()), ("median", np.nan, Median())]
    for eps in np.asarray(eps_grid, dtype=float):
        log_eps = float(np.round(np.log10(eps), 6))
        runs += [("εGM", log_eps, GM(eps=float(eps))), ("εHM", log_eps, HM(eps=float(eps)))]
    edges = np.round(np.arange(-1.0, 1.0 + bin_width / 2, bin_width), 6)
    curve, frames, taus = [], [], {}
    for label, log_eps, avg in runs:
        t = consistency.halves_tau(s, avg, first, second)
        taus[(label, None if np.isnan(log_eps) else log_eps)] = t
        curve.append((label, log_eps, float(np.round(t.mean(), 6))))
        share = _histogram(t, edges)
        keep = share > 0
        frames.append(
            pd.DataFrame({"average": label, "log_eps": log_eps, "lo": edges[:-1][keep], "share": share[keep]})
        )
    curve = pd.DataFrame(curve, columns=["average", "log_eps", "mean_tau"])
    return curve, pd.concat(frames, ignore_index=True), taus


_SWEEP_AVERAGES = ["εGM", "εHM", "AM", "median"]
# Orange and reddish purple for the two ε-means: orange and vermilion, both drawn a shade darker on a light
# page, were two near-identical oranges, with the same marker. Each line's points have a shape of their own.
_SWEEP_COLOURS = [OKABE_ITO[0], OKABE_ITO[6], OKABE_ITO[4], OKABE_ITO[2]]
_SWEEP_SHAPES = ["circle", "square", "triangle-up", "diamond"]


def sweep_chart(curve: pd.DataFrame, density: pd.DataFrame, initial_log_eps: float = SWEEP_START) -> alt.TopLevelMixin:
    """Mean τ against ε (as in Ravana & Moffat's Figure 1; their Figure 3 has the εGM curve alone) above
    the distribution of τ at the chosen ε (as in their Figure 2).

    A slider sets log10 ε; a line of text gives the four mean τ there.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> curve, density, _ = tau_sweep(trec8(), n_splits=20, eps_grid=[0.001, 0.01])
    >>> spec = to_spec(sweep_chart(curve, density), "Sweep.")
    >>> [p["name"] for p in spec["params"]]
    ['logeps']
    """
    steps = np.sort(curve.log_eps.dropna().unique())
    logeps = slider_param("logeps", steps, initial_log_eps, "log10 ε ")
    at_eps = "(datum.average == 'AM' || datum.average == 'median' || abs(datum.log_eps - logeps) < 1e-6)"
    colour = alt.Color(
        "average:N",
        title="Average",
        sort=_SWEEP_AVERAGES,
        scale=alt.Scale(domain=_SWEEP_AVERAGES, range=_SWEEP_COLOURS),
        legend=alt.Legend(orient="bottom"),
    )
    with_eps = curve.dropna(subset=["log_eps"])
    flat = curve[curve.log_eps.isna()][["average", "mean_tau"]]
    x = alt.X("log_eps:Q", title="log10 ε", scale=alt.Scale(domain=[float(steps[0]), float(steps[-1])]))
    y = alt.Y("mean_tau:Q", title="Mean τ over the splits", scale=alt.Scale(zero=False))
    shape = alt.Shape("average:N", sort=_SWEEP_AVERAGES, scale=alt.Scale(domain=_SWEEP_AVERAGES, range=_SWEEP_SHAPES))
    lines = (
        alt.Chart(with_eps)
        .mark_line(point=alt.OverlayMarkDef(filled=True, size=45))
        .encode(
            x=x,
            y=y,
            color=colour,
            shape=shape,
            tooltip=["average:N", "log_eps:Q", alt.Tooltip("mean_tau:Q", format=".3f")],
        )
    )
    rules = (
        alt.Chart(flat)
        .mark_rule(strokeDash=[6, 3], strokeWidth=2)
        .encode(y="mean_tau:Q", color=colour, tooltip=["average:N", alt.Tooltip("mean_tau:Q", format=".3f")])
    )
    chosen = (
        alt.Chart(with_eps)
        .transform_filter("abs(datum.log_eps - logeps) < 1e-6")
        .mark_point(size=160, shape="diamond", filled=True, color="#000000")
        .encode(x=x, y="mean_tau:Q")
    )
    top = alt.layer(rules, lines, chosen).properties(width=330, height=220, title="Mean τ against ε")
    readout = (
        alt.Chart(curve)
        .transform_filter(at_eps)
        .transform_calculate(key="'k'")
        .transform_pivot("average", value="mean_tau", groupby=["key"])
        .transform_calculate(
            text=(
                "'log10 ε = ' + format(logeps, '.1f') + ':  εGM ' + format(datum['εGM'], '.3f') + "
                "',  εHM ' + format(datum['εHM'], '.3f') + ',  AM ' + format(datum['AM'], '.3f') + "
                "',  median ' + format(datum['median'], '.3f')"
            )
        )
        .mark_text(align="left", fontSize=12, fontWeight="bold")
        .encode(text="text:N", x=alt.value(0))
        .properties(width=330, height=18)
    )
    hist = (
        alt.Chart(density)
        .transform_filter(at_eps)
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=alt.X("lo:Q", title="Kendall's τ of one split", scale=alt.Scale(zero=False)),
            y=alt.Y("share:Q", title="Share of splits"),
            color=colour,
            tooltip=["average:N", alt.Tooltip("lo:Q", title="τ from"), alt.Tooltip("share:Q", format=".3f")],
        )
        .properties(width=330, height=200, title="τ of each split at the chosen ε")
    )
    return alt.vconcat(top, readout, hist).add_params(logeps).properties(usermeta={"irmeans_check": "tau sweep"})


def _shipped_scores(measures: Collection[str] | None = None) -> dict[str, np.ndarray]:
    """The shipped matrices' scores by label (AP only, or every measure)."""
    return {m.label: m.scores for m in datasets.load_all(measures)}


def score_density_alt(scores: ArrayLike, label: str = TREC8_LABEL) -> str:
    """Figure 9.1's alt text, for the chapter's matrix."""
    return (
        "Bars of the share of scores in each bin of width 0.05 from 0 to 1, with a separate bar for scores of "
        "exactly 0, for the chosen collection and measure."
    )


def score_density_state(summary: pd.DataFrame) -> Callable[..., str]:
    """Figure 9.1's words for each matrix the select offers, ``state(matrix)``: its shares of zeros and of scores
    at most 0.1 (:func:`score_density_table`'s ``summary``), as its read-out prints them.

    Examples
    --------
    >>> score_density_state(score_density_table(extra={"mine": [[0.0, 0.05], [0.5, 0.9]]})[1])("mine")
    'For mine: 25.0% of the scores are 0 and 50.0% are at most 0.1.'
    """
    rows = summary.set_index("matrix")

    def state(matrix: str) -> str:
        row = rows.loc[matrix]
        return f"For {matrix}: {row.zeros:.1%} of the scores are 0 and {row.low:.1%} are at most 0.1."

    return state


def score_density_figure(scores: ArrayLike = EXAMPLE["ap"], label: str = TREC8_LABEL) -> VegaLiteFigure:
    """Figure 9.1: the distribution of the scores of every shipped matrix, the select at the chapter's matrix
    (``scores``, systems × topics, named ``label``; added to the select if it is not a shipped one).

    Examples
    --------
    >>> fig = score_density_figure([[0.0, 0.05], [0.5, 0.9]], "my runs")
    >>> fig.spec["params"][0]["value"], fig.spec["description"].split(". ")[-1]
    ('my runs', 'For my runs: 25.0% of the scores are 0 and 50.0% are at most 0.1.')
    """
    name, shipped = chapter_matrix(scores, label, _shipped_scores())
    bars, summary = score_density_table(extra=None if shipped else {name: scores})
    return show(
        score_density_chart(bars, summary, initial=name),
        alt=score_density_alt(scores, name),
        source=TREC_DATA,
        state=score_density_state(summary),
    )


def difficulty_alt(scores: ArrayLike, label: str = TREC8_LABEL) -> str:
    """Figure 9.2's alt text, for the chapter's matrix."""
    return (
        "Scatter plot of the topics of the chosen collection: Equation 1 difficulty (1 minus mean AP) across, "
        "Equation 2 difficulty up, coloured, and marked, by which equation puts the topic in the hard half."
    )


def difficulty_state(table: pd.DataFrame) -> Callable[..., str]:
    """Figure 9.2's words for each collection the select offers, ``state(collection)``: how many of the hard topics
    by Equation 2 are hard by Equation 1 too (:func:`difficulty_table`'s rows).

    Examples
    --------
    >>> t = difficulty_table(extra={"mine": [[0.1, 0.5, 0.2, 0.9], [0.0, 0.4, 0.3, 0.8], [0.2, 0.6, 0.1, 0.7]]})
    >>> difficulty_state(t)("mine")
    'For mine, 1 of the 2 hard topics by Equation 2 are also hard by Equation 1.'
    """
    counts = table.assign(both=table.hard_eq1 & table.hard_eq2).groupby("collection")[["both", "hard_eq2"]].sum()

    def state(collection: str) -> str:
        both, hard = (int(v) for v in counts.loc[collection])
        return f"For {collection}, {both} of the {hard} hard topics by Equation 2 are also hard by Equation 1."

    return state


def difficulty_figure(scores: ArrayLike = EXAMPLE["ap"], label: str = TREC8_LABEL) -> VegaLiteFigure:
    """Figure 9.2: each topic's difficulty by Equations 1 and 2, for every shipped AP collection, the select at the
    chapter's matrix (added to the select if it is not a shipped AP matrix).

    Examples
    --------
    >>> fig = difficulty_figure([[0.1, 0.5, 0.2, 0.9], [0.0, 0.4, 0.3, 0.8], [0.2, 0.6, 0.1, 0.7]], "mine")
    >>> fig.spec["params"][0]["value"], "For mine, 1 of the 2 hard topics" in fig.spec["description"]
    ('mine', True)
    """
    name, shipped = chapter_matrix(scores, label, _shipped_scores(["ap"]))
    table = difficulty_table(extra=None if shipped else {name: scores})
    return show(
        difficulty_chart(table, initial=name),
        alt=difficulty_alt(scores, name),
        source=TREC_DATA,
        state=difficulty_state(table),
    )


def sweep_alt(curve: pd.DataFrame, n_splits: int = N_SPLITS, label: str = TREC8_LABEL) -> str:
    """Figure 9.3's alt text, for the sweep (:func:`tau_sweep`'s ``curve``) of the chapter's matrix."""
    flat = curve[curve.log_eps.isna()].set_index("average").mean_tau
    gm = curve[curve.average == "εGM"].set_index("log_eps").mean_tau
    above = gm[gm > flat["AM"]]
    passes = (
        f"the geometric mean passes the arithmetic mean from epsilon {10 ** above.index.min():.2g}"
        if len(above)
        else "the geometric mean stays below the arithmetic mean"
    )
    lo, hi = curve.log_eps.min(), curve.log_eps.max()
    return (
        f"Top: mean Kendall's tau of the epsilon-geometric and epsilon-harmonic means of {label} against log10 "
        f"epsilon from {lo:g} to {hi:g}, with dashed lines for the arithmetic mean ({flat['AM']:.3f}) and the median "
        f"({flat['median']:.3f}); {passes}. Bottom: the distribution of tau over the {n_splits:,} splits at the "
        "chosen epsilon for all four averages."
    )


def sweep_figure(
    scores: ArrayLike = EXAMPLE["ap"], label: str = TREC8_LABEL, n_splits: int = N_SPLITS, seed: int = SEED
) -> VegaLiteFigure:
    """Figure 9.3 for the chapter's matrix (systems × topics): mean τ against ε over ``n_splits`` random splits,
    the slider at log10 ε = :data:`SWEEP_START`. The sweep is :func:`tau_sweep`'s, computed once for the chapter's
    text and its figure.

    Examples
    --------
    >>> fig = sweep_figure(trec8()[:20], "twenty runs", n_splits=20)
    >>> fig.spec["params"][0]["value"], "twenty runs" in fig.spec["description"]
    (-2.0, True)
    """
    curve, density, _ = tau_sweep(scores, n_splits=n_splits, seed=seed)
    shipped = chapter_matrix(scores, label, _shipped_scores())[1]
    chart = sweep_chart(curve, density, initial_log_eps=SWEEP_START)
    return show(
        chart,
        alt=sweep_alt(curve, n_splits, label),
        source=TREC_DATA if shipped else None,
        state=sweep_state(curve),
    )


def sweep_state(curve: pd.DataFrame) -> Callable[..., str]:
    """Figure 9.3's words for each setting of its slider, ``state(logeps)``: the four mean τ its read-out prints
    (:func:`tau_sweep`'s ``curve``).

    Examples
    --------
    >>> curve = tau_sweep(trec8()[:20], n_splits=20, eps_grid=[0.01])[0]
    >>> sweep_state(curve)(-2.0)[:37]
    'At log10 ε = −2.0, the mean τ of εGM '
    """
    flat = curve[curve.log_eps.isna()].set_index("average").mean_tau

    def state(logeps: float) -> str:
        at = curve[np.isclose(curve.log_eps, logeps, atol=1e-6)].set_index("average").mean_tau
        if at.empty:
            raise LookupError(logeps)
        return (
            f"At log10 ε = {logeps:.1f}, the mean τ of εGM is {at['εGM']:.3f} and of εHM {at['εHM']:.3f}; "
            f"of the AM {flat['AM']:.3f} and of the median {flat['median']:.3f}."
        ).replace("-", "−")

    return state


# ---------------------------------------------------------------------------
# Beyond the paper: the split-half protocol on every shipped TREC matrix
# ---------------------------------------------------------------------------

#: Random splits per matrix (the paper's 10,000 are used for TREC-8 in chapter 9).
REPLICATION_SPLITS = 1000

#: The ε of the εGM, one per decade from 10^-5 to 10^0.
REPLICATION_EPS_GRID = np.round(10.0 ** np.arange(-5.0, 0.01, 1.0), 12)

#: Measures in the order of the figures' select and legend.
MEASURE_ORDER = [datasets.MEASURES[m] for m in datasets.MEASURES]

#: What Figure 9.4 calls the measure of the chapter's matrix when it is not a shipped one.
CHAPTER_MEASURE = "the chapter's matrix"

# Each measure's colour. Grey, not Okabe-Ito's black, for the seventh measure: black marks vanish in dark mode.
_MEASURE_COLOURS = {
    **dict(zip(MEASURE_ORDER, [*(OKABE_ITO[i] for i in (4, 5, 0, 2, 6, 1)), "#999999"])),
    CHAPTER_MEASURE: OKABE_ITO[3],
}


@_remembered
def replication_tables(
    n_splits: int = REPLICATION_SPLITS,
    seed: int = SEED,
    eps_grid: ArrayLike = REPLICATION_EPS_GRID,
    matrices: Sequence[str] | None = None,
    extra: Mapping[str, ArrayLike] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mean τ of each average on each shipped matrix, over the same random splits.

    Parameters
    ----------
    n_splits : int
        Random splits per matrix.
    seed : int
        Seed of the splits (the same for every matrix and average).
    eps_grid : array_like
        The ε of the εGM.
    matrices : list of str, optional
        Names such as ``"adhoc8_ap"``; all 46 by default.
    extra : dict, optional
        Matrices of one's own ({label: scores}), after the shipped ones; their collection is their label and their
        measure :data:`CHAPTER_MEASURE`.

    Returns
    -------
    long : DataFrame
        ``matrix, average`` ("AM", "εGM", "trec_eval GM", "standardized AM"),
        ``log_eps`` (NaN except for the εGM), ``mean_tau``.
    wide : DataFrame
        One row per matrix: ``matrix`` (label), ``collection, measure,
        systems, topics, zeros, low`` (shares of scores 0 and ≤ 0.1), and the
        mean τ ``am``, ``trec_gm``, ``std_am``, ``gm_<log10 ε>`` for each ε.
    """
    long_rows, wide_rows = [], []
    eps_grid = np.asarray(eps_grid, dtype=float)
    shipped = [
        (lambda e=entry: datasets.load(e.collection, e.measure))
        for entry in datasets.catalog()
        if matrices is None or entry.name in matrices
    ]
    own = [
        (lambda label=label, x=x: (label, label, CHAPTER_MEASURE, np.array(x, dtype=float)))
        for label, x in (extra or {}).items()
    ]
    for load in shipped + own:
        m = load()
        if isinstance(m, tuple):
            label, collection, measure, s = m
        else:
            label, collection, measure, s = m.label, m.collection, datasets.MEASURES[m.measure], np.array(m.scores)
        first, second = consistency.make_halves(s, "random", n_splits, seed=seed)
        runs = [
            ("AM", np.nan, s, AM()),
            ("trec_eval GM", np.nan, s, GM(eps=1e-5, form="floor")),
            # A topic on which every system scores alike standardizes to 0.5 for all.
            ("standardized AM", np.nan, consistency.standardize(s, constant="half"), AM()),
        ]
        runs += [("εGM", float(np.round(np.log10(e), 6)), s, GM(eps=float(e))) for e in eps_grid]
        row = {
            "matrix": label,
            "collection": collection,
            "measure": measure,
            "systems": s.shape[0],
            "topics": s.shape[1],
            "zeros": round(float((s == 0).mean()), 6),
            "low": round(float((s <= 0.1).mean()), 6),
        }
        for average, log_eps, x, avg in runs:
            tau = float(np.round(np.nanmean(consistency.halves_tau(x, avg, first, second)), 6))
            long_rows.append((row["matrix"], average, log_eps, tau))
            key = {"AM": "am", "trec_eval GM": "trec_gm", "standardized AM": "std_am"}.get(average, f"gm_{log_eps:g}")
            row[key] = tau
        wide_rows.append(row)
    long = pd.DataFrame(long_rows, columns=["matrix", "average", "log_eps", "mean_tau"])
    return long, pd.DataFrame(wide_rows)


#: The averages whose difference from the AM :func:`replication_intervals` gives an interval, by spec.
INTERVAL_AVERAGES = {"gm:0.01": "εGM, ε = 0.01", "gm-floor:1e-5": "trec_eval GM", "std-am": "standardized AM"}

#: Resamples of the topics, and splits of each, for the intervals over topics of :func:`replication_intervals`:
#: fewer than the command's default 1,000 so that the book's build stays short; they widen the interval a little.
INTERVAL_BOOTSTRAP, INTERVAL_BOOTSTRAP_SPLITS = 200, 20


@_remembered
def replication_intervals(
    n_splits: int = REPLICATION_SPLITS,
    seed: int = SEED,
    n_bootstrap: int = INTERVAL_BOOTSTRAP,
    bootstrap_splits: int = INTERVAL_BOOTSTRAP_SPLITS,
    matrices: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Each average's difference in mean τ from the AM's on each shipped matrix, with its two 95 % intervals.

    :func:`irmeans.tau_intervals` on every matrix: the interval over splits (how far other random splits of the
    same topics would move the difference) and over topics (the bootstrap: how far another sample of topics
    would). A difference counts as a win or a loss only when the interval over topics excludes 0.

    Parameters
    ----------
    n_splits, seed : int
        Random splits per matrix, and their seed.
    n_bootstrap, bootstrap_splits : int
        Resamples of the topics, and random splits of each.
    matrices : list of str, optional
        Names such as ``"adhoc8_ap"``; all 46 by default.

    Returns
    -------
    DataFrame
        One row per matrix and average: ``matrix, collection, measure, average`` (a value of
        :data:`INTERVAL_AVERAGES`), ``difference`` (mean τ − the AM's), ``splits_low, splits_high,
        topics_low, topics_high`` and ``verdict``: "more consistent", "less consistent" or "undecided" (the
        interval over topics holds 0).

    Examples
    --------
    >>> t = replication_intervals(n_splits=50, n_bootstrap=20, bootstrap_splits=10, matrices=["adhoc8_ap"])
    >>> list(t.average), bool((t.topics_low <= t.difference).all() and (t.difference <= t.topics_high).all())
    (['εGM, ε = 0.01', 'trec_eval GM', 'standardized AM'], True)
    """
    rows = []
    for entry in datasets.catalog():
        if matrices is not None and entry.name not in matrices:
            continue
        m = datasets.load(entry.collection, entry.measure)
        report = irmeans.tau_intervals(
            np.array(m.scores),
            list(INTERVAL_AVERAGES),
            n_splits,
            seed,
            n_bootstrap=n_bootstrap,
            bootstrap_splits=bootstrap_splits,
        )
        for spec, name in INTERVAL_AVERAGES.items():
            r = report.rows[spec_label(spec)]
            low, high = r.difference_over_topics.low, r.difference_over_topics.high  # type: ignore[union-attr]  # bootstrapped: it has one
            verdict = "more consistent" if low > 0 else "less consistent" if high < 0 else "undecided"
            rows.append(
                {
                    "matrix": m.label,
                    "collection": m.collection,
                    "measure": datasets.MEASURES[m.measure],
                    "average": name,
                    "difference": r.difference,
                    "splits_low": r.difference_over_splits.low,  # type: ignore[union-attr]  # bootstrapped: it has one
                    "splits_high": r.difference_over_splits.high,  # type: ignore[union-attr]  # bootstrapped: it has one
                    "topics_low": low,
                    "topics_high": high,
                    "verdict": verdict,
                }
            )
    return pd.DataFrame(rows)


#: The comparisons of :func:`form_and_eps_intervals`: (name, average, baseline), each average's mean τ minus its
#: baseline's. The form at one ε, the ε in one form, and the εGM against trec_eval's GM, which changes both.
FORM_AND_EPS_COMPARISONS = (
    ("εGM (0.01) − trec_eval GM", "gm:0.01", "gm-floor:1e-5"),
    ("ε: added form at 0.01 − at 1e-5", "gm:0.01", "gm:1e-5"),
    ("form at 1e-5: added − floor", "gm:1e-5", "gm-floor:1e-5"),
    ("form at 0.01: floor − added", "gm-floor:0.01", "gm:0.01"),
)


@_remembered
def form_and_eps_intervals(
    n_splits: int = REPLICATION_SPLITS,
    seed: int = SEED,
    n_bootstrap: int = INTERVAL_BOOTSTRAP,
    bootstrap_splits: int = INTERVAL_BOOTSTRAP_SPLITS,
    matrices: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The form or the ε: each comparison of :data:`FORM_AND_EPS_COMPARISONS` on each shipped matrix, with its
    two 95 % intervals, as :func:`replication_intervals` gives each average's difference from the AM.

    trec_eval's GM differs from the εGM of chapter 10's advice in two ways at once, its floor and its ε = 1e-5:
    these comparisons change one at a time, on the same random splits (:func:`irmeans.tau_intervals` with the
    comparison's baseline).

    Parameters
    ----------
    n_splits, seed : int
        Random splits per matrix, and their seed.
    n_bootstrap, bootstrap_splits : int
        Resamples of the topics, and random splits of each.
    matrices : list of str, optional
        Names such as ``"adhoc8_ap"``; all 46 by default.

    Returns
    -------
    DataFrame
        One row per matrix and comparison: ``matrix, collection, measure, comparison`` (a name of
        :data:`FORM_AND_EPS_COMPARISONS`), ``difference``, ``splits_low, splits_high, topics_low, topics_high`` and
        ``verdict``: "higher", "lower" or "undecided" (the interval over topics holds 0).

    Examples
    --------
    >>> t = form_and_eps_intervals(n_splits=50, n_bootstrap=20, bootstrap_splits=10, matrices=["adhoc8_ap"])
    >>> t.set_index("comparison").loc["εGM (0.01) − trec_eval GM", "verdict"]
    'higher'
    """
    rows = []
    for entry in datasets.catalog():
        if matrices is not None and entry.name not in matrices:
            continue
        m = datasets.load(entry.collection, entry.measure)
        scores = np.array(m.scores)
        by_baseline: dict[str, Any] = {}
        for _, spec, baseline in FORM_AND_EPS_COMPARISONS:
            by_baseline.setdefault(baseline, []).append(spec)
        reports = {
            baseline: irmeans.tau_intervals(
                scores,
                specs,
                n_splits,
                seed,
                baseline=baseline,
                n_bootstrap=n_bootstrap,
                bootstrap_splits=bootstrap_splits,
            )
            for baseline, specs in by_baseline.items()
        }
        for name, spec, baseline in FORM_AND_EPS_COMPARISONS:
            r = reports[baseline].rows[spec_label(spec)]
            low, high = r.difference_over_topics.low, r.difference_over_topics.high  # type: ignore[union-attr]  # bootstrapped: it has one
            rows.append(
                {
                    "matrix": m.label,
                    "collection": m.collection,
                    "measure": datasets.MEASURES[m.measure],
                    "comparison": name,
                    "difference": r.difference,
                    "splits_low": r.difference_over_splits.low,  # type: ignore[union-attr]  # bootstrapped: it has one
                    "splits_high": r.difference_over_splits.high,  # type: ignore[union-attr]  # bootstrapped: it has one
                    "topics_low": low,
                    "topics_high": high,
                    "verdict": "higher" if low > 0 else "lower" if high < 0 else "undecided",
                }
            )
    return pd.DataFrame(rows)


def spearman_interval(rho: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """A confidence interval of Spearman's correlation ``rho`` over ``n`` independent pairs, by Fisher's z.

    ``arctanh(rho)`` is taken as normal with variance ``1.06 / (n - 3)``, the approximation of Fieller, Hartley and
    Pearson (1957) for Spearman's coefficient (Pearson's has ``1 / (n - 3)``); the interval is mapped back with
    ``tanh``.

    Examples
    --------
    >>> low, high = spearman_interval(0.0, 46)
    >>> round(high, 3), bool(np.isclose(low, -high))
    (0.298, True)
    """
    half = stats.norm.ppf(0.5 + level / 2) * np.sqrt(1.06 / (n - 3))
    z = np.arctanh(rho)
    return float(np.tanh(z - half)), float(np.tanh(z + half))


#: The largest bootstrap ``irmeans consistency`` and :func:`irmeans.tau_intervals` draw by default: 1,000 resamples of
#: the topics, 50 splits each (their default is ``n_splits`` over the resamples, at most 50: 10 at the default 10,000
#: splits). The chapter's own intervals use :data:`INTERVAL_BOOTSTRAP` and :data:`INTERVAL_BOOTSTRAP_SPLITS`; these
#: are the settings its text compares them with.
DEFAULT_BOOTSTRAP, DEFAULT_BOOTSTRAP_SPLITS = 1000, 50

#: :func:`replication_intervals` at :data:`DEFAULT_BOOTSTRAP` × :data:`DEFAULT_BOOTSTRAP_SPLITS`, stored: about ten
#: minutes of work on two cores, too long for every run of the chapter. ``ch09_intervals_at_defaults.md`` beside it
#: says how it was made; :func:`write_default_intervals` makes it again.
DEFAULT_INTERVALS = Path(__file__).resolve().parents[1] / "data" / "ch09_intervals_at_defaults.csv"


def write_default_intervals(path: Path = DEFAULT_INTERVALS, matrices: Sequence[str] | None = None) -> pd.DataFrame:
    """Compute :func:`replication_intervals` at the command's default bootstrap and write it to ``path`` (CSV).

    Parameters
    ----------
    path : path-like
        Where to write; :data:`DEFAULT_INTERVALS` by default.
    matrices : list of str, optional
        Names such as ``"adhoc8_ap"``; all 46 by default.

    Returns
    -------
    DataFrame
        What was written: the columns of :func:`replication_intervals`, every number rounded to 12 decimals.
    """
    table = replication_intervals.__wrapped__(  # type: ignore[attr-defined]  # set by _remembered
        n_bootstrap=DEFAULT_BOOTSTRAP, bootstrap_splits=DEFAULT_BOOTSTRAP_SPLITS, matrices=matrices
    )
    numbers = table.select_dtypes("number").columns
    table[numbers] = table[numbers].round(12)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(path, index=False)
    return table


def default_intervals() -> pd.DataFrame:
    """The stored :data:`DEFAULT_INTERVALS`, as :func:`replication_intervals` returns its table.

    Examples
    --------
    >>> t = default_intervals()
    >>> len(t), sorted(t.verdict.unique()) == ["less consistent", "more consistent", "undecided"]
    (138, True)
    """
    return pd.read_csv(DEFAULT_INTERVALS)


def verdict_changes(ours: pd.DataFrame, defaults: pd.DataFrame) -> pd.DataFrame:
    """How the verdicts of two runs of :func:`replication_intervals` compare: a table of (ours, defaults) counts.

    Examples
    --------
    >>> a = pd.DataFrame({"matrix": ["m", "m"], "average": ["x", "y"], "verdict": ["undecided", "less consistent"]})
    >>> b = a.assign(verdict=["undecided", "undecided"])
    >>> verdict_changes(a, b).loc["less consistent", "undecided"]
    np.int64(1)
    """
    both = ours.merge(defaults, on=["matrix", "average"], suffixes=("", "_default"), validate="one_to_one")
    return pd.crosstab(both.verdict, both.verdict_default)


def win_counts(intervals: pd.DataFrame) -> pd.DataFrame:
    """For each average, on how many matrices it is more consistent than the AM, less, or neither, by the intervals.

    Examples
    --------
    >>> t = pd.DataFrame({"average": ["εGM", "εGM"], "verdict": ["undecided", "less consistent"]})
    >>> win_counts(t).loc["εGM"].tolist()
    [0, 1, 1, 2]
    """
    counts = pd.crosstab(intervals.average, intervals.verdict)
    for column in ("more consistent", "less consistent", "undecided"):
        if column not in counts:
            counts[column] = 0
    counts = counts[["more consistent", "less consistent", "undecided"]]
    counts["matrices"] = counts.sum(axis=1)
    return counts.rename_axis(index=None, columns=None)


def replication_points(wide: pd.DataFrame, eps_grid: ArrayLike = REPLICATION_EPS_GRID) -> pd.DataFrame:
    """Figure 9.4's points: one row per matrix and ε of the εGM (``log_eps``), with ``low`` (the share of scores at
    most 0.1), the mean τ of the AM, trec_eval's GM and the εGM, and the εGM's ``gain`` over the AM.

    Examples
    --------
    >>> _, wide = replication_tables(n_splits=10, matrices=["adhoc8_ap"], eps_grid=[0.01, 0.1])
    >>> replication_points(wide, [0.01, 0.1]).log_eps.tolist()
    [-2.0, -1.0]
    """
    steps = np.round(np.log10(np.asarray(eps_grid, dtype=float)), 6)
    points = []
    for log_eps in steps:
        gm = wide[f"gm_{log_eps:g}"]
        points.append(
            pd.DataFrame(
                {
                    "matrix": wide.matrix,
                    "measure": wide.measure,
                    "log_eps": log_eps,
                    "low": wide.low,
                    "am": wide.am,
                    "trec_gm": wide.trec_gm,
                    "gm": gm,
                    "gain": np.round(gm - wide.am, 6),
                }
            )
        )
    return pd.concat(points, ignore_index=True)


def _around(values: ArrayLike, pad: float = 0.04, lo: float | None = None, hi: float | None = None) -> list[float]:
    """A scale's domain that holds ``values`` with ``pad`` of their range to spare on each side, within [lo, hi]:
    no point over the plot's edge, and no empty half (a share axis from −10 %, a τ axis to 1.1)."""
    v = np.asarray(values, dtype=float)
    a, b = float(np.nanmin(v)), float(np.nanmax(v))
    room = pad * max(b - a, 1e-6)
    a, b = a - room, b + room
    return [a if lo is None else max(lo, a), b if hi is None else min(hi, b)]


def replication_chart(
    wide: pd.DataFrame,
    eps_grid: ArrayLike = REPLICATION_EPS_GRID,
    initial_log_eps: float = -2.0,
    initial_measure: str = "all",
) -> alt.TopLevelMixin:
    """Figures 9 and 10 of Ravana & Moffat from the real data, one point per matrix, side by side (stacked on a
    narrow screen): (a) the share of scores at most 0.1 against τ(εGM) − τ(AM); (b) mean τ of trec_eval's GM
    against that of the εGM, with the diagonal. A slider sets the ε of the εGM; a select picks a measure to
    highlight (the others drawn hollow). A line of text counts the matrices on which the εGM beats the AM.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> _, wide = replication_tables(n_splits=10, matrices=["adhoc8_ap", "adhoc8_p10"], eps_grid=[0.01, 0.1])
    >>> spec = to_spec(replication_chart(wide, [0.01, 0.1]), "Replication.")
    >>> sorted(p["name"] for p in spec["params"])
    ['logeps', 'measure']
    """
    points = replication_points(wide, eps_grid)
    steps = np.sort(points.log_eps.unique())
    measures = [m for m in [*MEASURE_ORDER, CHAPTER_MEASURE] if m in set(wide.measure)]
    logeps = slider_param("logeps", steps, initial_log_eps, "log10 ε ")
    measure = alt.param(
        name="measure",
        value=initial_measure,
        bind=alt.binding_select(options=["all", *measures], name="Highlight measure "),
    )
    base = alt.Chart(points).transform_filter("abs(datum.log_eps - logeps) < 1e-6")
    colour = alt.Color(
        "measure:N",
        title="Measure",
        sort=measures,
        scale=alt.Scale(
            domain=measures,
            range=[_MEASURE_COLOURS[m] for m in measures],
        ),
        legend=alt.Legend(orient="bottom", columns=4),
    )
    shape = alt.Shape("measure:N", sort=measures, scale=alt.Scale(domain=measures), legend=None)
    # A measure highlighted: the others are drawn hollow, their outline still in full colour (3:1 against the page).
    lit = alt.condition("measure == 'all' || datum.measure == measure", alt.value(1.0), alt.value(0.0))
    marks = {"filled": True, "size": 70, "strokeWidth": 1.2}
    tooltip = [
        "matrix:N",
        alt.Tooltip("low:Q", format=".1%", title="scores ≤ 0.1"),
        alt.Tooltip("am:Q", format=".3f", title="τ AM"),
        alt.Tooltip("gm:Q", format=".3f", title="τ εGM"),
        alt.Tooltip("trec_gm:Q", format=".3f", title="τ trec_eval GM"),
    ]
    # Each axis holds the points of every ε with a little room, and no more (the share axis started at −10 %,
    # the τ axis ran to 1.1, and half of the canvas was empty).
    share_domain = _around(points.low, lo=0.0, hi=1.0)
    gain_domain = _around(points.gain)
    tau_domain = _around(np.r_[points.trec_gm, points.gm], hi=1.0)
    zero = (
        alt.Chart(pd.DataFrame({"y": [0.0]}))
        .mark_rule(color="#666666")
        .encode(y=alt.Y("y:Q", scale=alt.Scale(domain=gain_domain, nice=False)))
    )
    fig9 = alt.layer(
        zero,
        base.mark_point(**marks).encode(
            x=alt.X(
                "low:Q",
                title="Share of scores at most 0.1",
                axis=alt.Axis(format="%"),
                scale=alt.Scale(domain=share_domain, nice=False),
            ),
            y=alt.Y("gain:Q", title="τ(εGM) − τ(AM)", scale=alt.Scale(domain=gain_domain, nice=False)),
            color=colour,
            stroke=colour.to_dict() | {"legend": None},  # type: ignore[operator]  # a channel's dict
            shape=shape,
            fillOpacity=lit,
            tooltip=tooltip,
        ),
    ).properties(width=300, height=230, title="(a) Does εGM help when many scores are low?")
    on_tau = alt.Scale(domain=tau_domain, nice=False)
    diagonal = (
        alt.Chart(pd.DataFrame({"x": tau_domain, "y": tau_domain}))
        .mark_line(color="#666666")
        .encode(x=alt.X("x:Q", scale=on_tau), y=alt.Y("y:Q", scale=on_tau))
    )
    fig10 = alt.layer(
        diagonal,
        base.mark_point(**marks).encode(
            x=alt.X(
                "trec_gm:Q",
                title="Mean τ, trec_eval GM (floor, ε = 1e-5)",
                scale=alt.Scale(domain=tau_domain, nice=False),
            ),
            y=alt.Y("gm:Q", title="Mean τ, εGM at the chosen ε", scale=alt.Scale(domain=tau_domain, nice=False)),
            color=colour,
            stroke=colour.to_dict() | {"legend": None},  # type: ignore[operator]  # a channel's dict
            shape=shape,
            fillOpacity=lit,
            tooltip=tooltip,
        ),
    ).properties(width=300, height=230, title="(b) εGM against trec_eval's GM")
    readout = (
        base.transform_calculate(win="datum.gain > 0 ? 1 : 0", beats="datum.gm > datum.trec_gm ? 1 : 0", n="1")
        .transform_aggregate(win="sum(win)", beats="sum(beats)", n="sum(n)")
        .transform_calculate(
            text=(
                "'log10 ε = ' + format(logeps, '.0f') + ':  εGM above AM on ' + datum.win + ' of ' + datum.n + "
                "',  above trec_eval GM on ' + datum.beats"
            )
        )
        .mark_text(align="left", fontSize=12, fontWeight="bold")
        .encode(text="text:N", x=alt.value(0))
        .properties(width=330, height=18)
    )
    panels = alt.hconcat(fig9, fig10).resolve_scale(color="shared", shape="shared")
    chart: alt.TopLevelMixin = alt.vconcat(readout, panels).add_params(logeps, measure).resolve_scale(color="shared")
    chart = chart.properties(usermeta={"irmeans_check": "replication"})
    return chart


def replication_alt(wide: pd.DataFrame, chapter: str | None = None) -> str:
    """Figure 9.4's alt text, for its table (:func:`replication_tables`'s ``wide``): what it shows at any setting;
    ``chapter`` names the chapter's matrix if the figure adds it (:func:`replication_state` says what it shows at
    one)."""
    shipped = wide.measure != CHAPTER_MEASURE
    rho = float(pd.Series(wide.low[shipped]).corr(pd.Series(wide["gm_-2"][shipped] - wide.am[shipped]), "spearman"))
    added = f" The chapter's matrix, {chapter}, is the point of its own colour." if chapter else ""
    return (
        f"Two scatter plots, one point per collection and measure ({len(wide)} in all), coloured and marked by "
        "measure. (a), as the paper's Figure 9: share of scores at most 0.1 across, mean tau of the "
        "epsilon-geometric mean minus that of the arithmetic mean up (at epsilon 0.01 their Spearman correlation "
        f"over the shipped matrices is {rho:.2f}). (b), as its Figure 10: mean tau of trec_eval's geometric mean "
        f"across, of the epsilon-geometric mean up, with the diagonal.{added}"
    )


def replication_state(points: pd.DataFrame) -> Callable[..., str]:
    """Figure 9.4's words for a setting of its controls, ``state(logeps, measure)``, from its points
    (:func:`replication_points`): what its read-out counts at that ε, and where the highlighted measure's points are.

    Examples
    --------
    >>> _, wide = replication_tables(n_splits=10, matrices=["adhoc8_ap", "adhoc8_p10"], eps_grid=[0.01])
    >>> replication_state(replication_points(wide, [0.01]))(-2.0, "all")[:44]
    'At log10 ε = −2, εGM is above the AM on 0 of'
    """

    def state(logeps: float, measure: str) -> str:
        at = points[np.isclose(points.log_eps, logeps, atol=1e-6)]
        if at.empty:
            raise LookupError(logeps)
        text = (
            f"At log10 ε = {logeps:.0f}, εGM is above the AM on {int((at.gain > 0).sum())} of {len(at)} matrices "
            f"and above trec_eval's GM on {int((at.gm > at.trec_gm).sum())}"
        )
        if measure != "all":
            some = at[at.measure == measure]
            text += (
                f"; of the {len(some)} {measure} points, {int((some.gain > 0).sum())} are above zero in (a) and "
                f"{int((some.gm > some.trec_gm).sum())} above the diagonal in (b)"
            )
        return (text + ".").replace("-", "−")

    return state


def replication_figure(scores: ArrayLike = EXAMPLE["ap"], label: str = TREC8_LABEL) -> VegaLiteFigure:
    """Figure 9.4: the split-half test on every shipped matrix, and on the chapter's (``scores``, systems × topics,
    named ``label``) if it is not one of them.

    Examples
    --------
    >>> "The chapter's matrix" in replication_figure().spec["description"]
    False
    """
    name, shipped = chapter_matrix(scores, label, _shipped_scores())
    _, wide = replication_tables(extra=None if shipped else {name: scores})
    return show(
        replication_chart(wide),
        alt=replication_alt(wide, None if shipped else name),
        source=TREC_DATA,
        state=replication_state(replication_points(wide)),
    )


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them. All are made from
#: the TREC runs' scores, and carry their attribution.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {
    "fig-ch9-scores": score_density_figure,
    "fig-ch9-difficulty": difficulty_figure,
    "fig-ch9-sweep": sweep_figure,
    "fig-ch9-replication": replication_figure,
}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------

CH9_HALF1 = (0.40, 0.35, 0.30, 0.20)  # systems S1..S4 by AM on the first half
CH9_HALF2 = (0.33, 0.38, 0.25, 0.21)  # and on the second: S1 and S2 swap places


@selfcheck("sc-ch9-tau")
def ch9_tau() -> Number:
    """Kendall's τ between the system orders of two halves that swap one pair of four systems."""
    return Number(float(irmeans.kendall_tau(CH9_HALF1, CH9_HALF2)), decimals=3)


@selfcheck("sc-ch9-one-zero")
def ch9_one_zero() -> Number:
    """εGM (ε = 10⁻⁵) of a half of 25 topics: one zero, 24 topics at 0.3."""
    return Number(float(irmeans.geometric_mean([0.0] + [0.3] * 24, eps=1e-5)), decimals=3)


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE: dict[str, Any] = {
    "lines": {
        'trec8 = datasets.load("adhoc8", "ap")': 'trec8 = datasets.read_csv("../examples/scores.csv", measure="ap")',
    },
    "named": {"the paper reports", "All six deterministic AP cells"},
    "figures": {},
    "params": {"fig-ch9-scores": {"matrix": "scores_ap"}, "fig-ch9-difficulty": {"collection": "scores_ap"}},
    "described": {
        "fig-ch9-scores": "For scores_ap: ",
        "fig-ch9-sweep": "epsilon-harmonic means of scores_ap against",
        "fig-ch9-replication": "(47 in all)",
    },
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS: list[tuple[str, str]] = [
    ("0.95", "the persistence of Ravana and Moffat's RBP0.95 (cited), its name"),
    ("0.001", "one unit in the third decimal, the precision the paper prints its τ values to"),
    ("10,000", "Ravana and Moffat's 10,000 random splits (cited), which the book runs too"),
    ("0.1", "the paper's threshold of a low score, at most 0.1 (cited)"),
    ("0.739", "a value the paper prints, Table 3(c) (cited)"),
    (
        "4 10 17 23 37 52 56",
        "Ravana and Moffat's Table 2 (cited): the shares (%) of TREC9's scores at 0 and at most 0.1, by measure",
    ),
    ("4.0", "the license's name, CC BY-SA 4.0"),
    ("95", "the level of every interval the text gives (irmeans.tau_intervals' and the command's, 95 %)"),
    ("0.02 0.2 0.5 0.6", "the illustration of standardized scores; the standard normal's centre, 0.5"),
    ("6 24 25 0.20 0.21 0.25 0.3 0.30 0.33 0.35 0.38 0.40", "the self-checks' scores and counts"),
]
