"""Sphinx extension of the book's site: the prose's ``{eval}`` roles, as in Jupyter.

The chapters write every computed value, cross-reference and citation of their
prose as myst-nb's ``{eval}`` role (see :mod:`irmeans_book.prose`). The site is
built from the chapters' stored outputs (``execute_notebooks: off``), and this
extension makes that read as Jupyter reads it:

- **The stored results.** An ``{eval}`` reads the result stored in its
  markdown cell's ``user_expressions`` metadata, which ``make notebooks``
  writes and which JupyterLab shows too. A missing result is a build warning
  (an error under ``-W``). That the stored results are what the code computes
  now is checked by ``make test``, in the one run of each chapter that checks
  its code cells' stored outputs (nbval; ``tests/notebook_check.py``).
- **References and citations stay Sphinx's.** A :class:`~irmeans_book.prose.Reference`
  carries its MyST role as :data:`~irmeans_book.prose.MYST_MIMETYPE`, which
  :class:`MystRenderer` parses in place, before plain text: the site's figure
  numbers, document titles and citations are Sphinx's own, linked.
- The expressions allowed are :data:`irmeans_book.prose.EVAL_PATTERN`
  (myst-nb's ``nb_eval_name_regex``).
- **JupyterLab's front matter is taken off.** A chapter's first cell starts with MyST
  front matter that numbers its exercises for jupyterlab-myst
  (``book/scripts/execute_notebooks.py``); myst-nb reads no front matter from a
  notebook's cells and would set it as a rule and a heading, so the notebook's text
  is read without it (Sphinx's ``source-read``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from irmeans_book.prose import EVAL_PATTERN, MYST_MIMETYPE, without_front_matter
from myst_nb.core import render
from myst_nb.core.execute.base import EvalNameError, NotebookClientBase
from myst_nb.core.render import MditRenderMixin
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util.typing import ExtensionMetadata

#: Where the markdown cell being rendered is recorded on the notebook's client.
CURRENT_CELL = "_irmeans_markdown_cell"


class MystRenderer:
    """A myst-nb mime renderer: :data:`MYST_MIMETYPE` is MyST, parsed where the output is."""

    # Before text/plain for every builder (html, and singlehtml for the PDF).
    mime_priority_overrides = [("*", MYST_MIMETYPE, 3)]

    @staticmethod
    def handle_mime(renderer: Any, data: Any, inline: bool) -> Any:
        if data.mime_type != MYST_MIMETYPE:
            return None
        return renderer._render_markdown_base(data, fmt="myst", inline=inline)


_render_markdown = MditRenderMixin.render_nb_cell_markdown


def render_nb_cell_markdown(self: Any, token: Any) -> None:
    """Record which markdown cell is rendered (its ``{eval}`` results are stored there), then render it."""
    setattr(self.nb_client, CURRENT_CELL, token.meta["index"])
    _render_markdown(self, token)


def _stored(client: Any, name: str) -> tuple[int | None, dict[str, Any] | None]:
    """The current markdown cell's index, and the result stored there for expression ``name`` (or None)."""
    index = getattr(client, CURRENT_CELL, None)
    cell = client.notebook.cells[index] if index is not None else {"metadata": {}}
    for stored in cell["metadata"].get("user_expressions", []):
        if stored.get("expression") == name:
            return index, stored.get("result", {})
    return index, None


def stored_eval(self: Any, name: str) -> list[dict[str, Any]]:
    """``{eval}`` as the site reads it: the result stored in the current markdown cell's ``user_expressions``."""
    if not re.match(self.nb_config.eval_name_regex, name):
        raise EvalNameError(name)
    index, result = _stored(self, name)
    if result is None:
        raise KeyError(f"no stored result for {name!r} in markdown cell {index} (run `make notebooks`)")
    if result.get("status") != "ok":
        return [{"output_type": "error", "ename": result.get("ename", ""), "evalue": result.get("evalue", "")}]
    return [{"output_type": "execute_result", "data": result["data"], "metadata": result.get("metadata", {})}]


def _eval_pattern(app: Sphinx, config: Config) -> None:
    config.nb_eval_name_regex = EVAL_PATTERN


def without_lab_front_matter(text: str) -> str:
    """A notebook's JSON ``text`` with the front matter of its first markdown cell taken off (as it is, if none).

    >>> cell = {"cell_type": "markdown", "metadata": {}, "source": ["---\\n", "numbering: {}\\n", "---\\n", "# Title"]}
    >>> json.loads(without_lab_front_matter(json.dumps({"cells": [cell]})))["cells"][0]["source"]
    '# Title'
    """
    nb = json.loads(text)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            kept = without_front_matter(source)
            if kept == source:
                return text
            cell["source"] = kept
            return json.dumps(nb, ensure_ascii=False)
    return text


def _source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    if str(app.env.doc2path(docname)).endswith(".ipynb"):
        source[0] = without_lab_front_matter(source[0])


def setup(app: Sphinx) -> ExtensionMetadata:
    # myst-nb finds mime renderers through entry points and caches the list;
    # the book registers its own without packaging a plugin.
    plugins = render.load_mime_renders()
    if MystRenderer not in plugins:
        plugins.append(MystRenderer)
    MditRenderMixin.render_nb_cell_markdown = render_nb_cell_markdown
    # The site is built from the stored outputs (execution off): its client reads the stored results.
    NotebookClientBase.eval_variable = stored_eval
    app.connect("config-inited", _eval_pattern)
    app.connect("source-read", _source_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
