"""The code a chapter shows is code a student would write; the prose's numbers come from the code.

A reader copies what the page shows. The book's own bookkeeping (the prose's
numbers, assigned for its ``{eval}`` roles, and the ``assert`` lines that check
the text's claims) lives in cells removed from the page (``remove-cell``: still
run by the site's build, by JupyterLab's "Run All" and by nbval). A few checks
the text itself promises ("checked value by value against the published one")
stay on the page, within :data:`MAX_BOOKKEEPING`.
"""

from __future__ import annotations

import ast
import builtins
import json
import re
from pathlib import Path

import pytest
from irmeans_book.prose import EVAL_PATTERN, eval_expressions

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))
#: Tags that take a cell's code off the page (hidden cells are on it, behind a toggle).
REMOVED = {"remove-cell", "remove_cell", "remove-input", "remove_input"}
#: Tags that fold a cell's code away: not counted as the code a reader sees.
FOLDED = {"hide-input", "hide_input", "hide-cell", "hide_cell"}
#: At most this share of the lines of code readers see may be bookkeeping.
MAX_BOOKKEEPING = 0.05


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _tags(cell: dict) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _source(cell: dict) -> str:
    return "".join(cell["source"])


def prose_names(cells: list[dict]) -> set[str]:
    """The names the chapter's ``{eval}`` roles read (in ``f"{x:.3f}"``, ``x``; in ``numref("fig-a")``, ``numref``)."""
    names = set()
    for cell in cells:
        if cell["cell_type"] == "markdown":
            for expression in eval_expressions(_source(cell)):
                tree = ast.parse(expression, mode="eval")
                names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return names


def bookkeeping_lines(source: str, names: set[str]) -> set[int]:
    """The lines of ``source`` that are bookkeeping: ``assert`` statements, glue calls and their import,
    and assignments to a name the prose reads."""
    marked = set()
    for node in ast.walk(ast.parse(source)):
        mark = isinstance(node, ast.Assert)
        mark |= isinstance(node, ast.Call) and getattr(node.func, "id", None) == "glue"
        mark |= isinstance(node, ast.ImportFrom) and node.module == "myst_nb"
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            mark |= any(isinstance(n, ast.Name) and n.id in names for t in targets for n in ast.walk(t))
        if mark:
            marked |= set(range(node.lineno, node.end_lineno + 1))
    return marked


def visible_counts(cells: list[dict]) -> tuple[int, int]:
    """(non-blank lines of code readers see, how many of them are bookkeeping)."""
    names = prose_names(cells)
    seen = kept = 0
    for cell in cells:
        if cell["cell_type"] != "code" or _tags(cell) & (REMOVED | FOLDED):
            continue
        source = _source(cell)
        lines = {i for i, line in enumerate(source.splitlines(), start=1) if line.strip()}
        seen += len(lines)
        kept += len(lines & bookkeeping_lines(source, names))
    return seen, kept


def test_counting_finds_bookkeeping():
    source = 'x = f(1)\nassert x > 0, (\n    "positive"\n)\nglue("ch1_x", x)\nch1_y = x\n\nprint(x)\n'
    assert bookkeeping_lines(source, {"ch1_y"}) == {2, 3, 4, 5, 6}
    cells = [
        {"cell_type": "markdown", "source": ['It is {eval}`f"{ch1_y:.2f}"`, see {eval}`numref("fig-ch1-x")`.']},
        {"cell_type": "code", "metadata": {}, "source": [source]},
        {"cell_type": "code", "metadata": {"tags": ["remove-cell"]}, "source": ["assert True\n"]},
        {"cell_type": "code", "metadata": {"tags": ["hide-input"]}, "source": ["assert True\n"]},
    ]
    assert prose_names(cells) == {"ch1_y", "numref"}  # not the label's words, nor the format's "f"
    assert visible_counts(cells) == (7, 5)


def test_little_of_the_code_readers_see_is_bookkeeping():
    counts = {path.name: visible_counts(_cells(path)) for path in CHAPTERS}
    seen = sum(s for s, _ in counts.values())
    kept = sum(k for _, k in counts.values())
    report = "; ".join(f"{name}: {k} of {s}" for name, (s, k) in counts.items())
    assert seen > 300, report  # the chapters still show their code
    assert kept / seen <= MAX_BOOKKEEPING, f"{kept} of {seen} lines of code shown are bookkeeping ({report})"


def test_no_glue_is_left():
    for path in CHAPTERS:
        for cell in _cells(path):
            source = _source(cell)
            assert "{glue" not in source and "myst_nb import glue" not in source, path.name


def _defined(tree: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_code_on_the_page_runs_without_the_removed_cells(path):
    # A reader who copies the page's code gets every name it uses: none comes from a removed cell.
    known = set(dir(builtins))
    missing = set()
    for cell in _cells(path):
        if cell["cell_type"] != "code" or _tags(cell) & REMOVED:
            continue
        tree = ast.parse(_source(cell))
        known |= _defined(tree)
        loaded = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        missing |= loaded - known
    assert not missing, f"{path.name}: the page's code uses names only removed cells define: {sorted(missing)}"


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_eval_is_stored_for_jupyterlab(path):
    # As opened, JupyterLab shows a markdown cell's {eval} results from its user_expressions metadata.
    for index, cell in enumerate(_cells(path)):
        if cell["cell_type"] != "markdown":
            continue
        expressions = eval_expressions(_source(cell))
        for expression in expressions:
            assert re.match(EVAL_PATTERN, expression), f"{path.name} cell {index}: {expression}"
        stored = cell.get("metadata", {}).get("user_expressions", [])
        assert [s["expression"] for s in stored] == expressions, f"{path.name} cell {index}: run `make notebooks`"
        for result in (s["result"] for s in stored):
            assert result["status"] == "ok" and result["data"]["text/plain"], f"{path.name} cell {index}"


#: The longest line of code that fits a chapter's code box at 1366 px (753 px of 14 px monospace, less
#: its padding): a longer line makes the box scroll. chapters/ruff.toml formats the chapters to 84.
WIDEST = 85


@pytest.mark.parametrize("path", CHAPTERS + [ROOT / "chapters" / "get-the-code.md"], ids=lambda p: p.stem)
def test_every_line_of_code_a_reader_sees_fits_the_box_of_a_1366_px_laptop(path):
    if path.suffix == ".md":
        shown = re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)
    else:
        shown = [_source(c) for c in _cells(path) if c["cell_type"] == "code" and not _tags(c) & REMOVED]
    long = [line for source in shown for line in source.splitlines() if len(line) > WIDEST]
    assert shown and not long, long
