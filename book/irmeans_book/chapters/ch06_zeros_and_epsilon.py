"""Chapter 6's figures and worked examples: zero scores and the ε of the geometric mean.

The two forms of the ε-geometric mean are :func:`irmeans.means.geometric_mean`
with ``form="add"`` (exp(mean(log(x + ε))) − ε) and ``form="floor"``
(exp(mean(log(max(x, ε)))), trec_eval's ``gm_map``). The chart's table holds
both, and the arithmetic mean, for every ε its slider offers.

Examples
--------
>>> t = epsilon_table({"S2": S2}, [-5.0, -2.0])
>>> t[(t.log10_eps == -2) & t.form.str.startswith("floor")].value.round(3).item()
0.157
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans import means
from irmeans import measures as ranked
from irmeans.averages import AM, GM
from numpy.typing import ArrayLike

from irmeans_book import robertson
from irmeans_book.chapters.ch04_averaging import TABLE1_SCORES
from irmeans_book.plots import OKABE_ITO, Grid, LiveFigure, VegaLiteFigure, show, slider_param
from irmeans_book.selfcheck import Choice, Number, selfcheck

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_table",
    "EXAMPLE",
    "epsilon_alt",
    "YOUR_SCORES",
    "FIGURES",
    "epsilon_figure",
    "S2",
    "EXPONENT",
    "EXPONENTS",
    "START",
    "FORMS",
    "data_sets",
    "epsilon_table",
    "zero_rules",
    "unretrieved_ap",
    "epsilon_chart",
    "describe_epsilon",
    "epsilon_controls",
    "epsilon_state",
]

#: System S2 of Ravana & Moffat (2009), Table 1: five topics, one of them scored 0.
S2 = TABLE1_SCORES["S2"]

#: The averages of the "your scores" box (irmeans_book.yourscores): the chapter's forms of the geometric mean.
YOUR_SCORES = {
    "arithmetic mean": AM(),
    "GM, no ε": GM(),
    "additive, ε = 10⁻⁵": GM(eps=1e-5),
    "trec_eval's floor, ε = 10⁻⁵": GM(eps=1e-5, form="floor"),
    "Robust track, zeros to 10⁻⁵": GM(eps=1e-5, form="zeros"),
    "additive, ε = 0.01": GM(eps=0.01),
    "floor, ε = 0.01": GM(eps=0.01, form="floor"),
}

#: The slider's settings of log10 ε: −8 to 0 in steps of 0.1.
EXPONENT = Grid(-8.0, 0.0, 0.1, decimals=1)
EXPONENTS = EXPONENT.values
#: Where the chapter's figure and controls start: log10 ε = −5, Robertson's ε = 10⁻⁵.
START = -5.0

#: The lines of the chart, in legend order, and their colours and dashes: no two told apart by colour alone.
FORMS = {
    "additive: exp(mean log(x+ε)) − ε": (OKABE_ITO[4], [1, 0]),
    "floor: exp(mean log max(x, ε))": (OKABE_ITO[5], [10, 3, 2, 3]),
    "arithmetic mean": ("#000000", [6, 3]),
    "ε itself": ("#999999", [2, 3]),
}


def data_sets(s2: ArrayLike = S2, boost: ArrayLike | None = None) -> dict[str, np.ndarray]:
    """The chart's data sets by the name in its select: S2, and chapter 5's example (by default the book's).

    Examples
    --------
    >>> {k: len(v) for k, v in data_sets().items()}
    {'S2 (Ravana & Moffat)': 5, 'Boost example (chapter 5)': 50}
    """
    return {
        "S2 (Ravana & Moffat)": np.asarray(s2, dtype=float),
        "Boost example (chapter 5)": robertson.load_example() if boost is None else np.asarray(boost, dtype=float),
    }


def epsilon_table(data: Mapping[str, ArrayLike], exponents: ArrayLike = EXPONENTS) -> pd.DataFrame:
    """Both forms of the ε-geometric mean, the arithmetic mean and ε, for each ε.

    Parameters
    ----------
    data : dict of str to array_like
        Per-topic scores by data-set name.
    exponents : array_like
        The settings of log10 ε.

    Returns
    -------
    DataFrame
        Columns ``data_set, log10_eps, eps, form, value``; ``form`` is a key
        of :data:`FORMS`.
    """
    e = np.asarray(exponents, dtype=float)
    eps = 10.0**e
    add, floor, am, itself = FORMS
    frames = []
    for name, x in data.items():
        stack = np.tile(np.asarray(x, dtype=float), (e.size, 1))
        values = {
            add: [means.geometric_mean(x, eps=v, form="add") for v in eps],
            floor: [means.geometric_mean(x, eps=v, form="floor") for v in eps],
            am: means.arithmetic_mean(stack, axis=1),
            itself: eps,
        }
        for form, v in values.items():
            frames.append(pd.DataFrame({"data_set": name, "log10_eps": e, "eps": eps, "form": form, "value": v}))
    return pd.concat(frames, ignore_index=True)


def zero_rules(x: ArrayLike, eps: float = 1e-5) -> dict[str, float | np.ndarray]:
    """The geometric mean of ``x`` under each way of handling low scores.

    Returns
    -------
    dict of str to float
        ``"no ε"`` (the plain geometric mean), ``"additive"``, ``"floor"``
        (trec_eval) and ``"Robust track"`` (zeros only set to ε).

    Examples
    --------
    >>> {k: round(v, 4) for k, v in zero_rules(S2).items()}
    {'no ε': 0.0, 'additive': 0.0395, 'floor': 0.0395, 'Robust track': 0.0395}
    """
    return {
        "no ε": means.geometric_mean(x),
        "additive": means.geometric_mean(x, eps=eps, form="add"),
        "floor": means.geometric_mean(x, eps=eps, form="floor"),
        "Robust track": means.geometric_mean(x, eps=eps, form="zeros"),
    }


def unretrieved_ap(
    relevant_ranks: Iterable[int], num_relevant: int, collection_size: int, depth: int = 1000
) -> dict[str, float | np.ndarray]:
    """AP of a truncated ranking, and Robertson's two values for the relevant documents it missed.

    Parameters
    ----------
    relevant_ranks : iterable of int
        Ranks (1-based, at most ``depth``) of the relevant documents retrieved.
    num_relevant : int
        R, the topic's relevant documents.
    collection_size : int
        N, the documents in the collection.
    depth : int
        Length of the ranking (TREC: 1000).

    Returns
    -------
    dict of str to float
        ``"truncated"`` (unretrieved relevant documents count 0, as trec_eval),
        ``"at the end"`` (:func:`irmeans.measures.ap_unretrieved_at_end`) and
        ``"random order"`` (:func:`irmeans.measures.expected_ap_random_order`).

    Examples
    --------
    >>> v = unretrieved_ap([], num_relevant=1, collection_size=1000, depth=10)
    >>> v["truncated"], round(v["at the end"], 6)
    (0.0, 0.001)
    """
    rels = np.zeros(depth)
    rels[np.asarray(list(relevant_ranks), dtype=int) - 1] = 1
    return {
        "truncated": ranked.average_precision(rels, num_relevant),
        "at the end": ranked.ap_unretrieved_at_end(rels, num_relevant, collection_size),
        "random order": ranked.expected_ap_random_order(rels, num_relevant, collection_size),
    }


def epsilon_chart(
    data: Mapping[str, ArrayLike] | None = None,
    exponents: ArrayLike = EXPONENTS,
    initial_log10: float = START,
    initial_data: str | None = None,
) -> alt.TopLevelMixin:
    """Chapter 6's interactive figure: both ε-forms and the arithmetic mean against log10 ε.

    A slider sets log10 ε, a select the data set; a rule marks the current ε
    and a line of text gives the values there.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(epsilon_chart({"S2": S2}, [-5.0, -2.0]), "ε.")
    >>> sorted(p["name"] for p in spec["params"])
    ['data_set', 'log10_eps']
    """
    data = data_sets() if data is None else data
    names = list(data)
    table = epsilon_table(data, exponents)
    e = np.asarray(exponents, dtype=float)
    log10_eps = slider_param("log10_eps", e, initial_log10, "log10 ε ")
    data_set = alt.param(
        name="data_set",
        value=names[0] if initial_data is None else initial_data,
        bind=alt.binding_select(options=names, name="Data set "),
    )
    this_set = "datum.data_set == data_set"
    now = f"{this_set} && abs(datum.log10_eps - log10_eps) < 1e-9"
    forms = list(FORMS)
    # A line each, never cut: the labels are the formulas the figure compares (a phone's column fits one).
    legend = alt.Legend(orient="bottom", columns=1, labelLimit=0, symbolType="stroke", symbolStrokeWidth=3)
    base = (
        alt.Chart(table)
        .transform_filter(this_set)
        .encode(
            x=alt.X(
                "log10_eps:Q",
                title="ε (log scale)",
                axis=alt.Axis(values=list(range(int(e.min()), int(e.max()) + 1)), labelExpr="'1e' + datum.value"),
            ),
            y=alt.Y("value:Q", title="Average over topics", scale=alt.Scale(domain=[0, 1])),
            color=alt.Color(
                "form:N",
                title=None,
                sort=forms,
                scale=alt.Scale(domain=forms, range=[c for c, _ in FORMS.values()]),
                legend=legend,
            ),
            # The same legend for both channels of one field: Vega-Lite draws one legend, coloured and dashed.
            strokeDash=alt.StrokeDash(
                "form:N",
                title=None,
                sort=forms,
                legend=legend,
                scale=alt.Scale(domain=forms, range=[d for _, d in FORMS.values()]),
            ),
        )
    )
    lines = base.mark_line(strokeWidth=2.5, clip=True).encode(
        tooltip=["form:N", alt.Tooltip("eps:Q", title="ε", format=".1e"), alt.Tooltip("value:Q", format=".4f")]
    )
    points = (
        base.transform_filter(now)
        .transform_filter("datum.form != 'ε itself'")
        .mark_point(size=90, filled=True)
        .encode(tooltip=["form:N", alt.Tooltip("eps:Q", title="ε", format=".1e"), alt.Tooltip("value:Q", format=".4f")])
    )
    rule = (
        alt.Chart(table)
        .transform_filter(now)
        .transform_aggregate(x="min(log10_eps)")
        .mark_rule(color="#555555")
        .encode(x="x:Q")
    )
    chart = alt.layer(lines, rule, points).properties(width=520, height=300)

    add, floor, am, _ = forms
    readout = (
        alt.Chart(table)
        .transform_filter(now)
        .transform_pivot("form", value="value", groupby=["log10_eps", "eps"])
        .transform_calculate(
            text=(
                f"'ε = ' + format(datum.eps, '.1e') + ':  additive ' + format(datum['{add}'], '.4f') + "
                f"',  floor ' + format(datum['{floor}'], '.4f') + ',  arithmetic ' + format(datum['{am}'], '.4f')"
            )
        )
        .mark_text(align="left", fontSize=13, fontWeight="bold")
        .encode(text="text:N", x=alt.value(0))
        .properties(width=520, height=18, view=alt.ViewConfig(stroke=None))
    )
    return alt.vconcat(readout, chart).add_params(log10_eps, data_set)


def describe_epsilon(x: ArrayLike, log10_eps: float) -> str:
    """One line: both forms of the ε-geometric mean and the arithmetic mean of ``x``.

    Examples
    --------
    >>> print(describe_epsilon(S2, -2))
    ε = 1.0e-02: additive 0.1514, floor 0.1572, arithmetic 0.2600
    """
    eps = 10.0**log10_eps
    return (
        f"ε = {eps:.1e}: additive {means.geometric_mean(x, eps=eps, form='add'):.4f}, "
        f"floor {means.geometric_mean(x, eps=eps, form='floor'):.4f}, "
        f"arithmetic {means.arithmetic_mean(x):.4f}"
    )


def epsilon_controls(s2: ArrayLike = S2, boost: ArrayLike | None = None) -> LiveFigure:
    """A log10 ε slider and a data-set dropdown that redraw chapter 6's figure, for these data sets (those of
    :func:`data_sets`: S2 and chapter 5's example, by default the book's).

    Examples
    --------
    >>> live = epsilon_controls()
    >>> live.widgets["log10_eps"].value = -2.0
    >>> live.figure.spec["description"]
    'ε = 1.0e-02: additive 0.1514, floor 0.1572, arithmetic 0.2600'
    >>> epsilon_controls([0.5, 0.5]).figure.spec["description"].endswith("arithmetic 0.5000")
    True
    """
    import ipywidgets as w

    sets = data_sets(s2, boost)

    def draw(log10_eps: float, data_set: str) -> VegaLiteFigure:
        log10_eps = float(np.round(log10_eps, 1))
        chart = epsilon_chart(sets, initial_log10=log10_eps, initial_data=data_set)
        return show(chart, alt=describe_epsilon(sets[data_set], log10_eps), controls=False)

    return LiveFigure(
        {
            "log10_eps": EXPONENT.float_slider(START, "log10 ε"),
            "data_set": w.Dropdown(options=list(sets), description="Data set"),
        },
        draw,
    )


#: The chapter's example by the names its notebook gives it: checks of the text are strict on it (irmeans_book.claims).
EXAMPLE: dict[str, Any] = {
    "R": 10,
    "N": 500_000,
    "topics": {"A (ranks 5 and 200)": [5, 200], "B (none retrieved)": []},
    "s2": S2,
    "ap": robertson.load_example(),
}


def epsilon_alt(data: Mapping[str, ArrayLike]) -> str:
    """Figure 6.1's alt text, for these data sets."""
    starts = ", ".join(f"{means.geometric_mean(x, eps=10.0 ** EXPONENTS[0]):.2f} ({name})" for name, x in data.items())
    return (
        "Line chart of the average over topics against epsilon from 1e-8 to 1 on a log axis, for the chosen data "
        f"set. The additive and floor geometric means start from {starts} at the smallest epsilon; as epsilon "
        "grows the additive form levels off below the dashed arithmetic mean, while the floor form joins the dotted "
        "line of epsilon itself, reaching 1 at epsilon = 1. A vertical rule marks the slider's epsilon and a line of "
        "text gives the three values there."
    )


def epsilon_figure(s2: ArrayLike = S2, boost: ArrayLike | None = None) -> VegaLiteFigure:
    """Figure 6.1 for these data sets (S2 and chapter 5's example; by default the book's), ε = 10 ** :data:`START`.

    Examples
    --------
    >>> "0.10 (S2" in epsilon_figure([0.1, 0.1, 0.1]).spec["description"]
    True
    """
    data = data_sets(s2, boost)
    return show(epsilon_chart(data, initial_log10=START), alt=epsilon_alt(data), state=epsilon_state(data))


def epsilon_state(data: Mapping[str, ArrayLike]) -> Callable[..., str]:
    """Figure 6.1's words for a setting of its controls, ``state(log10_eps, data_set)``: the three values its
    read-out prints at that ε.

    Examples
    --------
    >>> epsilon_state({"S2": S2})(-2.0, "S2")
    'For S2, at ε = 1.0e-02: additive 0.1514, floor 0.1572, arithmetic 0.2600.'
    """

    def state(log10_eps: float, data_set: str) -> str:
        return f"For {data_set}, at {describe_epsilon(data[data_set], log10_eps)}."

    return state


def paper_table(s2: ArrayLike = S2, step: float = 0.5) -> pd.DataFrame:
    """What the figure shows for S2 at every ``step`` of its slider, for paper (:mod:`irmeans_book.paper`):
    the additive and the floor geometric means and the arithmetic mean, by log10 ε.

    Examples
    --------
    >>> t = paper_table(step=4.0)
    >>> t.index.tolist(), t.columns.tolist()
    ([-8.0, -4.0, 0.0], ['additive', 'floor', 'arithmetic mean'])
    """
    data = data_sets(s2)
    name = next(iter(data))
    exponents = [x for x in EXPONENTS if abs(x / step - round(x / step)) < 1e-9]
    t = epsilon_table({name: data[name]}, exponents)
    table = t.pivot(index="log10_eps", columns="form", values="value")
    table = table.rename(columns=lambda f: f.split(":")[0])[["additive", "floor", "arithmetic mean"]].round(4)
    table.index.name, table.columns.name = f"log10 ε, {name}", None
    return table


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {"fig-ch6-epsilon": epsilon_figure}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------


@selfcheck("sc-ch6-s2-floor")
def ch6_s2_floor() -> Number:
    """trec_eval's floor form of the geometric mean of S2 with ε = 0.1."""
    return Number(float(irmeans.geometric_mean(S2, eps=0.1, form="floor")), decimals=3)


CH6_RULES = {"the Robust track's rule": "Robust track", "trec_eval's floor": "floor", "the additive ε": "additive"}


@selfcheck("sc-ch6-late-below-none")
def ch6_late_below_none() -> Choice:
    """The one rule under which one relevant document at rank 900 of R = 200 scores below finding none."""
    late = float(irmeans.average_precision(np.eye(1, 1000, 899)[0], num_relevant=200))
    found, none = zero_rules([late]), zero_rules([0.0])
    below = [option for option, key in CH6_RULES.items() if found[key] < none[key]]
    assert len(below) == 1, below
    return Choice(tuple(CH6_RULES), below[0])


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE = {
    "live": "fig-ch6-epsilon",
    "lines": {
        "R, N = 10, 500_000": "R, N = 10, 5_000",
        "s2 = np.array([0.0, 0.4, 0.2, 0.4, 0.3])": "s2 = np.array([0.05, 0.4, 0.2, 0.4, 0.6])",
    },
    "named": {
        "Small, but not zero",
        "With trec_eval's ε = 10⁻⁵ S2's geometric mean is",
        'once ε passes every score the "mean" is ε itself',
    },
    "figures": {"fig-ch6-epsilon": [0.33]},
    "box": "0.05, 0.4, 0.2, 0.4, 0.6",
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS = [
    ("0.2 0.3 0.4", "S2's scores in Ravana and Moffat's Table 1 (cited)"),
    ("5 200 900 1000", "the examples' ranks, 5 and 200 in a top 1000 (TREC's cutoff), and 900"),
    ("10⁻⁶ 10⁻⁴ 10 50", "Robertson's three ε for his 50 values (§4.1, cited), a factor of 10 apart"),
    ("0.00001", "the value the Robust track set a zero AP to at TREC 2005 (Robertson §4.1, cited)"),
    ("10⁻⁸ 10⁶ 0.1", "the figure's range of ε from 10⁻⁸ (book code), the text's large ε, the self-check's ε"),
]
