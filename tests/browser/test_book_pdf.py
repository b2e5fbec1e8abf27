"""The whole book as one PDF (made with the site by book/make_pdf.py), and the print style it is made with."""

from __future__ import annotations

import re

from visit import open_page

PDF = "irmeans-book.pdf"


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?!s)", pdf))


def test_the_site_has_the_book_as_a_pdf(site):
    pdf = (site / PDF).read_bytes()
    assert pdf[:5] == b"%PDF-"
    chapters = len(list((site / "chapters").glob("[0-9][0-9]-*.html")))
    # A new page for every chapter, and a chapter is longer than a page.
    assert _pages(pdf) >= 3 * chapters, _pages(pdf)


def test_the_front_page_and_get_the_code_link_to_it(site):
    for page in ("chapters/index.html", "chapters/get-the-code.html"):
        assert f'href="../{PDF}"' in (site / page).read_text(encoding="utf-8"), page


def test_printing_hides_every_control_and_answer_form(browser, base_url):
    page, _ = open_page(browser, base_url, "chapters/04-averaging.html")
    controls = page.locator(".vega-bindings input, .vega-bindings select, form.selfcheck-form")
    assert controls.count() > 0 and controls.first.is_visible()
    page.emulate_media(media="print")
    assert all(not controls.nth(i).is_visible() for i in range(controls.count()))
    assert page.locator(".irmeans-figure svg").first.is_visible()  # the figures stay, at their starting setting
    page.context.close()
