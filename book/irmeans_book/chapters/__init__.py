"""The chapters' code: one module per chapter, named after it, the one home of that chapter's code.

``ch07_map_gmap_mrr`` is chapter 7's (``chapters/07-map-gmap-mrr.ipynb``): its
example data (which the notebook also shows, in the cell that first uses them,
for a reader to change), the functions that make its figures from any data, its
live ipywidgets controls, the averages of its "your scores" box, and the answers
of its self-check exercises (:mod:`irmeans_book.selfcheck`). A figure function
takes the data as arguments and returns the figure, with its alt text, ready to
show or to save for a slide (:meth:`irmeans_book.plots.VegaLiteFigure.save`);
each module's ``FIGURES`` maps the chapter's numbered figures, by label, to the
calls that make them with the book's data (``make figures``).

The plumbing the chapters share (showing a chart, its alt text, the palette,
inline data, a slider's grid, saving for slides) is in :mod:`irmeans_book.plots`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["CHAPTERS", "chapter_modules"]

#: The chapters' modules, in the book's order.
CHAPTERS = (
    "ch01_introduction",
    "ch02_ranked_lists",
    "ch03_scales",
    "ch04_averaging",
    "ch05_boost",
    "ch06_zeros_and_epsilon",
    "ch07_map_gmap_mrr",
    "ch08_logit",
    "ch09_consistency",
    "ch10_which_average",
)


def chapter_modules() -> list[ModuleType]:
    """The chapters' modules, imported, in the book's order."""
    return [importlib.import_module(f"{__name__}.{name}") for name in CHAPTERS]
