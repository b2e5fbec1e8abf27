"""``irmeans compare``'s options in combination: every format, one or several -m, a baseline or none, --holm,
--test, --systems, the results table and --plot, each output read back; and the choice of systems."""

import csv
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from irmeans import compare, datasets, evaluate_runs
from irmeans._display import width
from irmeans.cli import main
from irmeans.comparison.by_measure import compare_measures
from irmeans.comparison.report import WIDTH
from irmeans.comparison.tables import LATEX_NEEDS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QRELS = str(EXAMPLES / "qrels.txt")
RUNS = [str(EXAMPLES / "runs" / f"{name}.txt") for name in ("baseline", "feedback", "phrases")]
FAST = ["-n", "200", "-b", "50"]
FORMATS = ["text", "markdown", "latex", "csv", "json"]


def run(args, capsys):
    status = main(["compare", *args])
    out, err = capsys.readouterr()
    return status, out, err


# --- several -m with --baseline: a traceback once ---------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_several_measures_with_a_baseline_are_written_in_every_format(fmt, capsys):
    status, out, err = run(
        ["-m", "map", "-m", "P.10", "--baseline", "baseline", *FAST, "--format", fmt, QRELS, *RUNS], capsys
    )
    assert (status, err) == (0, "")
    assert "feedback" in out and "phrases" in out and ("P_10" in out or "P\\_10" in out)


def test_compare_measures_with_a_baseline_prints_and_each_pair_reads_one_way_in_every_measure():
    matrices = [evaluate_runs(QRELS, RUNS, m) for m in ("map", "P.10")]
    both = compare_measures(matrices, ["am", "gm:0.01"], baseline="baseline", permutations=200, bootstrap=50)
    text = str(both)
    assert text.count("# Measure: ") == 2
    assert re.findall(r"^(\w+) vs (\w+):", text, re.M) == [("feedback", "baseline"), ("phrases", "baseline")] * 2


def test_without_a_baseline_a_pair_keeps_the_first_measure_s_order_in_every_section():
    rng = np.random.default_rng(0)
    from irmeans import ScoreMatrix

    topics = tuple(str(t) for t in range(20))
    ap = ScoreMatrix(rng.uniform(0, 1, (3, 20)), ("a", "b", "c"), topics, measure="map")
    p10 = ScoreMatrix(1 - ap.scores, ("a", "b", "c"), topics, measure="P_10")  # every preference reversed
    both = compare_measures([ap, p10], ["am"], permutations=200, bootstrap=50)
    text = both.format("text")
    sections = text.split("# Measure: ")[1:]
    orders = [re.findall(r"^(\w) vs (\w):", s, re.M) for s in sections]
    assert orders[0] == orders[1] and len(orders[0]) == 3
    summary = [tuple(r[:2]) for r in both.summary_table().rows]
    assert summary[0::2] == summary[1::2] == orders[0]
    cells = re.findall(r"^\| ([abc]) \| ([abc]) \| am \|", both.format("markdown"), re.M)
    assert cells == orders[0] * 4  # each measure's differences and tests tables, in the same order
    cells = re.findall(r"^([abc]) & ([abc]) & am &", both.format("latex"), re.M)
    assert cells == orders[0] * 4


# --- --systems ---------------------------------------------------------------------------------------------


def test_systems_chooses_the_systems_of_a_dataset_in_the_order_given(capsys):
    status, out, _ = run(
        ["--dataset", "web2014:ndcg20", "--systems", "sys3,sys1", "--systems", "sys7", *FAST, "--format", "json"],
        capsys,
    )
    assert status == 0
    data = json.loads(out)
    assert data["scores"]["systems"] == ["sys3", "sys1", "sys7"] and len(data["verdicts"]) == 3
    full = datasets.load("web2014", "ndcg20")
    assert data["means"]["am"]["sys7"] == pytest.approx(full.scores[full.systems.index("sys7")].mean(), rel=1e-12)


def test_systems_chooses_from_a_scores_csv_and_a_name_with_a_comma_is_given_alone(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    path.write_text('system,1,2,3\n"bm25,tuned",0.5,0.6,0.7\nrm3,0.1,0.2,0.4\ndfr,0.3,0.3,0.3\n')
    status, out, _ = run(
        ["--scores", str(path), "--systems", "bm25,tuned", "--systems", "dfr", *FAST, "--format", "csv"], capsys
    )
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {(r["system_a"], r["system_b"]) for r in rows} == {("bm25,tuned", "dfr")}


@pytest.mark.parametrize(
    "args, message",
    [
        (["--systems", "sys1,sys99"], "--systems: no system 'sys99'; the 30 systems are sys1, sys2, sys3,"),
        (["--systems", "sys1,"], "--systems: an empty name in 'sys1,'"),
        (["--systems", "sys1"], "--systems chose 1 system: compare needs at least 2"),
        (["--systems", "sys1,sys2", "--baseline", "sys3"], "--baseline sys3: not one of the --systems chosen"),
    ],
)
def test_systems_refuses_what_it_cannot_choose_naming_the_systems_there_are(args, message, capsys):
    status, out, err = run(["--dataset", "web2014:ndcg20", *args, *FAST], capsys)
    assert status == 1 and out == "" and message in err and err.count("\n") == 1
    if "sys99" in args[1]:
        assert "sys30" in err  # every name listed


def test_systems_choose_runs_given_on_the_command_line_too(capsys):
    status, out, _ = run(
        ["-m", "map", "--systems", "phrases,baseline", *FAST, "--format", "json", QRELS, *RUNS], capsys
    )
    assert status == 0 and json.loads(out)["scores"]["systems"] == ["phrases", "baseline"]


# --- every option with every other -------------------------------------------------------------------------


def _check(fmt, out, systems, results_table):
    if fmt == "json":
        data = json.loads(out.encode("utf-8"))
        if results_table:
            assert {r["system"] for r in data["rows"]} == set(systems)
        else:
            found = data["measures"].values() if "measures" in data else [data]
            assert all(d["scores"]["systems"] == list(systems) for d in found)
    elif fmt == "csv":
        rows = list(csv.DictReader(io.StringIO(out)))
        if results_table:
            assert {r["system"] for r in rows} == set(systems)
        else:
            assert {r["system_a"] for r in rows} | {r["system_b"] for r in rows} == set(systems)
    elif fmt == "text":
        lines = out.splitlines()
        # a line is no wider than the report, unless it is one word that is (the qrels' path, at a long folder)
        assert all(width(line) <= WIDTH or line.lstrip("# ").rstrip(",") == QRELS for line in lines)
        assert not any(re.search(r"(\bp|=|<)$", line) or re.match(r"\s*(=|<) ", line) for line in lines)
    elif fmt == "markdown":
        for table in re.findall(r"(?:^\|.*\n)+", out, re.M):
            counts = {len(re.findall(r"(?<!\\)\|", line)) for line in table.splitlines()}
            assert len(counts) == 1
    else:
        assert out.startswith(LATEX_NEEDS + "\n")
        for env in ("table", "tabular", "longtable"):
            assert out.count(rf"\begin{{{env}}}") == out.count(rf"\end{{{env}}}")
    for name in {"baseline", "feedback", "phrases"} - set(systems):
        assert re.search(rf"\b{name}\b", out.replace("runs/" + name, "")) is None


@settings(max_examples=40)
@given(
    fmt=st.sampled_from(FORMATS),
    measures=st.sampled_from([["map"], ["map", "P.10"]]),
    baseline=st.booleans(),
    holm=st.sampled_from(["measure", "all"]),
    test=st.sampled_from(["auto", "randomization", "t", "sign"]),
    systems=st.sampled_from([None, ["baseline", "phrases"], ["phrases", "feedback", "baseline"]]),
    results_table=st.booleans(),
)
def test_every_combination_of_options_writes_its_format_whole(
    fmt, measures, baseline, holm, test, systems, results_table
):
    import contextlib

    args = [a for m in measures for a in ("-m", m)] + ["--holm", holm, "--test", test, "--format", fmt, *FAST]
    chosen = systems or ["baseline", "feedback", "phrases"]
    if baseline:
        args += ["--baseline", chosen[-1]]
    if systems:
        args += ["--systems", ",".join(systems)]
    if results_table:
        args.append("--results-table")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        status = main(["compare", *args, QRELS, *RUNS])
    assert status == 0, err.getvalue()
    _check(fmt, out.getvalue(), chosen, results_table)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_plot_is_drawn_beside_each_format(fmt, tmp_path, capsys):
    plot = tmp_path / f"{fmt}.svg"
    args = ["-m", "map", "--baseline", "baseline", "--results-table", "--plot", str(plot), "--format", fmt]
    status, out, err = run([*args, *FAST, QRELS, *RUNS], capsys)
    if status == 1 and "irmeans[plot]" in err:  # the plot's extra is not installed: nothing done, and it says so
        assert out == "" and not plot.exists()
        return
    assert (status, err) == (0, "") and out
    assert b"<svg" in plot.read_bytes()[:1000]


# --- the text report for people ---------------------------------------------------------------------------


def test_no_line_breaks_inside_a_p_value_or_a_path_and_a_wider_path_stands_alone(tmp_path, capsys):
    folder = tmp_path / ("a folder with spaces, l'apostrophe et des accents é" + "x" * 40)
    folder.mkdir()
    qrels = folder / "qrels with spaces.txt"
    qrels.write_bytes(Path(QRELS).read_bytes())
    status, out, _ = run(["-m", "map", *FAST, str(qrels), *RUNS], capsys)
    assert status == 0
    lines = out.splitlines()
    # the path, wider than a line, alone on one of its own; the words before it on theirs (the whole label was one
    # word, 119 columns wide at a clone's long folder)
    label = f"{qrels},"
    assert any(line.lstrip("# ") == label for line in lines)
    assert "# Comparison: map of 3 runs against" in lines
    status, table, _ = run(["-m", "map", *FAST, "--baseline", "baseline", "--results-table", str(qrels), *RUNS], capsys)
    assert status == 0 and f"#   {qrels}," in table.splitlines()  # the results table's title never breaks it either
    assert sum("Holm p = " in line for line in lines) >= 3
    prose = lines[lines.index("# Verdicts") : lines.index("# Differences, with unadjusted 95% intervals")]
    prose += lines[lines.index("# Notes") :]
    assert not any(line.rstrip().endswith(("Holm p =", "Holm p", "Holm", "CI")) for line in prose)
    assert not any(re.search(r"[-+]\d\.\d+ to$", line) for line in prose)  # an interval never broken
    assert max(width(line) for line in lines if label not in line) <= WIDTH


def test_wide_names_are_counted_in_terminal_columns_and_tables_stay_aligned(tmp_path, capsys):
    path = tmp_path / "scores.csv"
    names = ["检索系统基线方法一号版本", "检索系统反馈方法二号版本", "εGM-run"]
    rows = [f"{n},{0.1 + k / 10},{0.3 + k / 10},{0.2 + k / 20},{0.5}" for k, n in enumerate(names)]
    path.write_text("system,1,2,3,4\n" + "\n".join(rows) + "\n", encoding="utf-8")
    status, out, _ = run(["--scores", str(path), *FAST], capsys)
    assert status == 0
    lines = out.splitlines()
    assert max(map(width, lines)) <= WIDTH
    table = lines[lines.index("# Differences, with unadjusted 95% intervals") + 1 :]
    table = table[: table.index("")]
    # each row's numbers end in the same terminal column as the header's "high"
    assert len({width(line) for line in table if line.startswith("  ") or line.startswith("A")}) <= 2


def test_an_interval_that_excludes_0_beside_an_unmarked_test_says_so_in_words():
    rng = np.random.default_rng(3)
    base = rng.uniform(0.2, 0.6, 30)
    # many systems, a small gain for one: its unadjusted interval excludes 0, Holm over 45 pairs does not mark it
    rows = [base + 0.05 + rng.normal(0, 0.05, 30)] + [base + rng.normal(0, 0.2, 30) for _ in range(9)]
    c = compare(np.clip(np.array(rows), 0, 1), ["am"], test="t", bootstrap=500)
    report = c.to_text()
    text = " ".join(report[report.index("# Verdicts") : report.index("# Differences")].split())
    excluded = (c.ci_low > 0) | (c.ci_high < 0)
    quiet = excluded & ~c.significant
    assert quiet.any()
    assert text.count("the unadjusted interval excludes 0, but the test, Holm-adjusted, does not mark it") == int(
        quiet.sum()
    )
    assert text.count("unadjusted 95% CI") == 45 and " 95% CI " not in text.replace("unadjusted 95% CI", "")
    assert "# Differences, with unadjusted 95% intervals" in report


def test_help_shows_the_results_table_as_the_command_prints_it_and_says_what_n_and_robertson_s_rule_are(capsys):
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    help_text = capsys.readouterr().out
    command = re.search(r"\('(--dataset [^']+)'\):", " ".join(help_text.split())).group(1).split()
    shown = re.findall(r"^    (\S.*)$", help_text, re.M)
    status, out, _ = run(command, capsys)
    assert status == 0 and len(shown) == 4 and out.splitlines()[1:5] == shown
    prose = " ".join(help_text.split())
    assert "'-n' ('--permutations') is the number of sign vectors of the randomization test" in prose
    assert "That rule is irmeans' reading, not Robertson's" in prose and '"easy to find"' in prose


def test_a_marked_difference_whose_interval_holds_0_says_so_in_words():
    # 14 small wins and 2 large losses: the sign test marks A better, the interval of the mean difference holds 0
    b = np.linspace(0.2, 0.6, 16)
    a = b + np.r_[np.full(14, 0.05), -0.3, -0.3]
    c = compare({"A": dict(enumerate(a)), "B": dict(enumerate(b))}, ["am"], test="sign", bootstrap=2000)
    assert c.significant[0, 0] and c.ci_low[0, 0] < 0 < c.ci_high[0, 0]
    words = " ".join(c.to_text().split("# Verdicts\n")[1].split("# Differences")[0].split())
    assert words.startswith("A vs B: A is better than B under the AM (+0.0063, unadjusted 95% CI -")
    assert "Holm p = 0.00418; the test, Holm-adjusted, marks it though the unadjusted interval holds 0)" in words
