"""The "your scores" box computes each average with the library's own formula, in Vega's expression language.

Vega itself (vl-convert's, the same engine as the site's) renders the box for
scores of every kind a reader may type (tests/your_scores_cases.py); every value it shows is the library's to the four decimals shown,
and every "higher" is the library's verdict. A Vega form that drifted from its
average's formula (a wrong ε, a missing "- ε", the floor where the additive form
is meant) fails here.
"""

from __future__ import annotations

import html
import re

import pytest
import vl_convert as vlc
from irmeans.averages import AM, GM, HM, Logit, Median
from irmeans_book.plots import to_spec
from irmeans_book.yourscores import entries, your_scores_chart
from your_scores_cases import CASES, ENTRIES, random_cases, scores

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


def _labels(a_text: str, b_text: str, averages=None) -> list[str]:
    spec = to_spec(your_scores_chart(averages or AVERAGES, [0.5], [0.5]), "Your scores.")
    spec["params"][0]["value"], spec["params"][1]["value"] = a_text, b_text
    return [html.unescape(x) for x in re.findall(r'aria-label="([^"]*)"', vlc.vegalite_to_svg(spec))]


def test_the_note_names_the_first_entry_that_is_not_a_score():
    """ "0.5, 2, abc, 0.3" was said to be wrong at "abc", the largest bad entry as text, not at "2"."""
    notes = [x for x in _labels("0.5, 2, abc, 0.3", "0.5") if x.startswith("System A:")]
    assert notes == ["System A: “2” is not a score between 0 and 1 (2 entries are not); the others are used."]


def test_two_systems_with_different_numbers_of_scores_get_a_warning():
    warning = "Warning: A has 3 scores and B has 2. Compare two systems on the same topics."
    assert warning in _labels("0.1 0.2 0.3", "0.4 0.5")
    assert not [x for x in _labels("0.1 0.2", "0.4 0.5") + _labels("", "0.4 0.5") if x.startswith("Warning")]


def test_each_line_of_a_note_fits_a_phone():
    """On a phone the figure is 358 px wide: a note of 501 px was cut at "...(3 entries are". Each line is
    at most 42 characters, whatever was typed (a long entry is cut short with "…")."""
    spec = to_spec(your_scores_chart(AVERAGES, [0.5], [0.5]), "Your scores.")
    spec["params"][0]["value"] = "0.5, 2, abc, 0.3, " + "x" * 60
    spec["params"][1]["value"] = "0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 0.11 0.12"
    texts = [html.unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", vlc.vegalite_to_svg(spec))]
    notes = [t for t in texts if not re.match(r"^(A |B |higher: |needs )", t) and t not in AVERAGES]
    assert len(notes) >= 5 and max(len(t) for t in notes) <= 42, notes


def test_a_reason_says_eps_as_epsilon_and_only_in_a_box_with_an_epsilon():
    """Chapter 1's box, which has no average with ε, said "a zero needs eps > 0"."""
    with_eps = [x for x in _labels("0 0.5", "0.2", {"HM": HM(), "εHM": HM(eps=0.01)}) if "needs" in x]
    without = [x for x in _labels("0 0.5", "0.2", {"HM": HM(), "AM": AM()}) if "needs" in x]
    assert with_eps == ["HM: needs scores > 0 (a zero needs ε > 0)"], with_eps
    assert without == ["HM: needs scores > 0"], without


@pytest.mark.parametrize(("text", "numbers"), ENTRIES)
def test_the_box_reads_numbers_by_the_books_rule(text, numbers):
    """The boxes split "0,5 0,25 0,1" at the commas, and averaged a system of zeros and ones: a comma between
    digits is a decimal comma when the box holds no '.' and no ';' (irmeans_book.yourscores.entries)."""
    assert [float(e) for e in entries(text)] == numbers
    labels = _labels(text, "0.5", {"AM": AM()})
    used = [x for x in numbers if 0 <= x <= 1]
    assert f"AM, System A: {sum(used) / len(used):.4f}" in labels, labels
    note = next(x for x in labels if x.startswith("System A:"))
    if len(used) == len(numbers):
        assert note == f"System A: {len(numbers)} score{'s' if len(numbers) > 1 else ''}.", note
    else:
        assert "is not a score" in note, note
