"""Chapter figures: one module per chapter, the one home of that chapter's example data, the
grids of its sliders, and the calls that make its figures as the chapter shows them.

Each module precomputes its chapter's interactive figures with the library; the
chapter, its self-check answers (:mod:`irmeans_book.selfcheck`), its live
ipywidgets controls and ``make figures`` all take the data and grids from it.
Its ``FIGURES`` maps each of the chapter's numbered figures, by label, to the
call that makes it.

The plumbing they share (showing a chart, its alt text, the palette, inline
data, a slider's grid) is in :mod:`irmeans_book.plots`.
"""

from __future__ import annotations

import importlib

__all__ = ["CHAPTERS", "chapter_modules"]

#: The modules of the chapters' figures, in the book's order (chapter 9 has two).
CHAPTERS = (
    "introduction",
    "ranked_lists",
    "scales",
    "averaging",
    "boost",
    "epsilon",
    "verdicts",
    "logit",
    "split_half",
    "replication",
)


def chapter_modules():
    """The chapters' figure modules, imported, in the book's order."""
    return [importlib.import_module(f"{__name__}.{name}") for name in CHAPTERS]
