"""Figures of the book: tables precomputed with the library, and Vega-Lite charts.

An interactive figure of the book is a Vega-Lite chart whose controls
(sliders, selects, checkboxes) are parameters bound to inputs. The chart does
no arithmetic of its own: every value it can show is computed here, with the
tested measures and means, over the whole range of its controls, and the
controls only pick rows. So the same figure works live in Jupyter and on the
static site, where there is no kernel.

:func:`show` turns a chart into a notebook output: the Vega-Lite mimetype,
which Jupyter renders, and the alt text as plain text. The site's build turns
that spec into HTML with :func:`embed_html`.

Examples
--------
>>> import altair as alt, pandas as pd
>>> chart = alt.Chart(pd.DataFrame({"x": [1, 2]})).mark_point().encode(x="x:Q")
>>> fig = show(chart, alt="Two points on a line.")
>>> sorted(fig._repr_mimebundle_())
['application/vnd.vegalite.v5+json', 'text/plain']
>>> figure_id(fig.spec) == figure_id(fig.spec)
True
"""

from __future__ import annotations

import hashlib
import html
import json
import re

import altair as alt
import numpy as np
import pandas as pd

from . import means, ranked

__all__ = [
    "OKABE_ITO",
    "VEGALITE_MIMETYPE",
    "VegaLiteFigure",
    "show",
    "to_spec",
    "figure_id",
    "embed_html",
    "FIGURES_GLOBAL",
    "AVERAGES",
    "averages_table",
    "averages_chart",
    "rankings_table",
    "csv_data",
    "slider_param",
    "ranking_chart",
    "RANKING_MEASURES",
    "pr_table",
    "pr_curve_chart",
]

VEGALITE_MIMETYPE = "application/vnd.vegalite.v5+json"

#: Okabe & Ito's colour-blind-safe palette: seven hues, then black.
OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"]


# ---------------------------------------------------------------------------
# Output plumbing
# ---------------------------------------------------------------------------


def to_spec(chart, alt_text):
    """The chart as a validated Vega-Lite dict, with the palette and ``description``.

    The description is the figure's alt text; Vega puts it on the SVG as its
    ``aria-label``. All rows are embedded: a figure's table is small by design.
    """
    chart = chart.properties(description=alt_text).configure_range(category=OKABE_ITO)
    with alt.data_transformers.enable("default", max_rows=None):
        return chart.to_dict(validate=True)


class VegaLiteFigure:
    """A Vega-Lite spec displayed as a notebook output.

    Parameters
    ----------
    spec : dict
        A Vega-Lite spec with a ``description`` (the alt text).
    """

    def __init__(self, spec):
        if not spec.get("description"):
            raise ValueError("a figure needs alt text: the spec has no description")
        self.spec = spec

    def _repr_mimebundle_(self, include=None, exclude=None):
        # Only the Vega-Lite mimetype and text: JupyterLab prefers text/html over
        # Vega-Lite, and HTML relying on the site's script would be blank there.
        return {VEGALITE_MIMETYPE: self.spec, "text/plain": f"[Figure] {self.spec['description']}"}


def show(chart, alt):
    """Display ``chart`` in a notebook, with ``alt`` as its alt text.

    Parameters
    ----------
    chart : altair.TopLevelMixin
    alt : str
        What the figure shows, in a sentence or two, for readers who cannot see it.

    Returns
    -------
    VegaLiteFigure

    Examples
    --------
    >>> import altair as alt, pandas as pd
    >>> c = alt.Chart(pd.DataFrame({"x": [1]})).mark_point().encode(x="x:Q")
    >>> show(c, alt="One point.").spec["description"]
    'One point.'
    """
    if not alt or not alt.strip():
        raise ValueError("alt text must not be empty")
    return VegaLiteFigure(to_spec(chart, alt.strip()))


def figure_id(spec):
    """A deterministic HTML id for ``spec``: a hash of its canonical JSON.

    Examples
    --------
    >>> figure_id({"mark": "point"})
    'vl-6ecaf69c8026'
    """
    digest = hashlib.sha256(json.dumps(spec, sort_keys=True).encode("utf-8")).hexdigest()
    return f"vl-{digest[:12]}"


#: Where the site's pages keep each figure's ``vegaEmbed`` result, by figure id:
#: the Vega view behind a figure, for scripts and the site's browser tests.
FIGURES_GLOBAL = "irmeansFigures"


def embed_html(spec):
    """HTML for the site: a labelled div and the ``vegaEmbed`` call that fills it.

    ``vegaEmbed`` comes from the site's own copy of Vega (loaded on the page
    before the body); nothing is fetched from elsewhere. Once drawn, the
    figure's embed result (with its Vega ``view``) is kept in
    ``window.irmeansFigures[id]``; a failure is logged as a console error.

    Examples
    --------
    >>> h = embed_html({"description": "A <b> chart", "mark": "point"})
    >>> 'id="vl-' in h and 'aria-label="A &lt;b&gt; chart"' in h and "vegaEmbed(" in h
    True
    """
    div = figure_id(spec)
    label = html.escape(spec.get("description", ""), quote=True)
    # "</" inside a script's JSON would end the script element early.
    payload = json.dumps(spec, sort_keys=True, separators=(",", ":")).replace("</", "<\\/")
    options = json.dumps({"renderer": "svg", "actions": False})
    return (
        f'<div class="irmeans-figure" id="{div}" role="figure" aria-label="{label}">'
        f"<noscript>{label}</noscript></div>\n"
        "<script>\n(function () {\n"
        f"  var figures = window.{FIGURES_GLOBAL} = window.{FIGURES_GLOBAL} || {{}};\n"
        f'  var draw = function () {{ vegaEmbed("#{div}", {payload}, {options})'
        f'.then(function (result) {{ figures["{div}"] = result; }})'
        ".catch(function (e) { console.error(e); }); };\n"
        '  if (window.vegaEmbed) { draw(); } else { window.addEventListener("load", draw); }\n'
        "})();\n</script>"
    )


# ---------------------------------------------------------------------------
# Chapter 1: which average, which winner
# ---------------------------------------------------------------------------

#: The averages of chapter 1's figure, by the name shown in its select.
AVERAGES = {
    "arithmetic mean": means.arithmetic_mean,
    "geometric mean": means.geometric_mean,
    "harmonic mean": means.harmonic_mean,
    "median": means.median,
}


def averages_table(scores_a, scores_b, weakest_values):
    """Every value of chapter 1's figure: each average of two systems' scores.

    System A's last topic score is replaced by each of ``weakest_values`` in turn.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (t,)
        Per-topic scores of systems A and B.
    weakest_values : array_like, shape (s,)
        The settings of the slider for A's last topic, all > 0.

    Returns
    -------
    topics : DataFrame
        Columns ``weakest, system, topic, score``: the per-topic scores.
    averages : DataFrame
        Columns ``weakest, average, system, value, winner``.

    Examples
    --------
    >>> topics, avg = averages_table([0.6, 0.1], [0.3, 0.3], [0.1, 0.2])
    >>> avg.query("weakest == 0.1 and average == 'median'").winner.tolist()
    ['A', 'A']
    """
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    w = np.asarray(weakest_values, dtype=float)
    stack_a = np.tile(a, (w.size, 1))
    stack_a[:, -1] = w
    stack_b = np.tile(b, (w.size, 1))
    t = a.size

    topics = pd.concat(
        [
            pd.DataFrame(
                {
                    "weakest": np.repeat(w, t),
                    "system": name,
                    "topic": np.tile(np.arange(1, t + 1), w.size),
                    "score": stack.ravel(),
                }
            )
            for name, stack in (("A", stack_a), ("B", stack_b))
        ],
        ignore_index=True,
    )

    frames = []
    for label, mean in AVERAGES.items():
        va, vb = mean(stack_a, axis=1), mean(stack_b, axis=1)
        winner = np.where(va > vb, "A", np.where(vb > va, "B", "tie"))
        for name, v in (("A", va), ("B", vb)):
            frames.append(
                pd.DataFrame({"weakest": w, "average": label, "system": name, "value": v, "winner": winner})
            )
    return topics, pd.concat(frames, ignore_index=True)


def averages_chart(scores_a, scores_b, weakest_values, initial_weakest=None):
    """Chapter 1's figure: per-topic scores, and the chosen average of each system.

    A select picks the average, a slider System A's weakest topic score.

    Examples
    --------
    >>> c = averages_chart([0.6, 0.1], [0.3, 0.3], [0.1, 0.2])
    >>> sorted(p["name"] for p in to_spec(c, "Scores and averages.")["params"])
    ['average', 'weakest']
    """
    topics, table = averages_table(scores_a, scores_b, weakest_values)
    w = np.asarray(weakest_values, dtype=float)
    weakest = slider_param("weakest", w, w[-1] if initial_weakest is None else initial_weakest,
                           "System A, last topic's score ")
    average = alt.param(
        name="average",
        value="arithmetic mean",
        bind=alt.binding_select(options=list(AVERAGES), name="Average "),
    )
    # The slider's value and the table's can differ in the last bit: compare with a tolerance.
    pick = "abs(datum.weakest - weakest) < 1e-9"
    colour = alt.Color("system:N", title="System")

    left = (
        alt.Chart(topics)
        .transform_filter(pick)
        .mark_point(filled=True, size=90)
        .encode(
            x=alt.X("topic:O", title="Topic", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("score:Q", title="Per-topic score", scale=alt.Scale(domain=[0, 1])),
            color=colour,
            shape=alt.Shape("system:N", legend=None),
            xOffset="system:N",
            tooltip=["system:N", "topic:O", alt.Tooltip("score:Q", format=".2f")],
        )
        .properties(width=220, height=220, title="Scores per topic")
    )
    chosen = alt.Chart(table).transform_filter(pick).transform_filter("datum.average == average")
    bars = chosen.mark_bar().encode(
        x=alt.X("system:N", title="System", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("value:Q", title="Average over topics", scale=alt.Scale(domain=[0, 1])),
        color=colour,
        tooltip=["average:N", "system:N", alt.Tooltip("value:Q", format=".4f")],
    )
    labels = chosen.mark_text(dy=-8).encode(
        x="system:N", y="value:Q", text=alt.Text("value:Q", format=".3f")
    )
    verdict = (
        chosen.transform_filter("datum.system == 'A'")
        .transform_calculate(label="'Higher: system ' + datum.winner")
        .mark_text(fontSize=13, fontWeight="bold", align="center")
        .encode(text="label:N")
        .properties(width=140, height=20)
    )
    right = alt.vconcat(
        (bars + labels).properties(width=140, height=220, title="The chosen average"), verdict
    )
    return alt.hconcat(left, right).add_params(weakest, average)


# ---------------------------------------------------------------------------
# Chapter 2: one ranked list, every setting of ten checkboxes and R
# ---------------------------------------------------------------------------


def _all_rankings(depth):
    """Every 0/1 ranking of ``depth`` ranks; row m has rank k relevant iff bit k-1 of m is set."""
    masks = np.arange(2**depth)
    return masks, (masks[:, None] >> np.arange(depth)) & 1


def rankings_table(depth=10, max_r=15, decimals=3):
    """Every value of chapter 2's figure, over all 2**depth rankings and each R.

    Lists by rank are spread over numbered columns (``precision1`` ...), so the
    tables travel to the page as compact CSV.

    Parameters
    ----------
    depth : int
        Ranks shown (the figure's checkboxes).
    max_r : int
        Largest R the slider offers; R runs from max(1, relevant retrieved) to it.
    decimals : int
        Rounding of the stored values (the page's size, not the computation).

    Returns
    -------
    per_ranking : DataFrame
        One row per ranking ``m`` (rank k relevant iff bit k-1 of m is set):
        ``lo``, the least R allowed; ``p5``, ``p10`` (P@5 and P@depth); ``rr``;
        ``rel1``... and ``precision1``... by rank.
    per_setting : DataFrame
        One row per (ranking ``m``, ``R``): ``lo``, ``ap``, ``rprec`` and
        ``recall1``... by rank.

    Examples
    --------
    >>> one, both = rankings_table(depth=3, max_r=4)
    >>> len(one), len(both)
    (8, 27)
    >>> both.query("m == 5 and R == 2").ap.item()  # ranks 1 and 3 relevant
    0.833
    """
    if max_r < depth:
        raise ValueError(f"max_r={max_r} must be at least depth={depth}")
    masks, rels = _all_rankings(depth)
    lo = np.maximum(rels.sum(axis=1), 1)
    ranks = range(1, depth + 1)

    _, precision = ranked.precision_recall_points(rels)
    per_ranking = pd.DataFrame(
        {
            "m": masks,
            "lo": lo,
            "p5": ranked.precision_at(rels, min(5, depth)).round(decimals),
            "p10": ranked.precision_at(rels, depth).round(decimals),
            "rr": ranked.reciprocal_rank(rels).round(decimals),
            **{f"rel{k}": rels[:, k - 1] for k in ranks},
            **{f"precision{k}": precision[:, k - 1].round(decimals) for k in ranks},
        }
    )

    # One row per allowed (m, R): repeat each ranking once per R from lo to max_r.
    counts = max_r - lo + 1
    row = np.repeat(masks, counts)
    R = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(lo, counts)
    recall, _ = ranked.precision_recall_points(rels[row], R)
    per_setting = pd.DataFrame(
        {
            "m": row,
            "R": R,
            "lo": lo[row],
            "ap": ranked.average_precision(rels[row], R).round(decimals),
            "rprec": ranked.r_precision(rels[row], R).round(decimals),
            **{f"recall{k}": recall[:, k - 1].round(decimals) for k in ranks},
        }
    )
    return per_ranking, per_setting


def slider_param(name, values, value, label):
    """A parameter bound to a slider that steps over a grid of precomputed settings.

    The slider runs from the grid's smallest to its largest value in steps of
    its smallest gap, so every position it can take is a row of the figure's
    table.

    Parameters
    ----------
    name : str
        The parameter's name, used in the chart's expressions.
    values : array_like
        The grid of settings the table was computed for.
    value : float
        The initial setting.
    label : str
        The text shown beside the slider.

    Examples
    --------
    >>> p = slider_param("eps", [0.0, 0.5, 1.0], 0.5, "ε ")
    >>> p.param.bind.to_dict()
    {'input': 'range', 'max': 1.0, 'min': 0.0, 'name': 'ε ', 'step': 0.5}
    """
    grid = np.unique(np.asarray(values, dtype=float))
    if grid.size == 0:
        raise ValueError("a slider needs at least one setting")
    step = float(np.round(np.min(np.diff(grid)), 10)) if grid.size > 1 else 1.0
    return alt.param(name=name, value=float(value),
                     bind=alt.binding_range(min=float(grid[0]), max=float(grid[-1]), step=step, name=label))


def csv_data(frame):
    """A DataFrame as inline Vega-Lite data in CSV: far smaller than JSON rows.

    Every column is parsed as a number on the page.

    Examples
    --------
    >>> d = csv_data(pd.DataFrame({"m": [0, 1], "ap": [0.5, 1.0]}))
    >>> d.values
    'm,ap\\n0,0.5\\n1,1\\n'
    """
    text = frame.to_csv(index=False, lineterminator="\n")
    text = re.sub(r"(?<=\d)\.0(?=[,\n])", "", text)  # 1.0 -> 1: the page needs no trailing zero
    return alt.InlineData(values=text, format=alt.DataFormat(type="csv", parse={c: "number" for c in frame.columns}))


#: The measures in chapter 2's bar chart: column of :func:`rankings_table` -> label.
RANKING_MEASURES = {"p5": "P@5", "p10": "P@10", "rprec": "R-precision", "ap": "AP", "rr": "RR"}


def ranking_chart(depth=10, max_r=15, initial=(1, 0, 1, 0, 0, 1, 0, 0, 0, 0), initial_r=5):
    """Chapter 2's figure: tick relevant ranks, pick R, read the measures and the P-R curve.

    Examples
    --------
    >>> c = ranking_chart(depth=3, max_r=4, initial=(1, 0, 1), initial_r=3)
    >>> sorted(p["name"] for p in to_spec(c, "A ranking and its measures.")["params"])
    ['R', 'rank1', 'rank2', 'rank3']
    """
    if len(initial) != depth:
        raise ValueError(f"initial has {len(initial)} ranks, expected {depth}")
    per_ranking, per_setting = rankings_table(depth, max_r)
    ranks = range(1, depth + 1)
    boxes = [
        alt.param(name=f"rank{k}", value=bool(initial[k - 1]),
                  bind=alt.binding_checkbox(name=f"Rank {k} relevant "))
        for k in ranks
    ]
    r_param = alt.param(
        name="R", value=int(initial_r),
        bind=alt.binding_range(min=1, max=max_r, step=1, name="R, relevant documents in all "),
    )
    # Which ranking is ticked: bit k-1 for rank k, the rows' key. No measure is computed here.
    mask = " + ".join(f"(rank{k} ? {2 ** (k - 1)} : 0)" for k in ranks)
    this_ranking = f"datum.m == ({mask})"
    # R can't be below the relevant documents ticked: use the least allowed R then.
    this_setting = f"{this_ranking} && datum.R == max(R, datum.lo)"
    by_rank = lambda name: "[" + ", ".join(f"datum.{name}{k}" for k in ranks) + "]"  # noqa: E731

    strip = (
        alt.Chart(csv_data(per_ranking))
        .transform_filter(this_ranking)
        .transform_calculate(rel=by_rank("rel"))
        .transform_flatten(["rel"])
        .transform_window(rank="row_number()")
        .transform_calculate(judgement="datum.rel == 1 ? 'relevant' : 'not relevant'")
        .mark_square(size=300)
        .encode(
            x=alt.X("rank:O", title="Rank", axis=alt.Axis(labelAngle=0)),
            color=alt.Color("judgement:N", title=None, legend=alt.Legend(orient="bottom", direction="horizontal"),
                            scale=alt.Scale(domain=["relevant", "not relevant"],
                                            range=[OKABE_ITO[4], "#DDDDDD"])),
        )
        .properties(width=430, height=40, title="The ranking")
    )

    fields = ["p5", "p10", "rr"] + [f"precision{k}" for k in ranks]
    setting = (
        alt.Chart(csv_data(per_setting))
        .transform_filter(this_setting)
        .transform_lookup(lookup="m", from_=alt.LookupData(csv_data(per_ranking), "m", fields))
    )
    curve_base = (
        setting.transform_calculate(recall=by_rank("recall"), precision=by_rank("precision"))
        .transform_flatten(["recall", "precision"])
        .transform_window(rank="row_number()")
        .encode(
            x=alt.X("recall:Q", title="Recall", scale=alt.Scale(domain=[0, 1])),
            y=alt.Y("precision:Q", title="Precision", scale=alt.Scale(domain=[0, 1])),
            order="rank:Q",
            tooltip=["rank:O", alt.Tooltip("recall:Q", format=".3f"), alt.Tooltip("precision:Q", format=".3f")],
        )
    )
    curve = (
        curve_base.mark_line(color=OKABE_ITO[0]) + curve_base.mark_point(filled=True, color=OKABE_ITO[0])
    ).properties(width=200, height=200, title="Precision against recall, rank by rank")

    folded = setting.transform_fold(list(RANKING_MEASURES), as_=["key", "value"]).transform_calculate(
        measure=" || ".join(f"(datum.key == '{k}' ? '{v}' : '')" for k, v in RANKING_MEASURES.items())
    )
    order = list(RANKING_MEASURES.values())
    bars = folded.mark_bar(color=OKABE_ITO[2]).encode(
        y=alt.Y("measure:N", sort=order, title=None),
        x=alt.X("value:Q", title="Score", scale=alt.Scale(domain=[0, 1])),
        tooltip=["measure:N", alt.Tooltip("value:Q", format=".3f")],
    )
    values = folded.mark_text(align="left", dx=4).encode(
        y=alt.Y("measure:N", sort=order), x="value:Q", text=alt.Text("value:Q", format=".3f")
    )
    r_used = setting.transform_calculate(label="'R used: ' + datum.R").mark_text(
        align="left", fontWeight="bold"
    ).encode(text="label:N").properties(width=180, height=16)
    measures = alt.vconcat((bars + values).properties(width=180, height=170, title="The measures"), r_used)

    return alt.vconcat(strip, alt.hconcat(curve, measures)).add_params(*boxes, r_param)


def pr_table(rels, num_relevant=None):
    """Chapter 2's static curve: precision and recall at each rank, and the area AP adds.

    Returns
    -------
    points : DataFrame
        ``rank, relevant, recall, precision, recall_before``: at a relevant
        rank the block from ``recall_before`` to ``recall`` at height
        ``precision`` is that document's share of AP.
    interpolated : DataFrame
        ``recall_level, precision`` at the eleven standard recall levels.

    Examples
    --------
    >>> pts, ip = pr_table([1, 0, 1], num_relevant=4)
    >>> pts.recall_before.tolist(), len(ip)
    ([0.0, 0.25, 0.25], 11)
    """
    rels = np.asarray(rels)
    recall, precision = ranked.precision_recall_points(rels, num_relevant)
    points = pd.DataFrame(
        {
            "rank": np.arange(1, rels.size + 1),
            "relevant": rels >= 1,
            "recall": recall,
            "precision": precision,
            "recall_before": np.concatenate([[0.0], recall[:-1]]),
        }
    )
    interpolated = pd.DataFrame(
        {
            "recall_level": ranked.STANDARD_RECALL_LEVELS,
            "precision": ranked.interpolated_precision(rels, num_relevant),
        }
    )
    return points, interpolated


def pr_curve_chart(rels, num_relevant=None):
    """The precision-recall curve of one ranking, its 11-point interpolation, and AP's blocks.

    Examples
    --------
    >>> spec = to_spec(pr_curve_chart([1, 0, 1], 4), "A curve.")
    >>> len(spec["layer"])
    4
    """
    points, interpolated = pr_table(rels, num_relevant)
    x = alt.X("recall:Q", title="Recall", scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("precision:Q", title="Precision", scale=alt.Scale(domain=[0, 1]))
    base = alt.Chart(points)
    blocks = (
        base.transform_filter("datum.relevant")
        .transform_calculate(floor="0")
        .mark_rect(opacity=0.35, color=OKABE_ITO[2])
        .encode(x=alt.X("recall_before:Q"), x2="recall:Q", y=alt.Y("floor:Q"), y2="precision:Q")
    )
    line = base.mark_line(color=OKABE_ITO[0]).encode(x=x, y=y, order="rank:Q")
    dots = base.mark_point(filled=True, size=60).encode(
        x=x, y=y,
        color=alt.Color("relevant:N", title="Document relevant",
                        scale=alt.Scale(domain=[True, False], range=[OKABE_ITO[4], OKABE_ITO[5]])),
        shape=alt.Shape("relevant:N", legend=None, scale=alt.Scale(domain=[True, False], range=["circle", "cross"])),
        tooltip=["rank:O", alt.Tooltip("recall:Q", format=".3f"), alt.Tooltip("precision:Q", format=".3f")],
    )
    interp = (
        alt.Chart(interpolated)
        .mark_line(strokeDash=[5, 3], color="#000000", point=True)
        .encode(x=alt.X("recall_level:Q"), y="precision:Q",
                tooltip=[alt.Tooltip("recall_level:Q", format=".1f"), alt.Tooltip("precision:Q", format=".3f")])
    )
    return alt.layer(blocks, line, interp, dots).properties(width=360, height=260)
