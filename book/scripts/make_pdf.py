"""The whole book as two PDFs, the student's and the instructor's: a single-page build of the site, printed by Chromium.

Usage: ``python book/scripts/make_pdf.py [--site _build/html] [--course]`` (``make pdf``; ``make site`` runs
it too; ``--course``, for a course's site, prints the student's edition alone: ``make course``, and so does a book
whose ``_config.yml`` sets ``irmeans_course``, as a course's source archive does).

1. Jupyter Book builds the book as a single HTML page into ``_build/pdf/``,
   with the site's configuration except that the chapters are not executed
   again: their stored outputs are used, which ``make test`` checks are what
   the code computes.
2. Chromium (Debian's, driven by Playwright; no browser is downloaded) opens
   that page from a local server in a window as wide as the paper's column,
   waits until every figure is drawn and the maths typeset, lays the page out
   for paper, fits every figure to the paper's column (text at 13 px, 9.75 pt,
   as on screen: a figure is never scaled down to fit), and prints it with the
   print style sheet (``book/static/irmeans-print.css``): no navigation, no
   controls (each figure stays at its starting setting), a new page for every
   chapter, headings kept with what follows them.
3. Before printing, ``make_pdf_paper.js`` makes the page one of the book's two
   editions: the student's leaves the exercises' solutions out; the
   instructor's moves them, with every self-check's answer and hint, into an
   appendix at the back. Both say which edition they are (page 1, and the
   PDF's title), get a heading for each part, a contents page, and an outline
   (the PDF's bookmarks: parts, chapters, sections); the library's and the
   command line's reference go last, an appendix a printed copy may leave out
   (:data:`REFERENCE_DOCS`); a table of numbers too wide for the page is split
   by columns. Every link leads somewhere on paper: into the PDF, or to another
   site; a link to a file of the site is a link only if the site has a public
   address (``html.baseurl`` in ``_config.yml``; there is none yet), else text.
   Each edition is printed twice: the first print tells the contents page where
   each heading fell. Chromium makes the bookmarks from the headings as laid
   out, and glues the words either side of a heading's line break ("AP andRR")
   or repeats a heading; each bookmark is then given its heading's own text,
   and the PDF its edition's title (pypdf). A PDF with a link to the server it
   was printed from, or a contents entry without its page, is an error.
4. The PDFs are written to ``_build/pdf/`` (:data:`EDITIONS`) and copied into
   the site (``--site``), where the front page, "Get the code" and every
   chapter's ".pdf" button link to them.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import make_pdf_access
import yaml
from irmeans_book import chapters, chromium

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "_build" / "pdf"
SITE = ROOT / "_build" / "html"
#: The book's two editions and their files: the student's, without solutions, is "the book".
EDITIONS = {"student": "irmeans-book.pdf", "instructor": "irmeans-book-instructor.pdf"}
PDF_NAME = EDITIONS["student"]
#: What each edition is called, on its first page and in its title, and what it holds.
EDITION_NAMES = {"student": "Student\u2019s edition", "instructor": "Instructor\u2019s edition"}
EDITION_DESCRIPTIONS = {
    "student": "the exercises without their solutions, which the instructor\u2019s edition has.",
    "instructor": "every exercise\u2019s solution and every self-check\u2019s answer, in an appendix at the back.",
}
#: A course's edition (``--course``: the student's, alone) says what it holds without naming the instructor's.
COURSE_DESCRIPTION = "the exercises without their solutions, for a course that grades them."
#: The reference pages, moved to an appendix at the very end of both editions, and its heading.
REFERENCE_DOCS = ["chapters/api-reference", "chapters/cli-reference"]
REFERENCE_CAPTION = "Appendix: Library and command-line reference"
#: Makes the single page an edition for paper (parts, contents page, solutions in or out).
PAPER_JS = Path(__file__).with_name("make_pdf_paper.js")
#: Makes the page ready for the PDF's tags: each formula an image with its spoken form, each chart one image
#: with its description.
TAGS_JS = Path(__file__).with_name("make_pdf_tags.js")
VEGALITE_MIMETYPE = "application/vnd.vegalite.v5+json"
#: Every figure drawn: an SVG or a canvas in each figure's div.
FIGURES_DRAWN = (
    """() => Array.from(document.querySelectorAll(".irmeans-figure")).every((d) => d.querySelector("svg, canvas"))"""
)
#: MathJax has typeset the page (its startup promise settles then).
MATHS_TYPESET = "async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }"
#: Each heading's text in document order, as a reader reads it: maths as its text, without the "#" link.
HEADING_TEXTS = """() => Array.from(document.querySelectorAll("h1, h2, h3, h4, h5, h6")).map((h) => {
  const copy = h.cloneNode(true);
  copy.querySelectorAll(".headerlink").forEach((e) => e.remove());
  copy.querySelectorAll("mjx-container").forEach((m) => {
    const text = m.querySelector("mjx-assistive-mml");
    m.replaceWith(text ? text.textContent : m.textContent);
  });
  return copy.textContent.replace(/\\s+/g, " ").trim();
})"""
#: A4, and the margins the book is printed with (mm).
PAPER: dict[str, Any] = {"format": "A4", "width_mm": 210.0}
MARGINS_MM = {"top": 16, "bottom": 18, "left": 14, "right": 14}
#: The width of the paper's column in CSS px (96 to the inch): the window the page is laid out in.
COLUMN_PX = int((PAPER["width_mm"] - MARGINS_MM["left"] - MARGINS_MM["right"]) * 96 / 25.4)
#: The ids of the book's figures (a numbered figure's ``<figure>``, the target of its references).
FIGURE_IDS = """() => Array.from(document.querySelectorAll(".bd-article figure[id]"))
    .filter((f) => f.querySelector(".irmeans-figure svg")).map((f) => f.id)"""
#: How empty a page must be before the figure after it is drawn smaller to fit there (a share of the column), and
#: the room under a page's lowest text that the figure cannot have (the padding of a box of code, the margins).
GAP_SHARE = 0.3
GAP_MARGIN_PX = 48
#: Every figure fitted again to the page as laid out for paper (irmeans-figures.js).
FIGURES_REFITTED = "async () => { if (window.irmeansRefit) await window.irmeansRefit(); }"
#: Every page's footer: the licences (as the site's footer states them) and the page number, at 9 pt
#: (Chromium's header and footer templates are drawn at 3/4 of their CSS size: 12px is 9 pt).
LICENCE_LINE = "Text, figures and TREC data (Urbano & Nagler; Urbano, Lima & Hanjalic): CC BY-SA 4.0 \u00b7 code: MIT"
FOOTER = (
    '<div style="width:100%; font-size:12px; color:#555; display:flex; justify-content:space-between; margin:0 14mm;">'
    f"<span>{LICENCE_LINE}</span>"
    '<span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)


def site_config(course: bool = False) -> dict[str, Any]:
    """The site's ``_config.yml`` for a build whose configuration file lives elsewhere: its relative paths made
    absolute, the chapters' stored outputs used as they are, and, for a course's site, ``irmeans_course`` set."""
    config: dict[str, Any] = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    absolute: Callable[[str], str] = lambda p: str((ROOT / p).resolve())  # noqa: E731
    config.setdefault("execute", {})["execute_notebooks"] = "off"
    config["bibtex_bibfiles"] = [absolute(p) for p in config.get("bibtex_bibfiles", [])]
    if config.get("html", {}).get("favicon"):
        config["html"]["favicon"] = absolute(config["html"]["favicon"])
    sphinx = config.setdefault("sphinx", {})
    sphinx["local_extensions"] = {name: absolute(p) for name, p in (sphinx.get("local_extensions") or {}).items()}
    settings = sphinx.setdefault("config", {})
    settings["html_static_path"] = [absolute(p) for p in settings.get("html_static_path", [])]
    if course:
        settings["irmeans_course"] = True
    return config


def course_book(root: Path | None = None) -> bool:
    """Whether the book at ``root`` (this one by default) is a course's: its ``_config.yml`` sets ``irmeans_course``,
    as a course's source archive does (:func:`irmeans_book.course.course_copy`)."""
    config = yaml.safe_load(((root or ROOT) / "_config.yml").read_text(encoding="utf-8"))
    return bool(((config.get("sphinx") or {}).get("config") or {}).get("irmeans_course"))


def pdf_config(out: Path, course: bool = False) -> Path:
    """The site's ``_config.yml`` for the single-page build (:func:`site_config`), written into ``out``."""
    config = site_config(course)
    sphinx = config["sphinx"]
    settings = sphinx["config"]
    # The figures' Vega-Lite output before its text on the single page too (the site's renderer says so for "html").
    overrides = list(settings.get("nb_mime_priority_overrides", []))
    settings["nb_mime_priority_overrides"] = overrides + [["singlehtml", VEGALITE_MIMETYPE, 5]]
    sphinx["local_extensions"]["make_pdf"] = str(Path(__file__).resolve().parent)  # setup() below
    out.mkdir(parents=True, exist_ok=True)
    path = out / "_config.yml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def build_single_page(out: Path, course: bool = False) -> tuple[Path, str]:
    """Build the book as one HTML page under ``out`` (a course's, :func:`site_config`); return the build's folder
    and the page in it."""
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    command = [str(jupyter_book), "build", "-W", "-n", "--keep-going", "--builder", "singlehtml"]
    command += ["--path-output", str(out), "--config", str(pdf_config(out, course)), str(ROOT)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-30:])
        raise RuntimeError(f"the single-page build failed:\n{tail}")
    root = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]
    folder = out / "_build" / "singlehtml"
    written = folder / f"{root}.html"
    if not written.is_file():
        raise RuntimeError(f"the single-page build wrote no {written}")
    # Sphinx writes the root page where the root document is (chapters/), but links its
    # scripts and styles from the build's top folder: the page is printed from there.
    page = "book.html"
    shutil.copyfile(written, folder / page)
    return folder, page


def public_address() -> str | None:
    """The site's public address (``html.baseurl`` in ``_config.yml``), or None while it has none."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    address = ((config.get("html") or {}).get("baseurl") or "").strip()
    return address or None


def edition(key: str, course: bool = False) -> dict[str, str]:
    """What ``make_pdf_paper.js`` is told of an edition: its key, name and description (a course's, for a course)."""
    description = COURSE_DESCRIPTION if course else EDITION_DESCRIPTIONS[key]
    return {"key": key, "name": EDITION_NAMES[key], "description": description}


def toc_parts() -> list[dict[str, Any]]:
    """The book's parts as ``_toc.yml`` lists them: each part's caption, its chapters' documents (its globs
    expanded), and whether its chapters are numbered (the contents page lists their sections)."""
    return chapters.parts(ROOT)


_OUTLINE_ITEM = re.compile(r'<item page="(\d+)">(.*?)</item>', re.S)


def outline(pdf: Path) -> list[tuple[str, int]]:
    """The PDF's outline (bookmarks) in order, each entry's text and page, as poppler's pdftohtml reads it."""
    tool = shutil.which("pdftohtml")
    if tool is None:
        raise RuntimeError("pdftohtml is missing: install Debian's poppler-utils (make system does)")
    done = subprocess.run([tool, "-xml", "-i", "-stdout", str(pdf)], capture_output=True, check=True)
    text = done.stdout.decode("utf-8", errors="replace")
    return [(_plain(t), int(p)) for p, t in _OUTLINE_ITEM.findall(text)]


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", text))).strip()


def _key(text: str) -> str:
    """What identifies a heading in the outline: its number ("2.5.") if it has one, else its letters.

    Chromium's outline drops the space where a heading's line wraps ("AP andRR"), and may
    repeat a heading's number.
    """
    number = re.match(r"^(\d+\.(?:\d+\.)*)\s", text)
    return number.group(1) if number else re.sub(r"\s+", "", text).casefold()


def reads_as(mark: str, heading: str) -> bool:
    """Whether an outline ``mark``, as Chromium writes it, stands for ``heading``.

    Chromium makes a heading's bookmark from its lines as laid out: it drops the space at a line break
    ("AP andRR"), and for some headings it writes the first line twice ("Answers: 2. Ranked lists:
    precision, recall,Answers: 2. Ranked lists: precision, recall,AP and RR"), or the whole heading twice.

    Examples
    --------
    >>> reads_as("2. Ranked lists: AP andRR", "2. Ranked lists: AP and RR")
    True
    >>> reads_as("Answers: 2. Ranked,Answers: 2. Ranked,AP and RR", "Answers: 2. Ranked, AP and RR")
    True
    >>> reads_as("LicencesLicences", "Licences"), reads_as("Other", "Some")
    (True, False)
    """
    m, h = _key(mark), _key(heading)
    if m == h:
        return True
    m, h = re.sub(r"\s+", "", mark).casefold(), re.sub(r"\s+", "", heading).casefold()
    return len(h) <= len(m) <= 2 * len(h) and m == h[: len(m) - len(h)] + h


def contents_pages(entries: list[dict[str, Any]], marks: list[tuple[str, int]]) -> dict[str, int]:
    """The page of each contents entry (``{"id", "text"}``), found in order among the outline's ``marks``
    (:func:`reads_as`: the instructor's contents gave no page for "Answers: 4", "Answers: 7" and "Answers: 10").

    Examples
    --------
    >>> contents_pages([{"id": "a", "text": "1. One and two"}, {"id": "b", "text": "Answers: 1. One and two"}],
    ...                [("Title", 1), ("Contents", 2), ("1. One andtwo", 3), ("Answers: 1.Answers: 1. One and two", 9)])
    {'a': 3, 'b': 9}
    """
    pages, k = {}, 0
    for entry in entries:
        text = _plain(entry["text"])
        for j in range(k, len(marks)):
            if reads_as(marks[j][0], text):
                pages[entry["id"]], k = marks[j][1], j + 1
                break
    return pages


def bookmark_titles(marks: list[tuple[str, int]], headings: list[str]) -> list[str]:
    """The title each of the outline's ``marks`` should have: its heading's text, found in order among
    ``headings`` (:func:`reads_as`); a mark with no such heading keeps its text.

    Examples
    --------
    >>> bookmark_titles([("Contents", 2), ("2. Ranked lists: AP andRR", 3), ("1.3. 1.3. WhoWho", 4),
    ...                  ("LicencesLicences", 5)], ["Contents", "2. Ranked lists: AP and RR", "1.3. Who", "Licences"])
    ['Contents', '2. Ranked lists: AP and RR', '1.3. Who', 'Licences']
    """
    titles, k = [], 0
    for text, _ in marks:
        title = text
        for j in range(k, len(headings)):
            if reads_as(text, headings[j]):
                title, k = headings[j], j + 1
                break
        titles.append(title)
    return titles


def retitle_outline(pdf: Path, titles: list[str], metadata: dict[str, str] | None = None) -> None:
    """Set the titles of ``pdf``'s bookmarks, in the outline's order, to ``titles``; and its ``metadata``
    (``{"/Title": ...}``), if given."""
    from pypdf import PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter(clone_from=pdf)
    items = []

    def walk(item: Any) -> None:
        while item is not None:
            item = item.get_object()
            items.append(item)
            walk(item.get("/First"))
            item = item.get("/Next")

    walk(writer.root_object["/Outlines"].get_object().get("/First"))  # type: ignore[union-attr]  # pypdf's stubs: it is a dictionary
    if len(items) != len(titles):
        raise RuntimeError(f"{pdf.name}: {len(items)} bookmarks for {len(titles)} titles")
    for item, title in zip(items, titles):
        item[NameObject("/Title")] = TextStringObject(title)
    if metadata:
        writer.add_metadata(metadata)
    with pdf.open("wb") as out:
        writer.write(out)


def server_links(pdf: Path, base: str) -> list[tuple[int, str]]:
    """Each link of ``pdf`` to the server at ``base`` (or to any server of this machine): (page, address)."""
    from pypdf import PdfReader

    found = []
    for number, page in enumerate(PdfReader(pdf).pages, start=1):
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            uri = str(action.get_object().get("/URI") or "") if action is not None else ""
            if uri.startswith(base) or re.match(r"^https?://(127\.0\.0\.1|localhost)[:/]", uri):
                found.append((number, uri))
    return found


#: The book's language, the PDFs' (/Lang and XMP dc:language).
LANGUAGE = "en"


def book_authors() -> str:
    """The book's authors, as ``_config.yml`` names them."""
    return str(yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["author"])


def edition_title(key: str) -> str:
    """The PDF's title: the book's, then the edition's name."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return f"{config['title']} ({EDITION_NAMES[key].lower()})"


def print_pdfs(
    folder: Path,
    page: str,
    out: Path,
    timeout_ms: int = 180_000,
    editions: dict[str, str] = EDITIONS,
    course: bool = False,
) -> dict[str, Path]:
    """Print ``page`` of ``folder`` (served from it) as each of ``editions`` into ``out``, once its figures are
    drawn (as a course's, :func:`edition`, with ``course``)."""
    from playwright.sync_api import sync_playwright

    if not chromium.EXECUTABLE.is_file():
        raise RuntimeError(chromium.missing_message())
    outside, written = [], {}
    parts = toc_parts()
    reference = {"docs": REFERENCE_DOCS, "caption": REFERENCE_CAPTION}
    address = public_address()
    with chromium.serve(folder) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium.EXECUTABLE), args=chromium.ARGS)
        try:
            for key, name in editions.items():
                context = browser.new_context(viewport={"width": COLUMN_PX, "height": 1400})
                tab = context.new_page()
                tab.on(  # type: ignore[call-overload]  # the handler's value is not used
                    "request",
                    lambda r: (
                        r.url.startswith(("http:", "https:")) and not r.url.startswith(base) and outside.append(r.url)  # type: ignore[func-returns-value]  # as above
                    ),
                )
                tab.goto(base + page, wait_until="load", timeout=timeout_ms)
                tab.wait_for_function(FIGURES_DRAWN, timeout=timeout_ms, polling=500)
                tab.evaluate(MATHS_TYPESET)
                tab.emulate_media(media="print")
                tab.evaluate(FIGURES_REFITTED)
                tab.add_script_tag(path=str(PAPER_JS))
                told = [edition(key, course), parts, reference, address]
                made = tab.evaluate("([e, p, r, a]) => irmeansPaper.prepare(e, p, r, a)", told)
                if made["links"]["dangling"]:
                    raise RuntimeError(f"{name}: links to nothing in the book: {made['links']['dangling'][:10]}")
                tab.add_script_tag(path=str(TAGS_JS))
                tagged = tab.evaluate("async () => await irmeansTags.prepare()")
                said, charts = tagged["formulas"], len(tagged["charts"])
                print(f"{name}: {said} formulas given their spoken form, {charts} charts named")
                if tagged["unsaid"]:
                    raise RuntimeError(f"{name}: formulas the speech engine could not say: {tagged['unsaid'][:5]}")
                tab.evaluate("async () => { await Promise.all(document.getAnimations().map((a) => a.finished)); }")
                pdf = out / name
                headings = tab.evaluate(HEADING_TEXTS)
                _print(tab, pdf)  # once to learn where the figures fall,
                gaps = figure_gaps(pdf, tab.evaluate(FIGURE_IDS))
                if gaps and tab.evaluate("(g) => irmeansPaper.fitFiguresToGaps(g)", gaps):
                    _print(tab, pdf)  # (again, with those that fit the room left before them drawn smaller)
                # and where the headings fall,
                marks = outline(pdf)
                retitled = list(zip(bookmark_titles(marks, headings), (number for _, number in marks)))
                pages = contents_pages(made["contents"], retitled)
                missing = [e["text"] for e in made["contents"] if e["id"] not in pages]
                if missing:
                    raise RuntimeError(f"{name}: contents entries found in no bookmark: {missing}")
                tab.evaluate("([pages, last]) => irmeansPaper.fillContents(pages, last)", [pages, page_count(pdf)])
                _print(tab, pdf)  # and once with the contents page's numbers
                retitle_outline(
                    pdf,
                    bookmark_titles(outline(pdf), headings),
                    {"/Title": edition_title(key), "/Subject": edition(key, course)["description"]},
                )
                finished = make_pdf_access.finish(
                    pdf, edition_title(key), edition(key, course)["description"], LANGUAGE, book_authors(), LICENCE_LINE
                )
                drawings = finished["paths"] + finished["images"] + finished["icons"]
                print(
                    f"{name}: {finished['templates']} footers and {drawings} drawings marked as artifacts, "
                    f"{finished['links']} links described"
                )
                dead = server_links(pdf, base)
                if dead:
                    raise RuntimeError(f"{name}: {len(dead)} links to the build's own server, e.g. {dead[:5]}")
                written[key] = pdf
                context.close()
        finally:
            browser.close()
    if outside:
        raise RuntimeError(f"the page asked for files from outside the book: {sorted(set(outside))}")
    return written


def figure_gaps(pdf: Path, ids: list[str]) -> dict[str, float]:
    """The figures of ``ids`` that ``pdf`` prints at the top of a page after a page left more than
    :data:`GAP_SHARE` empty, each with the room left there, in CSS px (what ``fitFiguresToGaps`` of
    ``make_pdf_paper.js`` fits them to). Where a figure is printed is its named destination's page; how much
    room its previous page left is the distance from that page's lowest text to the column's foot."""
    from pypdf import PdfReader

    reader = PdfReader(pdf)
    destinations = reader.named_destinations
    bottom = MARGINS_MM["bottom"] * 72 / 25.4
    top = MARGINS_MM["top"] * 72 / 25.4
    gaps = {}
    for figure in ids:
        destination = destinations.get(f"/{figure}")
        if destination is None:
            continue
        number: int = reader.get_destination_page_number(destination)  # type: ignore[assignment]  # a named destination has its page
        height = float(reader.pages[number].mediabox.height)
        column = height - top - bottom
        if number == 0 or float(destination.top or 0) < height - top - 24:  # not at the top of its page
            continue
        lowest = _text_heights(reader.pages[number - 1], above=bottom)
        room = (min(lowest) - bottom) if lowest else column
        if room > GAP_SHARE * column:
            # Less what lies between the lowest text and the figure: a box's padding, the blocks' margins.
            gaps[figure] = room * 96 / 72 - GAP_MARGIN_PX
    return gaps


def _text_heights(page: Any, above: float) -> list[float]:
    """The height above the page's foot, in points, of each piece of text ``page`` prints above ``above`` (the
    footer is printed in the bottom margin)."""
    heights = []

    def at(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        if text.strip() and y > above:
            heights.append(y)

    page.extract_text(visitor_text=at)
    return heights


def page_count(pdf: Path) -> int:
    from pypdf import PdfReader

    return len(PdfReader(pdf).pages)


def _print(tab: Any, pdf: Path) -> None:
    pdf.parent.mkdir(parents=True, exist_ok=True)
    tab.pdf(
        path=str(pdf),
        format=PAPER["format"],
        print_background=True,
        margin={side: f"{mm}mm" for side, mm in MARGINS_MM.items()},
        display_header_footer=True,
        header_template="<span></span>",
        footer_template=FOOTER,
        outline=True,  # the bookmarks, from the headings (parts at level 1: make_pdf_paper.js)
        tagged=True,
    )


def _html_visitors_for_singlehtml(app: Any) -> None:
    registry = app.registry.translation_handlers
    single = registry.setdefault("singlehtml", {})
    for node, visitors in registry.get("html", {}).items():
        single.setdefault(node, visitors)


def setup(app: Any) -> dict[str, bool]:
    """This module as a Sphinx extension, for the single-page build only.

    Some extensions of Jupyter Book (sphinx-jupyterbook-latex, myst-nb's hidden
    cells) give their nodes visitors for the ``html`` builder alone, and Sphinx
    looks up ``singlehtml``'s by its own name once any extension has registered
    one for it: the single page gets the ``html`` visitors it lacks.
    """
    app.connect("builder-inited", _html_visitors_for_singlehtml)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="folder of the single-page build and the PDF")
    parser.add_argument("--site", type=Path, default=SITE, help="the built site to copy the PDF into")
    parser.add_argument(
        "--course", action="store_true", help="a course's book: the student's edition alone, printed from its site"
    )
    args = parser.parse_args(argv)

    course = args.course or course_book()
    shutil.rmtree(args.out / "_build", ignore_errors=True)
    folder, page = build_single_page(args.out, course)
    editions = {"student": EDITIONS["student"]} if course else EDITIONS
    for edition, pdf in print_pdfs(folder, page, args.out, editions=editions, course=course).items():
        size = pdf.stat().st_size
        if args.site.is_dir():
            shutil.copyfile(pdf, args.site / pdf.name)
            print(f"{edition}'s edition: {pdf} ({size / 1e6:.1f} MB), copied to {args.site / pdf.name}")
        else:
            print(f"{edition}'s edition: {pdf} ({size / 1e6:.1f} MB); no site at {args.site} to copy it into")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
