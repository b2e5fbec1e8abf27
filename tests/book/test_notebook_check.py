"""The check of the chapters' stored outputs (tests/notebook_check.py, tests/stored_outputs.py): another CPU's last
bit passes, a real change fails, and the prose's stored numbers are checked on the chapter's kernel."""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from stored_outputs import NumbersChecker, canonical, nudged, same

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "scripts"))
import execute_notebooks  # noqa: E402 - a script of the book's, not an installed module

VEGALITE = "application/vnd.vegalite.v5+json"
CHAPTERS = sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))


def _spec(value: float, name: str) -> dict:
    return {"data": {"name": name}, "datasets": {name: [{"y": value}]}, "mark": "point"}


def test_a_figure_differing_in_the_last_bit_and_in_its_data_sets_hash_names_is_the_same():
    a = {"layer": [{"data": {"name": "data-" + "f" * 32}}, {"data": {"name": "data-" + "0" * 32}}]}
    a["datasets"] = {"data-" + "f" * 32: [{"y": 0.1}], "data-" + "0" * 32: [{"y": 0.2}]}
    # Another CPU: the rows one ulp off, so their hashes, and the names' sorted order, differ.
    b = {"layer": [{"data": {"name": "data-" + "1" * 32}}, {"data": {"name": "data-" + "e" * 32}}]}
    b["datasets"] = {"data-" + "1" * 32: [{"y": math.nextafter(0.1, 1)}], "data-" + "e" * 32: [{"y": 0.2}]}
    assert (
        canonical(a)["layer"] == canonical(b)["layer"] == [{"data": {"name": "data-0"}}, {"data": {"name": "data-1"}}]
    )
    assert same(a, b)
    b["datasets"]["data-" + "e" * 32] = [{"y": 0.2000001}]
    assert not same(a, b)


def test_a_docstring_example_passes_as_another_cpu_prints_it_and_fails_on_another_number():
    checker, flags = NumbersChecker(), 0
    assert checker.check_output("0.4\n", "0.39999999999999997\n", flags)
    assert checker.check_output("[0.1, 0.2]\n", "[0.10000000000000002, 0.2]\n", flags)
    assert not checker.check_output("0.4\n", "0.41\n", flags)
    assert not checker.check_output("0.4 of A\n", "0.4 of B\n", flags)


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_every_stored_output_moved_by_a_few_ulp_is_still_the_same_and_a_real_change_is_not(path):
    """Every number a chapter stores (its cells' outputs, its prose's results), moved as another CPU would move it,
    passes the check; the same output with one number changed in its 7th digit does not."""
    nb = nbformat.read(path, as_version=4)
    stored = [o.get("data", o.get("text")) for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    stored += [e["result"].get("data") for c in nb.cells for e in c.metadata.get("user_expressions", [])]
    moved_any = 0
    for value in stored:
        moved = nudged(value)
        moved_any += moved != value
        assert same(moved, value)
        assert same(json.loads(json.dumps(moved)), value)  # as the kernel sends it, as JSON
    assert moved_any or path.stem in ("02-ranked-lists", "10-which-average"), "no float to move"
    figures = [
        o["data"][VEGALITE]
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if VEGALITE in o.get("data", {})
    ]
    for spec in figures:
        changed = _one_number_changed(spec)
        assert changed is None or not same(changed, spec)


def _one_number_changed(node):
    """A copy of ``node`` with its first float over 1e-6 changed in its 7th significant digit (None if it has none)."""
    if isinstance(node, float) and abs(node) > 1e-6:
        return node * (1 + 1e-6)
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        changed = _one_number_changed(value)
        if changed is not None:
            copy = dict(node) if isinstance(node, dict) else list(node)
            copy[key] = changed
            return copy
    return None


# ----------------------------------------------------------------------------- nbval with the plugin, on a small book


def _book(tmp_path: Path) -> Path:
    """A chapter with a figure and prose numbers, executed as `make notebooks` executes it."""
    removed = {"tags": ["remove-cell"]}
    cells = [
        nbformat.v4.new_code_cell("x = sum([0.1] * 10)\nfrom IPython.display import display", metadata=removed),
        nbformat.v4.new_markdown_cell('X is {eval}`f"{x:.3f}"`.'),
        nbformat.v4.new_code_cell(
            "display({%r: {'data': {'name': 'data-' + 'a' * 32}, 'datasets': {'data-' + 'a' * 32: [{'y': x / 3}]}}},"
            " raw=True)" % VEGALITE
        ),
        nbformat.v4.new_code_cell("print(x / 7)"),
        nbformat.v4.new_code_cell("y = x * 2", metadata=removed),
        nbformat.v4.new_markdown_cell('Y is {eval}`f"{y:.3f}"`.'),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = tmp_path / "chapter.ipynb"
    nbformat.write(nb, path)
    execute_notebooks.execute(path, timeout=60)
    return path


def _nbval(path: Path) -> subprocess.CompletedProcess:
    """nbval with the plugin on ``path``, in a pytest of its own (in ``path``'s folder: no conftest of the project)."""
    command = [sys.executable, "-m", "pytest", "--nbval", "-p", "notebook_check", "-v", "-p", "no:cacheprovider"]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tests"))
    return subprocess.run([*command, path.name], cwd=path.parent, env=env, capture_output=True, text=True, timeout=300)


def test_nbval_passes_another_cpus_last_bit_and_fails_a_real_change_and_a_stale_prose_number(tmp_path):
    path = _book(tmp_path)
    nb = nbformat.read(path, as_version=4)
    figure = nb.cells[2].outputs[0]["data"][VEGALITE]
    # Another CPU: the figure's number off by 4 ulp, and so its data set's hash name.
    (rows,) = figure["datasets"].values()
    figure["datasets"] = {"data-" + "b" * 32: nudged(rows)}
    figure["data"]["name"] = "data-" + "b" * 32
    assert nb.cells[3].outputs[0]["text"].strip() == repr(1.0 / 7)  # 0.14285714285714285
    nb.cells[3].outputs[0]["text"] = "0.1428571\n"  # a real change: 7 digits, not 17
    nb.cells[5].metadata["user_expressions"][0]["result"]["data"]["text/plain"] = "'2.001'"  # stale
    nbformat.write(nb, path)

    result = _nbval(path)
    out = result.stdout
    assert re.search(r"ipynb::Cell 1 PASSED", out), out  # the figure
    assert re.search(r"ipynb::Prose 1 PASSED", out), out  # after the removed cell above it
    assert re.search(r"ipynb::Cell 2 FAILED", out), out
    assert re.search(r"ipynb::Prose 5 FAILED", out), out
    assert """{eval}`f"{y:.3f}"` is '2.000', the cell stores '2.001'""" in out, out
    assert result.returncode != 0


def test_a_prose_number_with_no_stored_result_fails(tmp_path):
    path = _book(tmp_path)
    nb = nbformat.read(path, as_version=4)
    del nb.cells[1].metadata["user_expressions"]
    nbformat.write(nb, path)
    result = _nbval(path)
    assert re.search(r"ipynb::Prose 1 FAILED", result.stdout), result.stdout
    assert 'no stored result for f"{x:.3f}": run `make notebooks`' in result.stdout, result.stdout
