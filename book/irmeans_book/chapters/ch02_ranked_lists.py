"""Chapter 2's figures: one ranked list, its measures and its precision-recall curve.

:func:`ranking_chart` offers every setting of ten relevance checkboxes and R,
over tables (:func:`rankings_table`) computed with :mod:`irmeans.measures`; its
controls only pick rows. :func:`pr_curve_chart` is the static curve of one
ranking. For readers running the chapter in Jupyter, :func:`ranking_controls`
draws the same figure again for each setting of its ipywidgets.

Examples
--------
>>> m = ranking_measures([1, 3], num_relevant=4)
>>> m["R"], round(m["AP"], 4), m["RR"]
(4, 0.4167, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans import measures as ranked
from numpy.typing import ArrayLike

from irmeans_book.plots import OKABE_ITO, STATE, LiveFigure, VegaLiteFigure, csv_data, example, show
from irmeans_book.selfcheck import Number, selfcheck

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_table",
    "RANKING",
    "R",
    "RELEVANT_RANKS",
    "EXAMPLE",
    "FIGURES",
    "pr_curve_figure",
    "pr_curve_alt",
    "ranking_figure",
    "ranking_alt",
    "first_ranks",
    "DEPTH",
    "MAX_R",
    "rankings_table",
    "RANKING_MEASURES",
    "ranking_chart",
    "pr_table",
    "pr_curve_chart",
    "ranking_measures",
    "describe_ranking",
    "ranking_controls",
    "EXAMPLE_FOLDER",
    "store",
    "ranking_state",
    "PR_CURVE_KEY",
]

#: Chapter 2's example: the relevance (1 or 0) of the documents at ranks 1 to 10 ...
RANKING = example([1, 0, 1, 0, 0, 1, 0, 0, 0, 0], dtype=int)
#: ... and R, the number of relevant documents for the topic in all.
R = 5
#: The relevant ranks of :data:`RANKING`: 1, 3 and 6.
RELEVANT_RANKS = tuple(int(k) for k in np.flatnonzero(RANKING) + 1)

#: The chapter's examples by the names its notebook gives them (its cells show them, for a reader to change): a check
#: of the text is strict on these (irmeans_book.claims). Each of trec_eval's conventions is shown on a qrels and a run
#: (or two) of its own.
EXAMPLE: dict[str, Any] = {
    "ranking": RANKING,
    "R": R,
    "known_item": example([0, 0, 0, 1, 0, 0, 0, 0, 0, 0], dtype=int),
    "ranks": {"X": [1, 1, 40], "Y": [3, 3, 3]},
    "grades": example([2, 0, 3, 1, 0], dtype=int),
    "judged": example([3, 2, 2, 1, 0, 0], dtype=int),
    "k": 3,
    "g_max": 3,
    "graded": (
        ["1 0 d1 2", "1 0 d2 0", "1 0 d3 3", "1 0 d4 1", "1 0 d5 0", "1 0 d6 2"],
        ["1 Q0 d1 1 5.0 demo", "1 Q0 d2 2 4.0 demo", "1 Q0 d3 3 3.0 demo", "1 Q0 d4 4 2.0 demo", "1 Q0 d5 5 1.0 demo"],
    ),
    "ties": (["1 0 d1 1", "1 0 d2 0"], ["1 Q0 d1 1 0.9 demo", "1 Q0 d2 2 0.9 demo"]),
    "cutoff": (["1 0 d1 1", "1 0 d3 1"], ["1 Q0 d1 1 3.0 demo", "1 Q0 d2 2 2.0 demo", "1 Q0 d3 3 1.0 demo"]),
    "levels": (
        ["1 0 d1 1", "1 0 d2 2", "1 0 d3 0"],
        ["1 Q0 d1 1 3.0 demo", "1 Q0 d2 2 2.0 demo", "1 Q0 d3 3 1.0 demo"],
    ),
    "unjudged": (
        ["1 0 d1 1", "1 0 d2 0"],
        ["1 Q0 x9 1 2.0 demo", "1 Q0 d1 2 1.0 demo"],
        ["1 Q0 d2 1 2.0 demo", "1 Q0 d1 2 1.0 demo"],
    ),
    "missing": (["1 0 d1 1", "2 0 e1 1"], ["1 Q0 x1 1 2.0 demo", "1 Q0 d1 2 1.0 demo"]),
}

#: Where the chapter stores the qrels and runs of its ``irmeans eval`` examples, from the project's root: the command
#: lines it prints run as shown from there, on files the project ships.
EXAMPLE_FOLDER = "examples/ch02"


def store(path: str | PathLike[str], lines: Iterable[str]) -> Path:
    """Write ``lines`` to ``path`` as a file of one line each, unless it holds them already; return ``path``.

    The chapter's examples are shipped files: executing the chapter on its own data leaves them as they are
    (and never half-written while another process reads them); a reader's own data replace them.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = store(Path(folder, "a", "qrels.txt"), ["1 0 d1 1", "1 0 d2 0"])
    ...     before = path.stat().st_mtime_ns
    ...     same = store(path, ["1 0 d1 1", "1 0 d2 0"]).stat().st_mtime_ns == before
    ...     path.read_text().splitlines(), same
    (['1 0 d1 1', '1 0 d2 0'], True)
    """
    path = Path(path)
    text = "".join(f"{line}\n" for line in lines)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return path


#: The ranks Figure 2.2 has a checkbox for; a longer ranking starts the figure at its first ten.
DEPTH = 10
#: The figure's largest R, or the ranking's own R if that is larger.
MAX_R = 15


def _all_rankings(depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Every 0/1 ranking of ``depth`` ranks; row m has rank k relevant iff bit k-1 of m is set."""
    masks = np.arange(2**depth)
    return masks, (masks[:, None] >> np.arange(depth)) & 1


def rankings_table(depth: int = 10, max_r: int = 15, decimals: int = 3) -> tuple[pd.DataFrame, pd.DataFrame]:
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

    _, precision = ranked.precision_recall_points(rels, lo)  # precision does not depend on R
    per_ranking = pd.DataFrame(
        {
            "m": masks,
            "lo": lo,
            "p5": ranked.precision_at(rels, min(5, depth)).round(decimals),  # type: ignore[union-attr]  # of rankings: an array
            "p10": ranked.precision_at(rels, depth).round(decimals),  # type: ignore[union-attr]  # of rankings: an array
            "rr": ranked.reciprocal_rank(rels).round(decimals),  # type: ignore[union-attr]  # of rankings: an array
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
            "ap": ranked.average_precision(rels[row], R).round(decimals),  # type: ignore[union-attr]  # of rankings: an array
            "rprec": ranked.r_precision(rels[row], R).round(decimals),  # type: ignore[union-attr]  # of rankings: an array
            **{f"recall{k}": recall[:, k - 1].round(decimals) for k in ranks},
        }
    )
    return per_ranking, per_setting


#: The measures in chapter 2's bar chart: column of :func:`rankings_table` -> label.
RANKING_MEASURES = {"p5": "P@5", "p10": "P@10", "rprec": "R-precision", "ap": "AP", "rr": "RR"}


def ranking_chart(
    depth: int = 10,
    max_r: int = 15,
    initial: Sequence[int] = tuple(int(x) for x in RANKING),  # type: ignore[name-defined]  # mypy misreads a generator in a default
    initial_r: int = R,
) -> alt.TopLevelMixin:
    """Chapter 2's figure: tick relevant ranks, pick R, read the measures and the P-R curve.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> c = ranking_chart(depth=3, max_r=4, initial=(1, 0, 1), initial_r=3)
    >>> sorted(p["name"] for p in to_spec(c, "A ranking and its measures.")["params"])
    ['R', 'irmeans_state_ranks', 'r_floor', 'rank1', 'rank2', 'rank3']
    """
    if len(initial) != depth:
        raise ValueError(f"initial has {len(initial)} ranks, expected {depth}")
    per_ranking, per_setting = rankings_table(depth, max_r)
    ranks = range(1, depth + 1)
    boxes = [
        alt.param(name=f"rank{k}", value=bool(initial[k - 1]), bind=alt.binding_checkbox(name=f"Rank {k} relevant "))
        for k in ranks
    ]
    r_param = alt.param(
        name="R",
        value=int(initial_r),
        bind=alt.binding_range(min=1, max=max_r, step=1, name="R, relevant documents in all "),
    )
    # Which ranks are ticked, in words: the start of what the figure says it shows (irmeans_book.plots.STATE).
    ticked = " + ".join(f"(rank{k} ? '{k}, ' : '')" for k in ranks)
    said = alt.param(
        name=f"{STATE}_ranks",
        expr=f"'Relevant ranks: ' + ({ticked} == '' ? 'none' : replace({ticked}, regexp(', $'), ''))",
    )
    # R can't be below the relevant documents ticked: on the site the slider is kept at least there.
    r_floor = alt.param(name="r_floor", expr="max(1, " + " + ".join(f"(rank{k} ? 1 : 0)" for k in ranks) + ")")
    # Which ranking is ticked: bit k-1 for rank k, the rows' key. No measure is computed here.
    mask = " + ".join(f"(rank{k} ? {2 ** (k - 1)} : 0)" for k in ranks)
    this_ranking = f"datum.m == ({mask})"
    # R can't be below the relevant documents ticked: use the least allowed R then.
    this_setting = f"{this_ranking} && datum.R == max(R, datum.lo)"
    by_rank: Callable[[str], str] = lambda name: "[" + ", ".join(f"datum.{name}{k}" for k in ranks) + "]"  # noqa: E731

    strip = (
        alt.Chart(csv_data(per_ranking))
        .transform_filter(this_ranking)
        .transform_calculate(rel=by_rank("rel"))
        .transform_flatten(["rel"])
        .transform_window(rank="row_number()")
        .transform_calculate(judgement="datum.rel == 1 ? 'relevant' : 'not relevant'")
        .mark_square(size=300, cursor="pointer")
        .encode(
            x=alt.X("rank:O", title="Rank", axis=alt.Axis(labelAngle=0)),
            color=alt.Color(
                "judgement:N",
                title=None,
                legend=alt.Legend(orient="bottom", direction="horizontal"),
                scale=alt.Scale(domain=["relevant", "not relevant"], range=[OKABE_ITO[4], "#DDDDDD"]),
            ),
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
    # The values and the R used say, in the figure's words, what it shows at the reader's setting
    # (irmeans_book.plots.STATE: the site reads them as drawn).
    values = (
        folded.transform_calculate(said="datum.measure + ' ' + format(datum.value, '.3f')")
        .mark_text(align="left", dx=4)
        .encode(
            y=alt.Y("measure:N", sort=order),
            x="value:Q",
            text=alt.Text("value:Q", format=".3f"),
            description="said:N",
        )
        .properties(name=f"{STATE}_measures")
    )
    r_used = (
        setting.transform_calculate(label="'R used: ' + datum.R")
        .mark_text(align="left", fontWeight="bold")
        .encode(text="label:N", description="label:N")
        .properties(width=180, height=16, name=f"{STATE}_r")
    )
    measures = alt.vconcat((bars + values).properties(width=180, height=170, title="The measures"), r_used)

    # On the site, a click on a square of the strip ticks or unticks that rank (irmeans-figures.js).
    usermeta = {"irmeans_at_least": {"R": "r_floor"}, "irmeans_click_toggles": {"field": "rank", "param": "rank"}}
    return (
        alt.vconcat(strip, alt.hconcat(curve, measures))
        .add_params(said, *boxes, r_param, r_floor)
        .properties(usermeta=usermeta)
    )


def pr_table(rels: ArrayLike, num_relevant: int | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
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


#: The key of Figure 2.1: each layer's entry, its colour, its mark and its line's dashes.
PR_CURVE_KEY = {
    "relevant document": (OKABE_ITO[4], "circle", [1, 0]),
    "non-relevant document": (OKABE_ITO[5], "cross", [1, 0]),
    "precision, rank by rank": ("#555555", "stroke", [1, 0]),
    "interpolated precision": ("#000000", "stroke", [5, 3]),
    "AP: the shaded area": (OKABE_ITO[2], "square", [1, 0]),
}


def pr_curve_chart(rels: ArrayLike, num_relevant: int | None = None) -> alt.TopLevelMixin:
    """The precision-recall curve of one ranking, its 11-point interpolation, and AP's blocks.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(pr_curve_chart([1, 0, 1], 4), "A curve.")
    >>> len(spec["layer"])
    4
    """
    points, interpolated = pr_table(rels, num_relevant)
    x = alt.X("recall:Q", title="Recall", scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("precision:Q", title="Precision", scale=alt.Scale(domain=[0, 1]))
    # One legend for every layer, each entry with its colour, its mark and its line's dashes: on a slide the
    # figure explains itself (it had no legend but the points'), and no two entries differ by colour alone.
    names = list(PR_CURVE_KEY)

    def key(channel: Callable[..., Any], item: int, **options: Any) -> Any:
        scale = alt.Scale(domain=names, range=[v[item] for v in PR_CURVE_KEY.values()])
        return channel("what:N", title=None, scale=scale, **options)

    legend = alt.Legend(orient="bottom", columns=2, symbolStrokeWidth=2, labelLimit=0)
    what = {
        "color": key(alt.Color, 0, legend=legend),
        "shape": key(alt.Shape, 1, legend=legend),
        "strokeDash": key(alt.StrokeDash, 2, legend=legend),
    }
    base = alt.Chart(points)
    # AP's blocks: a pale fill, on which every mark drawn over it stands out (3:1), and an outline in full colour
    # that stands out from the page.
    blocks = (
        base.transform_filter("datum.relevant")
        .transform_calculate(floor="0", what=repr(names[4]))
        .mark_rect(fillOpacity=0.15, strokeWidth=1.5)
        .encode(
            x=alt.X("recall_before:Q"),
            x2="recall:Q",
            y=alt.Y("floor:Q"),
            y2="precision:Q",
            color=what["color"],  # a block has no mark's shape or line's dashes: its colour's entry, outlined
            stroke=key(alt.Stroke, 0, legend=legend),
        )
    )
    line = base.transform_calculate(what=repr(names[2])).mark_line().encode(x=x, y=y, order="rank:Q", **what)
    dots = (
        base.transform_calculate(what=f"datum.relevant ? {names[0]!r} : {names[1]!r}")
        .mark_point(filled=True, size=60)
        .encode(
            x=x,
            y=y,
            **what,
            tooltip=["rank:O", alt.Tooltip("recall:Q", format=".3f"), alt.Tooltip("precision:Q", format=".3f")],
        )
    )
    interp = (
        alt.Chart(interpolated)
        .transform_calculate(what=repr(names[3]))
        .mark_line(point=alt.OverlayMarkDef(filled=True, shape="circle", size=25))
        .encode(
            x=alt.X("recall_level:Q"),
            y="precision:Q",
            **what,
            tooltip=[alt.Tooltip("recall_level:Q", format=".1f"), alt.Tooltip("precision:Q", format=".3f")],
        )
    )
    title = "Precision against recall for one ranking"
    return alt.layer(blocks, line, interp, dots).properties(width=360, height=260, title=title)


def ranking_measures(relevant_ranks: Iterable[int], num_relevant: int, depth: int = 10) -> dict[str, Any]:
    """The measures of chapter 2 for a ranking given by its relevant ranks.

    Parameters
    ----------
    relevant_ranks : iterable of int
        Ranks (1-based, at most ``depth``) holding a relevant document.
    num_relevant : int
        R; raised to the number of relevant ranks if smaller.
    depth : int
        Length of the ranking.

    Returns
    -------
    dict
        ``R`` (as used), ``P@5``, ``P@10``, ``R-precision``, ``AP``, ``RR``.

    Examples
    --------
    >>> m = ranking_measures([1, 3], num_relevant=4)
    >>> m["R"], round(m["AP"], 4), m["RR"]
    (4, 0.4167, 1.0)
    """
    rels = np.zeros(depth)
    rels[np.asarray(list(relevant_ranks), dtype=int) - 1] = 1
    R = max(int(num_relevant), int(rels.sum()), 1)
    return {
        "R": R,
        "P@5": ranked.precision_at(rels, 5),
        "P@10": ranked.precision_at(rels, 10),
        "R-precision": ranked.r_precision(rels, R),
        "AP": ranked.average_precision(rels, R),
        "RR": ranked.reciprocal_rank(rels),
    }


def describe_ranking(relevant_ranks: Iterable[int], num_relevant: int, depth: int = 10) -> str:
    """:func:`ranking_measures` as lines of text.

    Examples
    --------
    >>> print(describe_ranking([2], 1).splitlines()[-1])
    RR           0.5000
    """
    m = ranking_measures(relevant_ranks, num_relevant, depth)
    lines = [f"R used       {m.pop('R')}"]
    lines += [f"{name:<12} {value:.4f}" for name, value in m.items()]
    return "\n".join(lines)


def ranking_controls(
    ranking: ArrayLike = RANKING, num_relevant: int = R, depth: int = DEPTH, max_r: int = MAX_R
) -> LiveFigure:
    """Ten checkboxes (relevant ranks) and an R slider that redraw chapter 2's figure, starting at this ranking.

    They start where Figure 2.2 does: the ranking's first ``depth`` ranks ticked, the slider at R. The slider
    never reads less than the relevant ranks ticked: ticking more moves it up, and it cannot be moved below them.

    Examples
    --------
    >>> live = ranking_controls([1, 0, 1, 0, 0, 1], num_relevant=2)
    >>> live.widgets["R"].value, live.figure.spec["params"][-2]["value"]
    (3, 3)
    """
    import ipywidgets as w

    ticked = first_ranks(ranking, depth)
    initial_r = max(int(num_relevant), sum(ticked), 1)
    max_r = max(max_r, initial_r)
    boxes = {
        f"rank{k}": w.Checkbox(value=bool(ticked[k - 1]), description=f"Rank {k} relevant") for k in range(1, depth + 1)
    }
    slider = w.IntSlider(value=initial_r, min=1, max=max_r, description="R", continuous_update=False)

    def draw(R: int, **ticked: bool) -> VegaLiteFigure:
        rels = tuple(int(ticked[f"rank{k}"]) for k in range(1, depth + 1))
        ranks = [k for k, rel in enumerate(rels, start=1) if rel]
        lines = describe_ranking(ranks, R, depth).splitlines()
        alt_text = "A ranking and its measures: " + "; ".join(" ".join(line.split()) for line in lines) + "."
        return show(ranking_chart(depth, max_r, initial=rels, initial_r=R), alt=alt_text, controls=False)

    def at_least_ticked(change: object) -> None:
        ticked = sum(box.value for box in boxes.values())
        if slider.value < ticked:
            slider.value = ticked

    for widget in (slider, *boxes.values()):
        widget.observe(at_least_ticked, names="value")
    return LiveFigure({"R": slider, **boxes}, draw)


def _listed(numbers: Iterable[object]) -> str:
    """1, 3 and 6."""
    words = [f"{n:g}" for n in numbers]
    return " and ".join([", ".join(words[:-1]), words[-1]]) if len(words) > 1 else "".join(words) or "none"


def pr_curve_alt(ranking: ArrayLike, num_relevant: int) -> str:
    """Figure 2.1's alt text, for this ranking and R."""
    rels = np.asarray(ranking)
    recall, _ = ranked.precision_recall_points(rels, num_relevant)
    reached = float(recall[-1]) if rels.size else 0.0
    interpolated = ranked.interpolated_precision(rels, num_relevant)
    tail = f", which drops to 0 above recall {reached:.3g}" if (interpolated == 0).any() else ""
    return (
        f"Precision against recall for the ranking of {rels.size} documents with relevant documents at ranks "
        f"{_listed(np.flatnonzero(rels >= 1) + 1)} and R = {num_relevant}: the curve falls at each non-relevant rank "
        "and jumps up at each relevant one; shaded blocks under the relevant points have a total area equal to AP; "
        f"a dashed line gives interpolated precision at recall 0 to 1 in steps of 0.1{tail}."
    )


def pr_curve_figure(ranking: ArrayLike = RANKING, num_relevant: int = R) -> VegaLiteFigure:
    """Figure 2.1 for this ranking (1 or 0 by rank) and R: its precision-recall curve, interpolation and AP's blocks.

    Examples
    --------
    >>> pr_curve_figure([0, 1, 1], 4).spec["description"][:80]
    'Precision against recall for the ranking of 3 documents with relevant documents '
    """
    return show(pr_curve_chart(ranking, num_relevant), alt=pr_curve_alt(ranking, num_relevant))


def first_ranks(ranking: ArrayLike, depth: int = DEPTH) -> tuple[int, ...]:
    """The first ``depth`` ranks of ``ranking`` (1 or 0 by rank), a shorter one padded with non-relevant documents.

    A ranking shorter than ``depth`` has the same measures padded: a document never retrieved and one retrieved
    but not relevant count alike.

    Examples
    --------
    >>> first_ranks([1, 0, 1], depth=5)
    (1, 0, 1, 0, 0)
    """
    rels = [int(bool(x)) for x in np.asarray(ranking).ravel()[:depth]]
    return tuple(rels + [0] * (depth - len(rels)))


def ranking_alt(ranking: ArrayLike, num_relevant: int, depth: int = DEPTH, max_r: int = MAX_R) -> str:
    """Figure 2.2's alt text, for any setting of its controls (:func:`ranking_state` says what it shows at one)."""
    ticked = first_ranks(ranking, depth)
    r = max(int(num_relevant), sum(ticked), 1)
    return (
        f"{depth} checkboxes choose which of ranks 1 to {depth} are relevant and a slider sets R from 1 to "
        f"{max(max_r, r)}. The figure shows the ranking as {depth} squares, the precision-recall curve rank by rank, "
        "and bars for P@5, P@10, R-precision, AP and RR with their values, plus the R used."
    )


def ranking_figure(ranking: ArrayLike = RANKING, num_relevant: int = R) -> VegaLiteFigure:
    """Figure 2.2, ticked at this ranking's first ten ranks, the slider at R (the slider reaches at least 15).

    Examples
    --------
    >>> params = {p["name"]: p.get("value") for p in ranking_figure([0, 1], 20).spec["params"]}
    >>> params["rank1"], params["rank2"], params["rank10"], params["R"]
    (False, True, False, 20)
    """
    ticked = first_ranks(ranking)
    r = max(int(num_relevant), sum(ticked), 1)
    chart = ranking_chart(DEPTH, max(MAX_R, r), initial=ticked, initial_r=r)
    return show(chart, alt=ranking_alt(ranking, num_relevant), state=ranking_state)


def ranking_state(R: int, **ticked: bool) -> str:
    """Figure 2.2's words for a setting of its controls (``rank1``... ticked or not, and ``R``), as the site makes
    them from what the figure draws: the relevant ranks, each measure as its bar is labelled, the R used.

    Examples
    --------
    >>> ranking_state(2, rank1=True, rank2=False, rank3=True)
    'Relevant ranks: 1, 3; P@5 0.400; P@10 0.200; R-precision 0.500; AP 0.833; RR 1.000; R used: 2.'
    """
    ranks = [int(name.removeprefix("rank")) for name, on in ticked.items() if on]
    m = ranking_measures(ranks, R, depth=DEPTH)
    shown = [f"{label} {np.round(m[label], 3):.3f}" for label in RANKING_MEASURES.values()]
    listed = ", ".join(map(str, ranks)) or "none"
    return f"Relevant ranks: {listed}; " + "; ".join(shown) + f"; R used: {m['R']}."


#: Where the paper table puts three relevant documents in the top 10: together at each depth, and spread.
PAPER_PLACEMENTS = tuple((k, k + 1, k + 2) for k in range(1, 9)) + ((1, 2, 10), (1, 5, 10), (1, 9, 10))


def paper_table(
    placements: Iterable[Sequence[int]] = PAPER_PLACEMENTS, num_relevant: int = 3, depth: int = DEPTH
) -> pd.DataFrame:
    """What the figure shows for some placements of the relevant documents, with R = ``num_relevant``, for
    paper (:mod:`irmeans_book.paper`): each placement's measures.

    Examples
    --------
    >>> paper_table([(1, 2, 3), (8, 9, 10)]).AP.tolist()
    [1.0, 0.2157]
    """
    rows = {", ".join(map(str, p)): ranking_measures(p, num_relevant, depth) for p in placements}
    table = pd.DataFrame(rows).T[["AP", "P@5", "P@10", "R-precision", "RR"]].astype(float).round(4)
    table.index.name = f"relevant at ranks (R = {num_relevant})"
    return table


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {
    "fig-ch2-pr-curve": pr_curve_figure,
    "fig-ch2-ranking": ranking_figure,
}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------

#: The self-checks' own ranking, not the worked example's (whose R-precision and interpolated precision the
#: chapter prints): relevant at ranks 2, 4 and 5 of five, with R = 4 relevant documents in all.
CH2_SC_RANKING, CH2_SC_R = (0, 1, 0, 1, 1), 4
#: The nDCG self-check: two relevant documents (grade 1), ranked 1 and 3.
CH2_SC_GRADES, CH2_SC_JUDGED = (1, 0, 1), (1, 1)


@selfcheck("sc-ch2-r-precision")
def ch2_r_precision() -> Number:
    """R-precision of the self-checks' ranking (relevant at ranks 2, 4 and 5, R = 4)."""
    return Number(float(irmeans.r_precision(CH2_SC_RANKING, CH2_SC_R)), decimals=2)


@selfcheck("sc-ch2-interpolated")
def ch2_interpolated() -> Number:
    """Interpolated precision at recall 0.5 of the self-checks' ranking."""
    (value,) = irmeans.interpolated_precision(CH2_SC_RANKING, CH2_SC_R, recall_levels=[0.5])
    return Number(value, decimals=3)


@selfcheck("sc-ch2-ndcg")
def ch2_ndcg() -> Number:
    """nDCG (gain = grade, log2(r + 1) discount) of two relevant documents at ranks 1 and 3."""
    return Number(float(irmeans.ndcg(CH2_SC_GRADES, judged=CH2_SC_JUDGED)), decimals=3)


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE: dict[str, Any] = {
    "live": "fig-ch2-ranking",
    "lines": {
        "ranking = np.array([1, 0, 1, 0, 0, 1, 0, 0, 0, 0])": "ranking = np.array([0, 1, 1, 0, 0, 0, 0, 1, 0, 0])",
        "R = 5": "R = 4",
    },
    "named": {
        "in which the documents at ranks 1, 3 and 6 are relevant",
        "the two unretrieved relevant documents are missing from any cutoff",
        "If our topic had only the three relevant documents we retrieved",
        "the two missing relevant documents at ranks 11 and 12",
    },
    "figures": {"fig-ch2-pr-curve": [0.25, 0.75, 0.375]},
    "params": {"fig-ch2-ranking": {"rank1": False, "rank2": True, "rank3": True, "rank8": True, "R": 4}},
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS: list[tuple[str, str]] = [
    ("0.9", "rbp's persistence when rbp.p= names none (trec_eval's m_rbp.c, cited)"),
    ("3 5 6 10", "the example: ten documents, relevant at ranks 1, 3 and 6, R = 5; P@5 and P@10"),
    ("2 8 9 11 12 999", "the exercises' rankings: relevant at ranks 11 and 12, 999 and 1000, 8 to 10; rank 2"),
    ("40 41", "the mean-rank example: X's answer at rank 40; the step from 40 to 41"),
    ("1000", "TREC's cutoff of 1000 documents per topic (trec_eval, cited)"),
    ("0.5", "the self-check's recall level"),
    (
        "10.0 4",
        "trec_eval's version, 10.0 (cited), and the exit status its source (trec_eval.c) gives a topic without "
        "results; gdeval.pl's top grade, 4 (cited)",
    ),
    ("7 20", "gdeval.pl (cited): its depth of 20, and the gain 2^3 - 1 = 7 it gives grade 3"),
]
