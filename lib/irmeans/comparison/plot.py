"""The plot of a comparison: each pair's per-topic differences, sorted, on each average's own scale.

A bar per topic, from the topic A gains most on to the one it loses most on, in a grid of
panels: a row per pair of systems, a column per average, each column on its average's scale
(the scores for the AM, log(x + ε) for the εGM, log-odds for the logit mean), since that is
the scale on which the average adds the topics up. A pair whose averages disagree shows why:
a few topics far below 0 on the log scale that the raw scores barely show.

:func:`.plot_drawing.save_topic_differences` draws it as a static figure, SVG or PNG, with matplotlib's own
renderers (its SVG writer and Agg, the ``irmeans[plot]`` extra; no display, no browser, nothing
fetched): the largest figure ``irmeans compare --plot`` draws, 25 pairs x 3 averages x 250 topics,
in about a second, in a few hundred MB whatever the address-space limit, and Ctrl-C stops it at
once. (It was drawn with vl-convert's in-process V8, which reserves tens of GB of address space,
so that a ``ulimit -v`` of 16 GiB killed it, cannot be interrupted, took 30 to 50 s for that
figure and aborted on a control character in a name.) The file is written beside its target
under another name and renamed onto it once it is whole, so a failed write never replaces a
good earlier plot. Names (pairs, topics) are shown with their control characters, and bytes that
are not UTF-8, as escapes, each on one line.

:func:`topic_differences_spec` gives the same figure as a Vega-Lite
spec (a plain dict), for a notebook or a page that draws it with Altair or Vega.

>>> import numpy as np
>>> spec = topic_differences_spec(["A - B"], ["AM: x"], ["401", "402"], np.array([[[0.5, -0.25]]]))
>>> spec["facet"]["row"]["field"], [v["difference"] for v in spec["data"]["values"]]
('pair', [0.5, -0.25])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._display import shown
from ..errors import IrmeansError

__all__ = [
    "topic_differences_spec",
    "sorted_panels",
    "shown_name",
    "PLOT_FORMATS",
    "PALETTE",
    "NEEDS",
]

#: The bars' colours, A better, B better, a tie: Okabe and Ito's blue, orange and grey, which readers with any
#: common colour-vision deficiency tell apart (red against green is the pair most of them cannot).
PALETTE = ("#0072B2", "#E69F00", "#999999")

#: File extensions a plot is written as.
PLOT_FORMATS = (".svg", ".png")

#: What drawing a plot needs, as a message says it.
NEEDS = "drawing a plot needs matplotlib: pip install 'irmeans[plot]' (or pip install matplotlib)"

#: The figure's words, and its panels' height in pixels (their width: :func:`panel_width`).
TITLE = "Per-topic differences, A - B, on each average's scale"
X_TITLE = "topic, sorted by difference"
LEGEND_TITLE = "better on the topic"
PANEL_HEIGHT = 110


def sorted_panels(differences: np.ndarray) -> np.ndarray:
    """Each panel's topics from the largest difference to the smallest (ties in the topics' order, NaN last):
    ``order[pair, column]`` indexes the topics of ``differences[pair, column]``.

    >>> sorted_panels(np.array([[[0.1, 0.5, -0.2]]])).tolist()
    [[[1, 0, 2]]]
    """
    d = np.asarray(differences, dtype=np.float64)
    return np.argsort(np.where(np.isnan(d), np.inf, -d), axis=-1, kind="stable")


def shown_name(name: object) -> str:
    """A name as a figure shows it: control and other non-printing characters as escapes (``\\x01``, ``\\n``),
    bytes that were not UTF-8 (read as lone surrogates) as ``\\xff``, so that two names never look the same
    and nothing in a name acts on what shows it: as a terminal shows it (:func:`irmeans._display.shown`).

    >>> shown_name("run\\x1b[2J"), shown_name("b\\udcffd"), shown_name("εGM 検索")
    ('run\\\\x1b[2J', 'b\\\\xffd', 'εGM 検索')
    """
    return shown(str(name))


def check_differences(
    pairs: Sequence[str], columns: Sequence[str], topics: Sequence[str], differences: Any
) -> np.ndarray:
    """``differences`` as a float array of shape (pairs, columns, topics), or an
    :class:`~irmeans.IrmeansError` naming the shape it has and the one it needs.

    >>> check_differences(["A-B"], ["map"], ["401", "402"], [[[0.1, -0.2]]]).shape
    (1, 1, 2)
    """
    d = np.asarray(differences, dtype=np.float64)
    if d.shape != (len(pairs), len(columns), len(topics)):
        raise IrmeansError(
            f"differences of shape {d.shape} for {len(pairs)} pairs, {len(columns)} columns and {len(topics)} topics"
        )
    return d


def panel_width(n_topics: int) -> int:
    """A panel's width in pixels: 6 a topic, from 120 to 360."""
    return max(120, min(360, 6 * n_topics))


def topic_differences_spec(
    pairs: Sequence[str], columns: Sequence[str], topics: Sequence[str], differences: np.ndarray, title: str = ""
) -> dict[str, Any]:
    """A Vega-Lite spec of per-topic differences: ``differences[pair, column, topic]``, a panel per pair and column.

    Each panel's topics are sorted from the largest difference to the smallest and named on
    its axis; bars above 0 (A better) and below (B better) differ in colour (:data:`PALETTE`,
    safe for colour-blind readers), and every bar's tooltip names its topic.
    """
    d = check_differences(pairs, columns, topics, differences)
    order = sorted_panels(d)
    values = []
    for i, pair in enumerate(pairs):
        for j, column in enumerate(columns):
            for rank, t in enumerate(order[i, j].tolist()):
                v = float(d[i, j, t])
                values.append(
                    {
                        "pair": pair,
                        "scale": column,
                        "topic": str(topics[t]),
                        "rank": rank + 1,
                        "difference": v,
                        "better": "A" if v > 0 else ("B" if v < 0 else "tie"),
                    }
                )
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "description": "Per-topic differences A - B of each compared pair, sorted, on each average's scale.",
        "title": {"text": TITLE, "subtitle": title},
        "data": {"values": values},
        "facet": {
            "row": {"field": "pair", "type": "nominal", "sort": list(pairs), "title": None},
            "column": {"field": "scale", "type": "nominal", "sort": list(columns), "title": None},
        },
        "resolve": {"scale": {"x": "independent", "y": "independent"}},
        "spec": {
            "width": panel_width(len(topics)),
            "height": PANEL_HEIGHT,
            "mark": {"type": "bar"},
            "encoding": {
                "x": {
                    "field": "topic",
                    "type": "ordinal",
                    "sort": {"field": "rank"},
                    "title": X_TITLE,
                    "axis": {"labelAngle": -90, "labelFontSize": 8, "labelOverlap": True},
                },
                "y": {"field": "difference", "type": "quantitative", "title": "difference"},
                "color": {
                    "field": "better",
                    "type": "nominal",
                    "scale": {"domain": ["A", "B", "tie"], "range": list(PALETTE)},
                    "legend": {"title": LEGEND_TITLE},
                },
                "tooltip": [
                    {"field": "topic", "type": "nominal"},
                    {"field": "difference", "type": "quantitative", "format": ".4f"},
                ],
            },
        },
    }
