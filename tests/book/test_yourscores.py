"""The "your scores" box computes each average with the library's own formula, in Vega's expression language.

Vega itself (vl-convert's, the same engine as the site's) renders the box for
scores of every kind a reader may type (tests/your_scores_cases.py); every value it shows is the library's to the four decimals shown,
and every "higher" is the library's verdict. A Vega form that drifted from its
average's formula (a wrong ε, a missing "- ε", the floor where the additive form
is meant) fails here.
"""

from __future__ import annotations

import re

import pytest
import vl_convert as vlc
from irmeans.averages import AM, GM, HM, Logit, Median
from irmeans_book.plots import to_spec
from irmeans_book.yourscores import your_scores_chart
from your_scores_cases import CASES, random_cases, scores

AVERAGES = {
    "AM": AM(),
    "GM": GM(),
    "εGM 0.01": GM(eps=0.01),
    "εGM 3": GM(eps=3.0),
    "floor": GM(eps=1e-5, form="floor"),
    "zeros": GM(eps=1e-5, form="zeros"),
    "HM": HM(),
    "εHM 0.01": HM(eps=0.01),
    "median": Median(),
    "logit": Logit(),
    "logit 0.01": Logit(eps=0.01),
}
CELL = re.compile(r'aria-label="([^"]+?), (System A|System B|Higher): ([^"]*)"')


def shown(a_text: str, b_text: str) -> dict[tuple[str, str], str]:
    spec = to_spec(your_scores_chart(AVERAGES, [0.5], [0.5]), "Your scores.")
    spec["params"][0]["value"], spec["params"][1]["value"] = a_text, b_text
    svg = vlc.vegalite_to_svg(spec)
    return {(name, column): value for name, column, value in CELL.findall(svg)}


def library(average, scores) -> float | None:
    try:
        return float(average(scores))
    except ValueError:
        return None


@pytest.mark.parametrize(("kind", "a_text", "b_text"), CASES + random_cases(23), ids=lambda c: str(c)[:40])
def test_every_average_shown_is_the_librarys(kind, a_text, b_text):
    page = shown(a_text, b_text)
    a, b = scores(a_text), scores(b_text)
    for name, average in AVERAGES.items():
        ours = {"System A": library(average, a), "System B": library(average, b)}
        for column, value in ours.items():
            where = (kind, name, column)
            if value is None:
                assert page[(name, column)] == "undefined", where
            else:  # shown to 4 decimals: within half a unit of the 4th (a half may round either way)
                assert abs(float(page[(name, column)]) - value) <= 0.5e-4 + 1e-12, where
        va, vb = ours.values()
        if va is not None and vb is not None and abs(va - vb) > 1e-9:  # a near-tie may go either way
            assert page[(name, "Higher")] == ("A" if va > vb else "B"), (kind, name)


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("0.2, abc, 0.4", "“abc” is not a score between 0 and 1; the others are used."),
        ("0.2 1.5", "“1.5” is not a score between 0 and 1; the others are used."),
        ("", "no scores yet."),
        ("0.3", "1 score."),
        ("0.1;0.2,  0.3\t0.4", "4 scores."),
    ],
)
def test_bad_input_gets_a_short_note_and_the_rest_still_works(text, note):
    spec = to_spec(your_scores_chart(AVERAGES, [0.5, 0.2], [0.5]), "Your scores.")
    spec["params"][1]["value"] = text
    svg = vlc.vegalite_to_svg(spec)
    assert f"System B: {note}" in svg.replace("&amp;", "&")
    assert 'aria-label="AM, System A: 0.3500"' in svg  # the other box is untouched
