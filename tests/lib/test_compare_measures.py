"""Several measures compared at once: a comparison each, one Holm family each or all together, every format."""

import csv
import io
import json

import numpy as np
import pytest
from irmeans import ScoreMatrix, compare
from irmeans.comparison.by_measure import compare_measures
from irmeans.comparison.significance import holm
from irmeans.errors import IrmeansError

TOPICS = tuple(str(401 + t) for t in range(12))
SYSTEMS = ("bm25", "rm3", "dfr")


@pytest.fixture(scope="module")
def matrices():
    rng = np.random.default_rng(5)
    return [ScoreMatrix(rng.beta(1, 2, (3, 12)), SYSTEMS, TOPICS, measure=m) for m in ("map", "P_10")]


SETTINGS = {"permutations": 400, "bootstrap": 100, "seed": 2}


def test_each_measure_is_its_own_holm_family_and_the_library_s_comparison(matrices):
    both = compare_measures(matrices, ["am", "gm:0.01"], **SETTINGS)
    assert both.measures == ("map", "P_10") and both.holm == "measure"
    for m, matrix in zip(both.measures, matrices):
        assert both[m].to_json() == compare(matrix, ["am", "gm:0.01"], **SETTINGS).to_json()
        assert both[m].comparisons == 3 * 2


def test_all_measures_together_are_one_holm_family_stated_in_the_report(matrices):
    both = compare_measures(matrices, ["am", "gm:0.01"], holm="all", **SETTINGS)
    one = [compare(m, ["am", "gm:0.01"], **SETTINGS) for m in matrices]
    joint = holm(np.concatenate([c.tests.p_t.ravel() for c in one])).reshape(2, 2, 3)
    np.testing.assert_array_equal(both["P_10"].tests.p_t_holm, joint[1])
    np.testing.assert_array_equal(both["map"].tests.p_t, one[0].tests.p_t)  # the raw p-values unchanged
    assert both["map"].comparisons == 12 and both["map"].p_floor_holm == pytest.approx(12 / 401)
    text = " ".join(line.lstrip("# ") for line in both.format("text").splitlines())
    assert "Holm families: every measure together" in text
    assert "Holm-adjusted over the 12 comparisons of each test (of every measure compared together" in text


def test_every_format_holds_every_measure(matrices):
    both = compare_measures(matrices, ["am"], **SETTINGS)
    text = both.format("text")
    lines = text.splitlines()
    assert lines[0] == "# Measures x averages" and "# Measure: map" in lines and "# Measure: P_10" in lines
    assert lines[5].split() == ["A", "B", "measure", "am"] and max(map(len, lines)) <= 100
    rows = list(csv.DictReader(io.StringIO(both.format("csv"))))
    assert len(rows) == 2 * 3 and {r["measure"] for r in rows} == {"map", "P_10"} and "difference" in rows[0]
    data = json.loads(both.format("json"))
    assert data["holm"] == "measure" and list(data["measures"]) == ["map", "P_10"]
    assert both.format("markdown").count("**Measures x averages.**") == 1 and "## P_10" in both.format("markdown")
    latex = both.format("latex")
    assert latex.startswith("% needs \\usepackage{booktabs,longtable,array}") and latex.count("booktabs") == 1


def test_the_summary_is_measures_by_averages_with_the_marks(matrices):
    both = compare_measures(matrices, ["am", "gm:0.01"], **SETTINGS)
    table = both.summary_table(3)
    assert table.columns == ("A", "B", "measure", "am", "gm:0.01") and len(table.rows) == 3 * 2
    assert [r[2] for r in table.rows[:2]] == ["map", "P_10"]


def test_what_cannot_be_compared_together_is_refused(matrices):
    with pytest.raises(IrmeansError, match="holm must be one of measure, all"):
        compare_measures(matrices, holm="each")
    with pytest.raises(IrmeansError, match="each measure once"):
        compare_measures([matrices[0], matrices[0]])
    other = ScoreMatrix(matrices[1].scores, ("a", "b", "c"), TOPICS, measure="P_10")
    with pytest.raises(IrmeansError, match="P_10: its systems are not the first measure's"):
        compare_measures([matrices[0], other])
