"""The chapters' code: one module per chapter, named after it, the one home of that chapter's code.

``ch07_map_gmap_mrr`` is chapter 7's (``chapters/07-map-gmap-mrr.ipynb``): its
example data (which the notebook also shows, in the cell that first uses them,
for a reader to change), the functions that make its figures from any data, its
live ipywidgets controls, the averages of its "your scores" box, and the answers
of its self-check exercises (:mod:`irmeans_book.selfcheck`). A figure function
takes the data as arguments and returns the figure, with its alt text, ready to
show or to save for a slide (:meth:`irmeans_book.plots.VegaLiteFigure.save`);
each module's ``FIGURES`` maps the chapter's numbered figures, by label, to the
calls that make them with the book's data (``make figures``).

The plumbing the chapters share (showing a chart, its alt text, the palette,
inline data, a slider's grid, saving for slides) is in :mod:`irmeans_book.plots`.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["CHAPTERS", "chapter_modules", "module_name", "notebook_stem", "notebooks", "parts"]

#: A chapter's module: ``ch`` and its two-digit number, an underscore, its name (``ch07_map_gmap_mrr``).
MODULE = re.compile(r"ch(\d\d)_(\w+)")
#: A chapter's notebook: its two-digit number, a hyphen, its name (``07-map-gmap-mrr.ipynb``).
NOTEBOOK = "[0-9][0-9]-*.ipynb"

#: The chapters' modules, in the book's order: every ``chNN_name.py`` of this package, found by name.
CHAPTERS = tuple(
    sorted(path.stem for path in Path(__file__).parent.glob("ch[0-9][0-9]_*.py") if MODULE.fullmatch(path.stem))
)


def module_name(notebook: str | Path) -> str:
    """The module of a chapter's notebook: ``07-map-gmap-mrr`` (or its path) is ``ch07_map_gmap_mrr``.

    Examples
    --------
    >>> module_name("chapters/07-map-gmap-mrr.ipynb")
    'ch07_map_gmap_mrr'
    """
    stem = Path(notebook).name.removesuffix(".ipynb")
    return "ch" + stem.replace("-", "_")


def notebook_stem(module: str) -> str:
    """The notebook of a chapter's module, without its suffix: ``ch07_map_gmap_mrr`` is ``07-map-gmap-mrr``.

    Examples
    --------
    >>> notebook_stem("ch07_map_gmap_mrr")
    '07-map-gmap-mrr'
    """
    return module.removeprefix("ch").replace("_", "-")


def notebooks(root: Path) -> list[Path]:
    """The chapters' notebooks in ``root``'s ``chapters/`` folder, in the book's order (by their number)."""
    return sorted((Path(root) / "chapters").glob(NOTEBOOK))


def parts(root: Path) -> list[dict[str, Any]]:
    """The book's parts as ``root``'s ``_toc.yml`` lists them, its globs expanded as Sphinx expands them.

    Each part is a dict: its ``caption``, its documents (``docs``, without suffix, relative to ``root``, in
    order) and whether its chapters are ``numbered``. A numbered part lists its chapters by a glob of their
    numbers (``chapters/0[1-5]-*``): a new chapter's notebook is in the book by its name alone. As Sphinx
    does, a glob takes only documents no earlier entry took (Part II's ``chapters/[0-9][0-9]-*`` is "the rest").
    """
    import yaml

    root = Path(root)
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    found, taken = [], set()
    for part in toc["parts"]:
        docs = []
        for entry in part["chapters"]:
            if "glob" in entry:
                matches = sorted(
                    p.relative_to(root).with_suffix("").as_posix() for p in root.glob(entry["glob"] + ".*")
                )
                docs += [doc for doc in matches if doc not in taken]
            else:
                docs.append(entry["file"])
            taken.update(docs)
        found.append({"caption": part["caption"], "docs": docs, "numbered": bool(part.get("numbered"))})
    return found


def chapter_modules() -> list[ModuleType]:
    """The chapters' modules, imported, in the book's order."""
    return [importlib.import_module(f"{__name__}.{name}") for name in CHAPTERS]
