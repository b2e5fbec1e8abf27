"""Chapter 7's figures: when MAP, GMAP and their paired tests disagree, and why MRR averages 1/r.

The main figure applies a "blind feedback"-like change to a fixed baseline of
per-topic AP: the easier half of the topics gains, the harder half loses.
Each topic's change is the slider's setting times a fixed, seeded factor
between 0 and 2, so the topics do not all move alike. For every setting of
the two sliders, :func:`verdicts_table` computes MAP, GMAP and two paired
t-tests with the library (:func:`irmeans.paired_t_test`); the chart only picks rows.

Examples
--------
>>> import numpy as np
>>> ap = np.array([0.02, 0.05, 0.4, 0.6])
>>> feedback_scores(ap, gain=0.0, loss=0.0).tolist() == ap.tolist()
True
>>> print(describe_verdicts(ap, gain=0.5, loss=0.5).splitlines()[0])
MAP   0.2675 -> 0.4216  (+0.1541)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans import ScoreMatrix, means
from irmeans.averages import AM, GM
from irmeans.comparison import significance
from numpy.typing import ArrayLike

from irmeans_book import robertson
from irmeans_book.plots import OKABE_ITO, Grid, LiveFigure, VegaLiteFigure, csv_data, example, show, slider_param
from irmeans_book.selfcheck import Choice, Number, selfcheck, winner

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_table",
    "EXAMPLE",
    "verdicts_alt",
    "rank_shares_alt",
    "YOUR_SCORES",
    "RANKS",
    "FIGURES",
    "verdicts_figure",
    "rank_shares_figure",
    "EPS",
    "SEED",
    "GAIN",
    "LOSS",
    "GAIN_GRID",
    "LOSS_GRID",
    "GAINS",
    "LOSSES",
    "easy_topics",
    "change_factors",
    "feedback_scores",
    "verdicts",
    "VERDICTS",
    "verdicts_table",
    "verdicts_chart",
    "describe_verdicts",
    "feedback_controls",
    "rank_shares",
    "rank_shares_chart",
    "ROBUST_GMAP",
    "disagreeing_pairs",
    "verdicts_state",
    "VERDICT_SHAPES",
    "GLYPH_INK",
    "LABELLED_SHARE",
]

#: The ε of GMAP and of the log in the paired test, as in Robertson (2006).
EPS = 1e-5

#: Seed of the per-topic factors of the change.
SEED = 2009

#: The averages of the "your scores" box (irmeans_book.yourscores): MAP and the chapter's three GMAPs.
YOUR_SCORES = {
    "MAP (arithmetic mean)": AM(),
    "GMAP, additive ε = 10⁻⁵": GM(eps=EPS),
    "gm_map, trec_eval's floor": GM(eps=1e-5, form="floor"),
    "Robust track, zeros to 10⁻⁵": GM(eps=1e-5, form="zeros"),
}

#: The chapter's example change: an average gain of 0.2 on the easy topics and a loss of 0.3 on the hard ones.
GAIN, LOSS = 0.2, 0.3

#: The figure's sliders of the average gain on easy topics (0 to 1) and loss on hard ones (0 to 0.95)...
GAIN_GRID = Grid(0.0, 1.0, 0.05, decimals=2)
LOSS_GRID = Grid(0.0, 0.95, 0.05, decimals=2)
#: ... and their settings, the figure's grid.
GAINS = GAIN_GRID.values
LOSSES = LOSS_GRID.values

#: Codes of :func:`verdicts_table`'s ``verdict`` column: what MAP and GMAP say of the new system.
VERDICTS = {
    0: "no change",
    1: "MAP and GMAP: better",
    2: "MAP better, GMAP worse",
    3: "MAP worse, GMAP better",
    4: "MAP and GMAP: worse",
}


def easy_topics(ap: ArrayLike) -> np.ndarray:
    """Boolean mask of the easier half: the ``len(ap) // 2`` highest baseline scores.

    Ties are broken by position, as in :func:`irmeans_book.robertson.boost`.

    Examples
    --------
    >>> easy_topics([0.3, 0.1, 0.9, 0.2]).tolist()
    [True, False, True, False]
    """
    a = np.asarray(ap, dtype=float)
    half = a.size // 2
    mask = np.zeros(a.size, dtype=bool)
    mask[np.argsort(a, kind="stable")[a.size - half :]] = True
    return mask


def change_factors(n: int, seed: int = SEED) -> np.ndarray:
    """Each topic's share of the change: ``n`` seeded draws, uniform on [0, 2] (mean 1).

    Examples
    --------
    >>> f = change_factors(1000)
    >>> bool(f.min() >= 0 and f.max() <= 2), round(float(f.mean()), 1)
    (True, 1.0)
    """
    return np.random.default_rng(seed).uniform(0.0, 2.0, n)


def feedback_scores(ap: ArrayLike, gain: ArrayLike, loss: ArrayLike, seed: int = SEED) -> np.ndarray:
    """The new system's per-topic AP: easy topics gain, hard topics lose, each by its own factor.

    An easy topic becomes ``min(1, ap · (1 + gain · f))``, a hard one
    ``ap · (1 − min(1, loss · f))``, with ``f`` from :func:`change_factors`.
    ``gain`` and ``loss`` may be arrays (of one shape): the result then has
    one row of scores per setting.

    Parameters
    ----------
    ap : array_like, shape (n,)
        Baseline per-topic scores in [0, 1].
    gain, loss : float or array_like
        Average relative gain on easy topics, and average relative loss on
        hard ones (0.2 = 20 %).

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> feedback_scores([0.1, 0.5], gain=0.5, loss=0.5, seed=1).round(4).tolist()
    [0.0488, 0.9752]
    """
    a = np.asarray(ap, dtype=float)
    f = change_factors(a.size, seed)
    g = np.asarray(gain, dtype=float)[..., None]
    lo = np.asarray(loss, dtype=float)[..., None]
    up = np.minimum(1.0, a * (1.0 + g * f))
    down = a * (1.0 - np.minimum(1.0, lo * f))
    value: np.ndarray = np.where(easy_topics(a), up, down)
    return value


def verdicts(ap: ArrayLike, new: ArrayLike, eps: float = EPS) -> dict[str, Any]:
    """MAP, GMAP and two paired t-tests of ``new`` (one row per setting) against ``ap``.

    The t-test on AP asks whether the mean difference of AP is 0 (MAP's
    question); the t-test on log(AP + ε) asks whether the mean difference of
    the logs is 0, which is GMAP's. Where no topic changed, t = 0 and p = 1.

    Returns
    -------
    dict of str to ndarray
        ``map_base, gmap_base`` (floats), ``map, gmap, t_ap, p_ap, t_log,
        p_log`` and ``verdict`` (a key of :data:`VERDICTS`).

    Examples
    --------
    >>> v = verdicts([0.1, 0.5, 0.6], [[0.05, 0.6, 0.7]])
    >>> VERDICTS[int(v["verdict"][0])]
    'MAP better, GMAP worse'
    """
    a = np.asarray(ap, dtype=float)
    b = np.atleast_2d(np.asarray(new, dtype=float))
    out = {
        "map_base": means.arithmetic_mean(a),
        "gmap_base": means.geometric_mean(a, eps=eps),
        "map": means.arithmetic_mean(b, axis=1),
        "gmap": means.geometric_mean(b, eps=eps, axis=1),
    }
    same = np.all(b == a, axis=1)
    for name, x, y in (("ap", b, a), ("log", np.log(b + eps), np.log(a + eps))):
        out[f"t_{name}"], out[f"p_{name}"] = significance.paired_t_test(x, y)
    tol = 1e-12
    d_map, d_gmap = out["map"] - out["map_base"], out["gmap"] - out["gmap_base"]
    up_map, up_gmap = d_map > tol, d_gmap > tol
    code = np.where(up_map, np.where(up_gmap, 1, 2), np.where(up_gmap, 3, 4))
    out["verdict"] = np.where(same, 0, code)
    return out


def verdicts_table(
    ap: ArrayLike, gains: ArrayLike, losses: ArrayLike, seed: int = SEED, eps: float = EPS, decimals: int = 4
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Every value of chapter 7's figure, for each (gain, loss) of the grid.

    Returns
    -------
    grid : DataFrame
        One row per setting: ``gain, loss, map, gmap, t_ap, p_ap, t_log,
        p_log, verdict``.
    topics : DataFrame
        One row per setting: ``gain, loss`` and the new scores ``s1 ... sn``
        of the topics in order of baseline score, hardest first.
    baseline : DataFrame
        ``topic`` (1 = hardest), ``baseline``, ``easy`` (0/1).

    Examples
    --------
    >>> grid, topics, base = verdicts_table([0.1, 0.5], [0, 0.5], [0, 0.5], seed=1)
    >>> len(grid), list(topics.columns), grid.verdict.tolist()
    (4, ['gain', 'loss', 's1', 's2'], [0, 4, 1, 2])
    """
    a = np.asarray(ap, dtype=float)
    g, lo = np.meshgrid(np.asarray(gains, dtype=float), np.asarray(losses, dtype=float), indexing="ij")
    g, lo = g.ravel(), lo.ravel()
    new = feedback_scores(a, g, lo, seed)
    v = verdicts(a, new, eps)
    grid = pd.DataFrame({"gain": g.round(10), "loss": lo.round(10)})
    for key in ("map", "gmap", "t_ap", "p_ap", "t_log", "p_log"):
        grid[key] = np.round(v[key], decimals)
    grid["verdict"] = v["verdict"]
    order = np.argsort(a, kind="stable")
    topics = pd.DataFrame({"gain": grid.gain, "loss": grid.loss})
    for k, i in enumerate(order, start=1):
        topics[f"s{k}"] = new[:, i].round(decimals)
    baseline = pd.DataFrame(
        {"topic": np.arange(1, a.size + 1), "baseline": a[order], "easy": easy_topics(a)[order].astype(int)}
    )
    return grid, topics, baseline


#: A no-break space: the read-out's padding, which no narrow screen breaks a line at.
_PAD = "\u00a0"
#: Each verdict's mark in the grid of Figure 7.1, in the order of :data:`VERDICTS`: up for better, down for worse,
#: a diamond or a cross where MAP and GMAP disagree.
VERDICT_SHAPES = ("circle", "triangle-up", "diamond", "cross", "triangle-down")
#: The marks' ink: near-black, as it is, in both modes of the page (it sits on the cells' colours, not on the page).
GLYPH_INK = "#1A1A1A"

#: The decimals :func:`verdicts_chart` prints of each number of the grid.
_PRINTED = {"map": 4, "gmap": 4, "t_ap": 2, "p_ap": 4, "t_log": 2, "p_log": 4}


def _fmt(field: str, spec: str) -> str:
    return f"format(datum.{field}, '{spec}')"


def verdicts_chart(
    ap: ArrayLike,
    gains: ArrayLike,
    losses: ArrayLike,
    initial: tuple[float, float] = (GAIN, LOSS),
    seed: int = SEED,
    eps: float = EPS,
) -> alt.TopLevelMixin:
    """Chapter 7's figure: two sliders shape the change; per-topic scores, the verdict map and the numbers.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> c = verdicts_chart([0.1, 0.5, 0.6, 0.02], [0, 0.5], [0, 0.5], initial=(0.5, 0.5))
    >>> sorted(p["name"] for p in to_spec(c, "Verdicts.")["params"])
    ['gain', 'loss']
    """
    _, topics, baseline = verdicts_table(ap, gains, losses, seed, eps)
    # The numbers rounded once, to the decimals printed: t rounded to 4 and then printed with 2 can be off by one.
    grid = verdicts_table(ap, gains, losses, seed, eps, decimals=12)[0].round(_PRINTED)
    n = len(baseline)
    gain = slider_param("gain", gains, initial[0], "Average gain on easy topics ")
    loss = slider_param("loss", losses, initial[1], "Average loss on hard topics ")
    pick = "abs(datum.gain - gain) < 1e-9 && abs(datum.loss - loss) < 1e-9"

    scores = "[" + ", ".join(f"datum.s{k}" for k in range(1, n + 1)) + "]"
    per_topic = (
        alt.Chart(csv_data(topics))
        .transform_filter(pick)
        .transform_calculate(new=scores)
        .transform_flatten(["new"])
        .transform_window(topic="row_number()")
        .transform_lookup(lookup="topic", from_=alt.LookupData(csv_data(baseline), "topic", ["baseline", "easy"]))
        .transform_calculate(half="datum.easy == 1 ? 'easy half' : 'hard half'", change="datum.new - datum.baseline")
    )
    x = alt.X("topic:Q", title="Topic, hardest to easiest (baseline AP)", scale=alt.Scale(domain=[0.5, n + 0.5]))
    halves = ["easy half", "hard half"]
    colour = alt.Color("half:N", title="Topic", scale=alt.Scale(domain=halves, range=[OKABE_ITO[4], OKABE_ITO[5]]))
    # Each half's dots have a shape of their own, in the legend too: told apart by more than their colour.
    shape = alt.Shape("half:N", title="Topic", scale=alt.Scale(domain=halves, range=["circle", "square"]))
    rules = per_topic.mark_rule(strokeWidth=2).encode(x=x, y="baseline:Q", y2="new:Q", color=colour)
    base_pts = per_topic.mark_tick(color="#000000", thickness=1, size=8).encode(x=x, y="baseline:Q")
    new_pts = per_topic.mark_point(filled=True, size=30).encode(
        x=x,
        y=alt.Y("new:Q", title="AP (tick: baseline; dot: new system)", scale=alt.Scale(domain=[0, 1])),
        color=colour,
        shape=shape,
        tooltip=[
            "topic:Q",
            alt.Tooltip("baseline:Q", format=".4f"),
            alt.Tooltip("new:Q", format=".4f"),
            alt.Tooltip("change:Q", format="+.4f"),
        ],
    )
    scores_panel = (rules + base_pts + new_pts).properties(width=280, height=230, title="Per-topic AP")

    labels = list(VERDICTS.values())
    heat_base = alt.Chart(csv_data(grid)).transform_calculate(
        label=" || ".join(f"(datum.verdict == {k} ? '{v}' : '')" for k, v in VERDICTS.items())
    )
    # Reddish purple, not orange, for "MAP better, GMAP worse": beside the vermilion of "worse", orange
    # (a shade darker on a light page) was a near-identical square in the legend.
    verdict = alt.Scale(domain=labels, range=["#DDDDDD", OKABE_ITO[2], OKABE_ITO[6], OKABE_ITO[1], OKABE_ITO[5]])
    x_heat = alt.X("gain:O", title="Average gain on easy topics", axis=alt.Axis(format=".2f", labelAngle=-90))
    y_heat = alt.Y("loss:O", title="Average loss on hard topics", sort="descending", axis=alt.Axis(format=".2f"))
    # Each cell outlined in its own colour: side by side, the cells leave no hairline seams on paper.
    heat = heat_base.mark_rect(strokeWidth=0.75).encode(
        x=x_heat,
        y=y_heat,
        color=alt.Color("label:N", title="Verdict", scale=verdict),
        stroke=alt.Stroke("label:N", scale=verdict, legend=None),
        tooltip=[
            alt.Tooltip("gain:Q", format=".2f"),
            alt.Tooltip("loss:Q", format=".2f"),
            "label:N",
            alt.Tooltip("map:Q", format=".4f"),
            alt.Tooltip("gmap:Q", format=".4f"),
        ],
    )
    # And a mark of its own in every cell, in the legend too: the verdicts are told apart by more than colour.
    glyphs = heat_base.mark_point(filled=True, size=22, color=GLYPH_INK, opacity=1).encode(
        x=x_heat,
        y=y_heat,
        shape=alt.Shape("label:N", title="Verdict", scale=alt.Scale(domain=labels, range=list(VERDICT_SHAPES))),
    )
    # The setting shown: a square in the page's text colour, and inside it one in the glyphs' ink, so that on a
    # dark page, where the first is light, one of the two stands out from any cell's colour.
    at = heat_base.transform_filter(pick).encode(x="gain:O", y=alt.Y("loss:O", sort="descending"))
    here = at.mark_point(shape="square", size=120, color="#000000", strokeWidth=2, filled=False)
    inside = at.mark_point(shape="square", size=50, color=GLYPH_INK, strokeWidth=1.5, filled=False)
    heat_panel = (heat + glyphs + here + inside).properties(width=260, height=230, title="MAP and GMAP: which way?")

    base_map, base_gmap = means.arithmetic_mean(ap), means.geometric_mean(ap, eps=eps)
    # Each line's name and its values are one line on a phone too: the site breaks a read-out's text where
    # it has two spaces (irmeans-figures.js), so the names are padded with no-break spaces ("MAP" stood
    # above "0.3090 → 0.3516" at 390 px).
    lines = [
        f"'MAP{_PAD * 2}{base_map:.4f} → ' + {_fmt('map', '.4f')}",
        f"'GMAP {base_gmap:.4f} → ' + {_fmt('gmap', '.4f')}",
        f"'t on AP:{_PAD * 2}' + {_fmt('t_ap', '+.2f')} + ', p = ' + {_fmt('p_ap', '.4f')}",
        f"'t on log: ' + {_fmt('t_log', '+.2f')} + ', p = ' + {_fmt('p_log', '.4f')}",
    ]
    text = alt.Chart(csv_data(grid)).transform_filter(pick)
    rows = [
        text.transform_calculate(line=expr)
        .mark_text(align="left", fontSize=13, font="monospace")
        .encode(text="line:N", x=alt.value(0))
        .properties(width=260, height=18)
        for expr in lines
    ]
    numbers = alt.vconcat(*rows, spacing=2, title="At this setting (baseline → new)")
    top = alt.hconcat(scores_panel, heat_panel).resolve_scale(color="independent", shape="independent")
    chart: alt.TopLevelMixin = alt.vconcat(top, numbers).add_params(gain, loss).configure_view(stroke=None)
    return chart


def describe_verdicts(ap: ArrayLike, gain: float, loss: float, seed: int = SEED, eps: float = EPS) -> str:
    """The figure's numbers at one setting, as lines of text (the live controls print this).

    Examples
    --------
    >>> print(describe_verdicts([0.1, 0.5], 0.0, 0.0).splitlines()[-1])
    verdict: no change
    """
    a = np.asarray(ap, dtype=float)
    v = verdicts(a, feedback_scores(a, gain, loss, seed), eps)
    d_map, d_gmap = v["map"][0] - v["map_base"], v["gmap"][0] - v["gmap_base"]
    return "\n".join(
        [
            f"MAP   {v['map_base']:.4f} -> {v['map'][0]:.4f}  ({d_map:+.4f})",
            f"GMAP  {v['gmap_base']:.4f} -> {v['gmap'][0]:.4f}  ({d_gmap:+.4f})",
            f"t-test on AP:          t = {v['t_ap'][0]:+.2f}, p = {v['p_ap'][0]:.4f}",
            f"t-test on log(AP+eps): t = {v['t_log'][0]:+.2f}, p = {v['p_log'][0]:.4f}",
            f"verdict: {VERDICTS[int(v['verdict'][0])]}",
        ]
    )


def feedback_controls(
    ap: ArrayLike, gain: float = GAIN, loss: float = LOSS, seed: int = SEED, eps: float = EPS
) -> LiveFigure:
    """Two sliders (gain on easy topics, loss on hard ones) that redraw chapter 7's figure.

    They start where Figure 7.1 does: at ``gain`` and ``loss`` (by default :data:`GAIN` and :data:`LOSS`).

    Examples
    --------
    >>> live = feedback_controls([0.1, 0.5, 0.6, 0.02], gain=0.5, loss=0.1)
    >>> [p["value"] for p in live.figure.spec["params"]]
    [0.5, 0.1]
    >>> live.widgets["loss"].value = 0.0
    >>> live.figure.spec["description"].splitlines()[-1]
    'verdict: MAP and GMAP: better'
    """

    def draw(gain: float, loss: float) -> VegaLiteFigure:
        # The slider's own steps are 0.05; the reader's setting, where it starts, may be off them.
        gain, loss = float(np.round(gain, 10)), float(np.round(loss, 10))
        chart = verdicts_chart(ap, _with(GAINS, gain), _with(LOSSES, loss), initial=(gain, loss), seed=seed, eps=eps)
        return show(chart, alt=describe_verdicts(ap, gain, loss, seed, eps), controls=False)

    return LiveFigure(
        {"gain": GAIN_GRID.float_slider(gain, "Gain, easy"), "loss": LOSS_GRID.float_slider(loss, "Loss, hard")},
        draw,
    )


# ---------------------------------------------------------------------------
# MAP against GMAP on the real Robust 2004 runs
# ---------------------------------------------------------------------------

#: GMAP as trec_eval's ``gm_map`` computes it: AP below ε = 1e-5 raised to ε, then the geometric mean.
ROBUST_GMAP = GM(eps=1e-5, form="floor")


def disagreeing_pairs(matrix: ScoreMatrix, gmap: GM = ROBUST_GMAP, n_swing: int = 3) -> pd.DataFrame:
    """The pairs of systems that MAP and GMAP order in opposite ways, and the topics that swing them.

    For a pair whose MAP says A > B but whose GMAP says B > A, GMAP's verdict
    is the sign of the mean over topics of log(B) − log(A) (each AP raised
    to ε first); the topics that swing it are those with the largest such
    terms in B's favour, typically topics where A scores (nearly) 0.

    Parameters
    ----------
    matrix : irmeans.datasets.ScoreMatrix
        Per-topic AP, systems × topics.
    gmap : Average
        The GMAP; trec_eval's floor form with ε = 1e-5 by default.
    n_swing : int
        Topics listed per pair.

    Returns
    -------
    DataFrame
        One row per disagreeing pair, largest MAP difference first:
        ``map_higher, gmap_higher`` (system names), ``map_a, map_b, gmap_a,
        gmap_b``, ``swing`` (text: topic, A's AP → B's AP) and ``flip``, the
        fewest of B's best topics whose removal makes GMAP agree with MAP.

    Examples
    --------
    >>> from irmeans import datasets
    >>> pairs = disagreeing_pairs(datasets.load("robust2004", "ap"))
    >>> len(pairs) > 0, bool((pairs.map_a > pairs.map_b).all() and (pairs.gmap_b > pairs.gmap_a).all())
    (True, True)
    """
    s = np.asarray(matrix.scores, dtype=float)
    am: np.ndarray = AM()(s, axis=1)  # type: ignore[assignment]  # along an axis: an array
    gm: np.ndarray = gmap(s, axis=1)  # type: ignore[assignment]  # along an axis: an array
    i, j = np.triu_indices(s.shape[0], 1)
    flip = np.sign(am[i] - am[j]) * np.sign(gm[i] - gm[j]) < 0
    i, j = i[flip], j[flip]
    a = np.where(am[i] > am[j], i, j)  # MAP's winner
    b = np.where(am[i] > am[j], j, i)  # GMAP's winner
    log = np.log(np.maximum(s, gmap.eps))
    terms = log[b] - log[a]  # pairs × topics, B's advantage topic by topic
    ranked = np.argsort(-terms, axis=1, kind="stable")
    top = ranked[:, :n_swing]
    # Leaving out B's best topics one by one: how many until GMAP sides with MAP (sum of the rest < 0)?
    rest = terms.sum(axis=1)[:, None] - np.cumsum(np.take_along_axis(terms, ranked, axis=1), axis=1)
    flip = np.argmax(rest < 0, axis=1) + 1
    swing = [
        ", ".join(f"{matrix.topics[t]} ({s[x, t]:.4f} → {s[y, t]:.4f})" for t in ts) for x, y, ts in zip(a, b, top)
    ]
    out = pd.DataFrame(
        {
            "map_higher": [matrix.systems[k] for k in a],
            "gmap_higher": [matrix.systems[k] for k in b],
            "map_a": am[a],
            "map_b": am[b],
            "gmap_a": gm[a],
            "gmap_b": gm[b],
            "swing": swing,
            "flip": flip,
        }
    )
    order = np.argsort(-(out.map_a - out.map_b).to_numpy(), kind="stable")
    return out.iloc[order].reset_index(drop=True)


# ---------------------------------------------------------------------------
# Mean rank against mean reciprocal rank
# ---------------------------------------------------------------------------


def rank_shares(ranks: Mapping[str, ArrayLike]) -> pd.DataFrame:
    """Each topic's share of the mean rank and of the MRR, per system.

    Parameters
    ----------
    ranks : dict of str to array_like of int
        For each system, the rank of the first relevant document on each topic.

    Returns
    -------
    DataFrame
        ``system, average ("Mean rank" or "MRR"), topic, rank, value`` (the
        topic's r or 1/r), ``share`` (of the system's sum), ``mean`` (the average).

    Examples
    --------
    >>> s = rank_shares({"X": [1, 1, 98]})
    >>> s.query("average == 'Mean rank'").share.round(2).tolist()
    [0.01, 0.01, 0.98]
    """
    frames = []
    for system, r in ranks.items():
        r = np.asarray(r, dtype=float)
        for average, value in (("Mean rank", r), ("MRR", 1.0 / r)):
            frames.append(
                pd.DataFrame(
                    {
                        "system": system,
                        "average": average,
                        "topic": np.arange(1, r.size + 1),
                        "rank": r.astype(int),
                        "value": value,
                        "share": value / value.sum(),
                        "mean": means.arithmetic_mean(value),
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def rank_shares_chart(ranks: Mapping[str, ArrayLike]) -> alt.TopLevelMixin:
    """Bars split by topic, coloured by the rank of its first relevant document: who makes each average.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(rank_shares_chart({"X": [1, 9]}), "Shares.")
    >>> spec["spec"]["layer"][0]["mark"]["type"], spec["spec"]["layer"][0]["encoding"]["color"]["scale"]["domain"]
    ('bar', ['rank 1', 'rank 9'])
    """
    table = rank_shares(ranks)
    table["found at"] = "rank " + table["rank"].astype(str)
    domain = [f"rank {r}" for r in sorted(table["rank"].unique())]
    palette = [OKABE_ITO[i] for i in (1, 2, 0, 5, 4, 6, 3, 7)]
    base = alt.Chart().encode(y=alt.Y("system:N", title="System"))
    bars = base.mark_bar(stroke="#FFFFFF", strokeWidth=0.5).encode(
        x=alt.X(
            "share:Q",
            title="Share of the sum being averaged",
            axis=alt.Axis(format="%", values=[0, 0.25, 0.5, 0.75, 1]),
            scale=alt.Scale(domain=[0, 1]),
        ),
        color=alt.Color(
            "found at:N",
            title="Topic's item found at",
            scale=alt.Scale(domain=domain, range=palette[: len(domain)]),
        ),
        order=alt.Order("topic:Q"),
        tooltip=[
            "system:N",
            "average:N",
            "topic:Q",
            "rank:Q",
            alt.Tooltip("value:Q", format=".4g"),
            alt.Tooltip("share:Q", format=".1%"),
        ],
    )
    # Each part wide enough for it says its rank: the parts are told apart by more than their colour.
    labels = (
        base.transform_stack(
            stack="share",
            as_=["start", "end"],
            groupby=["system", "average"],
            sort=[{"field": "topic"}],  # type: ignore[list-item]  # altair takes the field as a dict
        )
        .transform_filter(f"datum.share >= {LABELLED_SHARE}")
        # The rank as text: the site breaks a long text into lines, which a number is not.
        .transform_calculate(middle="(datum.start + datum.end) / 2", label="'' + datum.rank")
        .mark_text(color=GLYPH_INK, fontSize=13)
        .encode(x="middle:Q", text="label:N")
    )
    return (
        alt.layer(bars, labels, data=table)
        .properties(width=360, height=70)
        .facet(row=alt.Row("average:N", title=None, sort=["Mean rank", "MRR"]))
    )


#: A part of a bar of Figure 7.2 this wide (a share of its sum) or wider is labelled with its rank.
LABELLED_SHARE = 0.08


#: Chapter 7's two systems' ranks of the known item: X at rank 1 on nine topics and 500 on the tenth, Y at 2 on all.
RANKS = {"X": example([1] * 9 + [500], dtype=int), "Y": example([2] * 10, dtype=int)}


#: The chapter's example by the names its notebook gives it (the data cell shows them): a check of the text is strict on
#: these (irmeans_book.claims). The baseline is the reconstruction of Robertson's example (irmeans_book.robertson).
EXAMPLE: dict[str, Any] = {
    "baseline": robertson.load_example(),
    "gain": GAIN,
    "loss": LOSS,
    "eps": EPS,
    "ranks": RANKS,
}


def _with(grid: ArrayLike, value: float) -> np.ndarray:
    """The slider's settings, with ``value`` among them (a reader's own setting may be off the grid)."""
    return np.unique(np.round(np.append(grid, value), 10))


def verdicts_alt(ap: ArrayLike, gain: float, loss: float, seed: int = SEED, eps: float = EPS) -> str:
    """Figure 7.1's alt text, for this baseline and setting."""
    grid, _, _ = verdicts_table(ap, _with(GAINS, gain), _with(LOSSES, loss), seed, eps)
    counts = grid.verdict.value_counts()
    parts = ", ".join(f"{VERDICTS[k]} at {counts[k]}" for k in sorted(counts.index))
    return (
        f"Left: the {np.size(ap)} topics from hardest to easiest, each with its baseline AP and its AP after the "
        "change (the sliders' average gain on the easy half and loss on the hard half): easy topics move up, hard "
        f"topics move down. Right: a grid of gain by loss coloured, and marked, by what MAP and GMAP say; of its "
        f"{len(grid)} settings: {parts}. Below: MAP, GMAP and the two t-tests at the chosen setting."
    )


def verdicts_figure(
    baseline: ArrayLike | None = None, gain: float = GAIN, loss: float = LOSS, seed: int = SEED, eps: float = EPS
) -> VegaLiteFigure:
    """Figure 7.1 for this baseline and change: the sliders start at ``gain`` and ``loss`` (by default
    :data:`GAIN` and :data:`LOSS` on the book's baseline, the reconstruction of Robertson's example).

    Examples
    --------
    >>> fig = verdicts_figure([0.1, 0.5, 0.6, 0.02], gain=0.33, loss=0.3)
    >>> [p["value"] for p in fig.spec["params"]]
    [0.33, 0.3]
    """
    ap = EXAMPLE["baseline"] if baseline is None else np.asarray(baseline, dtype=float)
    gains, losses = _with(GAINS, gain), _with(LOSSES, loss)
    chart = verdicts_chart(ap, gains, losses, initial=(gain, loss), seed=seed, eps=eps)
    return show(chart, alt=verdicts_alt(ap, gain, loss, seed, eps), state=verdicts_state(ap, gains, losses, seed, eps))


def verdicts_state(
    ap: ArrayLike, gains: ArrayLike, losses: ArrayLike, seed: int = SEED, eps: float = EPS
) -> Callable[..., str]:
    """Figure 7.1's words for each setting of its sliders, ``state(gain, loss)``: its read-out's numbers, as
    printed, and the verdict.

    Examples
    --------
    >>> print(verdicts_state(EXAMPLE["baseline"], [0.2], [0.3])(0.2, 0.3).replace("; ", ";\\n"))
    At an average gain of 0.2 on the easy topics and a loss of 0.3 on the hard ones: MAP 0.3090 → 0.3516;
    GMAP 0.1168 → 0.1093;
    t on AP +3.31, p = 0.0017;
    t on log −1.45, p = 0.1542;
    MAP better, GMAP worse.
    """
    grid = verdicts_table(ap, gains, losses, seed, eps, decimals=12)[0].round(_PRINTED)
    base_map, base_gmap = means.arithmetic_mean(ap), means.geometric_mean(ap, eps=eps)
    said = {}
    for row in grid.itertuples():
        said[round(row.gain, 9), round(row.loss, 9)] = (
            f"At an average gain of {row.gain:g} on the easy topics and a loss of {row.loss:g} on the hard ones: "
            f"MAP {base_map:.4f} → {row.map:.4f}; GMAP {base_gmap:.4f} → {row.gmap:.4f}; "
            f"t on AP {row.t_ap:+.2f}, p = {row.p_ap:.4f}; t on log {row.t_log:+.2f}, p = {row.p_log:.4f}; "
            f"{VERDICTS[int(row.verdict)]}."
        ).replace("-", "−")

    def state(gain: float, loss: float) -> str:
        return said[round(gain, 9), round(loss, 9)]

    return state


def rank_shares_alt(ranks: Mapping[str, ArrayLike]) -> str:
    """Figure 7.2's alt text, for these ranks."""
    parts = []
    for system, r in ranks.items():
        r = np.asarray(r, dtype=float)
        worst = int(np.argmax(r))
        parts.append(
            f"system {system}: its topic at rank {r[worst]:g} makes up {100 * r[worst] / r.sum():.0f} percent of "
            f"the sum of ranks and {100 * (1 / r[worst]) / (1 / r).sum():.0f} percent of the sum of reciprocal ranks"
        )
    return (
        "Stacked bars of each topic's share of the sum being averaged, for the mean rank and for MRR; "
        + "; ".join(parts)
        + "."
    )


def rank_shares_figure(ranks: Mapping[str, ArrayLike] = RANKS) -> VegaLiteFigure:
    """Figure 7.2 for these ranks of the known item (by system).

    Examples
    --------
    >>> "rank 9" in rank_shares_figure({"X": [1, 9]}).spec["description"]
    True
    """
    return show(rank_shares_chart(ranks), alt=rank_shares_alt(ranks))


#: The settings of the paper table: every fourth of the figure's gains, every fourth of its losses.
PAPER_GAINS, PAPER_LOSSES = GAINS[4::4], LOSSES[2::4]


def paper_table(
    ap: ArrayLike, gains: ArrayLike = PAPER_GAINS, losses: ArrayLike = PAPER_LOSSES, seed: int = SEED, eps: float = EPS
) -> pd.DataFrame:
    """What the figure's read-out shows at some settings of its two sliders, for paper
    (:mod:`irmeans_book.paper`): MAP, GMAP and the two t-tests.

    Examples
    --------
    >>> t = paper_table(EXAMPLE["baseline"], [0.2], [0.3])
    >>> t.columns.tolist()
    ['MAP', 'GMAP', 't on AP', 'p on AP', 't on log', 'p on log']
    """
    table = verdicts_table(ap, gains, losses, seed=seed, eps=eps)[0]
    table = table.set_index(["gain", "loss"])[["map", "gmap", "t_ap", "p_ap", "t_log", "p_log"]]
    table.columns = ["MAP", "GMAP", "t on AP", "p on AP", "t on log", "p on log"]
    return table


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {
    "fig-ch7-verdicts": verdicts_figure,
    "fig-ch7-rank-shares": rank_shares_figure,
}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------

CH7_RANKS = (1, 2, 4, None)  # None: the item is not retrieved
CH7_SMALL = "0.05 to 0.10 on the first topic"
CH7_LARGE = "0.40 to 0.75 on the second topic"


@selfcheck("sc-ch7-mrr")
def ch7_mrr() -> Number:
    """MRR of a system finding the known item at ranks 1, 2 and 4, and not at all on a fourth topic."""
    depth = 10
    rankings = np.array([[int(rank == r) for r in range(1, depth + 1)] for rank in CH7_RANKS])
    return Number(float(irmeans.arithmetic_mean(irmeans.reciprocal_rank(rankings))), decimals=4)


@selfcheck("sc-ch7-gmap-step")
def ch7_gmap_step() -> Choice:
    """Which of two changes to a system's AP (0.05, 0.40, 0.20, 0.60) raises GMAP (ε = 10⁻⁵) more."""
    scores = np.array([0.05, 0.40, 0.20, 0.60])
    small, large = scores.copy(), scores.copy()
    small[0], large[1] = 0.10, 0.75
    gmap = {CH7_SMALL: irmeans.geometric_mean(small, eps=1e-5), CH7_LARGE: irmeans.geometric_mean(large, eps=1e-5)}
    # MAP says the opposite: the larger step in AP wins there.
    assert irmeans.arithmetic_mean(large) > irmeans.arithmetic_mean(small)
    return Choice((CH7_SMALL, CH7_LARGE), winner(gmap))


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE = {
    "live": "fig-ch7-verdicts",
    "lines": {
        "gain, loss = 0.2, 0.3": "gain, loss = 0.05, 0.6",
        '"X": np.array([1] * 9 + [500])': '"X": np.array([1] * 9 + [3])',
    },
    "named": {
        "MAP rises from",
        "A paper reporting MAP would call the feedback system an improvement",  # what follows from it
        "The mean rank prefers Y by a wide margin",
        "Keeping the gain at",
    },
    "figures": {"fig-ch7-verdicts": [0.05, 0.6], "fig-ch7-rank-shares": [3]},
    "box": None,
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS = [
    ("2 20 30", "the feedback example, set in the chapter's code: +20 %, −30 %, shares between 0 and 2"),
    ("50", "Robertson's example's 50 topics (chapter 5; §3, cited)"),
    ("0.05 0.1 0.25 0.5", "the illustration of ratios: 0.05 → 0.1 and 0.25 → 0.5; the 0.05 level of a test"),
    ("0.10 0.20 0.40 0.60 0.75", "the self-check's scores and changes"),
    (
        "3 4 10 100 500",
        "the known-item examples' ranks (500, 10, W's 3) and illustrations (rank 4, rank 100)",
    ),
    ("1000", "Zhai and Massung's comparison (ch. 9, cited): the step from rank 100 to 1000"),
    ("-1", "the range of Kendall's τ in its definition: −1 for one order the other reversed"),
]
