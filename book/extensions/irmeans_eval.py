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
- **myst-nb's internals are changed in one place.** :data:`PATCHES` lists each change
  (what it replaces, the parameters it expects there, why); :func:`setup` checks each
  against the installed myst-nb before making it and stops the build naming the one
  that no longer fits, and tests/book/test_eval_extension.py checks each by name, so
  that a myst-nb upgrade fails one test that says which.
- **JupyterLab's front matter is taken off.** A chapter's first cell starts with MyST
  front matter that numbers its exercises for jupyterlab-myst
  (``book/scripts/execute_notebooks.py``); myst-nb reads no front matter from a
  notebook's cells and would set it as a rule and a heading, so the notebook's text
  is read without it (Sphinx's ``source-read``).
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
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


def _add_renderer() -> None:
    # myst-nb finds mime renderers through entry points and caches the list;
    # the book registers its own without packaging a plugin.
    plugins = render.load_mime_renders()
    if MystRenderer not in plugins:
        plugins.append(MystRenderer)


def _record_the_cell() -> None:
    MditRenderMixin.render_nb_cell_markdown = render_nb_cell_markdown


def _read_stored_results() -> None:
    NotebookClientBase.eval_variable = stored_eval


@dataclass(frozen=True)
class Patch:
    """One change the site makes to myst-nb's internals: the attribute it replaces or uses, the parameters that
    attribute takes (the replacement takes the same), how it is made and why."""

    name: str
    owner: object
    attribute: str
    parameters: tuple[str, ...]
    make: Callable[[], None]
    why: str

    def misfit(self) -> str | None:
        """What no longer fits in the installed myst-nb (None if all does): the attribute gone, or its parameters."""
        where = f"{getattr(self.owner, '__module__', '')}.{getattr(self.owner, '__name__', self.owner)}"
        target = getattr(self.owner, self.attribute, None)
        if not callable(target):
            return f"{where}.{self.attribute} is gone"
        # The original, if this patch is made already: its parameters are what must still fit.
        original = _ORIGINALS.get(self.name, target)
        found = tuple(inspect.signature(original).parameters)
        if found != self.parameters:
            return f"{where}.{self.attribute} takes {found}, not {self.parameters}"
        return None

    def apply(self) -> None:
        """Make the change, after checking that it fits; ``RuntimeError`` naming the patch if it does not."""
        problem = self.misfit()
        if problem:
            raise RuntimeError(f"the book's myst-nb patch {self.name!r} ({self.why}) no longer fits: {problem}")
        _ORIGINALS.setdefault(self.name, getattr(self.owner, self.attribute))
        self.make()


_ORIGINALS: dict[str, Callable[..., Any]] = {}

#: Every change to myst-nb's internals, made by :func:`setup` (pinned: myst-nb 1.4.0, constraints.txt).
PATCHES = (
    Patch(
        "mime-renderer",
        render,
        "load_mime_renders",
        (),
        _add_renderer,
        "MystRenderer is added to myst-nb's cached list of mime renderers",
    ),
    Patch(
        "markdown-cell",
        MditRenderMixin,
        "render_nb_cell_markdown",
        ("self", "token"),
        _record_the_cell,
        "the markdown cell being rendered is recorded: its {eval} results are stored there",
    ),
    Patch(
        "stored-eval",
        NotebookClientBase,
        "eval_variable",
        ("self", "name"),
        _read_stored_results,
        "{eval} reads the result stored in the cell, the chapters not being executed",
    ),
)


def setup(app: Sphinx) -> ExtensionMetadata:
    for patch in PATCHES:
        patch.apply()
    app.connect("config-inited", _eval_pattern)
    app.connect("source-read", _source_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
