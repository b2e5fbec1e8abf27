"""Chapter 9's experiment and figures: which average orders systems consistently?

The experiment is Ravana & Moffat's (2009) split-half test, run with
:func:`irmeans.consistency.split_half` on collections made by
:func:`irmeans.simulate.simulate_collection`: for each collection preset and
each collection seed, the topics are split into random halves, the systems
ordered on each half by an average, and the two orders compared with
Kendall's τ. The same splits (one split seed) serve every average, so the
averages are compared on equal terms.

Every value a figure can show is computed here with the library; the charts'
controls only pick rows.

Examples
--------
>>> t = experiment_table(["TREC8"], seeds=[1], n_splits=20, averages=["AM", "median"])
>>> sorted(t.columns)
['average', 'mean_tau', 'n_splits', 'preset', 'seed']
>>> len(t)
2
"""

from __future__ import annotations

import altair as alt
import numpy as np
import pandas as pd
from irmeans import consistency, means, simulate
from irmeans.averages import AM, GM, HM, Median

from irmeans_book.plots import OKABE_ITO, csv_data, slider_param

__all__ = [
    "PRESET_NAMES",
    "AVERAGES",
    "EPS_GRID",
    "collection",
    "topic_difficulty",
    "difficulty_table",
    "difficulty_chart",
    "split_taus",
    "experiment_table",
    "summary_table",
    "sweep",
    "histogram_table",
    "headline_chart",
    "sweep_chart",
    "describe_split_half",
    "consistency_controls",
]

#: The collection presets, in the order of their share of low scores (most first).
PRESET_NAMES = list(simulate.PRESETS)

#: The averages compared, by label: (the average, standardize the scores first?).
AVERAGES = {
    "AM": (AM(), False),
    "εGM, ε = 0.01": (GM(eps=0.01), False),
    "εGM, ε = 1e-5": (GM(eps=1e-5), False),
    "εHM, ε = 0.01": (HM(eps=0.01), False),
    "median": (Median(), False),
    "standardized AM": (AM(), True),
}

#: The ε of the sweep and of the interactive figure's slider: 10^-5 to 10^0 in steps of 10^0.5.
EPS_GRID = np.round(10.0 ** np.arange(-5.0, 0.01, 0.5), 12)

_PRESET_COLOURS = [OKABE_ITO[5], OKABE_ITO[4], OKABE_ITO[2]]


def collection(preset, seed):
    """The simulated AP of 105 systems on 50 topics for a preset and a collection seed.

    Examples
    --------
    >>> collection("TREC9", 1).shape
    (105, 50)
    """
    return simulate.simulate_collection(preset, seed=seed)


def topic_difficulty(ap):
    """Each topic's mean score over the systems (lower is harder).

    This is a plain stand-in, not Ravana & Moffat's own definition of topic
    difficulty: the mean AP that the systems reach on the topic.

    Parameters
    ----------
    ap : array_like, shape (systems, topics)

    Returns
    -------
    ndarray, shape (topics,)

    Examples
    --------
    >>> topic_difficulty([[0.0, 0.5], [0.2, 0.7]])
    array([0.1, 0.6])
    """
    return means.arithmetic_mean(np.asarray(ap, dtype=float), axis=0)


def difficulty_table(seeds, presets=None):
    """Topic difficulty and share of zero scores per topic, for each preset and seed.

    Returns
    -------
    DataFrame
        ``preset, seed, rank`` (1 = hardest topic), ``difficulty`` (mean AP
        over systems) and ``zero_share`` (share of systems scoring 0 on it).

    Examples
    --------
    >>> t = difficulty_table([1], ["TREC8"])
    >>> len(t), bool(t.difficulty.is_monotonic_increasing)
    (50, True)
    """
    frames = []
    for preset in presets or PRESET_NAMES:
        for seed in seeds:
            ap = collection(preset, seed)
            d = topic_difficulty(ap)
            order = np.argsort(d, kind="stable")
            frames.append(
                pd.DataFrame(
                    {
                        "preset": preset,
                        "seed": seed,
                        "rank": np.arange(1, d.size + 1),
                        "difficulty": d[order],
                        "zero_share": (ap == 0).mean(axis=0)[order],
                    }
                )
            )
    return pd.concat(frames, ignore_index=True)


def difficulty_chart(table):
    """Topics sorted from hardest to easiest, one line per preset (one seed).

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(difficulty_chart(difficulty_table([1], ["TREC8"])), "Difficulty.")
    >>> spec["mark"]["type"]
    'line'
    """
    return (
        alt.Chart(table)
        .mark_line(point=True)
        .encode(
            x=alt.X("rank:Q", title="Topic, from hardest to easiest"),
            y=alt.Y("difficulty:Q", title="Mean AP of the topic over systems"),
            color=alt.Color(
                "preset:N",
                title="Preset",
                sort=PRESET_NAMES,
                scale=alt.Scale(domain=PRESET_NAMES, range=_PRESET_COLOURS),
            ),
            shape=alt.Shape("preset:N", sort=PRESET_NAMES, legend=None),
            tooltip=[
                "preset:N",
                "rank:Q",
                alt.Tooltip("difficulty:Q", format=".3f"),
                alt.Tooltip("zero_share:Q", format=".2f", title="share of zeros"),
            ],
        )
        .properties(width=420, height=240)
    )


def split_taus(ap, average, n_splits, split_seed):
    """τ of each of ``n_splits`` random splits of ``ap``'s topics, ordering systems by ``average``.

    Parameters
    ----------
    ap : array_like, shape (systems, topics)
    average : str or tuple
        A key of :data:`AVERAGES`, or a tuple of the same form as its values.
    n_splits : int
    split_seed : int
        Seed of the random halves; the same seed gives the same splits.

    Examples
    --------
    >>> ap = collection("TREC8", 1)
    >>> taus = split_taus(ap, "AM", 50, split_seed=2)
    >>> taus.shape, bool((taus > 0).all())
    ((50,), True)
    """
    avg, standardized = AVERAGES[average] if isinstance(average, str) else average
    scores = consistency.standardize(ap) if standardized else ap
    return consistency.split_half(scores, avg, n_splits, seed=split_seed)


def experiment_table(presets, seeds, n_splits, split_seed=2, averages=None):
    """Mean τ of each average on each simulated collection.

    Parameters
    ----------
    presets : list of str
    seeds : list of int
        Collection seeds: each (preset, seed) is one simulated collection.
    n_splits : int
        Splits per collection (the same splits for every average).
    split_seed : int
    averages : list of str, optional
        Keys of :data:`AVERAGES`; all by default.

    Returns
    -------
    DataFrame
        ``preset, seed, average, n_splits, mean_tau``.
    """
    rows = []
    for preset in presets:
        for seed in seeds:
            ap = collection(preset, seed)
            for label in averages or AVERAGES:
                taus = split_taus(ap, label, n_splits, split_seed)
                rows.append((preset, seed, label, n_splits, float(np.mean(taus))))
    return pd.DataFrame(rows, columns=["preset", "seed", "average", "n_splits", "mean_tau"])


def summary_table(table):
    """Per preset and average: mean τ over all splits of all seeds, and the range of the seeds' means.

    Examples
    --------
    >>> t = pd.DataFrame({"preset": "P", "average": "AM", "seed": [1, 2], "n_splits": 10,
    ...                   "mean_tau": [0.5, 0.7]})
    >>> summary_table(t)[["mean_tau", "seed_min", "seed_max", "n_splits"]].iloc[0].tolist()
    [0.6, 0.5, 0.7, 20.0]
    """
    g = table.groupby(["preset", "average"], sort=False)
    out = pd.DataFrame(
        {
            # Every seed has the same number of splits, so the mean of the means is the mean of all τ.
            "mean_tau": g.mean_tau.mean(),
            "seed_min": g.mean_tau.min(),
            "seed_max": g.mean_tau.max(),
            "n_splits": g.n_splits.sum().astype(float),
        }
    )
    return out.reset_index()


def sweep(presets, seeds, n_splits, eps_grid=EPS_GRID, split_seed=2, bins=None):
    """εGM over a grid of ε, with AM and standardized AM on the same splits.

    Returns
    -------
    curve : DataFrame
        ``preset, average`` ("εGM", "AM", "standardized AM"), ``eps``
        (NaN for the two AMs), ``log_eps``, ``mean_tau`` (over all splits of all
        seeds), ``seed_min``, ``seed_max`` (range of the seeds' mean τ).
    histogram : DataFrame
        :func:`histogram_table` of the τ of each (preset, average, ε).

    Examples
    --------
    >>> curve, hist = sweep(["TREC8"], [1], 20, eps_grid=[0.01, 1.0])
    >>> sorted(curve.average.unique())
    ['AM', 'standardized AM', 'εGM']
    >>> float(hist.groupby(["average", "log_eps"]).share.sum().round(6).max())
    1.0
    """
    eps_grid = np.asarray(eps_grid, dtype=float)
    taus = {}
    for preset in presets:
        for seed in seeds:
            ap = collection(preset, seed)
            runs = [("AM", np.nan, AVERAGES["AM"]), ("standardized AM", np.nan, AVERAGES["standardized AM"])]
            runs += [("εGM", eps, (GM(eps=float(eps)), False)) for eps in eps_grid]
            for label, eps, average in runs:
                taus.setdefault((preset, label, eps), []).append(split_taus(ap, average, n_splits, split_seed))
    curve_rows, hist_frames = [], []
    for (preset, label, eps), per_seed in taus.items():
        seed_means = [float(np.mean(t)) for t in per_seed]
        log_eps = np.round(np.log10(eps), 6) if np.isfinite(eps) else np.nan
        curve_rows.append((preset, label, eps, log_eps, float(np.mean(seed_means)), min(seed_means), max(seed_means)))
        h = histogram_table(np.concatenate(per_seed), bins=bins)
        h.insert(0, "log_eps", log_eps)
        h.insert(0, "average", label)
        h.insert(0, "preset", preset)
        hist_frames.append(h)
    columns = ["preset", "average", "eps", "log_eps", "mean_tau", "seed_min", "seed_max"]
    curve = pd.DataFrame(curve_rows, columns=columns)
    return curve, pd.concat(hist_frames, ignore_index=True)


def histogram_table(taus, bins=None):
    """Share of the τ values in each bin; bins without any τ are left out.

    Parameters
    ----------
    taus : array_like
    bins : array_like, optional
        Bin edges; by default 0 to 1 in steps of 0.02.

    Returns
    -------
    DataFrame
        ``lo, hi, share``: the bin's edges and the share of τ in [lo, hi).

    Examples
    --------
    >>> histogram_table([0.51, 0.52, 0.57, 0.99], bins=[0.5, 0.55, 0.6, 1.0])
         lo    hi  share
    0  0.50  0.55   0.50
    1  0.55  0.60   0.25
    2  0.60  1.00   0.25
    """
    edges = np.round(np.arange(0, 51) / 50, 2) if bins is None else np.asarray(bins, dtype=float)
    t = np.asarray(taus, dtype=float)
    if ((t < edges[0]) | (t > edges[-1])).any():
        raise ValueError(f"τ values outside the bins [{edges[0]}, {edges[-1]}]")
    counts, _ = np.histogram(t, bins=edges)
    keep = counts > 0
    return pd.DataFrame({"lo": edges[:-1][keep], "hi": edges[1:][keep], "share": counts[keep] / t.size})


def headline_chart(summary, per_seed):
    """Mean τ of each average on each preset, with the seeds' means as ticks.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> t = experiment_table(["TREC8"], [1, 2], 10, averages=["AM", "median"])
    >>> spec = to_spec(headline_chart(summary_table(t), t), "Headline.")
    >>> len(spec["layer"])
    2
    """
    order = [a for a in AVERAGES if a in set(summary.average)]
    colour = alt.Color(
        "preset:N", title="Preset", sort=PRESET_NAMES, scale=alt.Scale(domain=PRESET_NAMES, range=_PRESET_COLOURS)
    )
    y = alt.Y("average:N", sort=order, title=None)
    offset = alt.YOffset("preset:N", sort=PRESET_NAMES)
    # Colour and shape of the one field share a legend (a tick has no shape: the dots carry it).
    shape = alt.Shape("preset:N", sort=PRESET_NAMES, title="Preset", scale=alt.Scale(domain=PRESET_NAMES))
    dots = (
        alt.Chart(summary)
        .mark_point(filled=True, size=90, opacity=1)
        .encode(
            x=alt.X("mean_tau:Q", title="Mean Kendall's τ between the halves' orders", scale=alt.Scale(zero=False)),
            y=y,
            yOffset=offset,
            color=colour,
            shape=shape,
            tooltip=[
                "preset:N",
                "average:N",
                alt.Tooltip("mean_tau:Q", format=".3f"),
                alt.Tooltip("seed_min:Q", format=".3f", title="lowest seed"),
                alt.Tooltip("seed_max:Q", format=".3f", title="highest seed"),
            ],
        )
    )
    ticks = (
        alt.Chart(per_seed)
        .mark_tick(thickness=1, size=8, opacity=0.7)
        .encode(
            x="mean_tau:Q",
            y=y,
            yOffset=offset,
            color=colour,
            tooltip=["preset:N", "average:N", "seed:O", alt.Tooltip("mean_tau:Q", format=".3f")],
        )
    )
    return alt.layer(ticks, dots).properties(width=420, height=330)


def sweep_chart(curve, histogram, initial_preset="TREC9", initial_log_eps=-2.0):
    """Chapter 9's interactive figure: mean τ against ε, and the distribution of τ at the chosen ε.

    A select picks the preset, a slider log10 ε; a line of text gives the mean τ
    of εGM, AM and standardized AM there. Nothing is computed on the page.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> curve, hist = sweep(["TREC8"], [1], 10, eps_grid=[0.01, 1.0])
    >>> spec = to_spec(sweep_chart(curve, hist, "TREC8", -2.0), "Sweep.")
    >>> sorted(p["name"] for p in spec["params"])
    ['logeps', 'preset']
    """
    presets = [p for p in PRESET_NAMES if p in set(curve.preset)]
    steps = np.sort(curve.log_eps.dropna().unique())
    preset = alt.param(
        name="preset", value=initial_preset, bind=alt.binding_select(options=presets, name="Collection preset ")
    )
    logeps = slider_param("logeps", steps, initial_log_eps, "log10 ε ")
    this_preset = "datum.preset == preset"
    this_eps = "abs(datum.log_eps - logeps) < 1e-6"
    averages = ["εGM", "AM", "standardized AM"]
    colour = alt.Color(
        "average:N",
        title="Average",
        sort=averages,
        scale=alt.Scale(domain=averages, range=[OKABE_ITO[0], OKABE_ITO[4], OKABE_ITO[2]]),
    )

    gm = curve[curve.average == "εGM"]
    ams = curve[curve.average != "εGM"][["preset", "average", "mean_tau"]]
    x = alt.X("eps:Q", title="ε (log scale)", scale=alt.Scale(type="log"), axis=alt.Axis(format="~e"))
    tau_scale = alt.Scale(zero=False)
    base = alt.Chart(gm).transform_filter(this_preset)
    band = base.mark_area(opacity=0.25, color=OKABE_ITO[0]).encode(
        x=x, y=alt.Y("seed_min:Q", scale=tau_scale, title="Mean τ"), y2="seed_max:Q"
    )
    line = base.mark_line(point=True).encode(
        x=x,
        y=alt.Y("mean_tau:Q", scale=tau_scale),
        color=colour,
        tooltip=[
            alt.Tooltip("eps:Q", format=".0e", title="ε"),
            alt.Tooltip("mean_tau:Q", format=".3f"),
            alt.Tooltip("seed_min:Q", format=".3f", title="lowest seed"),
            alt.Tooltip("seed_max:Q", format=".3f", title="highest seed"),
        ],
    )
    chosen = (
        base.transform_filter(this_eps)
        .mark_point(size=250, shape="diamond", filled=True, color="#000000")
        .encode(x=x, y="mean_tau:Q")
    )
    rules = (
        alt.Chart(ams)
        .transform_filter(this_preset)
        .mark_rule(strokeDash=[6, 3], strokeWidth=2)
        .encode(y="mean_tau:Q", color=colour, tooltip=["average:N", alt.Tooltip("mean_tau:Q", format=".3f")])
    )
    left = alt.layer(band, rules, line, chosen).properties(
        width=330, height=260, title="Mean τ against ε (band: range over collection seeds)"
    )
    readout = (
        alt.Chart(curve[["preset", "average", "log_eps", "mean_tau"]])
        .transform_filter(this_preset)
        .transform_filter("datum.average != 'εGM' || " + this_eps)
        .transform_pivot("average", value="mean_tau", groupby=["preset"])
        .transform_calculate(
            text=(
                "'log10 ε = ' + format(logeps, '.1f') + ':  mean τ of εGM ' + format(datum['εGM'], '.3f') + "
                "',  AM ' + format(datum['AM'], '.3f') + "
                "',  standardized AM ' + format(datum['standardized AM'], '.3f')"
            )
        )
        .mark_text(align="left", fontSize=13, fontWeight="bold")
        .encode(text="text:N", x=alt.value(0))
        .properties(width=330, height=18, view=alt.ViewConfig(stroke=None))
    )

    hist = (
        alt.Chart(_csv(_compact_histogram(histogram)), height=260, width=300)
        .transform_filter(this_preset)
        .transform_calculate(average="['AM', 'standardized AM', 'εGM'][datum.kind]")
        .transform_filter("datum.average != 'εGM' || " + this_eps)
        .mark_line(interpolate="step-after", strokeWidth=2)
        .encode(
            x=alt.X("lo:Q", title="Kendall's τ of one split", scale=alt.Scale(zero=False)),
            y=alt.Y("share:Q", title="Share of splits"),
            color=colour,
            tooltip=[
                "average:N",
                alt.Tooltip("lo:Q", title="τ from"),
                alt.Tooltip("hi:Q", title="τ to"),
                alt.Tooltip("share:Q", format=".3f"),
            ],
        )
        .properties(title="Distribution of τ at the chosen ε")
    )
    return alt.hconcat(alt.vconcat(left, readout), hist).add_params(preset, logeps)


def _csv(frame):
    """:func:`irmeans_book.plots.csv_data`, with only the numeric columns parsed as numbers."""
    data = csv_data(frame)
    data.format = alt.DataFormat(type="csv", parse={c: "number" for c in frame.select_dtypes("number").columns})
    return data


def _compact_histogram(histogram):
    """The histogram with the average as a small code and the preset kept: what the page needs."""
    codes = {"AM": 0, "standardized AM": 1, "εGM": 2}
    return histogram.assign(
        kind=histogram.average.map(codes), log_eps=histogram.log_eps.fillna(99), share=histogram.share.round(4)
    ).drop(columns="average")


def describe_split_half(preset, eps, n_splits=1000, seed=1, split_seed=2):
    """One line per average: mean τ of AM and of εGM with this ε on one simulated collection.

    Examples
    --------
    >>> print(describe_split_half("TREC8", 0.01, n_splits=20).splitlines()[0])
    TREC8, collection seed 1, 20 splits
    """
    ap = collection(preset, seed)
    am = split_taus(ap, "AM", n_splits, split_seed)
    gm = split_taus(ap, (GM(eps=float(eps)), False), n_splits, split_seed)
    return "\n".join(
        [
            f"{preset}, collection seed {seed}, {n_splits} splits",
            f"AM           mean τ {am.mean():.4f}",
            f"εGM ε={eps:<7.0e} mean τ {gm.mean():.4f}",
            f"εGM above AM in {np.mean(gm > am):.0%} of the splits",
        ]
    )


def consistency_controls(n_splits=1000):
    """A preset select and a log-scale ε slider, running the split-half test live."""
    import ipywidgets as w

    def update(preset, eps):
        print(describe_split_half(preset, eps, n_splits=n_splits))

    return w.interactive(
        update,
        preset=w.Dropdown(options=PRESET_NAMES, description="Preset"),
        eps=w.FloatLogSlider(value=0.01, base=10, min=-5, max=0, step=0.5, description="ε", continuous_update=False),
    )
