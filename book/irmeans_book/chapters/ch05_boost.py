"""Chapter 5's figures: Robertson's (2006) 0.05 boost, with MAP and GMAP side by side.

Every value a figure can show is computed here with :mod:`irmeans_book.robertson`
(which uses the package's means), for every setting of the figure's controls;
the chart's controls only pick rows.

Examples
--------
>>> from irmeans_book.robertson import load_example
>>> t = boost_table(load_example(), [0.0, 0.05])
>>> row = t.query("amount == 0.05 and which == 'lowest'").iloc[0]
>>> round(float(row["map"]), 3), round(float(row["gmap"]), 3)
(0.334, 0.249)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import altair as alt
import irmeans
import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from irmeans_book import robertson
from irmeans_book.plots import OKABE_ITO, Grid, LiveFigure, VegaLiteFigure, show, slider_param
from irmeans_book.selfcheck import Choice, Number, selfcheck, winner

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "paper_table",
    "EXAMPLE",
    "EPS",
    "FIGURES",
    "histogram_figure",
    "histogram_alt",
    "boost_figure",
    "boost_alt",
    "choices",
    "AMOUNT",
    "AMOUNTS",
    "BOOST",
    "WHICH",
    "CHOICES",
    "figures_table",
    "boost_table",
    "histogram_table",
    "histogram_chart",
    "boost_chart",
    "describe_boost",
    "boost_controls",
    "boost_state",
]

#: The boost slider's settings: 0 to 0.10 in steps of 0.005.
AMOUNT = Grid(0.0, 0.10, 0.005, decimals=3)
AMOUNTS = AMOUNT.values
#: The chapter's example, where its figure and controls start: 0.05 added to the lowest 25 topics.
BOOST = 0.05
WHICH = "lowest"

#: The ε of GMAP, Robertson's: the additive form with ε = 10⁻⁵.
EPS = 1e-5


def choices(n_topics: int) -> dict[str, str]:
    """What the select offers for ``n_topics`` topics, in order: the key of :func:`irmeans_book.robertson.boost` ->
    its label. No "none": with it the boost slider would move and change nothing; no boost is the slider at 0.

    Examples
    --------
    >>> choices(7)
    {'all': 'all 7', 'lowest': 'lowest 3', 'highest': 'highest 3'}
    """
    half = int(n_topics) // 2
    return {"all": f"all {n_topics}", "lowest": f"lowest {half}", "highest": f"highest {half}"}


#: The chapter's example by the names its notebook gives it (its cells show them): a check of the text is strict on
#: these (irmeans_book.claims). The AP values are the reconstruction of Robertson's example (irmeans_book.robertson).
EXAMPLE: dict[str, Any] = {"ap": robertson.load_example(), "eps": EPS}

#: What the select offers for the chapter's 50 topics (:func:`choices`).
CHOICES = choices(EXAMPLE["ap"].size)

_CHOICE_COLOURS = [OKABE_ITO[0], OKABE_ITO[4], OKABE_ITO[6]]
#: Their lines' dashes: solid, dashed, dotted.
_CHOICE_DASHES = [[1, 0], [6, 4], [2, 2]]
_PART_COLOURS = {"boosted": OKABE_ITO[5], "unchanged": OKABE_ITO[1]}
#: The legend's words for the two parts of the histogram: how each is drawn, as well as its colour.
_PART_LABELS = {"boosted": "boosted (solid bars)", "unchanged": "unchanged (hollow bars)"}


def figures_table(ap: ArrayLike) -> pd.DataFrame:
    """Robertson's figures next to the same figures computed for ``ap``.

    He prints eight (:data:`irmeans_book.robertson.PUBLISHED`); the MAPs after boosting either half he gives only
    as "an increase of 0.025" (:data:`~irmeans_book.robertson.IMPLIED`: his MAP plus that increase).

    Returns
    -------
    DataFrame
        Index: the keys of :data:`irmeans_book.robertson.PUBLISHED`, then of
        :data:`~irmeans_book.robertson.IMPLIED`. Columns ``what``, ``Robertson`` (his figure, or his MAP plus his
        increase), ``printed`` (whether he prints it), ``computed`` (full precision) and ``rounded`` (3 decimals).

    Examples
    --------
    >>> t = figures_table(robertson.load_example())
    >>> bool((t.rounded == t.Robertson).all()), len(t), int(t.printed.sum())
    (True, 10, 8)
    """
    computed = robertson.boost_figures(ap)
    rows = {**robertson.PUBLISHED, **robertson.IMPLIED}
    return pd.DataFrame(
        {
            "what": [f.meaning for f in rows.values()],
            "Robertson": [f.value for f in rows.values()],
            "printed": [k in robertson.PUBLISHED for k in rows],
            "computed": [computed[k] for k in rows],
            "rounded": [round(computed[k], 3) for k in rows],
        },
        index=pd.Index(list(rows), name="figure"),
    )


def boost_table(ap: ArrayLike, amounts: ArrayLike = AMOUNTS, eps: float = EPS) -> pd.DataFrame:
    """MAP and GMAP (additive ε) after every boost of the figure's controls.

    Parameters
    ----------
    ap : array_like
        Per-topic AP values.
    amounts : array_like
        The boost sizes.
    eps : float
        ε of GMAP.

    Returns
    -------
    DataFrame
        Columns ``amount, which, label, map, gmap, map_gain, gmap_gain``; the
        gains are over the unboosted values. ``which`` is a key of
        :func:`choices` and ``label`` its label.
    """
    base_map, base_gmap = robertson.boosted_means(ap, 0.0, "none", eps)
    rows = []
    for amount in np.asarray(amounts, dtype=float):
        for which, label in choices(np.size(ap)).items():
            m, g = robertson.boosted_means(ap, amount, which, eps)
            rows.append((float(amount), which, label, m, g, m - base_map, g - base_gmap))
    return pd.DataFrame(rows, columns=["amount", "which", "label", "map", "gmap", "map_gain", "gmap_gain"])


def _bin_index(values: ArrayLike, width: float) -> np.ndarray:
    # Scores carry 4 decimals and boosts 3: rounding first keeps 0.10 + 0.05 in the bin of 0.15.
    return np.floor(np.round(np.asarray(values, dtype=float), 6) / width + 1e-9).astype(int)


def histogram_table(ap: ArrayLike, amounts: ArrayLike = AMOUNTS, width: float = 0.05) -> pd.DataFrame:
    """Histogram counts of the boosted scores, split into boosted and unchanged topics.

    Returns
    -------
    DataFrame
        Columns ``amount, which, bin_start, bin_end, part, count``; only
        non-empty bins. A score s falls in the bin with
        ``bin_start <= s < bin_end``.

    Examples
    --------
    >>> h = histogram_table([0.0, 0.01, 0.3, 0.6], [0.05], width=0.1)
    >>> h.query("which == 'lowest'")[["bin_start", "part", "count"]].values.tolist()
    [[0.0, 'boosted', 2], [0.3, 'unchanged', 1], [0.6, 'unchanged', 1]]
    """
    a = np.asarray(ap, dtype=float)
    frames = []
    for amount in np.asarray(amounts, dtype=float):
        for which in CHOICES:
            b = robertson.boost(a, amount, which)
            part = np.where(np.isclose(b - a, amount, rtol=0, atol=1e-12) & (amount > 0), "boosted", "unchanged")
            f = pd.DataFrame({"bin": _bin_index(b, width), "part": part})
            counts = f.groupby(["bin", "part"]).size().reset_index(name="count")
            counts.insert(0, "which", which)
            counts.insert(0, "amount", float(amount))
            frames.append(counts)
    out = pd.concat(frames, ignore_index=True)
    out.insert(2, "bin_start", np.round(out.pop("bin") * width, 6))
    out.insert(3, "bin_end", np.round(out.bin_start + width, 6))
    return out


def histogram_chart(ap: ArrayLike, width: float = 0.05, eps: float = EPS) -> alt.TopLevelMixin:
    """The scores' histogram, with MAP and GMAP marked: Robertson's Figure 1 for ``ap``.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(histogram_chart([0.0, 0.2, 0.5]), "A histogram.")
    >>> len(spec["layer"])
    3
    """
    counts = histogram_table(ap, [0.0], width).query("which == 'all'")  # a boost of 0: the scores as they are
    m, g = robertson.boosted_means(ap, 0.0, "none", eps)
    ymax = _ymax(counts)
    means = alt.Chart(pd.DataFrame({"mean": ["MAP", "GMAP"], "value": [m, g]}))
    bars = (
        alt.Chart(counts)
        .mark_bar(color=OKABE_ITO[1], stroke="white")
        .encode(
            x=alt.X(
                "bin_start:Q",
                bin="binned",
                title="Average precision",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(tickCount=10),
            ),
            x2="bin_end:Q",
            y=alt.Y("count:Q", title="Topics", scale=alt.Scale(domain=[0, ymax])),
            tooltip=[
                alt.Tooltip("bin_start:Q", title="from", format=".2f"),
                alt.Tooltip("bin_end:Q", title="below", format=".2f"),
                "count:Q",
            ],
        )
    )
    return alt.layer(bars, *_mean_rules(means, ymax)).properties(width=460, height=220)


# Height of the histograms' count axis: above the tallest bar of any setting of the figure, and at least this.
_YMAX = 14


def _ymax(counts: pd.DataFrame) -> int:
    """The count axis's height for these histograms (:func:`histogram_table`'s rows): room above the tallest bar."""
    tallest = counts.groupby(["amount", "which", "bin_start"])["count"].sum().max()
    return max(_YMAX, int(tallest) + 2)


#: When GMAP's label goes to the left of its line: where the scores' axis (0 to 1) has room for it.
_GMAP_LEFT = "datum.mean == 'GMAP' && datum.value > 0.2"


def _mean_rules(means: alt.Chart, ymax: float = _YMAX) -> tuple[alt.Chart, alt.Chart]:
    """Vertical rules at MAP (solid) and GMAP (dashed), labelled with their values near the top, ``ymax``.

    ``means`` is a chart whose rows have ``mean`` ("MAP" or "GMAP") and ``value``.
    """
    dash = alt.StrokeDash("mean:N", scale=alt.Scale(domain=["MAP", "GMAP"], range=[[1, 0], [6, 3]]), title="Mean")
    rules = means.mark_rule(color="#000000", strokeWidth=2).encode(
        x="value:Q", strokeDash=dash, tooltip=["mean:N", alt.Tooltip("value:Q", format=".3f")]
    )
    text = (
        means.transform_calculate(
            label="[datum.mean, format(datum.value, '.3f')]",  # two short lines: narrow enough between the rules
            ypos=f"datum.mean == 'MAP' ? {ymax - 0.6} : {ymax - 2}",
        )
        # GMAP is never above MAP: its label goes to the left of its line where there is room, so that
        # the MAP line, close on its right, does not cross it.
        .mark_text(
            align=alt.ExprRef(f"{_GMAP_LEFT} ? 'right' : 'left'"),
            dx=alt.ExprRef(f"{_GMAP_LEFT} ? -4 : 4"),
            fontWeight="bold",
        )
        .encode(x="value:Q", y="ypos:Q", text="label:N")
    )
    return rules, text


def boost_chart(
    ap: ArrayLike,
    amounts: ArrayLike = AMOUNTS,
    initial_amount: float = BOOST,
    initial_which: str = WHICH,
    width: float = 0.05,
    eps: float = EPS,
) -> alt.TopLevelMixin:
    """Chapter 5's interactive figure: boost size and which topics, the histogram, MAP and GMAP.

    A slider sets the boost, a select which topics get it. Left: the histogram
    of the boosted scores with MAP and GMAP marked. Right: MAP and GMAP against
    the boost size, a line per choice, the current setting ringed.

    Examples
    --------
    >>> from irmeans_book.plots import to_spec
    >>> spec = to_spec(boost_chart([0.0, 0.1, 0.3, 0.6], [0.0, 0.05]), "Boosts.")
    >>> sorted(p["name"] for p in spec["params"])
    ['amount', 'which']
    """
    offered = choices(np.size(ap))
    if initial_which not in offered:
        raise ValueError(f"initial_which must be one of {list(offered)}, got {initial_which!r}")
    a = np.asarray(amounts, dtype=float)
    table = boost_table(ap, a, eps)
    hist = histogram_table(ap, a, width)
    hist["label"] = hist.which.map(offered)
    ymax = _ymax(hist)
    amount = slider_param("amount", a, initial_amount, "Boost added ")
    labels = list(offered.values())
    which = alt.param(
        name="which",
        value=offered[initial_which],
        bind=alt.binding_select(options=labels, name="Topics boosted "),
    )
    pick = "abs(datum.amount - amount) < 1e-9 && datum.label == which"

    bars = (
        alt.Chart(hist)
        .transform_filter(pick)
        .mark_bar()
        .encode(
            x=alt.X(
                "bin_start:Q",
                bin="binned",
                title="Average precision after the boost",
                scale=alt.Scale(domain=[0, 1]),
                axis=alt.Axis(tickCount=10),
            ),
            x2="bin_end:Q",
            y=alt.Y("count:Q", title="Topics", stack="zero", scale=alt.Scale(domain=[0, ymax])),
            # The unchanged topics' bars are hollow, outlined in their colour, and the legend says so: boosted and
            # unchanged are told apart by more than their colour.
            color=alt.Color(
                "part:N",
                title="Topic",
                scale=alt.Scale(domain=list(_PART_COLOURS), range=list(_PART_COLOURS.values())),
                legend=alt.Legend(labelExpr=f"{_PART_LABELS}[datum.label]"),
            ),
            fillOpacity=alt.condition("datum.part === 'unchanged'", alt.value(0.15), alt.value(1.0)),
            stroke=alt.Stroke(
                "part:N",
                legend=None,
                scale=alt.Scale(domain=list(_PART_COLOURS), range=["#FFFFFF", _PART_COLOURS["unchanged"]]),
            ),
            strokeWidth=alt.condition("datum.part === 'unchanged'", alt.value(1.5), alt.value(1.0)),
            order=alt.Order("part:O"),
            tooltip=[
                alt.Tooltip("bin_start:Q", title="from", format=".2f"),
                alt.Tooltip("bin_end:Q", title="below", format=".2f"),
                "part:N",
                "count:Q",
            ],
        )
    )
    chosen = (
        alt.Chart(table)
        .transform_filter(pick)
        .transform_fold(["map", "gmap"], as_=["key", "value"])
        .transform_calculate(mean="datum.key == 'map' ? 'MAP' : 'GMAP'")
    )
    histogram = alt.layer(bars, *_mean_rules(chosen, ymax)).properties(
        width=380, height=260, title=f"The {np.size(ap)} scores after the boost"
    )

    colour = alt.Color(
        "label:N", title="Topics boosted", scale=alt.Scale(domain=labels, range=_CHOICE_COLOURS), sort=labels
    )
    # Each choice's line has dashes of its own, in the legend too: told apart by more than their colour.
    dash = alt.StrokeDash(
        "label:N", title="Topics boosted", scale=alt.Scale(domain=labels, range=_CHOICE_DASHES), sort=labels
    )

    # The means' axis: 0 to 0.45, or to the largest mean if that is higher.
    top = max(0.45, float(np.ceil(table[["map", "gmap"]].to_numpy().max() * 20) / 20))

    def panel(field: str, title: str) -> alt.LayerChart:
        base = alt.Chart(table).encode(
            x=alt.X("amount:Q", title="Boost added to each chosen score"),
            y=alt.Y(f"{field}:Q", title=title, scale=alt.Scale(domain=[0, top])),
        )
        lines = base.mark_line(strokeWidth=2).encode(
            color=colour,
            strokeDash=dash,
            tooltip=["label:N", alt.Tooltip("amount:Q", format=".3f"), alt.Tooltip(f"{field}:Q", format=".3f")],
        )
        # MAP's lines for the two halves coincide: the lowest half's is drawn again, on top, so both show.
        again = (
            base.transform_filter("datum.which == 'lowest'")
            .mark_line(strokeWidth=2)
            .encode(color=colour, strokeDash=dash)
        )
        now = base.transform_filter(pick).mark_point(size=140, filled=False, strokeWidth=2.5, color="#000000")
        value = (
            base.transform_filter(pick)
            .mark_text(align="right", dx=-10, dy=-10, fontWeight="bold")
            .encode(text=alt.Text(f"{field}:Q", format=".3f"))
        )
        return alt.layer(lines, again, now, value).properties(width=210, height=120, title=title)

    readout = (
        alt.Chart(table)
        .transform_filter(pick)
        .transform_calculate(
            text=(
                "'MAP ' + format(datum.map, '.3f') + ' (' + format(datum.map_gain, '+.3f') + '),  GMAP ' + "
                "format(datum.gmap, '.3f') + ' (' + format(datum.gmap_gain, '+.3f') + ')'"
            )
        )
        .mark_text(align="left", fontSize=13, fontWeight="bold")
        .encode(text="text:N", x=alt.value(0))
        .properties(width=380, height=18, view=alt.ViewConfig(stroke=None))
    )
    right = alt.vconcat(panel("map", "MAP"), panel("gmap", f"GMAP (ε = {_short(eps)})"))
    chart: alt.TopLevelMixin = (
        alt.hconcat(alt.vconcat(histogram, readout), right)
        .add_params(amount, which)
        .resolve_scale(color="independent", strokeDash="independent")
    )
    return chart


def _short(x: float) -> str:
    """A number as the figures print it: 1e-5, 0.01.

    Examples
    --------
    >>> _short(1e-5), _short(0.01)
    ('1e-5', '0.01')
    """
    return f"{x:g}".replace("e-0", "e-")


def describe_boost(ap: ArrayLike, amount: float, which: str, eps: float = EPS) -> str:
    """One line: MAP and GMAP after a boost, and their gains.

    Examples
    --------
    >>> print(describe_boost(robertson.load_example(), 0.05, "highest"))
    +0.050 to highest 25: MAP 0.3340 (+0.0250), GMAP 0.1233 (+0.0065)
    """
    m0, g0 = robertson.boosted_means(ap, 0.0, "none", eps)
    m, g = robertson.boosted_means(ap, amount, which, eps)
    return f"{amount:+.3f} to {choices(np.size(ap))[which]}: MAP {m:.4f} ({m - m0:+.4f}), GMAP {g:.4f} ({g - g0:+.4f})"


def boost_controls(
    ap: ArrayLike = EXAMPLE["ap"], amount: float = BOOST, which: str = WHICH, eps: float = EPS
) -> LiveFigure:
    """A slider for the boost and a dropdown for which topics get it, redrawing chapter 5's figure for ``ap``.

    They start where Figure 5.2 does: ``amount`` added to the ``which`` topics.

    Examples
    --------
    >>> live = boost_controls(robertson.load_example())
    >>> live.widgets["which"].value = "highest"
    >>> live.figure.spec["description"]
    '+0.050 to highest 25: MAP 0.3340 (+0.0250), GMAP 0.1233 (+0.0065)'
    """
    import ipywidgets as w

    def draw(amount: float, which: str) -> VegaLiteFigure:
        amount = float(np.round(amount, 3))
        chart = boost_chart(ap, initial_amount=amount, initial_which=which, eps=eps)
        return show(chart, alt=describe_boost(ap, amount, which, eps), controls=False)

    offered = choices(np.size(ap))
    return LiveFigure(
        {
            "amount": AMOUNT.float_slider(amount, "Boost", readout_format=".3f"),
            "which": w.Dropdown(
                options=[(label, key) for key, label in offered.items()], value=which, description="Topics"
            ),
        },
        draw,
    )


def histogram_alt(ap: ArrayLike, eps: float = EPS) -> str:
    """Figure 5.1's alt text, for these AP values."""
    a = np.asarray(ap, dtype=float)
    m, g = robertson.boosted_means(a, 0.0, "none", eps)
    first = int((_bin_index(a, 0.05) == 0).sum())
    return (
        f"Histogram of the {a.size} AP values in bins of 0.05. {first} of them are in the first bin "
        f"({int((a == 0).sum())} zeros), {int((a < 0.2).sum())} lie below 0.2, and the largest is "
        f"{a.max():.2f}. A solid line marks MAP at {m:.3f} and a dashed line GMAP at {g:.3f}."
    )


def histogram_figure(ap: ArrayLike = EXAMPLE["ap"], eps: float = EPS) -> VegaLiteFigure:
    """Figure 5.1 for these AP values: their histogram, with MAP and GMAP (additive ``eps``) marked.

    Examples
    --------
    >>> histogram_figure([0.0, 0.3, 0.32]).spec["description"][:62]
    'Histogram of the 3 AP values in bins of 0.05. 1 of them are in'
    """
    return show(histogram_chart(ap, eps=eps), alt=histogram_alt(ap, eps))


def boost_alt(ap: ArrayLike, amount: float = BOOST, which: str = WHICH, eps: float = EPS) -> str:
    """Figure 5.2's alt text, for these AP values and the setting it starts at."""
    a = np.asarray(ap, dtype=float)
    labels = choices(a.size)
    top = float(AMOUNTS.max())
    gains = {w: describe_boost(a, top, w, eps).split(": ", 1)[1] for w in ("lowest", "highest")}
    return (
        f"Left: histogram of the {a.size} AP values after adding the chosen boost to the chosen topics, boosted "
        "topics in solid vermilion and the others in hollow blue, with lines at MAP and GMAP and their "
        f"values below. Right: MAP and GMAP against the boost from 0 to {top:g}, a line each for "
        f"{', '.join(labels.values())} topics boosted, all starting from no boost at 0. The MAP lines of the two "
        f"halves coincide. At a boost of {top:g}, the {labels['lowest']}: {gains['lowest']}; the "
        f"{labels['highest']}: {gains['highest']}."
    )


def boost_figure(
    ap: ArrayLike = EXAMPLE["ap"], amount: float = BOOST, which: str = WHICH, eps: float = EPS
) -> VegaLiteFigure:
    """Figure 5.2 for these AP values: the controls start at ``amount`` added to the ``which`` topics (by default
    :data:`BOOST`, 0.05, to the :data:`WHICH`, lowest, half).

    Examples
    --------
    >>> fig = boost_figure([0.0, 0.1, 0.3, 0.6], amount=0.02, which="all")
    >>> [p["value"] for p in fig.spec["params"]]
    [0.02, 'all 4']
    """
    chart = boost_chart(ap, initial_amount=amount, initial_which=which, eps=eps)
    return show(chart, alt=boost_alt(ap, amount, which, eps), state=boost_state(ap, eps))


def boost_state(ap: ArrayLike, eps: float = EPS) -> Callable[..., str]:
    """Figure 5.2's words for a setting of its controls, ``state(amount, which)`` (``which`` as the select shows
    it, "lowest 25"): MAP and GMAP after the boost and their gains, as its read-out prints them.

    Examples
    --------
    >>> boost_state(robertson.load_example())(0.05, "highest 25")
    'A boost of 0.05 to the highest 25 topics: MAP 0.334 (+0.025), GMAP 0.123 (+0.006).'
    """
    by_label = {label: key for key, label in choices(np.size(ap)).items()}
    m0, g0 = robertson.boosted_means(ap, 0.0, "none", eps)

    def state(amount: float, which: str) -> str:
        m, g = robertson.boosted_means(ap, amount, by_label[which], eps)
        return (
            f"A boost of {amount:g} to the {which} topics: MAP {m:.3f} ({m - m0:+.3f}), GMAP {g:.3f} ({g - g0:+.3f})."
        )

    return state


def paper_table(ap: ArrayLike, amounts: ArrayLike = AMOUNTS, eps: float = EPS) -> pd.DataFrame:
    """What the second figure shows at each setting of its slider, for paper (:mod:`irmeans_book.paper`):
    MAP and GMAP after the boost, for each choice of topics.

    Examples
    --------
    >>> t = paper_table([0.0, 0.5], [0.0, 0.1])
    >>> t.loc[0.1, ("lowest 1", "MAP")]
    np.float64(0.3)
    """
    t = boost_table(ap, amounts, eps)
    table = t.pivot(index="amount", columns="label", values=["map", "gmap"]).round(4)
    labels = list(dict.fromkeys(t.label))
    table = table.swaplevel(axis=1)[[(label, m) for label in labels for m in ("map", "gmap")]]
    table = table.rename(columns={"map": "MAP", "gmap": "GMAP"}, level=1)
    table.index.name, table.columns.names = "boost", [None, None]
    return table


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {
    "fig-ch5-histogram": histogram_figure,
    "fig-ch5-boost": boost_figure,
}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------

CH5_EPS = 1e-5
CH5_BOOST = BOOST


@selfcheck("sc-ch5-map-ten")
def ch5_map_ten() -> Number:
    """How much MAP rises when the 10 lowest topics gain the chapter's boost, 0.05: 10 x 0.05 / 50."""
    from irmeans_book import robertson

    ap = robertson.load_example()
    boosted = ap.copy()
    boosted[np.argsort(ap, kind="stable")[:10]] += CH5_BOOST
    gain = irmeans.arithmetic_mean(boosted) - irmeans.arithmetic_mean(ap)
    assert np.isclose(gain, 10 * CH5_BOOST / ap.size)
    return Number(float(gain), decimals=4)


CH5_ZEROS = f"the three zeros raised to {CH5_BOOST:g}"
CH5_TOP = f"the 25 highest topics raised by {CH5_BOOST:g} each"


@selfcheck("sc-ch5-zeros-or-top")
def ch5_zeros_or_top() -> Choice:
    """Which change raises GMAP (ε = 10⁻⁵) more: three zeros to 0.05, or 0.05 on each of the 25 highest."""
    from irmeans_book import robertson

    ap = robertson.load_example()
    zeros = np.where(ap == 0, CH5_BOOST, ap)
    top = robertson.boost(ap, CH5_BOOST, "highest")
    assert (ap == 0).sum() == 3
    gmap = {CH5_ZEROS: irmeans.geometric_mean(zeros, eps=CH5_EPS), CH5_TOP: irmeans.geometric_mean(top, eps=CH5_EPS)}
    return Choice((CH5_ZEROS, CH5_TOP), winner(gmap))


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE = {
    "live": "fig-ch5-boost",
    "lines": {
        "ap = robertson.load_example()  # the 50 AP values of the reconstruction, as stored": (
            "ap = np.linspace(0.02, 0.8, 41)  # a reader's own 41 topics"
        ),
    },
    "named": {
        "checks that the seeded search gives them again",
        "exactly three zeros and three values of 0.01",
        "Every figure he prints is reproduced",
        "MAP rises by the same 0.025 either way",
        "the three zeros alone supply",
    },
    "figures": {"fig-ch5-histogram": [0.41], "fig-ch5-boost": [0.8]},
    "params": {"fig-ch5-boost": {"which": "lowest 20", "amount": 0.05}},
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS = [
    ("90", "the share of the runs the text's range covers, from the 5th to the 95th percentile (book code)"),
    (
        "0.05 25 50 0.025",
        "Robertson's thought experiment (§3, cited): 0.05 more on 25 of 50 topics, 25 × 0.05 / 50",
    ),
    ("0.2", "Robertson's description of his values (§3, cited): half of them below 0.2"),
    ("2 3", "the improvements numbered in the list"),
    ("0.00 0.70 0.75", "the illustration: a topic lifted from 0.00 to 0.05 against one from 0.70 to 0.75"),
    ("0.005 500", "the figure's smallest boost, 0.005 (book code), which is 500 times ε"),
    ("10 0.3", "the self-checks' settings: the 10 hardest topics; values around 0.3"),
    ("0.1", "the book's line for a low score, Ravana and Moffat's (≤ 0.1, as chapter 9 counts them)"),
]
