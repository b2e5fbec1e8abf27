"""The "your scores" boxes of chapters 1, 4, 6 and 7, typed into as a reader would, against the library.

Each box is found by its accessible name ("Your scores, system A"). The test types
scores of every kind a reader may type (tests/your_scores_cases.py: a tie, a zero,
all zeros, ones, one topic against thirteen, separators, a near tie, and a random
case) for both systems, and reads what the page shows for every average (each
cell of the table is labelled "GM, System A: 0.2367"): each value must be the
library's to the four decimals shown, and each "Higher" the library's verdict.
(The box's formulas are checked on more cases, without a browser, in
tests/book/test_yourscores.py.) Bad input gets a note under the boxes, and the
page keeps working.
"""

from __future__ import annotations

import re

import pytest
from irmeans_book.chapters import ch01_introduction as introduction
from irmeans_book.chapters import ch04_averaging as averaging
from irmeans_book.chapters import ch06_zeros_and_epsilon as epsilon
from irmeans_book.chapters import ch07_map_gmap_mrr as verdicts
from visit import open_page, reading
from your_scores_cases import CASES, ENTRIES, random_cases, scores

CHAPTERS = {
    "chapters/01-introduction.html": introduction.YOUR_SCORES,
    "chapters/04-averaging.html": averaging.YOUR_SCORES,
    "chapters/06-zeros-and-epsilon.html": epsilon.YOUR_SCORES,
    "chapters/07-map-gmap-mrr.html": verdicts.YOUR_SCORES,
}
CELL = re.compile(r"^(.+?), (System A|System B|Higher): (.*)$")
SHOWN = """(figure) => Array.from(figure.querySelectorAll("svg [aria-label]"), (e) => e.getAttribute("aria-label"))"""
SETTLED = """async (figure) => { await window.irmeansFigures[figure.id].view.runAsync(); }"""
#: Each text of the figure that reaches past the figure's own box (its column on a phone).
OUTSIDE = """(figure) => {
  const box = figure.getBoundingClientRect();
  return Array.from(figure.querySelectorAll("svg text"))
    .filter((t) => { const r = t.getBoundingClientRect(); return r.width && (r.right > box.right + 1 || r.left < box.left - 1); })
    .map((t) => `${t.textContent}: ${Math.round(t.getBoundingClientRect().right)} px past ${Math.round(box.right)}`);
}"""


def _boxes(page):
    a = page.get_by_role("textbox", name=re.compile("your scores, system A", re.I))
    b = page.get_by_role("textbox", name=re.compile("your scores, system B", re.I))
    assert a.count() == 1 and b.count() == 1, (a.count(), b.count())
    figure = a.locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' irmeans-figure ')]")
    return a, b, figure


def _type(page, figure, box, text):
    box.fill(text)
    figure.evaluate(SETTLED)


def _library(average, scores):
    try:
        return float(average(scores))
    except ValueError:
        return None


@pytest.mark.parametrize("path", list(CHAPTERS))
def test_the_page_shows_the_librarys_averages_of_the_readers_scores(browser, base_url, path):
    averages = CHAPTERS[path]
    page, log = open_page(browser, base_url, path, viewport={"width": 1366, "height": 900})
    a_box, b_box, figure = _boxes(page)
    for kind, a_text, b_text in CASES + random_cases(sum(map(ord, path)), 1):
        a, b = scores(a_text), scores(b_text)
        _type(page, figure, a_box, a_text)
        _type(page, figure, b_box, b_text)
        shown = {}
        for label in figure.evaluate(SHOWN):
            match = CELL.match(label)
            if match:
                shown[match.group(1), match.group(2)] = match.group(3)
        assert f"System A: {a.size} score" in " ".join(figure.evaluate(SHOWN))
        for name, average in averages.items():
            ours = {"System A": _library(average, a), "System B": _library(average, b)}
            for column, value in ours.items():
                where = (path, kind, name, column)
                if value is None:
                    assert shown[name, column] == "undefined", where
                else:
                    assert abs(float(shown[name, column]) - value) <= 0.5e-4 + 1e-12, where
            va, vb = ours.values()
            if va is not None and vb is not None and abs(va - vb) > 1e-9:
                assert shown[name, "Higher"] == ("A" if va > vb else "B"), (path, kind, name)
    assert not log.errors, log.errors
    page.context.close()


def test_bad_input_gets_a_note_beside_the_box_and_nothing_breaks(browser, base_url):
    page, log = open_page(browser, base_url, "chapters/01-introduction.html", viewport={"width": 390, "height": 900})
    a_box, b_box, figure = _boxes(page)
    _type(page, figure, a_box, "0.5, zero, 0.3")
    labels = " ".join(figure.evaluate(SHOWN))
    assert "System A: “zero” is not a score between 0 and 1; the others are used." in labels
    assert "arithmetic mean, System A: 0.4000" in labels  # the two good scores still count
    # The note sits under the boxes, above the table.
    note = figure.locator("svg [aria-label^='System A:']").bounding_box()
    assert (
        b_box.bounding_box()["y"]
        < note["y"]
        < figure.locator("svg [aria-label^='median, System A']").bounding_box()["y"]
    )
    # The first bad entry is named, and the note's every line stays inside the figure on a phone (it ran
    # to 501 px in a 358 px figure, cut at "...(3 entries are").
    _type(page, figure, a_box, "0.5, 2, abc, 0.3, 4, " + "y" * 40)
    labels = " ".join(figure.evaluate(SHOWN))
    assert "System A: “2” is not a score between 0 and 1 (4 entries are not); the others are used." in labels
    outside = figure.evaluate(OUTSIDE)
    assert not outside, outside
    # Two systems with different numbers of scores: a warning.
    _type(page, figure, a_box, "0.5 0.4 0.3")
    _type(page, figure, b_box, "0.5 0.4")
    assert "Warning: A has 3 scores and B has 2." in " ".join(figure.evaluate(SHOWN))
    assert not figure.evaluate(OUTSIDE)
    _type(page, figure, a_box, "")
    assert "System A: no scores yet." in " ".join(figure.evaluate(SHOWN))
    _type(page, figure, a_box, "0.6 0.55 0.5 0.45 0.01")
    assert "geometric mean, Higher: B" in " ".join(figure.evaluate(SHOWN))
    assert not log.errors, log.errors
    page.context.close()


@reading("your scores box", pages=lambda path: path in CHAPTERS)
def _your_scores_box(page, where):
    """The boxes' and the chart's widths against their column's, and a screenshot of the figure."""
    a_box, b_box, figure = _boxes(page)
    figure.scroll_into_view_if_needed()
    name = where.path.rsplit("/", 1)[-1].removesuffix(".html")
    figure.screenshot(path=str(where.output_dir / f"your-scores-{name}-{where.width}-{where.mode}.png"))
    column = page.evaluate("(e) => e.parentElement.getBoundingClientRect().width", figure.element_handle())
    widths = [box.bounding_box()["width"] for box in (a_box, b_box, figure.locator("svg").first)]
    page.evaluate("() => window.scrollTo(0, 0)")
    return {"column": column, "widths": widths}


def test_the_boxes_fit_the_page(tour):
    measured = tour.found("your scores box")
    assert len(measured) == 4 * len(CHAPTERS), sorted(measured)
    wide = {key: m for key, m in measured.items() if max(m["widths"]) > m["column"] + 1}
    assert not wide, wide


NOW = "(figure) => (document.getElementById(figure.id + '-now') || {}).textContent"


def test_a_box_reads_decimal_commas_and_says_when_an_entry_is_not_a_score(browser, base_url):
    """The boxes split "0,5 0,25 0,1" at the commas and averaged a system of zeros and ones, while the self-checks
    took "0,275". A box that rejected "abc, 2" showed its note and "undefined" averages silently, and the box was
    not marked invalid: now its note is said in the figure's live region, and the box is aria-invalid."""
    page, log = open_page(browser, base_url, "chapters/01-introduction.html", viewport={"width": 390, "height": 844})
    a_box, b_box, figure = _boxes(page)
    for text, numbers in ENTRIES:
        _type(page, figure, a_box, text)
        labels = " ".join(figure.evaluate(SHOWN))
        used = [x for x in numbers if 0 <= x <= 1]
        assert f"arithmetic mean, System A: {sum(used) / len(used):.4f}" in labels, (text, labels)
        invalid = "false" if len(used) == len(numbers) else "true"
        page.wait_for_function(
            "([box, v]) => box.getAttribute('aria-invalid') === v", arg=[a_box.element_handle(), invalid]
        )
    _type(page, figure, a_box, "abc, 2")
    page.wait_for_function("(box) => box.getAttribute('aria-invalid') === 'true'", arg=a_box.element_handle())
    assert b_box.get_attribute("aria-invalid") == "false"
    page.wait_for_function(f"(f) => ({NOW})(f) && ({NOW})(f).includes('is not a score')", arg=figure.element_handle())
    said = figure.evaluate(NOW)
    assert "System A: “abc” is not a score between 0 and 1 (2 entries are not)" in said, said
    assert "arithmetic mean, Higher: " in said, said
    assert figure.evaluate("(f) => document.getElementById(f.id + '-now').getAttribute('aria-live')") == "polite"
    _type(page, figure, a_box, "0,6 0,5")
    page.wait_for_function("(box) => box.getAttribute('aria-invalid') === 'false'", arg=a_box.element_handle())
    page.wait_for_function(f"(f) => ({NOW})(f).includes('System A: 2 scores.')", arg=figure.element_handle())
    assert not log.errors, log.errors
    page.context.close()


BOX_SIZE = """(box) => { const s = getComputedStyle(box); return [parseFloat(s.fontSize), box.getBoundingClientRect().height]; }"""


@reading("your scores input size", widths=(390,), modes=("light",), pages=lambda path: path in CHAPTERS)
def _input_size(page, where):
    a_box, b_box, _ = _boxes(page)
    return [box.evaluate(BOX_SIZE) for box in (a_box, b_box)]


def test_the_boxes_take_16_px_text_and_a_fingers_height_on_a_phone(tour):
    """On a phone the boxes' text was 14.4 px (the phone zooms in when one takes the focus) and they were 30 px tall."""
    found = tour.found("your scores input size")
    assert len(found) == len(CHAPTERS)
    small = {key[0]: sizes for key, sizes in found.items() if any(f < 16 or h < 44 for f, h in sizes)}
    assert not small, small
