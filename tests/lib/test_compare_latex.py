"""compare's LaTeX compiles with pdflatex on A4 in the 10 pt article class, and no line or table is too wide for it.

pdflatex, booktabs and longtable come with Debian's texlive-latex-recommended, a system package (the
Makefile's ``system`` target installs it, the README names it). Without pdflatex the tests are skipped
with that message, or, on CI (``CI=true``), fail with it.
"""

import os
import shutil
import subprocess

import numpy as np
import pytest
from irmeans import ScoreMatrix, compare, datasets
from irmeans.comparison.by_measure import compare_measures
from irmeans.comparison.tables import LATEX_NEEDS, LONG_ROWS

PACKAGE = "texlive-latex-recommended"
MISSING = f"pdflatex is not installed: install Debian's {PACKAGE} (apt-get install {PACKAGE})"
PREAMBLE = "\\documentclass[10pt,a4paper]{article}\n\\usepackage{booktabs,longtable,array}\n\\begin{document}\n"


@pytest.fixture(scope="module")
def pdflatex():
    found = shutil.which("pdflatex")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    return found


def compiled(pdflatex, tmp_path, latex: str) -> str:
    """The log of ``latex`` compiled twice (longtable settles its widths on the second run); fails on an error."""
    assert latex.startswith(LATEX_NEEDS + "\n")
    (tmp_path / "doc.tex").write_text(PREAMBLE + latex + "\n\\end{document}\n", encoding="utf-8")
    for _ in range(2):
        done = subprocess.run(
            [pdflatex, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=300,
        )
        log = (tmp_path / "doc.log").read_text(encoding="utf-8", errors="replace")
        assert done.returncode == 0, log[-3000:]
    return log


def fits(log: str) -> bool:
    return "Overfull \\hbox" not in log and "Overfull \\vbox" not in log


RNG = np.random.default_rng(8)
TOPICS = tuple(str(301 + t) for t in range(15))
AWKWARD = (
    "bm25_base",
    "rm3&prf 50%",
    "dfr#x~{y}^2$",
    "runs/a/very/long/path/to/the/submitted/run_file_of_team_x.txt",
    "caf\udce9\x1b[2J",
    "back\\slash",
)


def _matrix(names, measure="map"):
    scores = np.clip(RNG.uniform(0, 0.7, (len(names), len(TOPICS))) + np.arange(len(names))[:, None] * 0.03, 0, 1)
    return ScoreMatrix(scores, names, TOPICS, measure=measure)


@pytest.mark.parametrize("baseline", [None, "bm25_base"])
def test_the_report_and_the_results_table_of_awkward_names_compile_and_fit(pdflatex, tmp_path, baseline):
    c = compare(_matrix(AWKWARD), ["am", "gm:0.01", "logit:0.01"], baseline=baseline, permutations=500, bootstrap=100)
    log = compiled(pdflatex, tmp_path, c.to_latex() + "\n" + c.results_table().format("latex").split("\n", 1)[1])
    assert fits(log), [line for line in log.splitlines() if "Overfull" in line]


def test_several_measures_and_every_average_compile_and_fit(pdflatex, tmp_path):
    names = ("baseline", "feedback", "phrases")
    matrices = [_matrix(names, m) for m in ("map", "P_10", "ndcg_cut_20")]
    specs = ["am", "gm:0.01", "logit:0.01", "hm:0.01", "median", "gm-floor:1e-5"]
    both = compare_measures(matrices, specs, baseline="baseline", permutations=500, bootstrap=100)
    latex = both.format("latex") + "\n" + both.results_table().format("latex").split("\n", 1)[1]
    log = compiled(pdflatex, tmp_path, latex)
    assert fits(log) and latex.count(r"\begin{table}") >= 5


def test_a_long_table_is_a_longtable_across_pages_that_fits(pdflatex, tmp_path):
    trec8 = datasets.load("adhoc8", "ap")
    c = compare(trec8, ["am", "gm:0.01"], baseline="run1", permutations=500, bootstrap=50)
    latex = c.to_latex() + "\n" + c.results_table().format("latex").split("\n", 1)[1]
    assert c.first.size * 2 > LONG_ROWS and r"\begin{longtable}" in latex and r"\endhead" in latex
    log = compiled(pdflatex, tmp_path, latex)
    assert fits(log)
    pages = int(log.rsplit("Output written on doc.pdf (", 1)[1].split(" page", 1)[0])
    assert pages > 5  # 256 rows of differences and of tests: many pages, not one float that overflows
