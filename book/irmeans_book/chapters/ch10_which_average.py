"""Chapter 10's code: its worked example and the answers of its self-check exercises.

The chapter's table of averages is computed in the notebook, from the two systems of its worked example
(:data:`SCORES_A`, :data:`SCORES_B`, which the notebook shows in the cell that uses them); its evidence on
consistency is chapter 9's :func:`irmeans_book.chapters.ch09_consistency.replication_tables`.

Examples
--------
>>> round(float(SCORES_A.mean()), 3), round(float(SCORES_B.mean()), 3)
(0.35, 0.245)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import irmeans
import numpy as np
from irmeans import ScoreMatrix
from numpy.typing import ArrayLike

from irmeans_book.plots import VegaLiteFigure, example
from irmeans_book.selfcheck import Choice, Number, selfcheck

__all__ = [
    "PROSE_NUMBERS",
    "READER_CHANGE",
    "SCORES_A",
    "SCORES_B",
    "EXAMPLE",
    "FIGURES",
    "ROBUST_PAIR",
    "robust_disagreeing_pair",
]

#: The worked example: A strong on most topics and failing outright on two, B never failing, never shining.
SCORES_A = example([0.62, 0.55, 0.48, 0.44, 0.41, 0.37, 0.33, 0.30, 0.0, 0.0])
SCORES_B = example([0.36, 0.34, 0.31, 0.29, 0.27, 0.25, 0.22, 0.20, 0.12, 0.09])

#: The chapter's example by the names its notebook gives it: checks of the text are strict on it (irmeans_book.claims).
EXAMPLE: dict[str, Any] = {"a": SCORES_A, "b": SCORES_B}

#: The pair of 2004 Robust track runs the chapter compares in full (MAP's preferred run first), which its
#: command line names: :func:`robust_disagreeing_pair` finds it, and the chapter checks that it still does.
ROBUST_PAIR = ("sys90", "sys27")


def robust_disagreeing_pair(matrix: ScoreMatrix) -> tuple[str, str]:
    """The pair of runs with the largest MAP difference among those MAP and trec_eval's GMAP order oppositely.

    Chapter 7's table (:func:`irmeans_book.chapters.ch07_map_gmap_mrr.disagreeing_pairs`), first row:
    the run MAP prefers, then the run GMAP prefers.

    Examples
    --------
    >>> from irmeans import datasets
    >>> robust_disagreeing_pair(datasets.load("robust2004", "ap")) == ROBUST_PAIR
    True
    """
    from irmeans_book.chapters.ch07_map_gmap_mrr import disagreeing_pairs

    first = disagreeing_pairs(matrix).iloc[0]
    return str(first.map_higher), str(first.gmap_higher)


#: The chapter's numbered figures: it has none.
FIGURES: dict[str, Callable[[], VegaLiteFigure]] = {}


# ---------------------------------------------------------------------------
# The self-check exercises' answers (irmeans_book.selfcheck), computed from the chapter's data
# ---------------------------------------------------------------------------

CH10_A = (0.0, 0.8, 0.8, 0.8)
CH10_B = (0.4, 0.4, 0.4, 0.4)
CH10_AVERAGES: dict[str, Callable[[ArrayLike], float | np.ndarray]] = {
    "the arithmetic mean": irmeans.arithmetic_mean,
    "the median": irmeans.median,
    "the geometric mean with ε = 0.01 added": lambda x: irmeans.geometric_mean(x, eps=0.01),
}


@selfcheck("sc-ch10-prefers-b")
def ch10_prefers_b() -> Choice:
    """The one average of three that prefers the flat system D to C, which fails one topic of four."""
    prefers_b = [name for name, mean in CH10_AVERAGES.items() if mean(CH10_B) > mean(CH10_A)]
    assert len(prefers_b) == 1, prefers_b
    return Choice(tuple(CH10_AVERAGES), prefers_b[0])


@selfcheck("sc-ch10-floor")
def ch10_floor() -> Number:
    """trec_eval's gm_map of system C: the floor form with ε = 10⁻⁵."""
    return Number(float(irmeans.geometric_mean(CH10_A, eps=irmeans.TREC_EVAL_GM_EPS, form="floor")), decimals=3)


#: What a reader changes in the chapter's data cells, and what the chapter then shows (tests/book/test_own_data.py):
#: the data lines as the chapter has them and as a reader changes them; the claims of the text the notes must then
#: name; the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must
#: start at the new data (``params``), and those whose alt text must describe it (``described``); the figure the
#: chapter's live controls redraw (``live``: they must start where it does), and its parameters they do not set
#: (``not_live``); what the "your scores" box must start with (``box``: None, that it is drawn; no key, no box).
READER_CHANGE: dict[str, Any] = {
    "lines": {
        "a = np.array([0.62, 0.55, 0.48, 0.44, 0.41, 0.37, 0.33, 0.30, 0.0, 0.0])": (
            "a = np.array([0.62, 0.55, 0.48, 0.44, 0.41, 0.37, 0.33, 0.30, 0.2, 0.1])"
        ),
    },
    "named": {"and the εHM prefer B", "B is the safer system"},
    "figures": {},
}

#: The numbers the chapter's prose types, each with where it comes from (tests/book/test_prose_numbers.py): the
#: numbers, separated by spaces, and their source. Every other number of its prose is computed where it is written.
PROSE_NUMBERS: list[tuple[str, str]] = [
    ("95", "the level of irmeans.compare's bootstrap intervals, its default"),
    ("0.05 0.02 0.04 0.4 0.8", "the table's illustrations: a gain of 0.05; 0.02 → 0.04 counts as 0.4 → 0.8"),
    ("0.25 0.3", "Robertson's illustration (§4, cited): GMAP counts 0.05 → 0.1 as 0.25 → 0.5, MAP as 0.25 → 0.3"),
    ("50", "an example of what to write, 'over 50 topics'"),
    ("0.9 0.7 0.0 0.6 -4.6 -11.5", "the exercise's scores and the logs of its two ε: log 0.01, log 10⁻⁵"),
    ("200 0.5 0.1", "the exercises' settings: 200 logged queries; mean AP around 0.5 and 0.1"),
]
