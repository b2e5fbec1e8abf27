"""The "your scores" box computes each average with the library's own formula, in Vega's expression language.

Vega itself (vl-convert's, the same engine as the site's) renders the box for
random scores; every value it shows is the library's to the four decimals shown,
and every "higher" is the library's verdict. A Vega form that drifted from its
average's formula (a wrong ε, a missing "- ε", the floor where the additive form
is meant) fails here.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import vl_convert as vlc
from irmeans.averages import AM, GM, HM, Logit, Median
from irmeans_book.plots import to_spec
from irmeans_book.yourscores import as_text, your_scores_chart

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


def test_every_average_shown_is_the_librarys_on_random_scores():
    rng = np.random.default_rng(23)
    for trial in range(100):
        n_a, n_b = rng.integers(1, 12, size=2)
        a, b = (np.round(rng.uniform(0, 1, n), rng.integers(1, 5)) for n in (n_a, n_b))
        # Now and then a zero, or a one, as real scores have.
        if trial % 4 == 0:
            a[0] = 0.0
        if trial % 7 == 0:
            b[-1] = 1.0
        sep = ", " if trial % 2 else " "
        page = shown(sep.join(f"{x:g}" for x in a), as_text(b))
        for name, average in AVERAGES.items():
            ours = {"System A": library(average, a), "System B": library(average, b)}
            for column, value in ours.items():
                where = (trial, name, column, a.tolist(), b.tolist())
                if value is None:
                    assert page[(name, column)] == "undefined", where
                else:  # shown to 4 decimals: within half a unit of the 4th (a half may round either way)
                    assert abs(float(page[(name, column)]) - value) <= 0.5e-4 + 1e-12, where
            va, vb = ours.values()
            if va is not None and vb is not None and abs(va - vb) > 1e-9:  # a near-tie may go either way
                assert page[(name, "Higher")] == ("A" if va > vb else "B"), (trial, name)


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
