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
from irmeans_book.prose import caption, without_front_matter

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
    # The numbering's front matter tops the first cell, the title's: a cell of its own showed as an empty first cell.
    first = stored.cells[0]
    assert first.cell_type == "markdown" and not _kind(first)
    assert first.source.startswith("---\n") and f'enumerator: "{int(path.name[:2])}.%s"' in first.source
    assert re.search(r"^# ", without_front_matter(first.source), re.M)
    for cell in stored.cells:
        assert _kind(cell) in (None, "caption"), cell.metadata
        if _kind(cell):
            assert cell.metadata["tags"] == ["remove-cell"], cell.metadata  # never on the site


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_jupyterlab_finds_nothing_to_rewrite_in_a_chapter_it_opens(path):
    """Opening a chapter marked it changed within a second: JupyterLab wrote the kernel's display name ("Python 3
    (ipykernel)" for the stored "Python 3") and a PNG under every Vega-Lite figure. Both are stored; and the tables
    for paper are folded there (they showed at the end of every chapter, with "NaN")."""
    from jupyter_client.kernelspec import KernelSpecManager

    nb = json.loads(path.read_text(encoding="utf-8"))
    spec = KernelSpecManager().get_kernel_spec("python3")
    assert nb["metadata"]["kernelspec"] == {"display_name": spec.display_name, "language": "python", "name": "python3"}
    figures = [
        o["data"] for c in nb["cells"] for o in c.get("outputs", []) if execute_notebooks.VEGALITE in o.get("data", {})
    ]
    assert all(d.get("image/png", "").startswith("iVBORw0KGgo") for d in figures), path.name  # a PNG's signature
    paper = [c for c in nb["cells"] if "paper-only" in c.get("metadata", {}).get("tags", [])]
    for cell in paper:
        assert cell["metadata"]["jupyter"] == {"source_hidden": True, "outputs_hidden": True}


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
