"""A paper way to do each exercise done with a figure's controls: a table of what the figure shows at the
settings the exercise needs, printed in the PDF only (irmeans_book.paper).

11 of the 27 exercises needed a slider ("Find it with the slider of Fig. 1.1"; 7.2 "Use Fig. 7.1 to find a
setting"), and nothing on paper said so or offered a way to do them there. Each chapter with such exercises
has, after them, a cell tagged ``paper-only`` whose output is the table, computed by the chapter's module
(never typed), titled with the exercises it serves; the site hides it, the PDF prints it.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from irmeans_book import paper
from irmeans_book.prose import exercise

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))
VEGALITE = "application/vnd.vegalite.v5+json"
#: An exercise that names a figure with controls but needs no table: what the printed figure shows instead.
ANSWERED_BY_THE_FIGURE = {"ex-ch7-never": "the heatmap it asks about shows every setting of the two sliders at once"}
EXERCISE = re.compile(r"^([`:]{3,})\{exercise\}([^\n]*)\n(.*?)^\1\s*$", re.M | re.S)


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell) -> str:
    return "".join(cell["source"])


def interactive_figures(cells) -> set[str]:
    """The labels of the chapter's figures that have controls (a parameter bound to an input)."""
    found = set()
    for cell in cells:
        name = cell.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("name")
        for output in cell.get("outputs", []):
            spec = output.get("data", {}).get(VEGALITE)
            if name and spec and any("bind" in p for p in spec.get("params", [])):
                found.add(name)
    return found


def exercises_with_controls(cells) -> dict[str, str]:
    """Each exercise (not a self-check) whose statement names an interactive figure, or a slider (Exercise
    3.5 says "move the slider" of the figure Exercise 3.4 names): its label and text."""
    figures = interactive_figures(cells)
    found = {}
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for _, title, body in EXERCISE.findall(_source(cell)):
            label = re.search(r":label:\s*(\S+)", body).group(1)
            named = set(re.findall(r'numref\("([^"]+)"\)', body))
            asks = named & figures or re.search(r"\bslider\b", body)
            if "selfcheck" not in body and "Self-check" not in title and asks:
                found[label] = body
    return found


def paper_cells(cells) -> list[dict]:
    return [c for c in cells if c["cell_type"] == "code" and "paper-only" in c.get("metadata", {}).get("tags", [])]


def served(cell) -> set[str]:
    """The exercise labels a paper cell's tables are titled with (its ``paper.title`` calls)."""
    labels = set()
    for node in ast.walk(ast.parse(_source(cell))):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "title":
            labels |= {e.value for e in node.args[0].elts}
    return labels


def test_every_exercise_done_with_a_figures_controls_has_a_table_on_paper():
    needing, covered = {}, set()
    for path in CHAPTERS:
        cells = _cells(path)
        needing.update(exercises_with_controls(cells))
        covered |= {label for cell in paper_cells(cells) for label in served(cell)}
    assert len(set(needing) - set(ANSWERED_BY_THE_FIGURE)) >= 11, sorted(needing)
    missing = sorted(set(needing) - covered - set(ANSWERED_BY_THE_FIGURE))
    assert not missing, f"exercises done with a figure's controls, with no table for paper: {missing}"
    assert covered <= set(needing), sorted(covered - set(needing))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_a_paper_table_is_computed_and_shown_on_paper_only(path):
    cells = _cells(path)
    for cell in paper_cells(cells):
        tags = set(cell["metadata"]["tags"])
        assert "remove-input" in tags, tags  # the site shows no code for it, and hides its output (irmeans.css)
        source = _source(cell)
        # Computed by the chapter's module: no number typed in the cell but in its text arguments.
        numbers = [
            n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and type(n.value) in (int, float)
        ]
        assert not numbers, [n.value for n in numbers]
        assert re.search(r"\bch\d\d\.paper_tables?\(", source), source
        texts = [o.get("data", {}).get("text/plain") or o.get("text") for o in cell.get("outputs", [])]
        texts = ["".join(t) for t in texts if t]
        htmls = ["".join(o["data"]["text/html"]) for o in cell.get("outputs", []) if "text/html" in o.get("data", {})]
        assert texts and len(htmls) == len(served_tables(source)), (path.name, len(htmls))
        for label in served(cell):
            assert any(exercise(label, ROOT / "chapters").text in t for t in texts), (label, texts)
        assert all('class="irmeans-paper-table"' in h and "<table" in h for h in htmls)


def served_tables(source: str) -> list[ast.Call]:
    return [
        n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call) and getattr(n.func, "attr", None) == "table"
    ]


def test_the_site_hides_a_paper_table_and_paper_prints_it():
    site = (ROOT / "book" / "static" / "irmeans.css").read_text(encoding="utf-8")
    printed = (ROOT / "book" / "static" / "irmeans-print.css").read_text(encoding="utf-8")
    assert re.search(r"\.tag_paper-only[^{]*\{[^}]*display:\s*none", site)
    assert re.search(r"\.tag_paper-only[^{]*\{[^}]*display:\s*block\s*!important", printed)


def test_a_title_names_its_exercises_and_figure_by_their_numbers():
    title = paper.title(["ex-ch1-flip", "ex-ch1-median"], "fig-ch1-averages", "at each setting", ROOT / "chapters")
    assert title == "For Exercise 1.1 and Exercise 1.2, on paper: Fig. 1.1 at each setting."


def test_a_table_for_paper_prints_its_numbers_alike_and_undefined_for_nan():
    # The PDF's tables mixed precisions (0.28 beside 0.275, 0.309 beside 0.3090) and printed "NaN" where the site says
    # "undefined" (the HM of S2 in chapter 4's table).
    import numpy as np
    import pandas as pd

    frame = pd.DataFrame({"AM": [0.28, 0.275], "HM": [np.nan, 0.15]}, index=[0.0, 0.05])
    shown = repr(paper.table(frame, "A table."))
    assert "NaN" not in shown and "undefined" in shown
    assert "0.2800" in shown and "0.2750" in shown and "0.1500" in shown
    assert "undefined" in paper.table(frame, "A table.")._repr_html_()
    stored = "\n".join(
        "".join(o["data"]["text/plain"])
        for path in CHAPTERS
        for cell in _cells(path)
        if "paper-only" in cell.get("metadata", {}).get("tags", [])
        for o in cell.get("outputs", [])
        if "data" in o
    )
    assert stored and "NaN" not in stored and "undefined" in stored  # chapter 4's HM of S2
