"""On a phone, no two labels of a figure's axis run into each other; at either width, the labels a figure keeps
are evenly spaced.

At 390 px the figures are narrow, and labels Vega lays out one per tick ran together: "0.00.1" and
"0.91.0" under Figs. 2.1, 5.1, 5.2 and 8.1. The book's figures leave out a label that would come
closer than a few pixels to its neighbour (irmeans_book.plots.to_spec); each figure of each
chapter is measured as the browser draws it. Labels are left out evenly (every other one, not the
first or last where it crowds the axis's end: Fig. 5.2 read 0.00, 0.04, 0.06, 0.08).
"""

from __future__ import annotations

import math

from svg_labels import overlapping
from test_site_figure_contrast import has_figures
from visit import reading

#: The boxes of each figure's axis labels as drawn, by figure: {figure: [{text, x0, y0, x1, y1}]}.
AXIS_LABELS = """() => {
  const drawn = (t) => { for (let e = t; e && e.tagName !== "svg"; e = e.parentElement) if (parseFloat(getComputedStyle(e).opacity) === 0) return false; return true; };
  const out = {};
  for (const fig of document.querySelectorAll(".irmeans-figure")) {
    const caption = fig.closest("figure") && fig.closest("figure").querySelector(".caption-number");
    const name = caption ? caption.textContent.trim() : fig.id;
    // One axis at a time: labels of two axes may meet at a corner.
    fig.querySelectorAll("svg g.role-axis").forEach((axis, i) => {
      const boxes = Array.from(axis.querySelectorAll("g.role-axis-label text")).filter((t) => t.textContent.trim() && drawn(t)).map((t) => {
        const r = t.getBoundingClientRect();
        return { text: t.textContent.trim(), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
      });
      out[name + " axis " + i] = boxes;
    });
  }
  return out;
}"""
#: Two labels of one axis must stand this many px apart (boxes that touch read as one label).
GAP = 2


@reading("axis labels", modes=("light",), pages=has_figures)
def _axis_labels(page, where):
    return page.evaluate(AXIS_LABELS)


def test_no_two_labels_of_an_axis_run_together_on_a_phone(tour):
    found, axes = {}, 0
    for (path, width, _), figures in tour.found("axis labels").items():
        if width != 390:
            continue
        for name, boxes in figures.items():
            axes += 1
            if close := overlapping(boxes, slack=-GAP):
                found[f"{path}: {name}"] = close[:4]
    assert axes > 30, axes
    assert not found, found


def _numbers(boxes: list[dict]) -> list[float] | None:
    """The labels' values in the order they are drawn (left to right, or bottom to top), None if one is not a number."""
    try:
        values = [float(b["text"].replace("\u2212", "-")) for b in boxes]
    except ValueError:
        return None
    xs = [(b["x0"] + b["x1"]) / 2 for b in boxes]
    ys = [(b["y0"] + b["y1"]) / 2 for b in boxes]
    along = xs if max(xs) - min(xs) >= max(ys) - min(ys) else [-y for y in ys]  # a horizontal axis, or a vertical
    return [v for _, v in sorted(zip(along, values))]


def uneven(values: list[float]) -> bool:
    """Whether the values of an axis's labels are not evenly spaced, on a linear scale or a log scale.

    >>> uneven([0.0, 0.02, 0.04, 0.06]), uneven([1e-05, 0.001, 0.1]), uneven([0.0, 0.04, 0.06, 0.08])
    (False, False, True)
    """
    steps = [b - a for a, b in zip(values, values[1:])]
    if all(math.isclose(s, steps[0], rel_tol=1e-6, abs_tol=1e-12) for s in steps):
        return False
    if all(v > 0 for v in values):
        ratios = [b / a for a, b in zip(values, values[1:])]
        return not all(math.isclose(r, ratios[0], rel_tol=1e-6) for r in ratios)
    return True


def test_the_labels_an_axis_keeps_are_evenly_spaced(tour):
    found, axes = {}, 0
    for (path, width, _), figures in tour.found("axis labels").items():
        for name, boxes in figures.items():
            values = _numbers(boxes) if len(boxes) >= 3 else None
            if values is None:
                continue
            axes += 1
            if uneven(values):
                found[f"{path} at {width} px: {name}"] = [b["text"] for b in boxes]
    assert axes > 30, axes
    assert not found, found


#: Each line of text each figure draws (a text of several lines, each of its lines), by figure.
TEXT_LINES = """() => {
  const out = {};
  for (const fig of document.querySelectorAll(".irmeans-figure")) {
    const caption = fig.closest("figure") && fig.closest("figure").querySelector(".caption-number");
    const lines = [];
    for (const t of fig.querySelectorAll("svg g.role-mark text")) {
      const spans = t.querySelectorAll("tspan");
      (spans.length ? Array.from(spans) : [t]).forEach((s) => lines.push(s.textContent.trim()));
    }
    out[caption ? caption.textContent.trim() : fig.id] = lines;
  }
  return out;
}"""


@reading("figure text lines", widths=(390,), modes=("light",), pages=lambda path: path.endswith("07-map-gmap-mrr.html"))
def _figure_text_lines(page, where):
    return page.evaluate(TEXT_LINES)


def test_fig_7_1s_readout_lines_name_their_values_on_a_phone(tour):
    """Fig. 7.1's read-out broke between its names and their values at 390 px ("MAP" above "0.3090 →
    0.3516"): each of its lines is a name and its values."""
    lines = [line for figures in tour.found("figure text lines").values() for line in figures.get("Fig. 7.1", [])]
    readout = [line for line in lines if line.startswith(("MAP", "GMAP", "t on"))]
    assert len(readout) >= 4, lines
    bare = [line for line in readout if not any(ch.isdigit() for ch in line)]
    assert not bare, f"names apart from their values: {bare}"
