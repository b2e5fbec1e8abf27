"""The site's build plumbing in book/: the Vega-Lite renderer and the site check."""

import sys
from pathlib import Path
from types import SimpleNamespace

from docutils import nodes

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "book"))

import check_site  # noqa: E402
import irmeans_site  # noqa: E402

from irmeans import plots  # noqa: E402

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
    assert len(found) == 3
    assert any(p.startswith("cdn.html") for p in found) and any(p.startswith("font.css") for p in found)
    assert any(p.startswith("fig.html") and "vega-bundle" in p for p in found)


def test_setup_registers_the_renderer_first_for_html():
    from myst_nb.core.render import get_mime_priority, load_mime_renders

    hooks = []
    irmeans_site.setup(SimpleNamespace(connect=lambda event, fn: hooks.append(event)))
    assert irmeans_site.VegaLiteSiteRenderer in load_mime_renders()
    order = get_mime_priority("html", ())
    assert order.index(plots.VEGALITE_MIMETYPE) < order.index("text/html") < order.index("text/plain")
    assert hooks == ["html-page-context"]


def test_the_vega_script_is_added_only_to_pages_with_a_figure():
    added = []
    app = SimpleNamespace(add_js_file=added.append)
    with_figure, without = nodes.section(), nodes.section()
    with_figure += nodes.raw(text=plots.embed_html(SPEC), format="html")
    without += nodes.raw(text="<p>no figure</p>", format="html")
    irmeans_site._add_vega_script(app, "a", "page.html", {}, without)
    assert added == []
    irmeans_site._add_vega_script(app, "b", "page.html", {}, with_figure)
    assert added == [irmeans_site.VEGA_JS]
