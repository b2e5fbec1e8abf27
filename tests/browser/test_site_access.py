"""What a reader with a keyboard or a screen reader needs of the page's own controls (book/static/irmeans-access.js).

Each toggle is named by what it shows (they were all "Toggle hidden content"); a dialog closed with Escape gives
the focus back to the button that opened it (it went to the top of the page); Escape closes a figure's tooltip.
"""

from __future__ import annotations

import re

import pytest
import sitetools
from visit import open_page, reading

#: The names a toggle may have: what it shows, and whether it shows or hides it.
CODE_TOGGLE = re.compile(
    r"^(Show|Hide) the code of (Fig\. \d+\.\d+|the “your scores” boxes|the table below|the output below)$"
)
FOLD_TOGGLE = re.compile(r"^(Show|Hide) the solution to Exercise \d+\.\d+$")

TOGGLE_NAMES = """() => ({
  code: Array.from(document.querySelectorAll("details.hide > summary")).map((s) => ({
    name: s.getAttribute("aria-label") || s.innerText.replace(/\\s+/g, " ").trim(),
    open: s.parentElement.open,
  })),
  folds: Array.from(document.querySelectorAll("button.toggle-button")).map((b) => ({
    name: b.getAttribute("aria-label"),
    open: b.getAttribute("aria-expanded") === "true",
  })),
})"""


@reading("toggle names", widths=(390,), modes=("light",), pages=sitetools.made_from_a_notebook)
def _toggle_names(page, where):
    return page.evaluate(TOGGLE_NAMES)


@reading("toggle names opened", widths=(390,), modes=("light",), stage="opened", pages=sitetools.made_from_a_notebook)
def _toggle_names_opened(page, where):
    return page.evaluate(TOGGLE_NAMES)


def test_every_toggle_is_named_by_what_it_shows(tour):
    """22 "Show code cell source" toggles, and every solution's, were named "Toggle hidden content"."""
    closed, opened = tour.found("toggle names"), tour.found("toggle names opened")
    code = [t for found in closed.values() for t in found["code"]]
    folds = [t for found in closed.values() for t in found["folds"]]
    assert len(code) >= 20 and len(folds) >= 20, (len(code), len(folds))
    wrong = [t["name"] for t in code if not CODE_TOGGLE.match(t["name"] or "")]
    wrong += [t["name"] for t in folds if not FOLD_TOGGLE.match(t["name"] or "")]
    assert not wrong, wrong
    assert {t["name"].split()[0] for t in code + folds} == {"Show"}
    figures = [t["name"] for t in code if "Fig." in t["name"]]
    assert len(figures) == len(set(figures)) >= 18, figures
    # Once open, each says that it hides what it shows.
    shown = [t for found in opened.values() for t in found["code"] + found["folds"]]
    assert shown and all(t["open"] and t["name"].startswith("Hide ") for t in shown), shown


ACTIVE = "() => document.activeElement && (document.activeElement.className || document.activeElement.tagName)"


@pytest.mark.parametrize(
    ("width", "button"),
    [(390, ".primary-toggle"), (390, ".secondary-toggle"), (390, ".search-button"), (1366, ".search-button-field")],
)
def test_escape_from_a_dialog_gives_the_focus_back_to_its_button(browser, base_url, width, button):
    """The phone's menu and contents, and search: opened from the keyboard and closed with Escape, the focus went
    to the top of the page, and a keyboard reader had to find their place again."""
    page, log = open_page(browser, base_url, "chapters/04-averaging.html", viewport={"width": width, "height": 844})
    opener = next(b for b in page.locator(button).all() if b.is_visible())
    opener.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('dialog[open]')")
    assert page.evaluate("() => Boolean(document.activeElement.closest('dialog'))"), page.evaluate(ACTIVE)
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    page.wait_for_function("(b) => document.activeElement && document.activeElement.matches(b)", arg=button)
    assert opener.evaluate("(b) => b === document.activeElement")
    assert not log.errors, log.errors
    page.context.close()


def test_escape_closes_a_figures_tooltip(browser, base_url):
    """A tooltip shown while the pointer is on a mark is closed by Escape without moving the pointer (WCAG 1.4.13)."""
    page, log = open_page(browser, base_url, "chapters/04-averaging.html", viewport={"width": 1366, "height": 900})
    bars = page.locator(".irmeans-figure svg g.mark-rect.role-mark path")
    bars.first.scroll_into_view_if_needed()
    box = next(b for b in (bar.bounding_box() for bar in bars.all()) if b and min(b["width"], b["height"]) > 4)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tooltip = page.locator("#vg-tooltip-element")
    page.wait_for_function("() => document.querySelector('#vg-tooltip-element.visible')")
    assert tooltip.inner_text().strip()
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#vg-tooltip-element.visible')")
    assert not log.errors, log.errors
    page.context.close()
