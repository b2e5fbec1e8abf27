"""The site as readers use it, on a phone (390 px) and a desktop (1366 px): it fits, it navigates, it reads in dark.

Every page is measured at both widths, in light and in dark mode, on the tour of the site
(visit.py: one visit per page, width and mode; screenshots of each go to ``_build/screenshots/``).
"""

from __future__ import annotations

import re

import pytest
import sitetools
from visit import WIDTHS, open_page, reading, settle_animations

#: The width between the two, where the theme's layout changes too.
MIDDLE = 700
#: The least size of chart text, in px.
MIN_FONT = 13

# Elements of the page's main column that reach past it: whatever sits in a box that scrolls or clips
# sideways is inside that box (the box itself is checked), and nothing hidden counts.
OVERFLOW = """() => {
  const main = document.querySelector("main");
  const column = document.querySelector(".bd-article") || main;
  const box = column.getBoundingClientRect();
  const clipped = (el) => {
    for (let a = el.parentElement; a && a !== column; a = a.parentElement) {
      const x = getComputedStyle(a).overflowX;
      if (x !== "visible") return true;
    }
    return false;
  };
  const out = [];
  for (const el of column.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || clipped(el)) continue;
    if (r.right > box.right + 1 || r.left < box.left - 1) {
      const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
        (typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\\s+/).join(".") : "");
      out.push(`${name}: ${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) out.push(`the page scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
  return out.slice(0, 10);
}"""

# Per figure: what of its legends and titles lies outside the viewport, its smallest text, whether it scrolls
# sideways, and its sliders' touch-action.
FIGURE_FIT = """() => Array.from(document.querySelectorAll(".irmeans-figure")).map((fig) => {
  const vw = document.documentElement.clientWidth;
  const outside = [];
  for (const g of fig.querySelectorAll("svg .role-legend, svg .role-title, svg .role-axis-title, svg .role-title-text")) {
    const r = g.getBoundingClientRect();
    if (r.width && (r.left < -0.5 || r.right > vw + 0.5))
      outside.push(`${g.getAttribute("class")} at ${Math.round(r.left)}..${Math.round(r.right)} of ${vw}`);
  }
  // Text as drawn: its size times the scale the page may shrink the chart by to fit it.
  const svg = fig.querySelector("svg");
  const scale = svg ? svg.getBoundingClientRect().width / (parseFloat(svg.getAttribute("width")) || 1) : 1;
  const sizes = Array.from(fig.querySelectorAll("svg text")).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
  return {
    id: fig.id,
    outside: outside,
    minFont: sizes.length ? Math.round(Math.min(...sizes) * 10) / 10 : null,
    scrolls: fig.scrollWidth > fig.clientWidth + 1,
    touch: Array.from(fig.querySelectorAll("input[type=range]")).map((i) => getComputedStyle(i).touchAction),
  };
})"""

# Per figure, in dark mode: a light box behind the chart (a rect, or the figure's own background), and
# the colour of its axis labels.
DARK_BOXES = """() => {
  const lum = (css) => {
    const m = css.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?/);
    if (!m || (m[4] !== undefined && +m[4] < 0.5)) return null;
    return (0.2126 * m[1] + 0.7152 * m[2] + 0.0722 * m[3]) / 255;
  };
  return Array.from(document.querySelectorAll(".irmeans-figure")).map((fig) => {
    const svg = fig.querySelector("svg");
    const area = svg.getBoundingClientRect().width * svg.getBoundingClientRect().height;
    const light = [];
    for (const el of [fig, svg, ...svg.querySelectorAll("rect, path.background")]) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      const fill = el === fig || el === svg ? style.backgroundColor : style.fill;
      const l = lum(fill);
      if (l !== null && l > 0.85 && r.width * r.height > 0.2 * area) light.push(`${el.tagName} ${fill}`);
    }
    const label = svg.querySelector(".role-axis-label text, .role-axis text, .role-legend-label text, .role-title-text text");
    return { id: fig.id, light: light, label: label ? lum(getComputedStyle(label).fill) : null };
  });
}"""

# Per figure with controls, the figure's top scrolled to the top of the viewport: whether its controls are on
# screen, and the chart they change starts on screen too.
CONTROLS_IN_VIEW = """async () => {
  const out = [];
  for (const fig of document.querySelectorAll(".irmeans-figure")) {
    const bindings = fig.querySelector(".vega-bindings");
    if (!bindings || !bindings.children.length) continue;
    const top = fig.getBoundingClientRect().top + window.scrollY;
    window.scrollTo(0, top - 70);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const b = bindings.getBoundingClientRect();
    const svg = fig.querySelector("svg").getBoundingClientRect();
    out.push({ id: fig.id, bindingsTop: Math.round(b.top), bindingsBottom: Math.round(b.bottom),
               svgTop: Math.round(svg.top), viewport: window.innerHeight });
  }
  return out;
}"""


@reading("overflow")
def _overflow(page, where):
    return page.evaluate(OVERFLOW)


@reading("figure fit", modes=("light",))
def _figure_fit(page, where):
    return page.evaluate(FIGURE_FIT)


@reading("controls in view", widths=(390,), modes=("light",))
def _controls_in_view(page, where):
    found = page.evaluate(CONTROLS_IN_VIEW)
    page.evaluate("() => window.scrollTo(0, 0)")
    return found


@reading("dark boxes", modes=("dark",))
def _dark_boxes(page, where):
    return page.evaluate(DARK_BOXES)


def _report(found):
    return "\n".join(f"{key}: {value}" for key, value in found.items())


def _figures(tour):
    return {key: figures for key, figures in tour.found("figure fit").items()}


def test_nothing_in_the_main_column_is_wider_than_it(tour):
    found = {k: found for k, found in tour.found("overflow").items() if found}
    assert not found, _report(found)


def test_no_figure_legend_or_title_lies_outside_the_viewport(tour):
    found = {(*k, f["id"]): f["outside"] for k, figures in _figures(tour).items() for f in figures if f["outside"]}
    assert not found, _report(found)


def test_chart_text_is_at_least_13_px(tour):
    found = {
        (*k, f["id"]): f["minFont"]
        for k, figures in _figures(tour).items()
        for f in figures
        if f["minFont"] is not None and f["minFont"] < MIN_FONT - 0.3  # a chart scaled by a few px
    }
    assert not found, _report(found)


def test_no_figure_scrolls_sideways_and_a_drag_on_a_slider_moves_the_slider(tour):
    found = {
        (*k, f["id"]): f
        for k, figures in _figures(tour).items()
        for f in figures
        if f["scrolls"] or any(t not in ("pan-y", "none") for t in f["touch"])
    }
    assert not found, _report(found)


def test_on_a_phone_the_controls_are_on_screen_with_their_figure(tour):
    measured = tour.found("controls in view")
    found = {
        (*k, c["id"]): c
        for k, controls in measured.items()
        for c in controls
        if c["bindingsBottom"] > c["viewport"] + 1 or c["bindingsTop"] < 0 or c["svgTop"] > c["viewport"] - 150
    }
    assert any(measured.values()), "no figure with controls was measured"
    assert not found, _report(found)


def test_in_dark_mode_no_chart_is_a_white_box_and_its_text_is_light(tour):
    found = {}
    for key, figures in tour.found("dark boxes").items():
        for f in figures:
            if f["light"] or (f["label"] is not None and f["label"] < 0.5):
                found[(*key, f["id"])] = f
    assert not found, _report(found)


# ----------------------------------------------------------------------------- navigation

NAV_STATE = """() => ({
  open: Array.from(document.querySelectorAll("dialog")).filter((d) => d.open).map((d) => d.id),
  primaryHidden: document.querySelector("#pst-primary-sidebar").classList.contains("pst-sidebar-hidden"),
  primaryVisible: (() => { const r = document.querySelector("#pst-primary-sidebar").getBoundingClientRect();
                           return r.width > 0 && r.right > 0; })(),
})"""


@pytest.mark.parametrize("width", [390, MIDDLE, 1366])
def test_the_menu_and_contents_buttons_open_and_close_their_panels(browser, base_url, site, width):
    path = sitetools.notebook_pages(site)[0]
    page, log = open_page(browser, base_url, path, viewport={"width": width, "height": 844})
    menu = page.locator(".bd-header-article .primary-toggle:visible")
    assert menu.count() == 1, "no menu button to be seen"
    menu.click()
    settle_animations(page)
    state = page.evaluate(NAV_STATE)
    if width >= 992:  # the chapter list is beside the page: the button hides it, and shows it again
        assert state["primaryHidden"], state
        menu.click()
        settle_animations(page)
        assert not page.evaluate(NAV_STATE)["primaryHidden"]
    else:  # the chapter list opens over the page, and Escape closes it
        assert state["open"] == ["pst-primary-sidebar-modal"], state
        assert page.locator("#pst-primary-sidebar-modal .bd-links a").first.is_visible()
        page.keyboard.press("Escape")
        settle_animations(page)
        assert page.evaluate(NAV_STATE)["open"] == []
    contents = page.locator(".bd-header-article .secondary-toggle:visible")
    if width < 1200:  # wider, the page's contents are always shown beside it
        assert contents.count() == 1, "no Contents button to be seen"
        contents.click()
        settle_animations(page)
        assert page.evaluate(NAV_STATE)["open"] == ["pst-secondary-sidebar-modal"]
        assert page.locator("#pst-secondary-sidebar-modal nav a").first.is_visible()
        page.keyboard.press("Escape")
        settle_animations(page)
        assert page.evaluate(NAV_STATE)["open"] == []
    else:
        assert page.locator(".bd-sidebar-secondary nav a").first.is_visible()
    assert not log.errors, log.errors
    page.context.close()


# ----------------------------------------------------------------------------- search


def _pages_writing(site, symbol):
    found = []
    for path in sitetools.pages(site):
        text = (site / path).read_text(encoding="utf-8")
        main = text.split('role="main"', 1)[-1]
        main = re.sub(r"<script.*?</script>", "", main, flags=re.S)
        # A table of contents only names other pages: the symbol is theirs.
        main = re.sub(r'<div class="toctree-wrapper.*?</div>', "", main, flags=re.S)
        if symbol in main:
            found.append(path)
    return found


def test_a_search_for_epsilon_finds_every_page_that_writes_it_as_a_symbol(browser, base_url, site):
    expected = {p for p in _pages_writing(site, "ε") if p not in ("search.html", "genindex.html")}
    assert len(expected) >= 3, expected
    page, log = open_page(browser, base_url, "search.html?q=epsilon")
    page.wait_for_function(
        "() => document.querySelector('#search-results') && "
        "document.querySelector('#search-results').textContent.match(/found|did not match/i)",
        timeout=30_000,
    )
    hrefs = page.locator("#search-results ul.search li > a").evaluate_all("as => as.map(a => a.href)")
    found = {h.removeprefix(base_url).split("#")[0].split("?")[0] for h in hrefs}
    assert expected <= found, f"not found: {sorted(expected - found)}"
    page.wait_for_function("() => document.querySelectorAll('#search-results p.context').length > 0", timeout=30_000)
    page.wait_for_timeout(1000)  # every result's summary
    summaries = page.locator("#search-results p.context").all_inner_texts()
    raw = [s for s in summaries if re.search(r"\\\(|\\[a-z]+\{|\\varepsilon|import |glue\(", s)]
    assert not raw, f"summaries with LaTeX or code: {raw}"
    assert not (log.errors or log.failed or log.outside), log
    page.context.close()


# ----------------------------------------------------------------------------- chapter 2's ranking


def _ranking_figure(page):
    ids = page.evaluate("() => window.irmeansTest.figureIds()")
    for figure_id in ids:
        if "irmeans_click_toggles" in page.evaluate("(id) => window.irmeansTest.usermeta(id)", figure_id):
            return figure_id
    raise AssertionError("no figure whose squares toggle ranks")


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_click_on_a_square_of_the_ranking_toggles_its_rank(browser, base_url, width):
    page, log = open_page(browser, base_url, "chapters/02-ranked-lists.html", viewport={"width": width, "height": 900})
    figure_id = _ranking_figure(page)
    box = page.locator(f"#{figure_id} .vega-bindings [name='rank2']")
    assert not box.is_checked()
    squares = page.locator(f"#{figure_id} svg .mark-symbol path")
    squares.nth(1).scroll_into_view_if_needed()
    squares.nth(1).click()
    page.evaluate(f"() => window.irmeansTest.settle('{figure_id}')")
    assert box.is_checked() and page.evaluate(f"() => window.irmeansTest.signal('{figure_id}', 'rank2')") is True
    squares.nth(1).click()
    page.evaluate(f"() => window.irmeansTest.settle('{figure_id}')")
    assert not box.is_checked()
    assert not log.errors, log.errors
    page.context.close()


def test_the_r_slider_reads_the_r_the_figure_uses(browser, base_url):
    page, log = open_page(browser, base_url, "chapters/02-ranked-lists.html")
    figure_id = _ranking_figure(page)
    slider = page.locator(f"#{figure_id} .vega-bindings input[name='R']")
    slider.evaluate("(el) => { el.value = 1; el.dispatchEvent(new Event('input', {bubbles: true})); }")
    page.wait_for_timeout(200)
    page.evaluate(f"() => window.irmeansTest.settle('{figure_id}')")
    ticked = page.locator(f"#{figure_id} .vega-bindings input[type=checkbox]:checked").count()
    used = [
        t["text"]
        for t in page.evaluate(f"() => window.irmeansTest.shown('{figure_id}')")
        if (t["text"] or "").startswith("R used")
    ]
    assert used == [f"R used: {ticked}"] and int(slider.input_value()) == ticked, (used, slider.input_value())
    assert not log.errors, log.errors
    page.context.close()


#: Each cell of a table of numbers that holds a number but is not set right, as its column's header is.
LEFT_NUMBERS = """() => {
  const number = /^[-+\\u2212]?[\\d.,]+(e[-+]?\\d+)?%?$/i;
  const out = [];
  let cells = 0;
  for (const td of document.querySelectorAll(".bd-article .cell_output table.dataframe td")) {
    if (!number.test(td.textContent.trim())) continue;
    cells++;
    const align = getComputedStyle(td).textAlign;
    if (align !== "right" && align !== "end") out.push(`${td.textContent.trim()}: ${align}`);
  }
  return { cells, left: out.slice(0, 5) };
}"""


@reading("numbers in tables", widths=(1366,), modes=("light",), pages=sitetools.made_from_a_notebook)
def _numbers_in_tables(page, where):
    return page.evaluate(LEFT_NUMBERS)


def test_a_tables_numbers_are_set_right_under_their_headers(tour):
    """Chapter 2's number columns sat left under pandas' right-aligned headers."""
    found = tour.found("numbers in tables")
    assert sum(f["cells"] for f in found.values()) > 100
    left = {key: f["left"] for key, f in found.items() if f["left"]}
    assert not left, left


@reading("paper tables", widths=(390,), modes=("light",), pages=sitetools.made_from_a_notebook)
def _paper_tables(page, where):
    return page.evaluate(
        """() => Array.from(document.querySelectorAll(".bd-article .cell.tag_paper-only")).map((c) => c.checkVisibility())"""
    )


def test_the_tables_for_paper_are_not_on_the_site(tour):
    """A chapter's tables of what a figure shows at each setting are for paper (irmeans_book.paper): on
    screen the figure itself shows them."""
    found = tour.found("paper tables")
    assert sum(len(v) for v in found.values()) >= 8
    shown = {key[0]: v for key, v in found.items() if any(v)}
    assert not shown, shown
