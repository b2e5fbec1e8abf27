"""The exercises' folded solutions on the site: a click anywhere on "Solution to Exercise N.N" opens it, but
the words "Exercise N.N", a link, go to the exercise; no click throws a script error.

sphinx-togglebutton 0.4.5's click handler found no button for a click on the link (or any other part of
the title but the title itself and the chevron) and threw "ReferenceError: button is not defined": 7
errors in 7 clicks, and 0 of 27 solutions opened by a tap on their link. The site replaces the handler
(book/static/irmeans-togglebutton.js). Every chapter's every solution title is clicked, at 390 and
1366 px: on its text, on its chevron, on its link, and on each element inside it.
"""

from __future__ import annotations

import pytest
import sitetools
from visit import WIDTHS, open_page

#: The state of every solution of the page: its id, whether it is folded, and its title's link.
SOLUTIONS = """() => Array.from(document.querySelectorAll(".bd-article .solution.toggle")).map((s) => ({
  id: s.id,
  folded: s.classList.contains("toggle-hidden"),
  link: (s.querySelector(":scope > .admonition-title a[href]") || {}).hash || null,
}))"""
#: Where to click a title's own text: its first text node's first letters ("Solution to").
TEXT_POINT = """(id) => {
  const title = document.getElementById(id).querySelector(":scope > .admonition-title");
  const text = Array.from(title.childNodes).find((n) => n.nodeType === 3 && n.textContent.trim());
  const range = document.createRange();
  range.setStart(text, 0);
  range.setEnd(text, Math.min(3, text.textContent.length));
  const r = range.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}"""
#: Every element inside a title: a click on each of them (as its target) must not throw.
PARTS = """(id) => {
  const title = document.getElementById(id).querySelector(":scope > .admonition-title");
  return [title, ...title.querySelectorAll("*")].map((el) => el.tagName.toLowerCase());
}"""
CLICK_PART = """([id, k]) => {
  const title = document.getElementById(id).querySelector(":scope > .admonition-title");
  const el = [title, ...title.querySelectorAll("*")][k];
  el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
}"""


def _chapters(site):
    return [p for p in sitetools.pages(site) if 'class="solution' in (site / p).read_text(encoding="utf-8")]


def _folded(page, sid) -> bool:
    return page.evaluate("(id) => document.getElementById(id).classList.contains('toggle-hidden')", sid)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_every_solution_opens_from_its_title_and_its_link_goes_to_the_exercise(browser, base_url, site, width):
    chapters = _chapters(site)
    assert len(chapters) >= 10, chapters
    problems, seen = [], 0
    for path in chapters:
        page, log = open_page(browser, base_url, path, viewport={"width": width, "height": WIDTHS[width]})
        for solution in page.evaluate(SOLUTIONS):
            sid, where = solution["id"], f"{path} {solution['id']} at {width} px"
            seen += 1
            if not solution["folded"]:
                problems.append(f"{where}: not folded as the page loads")
            title = page.locator(f"[id='{sid}'] > .admonition-title")
            title.scroll_into_view_if_needed()
            # The link, first: it goes to the exercise and leaves the solution folded.
            if not solution["link"]:
                problems.append(f"{where}: its title has no link to its exercise")
            else:
                title.locator("a[href]").click()
                page.wait_for_function("(hash) => location.hash === hash", arg=solution["link"], timeout=5_000)
                if not _folded(page, sid):
                    problems.append(f"{where}: a click on the link opened it")
                title.scroll_into_view_if_needed()
            # The title's own words open it, and close it again.
            point = page.evaluate(TEXT_POINT, sid)
            page.mouse.click(point["x"], point["y"])
            if _folded(page, sid):
                problems.append(f"{where}: a click on the title's text did not open it")
            page.mouse.click(point["x"], point["y"])
            if not _folded(page, sid):
                problems.append(f"{where}: a second click did not fold it")
            # The chevron opens it too, and a click on the link leaves it open.
            page.locator(f"[id='{sid}'] > .admonition-title .toggle-button").click()
            if _folded(page, sid):
                problems.append(f"{where}: the chevron did not open it")
            elif solution["link"]:
                title.locator("a[href]").click()
                if _folded(page, sid):
                    problems.append(f"{where}: a click on the link folded it")
            # Each element of the title, as the target of a click: no script error.
            for k, _ in enumerate(page.evaluate(PARTS, sid)):
                page.evaluate(CLICK_PART, [sid, k])
        errors = log.errors
        if errors:
            problems.append(f"{path} at {width} px: script errors {errors[:3]}")
        page.context.close()
    assert seen >= 20, seen
    assert not problems, "\n".join(problems)
