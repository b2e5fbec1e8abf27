"""Sphinx extension of the book's site: the prose's ``{eval}`` roles, as in Jupyter.

The chapters write every computed value, cross-reference and citation of their
prose as myst-nb's ``{eval}`` role (see :mod:`irmeans_book.prose`), and the
site is built with myst-nb's inline execution, which evaluates each role in the
chapter's kernel while it runs the chapter. This extension makes that read as
Jupyter reads it:

- **Every cell above runs first.** myst-nb runs a code cell when it reaches
  its output, and never reaches a cell tagged ``remove-cell``: an ``{eval}``
  after such a cell would not see what it computed, and a removed cell at the
  end of a chapter would not run at all. Here each markdown cell first runs
  every code cell above it, and the chapter's end runs the rest, as "Run All"
  does in JupyterLab.
- **Without a kernel, the stored results.** The book's single-page build for
  the PDF does not execute the chapters; there an ``{eval}`` reads the result
  stored in its markdown cell's ``user_expressions`` metadata, which
  ``make notebooks`` writes and which JupyterLab shows too. A missing result is
  a build warning (an error under ``-W``).
- **The stored results are current.** With a kernel, each result is compared
  with the one stored in its cell: one that is missing or differs is a build
  warning naming the expression (run ``make notebooks``), so a chapter opened
  in JupyterLab never shows a number the code no longer computes, as nbval
  checks the code cells' stored outputs.
- **References and citations stay Sphinx's.** A :class:`~irmeans_book.prose.Reference`
  carries its MyST role as :data:`~irmeans_book.prose.MYST_MIMETYPE`, which
  :class:`MystRenderer` parses in place, before plain text: the site's figure
  numbers, document titles and citations are Sphinx's own, linked.
- The expressions allowed are :data:`irmeans_book.prose.EVAL_PATTERN`
  (myst-nb's ``nb_eval_name_regex``).
"""

from __future__ import annotations

import re

from irmeans_book.prose import EVAL_PATTERN, MYST_MIMETYPE
from myst_nb.core import render
from myst_nb.core.execute.base import EvalNameError, NotebookClientBase
from myst_nb.core.execute.inline import NotebookClientInline
from myst_nb.core.render import MditRenderMixin

#: Where the markdown cell being rendered is recorded on the notebook's client.
CURRENT_CELL = "_irmeans_markdown_cell"


class MystRenderer:
    """A myst-nb mime renderer: :data:`MYST_MIMETYPE` is MyST, parsed where the output is."""

    # Before text/plain for every builder (html, and singlehtml for the PDF).
    mime_priority_overrides = [("*", MYST_MIMETYPE, 3)]

    @staticmethod
    def handle_mime(renderer, data, inline):
        if data.mime_type != MYST_MIMETYPE:
            return None
        return renderer._render_markdown_base(data, fmt="myst", inline=inline)


def _run_cells_before(renderer, index: int) -> None:
    client = renderer.nb_client
    setattr(client, CURRENT_CELL, index)
    if isinstance(client, NotebookClientInline):
        client.code_cell_outputs(index)


_render_markdown = MditRenderMixin.render_nb_cell_markdown
_render_finalise = MditRenderMixin.render_nb_finalise


def render_nb_cell_markdown(self, token) -> None:
    """Run every cell above this markdown cell, then render it."""
    _run_cells_before(self, token.meta["index"])
    _render_markdown(self, token)


def render_nb_finalise(self, token) -> None:
    """Run the chapter's last cells (removed ones too), then finish it."""
    client = self.nb_client
    if isinstance(client, NotebookClientInline):
        client.code_cell_outputs(len(client.notebook.cells) - 1)
    _render_finalise(self, token)


def _stored(client, name: str) -> tuple[int | None, dict | None]:
    """The current markdown cell's index, and the result stored there for expression ``name`` (or None)."""
    index = getattr(client, CURRENT_CELL, None)
    cell = client.notebook.cells[index] if index is not None else {"metadata": {}}
    for stored in cell["metadata"].get("user_expressions", []):
        if stored.get("expression") == name:
            return index, stored.get("result", {})
    return index, None


def stored_eval(self, name: str) -> list[dict]:
    """``{eval}`` without a kernel: the result stored in the current markdown cell's ``user_expressions``."""
    if not re.match(self.nb_config.eval_name_regex, name):
        raise EvalNameError(name)
    index, result = _stored(self, name)
    if result is None:
        raise KeyError(f"no stored result for {name!r} in markdown cell {index} (run `make notebooks`)")
    if result.get("status") != "ok":
        return [{"output_type": "error", "ename": result.get("ename", ""), "evalue": result.get("evalue", "")}]
    return [{"output_type": "execute_result", "data": result["data"], "metadata": result.get("metadata", {})}]


_live_eval = NotebookClientInline.eval_variable


def checked_live_eval(self, name: str) -> list[dict]:
    """``{eval}`` in the chapter's kernel, warning if the result stored in the cell is missing or differs."""
    outputs = _live_eval(self, name)
    index, result = _stored(self, name)
    live = [o.get("data") for o in outputs if o.get("output_type") in ("execute_result", "display_data")]
    if result is None or result.get("status") != "ok" or live != [result.get("data")]:
        shown = result.get("data", {}).get("text/plain", "an error") if result else "nothing"
        now = live[0].get("text/plain", "?") if live else "no result"
        line = self.cell_line(index) if index is not None else None
        self.logger.warning(
            f"{{eval}}`{name}` is {now} but markdown cell {index} stores {shown}: run `make notebooks`",
            subtype="eval",
            line=line,
        )
    return outputs


def _eval_pattern(app, config):
    config.nb_eval_name_regex = EVAL_PATTERN


def setup(app):
    # myst-nb finds mime renderers through entry points and caches the list;
    # the book registers its own without packaging a plugin.
    plugins = render.load_mime_renders()
    if MystRenderer not in plugins:
        plugins.append(MystRenderer)
    MditRenderMixin.render_nb_cell_markdown = render_nb_cell_markdown
    MditRenderMixin.render_nb_finalise = render_nb_finalise
    # The inline client evaluates in its kernel (and checks what is stored); every other one
    # (execution off) reads what is stored.
    NotebookClientInline.eval_variable = checked_live_eval
    NotebookClientBase.eval_variable = stored_eval
    app.connect("config-inited", _eval_pattern)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
