"""Chapter 8's figures: the log and the logit as scales, and three averages of scores near 0 and near 1.

Each average of the chapter is an arithmetic mean on some scale: the
arithmetic mean on the scores themselves, the geometric mean on log(x + ε),
the logit mean on log((x + ε) / (1 − x + ε)). The tables here hold every
per-topic value on each scale and every average, for each data set and ε of
the figure's controls, computed with :mod:`irmeans.means`; the chart only picks rows.

Examples
--------
>>> round(float(log_odds(0.9)), 4)  # the library's logit, irmeans.means.log_odds
2.1972
>>> print(describe_logit("Spam filters: daily accuracy", 1e-5).splitlines()[-1])
logit mean       X 0.999007  Y 0.999878  -> Y
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from irmeans.averages import AM, GM, Average, Logit
from irmeans.means import log_odds
from numpy.typing import ArrayLike

from irmeans_book.plots import OKABE_ITO, LiveFigure, VegaLiteFigure, example, show
from irmeans_book.selfcheck import Number, selfcheck

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_table",
    "EXAMPLE",
    "FIGURES",
    "curves_figure",
    "curves_alt",
    "logit_figure",
    "logit_alt",
    "log_odds",
    "SCALES",
    "AVERAGES",
    "averages",
    "DATASETS",
    "UNITS",
    "EPS_OPTIONS",
    "EPS",
    "CURVES_EPS",
    "MARKS",
    "curves_table",
    "curves_chart",
    "averages_table",
    "logit_chart",
    "describe_logit",
    "logit_controls",
    "curves_state",
    "logit_state",
]

#: The figure's data sets: two systems' per-topic scores in [0, 1], both with the same number of topics.
DATASETS = {
    "nDCG: easy and middling topics": {
        "X": [0.95, 0.96, 0.95, 0.97, 0.96, 0.95, 0.70, 0.62, 0.55, 0.48],
        "Y": [0.995, 1.0, 0.999, 1.0, 0.998, 0.997, 0.62, 0.55, 0.47, 0.40],
    },
    "AP: hard and middling topics": {
        "X": [0.02, 0.05, 0.10, 0.30, 0.45, 0.60],
        "Y": [0.005, 0.01, 0.08, 0.40, 0.55, 0.70],
    },
    "Spam filters: daily accuracy": {
        "X": [0.9990, 0.9988, 0.9991, 0.9989, 0.9992, 0.9990, 0.9990],
        "Y": [0.9999, 0.9998, 0.9999, 0.9999, 0.9998, 0.9999, 0.9999],
    },
}

#: What one score of a data set is of: a topic, unless named here.
UNITS = {"Spam filters: daily accuracy": "day"}

#: The ε of the figures' select (and of the ipywidgets controls' dropdown).
EPS_OPTIONS = [1e-5, 1e-4, 1e-3, 1e-2, 1e-1]
#: The chapter's ε for its averages, where the second figure and the controls start ...
EPS = 1e-3
#: ... and where the first figure, of the curves, starts.
CURVES_EPS = 1e-2
#: The scores the curves' figure marks, and the chapter's table shows on each scale.
MARKS = example([0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999])

#: The chapter's examples by the names its notebook gives them (its cells show them, for a reader to change): a check
#: of the text is strict on these (irmeans_book.claims).
EXAMPLE: dict[str, Any] = {
    "x": MARKS,
    "acc": example([0.999, 0.9999]),
    "messages": 10_000,
    "scores": example([0.0, 0.35, 0.8, 1.0]),
    "eps_ends": 0.01,
    "judged": [2, 2, 1, 1, 1, 0, 0, 0, 0, 0],
    "rankings": {
        "ideal order": [2, 2, 1, 1, 1, 0, 0, 0, 0, 0],
        "ranks 2 and 3 swapped": [2, 1, 2, 1, 1, 0, 0, 0, 0, 0],
        "a gain-1 document down to rank 9": [2, 2, 1, 1, 0, 0, 0, 0, 1, 0],
        "a non-relevant document at rank 3": [2, 2, 0, 1, 1, 1, 0, 0, 0, 0],
    },
    "X": example(DATASETS["nDCG: easy and middling topics"]["X"]),
    "Y": example(DATASETS["nDCG: easy and middling topics"]["Y"]),
    "eps": EPS,
    "hard": {s: example(v) for s, v in DATASETS["AP: hard and middling topics"].items()},
    "spam": {s: example(v) for s, v in DATASETS["Spam filters: daily accuracy"].items()},
}

#: Each scale, and the average that is the arithmetic mean on it.
SCALES = {"score": "arithmetic mean", "log(score + ε)": "geometric mean", "logit(score, ε)": "logit mean"}

#: The averages' names, in the figure's order.
AVERAGES = tuple(SCALES.values())


def averages(eps: float) -> dict[str, Average]:
    """The chapter's three averages with ``eps``: the library's average values, by name.

    Examples
    --------
    >>> {name: avg.label for name, avg in averages(0.01).items()}
    {'arithmetic mean': 'AM', 'geometric mean': 'εGM (ε = 0.01)', 'logit mean': 'logit (ε = 0.01)'}
    """
    return dict(zip(AVERAGES, (AM(), GM(eps=eps), Logit(eps=eps))))


def _on_scale(x: ArrayLike, scale: str, eps: float) -> np.ndarray:
    if scale == "score":
        return np.asarray(x, dtype=float)
    if scale == "log(score + ε)":
        return np.log(np.asarray(x, dtype=float) + eps)
    return log_odds(x, eps)


def curves_table(eps_values: Sequence[float] = EPS_OPTIONS, n_points: int = 201) -> pd.DataFrame:
    """The log and logit curves of chapter 8's first figure, for each ε.

    Returns
    -------
    DataFrame
        ``eps, x, scale ("log" or "logit"), y``.

    Examples
    --------
    >>> t = curves_table([0.01], n_points=3)
    >>> t.query("scale == 'logit'").y.round(3).tolist()
    [-4.615, 0.0, 4.615]
    """
    x = np.linspace(0.0, 1.0, n_points)
    frames = []
    for eps in eps_values:
        for scale, y in (("log", np.log(x + eps)), ("logit", log_odds(x, eps))):
            frames.append(pd.DataFrame({"eps": eps, "x": x, "scale": scale, "y": y}))
    return pd.concat(frames, ignore_index=True)


def curves_chart(
    eps_values: Sequence[float] = EPS_OPTIONS, initial: float = CURVES_EPS, marks: np.ndarray | Sequence[float] = MARKS
) -> alt.TopLevelMixin:
    """log(x + ε) and logit(x, ε) against x, with a select for ε and points at ``marks``.

    A line of text below gives both curves' values at the scores 0 and 1.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> [p["name"] for p in to_spec(curves_chart([0.01, 0.1], 0.1), "Curves.")["params"]]
    ['eps']
    """
    table = curves_table(eps_values)
    dots = pd.concat(
        [
            pd.DataFrame({"eps": eps, "x": list(marks), "scale": scale, "y": f(np.array(marks), eps)})
            for eps in eps_values
            for scale, f in (("log", lambda m, e: np.log(m + e)), ("logit", log_odds))
        ],
        ignore_index=True,
    )
    eps = alt.param(
        name="eps",
        value=float(initial),
        bind=alt.binding_select(
            options=[float(e) for e in eps_values], labels=[f"{e:g}" for e in eps_values], name="ε "
        ),
    )
    pick = "abs(datum.eps - eps) < 1e-12"
    colour = alt.Color(
        "scale:N", title="Scale", scale=alt.Scale(domain=["log", "logit"], range=[OKABE_ITO[4], OKABE_ITO[5]])
    )
    x = alt.X("x:Q", title="Score x", scale=alt.Scale(domain=[0, 1]))
    y = alt.Y("y:Q", title="Transformed score")
    lines = (
        alt.Chart(table)
        .transform_filter(pick)
        .mark_line()
        .encode(x=x, y=y, color=colour, strokeDash=alt.StrokeDash("scale:N", legend=None))
    )
    points = (
        alt.Chart(dots)
        .transform_filter(pick)
        .mark_point(filled=True, size=50)
        .encode(
            x=x,
            y=y,
            color=colour,
            shape=alt.Shape("scale:N", title="Scale", scale=alt.Scale(domain=["log", "logit"])),  # with the colour's
            tooltip=["scale:N", alt.Tooltip("x:Q", format="g"), alt.Tooltip("y:Q", format=".3f")],
        )
    )
    # Where the curves start and end at this ε: the scores 0 and 1, which only ε keeps finite.
    ends = (
        alt.Chart(table)
        .transform_filter(pick)
        .transform_filter("datum.x == 0 || datum.x == 1")
        .transform_calculate(end="datum.scale + (datum.x == 0 ? '0' : '1')")
        .transform_pivot("end", value="y", groupby=["eps"])
        .transform_calculate(
            text=(
                "'ε = ' + format(datum.eps, '~g') + ':  score 0 → log ' + format(datum.log0, '.3f') + "
                "', logit ' + format(datum.logit0, '.3f') + ';  score 1 → log ' + format(datum.log1, '.3f') + "
                "', logit ' + format(datum.logit1, '.3f')"
            )
        )
        .mark_text(align="left", fontSize=13)
        .encode(text="text:N", x=alt.value(0))
        .properties(width=420, height=18, view=alt.ViewConfig(stroke=None))
    )
    return alt.vconcat((lines + points).properties(width=420, height=280), ends).add_params(eps)


def averages_table(
    datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS,
    eps_values: Sequence[float] = EPS_OPTIONS,
    decimals: int = 6,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every value of chapter 8's second figure.

    Returns
    -------
    topics : DataFrame
        ``dataset, eps, scale, system, topic, value``: each score on each scale.
    averages : DataFrame
        ``dataset, eps, average, system, value, on_scale, winner``: each
        average as a score, the same average on its own scale, and which
        system it puts higher.

    Examples
    --------
    >>> t, a = averages_table({"d": {"X": [0.5, 0.9], "Y": [0.6, 0.8]}}, [0.01])
    >>> a.query("system == 'X'").set_index("average").winner.to_dict()
    {'arithmetic mean': 'tie', 'geometric mean': 'Y', 'logit mean': 'X'}
    """
    topic_rows, average_rows = [], []
    for name, systems in datasets.items():
        for eps in eps_values:
            values = {}
            for average, mean in averages(eps).items():
                values[average] = {s: mean(np.asarray(x, dtype=float)) for s, x in systems.items()}
            for scale, average in SCALES.items():
                for s, x in systems.items():
                    topic_rows.append(
                        pd.DataFrame(
                            {
                                "dataset": name,
                                "eps": eps,
                                "scale": scale,
                                "system": s,
                                "topic": np.arange(1, len(x) + 1),
                                "value": _on_scale(x, scale, eps).round(decimals),
                            }
                        )
                    )
                v = values[average]
                hi, lo = max(v, key=v.get), min(v, key=v.get)  # type: ignore[arg-type]  # dict.get, of keys it has
                winner = "tie" if np.isclose(v[hi], v[lo], rtol=0, atol=10.0**-decimals) else hi
                for s in systems:
                    average_rows.append(
                        {
                            "dataset": name,
                            "eps": eps,
                            "average": average,
                            "system": s,
                            "value": float(
                                v[s]
                            ),  # unrounded: the figure prints it, and twice rounded it can print wrong
                            "on_scale": round(float(np.mean(_on_scale(systems[s], scale, eps))), decimals),
                            "winner": winner,
                        }
                    )
    return pd.concat(topic_rows, ignore_index=True), pd.DataFrame(average_rows)


def logit_chart(
    datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS,
    eps_values: Sequence[float] = EPS_OPTIONS,
    initial: Mapping[str, Any] | None = None,
) -> alt.TopLevelMixin:
    """Chapter 8's second figure: selects for the data set, the scale and ε.

    Left: the per-topic scores of both systems on the chosen scale, with each
    system's mean on that scale as a rule. Right: the three averages as scores,
    the system each puts higher and both systems' values.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(logit_chart({"d": {"X": [0.5, 0.9], "Y": [0.6, 0.8]}}, [0.01]), "Averages.")
    >>> sorted(p["name"] for p in spec["params"])
    ['dataset', 'eps', 'scale']
    """
    topics, table = averages_table(datasets, eps_values)
    initial = initial or {}
    dataset = alt.param(
        name="dataset",
        value=initial.get("dataset", next(iter(datasets))),
        bind=alt.binding_select(options=list(datasets), name="Data set "),
    )
    scale = alt.param(
        name="scale",
        value=initial.get("scale", "logit(score, ε)"),
        bind=alt.binding_select(options=list(SCALES), name="Scale "),
    )
    eps = alt.param(
        name="eps",
        value=float(initial.get("eps", EPS)),
        bind=alt.binding_select(
            options=[float(e) for e in eps_values], labels=[f"{e:g}" for e in eps_values], name="ε "
        ),
    )
    pick = "datum.dataset == dataset && abs(datum.eps - eps) < 1e-12"
    palette = alt.Scale(domain=["X", "Y"], range=[OKABE_ITO[0], OKABE_ITO[4]])
    colour = alt.Color("system:N", title="System", scale=palette)
    # What a score is of (a topic, or a day of the spam filters) names the x axis, through the panel's title.
    unit = " : ".join(f"dataset == {name!r} ? {UNITS[name].capitalize()!r}" for name in datasets if name in UNITS)
    unit = f"({unit} : 'Topic')" if unit else "'Topic'"
    on_scale = alt.Chart(topics).transform_filter(pick).transform_filter("datum.scale == scale")
    dots = on_scale.mark_point(filled=True, size=70).encode(
        x=alt.X("topic:O", title=None, axis=alt.Axis(labelAngle=0)),
        xOffset="system:N",
        y=alt.Y("value:Q", title="Per-topic score on this scale", scale=alt.Scale(zero=False)),
        color=colour,
        shape=alt.Shape("system:N", title="System", scale=alt.Scale(domain=palette.domain)),  # merged with the colour's
        tooltip=["system:N", "topic:O", alt.Tooltip("value:Q", format=".4f")],
    )
    mean_rules = (
        alt.Chart(table)
        .transform_filter(pick)
        .transform_filter(" || ".join(f"(scale == '{s}' && datum.average == '{a}')" for s, a in SCALES.items()))
        .mark_rule(strokeDash=[6, 3], strokeWidth=1.5)
        .encode(
            y="on_scale:Q",
            color=alt.Color("system:N", legend=None, scale=palette),
            tooltip=["system:N", "average:N", alt.Tooltip("on_scale:Q", title="mean on this scale", format=".4f")],
        )
    )
    # The panel names the scale the select has chosen ("Topic by topic on logit(score, ε)"), on a slide as on the site;
    # in two lines, so that the panel is no wider than its chart (a wider one shrinks the figure on a phone).
    named = "(scale == 'score' ? ', as scored' : ' on ' + scale)"
    title = {"text": {"expr": f"[{unit} + ' by ' + lower({unit}) + {named} + ',', 'means dashed']"}}
    left = (
        (dots + mean_rules)
        .resolve_scale(color="independent", shape="independent")
        .properties(width=330, height=250, title=title)
    )

    # The averages as dots on an axis that fits them, not bars from 0: averages of 0.999 and 0.9999
    # make bars of one length. The verdict and the values stand to the right, in the same view.
    chosen = alt.Chart(table).transform_filter(pick)
    y = alt.Y("average:N", title=None, sort=list(AVERAGES))
    dots_right = chosen.mark_point(filled=True, size=110, opacity=1).encode(
        y=y,
        yOffset=alt.YOffset("system:N", scale=alt.Scale(paddingOuter=0.6)),
        x=alt.X("value:Q", title="Average, as a score", scale=alt.Scale(zero=False, padding=12)),
        color=alt.Color("system:N", legend=None, scale=palette),
        shape=alt.Shape("system:N", legend=None),
        tooltip=["average:N", "system:N", alt.Tooltip("value:Q", format=".6f")],
    )
    verdict = (
        chosen.transform_pivot("system", value="value", groupby=["average", "winner"])
        .transform_calculate(
            label=(
                "[datum.winner == 'tie' ? 'a tie' : 'higher: ' + datum.winner, "
                "'X ' + format(datum.X, '.4f'), 'Y ' + format(datum.Y, '.4f')]"
            )
        )
        .mark_text(align="left", fontWeight="bold", dx=8)
        .encode(y=y, x=alt.value("width"), text="label:N")
    )
    right = (dots_right + verdict).properties(width=170, height=250, title="The three averages")
    # The legend is the left panel's, colour and mark in one; the right panel draws the same colours and marks.
    both = alt.hconcat(left, right).resolve_scale(color="independent", shape="independent")
    chart: alt.TopLevelMixin = both.add_params(dataset, scale, eps).configure_view(stroke=None)
    return chart


def describe_logit(dataset: str, eps: float, datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS) -> str:
    """The three averages of a data set's two systems at one ε, and the higher system (the live controls print this).

    Examples
    --------
    >>> print(describe_logit("AP: hard and middling topics", 0.01).splitlines()[0])
    arithmetic mean  X 0.253333  Y 0.290833  -> Y
    """
    systems = datasets[dataset]
    lines = []
    for average, mean in averages(eps).items():
        v = {s: mean(np.asarray(x, dtype=float)) for s, x in systems.items()}
        a, b = v["X"], v["Y"]
        winner = "tie" if np.isclose(a, b, rtol=0, atol=1e-12) else ("X" if a > b else "Y")
        lines.append(f"{average:<16} X {a:.6f}  Y {b:.6f}  -> {winner}")
    return "\n".join(lines)


def _with(options: Iterable[float], eps: float) -> list[float]:
    """The ε the selects offer: :data:`EPS_OPTIONS`, and ``eps`` if it is not among them."""
    return sorted({float(e) for e in options} | {float(eps)})


def logit_controls(datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS, eps: float = EPS) -> LiveFigure:
    """Dropdowns for the data set, the scale and ε that redraw chapter 8's figure, for these data sets.

    They start where Figure 8.2 does: the first data set, the logit scale and ``eps`` (offered among
    :data:`EPS_OPTIONS`).

    Examples
    --------
    >>> live = logit_controls()
    >>> live.widgets["dataset"].value = "Spam filters: daily accuracy"
    >>> live.figure.spec["description"].splitlines()[-1]
    'logit mean       X 0.999004  Y 0.999872  -> Y'
    """
    import ipywidgets as w

    def draw(dataset: str, scale: str, eps: float) -> VegaLiteFigure:
        chart = logit_chart(datasets, [eps], initial={"dataset": dataset, "scale": scale, "eps": eps})
        return show(chart, alt=describe_logit(dataset, eps, datasets), controls=False)

    return LiveFigure(
        {
            "dataset": w.Dropdown(options=list(datasets), description="Data set"),
            "scale": w.Dropdown(options=list(SCALES), value="logit(score, ε)", description="Scale"),
            "eps": w.Dropdown(options=[(f"{e:g}", e) for e in _with(EPS_OPTIONS, eps)], value=eps, description="ε"),
        },
        draw,
    )


def curves_alt(marks: np.ndarray | Sequence[float] = MARKS) -> str:
    """Figure 8.1's alt text, with points at these scores."""
    shown = ", ".join(f"{m:g}" for m in np.asarray(marks, dtype=float))
    return (
        "Two curves over scores from 0 to 1. The log curve rises steeply near 0 and is almost flat near 1. "
        "The logit curve follows the log near 0, passes through 0 at a score of 0.5 and rises just as steeply "
        f"near 1. Points mark the scores {shown}."
    )


def curves_figure(marks: np.ndarray | Sequence[float] = MARKS, eps: float = CURVES_EPS) -> VegaLiteFigure:
    """Figure 8.1: the log and logit curves with points at ``marks``, the select at ``eps`` (:data:`CURVES_EPS`).

    Examples
    --------
    >>> fig = curves_figure([0.2, 0.7], eps=0.05)
    >>> fig.spec["params"][0]["value"], "Points mark the scores 0.2, 0.7. At ε = 0.05," in fig.spec["description"]
    (0.05, True)
    """
    return show(curves_chart(_with(EPS_OPTIONS, eps), eps, marks), alt=curves_alt(marks), state=curves_state)


def curves_state(eps: float) -> str:
    """Figure 8.1's words at the ε chosen: where its read-out says the curves start and end.

    Examples
    --------
    >>> print(curves_state(0.01).replace("; ", ";\\n"))
    At ε = 0.01, the score 0 maps to −4.605 on the log scale and to −4.615 on the logit scale;
    the score 1 to 0.010 and to 4.615.
    """
    ends = {x: (np.log(x + eps), float(log_odds(np.array([x]), eps)[0])) for x in (0.0, 1.0)}
    (log0, logit0), (log1, logit1) = ends[0.0], ends[1.0]
    return (
        f"At ε = {eps:g}, the score 0 maps to {log0:.3f} on the log scale and to {logit0:.3f} on the logit scale; "
        f"the score 1 to {log1:.3f} and to {logit1:.3f}."
    ).replace("-", "−")


def logit_alt(datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS, eps: float = EPS) -> str:
    """Figure 8.2's alt text: what it shows, and for the first data set which system each average puts higher."""
    return (
        "Left: per-topic scores of systems X and Y on the chosen scale (score, log, or logit), with each "
        "system's mean on that scale as a dashed line. Right: the arithmetic, geometric and logit means "
        "of each system as scores, and which system each puts higher."
    )


def logit_figure(datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS, eps: float = EPS) -> VegaLiteFigure:
    """Figure 8.2 for these data sets (name -> {"X": scores, "Y": scores}): the first one shown, ε at ``eps``.

    Examples
    --------
    >>> fig = logit_figure({"mine": {"X": [0.5, 0.9], "Y": [0.6, 0.8]}}, eps=0.02)
    >>> {p["name"]: p["value"] for p in fig.spec["params"]}["eps"], fig.spec["description"].split(": ")[-1][:28]
    (0.02, 'the arithmetic mean ties (X ')
    """
    first = next(iter(datasets))
    chart = logit_chart(datasets, _with(EPS_OPTIONS, eps), initial={"dataset": first, "eps": eps})
    return show(chart, alt=logit_alt(datasets, eps), state=logit_state(datasets))


def logit_state(datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS) -> Callable[..., str]:
    """Figure 8.2's words for a setting of its controls, ``state(dataset, scale, eps)``: which system each average
    puts higher, and its values, as the right panel prints them.

    Examples
    --------
    >>> said = logit_state()("AP: hard and middling topics", "score", 0.01)
    >>> print(said.replace("; ", ";\\n").replace(": the", ":\\nthe"))
    For AP: hard and middling topics, its scores as scored, at ε = 0.01:
    the arithmetic mean prefers Y (X 0.2533, Y 0.2908);
    the geometric mean prefers X (X 0.1507, Y 0.1180);
    the logit mean prefers X (X 0.1758, Y 0.1561).
    """

    def state(dataset: str, scale: str, eps: float) -> str:
        verdicts = []
        for average, mean in averages(eps).items():
            x, y = (float(mean(np.asarray(datasets[dataset][s], dtype=float))) for s in ("X", "Y"))
            tie = np.isclose(x, y, rtol=0, atol=1e-12)
            verdict = "ties" if tie else f"prefers {'X' if x > y else 'Y'}"
            verdicts.append(f"the {average} {verdict} (X {x:.4f}, Y {y:.4f})")
        shown = "as scored" if scale == "score" else f"on {scale}"
        return f"For {dataset}, its scores {shown}, at ε = {eps:g}: " + "; ".join(verdicts) + "."

    return state


def paper_table(
    datasets: Mapping[str, Mapping[str, Sequence[float]]] = DATASETS,
    name: str = "Spam filters: daily accuracy",
    eps_values: Sequence[float] = EPS_OPTIONS,
) -> pd.DataFrame:
    """What the second figure shows of data set ``name`` at each setting of its ε, with the logit scale
    chosen, for paper (:mod:`irmeans_book.paper`): each system's logit mean on the logit scale and as a
    score.

    Examples
    --------
    >>> paper_table({"d": {"X": [0.9, 0.99], "Y": [0.95, 0.95]}}, "d", [0.01]).columns.tolist()
    ['X on the logit scale', 'Y on the logit scale', 'X as a score', 'Y as a score']
    """
    _, avg = averages_table({name: datasets[name]}, eps_values)
    logit = avg[avg.average == "logit mean"]
    on_scale = logit.pivot(index="eps", columns="system", values="on_scale").round(4)
    score = logit.pivot(index="eps", columns="system", values="value").round(6)
    on_scale = on_scale.rename(columns=lambda s: f"{s} on the logit scale")
    table = pd.concat([on_scale, score.rename(columns=lambda s: f"{s} as a score")], axis=1)
    table.index.name = f"ε, {name}"
    table.columns.name = None
    # On paper (irmeans_book.paper) the scores need six decimals: the filters differ in the fourth.
    table.attrs["decimals"] = {column: 6 for column in table.columns if column.endswith(" as a score")}
    return table


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {"fig-ch8-curves": curves_figure, "fig-ch8-averages": logit_figure}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------


@selfcheck("sc-ch8-logit-step")
def ch8_logit_step() -> Number:
    """How far apart 0.9 and 0.99 are on the logit scale (no ε)."""
    step = irmeans.means.log_odds(0.99) - irmeans.means.log_odds(0.9)
    return Number(float(step), decimals=2)


@selfcheck("sc-ch8-logit-mean")
def ch8_logit_mean() -> Number:
    """The logit mean of the scores 0.5 and 0.9 (no ε)."""
    return Number(float(irmeans.logit_mean([0.5, 0.9])), decimals=3)


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE: dict[str, Any] = {
    "live": "fig-ch8-averages",
    "lines": {
        "x = np.array([0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999])": "x = np.array([0.002, 0.2, 0.3, 0.5, 0.7, 0.97])",
        "Y = np.array([0.995, 1.0, 0.999, 1.0, 0.998, 0.997, 0.62, 0.55, 0.47, 0.40])": (
            "Y = np.array([0.955, 0.965, 0.955, 0.975, 0.965, 0.955, 0.62, 0.55, 0.47, 0.40])"
        ),
    },
    "named": {"The logit mean prefers Y by far"},
    "figures": {"fig-ch8-curves": [0.3, 0.7, 0.97], "fig-ch8-averages": [0.955, 0.975]},
    "params": {"fig-ch8-averages": {"dataset": "nDCG: easy and middling topics", "eps": 0.001}},
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS: list[tuple[str, str]] = [
    (
        "10 2.30 99.9 99.99 10⁻³ 10⁻⁴ 0.001 0.0001 0.0009",
        "the spam-filter example's accuracies, 99.9 % and 99.99 % (the chapter's definition), their failure "
        "rates and difference, and the tenfold difference of errors, log 10 ≈ 2.30",
    ),
    ("0.011 0.0101", "the exercise's arithmetic: those failure rates plus ε = 0.01"),
    (
        "0.25 -0.15 0.05",
        "Robertson's reversed example (§4, cited): 0.5 → 0.25 against 0.1 → −0.15; on the log scale, 0.05",
    ),
    ("99 10,000", "the exercise's filters: 99 % on one day, 10,000 messages a day"),
    ("0.1 0.99 0.999", "points of the scale the figure marks (book code): 0.001, 0.01, 0.1, 0.99, 0.999"),
    ("0.5 0.9 3 9", "the self-checks' scores, 0.5, 0.9 and 0.99, and their hints' odds, 9, 99 and 3"),
    ("2", "the nDCG example's grades: gain 2 and gain 1"),
    ("50", "odds from 50 %, the logit's centre, an illustration"),
    ("10⁻⁶ 0.3", "the range of ε of the Jupyter controls (book code)"),
]
