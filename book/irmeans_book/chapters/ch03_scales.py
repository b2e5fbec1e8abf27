"""Chapter 3's figures: transforming the score scale before averaging.

A transformation is applied to every per-topic score of two systems, the
transformed scores are averaged with the arithmetic mean, and the higher mean
wins. The transformations are monotone, so each topic keeps its winner; the
average's verdict need not survive.

- ``identity``: the scores as they are; the mean is the arithmetic mean.
- ``log``: log x; the mean mapped back by exp is the geometric mean.
- ``logit``: log(x / (1 − x)); mapped back it is :func:`irmeans.means.logit_mean`.
- ``rank``: each score's rank among all the scores of both systems (ties
  share the average rank); only the order of the scores is used.

Examples
--------
>>> a, b = transform([0.1, 0.4], [0.2, 0.3], "rank")
>>> a.tolist(), b.tolist()
([1.0, 4.0], [2.0, 3.0])
>>> print(describe_transform([0.9, 0.01], [0.3, 0.3], "log"))
log: mean A -2.3553, B -1.2040 -> B is higher; mapped back (geometric mean): A 0.0949, B 0.3000
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans import means
from numpy.typing import ArrayLike
from scipy.stats import rankdata

from irmeans_book.plots import OKABE_ITO, Grid, LiveFigure, VegaLiteFigure, example, show, slider_param
from irmeans_book.selfcheck import Choice, Number, selfcheck, winner

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_table",
    "EXAMPLE",
    "SCORES_A",
    "SCORES_B",
    "LOWEST",
    "FIGURES",
    "CHANGES",
    "doubling_figure",
    "doubling_alt",
    "transform_figure",
    "TRANSFORMS",
    "BACK_TRANSFORMED",
    "transform",
    "transform_table",
    "transform_chart",
    "doubling_table",
    "doubling_chart",
    "describe_transform",
    "transform_controls",
    "transform_state",
]

#: Chapter 3's example: six topics, system A excellent on two and poor on the rest, B middling on all.
SCORES_A = example([0.95, 0.90, 0.15, 0.12, 0.10, 0.05])
SCORES_B = example([0.40, 0.35, 0.30, 0.25, 0.20, 0.18])
#: The slider for A's lowest (last) topic: 0.01, 0.02, ..., 0.30.
LOWEST = Grid(0.01, 0.30, 0.01, decimals=2)
#: Figure 3.1's two changes of a score, each a doubling (start, end).
CHANGES = ((0.05, 0.1), (0.25, 0.5))

#: The transformations of the chapter, in the order of the figure's select.
TRANSFORMS = ("identity", "log", "logit", "rank")
#: The title of the figure's left panel, naming the select's transformation: "Each topic, on the log scale".
_ON_SCALE = "scale == 'identity' ? 'Each topic, as scored' : 'Each topic, on the ' + scale + ' scale'"

#: The mean of transformed scores mapped back to the score scale: its name and the library's function.
BACK_TRANSFORMED: dict[str, tuple[str, Callable[[ArrayLike], float | np.ndarray]]] = {
    "identity": ("arithmetic mean", means.arithmetic_mean),
    "log": ("geometric mean", means.geometric_mean),
    "logit": ("logit mean", means.logit_mean),
}


def transform(scores_a: ArrayLike, scores_b: ArrayLike, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Both systems' per-topic scores on the transformed scale ``name``.

    The rank transformation ranks all scores of both systems together, so it
    needs both; the others act on each score alone. Scores must be in (0, 1)
    for log and logit.

    Returns
    -------
    tuple of ndarray
        The transformed scores of A and of B.
    """
    a = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    if name == "identity":
        return a.copy(), b.copy()
    if name in ("log", "logit"):
        both = np.concatenate([a, b])
        bad = (both <= 0) | ((both >= 1) if name == "logit" else False)
        if bad.any():
            raise ValueError(f"the {name} transformation needs scores in (0, 1) here")
        f = np.log if name == "log" else (lambda x: np.log(x) - np.log1p(-x))
        return f(a), f(b)
    if name == "rank":
        r = rankdata(np.concatenate([a, b]))
        return r[: a.size], r[a.size :]
    raise ValueError(f"unknown transformation {name!r}; choose one of {TRANSFORMS}")


def transform_table(
    scores_a: ArrayLike, scores_b: ArrayLike, lowest_values: ArrayLike
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every value of the chapter's figure, for each setting of its slider.

    The slider replaces system A's last score by each of ``lowest_values``.

    Returns
    -------
    topics : DataFrame
        ``lowest, transform, system, topic, score, value``: per-topic scores
        and their transformed values.
    summary : DataFrame
        ``lowest, transform, system, mean, back, back_name, winner, floor``:
        the mean of the transformed scores, the same mapped back to the score
        scale (NaN for ``rank``, which has no way back), the system with the
        higher mean, and where the figure's bars start on that scale: 0, or
        below every mean of the scale when means are negative (log, logit), so
        a higher mean is always a taller bar.

    Examples
    --------
    >>> _, s = transform_table([0.6, 0.1], [0.3, 0.3], [0.01, 0.1])
    >>> s.query("lowest == 0.01 and transform == 'log'").winner.tolist()
    ['B', 'B']
    """
    a0 = np.asarray(scores_a, dtype=float)
    b = np.asarray(scores_b, dtype=float)
    topics, summary = [], []
    for low in np.asarray(lowest_values, dtype=float):
        a = np.append(a0[:-1], low)
        for name in TRANSFORMS:
            ta, tb = transform(a, b, name)
            ma, mb = means.arithmetic_mean(ta), means.arithmetic_mean(tb)
            winner = "A" if ma > mb else "B" if mb > ma else "tie"
            back_name, back = BACK_TRANSFORMED.get(name, ("none, ranks keep only the order", None))
            for system, raw, tr, m in (("A", a, ta, ma), ("B", b, tb, mb)):
                topics.append(
                    pd.DataFrame(
                        {
                            "lowest": low,
                            "transform": name,
                            "system": system,
                            "topic": np.arange(1, raw.size + 1),
                            "score": raw,
                            "value": tr,
                        }
                    )
                )
                summary.append(
                    {
                        "lowest": low,
                        "transform": name,
                        "system": system,
                        "mean": m,
                        "back": back(raw) if back else np.nan,
                        "back_name": back_name,
                        "winner": winner,
                    }
                )
    summary = pd.DataFrame(summary)
    lowest_mean = summary.groupby("transform")["mean"].transform("min")
    span = summary.groupby("transform")["mean"].transform(lambda m: m.max() - m.min())
    summary["floor"] = np.minimum(0.0, lowest_mean - np.maximum(0.25 * span, 0.1 * lowest_mean.abs()))
    return pd.concat(topics, ignore_index=True), summary


def transform_chart(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    lowest_values: ArrayLike,
    initial_lowest: float | None = None,
    initial_transform: str = "identity",
) -> alt.TopLevelMixin:
    """The chapter's interactive figure: transformed scores per topic, their means, the winner.

    A select picks the transformation, a slider system A's last topic score.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> c = transform_chart([0.6, 0.1], [0.3, 0.3], [0.05, 0.1])
    >>> sorted(p["name"] for p in to_spec(c, "Transformed scores.")["params"])
    ['lowest', 'scale']
    """
    topics, summary = transform_table(scores_a, scores_b, lowest_values)
    lows = np.asarray(lowest_values, dtype=float)
    step = float(np.round(np.median(np.diff(lows)), 10)) if lows.size > 1 else None  # a reader's value may be off it
    lowest = slider_param(
        "lowest", lows, lows[0] if initial_lowest is None else initial_lowest, "System A, last topic's score ", step
    )
    scale = alt.param(
        name="scale", value=initial_transform, bind=alt.binding_select(options=list(TRANSFORMS), name="Transformation ")
    )
    # The slider's value and the table's may differ in the last bit: compare with a tolerance.
    pick = "abs(datum.lowest - lowest) < 1e-9 && datum.transform == scale"
    colour = alt.Color("system:N", title="System")

    points = (
        alt.Chart(topics)
        .transform_filter(pick)
        .mark_point(filled=True, size=90)
        .encode(
            x=alt.X("topic:O", title="Topic", axis=alt.Axis(labelAngle=0)),
            y=alt.Y("value:Q", title="Transformed score", scale=alt.Scale(zero=False)),
            color=colour,
            shape=alt.Shape("system:N", title="System"),  # one legend, each system's colour and mark
            xOffset="system:N",
            tooltip=[
                "system:N",
                "topic:O",
                alt.Tooltip("score:Q", format=".2f", title="score"),
                alt.Tooltip("value:Q", format=".3f", title="transformed"),
            ],
        )
        # The panel names the transformation the select has chosen, on a slide as on the site.
        .properties(width=260, height=230, title=alt.Title(text=alt.ExprRef(_ON_SCALE)))
    )
    chosen = alt.Chart(summary).transform_filter(pick)
    # Bars start at the scale's floor, not at 0: a mean of logs is negative, and a bar hanging down
    # from 0 would make the higher mean the shorter bar.
    bars = chosen.mark_bar().encode(
        x=alt.X("system:N", title="System", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("mean:Q", title="Mean of transformed scores", scale=alt.Scale(zero=False)),
        y2="floor:Q",
        color=alt.Color(
            "system:N", legend=None
        ),  # the same colours, from a scale of its own: the legend is the points'
        tooltip=["system:N", alt.Tooltip("mean:Q", format=".4f")],
    )

    def line(
        value: str, expr: str, **style: Any
    ) -> alt.Chart:  # a line of text from the two systems' rows side by side
        chart: alt.Chart = (
            chosen.transform_pivot("system", value=value, groupby=["winner", "back_name"])
            .transform_calculate(label=expr)
            .mark_text(**{"fontSize": 13, **style})
            .encode(text="label:N")
            .properties(width=170, height=16)
        )
        return chart

    pair = "'A ' + format(datum.A, '.3f') + ', B ' + format(datum.B, '.3f')"
    right = alt.vconcat(
        bars.properties(width=170, height=170, title="The average"),
        line("mean", "'Means: ' + " + pair),
        line("mean", "'Higher on average: ' + datum.winner", fontWeight="bold", fontSize=13),
        line("back", "'Mapped back: ' + datum.back_name"),
        line("back", f"isValid(datum.A) ? {pair} : ''"),
        spacing=4,
    )
    both = alt.hconcat(points, right).resolve_scale(xOffset="independent", color="independent", shape="independent")
    chart: alt.TopLevelMixin = both.add_params(lowest, scale)
    return chart


def doubling_table(changes: Iterable[tuple[float, float]] = CHANGES) -> pd.DataFrame:
    """Two changes of a score, each as a step on the raw scale and on the log scale.

    Returns
    -------
    DataFrame
        ``scale, change, start, end, size``: ``size`` is end − start on that scale.

    Examples
    --------
    >>> t = doubling_table()
    >>> t.query("scale == 'raw score'")["size"].round(2).tolist()
    [0.05, 0.25]
    """
    rows = []
    for start, end in changes:
        label = f"{start:g} → {end:g}"
        rows.append({"scale": "raw score", "change": label, "start": start, "end": end, "size": end - start})
        s, e = np.log(start), np.log(end)
        rows.append({"scale": "log score", "change": label, "start": s, "end": e, "size": e - s})
    return pd.DataFrame(rows)


def doubling_chart(changes: Iterable[tuple[float, float]] = CHANGES) -> alt.TopLevelMixin:
    """Two arrows per scale: the same two changes measured raw and after the log.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(doubling_chart(), "Two changes.")
    >>> len(spec["vconcat"])
    2
    """
    table = doubling_table(changes)
    rows = []
    for scale, title in (("raw score", "Raw score x"), ("log score", "log x (natural logarithm)")):
        part = table[table.scale == scale]
        base = alt.Chart(part).encode(
            y=alt.Y("change:N", title=None, sort=list(part.change)),
            color=alt.Color("change:N", legend=None, scale=alt.Scale(domain=list(part.change), range=OKABE_ITO[:2])),
        )
        rule = base.mark_rule(strokeWidth=3).encode(x=alt.X("start:Q", title=title), x2="end:Q")
        ends = base.mark_point(filled=True, size=70, shape="triangle-right").encode(x="end:Q")
        # The value in the page's text colour (black here): in its arrow's colour it read at 3.5:1.
        text = base.mark_text(align="left", dx=8, color="#000000").encode(
            x="end:Q", text=alt.Text("size:Q", format=".3f"), color=alt.value("#000000")
        )
        rows.append((rule + ends + text).properties(width=420, height=70, title=f"Step sizes on the {scale} scale"))
    chart: alt.TopLevelMixin = alt.vconcat(*rows).resolve_scale(x="independent")
    return chart


def describe_transform(scores_a: ArrayLike, scores_b: ArrayLike, name: str) -> str:
    """One line: the mean of each system's transformed scores, the winner, and the mean mapped back.

    Examples
    --------
    >>> print(describe_transform([0.6, 0.2], [0.3, 0.4], "rank"))
    rank: mean A 2.5000, B 2.5000 -> a tie
    """
    ta, tb = transform(scores_a, scores_b, name)
    ma, mb = means.arithmetic_mean(ta), means.arithmetic_mean(tb)
    verdict = "A is higher" if ma > mb else "B is higher" if mb > ma else "a tie"
    line = f"{name}: mean A {ma:.4f}, B {mb:.4f} -> {verdict}"
    if name in BACK_TRANSFORMED:
        label, back = BACK_TRANSFORMED[name]
        line += f"; mapped back ({label}): A {back(scores_a):.4f}, B {back(scores_b):.4f}"
    return line


def transform_controls(
    scores_a: ArrayLike = SCORES_A, scores_b: ArrayLike = SCORES_B, lowest: Grid = LOWEST
) -> LiveFigure:
    """A dropdown of transformations and a slider for A's last score that redraw the chapter's figure.

    Examples
    --------
    >>> live = transform_controls([0.9, 0.01], [0.3, 0.3])
    >>> live.widgets["name"].value = "log"
    >>> live.figure.spec["description"].split(" -> ")[1].split(";")[0]
    'B is higher'
    """
    import ipywidgets as w

    a = np.asarray(scores_a, dtype=float)
    # The slider's settings, as the site's figure has them: the scale's floor is the same in both.
    grid = lowest.values

    def draw(name: str, last: float) -> VegaLiteFigure:
        chart = transform_chart(a, scores_b, grid, initial_lowest=last, initial_transform=name)
        return show(chart, alt=describe_transform(np.append(a[:-1], last), scores_b, name), controls=False)

    return LiveFigure(
        {
            "name": w.Dropdown(options=list(TRANSFORMS), description="Transformation"),
            "last": lowest.float_slider(a[-1], "A, last topic"),
        },
        draw,
    )


def doubling_alt(changes: Iterable[tuple[float, float]]) -> str:
    """Figure 3.1's alt text, for these changes (start, end) of a score."""
    table = doubling_table(changes)
    arrows = "; ".join(
        f"from {start:g} to {end:g}, a step of {end - start:.3g} on the raw score axis and of "
        f"{np.log(end) - np.log(start):.3f} on the log axis"
        for start, end in changes
    )
    same = "equal" if np.isclose(*table[table.scale == "log score"]["size"].to_numpy()[:2]) else "not equal"
    return f"Two arrows on each of two axes, one per change: {arrows}. On the log axis the steps are {same}."


def doubling_figure(changes: Iterable[tuple[float, float]] = CHANGES) -> VegaLiteFigure:
    """Figure 3.1 for these two changes (start, end) of a score: each as a step on the raw and on the log scale.

    Examples
    --------
    >>> doubling_figure([(0.1, 0.2), (0.4, 0.6)]).spec["description"].endswith("the steps are not equal.")
    True
    """
    return show(doubling_chart(changes), alt=doubling_alt(changes))


#: The chapter's example by the names its notebook gives it: checks of the text are strict on it (irmeans_book.claims).
EXAMPLE: dict[str, Any] = {"scores_a": SCORES_A, "scores_b": SCORES_B, "changes": CHANGES}


def transform_figure(scores_a: ArrayLike = SCORES_A, scores_b: ArrayLike = SCORES_B) -> VegaLiteFigure:
    """Figure 3.2 for these scores: the slider at A's own last score, among :data:`LOWEST`'s settings.

    Examples
    --------
    >>> transform_figure([0.9, 0.5, 0.33], [0.4, 0.4, 0.4]).spec["params"][0]["value"]
    0.33
    """
    a = np.asarray(scores_a, dtype=float)
    grid = np.unique(np.append(LOWEST.values, a[-1]))
    return show(
        transform_chart(a, scores_b, grid, initial_lowest=a[-1]),
        alt=(
            f"Left: the {a.size} topic scores of systems A and B after the chosen transformation. Right: bars of the "
            "mean transformed score of each system, the means as numbers, which system is higher, and for identity, "
            "log and logit the means mapped back to the score scale."
        ),
        state=transform_state(a, scores_b),
    )


def transform_state(scores_a: ArrayLike, scores_b: ArrayLike) -> Callable[..., str]:
    """Figure 3.2's words for a setting of its controls, ``state(lowest, scale)``: the means as the figure prints
    them, which system is higher, and the means mapped back.

    Examples
    --------
    >>> print(transform_state([0.6, 0.1], [0.3, 0.3])(0.2, "log").replace("; ", ";\\n"))
    With A's last topic at 0.2, on the log scale: means A -1.060, B -1.204;
    higher on average: A;
    mapped back (geometric mean): A 0.346, B 0.300.
    """
    a0, b = np.asarray(scores_a, dtype=float), np.asarray(scores_b, dtype=float)

    def state(lowest: float, scale: str) -> str:
        a = np.append(a0[:-1], lowest)
        ta, tb = transform(a, b, scale)
        ma, mb = means.arithmetic_mean(ta), means.arithmetic_mean(tb)
        winner = "A" if ma > mb else "B" if mb > ma else "a tie"
        where = "as scored" if scale == "identity" else f"on the {scale} scale"
        text = f"With A's last topic at {lowest:g}, {where}: means A {ma:.3f}, B {mb:.3f}; higher on average: {winner}"
        if scale in BACK_TRANSFORMED:
            label, back = BACK_TRANSFORMED[scale]
            text += f"; mapped back ({label}): A {back(a):.3f}, B {back(b):.3f}"
        return text + "."

    return state


def paper_table(scores_a: ArrayLike, scores_b: ArrayLike, lowest_values: ArrayLike | None = None) -> pd.DataFrame:
    """What the figure shows at each setting of its slider with **log** and **rank** chosen, for paper
    (:mod:`irmeans_book.paper`): the geometric means of A and B and which is higher, and their mean ranks.

    Examples
    --------
    >>> paper_table([0.5, 0.1], [0.3, 0.2], [0.1, 0.4]).loc[0.4, ("rank: mean rank", "A")]
    np.float64(3.5)
    """
    w = LOWEST.values if lowest_values is None else lowest_values
    _, means = transform_table(scores_a, scores_b, w)
    log = means[means["transform"] == "log"].pivot(index="lowest", columns="system", values="back").round(4)
    log["higher"] = means[means["transform"] == "log"].groupby("lowest").winner.first()
    rank = means[means["transform"] == "rank"].pivot(index="lowest", columns="system", values="mean").round(4)
    table = pd.concat({"log: geometric mean": log, "rank: mean rank": rank}, axis=1)
    table.index.name, table.columns.names = "A's lowest topic", [None, None]
    return table


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {
    "fig-ch3-doubling": doubling_figure,
    "fig-ch3-transform": transform_figure,
}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------

CH3_A, CH3_B = SCORES_A, SCORES_B


@selfcheck("sc-ch3-gm-doubled")
def ch3_gm_doubled() -> Number:
    """The geometric mean of chapter 3's system A with its last score doubled, 0.05 to 0.10."""
    doubled = np.array(CH3_A)
    doubled[-1] *= 2
    gm = irmeans.geometric_mean(doubled)
    # Doubling one score of six multiplies the geometric mean by 2 ** (1/6).
    assert np.isclose(gm, irmeans.geometric_mean(CH3_A) * 2 ** (1 / 6))
    return Number(float(gm), decimals=3)


@selfcheck("sc-ch3-logit-winner")
def ch3_logitwinner() -> Choice:
    """Which of chapter 3's systems the logit mean prefers."""
    lm = {"A": irmeans.logit_mean(CH3_A), "B": irmeans.logit_mean(CH3_B)}
    return Choice(("A", "B"), winner(lm))


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE = {
    "live": "fig-ch3-transform",
    "lines": {
        "scores_a = np.array([0.95, 0.90, 0.15, 0.12, 0.10, 0.05])": (
            "scores_a = np.array([0.55, 0.50, 0.25, 0.22, 0.20, 0.45])"
        ),
        "changes = [(0.05, 0.1), (0.25, 0.5)]": "changes = [(0.05, 0.1), (0.25, 0.75)]",
    },
    "named": {
        "The arithmetic mean of the logs prefers B",
        "Here the log reverses the verdict",  # what follows from it
        "B stays ahead on this scale over the whole slider",
        "they become steps of the same size",
        "Raw, the second is five times the first",
    },
    "figures": {"fig-ch3-transform": [0.55, 0.45], "fig-ch3-doubling": [0.75, 0.5, round(float(np.log(3)), 9)]},
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS = [
    ("10 20 30", "the example's temperatures in °C, set in the chapter's code"),
    ("301 302", "TREC topic numbers as labels, an illustration"),
    ("0.05 0.1 0.25 0.5 0.80", "the illustration of scales: gains of 0.05; the doublings the figure draws"),
    (
        "0.30 1.80",
        "0.05 is as far below 0.30 as 1.80 above it on the log scale (a factor of 6; the code checks it)",
    ),
    ("0.10 0.18 0.90 0.95", "the example's scores of A and B, set in the chapter's code"),
]
