"""What a reader of the site expects: search, downloads, launch links, dark mode, toggles, print."""

from __future__ import annotations

import urllib.request

import pytest
import sitetools
from visit import open_page, open_toggles, reading, screenshot_name


@reading("toggles", widths=(1366,), modes=("light",), pages=sitetools.made_from_a_notebook)
def _toggles(page, where):
    return open_toggles(page)


@pytest.fixture(scope="module")
def chapters(site):
    found = sitetools.notebook_pages(site)
    assert found, "no page is made from a notebook"
    return found


def test_search_finds_pages_offline(browser, base_url):
    page, log = open_page(browser, base_url, "search.html?q=precision")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for(timeout=30_000)
    assert results.count() >= 1
    assert all(
        href.endswith(".html") or ".html#" in href or ".html?" in href
        for href in results.evaluate_all("as => as.map(a => a.getAttribute('href'))")
    )
    assert not (log.errors or log.failed or log.outside), log
    page.context.close()


def _links(tour) -> dict[str, list[str]]:
    return {key[0]: found["links"] for key, found in tour.found("links").items()}


def test_each_chapter_has_a_download_of_its_notebook(tour, base_url, chapters):
    links = _links(tour)
    for path in chapters:
        notebook = base_url + "_sources/" + path.removesuffix(".html") + ".ipynb"
        assert notebook in links[path], f"{path}: no download link to {notebook}"
        with urllib.request.urlopen(notebook, timeout=10) as response:
            assert response.status == 200
            assert b'"nbformat"' in response.read(), f"{notebook} is not a notebook"


def test_no_chapter_offers_binder_or_colab(tour, chapters):
    # A chapter opened there would stop at its first import: nothing there installs irmeans (see Get the code).
    links = _links(tour)
    for path in chapters:
        launch = [u for u in links[path] if u.startswith(("https://mybinder.org", "https://colab.research"))]
        assert not launch, f"{path}: launch links {launch}"


def test_the_theme_switch_turns_every_page_dark_at_either_width(tour):
    """Each page was switched to dark with the theme's own button (its errors and axe are the pages' tests')."""
    themes = {key: r.get("themes") for key, r in tour.records.items() if key[2] == "dark"}
    assert themes and not {k: t for k, t in themes.items() if not t or t[-1] != "dark"}, themes


def test_the_readers_system_setting_chooses_the_mode(browser, base_url, chapters):
    for scheme in ("dark", "light"):
        page, log = open_page(browser, base_url, chapters[0], color_scheme=scheme)
        assert page.evaluate("() => document.documentElement.dataset.theme") == scheme
        assert not (log.errors or log.failed or log.outside), log
        page.context.close()


def test_hidden_code_toggles_open(tour, chapters):
    toggles = {key[0]: found for key, found in tour.found("toggles").items()}
    assert sorted(toggles) == sorted(chapters)
    assert any(toggles.values()), "no toggle found on any chapter"
    stuck = {path: t for path, t in toggles.items() if "did not open" in t}
    assert not stuck, stuck


def test_print_hides_navigation_and_keeps_figures_whole(browser, base_url, tour, output_dir):
    path = next(key[0] for key, ids in tour.found("figures").items() if ids)
    page, _ = open_page(browser, base_url, path)
    page.emulate_media(media="print")
    assert not page.locator(".bd-sidebar-primary").is_visible()
    assert not page.locator(".bd-header").is_visible()
    breaks = page.locator(".irmeans-figure").evaluate_all("fs => fs.map(f => getComputedStyle(f).breakInside)")
    assert breaks and set(breaks) == {"avoid"}, breaks
    pdf = output_dir / screenshot_name(path).replace(".png", ".pdf")
    page.pdf(path=str(pdf), format="A4", print_background=True)
    assert pdf.stat().st_size > 10_000
    page.context.close()
