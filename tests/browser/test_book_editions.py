"""The book's two paper editions (book/scripts/make_pdf.py): the student's and the instructor's.

Both have an outline (bookmarks) of parts, chapters and sections and a contents page that gives
each its page, a first page written for paper, no blank page, and every figure on the page of its
caption. The student's has no solution and no self-check's answer; the instructor's has all of
them, in an appendix at the back. The PDFs are read with poppler (pdf_pages.py); what they must
hold is read from the site's own chapter pages.
"""

from __future__ import annotations

import html
import re
import subprocess
import sys

import pdf_pages
import pytest
import sitetools
import yaml

sys.path.insert(0, str(sitetools.ROOT / "book" / "scripts"))
import make_pdf  # noqa: E402 - a script of the book's, not an installed module

EDITIONS = make_pdf.EDITIONS
#: The licence line and page number every page's footer prints.
FOOTER = re.compile(r"^(\d+ / \d+|.*CC BY-SA 4\.0.*)$")
APPENDIX = "Appendix"


def _plain(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def _key(text: str) -> str:
    return make_pdf._key(text)


@pytest.fixture(scope="module")
def chapters(site):
    """Each chapter of the numbered parts as the site shows it: its title, sections, solutions,
    self-checks (number and answer) and figure captions."""
    toc = yaml.safe_load((sitetools.ROOT / "_toc.yml").read_text(encoding="utf-8"))
    found = []
    for part in toc["parts"]:
        for chapter in part["chapters"]:
            page = (site / f"{chapter['file']}.html").read_text(encoding="utf-8")
            article = page[page.find('<article class="bd-article"') :]
            title = _plain(
                re.sub(r'<a class="headerlink".*?</a>', "", re.search(r"<h1[^>]*>(.*?)</h1>", article, re.S).group(1))
            )
            sections = [
                _plain(re.sub(r'<a class="headerlink".*?</a>', "", h, flags=re.S))
                for h in re.findall(r"<h2[^>]*>(.*?)</h2>", article, re.S)
            ]
            solutions = [
                _plain(t)
                for t in re.findall(
                    r'class="solution[^"]*"[^>]*>\s*<p class="admonition-title">(.*?)</p>', article, re.S
                )
            ]
            checks = [
                (_plain(number), html.unescape(shown))
                for number, shown in re.findall(
                    r'class="exercise selfcheck[^"]*"[^>]*>\s*<p class="admonition-title"><span class="caption-number">(.*?)</span>.*?data-shown="([^"]*)"',
                    article,
                    re.S,
                )
            ]
            captions = [_plain(c) for c in re.findall(r"<figcaption>(.*?)</figcaption>", article, re.S)]
            found.append(
                {
                    "part": part["caption"],
                    "numbered": bool(part.get("numbered")),
                    "title": title,
                    "sections": sections,
                    "solutions": solutions,
                    "checks": checks,
                    "captions": captions,
                }
            )
    return found


@pytest.fixture(scope="module", params=list(EDITIONS))
def edition(request, site):
    pdf = site / EDITIONS[request.param]
    assert pdf.is_file(), f"no {pdf}: make pdf writes both editions"
    return {
        "name": request.param,
        "pdf": pdf,
        "pages": pdf_pages.read_pages(pdf),
        "outline": pdf_pages.outline(pdf),
    }


@pytest.fixture(scope="module")
def student(site):
    return pdf_pages.read_pages(site / EDITIONS["student"])


@pytest.fixture(scope="module")
def instructor(site):
    pdf = site / EDITIONS["instructor"]
    return {"pages": pdf_pages.read_pages(pdf), "outline": pdf_pages.outline(pdf)}


def _body_text(page) -> str:
    return " ".join(line.text for line in page.lines if not FOOTER.match(line.text.strip()))


def test_the_outline_lists_every_part_chapter_and_section(edition, chapters):
    marks = edition["outline"]
    assert marks, f"{edition['pdf'].name} has no outline (bookmarks)"
    parts = [m for m in marks if m.level == 1]
    for caption in dict.fromkeys(c["part"] for c in chapters):
        assert any(_key(m.text) == _key(caption) for m in parts), (caption, [m.text for m in parts])
    missing = []
    for chapter in chapters:
        # The chapter under its part, its sections under it.
        at = [i for i, m in enumerate(marks) if m.level == 2 and _key(m.text) == _key(chapter["title"])]
        if not at:
            missing.append(chapter["title"])
            continue
        i = at[0]
        part = next(m for m in reversed(marks[:i]) if m.level == 1)
        assert _key(part.text) == _key(chapter["part"]), (chapter["title"], part.text)
        if not chapter["numbered"]:
            continue
        under = []
        for m in marks[i + 1 :]:
            if m.level <= 2:
                break
            under.append(_key(m.text))
        missing += [s for s in chapter["sections"] if _key(s) not in under]
    assert not missing, f"{edition['pdf'].name}: not in the outline: {missing}"


def test_each_bookmark_reads_as_its_heading(edition, chapters):
    """Chromium's outline glued the words either side of a heading's line break ("AP andRR") and
    repeated some headings ("1.3. 1.3. Who this book is forWho this book is for"): make_pdf.py gives
    each bookmark its heading's text."""
    maths = re.compile(r"\\\((.*?)\\\)")  # a heading's inline maths, \(1/r\), reads as its text in a bookmark
    headings = {_key(t): maths.sub(r"\1", t) for c in chapters for t in [c["title"], *c["sections"]]}
    marks = [m for m in edition["outline"] if _key(m.text) in headings]
    wrong = [(m.text, headings[_key(m.text)]) for m in marks if m.text != headings[_key(m.text)]]
    wrong += [m.text for m in edition["outline"] if re.fullmatch(r"(.+?)\s?\1", m.text)]  # "LicencesLicences"
    assert len(marks) > 60 and not wrong, wrong


def _layout_text(pdf, first: int, last: int) -> str:
    """Pages ``first`` to ``last`` of ``pdf`` as text laid out as printed (a contents entry and its page on one line)."""
    command = [pdf_pages._tool("pdftotext"), "-layout", "-f", str(first), "-l", str(last), str(pdf), "-"]
    return subprocess.run(command, capture_output=True, check=True).stdout.decode("utf-8")


def test_the_contents_page_gives_every_chapter_its_page(edition, chapters):
    assert _body_text(edition["pages"][1]).startswith("Contents"), _body_text(edition["pages"][1])[:80]
    first = {_key(m.text): m.page for m in reversed(edition["outline"]) if m.level == 2}
    listed = [re.sub(r"\s+", " ", line).strip() for line in _layout_text(edition["pdf"], 2, 6).splitlines()]
    wrong = []
    for chapter in chapters:
        page = first.get(_key(chapter["title"]))
        if f"{chapter['title']} {page}" not in listed:
            wrong.append(f"{chapter['title']} (page {page})")
    assert not wrong, f"{edition['pdf'].name}: contents entries without their page: {wrong}"


def test_the_first_page_is_written_for_paper(edition):
    text = _body_text(edition["pages"][0]).lower()
    said = [w for w in ("slider", "folded", "click", "on this site") if w in text]
    assert not said, f"{edition['pdf'].name}, page 1 speaks of the site: {said}"


def test_no_page_is_blank(edition):
    blank = [page.number for page in edition["pages"] if len(_body_text(page).replace(" ", "")) < 20]
    assert not blank, f"{edition['pdf'].name}: blank pages {blank}"


def test_every_figure_is_on_the_page_of_its_caption(edition, chapters):
    """A caption printed at the top of a page has left its figure on the page before."""
    top = make_pdf.MARGINS_MM["top"] * pdf_pages.PT_PER_MM
    found, separated = 0, []
    for caption in (c for chapter in chapters for c in chapter["captions"]):
        start = " ".join(caption.split()[:5])
        for page in edition["pages"]:
            lines = [line for line in page.lines if re.sub(r"\s+", " ", line.text).startswith(start[:30])]
            if lines:
                found += 1
                if lines[0].y0 < top + 60:  # no figure above it: at most a line or two of text
                    separated.append(f"page {page.number}: {start}")
                break
    assert found >= 15, found
    assert not separated, f"{edition['pdf'].name}: captions apart from their figures: {separated}"


def test_the_students_edition_has_no_solution_and_no_answer(student, chapters):
    text = " ".join(_body_text(page) for page in student)
    assert "Solution to Exercise" not in text
    assert "(self-check)" not in text.replace("(Self-check)", "")  # the exercises' own titles say "Self-check"
    assert not re.search(r"\bAnswer: ", text)
    exercises = set(re.findall(r"Exercise (\d+\.\d+)", text))
    solved = {n for c in chapters for s in c["solutions"] for n in re.findall(r"Exercise (\d+\.\d+)", s)}
    assert solved and solved <= exercises, sorted(solved - exercises)  # the exercises themselves are there


def test_the_instructors_edition_has_every_answer_in_an_appendix_at_the_back(instructor, chapters):
    appendix = [m for m in instructor["outline"] if m.level == 1 and m.text.startswith(APPENDIX)]
    assert appendix, [m.text for m in instructor["outline"] if m.level == 1]
    start = appendix[0].page
    assert all(m.page <= start for m in instructor["outline"] if not m.text.startswith(("Answers", APPENDIX)))
    before = " ".join(_body_text(p) for p in instructor["pages"][: start - 1])
    after = re.sub(r"\s+", " ", " ".join(_body_text(p) for p in instructor["pages"][start - 1 :]))
    assert "Solution to Exercise" not in before  # moved, not copied
    solutions = [s for c in chapters for s in c["solutions"]]
    checks = [check for c in chapters for check in c["checks"]]
    assert len(solutions) >= 20 and len(checks) >= 20, (len(solutions), len(checks))
    missing = [s for s in solutions if s not in after]
    for number, shown in checks:
        if not re.search(rf"Answer to {re.escape(number)} \(self-check\) Answer: {re.escape(shown)}\b", after):
            missing.append(f"{number}: {shown}")
    assert not missing, missing
    assert after.count("Hint") >= len(checks)  # every self-check's hint comes with its answer


def test_the_chapter_pages_pdf_button_gives_the_book(site):
    """The header's ".pdf" button printed the page on screen; it links to the book's PDF instead."""
    pages = sorted((site / "chapters").glob("[0-9][0-9]-*.html"))
    assert len(pages) >= 10
    wrong = []
    for path in pages:
        page = path.read_text(encoding="utf-8")
        button = re.search(r"<(a|button)\b[^>]*btn-download-pdf-button[^>]*>", page)
        if "window.print()" in page or not button or f'href="../{EDITIONS["student"]}"' not in button.group(0):
            wrong.append(f"{path.name}: {button.group(0) if button else 'no .pdf button'}")
    assert not wrong, wrong


def test_the_front_page_and_get_the_code_link_to_both_editions(site):
    for page in ("chapters/index.html", "chapters/get-the-code.html"):
        text = (site / page).read_text(encoding="utf-8")
        assert all(f'href="../{name}"' in text for name in EDITIONS.values()), page
