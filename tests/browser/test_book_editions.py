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
    found = []
    for part in make_pdf.toc_parts():
        for doc in part["docs"]:
            page = (site / f"{doc}.html").read_text(encoding="utf-8")
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
                    # The reference pages are printed as an appendix of their own, at the very end.
                    "part": make_pdf.REFERENCE_CAPTION if doc in make_pdf.REFERENCE_DOCS else part["caption"],
                    "numbered": part["numbered"],
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
    marks = instructor["outline"]
    appendix = [m for m in marks if m.level == 1 and m.text.startswith(APPENDIX)]
    assert appendix, [m.text for m in marks if m.level == 1]
    start = appendix[0].page
    # Then only the reference appendix, which a printed copy may leave out.
    reference = next((m for m in marks if m.text == make_pdf.REFERENCE_CAPTION), None)
    end = reference.page - 1 if reference else len(instructor["pages"])
    book = marks[: marks.index(reference)] if reference else marks
    assert all(m.page <= start for m in book if not m.text.startswith(("Answers", APPENDIX)))
    before = " ".join(_body_text(p) for p in instructor["pages"][: start - 1])
    after = re.sub(r"\s+", " ", " ".join(_body_text(p) for p in instructor["pages"][start - 1 : end]))
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


# ----------------------------------------------------------------------------- links, names, where the files are


def test_every_link_leads_into_the_pdf_or_to_another_site(edition):
    """138 links of the student's edition and 169 of the instructor's pointed at the build's own server
    (http://127.0.0.1:42117/...): every citation, page 1's links to the two editions, some cross-references
    and all 27 "Solution to Exercise N.N" back-links. None may; none may point at the repository's address
    either, a placeholder in _config.yml."""
    links = pdf_pages.link_targets(edition["pdf"])
    repository = yaml.safe_load((sitetools.ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]
    local = [(p, u) for p, u in links["uri"] if re.match(r"^https?://(127\.0\.0\.1|localhost|0\.0\.0\.0)[:/]", u)]
    placeholder = [(p, u) for p, u in links["uri"] if u.startswith(repository)]
    dead = [(p, d) for p, d, exists in links["internal"] if not exists]
    assert len(links["internal"]) > 150, len(links["internal"])  # the citations among them
    assert not local, f"{edition['pdf'].name}: {len(local)} links to a local server, e.g. {local[:5]}"
    assert not placeholder and not dead and not links["other"], (placeholder, dead, links["other"][:5])


def test_each_edition_says_which_it_is_on_page_one_and_in_its_title(edition):
    from pypdf import PdfReader

    name = make_pdf.EDITION_NAMES[edition["name"]]
    first = _body_text(edition["pages"][0])
    title = PdfReader(edition["pdf"]).metadata.title
    others = [n for key, n in make_pdf.EDITION_NAMES.items() if key != edition["name"]]
    assert name in first and not any(n in first for n in others), first[:300]
    assert title == make_pdf.edition_title(edition["name"]) and name.lower() in title.lower(), title


def test_page_one_says_where_the_files_are(edition):
    """It said the downloads were "on the book's site" and gave no address; the site has none yet."""
    first = re.sub(r"\s+", " ", _body_text(edition["pages"][0]))
    names = ["irmeans-source.tar.gz", *EDITIONS.values()]
    assert all(n in first for n in names), first
    address = make_pdf.public_address()
    assert (address in first) if address else ("no public address" in first and "make book" in first), first


def _contents_text(edition) -> str:
    last = next(m.page for m in edition["outline"] if m.level == 1 and m.page > 1) - 1
    return re.sub(r"\s+", " ", _layout_text(edition["pdf"], 2, max(2, last)))


def test_every_contents_entry_has_its_page(edition):
    """The instructor's contents gave no page for "Answers: 4", "Answers: 7" and "Answers: 10"."""
    contents = _contents_text(edition)
    entries = [m for m in edition["outline"][1:] if m.level <= 2 and m.text != "Contents"]  # not the title page
    assert len(entries) > 15
    missing = [f"{m.text} ({m.page})" for m in entries if f"{m.text} {m.page}" not in contents]
    assert not missing, f"{edition['pdf'].name}: contents entries without their page: {missing}"


def test_the_reference_is_an_appendix_at_the_very_end_that_a_copy_may_leave_out(edition):
    """56 pages of API and command-line reference sat inside both handouts, before the bibliography."""
    marks = edition["outline"]
    tops = [m for m in marks if m.level == 1]
    assert tops[-1].text == make_pdf.REFERENCE_CAPTION, [m.text for m in tops]
    start = tops[-1].page
    before = [m for m in marks if m.page >= start and marks.index(m) < marks.index(tops[-1])]
    assert not before, f"{edition['pdf'].name}: bookmarks on the appendix's pages before it: {before}"
    under = [m.text for m in marks[marks.index(tops[-1]) + 1 :] if m.level == 2]
    assert under == ["API reference", "Command-line reference"], under
    contents = _contents_text(edition)
    assert f"pages {start}\u2013{len(edition['pages'])}" in re.sub(r"\s+", " ", _body_text(edition["pages"][start - 1]))
    assert f"{make_pdf.REFERENCE_CAPTION} {start}" in contents


# ----------------------------------------------------------------------------- tables on paper


def _norm(text: str) -> str:
    import unicodedata

    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def _printed_tables():
    """The rows of every table a chapter's code prints, as the single page holds them: for each body row,
    its labels (pandas' index: the row's header cells) and its cells; and each line of a table printed as
    text (an output's lines with columns: runs of spaces inside them)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((SINGLE_PAGE / "book.html").read_text(encoding="utf-8"), "html.parser")
    rows, lines = [], []
    for table in soup.select(".cell_output table"):
        for tr in table.select("tbody tr"):
            labels = [_norm(th.get_text(" ")) for th in tr.find_all("th", recursive=False)]
            cells = [_norm(td.get_text(" ")) for td in tr.find_all("td", recursive=False)]
            rows.append((" ".join(x for x in labels if x), [c for c in cells if c]))
    for pre in soup.select(".cell_output pre"):
        for line in pre.get_text().splitlines():
            if re.search(r"\S {2,}\S", line.strip()):
                lines.append(_norm(line))
    return rows, lines


SINGLE_PAGE = sitetools.ROOT / "_build" / "pdf" / "_build" / "singlehtml"
#: A table's cell that is a number (as irmeans-page.js tells them from text).
NUMBER = re.compile(r"^[-+\u2212]?[\d.,]+(e[-+]?\d+)?%?$|^(nan|True|False|[-\u2013])?$", re.I)


def test_no_table_row_is_broken_over_two_lines(edition):
    """Wide tables wrapped into unreadable rows (the student's edition's pp. 71, 95 - Table 3(c) -, 96, 97,
    101 and 112: "1 SP hard-easy 0.739 0.714 / 0.712"). Each row of a table of numbers is printed on a line
    of its own: whole, or, in a table split by columns, in parts that each start with the row's labels.
    Each line of a table printed as text is a line of its own too. Only a description (a cell of words, not
    a number) too wide for a line wraps, in a part of the table of its own."""
    rows, text_lines = _printed_tables()
    assert len(rows) > 100, len(rows)
    printed = {_norm(line) for page in edition["pages"] for line in pdf_pages.visual_lines(page)}
    starts = [line for line in printed]
    broken = []
    for label, cells in rows:
        i = 0
        while i < len(cells):
            # The longest run of cells from i that is a printed line of its own, with the row's labels.
            for j in range(len(cells), i, -1):
                if _norm(" ".join([label, *cells[i:j]])) in printed:
                    break
            else:
                # A description too wide for a line (not a number) wraps in its column, in a part of its
                # own: its line starts with the row's labels and the description's first words.
                words = cells[i].split()
                head = _norm(" ".join([label, *words[:3]]))
                if not NUMBER.match(cells[i]) and len(words) > 3 and any(line.startswith(head) for line in starts):
                    i += 1
                    continue
                broken.append(_norm(" ".join([label, *cells])))
                break
            if not label and (i, j) != (0, len(cells)):
                broken.append(_norm(" ".join(cells)))  # a row without labels is never split
                break
            i = j
    broken += [line for line in text_lines if line not in printed]
    assert not broken, f"{edition['pdf'].name}: {len(broken)} rows not on a line of their own: {broken[:8]}"
