"""The site's build plumbing in book/: the Vega-Lite renderer and the site check."""

import sys
from pathlib import Path
from types import SimpleNamespace

from docutils import nodes

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "book" / "scripts"), str(ROOT / "book" / "extensions")]

import check_site  # noqa: E402
import irmeans_site  # noqa: E402
from irmeans_book import plots, prose  # noqa: E402

SPEC = {"description": "A chart.", "mark": "point"}


def test_vegalite_outputs_become_embedded_html():
    data = SimpleNamespace(mime_type=plots.VEGALITE_MIMETYPE, content=SPEC)
    [node] = irmeans_site.VegaLiteSiteRenderer.handle_mime(None, data, False)
    assert isinstance(node, nodes.raw) and node.astext() == plots.embed_html(SPEC)


def test_other_outputs_are_left_to_myst_nb():
    data = SimpleNamespace(mime_type="text/html", content="<p>")
    assert irmeans_site.VegaLiteSiteRenderer.handle_mime(None, data, False) is None
    data = SimpleNamespace(mime_type=plots.VEGALITE_MIMETYPE, content=SPEC)
    assert irmeans_site.VegaLiteSiteRenderer.handle_mime(None, data, True) is None


def test_site_check_finds_outside_scripts_and_missing_vega(tmp_path):
    (tmp_path / "ok.html").write_text('<script src="_static/x.js"></script>')
    (tmp_path / "cdn.html").write_text('<script src="https://cdn.example.org/require.js"></script>')
    (tmp_path / "font.css").write_text("@font-face { src: url(//fonts.example.org/a.woff2) }")
    (tmp_path / "fig.html").write_text(plots.embed_html(SPEC))
    found = check_site.problems(tmp_path)
    assert len(found) == 4
    assert any(p.startswith("cdn.html") for p in found) and any(p.startswith("font.css") for p in found)
    assert any(p.startswith("fig.html") and "vega-bundle" in p for p in found)
    assert any(p.startswith("fig.html") and "irmeans-figures.js" in p for p in found)


def test_site_check_finds_a_page_naming_the_repositorys_placeholder_address(tmp_path):
    """The repository's address in _config.yml is a placeholder until there is a public home: a page linking to it
    (the theme's repository, issues or edit button, a launch button, a page's own text) fails the build."""
    address = check_site.repository_address()
    assert address == "github.com/irmeans/irmeans"
    (tmp_path / "ok.html").write_text('<a href="https://github.com/irmeans-other/x">elsewhere</a>')
    (tmp_path / "button.html").write_text(f'<a class="btn" href="https://{address}/issues/new">issues</a>')
    (tmp_path / "edit.html").write_text(f'<a href="https://{address.upper()}/edit/main/chapters/index.md">')
    (tmp_path / "searchindex.js").write_text(f'Search.setIndex({{"x": "{address}"}})')
    found = check_site.problems(tmp_path)
    assert sorted(p.split(":")[0] for p in found) == ["button.html", "edit.html", "searchindex.js"], found


def test_no_button_of_the_theme_links_to_the_repository():
    """What would link every page to the repository's address is off: the repository, issues and edit buttons,
    and the launch buttons (Binder, Colab, JupyterHub, Thebe)."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    html = config["html"]
    assert not (html["use_repository_button"] or html["use_issues_button"] or html["use_edit_page_button"])
    launch = config["launch_buttons"]
    assert not (launch["binderhub_url"] or launch["colab_url"] or launch["jupyterhub_url"] or launch["thebe"])
    footer = html.get("extra_footer", "") + html.get("extra_navbar", "")
    assert check_site.repository_address() not in footer


def test_setup_registers_the_renderer_first_for_html():
    from myst_nb.core.render import get_mime_priority, load_mime_renders

    hooks, handlers, scripts, directives = [], [], [], {}
    irmeans_site.setup(
        SimpleNamespace(
            connect=lambda event, fn, priority=500: hooks.append(event) or handlers.append(fn),
            add_js_file=lambda name, **options: scripts.append(name),
            add_directive=directives.__setitem__,
        )
    )
    assert scripts == [irmeans_site.PAGE_JS, irmeans_site.TOGGLE_JS, irmeans_site.ACCESS_JS]  # on every page
    assert irmeans_site.VegaLiteSiteRenderer in load_mime_renders()
    order = get_mime_priority("html", ())
    assert order.index(plots.VEGALITE_MIMETYPE) < order.index("text/html") < order.index("text/plain")
    # the Vega script, Thebe's assets dropped, the citation roles, the .pdf button giving the book
    assert hooks.count("html-page-context") == 4 and "build-finished" in hooks
    assert irmeans_site._pdf_button_gives_the_book in handlers
    assert "config-inited" in hooks and "doctree-resolved" in hooks
    assert irmeans_site._search_scorer in handlers
    assert "builder-inited" in hooks and directives == {"irmeans-downloads": irmeans_site.DownloadsDirective}


def test_the_vega_script_is_added_only_to_pages_with_a_figure():
    added = []
    app = SimpleNamespace(add_js_file=added.append)
    with_figure, without = nodes.section(), nodes.section()
    with_figure += nodes.raw(text=plots.embed_html(SPEC), format="html")
    without += nodes.raw(text="<p>no figure</p>", format="html")
    irmeans_site._add_vega_script(app, "a", "page.html", {}, without)
    assert added == []
    irmeans_site._add_vega_script(app, "b", "page.html", {}, with_figure)
    assert added == [irmeans_site.VEGA_JS, irmeans_site.FIGURES_JS]
    added.clear()
    irmeans_site._add_vega_script(app, "search", "search.html", {}, None)
    assert added == [irmeans_site.SEARCH_JS]


def test_the_site_scripts_are_served_from_book_static():
    static = ROOT / "book" / "static"
    for name in (irmeans_site.FIGURES_JS, irmeans_site.SEARCH_JS, irmeans_site.PAGE_JS):
        assert (static / name).is_file(), name


def test_no_navbar_header_above_the_book_theme_header():
    # The PyData navbar's own hidden menu and contents buttons came first in the page and took the themes'
    # click handlers: the visible buttons only showed a tooltip. Without a navbar, they are the first.
    config = SimpleNamespace(html_theme_options={"search_bar_text": "Search"})
    irmeans_site._no_navbar_header(None, config)
    assert config.html_theme_options == {"search_bar_text": "Search", "navbar_persistent": []}
    config = SimpleNamespace(html_theme_options={"navbar_persistent": ["search-button-field"]})
    irmeans_site._no_navbar_header(None, config)
    assert config.html_theme_options["navbar_persistent"] == ["search-button-field"]  # a choice made is kept


def test_pages_writing_epsilon_as_a_symbol_get_it_as_a_search_keyword():
    doc = nodes.document(None, None)
    doc += nodes.paragraph(text="Add ε to every score.")
    irmeans_site._search_keywords(None, doc, "a")
    [meta] = list(doc.findall(nodes.meta))
    assert meta["name"] == "keywords" and "epsilon" in meta["content"].split(", ")
    plain = nodes.document(None, None)
    plain += nodes.paragraph(text="No symbol here.")
    irmeans_site._search_keywords(None, plain, "b")
    assert not list(plain.findall(nodes.meta))


def _paragraph(*parts):
    p = nodes.paragraph()
    p += [nodes.literal(text=part[1:-1]) if part.startswith("`") else nodes.Text(part) for part in parts]
    return p


def test_the_options_a_page_names_in_inline_code_are_its_search_keywords():
    doc = nodes.document(None, None)
    doc += _paragraph("Give ", "`irmeans eval -q --eps 0.01 QRELS RUN`", "; with ", "`-c`", " topics count.")
    doc += _paragraph("Not options: ", "`x[-1] - y`", ", ", "`gm_map-add`", ", -z in plain text, ", "`-5`", ".")
    block = nodes.literal_block(text='python -c "import irmeans"')  # a shell line, not the book naming -c
    doc += block
    assert irmeans_site.page_options(doc) == ["-q", "--eps", "-c"]
    irmeans_site._search_keywords(None, doc, "a")
    [meta] = list(doc.findall(nodes.meta))
    assert meta["content"].split(", ") == ["-q", "--eps", "-c"]


def test_the_options_pattern_is_the_search_pages():
    """irmeans-search.js finds a query's options with the same pattern as the build finds the pages'."""
    script = (ROOT / "book" / "static" / irmeans_site.SEARCH_JS).read_text(encoding="utf-8")
    assert "--?[A-Za-z][A-Za-z0-9_-]*" in irmeans_site.OPTION.pattern
    assert "(--?[A-Za-z][A-Za-z0-9_-]*)" in script


def test_the_book_scripts_examples_run():
    import doctest

    import make_figures

    for module in (irmeans_site, make_figures):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted > 0 and result.failed == 0, module.__name__


def test_the_bibliography_is_labelled_author_year_as_the_text_cites():
    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin

    style = find_plugin("pybtex.style.formatting", "irmeans_author_year")()
    labels = [entry.label for entry in style.format_bibliography(parse_file(ROOT / "references.bib"))]
    assert "Robertson, 2006" in labels and "Ravana and Moffat, 2009" in labels and "Webber et al., 2008" in labels
    assert not any(label.isdigit() for label in labels) and labels == sorted(labels, key=str.casefold)
    assert "irmeans_author_year" in (ROOT / "chapters" / "bibliography.md").read_text(encoding="utf-8")


def test_the_site_cites_with_the_year_of_the_bibliography_label():
    # sphinxcontrib-bibtex's author_year writes the entry's year field: "Urbano et al. [2019]" for both 2019 papers.
    import pybtex_docutils
    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin
    from sphinxcontrib.bibtex.plugin import find_plugin as find_bibtex_plugin
    from sphinxcontrib.bibtex.style.referencing import format_references
    from sphinxcontrib.bibtex.style.template import SphinxReferenceInfo

    bib = parse_file(ROOT / "references.bib")
    formatted = {
        e.key: e for e in find_plugin("pybtex.style.formatting", "irmeans_author_year")().format_bibliography(bib)
    }
    style = find_bibtex_plugin("sphinxcontrib.bibtex.style.referencing", "irmeans_author_year")()
    latex = SimpleNamespace(name="latex")  # a builder whose links are raw LaTeX around the text

    def cite(role, *keys):
        refs = [(bib.entries[k], formatted[k], SphinxReferenceInfo(latex, "a", "b", k, None, "", "")) for k in keys]
        rendered = format_references(style, role, refs).render(pybtex_docutils.Backend())
        return "".join(n.astext() for n in rendered if not isinstance(n, nodes.raw))

    assert "irmeans_author_year" in (ROOT / "_config.yml").read_text(encoding="utf-8")
    # the bibliography's labels and the prose's citations (irmeans_book.prose) give every work the same year
    years = prose.labelled_years(bib.entries)
    assert {key: entry.label.rsplit(", ", 1)[-1] for key, entry in formatted.items()} == {
        key: years[key] for key in formatted
    }
    assert cite("t", "urbano2019standardization") == "Urbano et al. [2019a]"
    assert cite("t", "urbano2019statistical") == "Urbano et al. [2019b]"
    assert (
        cite("p", "urbano2019standardization", "urbano2019statistical")
        == "[Urbano et al., 2019a, Urbano et al., 2019b]"
    )
    assert cite("t", "robertson2006gmap") == "Robertson [2006]" and cite("p", "ravana2009aggregation") == (
        "[Ravana and Moffat, 2009]"
    )


def test_thebe_assets_are_taken_off_the_pages():
    from sphinx.builders.html._assets import _CascadingStyleSheet, _JavaScript

    keep = [_JavaScript("vega/vega-bundle.js"), _CascadingStyleSheet("irmeans.css")]
    thebe = [
        _JavaScript("", body='const THEBE_JS_URL = "https://unpkg.com/thebe"'),
        _JavaScript("sphinx-thebe.js", **{"async": "async"}),
        _CascadingStyleSheet("sphinx-thebe.css"),
    ]
    context = {"script_files": keep[:1] + thebe[:2], "css_files": keep[1:] + thebe[2:]}
    irmeans_site._drop_thebe_assets(None, "a", "page.html", context, None)
    assert context == {"script_files": keep[:1], "css_files": keep[1:]}


def test_thebe_config_node_is_removed():
    doc = nodes.section()
    doc += nodes.raw(text='<script type="text/x-thebe-config">{}</script>', format="html")
    doc += nodes.raw(text="<p>kept</p>", format="html")
    irmeans_site._drop_thebe_config(None, doc, "a")
    assert [n.astext() for n in doc.findall(nodes.raw)] == ["<p>kept</p>"]


def test_citation_entries_become_list_items():
    context = {
        "body": '<div role="list" class="citation-list">\n<div class="citation" id="id4" role="doc-biblioentry">'
    }
    irmeans_site._fix_citation_roles(None, "bib", "page.html", context, None)
    assert context["body"].endswith('<div class="citation" id="id4" role="listitem">')


def _html_app(outdir, root_doc="chapters/index"):
    return SimpleNamespace(
        outdir=str(outdir),
        builder=SimpleNamespace(format="html", get_target_uri=lambda doc: doc + ".html"),
        config=SimpleNamespace(
            root_doc=root_doc, html_title="A <book>", project="x", html_favicon="book/static/favicon.svg", language=None
        ),
    )


def test_the_front_door_sends_readers_to_the_root_page(tmp_path):
    irmeans_site._write_front_door(_html_app(tmp_path), None)
    page = (tmp_path / "index.html").read_text()
    assert 'url=chapters/index.html"' in page and '<a href="chapters/index.html">A &lt;book&gt;</a>' in page
    assert '<html lang="en">' in page and "<title>A &lt;book&gt;</title>" in page
    # An icon of its own, fetched from nowhere: no request for /favicon.ico, cut off or failing.
    assert '<link rel="icon" href="data:,">' in page


def test_the_front_door_leaves_an_existing_index_and_failed_builds_alone(tmp_path):
    irmeans_site._write_front_door(_html_app(tmp_path), RuntimeError("build failed"))
    assert not (tmp_path / "index.html").exists()
    (tmp_path / "index.html").write_text("mine")
    irmeans_site._write_front_door(_html_app(tmp_path), None)
    assert (tmp_path / "index.html").read_text() == "mine"


def test_the_search_scorer_is_the_books_unless_the_configuration_names_one():
    config = SimpleNamespace(html_search_scorer="")
    irmeans_site._search_scorer(None, config)
    assert config.html_search_scorer == str(irmeans_site.SEARCH_SCORER) and irmeans_site.SEARCH_SCORER.is_file()
    assert "var Scorer" in irmeans_site.SEARCH_SCORER.read_text(encoding="utf-8")
    config = SimpleNamespace(html_search_scorer="other.js")
    irmeans_site._search_scorer(None, config)
    assert config.html_search_scorer == "other.js"
