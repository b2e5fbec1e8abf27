"""A reader's own numbers through a chapter: change its example's data, run it, and it follows them.

For each chapter, the test rewrites the data cells as a reader
would (other numbers in the same lines), runs the whole chapter in a copy of the
chapters' folder, and checks that it completes, that its figures (their data,
where their controls start, their alt text), its live controls (where they
start: where its figure's controls do) and its "your scores" box show the
new data, and that the claims of the text the new data no longer bear out are
named, each by a sentence the chapter really has (in its text or a figure's
caption). On the book's own data the same checks are strict (tests/book's nbval
run and the site's build fail on a claim that does not hold); that is tested in
:mod:`irmeans_book.claims`, and that they show nothing there, below.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from irmeans_book import chapters
from irmeans_book.claims import note
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTE = re.compile(r"no longer holds: “(.*)”$")

#: Per chapter (by its notebook's name): the change a reader makes and what must follow, as its module says
#: (``READER_CHANGE``, found with the chapter's module).
CHANGES = {
    chapters.notebook_stem(module.__name__.rpartition(".")[2]): module.READER_CHANGE
    for module in chapters.chapter_modules()
}


#: Appended to the chapter: where each of its live controls' figures starts (the widgets' values as drawn), read
#: from the kernel's Out, which holds the controls a cell displayed.
LIVE_CELL = """import json as _json
from irmeans_book.plots import LiveFigure as _LiveFigure
_live = [o for o in Out.values() if isinstance(o, _LiveFigure)]
print("LIVE " + _json.dumps([{p["name"]: p.get("value") for p in o.figure.spec.get("params", [])} for o in _live]))"""


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _numbers(spec) -> set[float]:
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, float | int) and not isinstance(node, bool):
            found.add(round(float(node), 9))

    walk(spec.get("datasets", {}))
    walk(spec.get("data", {}))
    walk([p.get("value") for p in spec.get("params", [])])  # where the figure's controls start
    return found


def test_every_chapter_is_changed():
    found = [path.stem for path in chapters.notebooks(ROOT)]
    assert found and sorted(CHANGES) == found


def test_a_failed_claim_names_its_sentence_in_the_note():
    assert NOTE.search(note("The arithmetic mean prefers A")["text/plain"]).group(1) == "The arithmetic mean prefers A"


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_chapter_runs_on_a_readers_data_and_names_what_no_longer_holds(name, tmp_path):
    change = CHANGES[name]
    shutil.copytree(ROOT / "chapters", tmp_path / "chapters")
    shutil.copy(ROOT / "references.bib", tmp_path)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")  # a reader's own files, as the README's commands use them
    path = tmp_path / "chapters" / f"{name}.ipynb"
    nb = nbformat.read(path, as_version=4)
    replaced = 0
    for cell in nb.cells:
        if cell.cell_type == "code":
            for old, new in change["lines"].items():
                if old in cell.source:
                    cell.source = cell.source.replace(old, new)
                    replaced += 1
    assert replaced == len(change["lines"]), f"{name}: the data cell no longer has its lines as written here"
    nb.cells.append(nbformat.v4.new_code_cell(LIVE_CELL))

    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()

    # The chapter's text: its markdown and its figures' captions.
    captions = [c.metadata.get("mystnb", {}).get("figure", {}).get("caption", "") for c in nb.cells]
    markdown = _squash(" ".join([c.source for c in nb.cells if c.cell_type == "markdown"] + captions))
    named = set()
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/plain", "")
            match = NOTE.search(text)
            if match:
                named.add(match.group(1))
    assert change["named"] <= named, f"{name}: not named: {change['named'] - named}"
    for sentence in named:
        assert _squash(sentence) in markdown, f"{name}: the note names {sentence!r}, which the text does not have"

    specs = {}
    for cell in nb.cells:
        label = cell.metadata.get("mystnb", {}).get("figure", {}).get("name")
        for output in cell.get("outputs", []):
            spec = output.get("data", {}).get("application/vnd.vegalite.v5+json")
            if spec:
                specs[label or f"cell-{id(cell)}"] = spec
    for label, values in change["figures"].items():
        assert label in specs, f"{name}: {label} was not drawn"
        shown = _numbers(specs[label])
        assert {round(v, 9) for v in values} <= shown, f"{name}: {label} does not show the new data"
    for label, text in change.get("described", {}).items():
        assert label in specs, f"{name}: {label} was not drawn"
        assert text in specs[label]["description"], f"{name}: {label}'s alt text does not describe the new data"
    for label, values in change.get("params", {}).items():
        assert label in specs, f"{name}: {label} was not drawn"
        start = {p["name"]: p.get("value") for p in specs[label].get("params", [])}
        assert {k: start.get(k) for k in values} == values, f"{name}: {label}'s controls do not start at the new data"
    live = json.loads(nb.cells[-1].outputs[0].text.removeprefix("LIVE "))
    if "live" in change:
        assert live, f"{name}: no live controls were displayed"
        start = {p["name"]: p.get("value") for p in specs[change["live"]].get("params", [])}
        for drawn in live:
            shared = (set(start) & set(drawn)) - change.get("not_live", set())
            assert shared, f"{name}: the live controls draw none of {change['live']}'s controls"
            assert {k: drawn[k] for k in shared} == {k: start[k] for k in shared}, (
                f"{name}: the live controls do not start where {change['live']} does"
            )
    else:
        assert not live, f"{name}: live controls, but no figure named for them here"
    if "box" not in change:  # the chapter has no "your scores" box
        return
    boxes = [s for s in specs.values() if any(p.get("name") == "scores_a" for p in s.get("params", []))]
    assert boxes, f"{name}: the 'your scores' box was not drawn"
    if change["box"]:
        assert change["box"] in json.dumps(boxes[0], ensure_ascii=False), (
            f"{name}: the box does not start with the new data"
        )


def test_on_the_books_data_the_checks_show_nothing():
    """A check of the text's claims adds nothing to the page on the book's own data: no note, and no bare True left
    by a check that ends its cell (its input is removed from the page, its output is not)."""
    shown = []
    for path in sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and "claim(" in cell.source and cell.outputs:
                shown.append(f"{path.name}: cell {cell.get('id')}")
    assert not shown, shown
