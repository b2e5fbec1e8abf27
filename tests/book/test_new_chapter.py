"""A chapter is two files: CONTRIBUTING.md's steps, followed on an eleventh chapter, need no other edit.

In a copy of the source tree made a git repository of its own, the book is cut to chapter 1 and the back
matter (committed: a book of two chapters builds in seconds). Then a new chapter is added as CONTRIBUTING.md's
"Add a chapter" says: its notebook (``chapters/11-the-median.ipynb``: a worked example, a numbered figure, a
number of the prose computed, a citation of a work references.bib has, two self-checks) and its module
(``book/irmeans_book/chapters/ch11_the_median.py``: the figure's function, the self-checks' answers, what a
reader's change of its data must show), the notebook executed with ``make chapter``'s script. The commit holds
those two files and nothing else, and with no other edit:

- the book's checks take it, each finding the chapter by its name: the chapters' registration, the code it
  shows, its JupyterLab cells, its self-checks, its typed numbers, its figures for slides, a reader's own data,
  and nbval's run of its stored outputs;
- the site builds with it (``-W -n``: no warning) and passes check_site.py, the book's second chapter (its
  figure Fig. 2.1), in Part II;
- the PDFs print it, with its bookmark.

About 2 min on an idle machine (the site, its PDFs and one notebook's runs).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from irmeans_book import downloads

ROOT = Path(__file__).resolve().parents[2]
GIT = ["git", "-c", "user.name=Author", "-c", "user.email=author@example.org", "-c", "init.defaultBranch=main"]
NAME = "11-the-median"
NOTEBOOK = f"chapters/{NAME}.ipynb"
MODULE = "book/irmeans_book/chapters/ch11_the_median.py"

#: The new chapter's module, as CONTRIBUTING.md's steps write it.
MODULE_TEXT = '''"""Chapter 11's code: its worked example, its figure and the answers of its self-check exercises.

Examples
--------
>>> float(irmeans.median(SCORES)), float(irmeans.arithmetic_mean(SCORES))
(0.3, 0.4)
"""

from __future__ import annotations

import altair as alt
import irmeans
import pandas as pd

from irmeans_book.plots import example, show
from irmeans_book.selfcheck import Number, selfcheck

__all__ = ["EXAMPLE", "FIGURES", "PROSE_NUMBERS", "READER_CHANGE", "SCORES", "scores_figure"]

#: The worked example: one system's scores on four topics, one of them far above the others.
SCORES = example([0.1, 0.2, 0.4, 0.9])

#: The chapter's example by the names its notebook gives it: checks of the text are strict on it.
EXAMPLE = {"scores": SCORES}


def scores_figure(scores=SCORES):
    """Figure 11.1 for these scores: a bar per topic, with the median and the mean as rules.

    Examples
    --------
    >>> scores_figure([0.2, 0.4]).spec["description"]
    'A bar for each of the 2 topics: their median is 0.300 and their mean 0.300.'
    """
    frame = pd.DataFrame({"topic": [str(i + 1) for i in range(len(scores))], "score": list(map(float, scores))})
    bars = alt.Chart(frame).mark_bar().encode(
        x=alt.X("topic:N", title="Topic"), y=alt.Y("score:Q", title="Score", scale=alt.Scale(domain=[0, 1]))
    )
    median, mean = float(irmeans.median(scores)), float(irmeans.arithmetic_mean(scores))
    alt_text = f"A bar for each of the {len(scores)} topics: their median is {median:.3f} and their mean {mean:.3f}."
    return show(bars.properties(width=300, height=200), alt=alt_text)


#: The chapter's numbered figures, by label: the calls that make them as the chapter shows them.
FIGURES = {"fig-ch11-scores": scores_figure}


@selfcheck("sc-ch11-median")
def ch11_median() -> Number:
    """The median of the example's scores."""
    return Number(irmeans.median(SCORES), decimals=3)


@selfcheck("sc-ch11-mean")
def ch11_mean() -> Number:
    """The arithmetic mean of the example's scores."""
    return Number(irmeans.arithmetic_mean(SCORES), decimals=3)


#: What a reader changes in the chapter's data cell, and what the chapter then shows.
READER_CHANGE = {
    "lines": {"scores = np.array([0.1, 0.2, 0.4, 0.9])": "scores = np.array([0.3, 0.5, 0.6, 0.7])"},
    "named": {"The median is below the mean"},
    "figures": {"fig-ch11-scores": [0.3, 0.5, 0.6, 0.7]},
}

#: The numbers the chapter's prose types: none.
PROSE_NUMBERS: list = []
'''

GOALS = """---
numbering:
  enumerator: "11.%s"
  equation: false
---
# The median of per-topic scores

```{admonition} Learning goals
:class: tip
After this chapter you can

- compute the median of a system's per-topic scores with `irmeans.median`;
- say why one easy topic moves the mean and not the median.
```"""
PROSE_IMPORTS = """# The prose's cross-references and citations (irmeans_book.prose).
# Used by the markdown's {eval} roles
from irmeans_book.prose import caption, cite_p, cite_t, doc, numref  # noqa: F401"""
EXAMPLE_CELL = """import numpy as np

import irmeans

scores = np.array([0.1, 0.2, 0.4, 0.9])
print(irmeans.median(scores), irmeans.arithmetic_mean(scores))"""
CHECKS_CELL = """from irmeans_book import claims
from irmeans_book.chapters import ch11_the_median as ch11

claim = claims.about(ch11.EXAMPLE, scores=scores)
claim(irmeans.median(scores) < irmeans.arithmetic_mean(scores), "The median is below the mean")
# The numbers of the text below.
ch11_median, ch11_mean = irmeans.median(scores), irmeans.arithmetic_mean(scores)"""
TEXT = """## The middle topic

The median is below the mean: {eval}`f"{ch11_median:.3f}"` against {eval}`f"{ch11_mean:.3f}"`. The one easy topic
pulls the mean up and leaves the median where it was {eval}`cite_p("ravana2009aggregation")`.
{eval}`numref("fig-ch11-scores")` shows the scores."""
FIGURE_CELL = """from irmeans_book.chapters import ch11_the_median as ch11

ch11.scores_figure(scores)"""
CAPTION = "The example's scores, a bar per topic."
EXERCISES = """## Exercises

````{exercise} Self-check
:label: sc-ch11-median
:class: selfcheck

What is the median of the example's scores? Give three decimals.
````

````{exercise} Self-check
:label: sc-ch11-mean
:class: selfcheck

What is their arithmetic mean? Give three decimals.
````"""
SUMMARY = """## Summary

- The median of per-topic scores is the typical topic's; one easy topic does not move it."""


def new_chapter() -> nbformat.NotebookNode:
    """The eleventh chapter's notebook as its author writes it, before it is executed."""
    nb = nbformat.read(ROOT / "chapters" / "01-introduction.ipynb", as_version=4)  # its kernel and language
    hidden = {"jupyter": {"source_hidden": True}}
    nb.cells = [
        nbformat.v4.new_markdown_cell(GOALS),
        nbformat.v4.new_code_cell(PROSE_IMPORTS, metadata={**hidden, "tags": ["remove-cell"]}),
        nbformat.v4.new_code_cell(EXAMPLE_CELL),
        nbformat.v4.new_code_cell(CHECKS_CELL, metadata={**hidden, "tags": ["remove-cell"]}),
        nbformat.v4.new_markdown_cell(TEXT),
        nbformat.v4.new_code_cell(
            FIGURE_CELL,
            metadata={
                **hidden,
                "tags": ["hide-input"],
                "mystnb": {"figure": {"caption": CAPTION, "name": "fig-ch11-scores"}},
            },
        ),
        nbformat.v4.new_markdown_cell(EXERCISES),
        nbformat.v4.new_markdown_cell(SUMMARY),
    ]
    return nb


def _git(clone: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=clone, check=True, capture_output=True, text=True).stdout


def _run(clone: Path, *command: str) -> subprocess.CompletedProcess:
    """``command`` in the clone, its book package (the new chapter's module) imported from there."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(clone / "book"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(command)}:\n" + "\n".join((done.stdout + done.stderr).splitlines()[-40:])
    return done


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """The source tree cut to chapter 1 (committed), then the eleventh chapter added by its two files (committed)."""
    clone = tmp_path_factory.mktemp("book") / "irmeans"
    for relative in downloads.source_files(ROOT):
        (clone / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / relative, clone / relative)
    shutil.copytree(ROOT / "book" / "assets", clone / "book" / "assets")  # the site's JavaScript, made by make
    # A book of one chapter: the others, their modules and their own tests go; the back matter's one link to
    # chapter 2 becomes its title.
    for path in (clone / "chapters").glob("[0-9][0-9]-*.ipynb"):
        if not path.name.startswith("01-"):
            number = path.name[:2]
            path.unlink()
            for module in (clone / "book" / "irmeans_book" / "chapters").glob(f"ch{number}_*.py"):
                module.unlink()
                (clone / "tests" / "book" / f"test_{module.name}").unlink(missing_ok=True)
    page = clone / "chapters" / "get-the-code.md"
    page.write_text(page.read_text(encoding="utf-8").replace("{doc}`02-ranked-lists`", "chapter 2"), "utf-8")
    _git(clone, "init", "-q")
    _git(clone, "add", "-A")
    _git(clone, "commit", "-q", "-m", "A book of one chapter")

    # CONTRIBUTING.md, "Add a chapter": the notebook and the module, the notebook executed, both committed.
    (clone / MODULE).write_text(MODULE_TEXT, encoding="utf-8")
    nbformat.write(new_chapter(), clone / NOTEBOOK)
    _run(clone, sys.executable, "book/scripts/execute_notebooks.py", NOTEBOOK)
    _git(clone, "add", "-A")
    _git(clone, "commit", "-q", "-m", "Chapter 11: the median")
    return clone


def test_contributing_says_what_the_test_does():
    steps = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert (
        "## Add a chapter" in steps and "## Add a figure" in steps and "## Add an exercise with a self-check" in steps
    )
    assert "chapters/NN-name.ipynb" in steps and "book/irmeans_book/chapters/chNN_name.py" in steps
    assert "references.bib" in steps


def test_the_chapter_is_its_notebook_and_its_module(clone):
    assert _git(clone, "diff", "--name-only", "HEAD~1", "HEAD").split() == [MODULE, NOTEBOOK]
    assert _git(clone, "status", "--porcelain") == ""  # executing it left nothing else behind


#: The checks that hold each chapter, found by its name (the others read the whole book's text and figures, and
#: know its ten chapters: a book of two is not theirs to check).
CHECKS = [
    "tests/book/test_chapters.py",
    "tests/book/test_chapter_code.py",
    "tests/book/test_lab_cells.py",
    "tests/book/test_notebook_check.py",
    "tests/book/test_selfcheck.py",
    "tests/book/test_prose_numbers.py",
    "tests/book/test_make_figures.py",
    "tests/book/test_own_data.py",
    "tests/book/test_sources_readings.py",
    "tests/book/test_chapter_maths.py",
    NOTEBOOK,
]
#: Those of their tests that are the new chapter's (by its notebook's name, its module's, its labels') or every
#: chapter's, and the registration's.
SELECTED = f"{NAME} or ch11 or every_chapter or test_chapters.py or a_call_for_every_numbered_figure"


def test_the_books_checks_take_it(clone):
    pytest_ = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-k", SELECTED, *CHECKS]
    nbval = ["--nbval", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]
    listed = _run(clone, *pytest_, *nbval, "--collect-only", "-q").stdout.splitlines()
    for check in (
        f"test_own_data.py::test_a_chapter_runs_on_a_readers_data_and_names_what_no_longer_holds[{NAME}]",
        f"test_chapter_code.py::test_the_code_on_the_page_runs_without_the_removed_cells[{NAME}]",
        "test_selfcheck.py::test_every_answer_computes[sc-ch11-median]",
        "test_make_figures.py::test_the_table_has_a_call_for_every_numbered_figure_and_no_other",
        f"{NOTEBOOK}::",
        "test_chapters.py::test_every_notebook_has_its_module_by_name_and_every_module_its_notebook",
    ):
        assert any(check in line for line in listed), f"{check} was not collected"
    done = _run(clone, *pytest_, *nbval, "-q")
    assert re.search(r"\b\d+ passed", done.stdout) and " failed" not in done.stdout, done.stdout[-2000:]


def test_the_site_and_the_pdfs_take_it(clone):
    _run(clone, str(Path(sys.executable).with_name("jupyter-book")), "build", "-W", "-n", "--keep-going", ".")
    _run(clone, sys.executable, "book/scripts/check_site.py", "_build/html")
    page = (clone / "_build" / "html" / "chapters" / f"{NAME}.html").read_text(encoding="utf-8")
    # The book numbers its chapters in order: in a book of two, the new one is the second.
    assert "Fig. 2.1" in page and "Exercise 2.2" in page and "2. The median of per-topic scores" in page
    home = (clone / "_build" / "html" / "chapters" / "index.html").read_text(encoding="utf-8")
    assert f'{NAME}.html">2. The median of per-topic scores' in home and "Part II" in home
    _run(clone, sys.executable, "book/scripts/make_pdf.py")
    pdfs = sorted((clone / "_build" / "pdf").glob("*.pdf"))
    assert len(pdfs) == 2
    for pdf in pdfs:
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
        assert "The median of per-topic scores" in text and "Fig. 2.1" in text, pdf.name
