"""The whole book as one PDF (made with the site by book/scripts/make_pdf.py), and the print style it is made with.

The PDF is read with poppler (pdf_pages.py): where its words are printed, the sizes of its fonts, and
each page as a picture. The single page it is printed from is also opened in Chromium laid out for
paper, as make_pdf lays it out, and measured like the site's pages (surface_checks.js): on paper
nothing scrolls or is clipped (irmeans-print.css), so what is too wide reaches past the column.
"""

from __future__ import annotations

import html
import re
import sys

import pdf_pages
import pytest
import sitetools
from visit import open_page

sys.path.insert(0, str(sitetools.ROOT / "book" / "scripts"))
import make_pdf  # noqa: E402 - a script of the book's, not an installed module

PDF = "irmeans-book.pdf"
#: The single page the PDF is printed from (book/scripts/make_pdf.py).
SINGLE_PAGE = sitetools.ROOT / "_build" / "pdf" / "_build" / "singlehtml"
#: The smallest text the book prints, in points.
MIN_PT = 9
#: The page number at the foot of each page ("27 / 116"), the one text printed smaller.
PAGE_NUMBER = re.compile(r"^\d+ / \d+$")


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


# ----------------------------------------------------------------------------- the PDF's pages


@pytest.fixture(scope="module")
def pages(site):
    return pdf_pages.read_pages(site / PDF)


def _margins_pt():
    return {side: mm * pdf_pages.PT_PER_MM for side, mm in make_pdf.MARGINS_MM.items()}


#: The words of the footer's licence line, printed in the bottom margin with the page number.
LICENCE_WORDS = set(make_pdf.LICENCE_LINE.replace("fi", "\ufb01").split()) | set(make_pdf.LICENCE_LINE.split())


def test_no_word_is_printed_past_the_margins(pages):
    m = _margins_pt()
    found = []
    for page in pages:
        for w in page.words:
            if w.width > page.width - m["left"] - m["right"]:
                continue  # a stretched glyph (a formula's overline), which pdftotext measures unscaled
            footer = PAGE_NUMBER.match(w.text) or re.fullmatch(r"[\d/]+", w.text) or w.text in LICENCE_WORDS
            if (
                w.x0 < m["left"] - 2
                or w.x1 > page.width - m["right"] + 2
                or w.y0 < m["top"] - 2
                or (w.y1 > page.height - m["bottom"] + 2 and not footer)
            ):
                found.append(f"page {page.number}: {w.text!r} at x {w.x0:.0f}..{w.x1:.0f}, y {w.y0:.0f}..{w.y1:.0f}")
    assert len(pages) > 30
    assert not found, "\n".join(found[:20])


def test_the_side_margins_are_blank(site):
    """Nothing is drawn past the column: no part of a formula, table or figure in the side margins."""
    dpi = 36
    strip = int((make_pdf.MARGINS_MM["left"] - 4) / 25.4 * dpi)  # the margin less 4 mm
    inked = []
    for picture in pdf_pages.pictures(site / PDF, dpi=dpi):
        columns = list(range(strip)) + list(range(picture.width - strip, picture.width))
        if any(min(picture.column(x)) < 200 for x in columns):
            inked.append(picture.number)
    assert not inked, f"pages with ink in a side margin: {inked}"


def _headings():
    """The text of every heading of the single page the PDF is printed from, numbers included."""
    page = (SINGLE_PAGE / "book.html").read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"<h([1-4])[^>]*>(.*?)</h\1>", page, re.S):
        text = re.sub(r'<a class="headerlink".*?</a>', "", match.group(2), flags=re.S)
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", text))).strip()
        if text and text != "Contents":
            found.append(text)
    return found


def test_no_heading_is_alone_at_the_foot_of_a_page(pages):
    """The last lines of a page are never a heading, whole or its first line (10.1's was split over two pages)."""
    headings = _headings()
    bottom = _margins_pt()["bottom"]
    assert len(headings) > 40, headings
    found = []
    for page in pages:
        body = [line for line in page.lines if line.y1 <= page.height - bottom + 2]
        for k in (1, 2):
            tail = re.sub(r"\s+", " ", " ".join(line.text for line in body[-k:])).strip()
            if len(tail) >= 6 and any(h.startswith(tail) for h in headings):
                found.append(f"page {page.number}: {tail!r}")
                break
    assert not found, found


def test_every_chapter_heading_is_printed_with_its_number(pages):
    chapters = [h for h in _headings() if re.match(r"^\d+\. \S", h)]
    assert len(chapters) >= 10, chapters
    text = " ".join(re.sub(r"\s+", " ", line.text) for page in pages for line in page.lines)
    missing = [h for h in chapters if h not in text]
    assert not missing, missing


def test_no_text_is_printed_smaller_than_9_pt(site):
    """Figures included (Fig. 7.1's labels were about 7 pt); the page numbers and a formula's italic
    one-letter subscripts aside."""
    small = []
    for t in pdf_pages.texts(site / PDF):
        plain = re.sub(r"<[^>]+>", "", t.text).strip()
        if not plain or PAGE_NUMBER.match(plain) or re.fullmatch(r"<i>.</i>", t.text.strip()):
            continue
        if t.size < MIN_PT - 0.25:
            small.append(f"page {t.page}: {plain!r} at {t.size} pt ({t.family})")
    assert not small, "\n".join(small[:20])


def test_no_empty_frame_is_left_on_a_page(site):
    """A code cell's frame on one page and its code on the next left a tinted, empty box: no long run of
    rows across the column is a light tint with no ink in it."""
    found = []
    for picture in pdf_pages.pictures(site / PDF, dpi=36):
        x0, x1 = int(picture.width * 0.2), int(picture.width * 0.8)
        run = longest = 0
        for y in range(picture.height):
            row = picture.row(y)[x0:x1]
            tinted = sum(1 for v in row if 225 <= v <= 251) > 0.9 * len(row)
            run = run + 1 if tinted and min(row) >= 200 else 0
            longest = max(longest, run)
        if longest > 0.12 * picture.height:
            found.append(f"page {picture.number}: {longest} empty tinted rows of {picture.height}")
    assert not found, found


# ----------------------------------------------------------------------------- the page the PDF is printed from

PRINT_LAYOUT = """() => {
  const column = document.querySelector(".bd-article").getBoundingClientRect();
  const beyond = [];
  for (const el of document.querySelectorAll(".bd-article *")) {
    if (el.closest("mjx-assistive-mml") || !el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.height && (r.right > column.right + 1 || r.left < column.left - 1))
      beyond.push(`${el.tagName.toLowerCase()}.${el.className}: ${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(column.left)}..${Math.round(column.right)}`);
  }
  const figures = Array.from(document.querySelectorAll(".irmeans-figure")).map((fig) => {
    const svg = fig.querySelector("svg");
    const drawn = svg.getBoundingClientRect().width;
    const scale = drawn / (parseFloat(svg.getAttribute("width")) || drawn);
    const sizes = Array.from(svg.querySelectorAll("text")).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    return { id: fig.id, width: Math.round(drawn), column: fig.parentElement.clientWidth, smallest: Math.min(...sizes) };
  });
  return { beyond: beyond.slice(0, 20), figures: figures };
}"""


#: Each numbered figure's least height on paper, caption and all, in px: drawn no smaller than its smallest text at
#: the given px (make_pdf_paper.js's limit).
LEAST_HEIGHTS = """(least) => Object.fromEntries(Array.from(document.querySelectorAll(".bd-article figure[id]"))
  .filter((f) => f.querySelector(".irmeans-figure svg")).map((f) => {
    const svg = f.querySelector(".irmeans-figure svg");
    const drawn = svg.getBoundingClientRect();
    const scale = drawn.width / (parseFloat(svg.getAttribute("width")) || drawn.width);
    const smallest = Math.min(...Array.from(svg.querySelectorAll("text")).map((t) => parseFloat(getComputedStyle(t).fontSize))) * scale;
    return [f.id, f.getBoundingClientRect().height - drawn.height * (1 - Math.min(1, least / smallest))];
  }))"""


@pytest.fixture(scope="module")
def printed(browser, site):
    """The single page laid out for paper as make_pdf lays it out, made the student's edition, measured."""
    with sitetools.serve(SINGLE_PAGE) as base:
        context = browser.new_context(viewport={"width": make_pdf.COLUMN_PX, "height": 1400})
        page = context.new_page()
        # The whole book on one page: as long to load, on a loaded machine, as make_pdf allows it (it took over 30 s).
        page.goto(base + "book.html", wait_until="load", timeout=180_000)
        page.wait_for_function(make_pdf.FIGURES_DRAWN, timeout=180_000, polling=500)
        page.evaluate(make_pdf.MATHS_TYPESET)
        page.emulate_media(media="print")
        page.evaluate(make_pdf.FIGURES_REFITTED)
        # Made the student's edition, as make_pdf makes it (parts, contents, wide tables split, links).
        page.add_script_tag(path=str(make_pdf.PAPER_JS))
        reference = {"docs": make_pdf.REFERENCE_DOCS, "caption": make_pdf.REFERENCE_CAPTION}
        page.evaluate(
            "([e, p, r, a]) => irmeansPaper.prepare(e, p, r, a)",
            [make_pdf.edition("student"), make_pdf.toc_parts(), reference, make_pdf.public_address()],
        )
        page.add_script_tag(path=str(sitetools.HELPERS.with_name("surface_checks.js")))
        measured = {
            **page.evaluate(PRINT_LAYOUT),
            "least": page.evaluate(LEAST_HEIGHTS, MIN_PT * 96 / 72),
            "equations": page.evaluate("() => irmeansSurface.equations()"),
            "boxes": page.evaluate("() => irmeansSurface.boxes()"),
        }
        context.close()
    return measured


def test_on_paper_every_displayed_equation_fits_the_column(printed):
    assert len(printed["equations"]) >= 8
    wide = [e for e in printed["equations"] if not e["inside"]]
    assert not wide, wide


def test_on_paper_nothing_reaches_past_the_column_or_is_cut_or_scrolls(printed):
    assert not printed["beyond"], printed["beyond"]
    assert not printed["boxes"]["cut"], printed["boxes"]["cut"]
    assert not printed["boxes"]["scrollers"], printed["boxes"]["scrollers"]


def test_on_paper_figures_take_the_columns_width_with_text_of_9_pt_or_more(printed):
    figures = printed["figures"]
    assert len(figures) >= 10
    narrow = [f for f in figures if f["width"] < f["column"] - 50 or f["width"] > f["column"] + 1]
    small = [f for f in figures if f["smallest"] < MIN_PT * 96 / 72 - 0.05]  # 9 pt is 12 px
    assert not narrow, narrow
    assert not small, small


def test_a_chapter_printed_from_its_page_keeps_its_number(browser, base_url):
    page, _ = open_page(browser, base_url, "chapters/04-averaging.html")
    page.emulate_media(media="print")
    headings = page.locator("h1:visible, h2:visible")
    assert headings.count() > 3
    first = headings.first.inner_text().strip()
    assert first.startswith("4. Averaging across topics"), first
    sections = [t.strip() for t in page.locator(".bd-article h2:visible").all_inner_texts()]
    assert sections[0].startswith("4.1. "), sections
    page.context.close()


# ----------------------------------------------------------------------------- the fifth reading's pages


#: The least share of a page's column that a page inside a chapter fills: a page followed by more of the same
#: chapter was left 80 % empty (page 58) before a block that did not fit under it.
LEAST_FILLED = 0.4
#: What a page starts with when it starts a chapter, a part of the PDF or the appendix (a page may end short then).
STARTS_A_PART = re.compile(
    r"^(\d+\. |Appendix|Contents|Answers|Part [IV]+|Back matter|Command-line reference|API reference)"
)


def test_no_page_inside_a_chapter_is_mostly_empty(site, pages, printed):
    """A figure too tall for the room a page leaves, even drawn as small as its text allows, starts the next page;
    any other figure after a page left mostly empty is drawn smaller to fit there (make_pdf.figure_gaps), and a
    long table for paper breaks between its rows."""
    from pypdf import PdfReader

    reader = PdfReader(site / PDF)
    gaps = make_pdf.figure_gaps(site / PDF, list(printed["least"]))
    too_tall = {f for f, room in gaps.items() if printed["least"][f] > room}
    # The page before each of them (a figure on page index k follows page number k).
    excused = {reader.get_destination_page_number(reader.named_destinations[f"/{f}"]) for f in too_tall}
    pictures = pdf_pages.pictures(site / PDF, dpi=24)
    short = []
    for picture, page in zip(pictures, pages):
        if page.number == len(pages) or page.number in excused:
            continue
        after = pages[page.number]  # the next page
        if after.lines and STARTS_A_PART.match(after.lines[0].text):
            continue
        top, foot = int(picture.height * 0.05), int(picture.height * 0.9)
        inked = [y for y in range(top, foot) if min(picture.row(y)) < 180]
        filled = ((max(inked) if inked else top) - top) / (foot - top)
        if filled < LEAST_FILLED:
            short.append(
                f"page {page.number}: {filled:.0%} filled, then {after.lines[0].text[:50] if after.lines else ''}"
            )
    assert not short, short


def test_captions_are_printed_in_the_texts_weight(site):
    """Captions were 9 pt ExtraLight grey, too thin and pale on paper: no light face is printed at all."""
    import subprocess

    fonts = subprocess.run(["pdffonts", str(site / PDF)], capture_output=True, text=True, check=True).stdout
    assert not re.search(r"(Extra)?Light|Thin", fonts), fonts


def test_the_command_line_references_help_lines_are_printed_whole(site, pages):
    """The help's wrapped lines restarted at column 0 on paper: each line of each command's help, as the page
    writes it (80 columns), is one line of the PDF."""
    sys.path.insert(0, str(sitetools.ROOT / "book" / "extensions"))
    import irmeans_reference

    printed = {" ".join(line.split()) for page in pages for line in pdf_pages.visual_lines(page)}
    broken = []
    for command in [None, *irmeans_reference.commands()]:
        for line in irmeans_reference.wrapped(irmeans_reference.command_help(command)).split("\n"):
            words = " ".join(line.split())
            if len(line) >= 60 and words not in printed:
                broken.append(words)
    assert not broken, broken[:5]


def test_the_students_edition_speaks_of_its_own_solutions_and_prints_no_nan(site, pages):
    """It said the exercises "hide their solutions until you open them"; its tables for paper printed "NaN" where
    the site says "undefined"."""
    appendix = next(p.number for p in pages if p.lines and p.lines[0].text.startswith("Appendix"))
    text = " ".join(" ".join(line.text for line in page.lines) for page in pages[: appendix - 1])
    assert "until you open" not in text and "solutions folded" not in text
    assert not re.search(r"\bNaN\b", text)  # the API reference may speak of NaN; the chapters print none
    assert "undefined" in text
