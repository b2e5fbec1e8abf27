"""A Comparison written out: text, Markdown, LaTeX, CSV, JSON, a DataFrame and the plot, each read back."""

import csv
import io
import json
import math
import re
import sys

import numpy as np
import pytest
from irmeans import ScoreMatrix, compare
from irmeans.comparison.result import COLUMNS, MAX_PLOT_PAIRS, OUTPUT_FORMATS
from irmeans.comparison.tables import Table, latex_escape, render
from irmeans.errors import IrmeansError


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(11)
    s = rng.beta(0.8, 2.0, (3, 12))
    s[0, :3] = 0.0
    matrix = ScoreMatrix(s, ("bm25_base", "rm3&prf", "dfr%x"), tuple(f"4{i:02d}" for i in range(12)), measure="map")
    return compare(matrix, ["am", "gm:0.01", "median"], permutations=500, bootstrap=200, seed=4)


def test_rows_hold_every_column_pair_by_pair_and_average_by_average(result):
    rows = result.rows()
    assert len(rows) == 3 * 3 and list(rows[0]) == list(COLUMNS)
    assert [(r["system_a"], r["system_b"], r["average"]) for r in rows[:4]] == [
        ("bm25_base", "rm3&prf", "am"),
        ("bm25_base", "rm3&prf", "gm:0.01"),
        ("bm25_base", "rm3&prf", "median"),
        ("bm25_base", "dfr%x", "am"),
    ]
    r = rows[4]  # second pair, εGM
    assert r["difference"] == r["mean_a"] - r["mean_b"] == result.difference[1, 1]
    assert r["p_randomization_holm"] == result.tests.p_randomization_holm[1, 1]
    assert math.isnan(rows[2]["t"])  # the median has no t-test


def test_csv_reads_back_to_the_very_numbers(result):
    text = result.to_csv()
    back = list(csv.DictReader(io.StringIO(text)))
    assert list(back[0]) == list(COLUMNS) and len(back) == 9
    for row, original in zip(back, result.rows()):
        for key in ("mean_a", "difference", "ci_low", "p_t", "p_randomization", "p_sign_holm"):
            value = original[key]
            assert (row[key] == "") if math.isnan(value) else (float(row[key]) == value)
        assert row["system_b"] == original["system_b"] and row["robust"] == str(original["robust"])


def test_json_is_strict_and_holds_everything(result):
    data = json.loads(result.to_json(), parse_constant=lambda c: pytest.fail(f"{c} in JSON"))
    assert data["scores"]["systems"] == ["bm25_base", "rm3&prf", "dfr%x"] and len(data["scores"]["topics"]) == 12
    assert data["settings"]["averages"][1] == {"spec": "gm:0.01", "label": "εGM (ε = 0.01)"}
    assert data["settings"]["permutations"] == 500 and data["settings"]["seed"] == 4 and not data["settings"]["exact"]
    assert data["means"]["am"]["rm3&prf"] == result.means[0, 1]
    assert data["comparisons"][2]["t"] is None and data["comparisons"][0]["t"] == result.tests.t[0, 0]
    v = data["verdicts"][0]
    assert set(v["better"]) == {"am", "gm:0.01", "median"} and set(v["sign_test"]) == {
        "wins",
        "losses",
        "ties",
        "p_holm",
    }
    assert v["disagree"] == bool(result.disagree[0])


def test_the_frame_is_indexed_by_pair_and_average(result):
    try:
        import pandas  # noqa: F401  (an optional dependency: the standalone install has none)
    except ImportError:
        with pytest.raises(ImportError, match=r"irmeans\[pandas\]"):
            result.to_frame()
        return
    frame = result.to_frame()
    assert frame.index.names == ["system_a", "system_b", "average"]
    assert frame.loc[("bm25_base", "dfr%x", "gm:0.01"), "difference"] == result.difference[1, 1]
    assert list(frame.columns) == list(COLUMNS[3:])


DIFFERENCES, TESTS = "# Differences, with unadjusted 95% intervals", "# Tests, p raw and Holm-adjusted"


def test_the_text_is_a_report_for_people_results_first_no_wider_than_100_columns(result):
    text = result.to_text(digits=3)
    assert str(result) == result.to_text(digits=4) != text
    lines = text.splitlines()
    assert lines[0] == "# Comparison: map, 3 systems x 12 topics; all 3 pairs, the system the AM prefers first."
    # the results first, the notes after them
    heads = [lines.index(h) for h in ("# Verdicts", DIFFERENCES, TESTS, "# Notes")]
    assert heads == sorted(heads) and heads[0] == 2
    assert max(map(len, lines)) <= 100 and all(line == line.rstrip() for line in lines)
    assert "_" not in lines[lines.index(DIFFERENCES) + 1] + lines[lines.index(TESTS) + 1]
    header = lines[lines.index(DIFFERENCES) + 1]
    assert header.split()[:5] == ["A", "B", "average", "A's", "B's"] and "A - B  95% CI low" in header
    rows = [line.split() for line in lines[lines.index(DIFFERENCES) + 2 : lines.index(TESTS) - 1]]
    am_rows = [r for r in rows if r[2] == "am"]
    assert len(rows) == 9 and all(float(r[5]) >= 0 for r in am_rows)  # the better system under the AM first
    tests_header = lines[lines.index(TESTS) + 1].split()
    assert tests_header == ["A", "B", "average", "t", "p", "(t)", "Holm", "p", "(rand.)", "Holm"]
    first = lines[lines.index(TESTS) + 2].split()
    j = next(j for j, (a, b) in enumerate(result.pairs) if {a, b} == {first[0], first[1]})
    assert first[4:6] == [f"{result.tests.p_t[0, j]:.3g}", f"{result.tests.p_t_holm[0, j]:.3g}"]
    assert first[6] == f"{result.tests.p_randomization[0, j]:.3g}"
    # every test's scale named once, the Holm family stated, the floor of the randomization p given
    notes = " ".join(line.lstrip("# ") for line in lines[lines.index("# Notes") :])
    assert "εGM (ε = 0.01) on log(x + 0.01)" in notes and "median: none" in notes
    assert "Holm-adjusted over the 9 comparisons of each test (3 pairs x 3 averages" in notes
    assert f"smallest possible p is {1 / 501:.3g}, {9 / 501:.3g} after Holm" in notes
    assert "each unadjusted: the interval of one comparison, not corrected for the 9 comparisons made" in notes
    # the CSV keeps A and B as given
    assert [r["system_a"] for r in result.rows()[::3]] == ["bm25_base", "bm25_base", "rm3&prf"]


def test_each_pair_gets_a_verdict_in_words_better_system_first():
    a = np.array([0.5, 0.6, 0.7, 0.8, 0.4, 0.5, 0.6, 0.7, 0.3, 0.5, 0.6, 0.4])
    c = compare({"old": dict(enumerate(a - 0.2)), "new": dict(enumerate(a))}, ["am", "gm:0.01"], test="t")
    words = " ".join(" ".join(c.to_text().split("# Verdicts\n")[1].split("# Differences")[0].split()).split())
    assert words.startswith(
        "new vs old: new is better than old under the AM (+0.2000, unadjusted 95% CI +0.2000 to +0.2000"
    )
    assert "new is better than old under the εGM (ε = 0.01)" in words
    assert "Sign test: new ahead on 12 topics, behind on 0" in words
    assert c.pairs == [("old", "new")] and c.difference[0, 0] < 0  # the library keeps the order given


def test_a_p_on_the_randomization_test_s_floor_says_so():
    # six topics, every one won: the exact test's smallest p, 2/64, is the one it gives
    c = compare([[0.5, 0.6, 0.7, 0.8, 0.4, 0.9], [0.1] * 6], ["am"], test="randomization", bootstrap=50)
    assert c.exact and c.p_floor == 2 / 64 == c.tests.p_randomization[0, 0] and c.on_floor().tolist() == [[True]]
    text = c.to_text()
    notes = " ".join(line.lstrip("# ") for line in text.splitlines())
    assert "0.0312^" in text and "on the test's floor: no smaller p was possible" in notes
    assert "not well below α: its 64 sign vectors are every one there is for 6 topics" in notes


def test_markdown_is_three_pipe_tables_with_the_text_s_headers_and_captions_as_sentences(result):
    md = result.to_markdown()
    tables = [block for block in md.split("\n\n") if block.startswith("|")]
    assert len(tables) == 3
    verdicts, differences, tests = (t.splitlines() for t in tables)
    assert len(verdicts) == 2 + 3 and len(differences) == len(tests) == 2 + 9
    assert differences[0] == "| A | B | average | A's | B's | A - B | 95% CI low | high |"
    assert md.count("**Differences, with unadjusted 95% intervals.**") == 1
    assert tests[0] == "| A | B | average | t | p (t) | Holm | p (rand.) | Holm |"
    assert differences[1] == "|:--|:--|:--|--:|--:|--:|--:|--:|"
    assert all(row.count(" | ") == 7 for row in differences + tests if not row.startswith("|:"))
    assert "\\_" not in "".join(t.splitlines()[0] for t in tables)  # human headers, no field names
    captions = re.findall(r"^\*\*[^*]+\*\* (.*)$", md, re.M)
    assert len(captions) == 3 and "**Verdicts.**" in md
    assert not re.search(r"\. [a-z]", " ".join(captions))  # every sentence starts with a capital


def test_latex_escapes_names_and_balances_its_environments(result):
    tex = result.to_latex()
    assert tex.count(r"\begin{table}") == tex.count(r"\end{table}") == 3
    assert tex.count(r"\begin{tabular}") == 3 and r"\toprule" in tex
    assert r"rm3\&prf & bm25\_base" in tex and r"dfr\%x" in tex
    assert r"log-odds with $\varepsilon$ = 0.01" in tex and "ε" not in tex
    for table in tex.split(r"\begin{table}")[1:]:
        body = [line for line in table.splitlines() if line.endswith(r"\\") and "&" in line]
        assert len({line.count(" & ") for line in body}) == 1  # every row as many cells as the header


def test_format_knows_its_formats(result):
    assert OUTPUT_FORMATS == ("text", "markdown", "latex", "csv", "json")
    assert result.format("csv") == result.to_csv() and result.format("json") == result.to_json()
    with pytest.raises(ValueError, match="format must be one of text, markdown, latex, csv, json"):
        result.format("html")


def test_files_are_written_when_asked(result, tmp_path):
    result.to_csv(tmp_path / "c.csv")
    result.to_json(tmp_path / "c.json")
    assert (tmp_path / "c.csv").read_text() == result.to_csv()
    assert json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))["settings"]["test"] == "t"


def test_a_table_aligns_numbers_right_and_words_left():
    t = Table("T", ("name", "value"), [("a", "1.5"), ("long name", "-12.25*")])
    assert render(t, "text").splitlines() == ["# T", "name         value", "a              1.5", "long name  -12.25*"]
    assert render(t, "markdown").splitlines()[3] == "|:--|--:|"
    assert (
        latex_escape("a_b^2 ~ {x} #1 \\ ×")
        == r"a\_b\textasciicircum{}2 \textasciitilde{} \{x\} \#1 \textbackslash{} $\times$"
    )
    with pytest.raises(ValueError):
        render(t, "html")


def test_the_plot_is_a_panel_per_pair_and_average_each_sorted(result):
    spec = result.plot_spec()
    values = spec["data"]["values"]
    assert len(values) == 3 * 3 * 12
    assert spec["facet"]["row"]["sort"] == ["bm25_base - rm3&prf", "bm25_base - dfr%x", "rm3&prf - dfr%x"]
    assert spec["facet"]["column"]["sort"][1] == "εGM (ε = 0.01): log(x + 0.01)"
    panel = [v for v in values if v["pair"] == "bm25_base - rm3&prf" and v["scale"].startswith("εGM")]
    diffs = [v["difference"] for v in panel]
    assert diffs == sorted(diffs, reverse=True) and [v["rank"] for v in panel] == list(range(1, 13))
    s = result.matrix.scores
    expected = np.log(s[0] + 0.01) - np.log(s[1] + 0.01)
    assert sorted(diffs) == pytest.approx(sorted(expected.tolist()), rel=1e-15)
    assert {v["better"] for v in panel} <= {"A", "B", "tie"}


def has_matplotlib():
    try:
        import matplotlib  # noqa: F401  (the irmeans[plot] extra)
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("name, magic", [("plot.svg", b"<svg"), ("plot.png", b"\x89PNG")])
def test_the_plot_is_drawn_as_svg_or_png(result, tmp_path, name, magic):
    if not has_matplotlib():
        with pytest.raises(IrmeansError, match=r"irmeans\[plot\]"):
            result.save_plot(tmp_path / name)
        return
    result.save_plot(tmp_path / name)
    assert magic in (tmp_path / name).read_bytes()[:300]  # an SVG after its XML declaration


def test_the_plot_says_what_it_cannot_do(result, tmp_path, monkeypatch):
    with pytest.raises(IrmeansError, match=r"\.svg or \.png"):
        result.save_plot(tmp_path / "plot.pdf")
    if has_matplotlib():
        with pytest.raises(IrmeansError, match="cannot write the plot"):
            result.save_plot(tmp_path / "no-such-dir" / "plot.svg")
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if it were not installed
    with pytest.raises(IrmeansError, match=r"pip install 'irmeans\[plot\]'"):
        result.save_plot(tmp_path / "plot.svg")


def test_too_many_pairs_to_plot_are_refused():
    many = compare(np.random.default_rng(0).random((8, 5)), ["am"], permutations=4, bootstrap=4)
    assert many.first.size == 28 > MAX_PLOT_PAIRS
    with pytest.raises(IrmeansError, match="28 pairs are too many to plot"):
        many.plot_spec()


def test_an_infinite_t_is_written_in_json_as_a_string_and_read_back():
    # two topics of P@10, both 0.1 higher for A: every difference equal and not 0, so t is infinite
    c = compare({"A": {"1": 0.3, "2": 0.5}, "B": {"1": 0.2, "2": 0.4}}, ["am", "median"], permutations=10, bootstrap=10)
    assert math.isinf(c.tests.t[0, 0])
    data = json.loads(c.to_json(), parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    row = data["comparisons"][0]
    assert row["t"] == "inf" and data["comparisons"][1]["t"] is None  # the median has no t-test
    assert "inf" in c.to_csv().splitlines()[1].split(",")


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st


def _json_number(v):
    return v is None or v in ("inf", "-inf") or (isinstance(v, (int, float)) and math.isfinite(v))


@given(
    rows=st.lists(st.lists(st.sampled_from([0.0, 0.1, 0.2, 0.5, 1.0]), min_size=3, max_size=3), min_size=2, max_size=3)
)
def test_json_never_fails_and_every_number_is_finite_a_stated_string_or_null(rows):
    c = compare(np.array(rows), ["am", "gm:0.01", "median"], permutations=20, bootstrap=20)
    data = json.loads(c.to_json(), parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    for row in data["comparisons"]:
        for key in ("mean_a", "mean_b", "difference", "ci_low", "ci_high", "t", "p_t", "p_t_holm"):
            assert _json_number(row[key]), (key, row[key])


NAMES = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=12)


def _unescaped(text, char):
    """How many times ``char`` occurs in ``text`` not escaped by a backslash."""
    return len(re.findall(r"(?<!\\)(?:\\\\)*" + re.escape(char), text))


@given(names=st.lists(NAMES, min_size=1, max_size=4), title=NAMES)
def test_no_name_breaks_a_table_in_any_format(names, title):
    table = Table(title, ("system", "x"), [(n, "0.5") for n in names], notes=(f"from {names[0]}",))
    md = render(table, "markdown").split("\n")
    assert len(md) == 2 + 2 + len(names)  # caption, blank line, header, separator, a line per row
    assert all(_unescaped(line, "|") == 3 for line in md[2:])  # three cells' borders: two cells a row
    tex = render(table, "latex")
    body = tex[tex.index(r"\midrule") : tex.index(r"\bottomrule")].split("\n")[1:-1]
    assert len(body) == len(names) and "\n\n" not in tex
    assert all(line.endswith(r" \\") and _unescaped(line[:-3], "&") == 1 for line in body)
    text = render(table, "text").split("\n")
    assert len(text) == 1 + 1 + 1 + len(names)  # title, note, header, rows


def test_two_identical_systems_are_not_robust_and_the_table_says_why():
    c = compare({"A": {"1": 0.3, "2": 0.5}, "B": {"1": 0.3, "2": 0.5}}, ["am"], permutations=10, bootstrap=10)
    assert not c.robust[0] and c.reversed_by[0] is None
    assert "no, the AM ties them" in c.to_markdown() and "the AM ties them, no verdict" in c.to_text()


def test_latex_says_first_what_it_needs(result):
    latex = result.to_latex()
    assert latex.splitlines()[0] == r"% needs \usepackage{booktabs,longtable,array} (\toprule, longtable, p columns)"
    assert latex.count("booktabs") == 1 and r"\toprule" in latex


def test_the_plot_is_colour_blind_safe_and_names_the_topics(result):
    from irmeans.comparison.plot import PALETTE

    spec = result.plot_spec()
    colour = spec["spec"]["encoding"]["color"]["scale"]
    assert colour["range"] == list(PALETTE) == ["#0072B2", "#E69F00", "#999999"]  # Okabe-Ito blue, orange, grey
    x = spec["spec"]["encoding"]["x"]
    assert x["field"] == "topic" and x["sort"] == {"field": "rank"} and x["axis"].get("labels", True)
    assert spec["resolve"]["scale"]["x"] == "independent"  # each panel's own order of the topics
    assert {v["topic"] for v in spec["data"]["values"]} == set(result.matrix.topics)


def test_a_verdict_left_unmarked_on_the_floor_is_unresolved_not_no_difference():
    a = np.array([0.5, 0.6, 0.7, 0.8, 0.4, 0.9, 0.5, 0.6])
    c = compare([a, a - 0.3, a - 0.31], ["am", "gm:0.01"], permutations=50, test="randomization", bootstrap=50)
    assert c.on_floor()[0, 0] and not c.significant[0, 0]  # 6 comparisons x 1/51 is above 0.05
    words = " ".join(c.to_text().split("# Verdicts\n")[1].split("# Differences")[0].split())
    assert words.startswith("run1 vs run2: run1 ahead under the AM, unresolved: its p is the test's floor")
    assert "no clear difference under the AM" not in words.split("run1 vs run3")[0]
