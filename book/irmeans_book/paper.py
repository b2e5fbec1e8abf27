"""Tables for paper: what a figure shows at each setting of its controls, for the exercises done with them.

On the site and in JupyterLab some exercises ask the reader to move a figure's slider ("Find it with the
slider of Fig. 1.1"); on paper the figure stays at its starting setting. A chapter with such exercises
shows, after them, a table of what the figure would show at each setting, computed by the chapter's
module (``ch01.paper_table``, ...) from the chapter's data: a code cell tagged ``paper-only`` (with its
code removed), which the site hides (``irmeans.css``) and the PDF prints (``irmeans-print.css``).

Every number of a table's columns is printed with the same decimals (:data:`DECIMALS`, or those a
chapter's table asks for some of its columns in ``frame.attrs["decimals"]``), not as few as each
column happens to need, and a value that does not exist ("NaN") is printed "undefined", as the
site's read-outs say it. The settings (the index) are printed as the chapter gives them.

Examples
--------
>>> import numpy as np
>>> import pandas as pd
>>> t = table(pd.DataFrame({"y": [1.0, 0.25], "z": [0.5, np.nan]}, index=[0.1, 0.2]), "Two settings.")
>>> print(repr(t))
Two settings.
          y          z
0.1  1.0000     0.5000
0.2  0.2500  undefined
>>> "<table" in t._repr_html_() and 'class="irmeans-paper-table"' in t._repr_html_()
True
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from irmeans_book.prose import exercise, numref

__all__ = ["DECIMALS", "UNDEFINED", "PaperTable", "printed", "table", "title"]

#: The decimals of every number of a table for paper, unless its frame's ``attrs["decimals"]`` names a column's own.
DECIMALS = 4
#: What a table for paper prints for a value that does not exist (a harmonic mean of a zero, say).
UNDEFINED = "undefined"


@dataclass(frozen=True)
class PaperTable:
    """A table of values and the line above it that says what they are."""

    caption: str
    frame: pd.DataFrame

    def _repr_html_(self) -> str:
        return (
            '<div class="irmeans-paper-table">'
            f'<p class="irmeans-paper-caption">{html.escape(self.caption)}</p>'
            f"{printed(self.frame).to_html()}</div>"
        )

    def __repr__(self) -> str:
        return f"{self.caption}\n{printed(self.frame).to_string()}"


def printed(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as a table for paper prints it: each number column's values as text, with the column's decimals
    (:data:`DECIMALS`, or ``frame.attrs["decimals"][column]``), and :data:`UNDEFINED` for NaN.

    >>> frame = pd.DataFrame({"a": [0.28, 0.275], "b": [0.999007, float("nan")]})
    >>> frame.attrs["decimals"] = {"b": 6}
    >>> printed(frame).to_dict("list")
    {'a': ['0.2800', '0.2750'], 'b': ['0.999007', 'undefined']}
    """
    decimals = frame.attrs.get("decimals", {})
    shown = frame.copy()
    for column in frame.columns:
        if frame[column].dtype.kind != "f":
            continue
        places = decimals.get(column, DECIMALS)
        shown[column] = [UNDEFINED if value != value else f"{value:.{places}f}" for value in frame[column]]
    return shown


def table(frame: pd.DataFrame, caption: str) -> PaperTable:
    """``frame`` as a table for paper, under ``caption``."""
    return PaperTable(caption, frame)


def title(exercises: list[str], figure: str, controls: str, chapters: Path | None = None) -> str:
    """The line above a chapter's table: which exercises it serves, and what it shows of which figure.

    The exercises' and the figure's numbers are the site's (:func:`irmeans_book.prose.exercise`,
    :func:`irmeans_book.prose.numref`), read from the chapters in ``chapters`` (the current folder).
    """
    names = [exercise(label, chapters).text for label in exercises]
    which = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"For {which}, on paper: {numref(figure, chapters).text} {controls}."
