"""On a phone, no two labels of a figure's axis run into each other.

At 390 px the figures are narrow, and labels Vega lays out one per tick ran together: "0.00.1" and
"0.91.0" under Figs. 2.1, 5.1, 5.2 and 8.1. The book's figures leave out a label that would come
closer than a few pixels to its neighbour (irmeans_book.plots.to_spec); each figure of each
chapter is measured as the browser draws it.
"""

from __future__ import annotations

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


@reading("axis labels", widths=(390,), modes=("light",), pages=has_figures)
def _axis_labels(page, where):
    return page.evaluate(AXIS_LABELS)


def test_no_two_labels_of_an_axis_run_together_on_a_phone(tour):
    found, axes = {}, 0
    for (path, _, _), figures in tour.found("axis labels").items():
        for name, boxes in figures.items():
            axes += 1
            if close := overlapping(boxes, slack=-GAP):
                found[f"{path}: {name}"] = close[:4]
    assert axes > 30, axes
    assert not found, found
