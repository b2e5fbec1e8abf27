"""On a phone, no two labels of a figure's axis run into each other.

At 390 px the figures are narrow, and labels Vega lays out one per tick ran together: "0.00.1" and
"0.91.0" under Figs. 2.1, 5.1, 5.2 and 8.1. The book's figures leave out a label that would come
closer than a few pixels to its neighbour (irmeans_book.plots.to_spec); each figure of each
chapter is measured as the browser draws it.
"""

from __future__ import annotations

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


def _too_close(boxes):
    return [
        (a["text"], b["text"])
        for i, a in enumerate(boxes)
        for b in boxes[i + 1 :]
        if min(a["x1"], b["x1"]) - max(a["x0"], b["x0"]) > -GAP and min(a["y1"], b["y1"]) - max(a["y0"], b["y0"]) > -GAP
    ]


@reading("axis labels", widths=(390,), modes=("light",), pages=has_figures)
def _axis_labels(page, where):
    return page.evaluate(AXIS_LABELS)


def test_no_two_labels_of_an_axis_run_together_on_a_phone(tour):
    found, axes = {}, 0
    for (path, _, _), figures in tour.found("axis labels").items():
        for name, boxes in figures.items():
            axes += 1
            if close := _too_close(boxes):
                found[f"{path}: {name}"] = close[:4]
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
