"""The prose's {eval} roles on a small book: make notebooks stores them (each after every cell above it, removed
ones included), and the site's build, which does not execute the chapters, shows what is stored. That the stored
results are current is checked by the chapters' nbval run: tests/book/test_notebook_check.py."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "book" / "extensions"
sys.path[:0] = [str(ROOT / "book" / "scripts"), str(BOOK)]
import execute_notebooks  # noqa: E402 - a script of the book's, not an installed module
import irmeans_eval  # noqa: E402
from irmeans_book.prose import MYST_MIMETYPE  # noqa: E402

CONF = f"""
import sys
sys.path.insert(0, {str(BOOK)!r})
extensions = ["myst_nb", "irmeans_eval"]
nb_execution_mode = {{mode!r}}
nb_execution_timeout = 60
exclude_patterns = ["_build"]
"""


def _notebook() -> nbformat.NotebookNode:
    removed = {"tags": ["remove-cell"]}
    cells = [
        nbformat.v4.new_markdown_cell("# A chapter\n\n(sec-alpha)=\n## Alpha\n\nText."),
        nbformat.v4.new_code_cell(
            'from irmeans_book.prose import Reference\nx = 0.12345\nalpha = Reference("Section Alpha", "{ref}`sec-alpha`")',
            metadata=removed,
        ),
        nbformat.v4.new_markdown_cell('X is {eval}`f"{x:.2f}"`, see {eval}`alpha`.'),
        nbformat.v4.new_code_cell("assert x > 0", metadata=removed),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def _build(folder: Path, nb: nbformat.NotebookNode, mode: str) -> tuple[subprocess.CompletedProcess, str]:
    (folder / "conf.py").write_text(CONF.format(mode=mode), encoding="utf-8")
    (folder / "index.md").write_text("# Book\n\n```{toctree}\nchapter\n```\n", encoding="utf-8")
    nbformat.write(nb, folder / "chapter.ipynb")
    out = folder / "_build"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(folder), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    page = out / "chapter.html"
    return done, page.read_text(encoding="utf-8") if page.is_file() else ""


@pytest.fixture
def stored(tmp_path):
    """The small chapter after `make notebooks`: each markdown cell's results stored in its metadata."""
    path = tmp_path / "chapter.ipynb"
    nbformat.write(_notebook(), path)
    execute_notebooks.execute(path, timeout=60)
    return nbformat.read(path, as_version=4)


def test_make_notebooks_stores_what_jupyterlab_myst_stores(stored):
    assert "user_expressions" not in stored.cells[0].metadata  # no {eval} in it
    results = stored.cells[2].metadata["user_expressions"]
    assert [r["expression"] for r in results] == ['f"{x:.2f}"', "alpha"]  # seen after the removed cell above
    assert results[0]["result"] == {"status": "ok", "data": {"text/plain": "'0.12'"}, "metadata": {}}
    assert results[1]["result"]["data"] == {"text/plain": "Section Alpha", MYST_MIMETYPE: "{ref}`sec-alpha`"}


def test_make_notebooks_stops_at_an_expression_that_fails_or_is_not_allowed(tmp_path):
    for text, message in (("{eval}`y`", "NameError"), ("{eval}`x + 1`", "not an expression the prose may use")):
        nb = _notebook()
        nb.cells[2].source = text
        nbformat.write(nb, tmp_path / "bad.ipynb")
        with pytest.raises(execute_notebooks.ExpressionError, match=message):
            execute_notebooks.execute(tmp_path / "bad.ipynb", timeout=60)


def test_without_execution_the_stored_results_are_shown(tmp_path, stored):
    # Each build in a folder of its own: myst-nb writes a copy of the chapter beside the build.
    (tmp_path / "1").mkdir(), (tmp_path / "2").mkdir()
    stored.cells[2].metadata["user_expressions"][0]["result"]["data"]["text/plain"] = "'stored'"
    done, page = _build(tmp_path / "1", stored, "off")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "X is <span" in page and ">stored</span>" in page  # what the cell stores, not what the code computes
    # The reference is Sphinx's, resolved and linked: the section's title, not the plain text.
    assert 'href="#sec-alpha"' in page and "Alpha</span></a>" in page and "Section Alpha" not in page
    del stored.cells[2].metadata["user_expressions"]
    done, _ = _build(tmp_path / "2", stored, "off")
    assert done.returncode != 0 and "no stored result" in done.stderr


def test_the_myst_renderer_takes_only_its_own_type():
    calls = []

    class Renderer:
        def _render_markdown_base(self, data, fmt, inline):
            calls.append((data.mime_type, fmt, inline))
            return ["nodes"]

    data = type("Data", (), {"mime_type": MYST_MIMETYPE})()
    assert irmeans_eval.MystRenderer.handle_mime(Renderer(), data, True) == ["nodes"]
    assert calls == [(MYST_MIMETYPE, "myst", True)]
    data.mime_type = "text/plain"
    assert irmeans_eval.MystRenderer.handle_mime(Renderer(), data, True) is None


def test_setup_registers_the_renderer_before_plain_text():
    from myst_nb.core.render import get_mime_priority, load_mime_renders

    hooks = []
    irmeans_eval.setup(type("App", (), {"connect": lambda self, event, fn: hooks.append(event)})())
    assert irmeans_eval.MystRenderer in load_mime_renders() and hooks == ["config-inited", "source-read"]
    for builder in ("html", "singlehtml"):
        order = get_mime_priority(builder, ())
        assert order.index(MYST_MIMETYPE) < order.index("text/plain")
    config = type("Config", (), {})()
    irmeans_eval._eval_pattern(None, config)
    assert config.nb_eval_name_regex == irmeans_eval.EVAL_PATTERN


def test_the_front_matter_jupyterlab_reads_is_taken_off_before_the_site_reads_a_chapter():
    """A chapter's first cell starts with the front matter that numbers its exercises in JupyterLab; myst-nb reads
    none from a notebook's cells, and would have set it as a rule and a heading (a cell of its own showed in
    JupyterLab as an empty first cell)."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "chapters" / "04-averaging.ipynb"
    text = path.read_text(encoding="utf-8")
    assert "".join(json.loads(text)["cells"][0]["source"]).startswith("---\n")
    nb = json.loads(irmeans_eval.without_lab_front_matter(text))
    first = "".join(nb["cells"][0]["source"])
    assert first.startswith("# Averaging across topics") and "numbering" not in first
    assert len(nb["cells"]) == len(json.loads(text)["cells"])
    source = [text]
    app = type("App", (), {"env": type("Env", (), {"doc2path": lambda self, name: f"/book/{name}.ipynb"})()})()
    irmeans_eval._source_read(app, "chapters/04-averaging", source)
    assert json.loads(source[0]) == nb
    markdown = ["---\nnumbering: {}\n---\n# A page"]
    app.env.doc2path = lambda name: f"/book/{name}.md"
    irmeans_eval._source_read(app, "chapters/index", markdown)
    assert markdown == ["---\nnumbering: {}\n---\n# A page"]  # a markdown page's front matter is MyST's own


# ---------------------------------------------------------------------------
# myst-nb's internals, changed in one place (irmeans_eval.PATCHES)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("patch", irmeans_eval.PATCHES, ids=lambda patch: patch.name)
def test_each_myst_nb_patch_still_fits_the_installed_myst_nb(patch):
    """A myst-nb upgrade that moves or changes what a patch replaces fails here, by the patch's name."""
    assert patch.misfit() is None, f"{patch.name} ({patch.why}): {patch.misfit()}"


def test_a_patch_that_no_longer_fits_stops_the_build_naming_it():
    class Client:
        def eval_variable(self, name, extra):  # a myst-nb that added a parameter
            return []

    made = []
    patch = irmeans_eval.Patch(
        "stored-eval-test", Client, "eval_variable", ("self", "name"), lambda: made.append(1), "a test"
    )
    assert patch.misfit() == f"{__name__}.Client.eval_variable takes ('self', 'name', 'extra'), not ('self', 'name')"
    with pytest.raises(RuntimeError, match="'stored-eval-test' .*no longer fits"):
        patch.apply()
    gone = irmeans_eval.Patch("gone-test", Client, "render", (), lambda: made.append(1), "a test")
    assert gone.misfit().endswith("Client.render is gone")
    assert made == []  # nothing was changed


def test_every_change_to_myst_nb_is_one_of_the_patches():
    """Outside the patches' own functions, the extension sets no attribute of what it imports (no other patch)."""
    tree = ast.parse(Path(irmeans_eval.__file__).read_text(encoding="utf-8"))
    imported = {
        (alias.asname or alias.name).split(".")[0]
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    makers = {patch.make.__name__ for patch in irmeans_eval.PATCHES}
    stray = [
        f"{function.name}: {ast.unparse(node)}"
        for function in ast.walk(tree)
        if isinstance(function, ast.FunctionDef) and function.name not in makers
        for node in ast.walk(function)
        if isinstance(node, ast.Assign | ast.AugAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute) and ast.unparse(target).split(".")[0] in imported
    ]
    assert not stray, stray
    assert {"MditRenderMixin", "NotebookClientBase", "render"} <= imported  # what the patches change
