"""A figure's sliders as a reader moves them: a slider stays where it is as its value changes.

At 1366 px chapter 2's R slider once wrapped onto the next line when its value reached 10 (the value
beside it gained a digit), and a drag then read 15: the pointer was past the slider's new end.
"""

from __future__ import annotations

import pytest
from test_site_figure_contrast import has_figures
from visit import open_page, reading


def _report(found):
    return "\n".join(f"{key}: {value}" for key, value in found.items())


SLIDERS_STAY = """() => {
  const out = [];
  for (const input of document.querySelectorAll(".irmeans-figure .vega-bindings input[type=range]")) {
    const start = input.value;
    const where = () => { const r = input.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.width)]; };
    const first = where();
    const min = +input.min, max = +input.max, step = +input.step || 1;
    const count = Math.min(400, Math.round((max - min) / step));
    for (let i = 0; i <= count; i++) {
      input.value = String(min + (i * (max - min)) / count);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      const now = where();
      if (now.join() !== first.join()) {
        out.push(`${input.name} moved from ${first} to ${now} at ${input.value}`);
        break;
      }
    }
    input.value = start;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  return out;
}"""


# Last on the tour (visit.py), after every reading of the page as it loaded: the sliders are moved.
@reading("sliders stay", modes=("dark",), stage="moved", pages=has_figures)
def _sliders_stay(page, where):
    return {
        "sliders": page.locator(".irmeans-figure .vega-bindings input[type=range]").count(),
        "moved": page.evaluate(SLIDERS_STAY),
    }


@pytest.mark.parametrize("width", [390, 1366])
def test_a_slider_stays_where_it_is_as_its_value_changes(tour, width):
    measured = {key[0]: m for key, m in tour.found("sliders stay").items() if key[1] == width}
    assert sum(m["sliders"] for m in measured.values()) >= 5, measured
    found = {path: m["moved"] for path, m in measured.items() if m["moved"]}
    assert not found, _report(found)


def _thumb_x(box, value, low, high, thumb=16):
    return box["x"] + thumb / 2 + (value - low) / (high - low) * (box["width"] - thumb)


def test_dragging_chapter_2s_r_slider_past_10_goes_on_to_the_value_under_the_pointer(browser, base_url):
    """At 1366 px the slider once jumped to the next line when its value reached 10: the drag then read 15."""
    page, log = open_page(browser, base_url, "chapters/02-ranked-lists.html", viewport={"width": 1366, "height": 900})
    slider = page.locator(".irmeans-figure .vega-bindings input[name='R']")
    slider.scroll_into_view_if_needed()
    low, high = float(slider.get_attribute("min")), float(slider.get_attribute("max"))
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(_thumb_x(box, float(slider.input_value()), low, high), y)
    page.mouse.down()
    seen = []
    for value in (8, 9, 10, 11, 12):
        page.mouse.move(_thumb_x(box, value, low, high), y, steps=4)
        seen.append(int(slider.input_value()))
    page.mouse.up()
    assert seen == [8, 9, 10, 11, 12], seen
    assert slider.bounding_box() == box
    assert not log.errors, log.errors
    page.context.close()
