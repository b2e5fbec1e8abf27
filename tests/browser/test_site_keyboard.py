"""The site with the keyboard: every stop of the Tab key shows where the focus is.

"Toggle primary sidebar" and "Download this page" once showed no focus ring at all.
"""

from __future__ import annotations

import pytest
import sitetools
from visit import open_page

FOCUS_RING = sitetools.HELPERS.with_name("focus_ring.js").read_text(encoding="utf-8")


@pytest.mark.parametrize(("width", "mode"), [(1366, "light"), (1366, "dark"), (390, "light")])
def test_every_stop_of_the_keyboard_shows_a_focus_ring(browser, base_url, width, mode):
    """Tab through a chapter, header and sidebars included: each stop shows a ring of 3:1 contrast or more."""
    # Dark from the reader's system setting: a click on the theme's switch would move where Tab starts.
    page, log = open_page(
        browser, base_url, "chapters/04-averaging.html", color_scheme=mode, viewport={"width": width, "height": 900}
    )
    assert page.evaluate("() => document.documentElement.dataset.theme") == mode
    stops, missing = [], []
    for _ in range(300):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS_RING)
        if stop["tag"] == "BODY":  # past the last stop: the focus left the page
            break
        stops.append(stop["label"])
        if not stop["ring"] or stop["contrast"] < 3:
            missing.append(stop)
    assert {"Toggle primary sidebar", "Download this page"} <= set(stops), stops
    assert len(stops) > 20, stops
    assert not missing, missing
    assert not log.errors, log.errors
    page.context.close()
