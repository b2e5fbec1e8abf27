"""The cells a chapter has for JupyterLab alone: its exercises numbered as the site numbers them, and its
figures' numbers and captions under them (book/scripts/execute_notebooks.py's ``lab_cells``).

jupyterlab-myst numbered the exercises "Exercise 1...4" where the site, the PDF and the answer key say
1.1-1.4, and showed no figure's number or caption (it does not read myst-nb's figure metadata), while the
prose says "Fig. 1.1 shows...". The site removes these cells; what they show is computed (``numref``,
``caption``), stored like the prose's other ``{eval}`` results, and checked by nbval's run of each chapter.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from irmeans_book.prose import caption

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "scripts"))
import execute_notebooks  # noqa: E402 - a script of the book's, not an installed module

CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))


def _kind(cell) -> str | None:
    return cell.get("metadata", {}).get("irmeans", {}).get(execute_notebooks.LAB)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_chapters_lab_cells_are_up_to_date(path):
    """`make notebooks` writes them: a chapter whose figures or number changed without it fails here."""
    import nbformat

    stored = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    changed = execute_notebooks.lab_cells(fresh, int(path.name[:2]))
    assert not changed, f"{path.name}: its cells for JupyterLab are stale: run make notebooks"
    first = stored.cells[0]
    assert _kind(first) == "numbering" and f'enumerator: "{int(path.name[:2])}.%s"' in first.source
    for cell in stored.cells:
        if _kind(cell):
            assert cell.metadata["tags"] == ["remove-cell"], cell.metadata  # never on the site


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_each_figure_has_its_number_and_caption_under_it_in_jupyterlab(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    figures = 0
    for cell, after in zip(cells, cells[1:]):
        figure = cell.get("metadata", {}).get("mystnb", {}).get("figure", {})
        if cell["cell_type"] != "code" or not figure.get("name"):
            continue
        figures += 1
        assert _kind(after) == "caption", (path.name, figure["name"])
        stored = {s["expression"]: s["result"]["data"]["text/plain"] for s in after["metadata"]["user_expressions"]}
        number = stored[f'numref("{figure["name"]}")']
        assert re.fullmatch(rf"Fig\. {int(path.name[:2])}\.{figures}", number), number
        # The caption as the site shows it (its quotes typographic: "A’s").
        assert stored[f'caption("{figure["name"]}")'] == caption(figure["name"], path.parent).text
    assert figures or path.name.startswith("10-"), path.name
