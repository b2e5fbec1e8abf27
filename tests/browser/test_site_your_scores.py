"""The "your scores" boxes of chapters 1, 4, 6 and 7, typed into as a reader would, against the library.

Each box is found by its accessible name ("Your scores, system A"). The test types
random per-topic scores for both systems, comma- or space-separated, 30 times a
chapter (120 inputs in all), and reads what the page shows for every average (each
cell of the table is labelled "GM, System A: 0.2367"): each value must be the
library's to the four decimals shown, and each "Higher" the library's verdict.
Bad input gets a note under the boxes, and the page keeps working.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import sitetools
from irmeans_book.chapters import ch01_introduction as introduction
from irmeans_book.chapters import ch04_averaging as averaging
from irmeans_book.chapters import ch06_zeros_and_epsilon as epsilon
from irmeans_book.chapters import ch07_map_gmap_mrr as verdicts
from visit import open_page

CHAPTERS = {
    "chapters/01-introduction.html": introduction.YOUR_SCORES,
    "chapters/04-averaging.html": averaging.YOUR_SCORES,
    "chapters/06-zeros-and-epsilon.html": epsilon.YOUR_SCORES,
    "chapters/07-map-gmap-mrr.html": verdicts.YOUR_SCORES,
}
TRIALS = 30
CELL = re.compile(r"^(.+?), (System A|System B|Higher): (.*)$")
SHOWN = """(figure) => Array.from(figure.querySelectorAll("svg [aria-label]"), (e) => e.getAttribute("aria-label"))"""
SETTLED = """async (figure) => { await window.irmeansFigures[figure.id].view.runAsync(); }"""


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
    rng = np.random.default_rng(sum(map(ord, path)))
    for trial in range(TRIALS):
        a, b = (np.round(rng.uniform(0, 1, rng.integers(1, 15)), rng.integers(1, 5)) for _ in range(2))
        if trial % 3 == 0:
            a[rng.integers(a.size)] = 0.0  # a failed topic, as real runs have
        sep = ", " if trial % 2 else " "
        _type(page, figure, a_box, sep.join(f"{x:g}" for x in a))
        _type(page, figure, b_box, " ".join(f"{x:g}" for x in b))
        shown = {}
        for label in figure.evaluate(SHOWN):
            match = CELL.match(label)
            if match:
                shown[match.group(1), match.group(2)] = match.group(3)
        assert f"System A: {a.size} score" in " ".join(figure.evaluate(SHOWN))
        for name, average in averages.items():
            ours = {"System A": _library(average, a), "System B": _library(average, b)}
            for column, value in ours.items():
                where = (path, trial, name, column, a.tolist(), b.tolist())
                if value is None:
                    assert shown[name, column] == "undefined", where
                else:
                    assert abs(float(shown[name, column]) - value) <= 0.5e-4 + 1e-12, where
            va, vb = ours.values()
            if va is not None and vb is not None and abs(va - vb) > 1e-9:
                assert shown[name, "Higher"] == ("A" if va > vb else "B"), (path, trial, name)
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
    _type(page, figure, a_box, "")
    assert "System A: no scores yet." in " ".join(figure.evaluate(SHOWN))
    _type(page, figure, a_box, "0.6 0.55 0.5 0.45 0.01")
    assert "geometric mean, Higher: B" in " ".join(figure.evaluate(SHOWN))
    assert not log.errors, log.errors
    page.context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1366])
def test_the_boxes_fit_the_page(browser, base_url, output_dir, scheme, width):
    for path in CHAPTERS:
        page, log = open_page(browser, base_url, path, color_scheme=scheme, viewport={"width": width, "height": 900})
        a_box, b_box, figure = _boxes(page)
        figure.scroll_into_view_if_needed()
        name = path.rsplit("/", 1)[-1].removesuffix(".html")
        figure.screenshot(path=str(output_dir / f"your-scores-{name}-{width}-{scheme}.png"))
        column = page.evaluate("(e) => e.parentElement.getBoundingClientRect().width", figure.element_handle())
        for box in (a_box, b_box, figure.locator("svg").first):
            assert box.bounding_box()["width"] <= column + 1, (path, width)
        assert not log.errors, log.errors
        page.context.close()
    assert sitetools.OUTPUT.is_dir()
