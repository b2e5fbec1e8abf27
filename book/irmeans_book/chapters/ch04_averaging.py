"""Chapter 4's figures: six averages of five topic scores, and what ε does.

The six averages are those of Ravana & Moffat (2009), Table 1: arithmetic
(AM), geometric (GM), ε-geometric (εGM), harmonic (HM), ε-harmonic (εHM) and
median (MD). All come from :mod:`irmeans.means`; an undefined value (the
harmonic mean of scores with a zero) is NaN here.

Examples
--------
>>> row = all_means(TABLE1_SCORES["S2"], eps=0.01)
>>> {k: round(v, 3) for k, v in row.items()}
{'AM': 0.26, 'GM': 0.0, 'εGM': 0.151, 'HM': nan, 'εHM': 0.034, 'MD': 0.3}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans import means
from irmeans.averages import AM, GM, HM, Median
from numpy.typing import ArrayLike

from irmeans_book.plots import (
    OKABE_ITO,
    STATE,
    Grid,
    LiveFigure,
    VegaLiteFigure,
    csv_data,
    power_of_ten,
    show,
    slider_param,
)
from irmeans_book.selfcheck import Choice, Number, selfcheck, winner

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_tables",
    "EXAMPLE",
    "eps_alt",
    "YOUR_SCORES",
    "FIGURES",
    "eps_figure",
    "means_figure",
    "TABLE1_SCORES",
    "EPS_K",
    "EPS",
    "START",
    "FIRST",
    "EPS_EXPONENT",
    "AVERAGE_NAMES",
    "all_means",
    "means_table",
    "means_chart",
    "eps_table",
    "eps_chart",
    "describe_means",
    "means_controls",
    "means_state",
]

#: The five topic scores of the four systems of Ravana & Moffat (2009), Table 1.
TABLE1_SCORES = {
    "S1": (0.1, 0.1, 0.3, 0.8, 0.1),
    "S2": (0.0, 0.4, 0.2, 0.4, 0.3),
    "S3": (0.1, 0.5, 0.3, 0.2, 0.2),
    "S4": (0.2, 0.2, 0.3, 0.2, 0.2),
}

#: The chapter's ε in εGM and εHM (the table's, and where the figure's ε slider starts): 10 ** -2.
EPS_K = -2
EPS = 10.0**EPS_K
#: The system the chapter's figure and controls start from.
START = "S2"
#: The slider of a topic's score: 0, 0.05, ..., 1.
FIRST = Grid(0.0, 1.0, 0.05, decimals=2)
#: The slider of k in ε = 10 ** k: −4, −3.75, ..., 1.
EPS_EXPONENT = Grid(-4.0, 1.0, 0.25, decimals=2)

#: The palette without its yellow, which is hard to see on white as a thin line or a label.
_COLOURS = [c for c in OKABE_ITO if c != "#F0E442"]
#: The systems' colours in the first figure: no two alike on a light page (sky blue and blue, both drawn a
#: shade darker there, were S2 and S4).
_SYSTEM_COLOURS = [OKABE_ITO[i] for i in (0, 4, 2, 6, 5, 1, 7)]
#: And their marks, one each (a line's colour alone told them apart).
_SYSTEM_SHAPES = ["circle", "square", "triangle-up", "diamond", "triangle-down", "cross", "triangle-right"]

#: The averages, in the order of Table 1's columns.
AVERAGE_NAMES = ("AM", "GM", "εGM", "HM", "εHM", "MD")
#: The averages of the "your scores" box (irmeans_book.yourscores): the chapter's six, ε = EPS.
YOUR_SCORES = {
    "AM": AM(),
    "GM": GM(),
    "εGM, ε = 0.01": GM(eps=EPS),
    "HM": HM(),
    "εHM, ε = 0.01": HM(eps=EPS),
    "MD (median)": Median(),
}


def _harmonic_or_nan(x: ArrayLike) -> np.ndarray:
    """Harmonic mean of each row (last axis); NaN where a row has a zero."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    out = np.full(x.shape[0], np.nan)
    ok = (x > 0).all(axis=1)
    if ok.any():
        out[ok] = means.harmonic_mean(x[ok], axis=1)
    return out


def all_means(scores: ArrayLike, eps: float) -> dict[str, float]:
    """The six averages of one set of scores; ε for the εGM and εHM columns.

    Returns
    -------
    dict
        Keyed by :data:`AVERAGE_NAMES`; HM is NaN when a score is 0.
    """
    rows = _stack_means(np.asarray(scores, dtype=float)[None, :], eps)
    return {name: float(v[0]) for name, v in rows.items()}


def _stack_means(stack: np.ndarray, eps: float) -> dict[str, Any]:
    """The six averages of each row of ``stack``."""
    return {
        "AM": means.arithmetic_mean(stack, axis=1),
        "GM": means.geometric_mean(stack, axis=1),
        "εGM": means.geometric_mean(stack, eps=eps, axis=1),
        "HM": _harmonic_or_nan(stack),
        "εHM": means.harmonic_mean(stack, eps=eps, axis=1),
        "MD": means.median(stack, axis=1),
    }


def means_table(
    systems: Mapping[str, Sequence[float]] = TABLE1_SCORES,
    first_values: ArrayLike | None = None,
    eps_exponents: ArrayLike | None = None,
    decimals: int = 4,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every value of the chapter's interactive figure.

    The figure starts from one of ``systems``, sets its first topic's score to
    one of ``first_values``, and uses ε = 10**k for k in ``eps_exponents``.

    Returns
    -------
    topics : DataFrame
        ``s, x, topic, score``: system number (1-based, in the order of
        ``systems``), the first topic's score, and the five scores.
    values : DataFrame
        ``s, x, k, m, v``: average number ``m`` (index into
        :data:`AVERAGE_NAMES`) has value ``v`` (NaN if undefined) with ε = 10**k.

    Examples
    --------
    >>> _, v = means_table(first_values=[0.0, 0.1], eps_exponents=[-2])
    >>> v.query("s == 2 and x == 0 and m == 2").v.item()  # S2 as printed: εGM with ε = 0.01
    0.1514
    """
    xs = FIRST.values if first_values is None else np.asarray(first_values, float)
    ks = EPS_EXPONENT.values if eps_exponents is None else np.asarray(eps_exponents, float)
    topics, values = [], []
    for s, scores in enumerate(systems.values(), start=1):
        stack = np.tile(np.asarray(scores, dtype=float), (xs.size, 1))
        stack[:, 0] = xs
        t = stack.shape[1]
        topics.append(
            pd.DataFrame(
                {"s": s, "x": np.repeat(xs, t), "topic": np.tile(np.arange(1, t + 1), xs.size), "score": stack.ravel()}
            )
        )
        for k in ks:
            for m, v in enumerate(_stack_means(stack, 10.0**k).values()):
                values.append(pd.DataFrame({"s": s, "x": xs, "k": k, "m": m, "v": np.round(v, decimals)}))
    return pd.concat(topics, ignore_index=True), pd.concat(values, ignore_index=True)


def means_chart(
    systems: Mapping[str, Sequence[float]] = TABLE1_SCORES,
    first_values: ArrayLike | None = None,
    eps_exponents: ArrayLike | None = None,
    initial: tuple[str, float, float] = (START, 0.0, EPS_K),
) -> alt.TopLevelMixin:
    """The chapter's interactive figure: five topic scores and their six averages.

    A select picks the starting system, a slider its first topic's score, and
    a slider the exponent k of ε = 10**k.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> c = means_chart(first_values=[0.0, 0.5], eps_exponents=[-2, -1])
    >>> sorted(p["name"] for p in to_spec(c, "Six averages.")["params"])
    ['first', 'irmeans_state_setting', 'k', 'system']
    """
    # Rounded once, to the three decimals printed: a value rounded to 4 and then printed with 3 can be off by one.
    topics, values = means_table(systems, first_values, eps_exponents, decimals=3)
    xs, ks = np.unique(topics.x), np.unique(values.k)
    names = list(systems)
    system = alt.param(
        name="system",
        value=names.index(initial[0]) + 1,
        bind=alt.binding_select(options=list(range(1, len(names) + 1)), labels=names, name="Start from system "),
    )
    # In the grids' steps: a reader's own first score or ε, added to the grids, is where the sliders start.
    first = slider_param("first", xs, initial[1], "Topic 1's score ", FIRST.step)
    k = slider_param("k", ks, initial[2], "ε = 10 to the power ", EPS_EXPONENT.step)
    pick = "datum.s == system && abs(datum.x - first) < 1e-9"

    picked = (
        alt.Chart(csv_data(topics))
        .transform_filter(pick)
        .transform_calculate(which="datum.topic == 1 ? 'set by the slider' : 'fixed'")
        .encode(
            x=alt.X(
                "topic:O",
                title="Topic",
                axis=alt.Axis(labelAngle=0, labelExpr="datum.value == 1 ? ['1,', 'slider'] : datum.label"),
            ),
            y=alt.Y("score:Q", title="Score", scale=alt.Scale(domain=[0, 1])),
            # The slider's topic is named under its bar ("1, slider"), not by its colour alone.
            color=alt.Color(
                "which:N",
                legend=None,
                scale=alt.Scale(domain=["set by the slider", "fixed"], range=[OKABE_ITO[5], OKABE_ITO[4]]),
            ),
            tooltip=["topic:O", alt.Tooltip("score:Q", format=".2f")],
        )
    )
    bars = picked.mark_bar()
    # Each value in the page's text colour (black here): in its bar's colour it read at 3.5:1.
    score_labels = picked.mark_text(dy=-8, color="#000000").encode(
        text=alt.Text("score:Q", format=".2f"), color=alt.value("#000000")
    )
    scores = (bars + score_labels).properties(width=200, height=200, title="The five topic scores")
    labels = pd.DataFrame({"m": range(len(AVERAGE_NAMES)), "average": AVERAGE_NAMES})
    chosen = (
        alt.Chart(csv_data(values))
        .transform_filter(f"{pick} && abs(datum.k - k) < 1e-9")
        .transform_lookup(lookup="m", from_=alt.LookupData(labels, "m", ["average"]))
        .transform_calculate(shown="isValid(datum.v) ? format(datum.v, '.3f') : 'undefined'")
    )
    y = alt.Y("average:N", sort=list(AVERAGE_NAMES), title=None)
    bars = chosen.mark_bar().encode(
        y=y,
        x=alt.X("v:Q", title="Average over the five topics", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("average:N", legend=None, scale=alt.Scale(domain=list(AVERAGE_NAMES), range=_COLOURS)),
        tooltip=["average:N", alt.Tooltip("shown:N", title="value")],
    )
    # Each average's value, as labelled, says what the figure shows at the reader's setting (plots.STATE).
    text = (
        chosen.mark_text(align="left", dx=4)
        .encode(y=y, x=alt.X("v0:Q"), text="shown:N", description="said:N")
        .transform_calculate(v0="isValid(datum.v) ? datum.v : 0", said="datum.average + ' ' + datum.shown")
        .properties(name=f"{STATE}_averages")
    )
    eps_line = (
        alt.Chart(pd.DataFrame({"k": ks, "eps": 10.0**ks}))
        .transform_filter("abs(datum.k - k) < 1e-9")
        .transform_calculate(label="'ε = ' + format(datum.eps, '.4~g') + ' (in εGM and εHM)'")
        .mark_text(fontSize=13)
        .encode(text="label:N")
        .properties(width=240, height=16)
    )
    right = alt.vconcat((bars + text).properties(width=240, height=200, title="Six averages"), eps_line, spacing=4)
    setting = alt.param(
        name=f"{STATE}_setting",
        expr=f"'Start from system ' + {names}[system - 1] + ', topic 1 at ' + format(first, '.2f') + ', ε = ' "
        "+ format(pow(10, k), '.4~g')",
    )
    chart: alt.TopLevelMixin = (
        alt.hconcat(scores, right).add_params(setting, system, first, k).resolve_scale(color="independent")
    )
    return chart


def eps_table(
    systems: Mapping[str, Sequence[float]] = TABLE1_SCORES, eps_values: ArrayLike | None = None
) -> pd.DataFrame:
    """εGM and εHM of each system over a range of ε, with the system's arithmetic mean.

    Returns
    -------
    DataFrame
        ``system, eps, average, value, am``.

    Examples
    --------
    >>> t = eps_table(eps_values=[0.01])
    >>> round(t.query("system == 'S1' and average == 'εGM'").value.item(), 3)
    0.192
    """
    eps = np.logspace(-5, 2, 57) if eps_values is None else np.asarray(eps_values, float)
    frames = []
    for name, scores in systems.items():
        x = np.asarray(scores, dtype=float)
        am = means.arithmetic_mean(x)
        for label, f in (("εGM", means.geometric_mean), ("εHM", means.harmonic_mean)):
            v = np.array([f(x, eps=e) for e in eps])
            frames.append(pd.DataFrame({"system": name, "eps": eps, "average": label, "value": v, "am": am}))
    return pd.concat(frames, ignore_index=True)


def eps_chart(
    systems: Mapping[str, Sequence[float]] = TABLE1_SCORES, eps_values: ArrayLike | None = None
) -> alt.TopLevelMixin:
    """εGM and εHM against ε (log scale), one line per system, its AM dashed.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> list(to_spec(eps_chart(eps_values=[0.01, 1]), "ε.")["facet"])
    ['column']
    """
    table = eps_table(systems, eps_values)
    names = list(systems)
    colour = alt.Color("system:N", title="System", scale=alt.Scale(domain=names, range=_SYSTEM_COLOURS))
    # Each system's line has a mark of its own at every power of 10, in the legend too: the lines are told apart
    # by more than their colour.
    shape = alt.Shape("system:N", title="System", scale=alt.Scale(domain=names, range=_SYSTEM_SHAPES))
    base = alt.Chart().encode(color=colour)
    lo, hi = int(np.floor(np.log10(table.eps.min()))), int(np.ceil(np.log10(table.eps.max())))
    # Every power of 10 labelled, as short as it can be (the labels 0.00001 to 100 collided, and only the ends
    # were left).
    powers = list(range(lo, hi + 1))
    labels = [power_of_ten(d) for d in powers]
    x = alt.X(
        "eps:Q",
        title="ε",
        scale=alt.Scale(type="log"),
        axis=alt.Axis(values=[10.0**d for d in powers], labelExpr=f"{labels}[round(log(datum.value) / LN10) - ({lo})]"),
    )
    y = alt.Y("value:Q", title="Average over the five topics")
    tooltip = ["system:N", alt.Tooltip("eps:Q", format=".2g", title="ε"), alt.Tooltip("value:Q", format=".3f")]
    lines = base.mark_line().encode(x=x, y=y, tooltip=tooltip)
    marks = (
        base.transform_filter("abs(log(datum.eps) / LN10 - round(log(datum.eps) / LN10)) < 1e-6")
        .mark_point(filled=True, size=45)
        .encode(x=x, y=y, shape=shape, tooltip=tooltip)
    )
    am = base.mark_rule(strokeDash=[4, 3]).encode(y="mean(am):Q")
    return (
        alt.layer(lines, marks, am, data=table)
        .properties(width=260, height=220)
        .facet(column=alt.Column("average:N", title=None, sort=["εGM", "εHM"]))
    )


def describe_means(scores: ArrayLike, eps: float) -> str:
    """The six averages of ``scores`` as lines of text (εGM and εHM with ``eps``).

    Examples
    --------
    >>> print(describe_means([0.0, 0.4, 0.2, 0.4, 0.3], 0.01))
    AM    0.2600
    GM    0.0000
    εGM   0.1514
    HM    undefined (a score is 0)
    εHM   0.0343
    MD    0.3000
    """
    lines = []
    for name, v in all_means(scores, eps).items():
        shown = "undefined (a score is 0)" if np.isnan(v) else f"{v:.4f}"
        lines.append(f"{name:<5} {shown}")
    return "\n".join(lines)


def means_controls(scores: Sequence[float] = TABLE1_SCORES[START], eps: float = EPS) -> LiveFigure:
    """A slider per topic score and one for ε that redraw the chapter's figure for those scores.

    The sliders are the site's figure's: a score in :data:`FIRST`'s steps, ε = 10 ** k for k in
    :data:`EPS_EXPONENT`.

    Examples
    --------
    >>> live = means_controls([0.0, 0.4, 0.2, 0.4, 0.3], eps=0.01)
    >>> live.widgets["t1"].value = 0.1
    >>> print(live.figure.spec["description"].splitlines()[3])
    HM    0.2143
    """
    sliders = {f"t{i}": FIRST.float_slider(v, f"Topic {i}") for i, v in enumerate(scores, start=1)}

    def draw(eps: float, **topic: float) -> VegaLiteFigure:
        x = [float(np.round(v, 2)) for v in topic.values()]
        k = float(np.round(np.log10(eps), 2))
        eps = 10.0**k
        chart = means_chart(
            {"these scores": x}, first_values=[x[0]], eps_exponents=[k], initial=("these scores", x[0], k)
        )
        return show(chart, alt=describe_means(x, eps), controls=False)

    return LiveFigure({"eps": EPS_EXPONENT.float_log_slider(eps, "ε"), **sliders}, draw)


#: The chapter's example by the names its notebook gives it: checks of the text are strict on it (irmeans_book.claims).
EXAMPLE: dict[str, Any] = {"systems": TABLE1_SCORES, "EPS": EPS}


def eps_alt(systems: Mapping[str, Sequence[float]] = TABLE1_SCORES) -> str:
    """Figure 4.1's alt text, for these systems."""
    zeros = [name for name, x in systems.items() if np.min(x) == 0]
    start = (
        f"; the lines of {', '.join(zeros)}, which {'score' if len(zeros) > 1 else 'scores'} 0 on a topic, start near 0"
        if zeros
        else ""
    )
    return (
        f"Two panels, εGM and εHM, against ε on a log axis from 0.00001 to 100, one line per system "
        f"({', '.join(systems)}), with each system's arithmetic mean as a dashed line. Every line rises towards its "
        f"dashed line as ε grows{start}."
    )


def eps_figure(systems: Mapping[str, Sequence[float]] = TABLE1_SCORES) -> VegaLiteFigure:
    """Figure 4.1 for these systems (by name, each its per-topic scores).

    Examples
    --------
    >>> eps_figure({"A": [0.0, 0.5], "B": [0.2, 0.3]}).spec["description"].endswith("start near 0.")
    True
    """
    return show(eps_chart(systems), alt=eps_alt(systems))


def means_figure(
    systems: Mapping[str, Sequence[float]] = TABLE1_SCORES, start: str = START, eps: float = EPS
) -> VegaLiteFigure:
    """Figure 4.2 for these systems: the select at ``start``, the slider at its own first score, ε = ``eps``.

    Examples
    --------
    >>> fig = means_figure({"A": [0.13, 0.5, 0.2, 0.4, 0.3], "B": [0.2] * 5}, start="A", eps=0.01)
    >>> [p["value"] for p in fig.spec["params"] if "bind" in p]
    [1, 0.13, -2.0]
    """
    firsts = np.unique(np.append(FIRST.values, [x[0] for x in systems.values()]))
    exponents = np.unique(np.round(np.append(EPS_EXPONENT.values, np.log10(eps)), 10))
    chart = means_chart(systems, firsts, exponents, initial=(start, systems[start][0], float(np.log10(eps))))
    return show(
        chart,
        alt=(
            f"Left: bars of {len(systems[start])} topic scores, the first set by a slider and the others those of "
            "the chosen system. Right: horizontal bars of AM, GM, εGM, HM, εHM and the median of the scores, with "
            "their values; HM reads 'undefined' when a score is 0. Below: the value of ε."
        ),
        state=means_state(systems),
    )


def means_state(systems: Mapping[str, Sequence[float]] = TABLE1_SCORES) -> Callable[..., str]:
    """Figure 4.2's words for a setting of its controls, ``state(system, first, k)`` (the select's system by its
    number from 1), as the site makes them from what it draws: the setting, and each average as it is labelled.

    Examples
    --------
    >>> print(means_state({"A": [0.5, 0.5, 0.2]})(1, 0.0, -2.0).replace("; ", ";\\n"))
    Start from system A, topic 1 at 0.00, ε = 0.01;
    AM 0.233;
    GM 0.000;
    εGM 0.092;
    HM undefined;
    εHM 0.018;
    MD 0.200.
    """
    names = list(systems)

    def state(system: str, first: float, k: float) -> str:
        name = names[int(system) - 1]
        scores = np.append(first, np.asarray(systems[name], dtype=float)[1:])
        shown = [
            f"{label} {'undefined' if np.isnan(v) else f'{np.round(v, 3):.3f}'}"
            for label, v in all_means(scores, 10.0**k).items()
        ]
        return f"Start from system {name}, topic 1 at {first:.2f}, ε = {10.0**k:.4g}; " + "; ".join(shown) + "."

    return state


def paper_tables(
    systems: Mapping[str, Sequence[float]] = TABLE1_SCORES,
    eps: float = EPS,
    start: str = START,
    pair: tuple[str, str] = ("S1", "S3"),
    firsts: int = 6,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """What the second figure shows for some of its settings, for paper (:mod:`irmeans_book.paper`).

    Returns
    -------
    first : DataFrame
        The six averages of system ``start`` at ε = ``eps``, for the first ``firsts`` settings of its
        first topic's slider.
    eps_sweep : DataFrame
        The εGM of each system of ``pair`` at each setting of the ε slider, and which is higher.

    Examples
    --------
    >>> first, sweep = paper_tables(firsts=2)
    >>> first.loc[0.05, "AM"], sweep.loc[1.0, "higher"]
    (np.float64(0.27), 'S1')
    """
    scores = np.asarray(systems[start], dtype=float)
    rows = {}
    for x in FIRST.values[:firsts]:
        changed = scores.copy()
        changed[0] = x
        rows[float(x)] = all_means(changed, eps)
    first = pd.DataFrame(rows).T[list(AVERAGE_NAMES)].astype(float).round(4)
    first.index.name = f"{start}'s topic 1 (ε = {eps:g})"
    sweep = []
    for k in EPS_EXPONENT.values:
        e = 10.0 ** float(k)
        values = {s: float(irmeans.geometric_mean(systems[s], eps=e)) for s in pair}
        hi = max(values, key=values.get)  # type: ignore[arg-type]  # dict.get, of keys it has
        sweep.append({"log10 ε": float(k), "ε": f"{e:.3g}", **{f"εGM {s}": round(v, 4) for s, v in values.items()}})
        sweep[-1]["higher"] = hi
    eps_sweep = pd.DataFrame(sweep).set_index("log10 ε")
    return first, eps_sweep


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {"fig-ch4-eps": eps_figure, "fig-ch4-means": means_figure}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------


def _table1() -> dict[str, tuple[float, ...]]:
    return {name: tuple(scores) for name, scores in TABLE1_SCORES.items()}


@selfcheck("sc-ch4-s1-ehm")
def ch4_s1_ehm() -> Number:
    """εHM of S1 with ε = 0.1."""
    return Number(float(irmeans.harmonic_mean(_table1()["S1"], eps=0.1)), decimals=3)


@selfcheck("sc-ch4-first-ehm")
def ch4_first_ehm() -> Choice:
    """The system εHM with ε = 1 puts first (the arithmetic mean puts S1 first)."""
    table = _table1()
    ehm = {name: irmeans.harmonic_mean(x, eps=1.0) for name, x in table.items()}
    assert winner({name: irmeans.arithmetic_mean(x) for name, x in table.items()}) == "S1"
    return Choice(tuple(table), winner(ehm))


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE = {
    "live": "fig-ch4-means",
    "lines": {
        '"S1": (0.1, 0.1, 0.3, 0.8, 0.1),': '"S1": (0.1, 0.1, 0.3, 0.2, 0.1),',
        '"S2": (0.0, 0.4, 0.2, 0.4, 0.3),': '"S2": (0.1, 0.4, 0.2, 0.4, 0.3),',
    },
    "named": {
        "checked value by value against the published one",
        "The arithmetic mean puts S1 first",
        "AM rises by 0.05/5",
    },
    "figures": {"fig-ch4-eps": [0.16], "fig-ch4-means": [0.1]},
    "box": "0.1, 0.1, 0.3, 0.2, 0.1",
    "not_live": {"system"},  # its live controls set each score of one system, not the select of a system
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS = [
    ("0.1 0.3 0.8", "S1's scores in Ravana and Moffat's Table 1 (cited)"),
    ("-2 10 100", "the values of ε the text looks at (1, 100) and the slider's, ε = 10 raised to its value"),
    ("0.05", "the exercise's nudge of topic 1"),
]
