"""The plot of a comparison: each pair's per-topic differences, sorted, on each average's own scale.

A bar per topic, from the topic A gains most on to the one it loses most on, in a grid of
panels: a row per pair of systems, a column per average, each column on its average's scale
(the scores for the AM, log(x + ε) for the εGM, log-odds for the logit mean), since that is
the scale on which the average adds the topics up. A pair whose averages disagree shows why:
a few topics far below 0 on the log scale that the raw scores barely show.

The figure is a Vega-Lite spec, a plain dict built here without any plotting library;
:func:`save_spec` renders it to SVG or PNG with ``vl-convert-python`` (the ``irmeans[plot]``
extra), which draws it in-process and fetches nothing.

>>> import numpy as np
>>> spec = topic_differences_spec(["A - B"], ["AM: x"], ["401", "402"], np.array([[[0.5, -0.25]]]))
>>> spec["facet"]["row"]["field"], [v["difference"] for v in spec["data"]["values"]]
('pair', [0.5, -0.25])
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import IrmeansError

__all__ = ["topic_differences_spec", "save_spec", "PLOT_FORMATS", "PALETTE"]

#: The bars' colours, A better, B better, a tie: Okabe and Ito's blue, orange and grey, which readers with any
#: common colour-vision deficiency tell apart (red against green is the pair most of them cannot).
PALETTE = ("#0072B2", "#E69F00", "#999999")

#: File extensions :func:`save_spec` writes.
PLOT_FORMATS = (".svg", ".png")


def topic_differences_spec(
    pairs: Sequence[str], columns: Sequence[str], topics: Sequence[str], differences: np.ndarray, title: str = ""
) -> dict[str, Any]:
    """A Vega-Lite spec of per-topic differences: ``differences[pair, column, topic]``, a panel per pair and column.

    Each panel's topics are sorted from the largest difference to the smallest and named on
    its axis; bars above 0 (A better) and below (B better) differ in colour (:data:`PALETTE`,
    safe for colour-blind readers), and every bar's tooltip names its topic.
    """
    d = np.asarray(differences, dtype=np.float64)
    if d.shape != (len(pairs), len(columns), len(topics)):
        raise IrmeansError(
            f"differences of shape {d.shape} for {len(pairs)} pairs, {len(columns)} columns and {len(topics)} topics"
        )
    values = []
    for i, pair in enumerate(pairs):
        for j, column in enumerate(columns):
            order = np.argsort(-d[i, j], kind="stable")
            for rank, t in enumerate(order.tolist()):
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
    width = max(120, min(360, 6 * len(topics)))
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "description": "Per-topic differences A - B of each compared pair, sorted, on each average's scale.",
        "title": {"text": "Per-topic differences, A - B, on each average's scale", "subtitle": title},
        "data": {"values": values},
        "facet": {
            "row": {"field": "pair", "type": "nominal", "sort": list(pairs), "title": None},
            "column": {"field": "scale", "type": "nominal", "sort": list(columns), "title": None},
        },
        "resolve": {"scale": {"x": "independent", "y": "independent"}},
        "spec": {
            "width": width,
            "height": 110,
            "mark": {"type": "bar"},
            "encoding": {
                "x": {
                    "field": "topic",
                    "type": "ordinal",
                    "sort": {"field": "rank"},
                    "title": "topic, sorted by difference",
                    "axis": {"labelAngle": -90, "labelFontSize": 8, "labelOverlap": True},
                },
                "y": {"field": "difference", "type": "quantitative", "title": "difference"},
                "color": {
                    "field": "better",
                    "type": "nominal",
                    "scale": {"domain": ["A", "B", "tie"], "range": list(PALETTE)},
                    "legend": {"title": "better on the topic"},
                },
                "tooltip": [
                    {"field": "topic", "type": "nominal"},
                    {"field": "difference", "type": "quantitative", "format": ".4f"},
                ],
            },
        },
    }


def save_spec(spec: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Render a Vega-Lite ``spec`` to ``path``: SVG or PNG (at twice the pixels) by the file's extension.

    Raises
    ------
    IrmeansError
        Another extension, or ``vl-convert-python`` missing (``pip install 'irmeans[plot]'``).
    """
    path = os.fspath(path)
    ext = os.path.splitext(path)[1].lower()
    if ext not in PLOT_FORMATS:
        raise IrmeansError(f"{path}: a plot is written as {' or '.join(PLOT_FORMATS)}, by the file's extension")
    try:
        import vl_convert
    except ImportError:
        raise IrmeansError(
            "drawing a plot needs vl-convert-python: pip install 'irmeans[plot]' (or pip install vl-convert-python)"
        ) from None
    if ext == ".svg":
        data = vl_convert.vegalite_to_svg(spec, allowed_base_urls=[]).encode("utf-8")
    else:
        data = vl_convert.vegalite_to_png(spec, scale=2, allowed_base_urls=[])
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise IrmeansError(f"{path}: cannot write the plot ({exc.strerror or exc})") from None
