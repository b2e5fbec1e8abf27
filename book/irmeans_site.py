"""Sphinx extension of the book's site: Vega-Lite outputs become live figures.

A chapter's figure is stored in its notebook as the Vega-Lite mimetype, which
Jupyter renders. On the site this extension renders that output as the HTML
of :func:`irmeans.plots.embed_html`, and adds the site's own copy of Vega
(``book/assets/vega/``, made by ``book/vendor_assets.py``) to exactly the
pages that have such a figure.
"""

from __future__ import annotations

import json

from docutils import nodes
from myst_nb.core import render

from irmeans.plots import VEGALITE_MIMETYPE, embed_html

VEGA_JS = "vega/vega-bundle.js"


class VegaLiteSiteRenderer:
    """A myst-nb mime renderer for Vega-Lite outputs."""

    # Before text/html (30) and text/plain: the figure, not its alt text.
    mime_priority_overrides = [("html", VEGALITE_MIMETYPE, 5)]

    @staticmethod
    def handle_mime(renderer, data, inline):
        if inline or data.mime_type != VEGALITE_MIMETYPE:
            return None
        spec = data.content if isinstance(data.content, dict) else json.loads(data.content)
        return [nodes.raw(text=embed_html(spec), format="html", classes=["output", "vegalite"])]


def _add_vega_script(app, pagename, templatename, context, doctree):
    if doctree is None:
        return
    if any("vegaEmbed(" in node.astext() for node in doctree.findall(nodes.raw)):
        app.add_js_file(VEGA_JS)  # in html-page-context: this page only


def setup(app):
    # myst-nb finds mime renderers through entry points and caches the list;
    # the book registers its own without packaging a plugin.
    plugins = render.load_mime_renders()
    if VegaLiteSiteRenderer not in plugins:
        plugins.append(VegaLiteSiteRenderer)
    app.connect("html-page-context", _add_vega_script)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
