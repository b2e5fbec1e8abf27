"""Ravana & Moffat's split-half protocol on every shipped TREC matrix: does their finding generalise?

For each of the 46 matrices of :mod:`irmeans.datasets` (14 collections,
7 measures) the same random halves (one seed per matrix) serve every average:
the AM, the εGM over a grid of ε, trec_eval's GM (floor form, ε = 1e-5) and
the AM of standardized scores. From the mean τ come the paper's Figure 9
(the share of scores at most 0.1 against τ(εGM) − τ(AM)) and Figure 10
(εGM against trec_eval's GM), here for every matrix rather than three
collections. Figure data are rounded to 6 decimals.

Examples
--------
>>> long, wide = replication_tables(n_splits=20, matrices=["adhoc8_ap"], eps_grid=[0.01])
>>> wide.columns.tolist()[:4]
['matrix', 'collection', 'measure', 'systems']
>>> sorted(long.average.unique())
['AM', 'standardized AM', 'trec_eval GM', 'εGM']
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
from irmeans import consistency, datasets
from irmeans.averages import AM, GM

from irmeans_book.plots import OKABE_ITO, slider_param

__all__ = [
    "FIGURES",
    "replication_figure",
    "SEED",
    "N_SPLITS",
    "EPS_GRID",
    "MEASURE_ORDER",
    "replication_tables",
    "replication_chart",
]

#: Seed of every matrix's random splits.
SEED = 2009

#: Random splits per matrix (the paper's 10,000 are used for TREC-8 in chapter 9).
N_SPLITS = 1000

#: The ε of the εGM, one per decade from 10^-5 to 10^0.
EPS_GRID = np.round(10.0 ** np.arange(-5.0, 0.01, 1.0), 12)

#: Measures in the order of the figures' select and legend.
MEASURE_ORDER = [datasets.MEASURES[m] for m in datasets.MEASURES]


def replication_tables(n_splits=N_SPLITS, seed=SEED, eps_grid=EPS_GRID, matrices=None):
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
    for entry in datasets.catalog():
        if matrices is not None and entry.name not in matrices:
            continue
        m = datasets.load(entry.collection, entry.measure)
        s = np.array(m.scores)
        first, second = consistency.make_halves(s, "random", n_splits, seed=seed)
        runs = [
            ("AM", np.nan, s, AM()),
            ("trec_eval GM", np.nan, s, GM(eps=1e-5, form="floor")),
            # A topic on which every system scores alike standardizes to 0.5 for all.
            ("standardized AM", np.nan, consistency.standardize(s, constant="half"), AM()),
        ]
        runs += [("εGM", float(np.round(np.log10(e), 6)), s, GM(eps=float(e))) for e in eps_grid]
        row = {
            "matrix": m.label,
            "collection": m.collection,
            "measure": datasets.MEASURES[m.measure],
            "systems": s.shape[0],
            "topics": s.shape[1],
            "zeros": round(float((s == 0).mean()), 6),
            "low": round(float((s <= 0.1).mean()), 6),
        }
        for label, log_eps, x, avg in runs:
            tau = float(np.round(np.nanmean(consistency.halves_tau(x, avg, first, second)), 6))
            long_rows.append((m.label, label, log_eps, tau))
            key = {"AM": "am", "trec_eval GM": "trec_gm", "standardized AM": "std_am"}.get(label, f"gm_{log_eps:g}")
            row[key] = tau
        wide_rows.append(row)
    long = pd.DataFrame(long_rows, columns=["matrix", "average", "log_eps", "mean_tau"])
    return long, pd.DataFrame(wide_rows)


def replication_chart(wide, eps_grid=EPS_GRID, initial_log_eps=-2.0, initial_measure="all"):
    """Figures 9 and 10 from the real data, one point per matrix, stacked.

    Top: share of scores at most 0.1 against τ(εGM) − τ(AM). Bottom: mean τ
    of trec_eval's GM against that of the εGM, with the diagonal. A slider
    sets the ε of the εGM; a select picks a measure to highlight. A line of
    text counts the matrices on which the εGM beats the AM at that ε.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> _, wide = replication_tables(n_splits=10, matrices=["adhoc8_ap", "adhoc8_p10"], eps_grid=[0.01, 0.1])
    >>> spec = to_spec(replication_chart(wide, [0.01, 0.1]), "Replication.")
    >>> sorted(p["name"] for p in spec["params"])
    ['logeps', 'measure']
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
    points = pd.concat(points, ignore_index=True)
    measures = [m for m in MEASURE_ORDER if m in set(wide.measure)]
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
        # Grey, not Okabe-Ito's black, for the seventh measure: black marks vanish in dark mode.
        scale=alt.Scale(
            domain=measures, range=[*(OKABE_ITO[i] for i in (4, 5, 0, 2, 6, 1)), "#999999"][: len(measures)]
        ),
        legend=alt.Legend(orient="bottom", columns=4),
    )
    shape = alt.Shape("measure:N", sort=measures, scale=alt.Scale(domain=measures), legend=None)
    lit = alt.condition("measure == 'all' || datum.measure == measure", alt.value(0.9), alt.value(0.12))
    tooltip = [
        "matrix:N",
        alt.Tooltip("low:Q", format=".1%", title="scores ≤ 0.1"),
        alt.Tooltip("am:Q", format=".3f", title="τ AM"),
        alt.Tooltip("gm:Q", format=".3f", title="τ εGM"),
        alt.Tooltip("trec_gm:Q", format=".3f", title="τ trec_eval GM"),
    ]
    zero = alt.Chart(pd.DataFrame({"y": [0.0]})).mark_rule(color="#666666").encode(y="y:Q")
    fig9 = alt.layer(
        zero,
        base.mark_point(filled=True, size=70).encode(
            x=alt.X("low:Q", title="Share of scores at most 0.1", axis=alt.Axis(format="%")),
            y=alt.Y("gain:Q", title="τ(εGM) − τ(AM)"),
            color=colour,
            shape=shape,
            opacity=lit,
            tooltip=tooltip,
        ),
    ).properties(width=330, height=230, title="Figure 9: does εGM help when many scores are low?")
    lo = float(min(points.trec_gm.min(), points.gm.min()))
    diagonal = (
        alt.Chart(pd.DataFrame({"x": [lo, 1.0], "y": [lo, 1.0]})).mark_line(color="#666666").encode(x="x:Q", y="y:Q")
    )
    fig10 = alt.layer(
        diagonal,
        base.mark_point(filled=True, size=70).encode(
            x=alt.X("trec_gm:Q", title="Mean τ, trec_eval GM (floor, ε = 1e-5)", scale=alt.Scale(zero=False)),
            y=alt.Y("gm:Q", title="Mean τ, εGM at the chosen ε", scale=alt.Scale(zero=False)),
            color=colour,
            shape=shape,
            opacity=lit,
            tooltip=tooltip,
        ),
    ).properties(width=330, height=230, title="Figure 10: εGM against trec_eval's GM")
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
    chart = alt.vconcat(readout, fig9, fig10).add_params(logeps, measure).resolve_scale(color="shared")
    return chart.properties(usermeta={"irmeans_check": "replication"})


def replication_figure():
    """Figure 9.4 as the chapter shows it."""
    _, wide = replication_tables()
    return replication_chart(wide)


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES = {"fig-ch9-replication": replication_figure}
