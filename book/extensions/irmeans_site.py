"""Sphinx extension of the book's site: Vega-Lite outputs become live figures.

A chapter's figure is stored in its notebook as the Vega-Lite mimetype, which
Jupyter renders. On the site this extension renders that output as the HTML
of :func:`irmeans_book.plots.embed_html`, and adds the site's own copy of Vega
(``book/assets/vega/``, made by ``book/scripts/vendor_assets.py``) to exactly the
pages that have such a figure.

It also makes the pages right for a reader with no Jupyter:

- the site's front door, ``index.html``, is a small page sending the reader
  to the book's root page, with a title and a language (Jupyter Book's own
  redirect is a bare ``<meta>`` tag);
- the bibliography's entries get the role their list requires
  (``listitem``; docutils writes the deprecated ``doc-biblioentry``);
- sphinx-thebe is taken off the pages: Jupyter Book 1 always loads it, it
  declares ``THEBE_JS_URL`` twice (a script error on every page) and points
  at a CDN, and the book has no live code cells;
- the menu and "Contents" buttons work (:func:`_no_navbar_header`);
- a search for "epsilon" finds the pages that write ε (:data:`SEARCH_SYNONYMS`), the chapter
  that defines what was searched for comes first (:data:`SEARCH_SCORER`),
  a search for a command-line option (``-c``, ``trec_eval -c``, ``--eps``) finds
  the pages that name it in their text (:func:`page_options`), and search results
  show the page's text, not LaTeX, code or the page's buttons (``irmeans-search.js``);
- every page gets ``irmeans-page.js``: a box that scrolls sideways says so, a wide
  table of text is stacked on a narrow screen, long code may break across printed pages;
- a folded solution opens when its title is clicked anywhere but on its link to the exercise,
  which throws no script error (``irmeans-togglebutton.js``, in place of sphinx-togglebutton
  0.4.5's click handler);
- the site serves the source tree it was built from and the library's wheel
  (:mod:`irmeans_book.downloads`, in ``downloads/``), which the ``{irmeans-downloads}``
  directive lists with their sizes and SHA-256, and a command that installs the wheel (a
  course's site, ``irmeans_course``, its chapters without their solutions);
- a number's percent sign stays on its line ("30 %": :func:`keep_percent_with_number`);
- the bibliography is labelled author–year, like the citations in the text
  (:class:`AuthorYearStyle`, the ``bibtex_default_style`` ``irmeans_author_year``), and the
  citations write the year as the bibliography's label does, with its letter ("Urbano et al.
  [2019a]"; :class:`LabelledYearReferenceStyle`, the ``bibtex_reference_style``
  ``irmeans_author_year``).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from docutils import nodes
from irmeans_book import course, downloads
from irmeans_book.plots import SITE_DRAW, VEGALITE_MIMETYPE, embed_html
from irmeans_book.prose import bibliography_order, who_and_year
from myst_nb.core import render
from pybtex.plugin import register_plugin
from pybtex.richtext import Text
from pybtex.style.formatting.unsrt import Style as UnsrtStyle
from pybtex.style.labels import BaseLabelStyle
from pybtex.style.sorting import BaseSortingStyle
from pybtex.style.template import node as template_node
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri
from sphinx.util.typing import ExtensionMetadata
from sphinxcontrib.bibtex.plugin import register_plugin as register_bibtex_plugin
from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle
from sphinxcontrib.bibtex.style.referencing.basic_author_year import (
    BasicAuthorYearParentheticalReferenceStyle,
    BasicAuthorYearTextualReferenceStyle,
)
from sphinxcontrib.bibtex.style.template import join, join2, post_text, pre_text, reference

VEGA_JS = "vega/vega-bundle.js"
#: Fits each figure to its column and to the page's colours, then draws it (book/static).
FIGURES_JS = "irmeans-figures.js"
#: Search results as text: no LaTeX, no code (book/static).
SEARCH_JS = "irmeans-search.js"
#: On every page: scroll cues, stacked tables, long code marked for print (book/static).
PAGE_JS = "irmeans-page.js"
#: sphinx-togglebutton's click handler, replaced: a folded solution's title opens it, its link goes to the
#: exercise (book/static). After togglebutton.js, whose scripts have the default priority, 500.
TOGGLE_JS = "irmeans-togglebutton.js"
#: Toggles named by what they show, focus given back when a dialog closes, Escape closing tooltips (book/static).
#: After sphinx-togglebutton's script too: it names the buttons that script makes.
ACCESS_JS = "irmeans-access.js"
#: Words a reader searches for that the book writes as symbols: a page with the symbol gets the word as a keyword.
SEARCH_SYNONYMS = {"ε": "epsilon", "τ": "tau"}
#: How the search orders its results (Sphinx's ``html_search_scorer``): the defining chapter first.
SEARCH_SCORER = Path(__file__).resolve().parents[1] / "static" / "irmeans-search-scorer.js"
#: A command-line option as the text names it: ``-c``, ``-M``, ``--eps``, ``--extra`` (not ``-1`` or ``x-y``).
#: irmeans-search.js reads a query's options the same way.
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9_-]*)")
THEBE_FILES = ("sphinx-thebe.js", "sphinx-thebe.css")
# An entry of a citation list as docutils writes it, e.g. <div class="citation" id="x" role="doc-biblioentry">.
CITATION_ROLE = re.compile(r'(<div class="citation"[^>]*\brole=")doc-biblioentry(")')


class VegaLiteSiteRenderer:
    """A myst-nb mime renderer for Vega-Lite outputs."""

    # Before text/html (30) and text/plain: the figure, not its alt text.
    mime_priority_overrides = [("html", VEGALITE_MIMETYPE, 5)]

    @staticmethod
    def handle_mime(renderer: Any, data: Any, inline: bool) -> Any:
        if inline or data.mime_type != VEGALITE_MIMETYPE:
            return None
        spec = data.content if isinstance(data.content, dict) else json.loads(data.content)
        return [nodes.raw(text=embed_html(spec), format="html", classes=["output", "vegalite"])]


def _add_vega_script(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    if pagename == "search":
        app.add_js_file(SEARCH_JS)
    if doctree is None:
        return
    if any(f"{SITE_DRAW}(" in node.astext() for node in doctree.findall(nodes.raw)):
        app.add_js_file(VEGA_JS)  # in html-page-context: this page only
        app.add_js_file(FIGURES_JS)


def _search_scorer(app: Sphinx, config: Config) -> None:
    """The site's search scorer (:data:`SEARCH_SCORER`), unless the configuration names another.

    Sphinx reads the file from where the build runs; the path is absolute, so the book's two
    builds (the site, and the PDF's single page from ``_build/pdf``) find it.
    """
    if not config.html_search_scorer:
        config.html_search_scorer = str(SEARCH_SCORER)


def _no_navbar_header(app: Sphinx, config: Config) -> None:
    """No PyData navbar above the book theme's header: without it the menu and "Contents" buttons work.

    pydata-sphinx-theme 0.17 fills its navbar with a search field unless
    ``navbar_persistent`` is set, ignoring sphinx-book-theme's empty default.
    The navbar then brings its own (hidden) menu and contents buttons, first
    in the page; both themes' scripts attach their click handlers to the first
    such button only, so the visible buttons of the book theme's header did
    nothing but show a tooltip.
    """
    options = dict(config.html_theme_options or {})
    options.setdefault("navbar_persistent", [])
    config.html_theme_options = options


def page_options(doctree: nodes.document) -> list[str]:
    """The command-line options the page names in its text's inline code, in order, each once.

    Only inline code (``irmeans eval -q --eps 0.01``, ``-c``): a code cell's
    ``x -y`` or a shell block's ``python -c`` is not the book explaining an option.

    Examples
    --------
    >>> from docutils import nodes
    >>> p = nodes.paragraph()
    >>> p += [nodes.literal(text="irmeans eval -q --eps 0.01"), nodes.Text(" and "), nodes.literal(text="-c")]
    >>> p += nodes.literal(text="x[-1] - y, gm_map")
    >>> page_options(p)
    ['-q', '--eps', '-c']
    """
    found: dict[str, None] = {}
    for node in doctree.findall(nodes.literal):
        for option in OPTION.findall(node.astext()):
            found.setdefault(option, None)
    return list(found)


#: A number and its percent sign, written with a space between them ("30 %"), as the book writes them.
_PERCENT = re.compile(r"(\d) %")
#: Nodes whose text is code or maths, written as it is.
_VERBATIM = (nodes.literal, nodes.literal_block, nodes.math, nodes.math_block, nodes.raw)


def keep_percent_with_number(doctree: nodes.document) -> int:
    """A number's percent sign never starts a line: the space between them ("30 %", "12.0 %", where the
    number is computed and the sign follows it in the text) becomes a no-break space. Not in code or maths.

    Returns how many spaces changed.

    Examples
    --------
    >>> p = nodes.paragraph()
    >>> p += [nodes.Text("by 30 % and "), nodes.inline(text="12.0"), nodes.Text(" % of "), nodes.literal(text="5 %")]
    >>> keep_percent_with_number(p), p.astext()
    (2, 'by 30\xa0% and 12.0\xa0% of 5 %')
    """
    changed = 0
    for text in list(doctree.findall(nodes.Text)):
        if any(isinstance(a, _VERBATIM) for a in _ancestors(text)):
            continue
        new, n = _PERCENT.subn("\\1\u00a0%", str(text))
        if new.startswith(" %"):
            before = _text_before(text)
            if before and before[-1].isdigit():
                new, n = "\u00a0" + new[1:], n + 1
        if n:
            text.parent.replace(text, nodes.Text(new))
            changed += n
    return changed


def _ancestors(node: Any) -> Iterator[Any]:
    while node.parent is not None:
        node = node.parent
        yield node


def _text_before(text: Any) -> str:
    """The text just before ``text`` in its paragraph (its previous sibling's, or that of its parent's)."""
    node = text
    while node.parent is not None:
        index = node.parent.index(node)
        if index > 0:
            before: str = node.parent[index - 1].astext()
            return before
        if isinstance(node.parent, nodes.TextElement) and not isinstance(node.parent, nodes.inline):
            return ""
        node = node.parent
    return ""


def _percent_signs(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    keep_percent_with_number(doctree)


def _search_keywords(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """A ``keywords`` meta: the words of :data:`SEARCH_SYNONYMS` whose symbol the page uses, and its options.

    Sphinx's search index takes each of a page's keywords as one word of the
    page, as it is (``-c`` stays ``-c``, where the text's words are split at
    the hyphen), so a search for an option finds the pages that name it.
    """
    text = doctree.astext()
    words = [word for symbol, word in SEARCH_SYNONYMS.items() if symbol in text] + page_options(doctree)
    if words:
        doctree += nodes.meta(name="keywords", content=", ".join(words))


def author_year_label(entry: Any) -> str:
    """``Robertson, 2006``; ``Ravana and Moffat, 2009``; ``Webber et al., 2008``: as the text cites.

    The names and the year are :func:`irmeans_book.prose.who_and_year`'s, which the prose's citations use too.
    """
    who, year = who_and_year(entry)
    return f"{who}, {year}"


class AuthorYearLabels(BaseLabelStyle):  # type: ignore[misc]  # pybtex has no types
    """Author–year labels; a letter after the year tells apart two works of the same authors and year."""

    def format_labels(self, sorted_entries: Iterable[Any]) -> Iterator[str]:
        labels = [author_year_label(entry) for entry in sorted_entries]
        for i, label in enumerate(labels):
            same = [j for j, other in enumerate(labels) if other == label]
            yield label if len(same) == 1 else label + "abcdefghijklmnopqrstuvwxyz"[same.index(i)]


class AuthorYearSorting(BaseSortingStyle):  # type: ignore[misc]  # pybtex has no types
    """In the order of the labels, then of the titles (:func:`irmeans_book.prose.bibliography_order`)."""

    def sorting_key(self, entry: Any) -> Any:
        return bibliography_order(entry)


class AuthorYearStyle(UnsrtStyle):  # type: ignore[misc]  # pybtex has no types
    """The bibliography sorted and labelled author–year, as the text cites."""

    default_label_style = AuthorYearLabels
    default_sorting_style = AuthorYearSorting


register_plugin("pybtex.style.formatting", "irmeans_author_year", AuthorYearStyle)


@template_node  # type: ignore[untyped-decorator]  # pybtex has no types
def labelled_year(children: list[Any], data: dict[str, Any]) -> Any:
    """The year of a citation as the entry's bibliography label writes it: "2019a" of "Urbano et al., 2019a".

    sphinxcontrib-bibtex's own ``year`` is the entry's field, without the letter that
    tells two works of the same authors and year apart.
    """
    assert not children
    return Text(data["formatted_entry"].label.rsplit(", ", 1)[-1])


class _LabelledParenthetical(BasicAuthorYearParentheticalReferenceStyle):
    def inner(self, role_name: str) -> Any:
        who = self.person.author_or_editor_or_title(full="s" in role_name)
        return join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
            pre_text, reference[join(sep=self.author_year_sep)[who, labelled_year]], post_text
        ]


class _LabelledTextual(BasicAuthorYearTextualReferenceStyle):
    def inner(self, role_name: str) -> Any:
        who = self.person.author_or_editor_or_title(full="s" in role_name)
        cited = join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[pre_text, reference[labelled_year], post_text]
        return join(sep=self.text_reference_sep)[who, join[self.bracket.left, cited, self.bracket.right]]


class LabelledYearReferenceStyle(AuthorYearReferenceStyle):
    """sphinxcontrib-bibtex's ``author_year`` citations, with the year of the bibliography's label."""

    def __post_init__(self) -> None:
        super().__post_init__()  # type: ignore[no-untyped-call]  # sphinxcontrib-bibtex's is untyped
        self.styles[:2] = [
            _LabelledParenthetical(
                bracket=self.bracket_parenthetical,
                person=self.person,
                author_year_sep=self.author_year_sep,
                pre_text_sep=self.pre_text_sep,
                post_text_sep=self.post_text_sep,
            ),
            _LabelledTextual(
                bracket=self.bracket_textual,
                person=self.person,
                text_reference_sep=self.text_reference_sep,
                pre_text_sep=self.pre_text_sep,
                post_text_sep=self.post_text_sep,
            ),
        ]
        self.role_style = {name: style for style in self.styles for name in style.role_names()}


register_bibtex_plugin("sphinxcontrib.bibtex.style.referencing", "irmeans_author_year", LabelledYearReferenceStyle)


def _is_thebe(asset: object) -> bool:
    """Whether a page's script or style sheet belongs to sphinx-thebe."""
    name = str(getattr(asset, "filename", "") or "")
    body = getattr(asset, "attributes", {}).get("body", "")
    return name.split("?")[0].endswith(THEBE_FILES) or "THEBE_JS_URL" in body


def _drop_thebe_assets(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [asset for asset in context[key] if not _is_thebe(asset)]


def _drop_thebe_config(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Remove the ``text/x-thebe-config`` script sphinx-thebe puts in every page."""
    for node in list(doctree.findall(nodes.raw)):
        if "text/x-thebe-config" in node.astext():
            node.parent.remove(node)


#: The book as a PDF, the student's edition (book/scripts/make_pdf.py writes it into the site's top folder),
#: and the instructor's (make_pdf.EDITIONS names both).
BOOK_PDF = "irmeans-book.pdf"
INSTRUCTOR_PDF = "irmeans-book-instructor.pdf"


def _pdf_button_gives_the_book(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    """The header's ".pdf" button links to the whole book as a PDF instead of printing the page."""
    pathto = context.get("pathto")
    for group in context.get("header_buttons", []):
        for button in group.get("buttons", []):
            if button.get("label") == "download-pdf-button" and pathto is not None:
                button.clear()
                button.update(
                    type="link",
                    url=pathto(BOOK_PDF, 1),
                    text=".pdf",
                    tooltip="The whole book as a PDF",
                    icon="fas fa-file-pdf",
                    label="download-pdf-button",
                )


def _fix_citation_roles(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: nodes.document | None
) -> None:
    if "body" in context:
        context["body"] = CITATION_ROLE.sub(r"\1listitem\2", context["body"])


def _write_front_door(app: Sphinx, exception: Exception | None) -> None:
    """A redirecting ``index.html`` at the site's root, if the book's root page is elsewhere."""
    if exception is not None or app.builder.format != "html" or app.config.root_doc == "index":
        return
    index = Path(app.outdir) / "index.html"
    if index.exists():
        return
    target = html.escape(app.builder.get_target_uri(app.config.root_doc), quote=True)
    title = html.escape(app.config.html_title or app.config.project or "")
    # An empty icon of its own: the page is left at once, and a request for the site's icon (or for
    # /favicon.ico, which a browser asks for when a page names none) would be cut off, or fail.
    index.write_text(
        f'<!DOCTYPE html>\n<html lang="{app.config.language or "en"}"><head><meta charset="utf-8">'
        f'<title>{title}</title><link rel="icon" href="data:,">'
        f'<meta http-equiv="Refresh" content="0; url={target}"></head>\n'
        f'<body><main><p><a href="{target}">{title}</a></p></main></body></html>\n',
        encoding="utf-8",
    )


def _write_downloads(app: Sphinx) -> None:
    """The source archive and the wheel, into the html site's ``downloads/`` (a book of this project only)."""
    app.irmeans_downloads = {}  # type: ignore[attr-defined]  # read by DownloadsDirective
    root = Path(app.srcdir)
    if app.builder.name == "html" and (root / "pyproject.toml").is_file() and (root / "lib" / "irmeans").is_dir():
        # A course's site (irmeans_course) serves its chapters without their solutions.
        rewrite = course.course_copy if getattr(app.config, "irmeans_course", False) else None
        app.irmeans_downloads = downloads.write_downloads(root, Path(app.outdir), rewrite)  # type: ignore[attr-defined]  # as above


def where_the_files_are(address: str | None) -> list[nodes.Node]:
    """Where a reader of the book without its site finds the files ``{irmeans-downloads}`` lists (the
    PDF's page 1 and "Get the code"): at the site's public address (Sphinx's ``html_baseurl``,
    ``html.baseurl`` in ``_config.yml``) if it has one; while it has none, who to ask and how to make them.

    Examples
    --------
    >>> print(nodes.paragraph("", "", *where_the_files_are(None)).astext())  # doctest: +ELLIPSIS
    They are served by the book's site, on its page “Get the code”; the site has no public address yet: ...
    >>> print(nodes.paragraph("", "", *where_the_files_are("https://example.org/irmeans/")).astext())
    They are served by the book's site, https://example.org/irmeans/, on its page “Get the code”.
    """
    if address:
        link = nodes.reference(address, address, refuri=address)
        return [nodes.Text("They are served by the book's site, "), link, nodes.Text(", on its page “Get the code”.")]
    return [
        nodes.Text("They are served by the book's site, on its page “Get the code”; the site has no public "),
        nodes.Text("address yet: ask whoever gave you this book for the source archive. In its folder, "),
        nodes.literal(text="make lab"),
        nodes.Text(" opens the chapters, "),
        nodes.literal(text="make book"),
        nodes.Text(" builds the site and "),
        nodes.literal(text="make pdf"),
        nodes.Text(" both editions."),
    ]


class DownloadsDirective(SphinxDirective):
    """``{irmeans-downloads}``: the site's downloads, linked, with their sizes and SHA-256, then the
    command that installs the wheel. Where the build wrote none (the PDF's single page), their names, the
    book's two PDFs, and where the files are (:func:`where_the_files_are`)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        made = getattr(self.env.app, "irmeans_downloads", {})
        if not made:
            return [self.on_paper()]
        what = {
            "source": [
                nodes.Text("the source tree this book was built from (the library, the chapters, the book's code, "),
                nodes.Text("the tests and the example files); it unpacks into a folder "),
                nodes.literal(text=downloads.SOURCE_FOLDER),
            ],
            "wheel": [nodes.Text("the library alone, for "), nodes.literal(text="pip install")],
        }
        here = self.env.app.builder.get_target_uri(self.env.docname)
        items = nodes.bullet_list()
        for kind, text in what.items():
            d = made[kind]
            item = nodes.paragraph()
            uri = relative_uri(here, f"{downloads.FOLDER}/{d.name}")
            item += nodes.reference("", "", nodes.literal(text=d.name), refuri=uri, classes=["irmeans-download"])
            # The whole digest: a reader checks a download against all of it (it was cut to 16 hex digits).
            item += [nodes.Text(f" ({d.size / 1e6:.1f} MB, SHA-256 "), nodes.literal(text=d.sha256), nodes.Text("): ")]
            item += text
            items += nodes.list_item("", item)
        command = f"python3 -m pip install {made['wheel'].name}"
        return [items, nodes.literal_block(command, command, language="sh")]

    def on_paper(self) -> nodes.paragraph:
        """Where no site was built (the PDF's single page): the files, the PDFs among them, and where they are."""
        code: Callable[[str], Any] = lambda text: nodes.literal(text=text)  # noqa: E731
        files = nodes.paragraph(classes=["irmeans-where"])
        files += [code(downloads.SOURCE_ARCHIVE), nodes.Text(" (the source tree this book was built from: the ")]
        files += nodes.Text("library, the chapters, the book's code, the tests and the example files), ")
        files += [code("irmeans-*.whl"), nodes.Text(" (the library alone, for "), code("pip install")]
        files += [nodes.Text(") and the book's two editions, "), code(BOOK_PDF), nodes.Text(" and ")]
        files += code(INSTRUCTOR_PDF)
        address = (self.config.html_baseurl or "").strip() or None
        files += [nodes.Text(". "), *where_the_files_are(address)]
        return files


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("builder-inited", _write_downloads)
    app.add_directive("irmeans-downloads", DownloadsDirective)
    # myst-nb finds mime renderers through entry points and caches the list;
    # the book registers its own without packaging a plugin.
    plugins = render.load_mime_renders()
    if VegaLiteSiteRenderer not in plugins:
        plugins.append(VegaLiteSiteRenderer)
    app.add_js_file(PAGE_JS)  # every page
    app.add_js_file(TOGGLE_JS, priority=501)  # every page, after sphinx-togglebutton's script
    app.add_js_file(ACCESS_JS, priority=502)  # every page, after both
    app.connect("config-inited", _no_navbar_header)
    app.connect("config-inited", _search_scorer)
    app.connect("doctree-resolved", _search_keywords)
    app.connect("doctree-resolved", _percent_signs)
    app.connect("html-page-context", _add_vega_script)
    # Late: after sphinx-thebe has added its assets and its config node.
    app.connect("html-page-context", _drop_thebe_assets, priority=900)
    app.connect("html-page-context", _fix_citation_roles)
    # After the book theme has made its header buttons.
    app.connect("html-page-context", _pdf_button_gives_the_book, priority=900)
    app.connect("doctree-resolved", _drop_thebe_config, priority=900)
    # Before sphinx-external-toc's build-finished handler, which then leaves index.html alone.
    app.connect("build-finished", _write_front_door, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
