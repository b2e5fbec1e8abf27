"""Chapter 1's figure: which average, which winner.

Two systems' per-topic scores, System A's weakest topic set by a slider, and
the chosen average of each system (:data:`AVERAGES`, the library's averages
from :mod:`irmeans.averages`). Every value the chart can show is computed
here; its controls only pick rows. For readers running the chapter in
Jupyter, :func:`averages_controls` draws the same figure again for each
setting of its ipywidgets.

Examples
--------
>>> print(describe_comparison([0.6, 0.1], [0.3, 0.3], "median"))
median: A 0.3500, B 0.3000 -> A is higher
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans.averages import AM, GM, HM, Median
from numpy.typing import ArrayLike

from irmeans_book.plots import Grid, LiveFigure, VegaLiteFigure, example, show, slider_param
from irmeans_book.selfcheck import Choice, Number, selfcheck, winner

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_table",
    "YOUR_SCORES",
    "SCORES_A",
    "SCORES_B",
    "EXAMPLE",
    "averages_alt",
    "WEAKEST",
    "AVERAGES",
    "FIGURES",
    "averages_table",
    "averages_chart",
    "averages_figure",
    "describe_comparison",
    "averages_controls",
    "averages_state",
]

#: Chapter 1's example: the per-topic scores of systems A and B on five topics (the notebook's data cell shows them).
SCORES_A = example([0.60, 0.55, 0.50, 0.45, 0.01])
SCORES_B = example([0.35, 0.30, 0.30, 0.25, 0.20])
#: The example by the names the chapter gives it: a check of the text is strict on these data (irmeans_book.claims).
EXAMPLE: dict[str, Any] = {"scores_a": SCORES_A, "scores_b": SCORES_B}
#: The slider for A's weakest (last) topic: 0.01, 0.02, ..., 0.30.
WEAKEST = Grid(0.01, 0.30, 0.01, decimals=2)

#: The averages of chapter 1's figure, by the name shown in its select.
AVERAGES = {"arithmetic mean": AM(), "geometric mean": GM(), "harmonic mean": HM(), "median": Median()}
#: The averages of the "your scores" box (irmeans_book.yourscores): the chapter's four.
YOUR_SCORES = AVERAGES


def averages_table(
    scores_a: ArrayLike, scores_b: ArrayLike, weakest_values: ArrayLike
) -> tuple[pd.DataFrame, pd.DataFrame]:
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
            frames.append(pd.DataFrame({"weakest": w, "average": label, "system": name, "value": v, "winner": winner}))
    return topics, pd.concat(frames, ignore_index=True)


def averages_chart(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    weakest_values: ArrayLike,
    initial_weakest: float | None = None,
    initial_average: str = "arithmetic mean",
) -> alt.TopLevelMixin:
    """Chapter 1's figure: per-topic scores, and the chosen average of each system.

    A select picks the average, a slider System A's weakest topic score.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> c = averages_chart([0.6, 0.1], [0.3, 0.3], [0.1, 0.2])
    >>> sorted(p["name"] for p in to_spec(c, "Scores and averages.")["params"])
    ['average', 'weakest']
    """
    topics, table = averages_table(scores_a, scores_b, weakest_values)
    w = np.asarray(weakest_values, dtype=float)
    step = float(np.round(np.median(np.diff(w)), 10)) if w.size > 1 else None  # a reader's own value may be off it
    weakest = slider_param(
        "weakest", w, w[-1] if initial_weakest is None else initial_weakest, "System A, last topic's score ", step
    )
    average = alt.param(
        name="average",
        value=initial_average,
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
            shape=alt.Shape("system:N", title="System"),  # one legend, with each system's colour and mark
            xOffset="system:N",
            tooltip=["system:N", "topic:O", alt.Tooltip("score:Q", format=".2f")],
        )
        .properties(width=220, height=220, title="Scores per topic")
    )
    chosen = alt.Chart(table).transform_filter(pick).transform_filter("datum.average == average")
    bars = chosen.mark_bar().encode(
        x=alt.X("system:N", title="System", axis=alt.Axis(labelAngle=0)),
        y=alt.Y("value:Q", title="Average over topics", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("system:N", legend=None),  # the legend is the points': colour and mark
        tooltip=["average:N", "system:N", alt.Tooltip("value:Q", format=".4f")],
    )
    labels = chosen.mark_text(dy=-8).encode(x="system:N", y="value:Q", text=alt.Text("value:Q", format=".3f"))
    verdict = (
        chosen.transform_filter("datum.system == 'A'")
        .transform_calculate(label="'Higher: system ' + datum.winner")
        .mark_text(fontSize=13, fontWeight="bold", align="center")
        .encode(text="label:N")
        .properties(width=140, height=20)
    )
    # The panel names the average the select has chosen ("The geometric mean"), on a slide as on the site.
    title = alt.Title(text=alt.ExprRef("'The ' + average"))
    right = alt.vconcat((bars + labels).properties(width=140, height=220, title=title), verdict)
    # The points' side-by-side offset is theirs alone: shared, it pushed each bar to one side of its label.
    chart: alt.TopLevelMixin = (
        alt.hconcat(left, right)
        .add_params(weakest, average)
        .resolve_scale(xOffset="independent", color="independent", shape="independent")
    )
    return chart


def averages_alt(scores_a: ArrayLike, scores_b: ArrayLike) -> str:
    """Figure 1.1's alt text, for these scores."""
    a, b = np.asarray(scores_a, dtype=float), np.asarray(scores_b, dtype=float)
    return (
        f"Left: {a.size} topic scores of system A and {b.size} of system B; A scores {a[:-1].min():.2f} to "
        f"{a[:-1].max():.2f} on topics 1 to {a.size - 1} and the slider's value on topic {a.size}, B scores "
        f"{b.min():.2f} to {b.max():.2f}. Right: bars of the chosen average for each system, with a line saying "
        "which is higher."
    )


def averages_figure(scores_a: ArrayLike = SCORES_A, scores_b: ArrayLike = SCORES_B) -> VegaLiteFigure:
    """Figure 1.1 for these scores: the slider at A's own last score, among :data:`WEAKEST`'s settings.

    Examples
    --------
    >>> fig = averages_figure([0.6, 0.5, 0.42], [0.3, 0.3, 0.3])
    >>> fig.spec["params"][0]["value"], "A's last topic at 0.42," in fig.spec["description"]
    (0.42, True)
    """
    a = np.asarray(scores_a, dtype=float)
    grid = np.unique(np.append(WEAKEST.values, a[-1]))
    chart = averages_chart(a, scores_b, grid, initial_weakest=a[-1])
    return show(chart, alt=averages_alt(a, scores_b), state=averages_state(a, scores_b))


def averages_state(scores_a: ArrayLike, scores_b: ArrayLike) -> Callable[..., str]:
    """Figure 1.1's words for a setting of its controls, ``state(weakest, average)``: the chosen average of each
    system, as the bars are labelled, and which is higher.

    Examples
    --------
    >>> averages_state([0.6, 0.1], [0.3, 0.3])(0.2, "geometric mean")
    "With A's last topic at 0.2, the geometric mean is 0.346 for A and 0.300 for B: higher, system A."
    """
    a, b = np.asarray(scores_a, dtype=float), np.asarray(scores_b, dtype=float)

    def state(weakest: float, average: str) -> str:
        mean = AVERAGES[average]
        va, vb = float(mean(np.append(a[:-1], weakest))), float(mean(b))
        verdict = "higher, system A" if va > vb else "higher, system B" if vb > va else "a tie"
        return f"With A's last topic at {weakest:g}, the {average} is {va:.3f} for A and {vb:.3f} for B: {verdict}."

    return state


def describe_comparison(scores_a: ArrayLike, scores_b: ArrayLike, average: str) -> str:
    """One line: the chosen average of two systems' per-topic scores, and which is higher.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Per-topic scores of systems A and B.
    average : str
        A key of :data:`AVERAGES`.

    Examples
    --------
    >>> print(describe_comparison([0.5, 0.5], [0.5, 0.5], "arithmetic mean"))
    arithmetic mean: A 0.5000, B 0.5000 -> a tie
    """
    mean = AVERAGES[average]
    a, b = mean(scores_a), mean(scores_b)
    verdict = "A is higher" if a > b else "B is higher" if b > a else "a tie"
    return f"{average}: A {a:.4f}, B {b:.4f} -> {verdict}"


def averages_controls(scores_a: ArrayLike = SCORES_A, scores_b: ArrayLike = SCORES_B) -> LiveFigure:
    """A slider for A's last topic score and a dropdown of averages that redraw chapter 1's figure.

    Examples
    --------
    >>> live = averages_controls([0.6, 0.1], [0.3, 0.3])
    >>> live.widgets["average"].value = "median"
    >>> live.figure.spec["description"]
    'median: A 0.3500, B 0.3000 -> A is higher'
    """
    import ipywidgets as w

    a = np.asarray(scores_a, dtype=float)

    def draw(weakest: float, average: str) -> VegaLiteFigure:
        chart = averages_chart(a, scores_b, [weakest], weakest, average)
        return show(chart, alt=describe_comparison(np.append(a[:-1], weakest), scores_b, average), controls=False)

    return LiveFigure(
        {
            "weakest": WEAKEST.float_slider(a[-1], "A, last topic"),
            "average": w.Dropdown(options=list(AVERAGES), description="Average"),
        },
        draw,
    )


def paper_table(scores_a: ArrayLike, scores_b: ArrayLike, weakest_values: ArrayLike | None = None) -> pd.DataFrame:
    """What the figure shows at each setting of its slider, for paper (:mod:`irmeans_book.paper`): every
    average of A and of B, for each score of A's last topic.

    Examples
    --------
    >>> paper_table([0.6, 0.1], [0.3, 0.3], [0.1, 0.2]).loc[0.2, ("GM", "A")]
    np.float64(0.346)
    """
    w = WEAKEST.values if weakest_values is None else weakest_values
    _, avg = averages_table(scores_a, scores_b, w)
    short = {"arithmetic mean": "AM", "geometric mean": "GM", "harmonic mean": "HM", "median": "median"}
    table = avg.assign(average=avg.average.map(short)).pivot(
        index="weakest", columns=["average", "system"], values="value"
    )
    table = table[[(short[a], s) for a in AVERAGES for s in ("A", "B")]].round(3)
    table.index.name, table.columns.names = "A's last topic", [None, None]
    return table


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {"fig-ch1-averages": averages_figure}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------

# The chapter's example data are this module's (SCORES_A and SCORES_B above): the one copy of each.

CH1_A, CH1_B = SCORES_A, SCORES_B


@selfcheck("sc-ch1-gm-b")
def ch1_gm_b() -> Number:
    """The geometric mean of chapter 1's system B."""
    return Number(float(irmeans.geometric_mean(CH1_B)), decimals=3)


@selfcheck("sc-ch1-hm-winner")
def ch1_hmwinner() -> Choice:
    """Which of chapter 1's systems the harmonic mean prefers."""
    hm = {"A": irmeans.harmonic_mean(CH1_A), "B": irmeans.harmonic_mean(CH1_B)}
    return Choice(("A", "B"), winner(hm))


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE = {
    "live": "fig-ch1-averages",
    "lines": {
        "scores_a = np.array([0.60, 0.55, 0.50, 0.45, 0.01])": "scores_a = np.array([0.50, 0.40, 0.30, 0.20, 0.60])",
        "scores_b = np.array([0.35, 0.30, 0.30, 0.25, 0.20])": "scores_b = np.array([0.30, 0.30, 0.30, 0.30, 0.30])",
    },
    "named": {"the geometric mean prefers B", "One score of", "at 0.01 the geometric and harmonic means prefer B"},
    "figures": {"fig-ch1-averages": [0.5, 0.4, 0.3, 0.2, 0.6]},
    "box": "0.5, 0.4, 0.3, 0.2, 0.6",
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS = [
    ("95", "the level of chapter 9's intervals over topics, the 95 % of irmeans.tau_intervals"),
    ("0.02 0.60 0.61", "the illustration of ratios: 0.01 → 0.02 doubles a factor, 0.60 → 0.61 barely moves one"),
    ("0.20 0.25 0.30 0.35 0.45", "the example's scores of A and B and the slider's top, set in the chapter's code"),
    ("5 100", "the self-check's hint, arithmetic on those scores: 1/0.01 = 100, and B's 1/0.20 = 5"),
    (
        "0.05 0.1 0.3 0.5",
        "Robertson's illustration of GMAP's and MAP's scales (§4, cited): 0.05 → 0.1, 0.25 → 0.5, 0.25 → 0.3",
    ),
]
