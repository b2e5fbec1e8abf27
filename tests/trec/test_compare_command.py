"""``irmeans compare``: runs, a CSV or a shipped matrix in; the library's comparison out, in every format."""

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from irmeans import _progress, compare, datasets, evaluate_runs
from irmeans.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
QRELS = str(EXAMPLES / "qrels.txt")
RUNS = [str(EXAMPLES / "runs" / f"{name}.txt") for name in ("baseline", "feedback", "phrases")]
FAST = ["-n", "300", "-b", "200"]


def run(args, capsys):
    status = main(["compare", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_runs_are_evaluated_with_c_and_compared_as_the_library_compares_them(capsys):
    status, out, err = run(["-m", "map", *FAST, "--format", "csv", QRELS, *RUNS], capsys)
    assert (status, err) == (0, "")
    expected = compare(evaluate_runs(QRELS, RUNS, "map"), permutations=300, bootstrap=200)
    assert out == expected.to_csv()
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {(r["system_a"], r["system_b"]) for r in rows} == {
        ("baseline", "feedback"),
        ("baseline", "phrases"),
        ("feedback", "phrases"),
    }


def test_the_text_report_names_its_source_and_both_tables(capsys, monkeypatch):
    # Paths relative to the clone's root, which print the same wherever the clone is.
    monkeypatch.chdir(EXAMPLES.parent)
    runs = [f"examples/runs/{Path(path).name}" for path in RUNS]
    status, out, _ = run(["-m", "P.10", "--baseline", "baseline", *FAST, "examples/qrels.txt", *runs], capsys)
    assert status == 0
    lines = out.splitlines()
    assert " ".join(lines[:2]).startswith(
        "# Comparison: P_10 of 3 runs against examples/qrels.txt, 3 systems x 10 topics;"
    )
    assert {"# Verdicts", "# Differences, with unadjusted 95% intervals", "# Tests, p raw and Holm-adjusted"} <= set(
        lines
    )
    assert sum(line.startswith(("feedback vs baseline:", "phrases vs baseline:")) for line in lines) == 2
    assert sum(line.startswith(("feedback  ", "phrases  ")) for line in lines) == 2 * 3 * 2  # differences, tests


@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "csv", "json"])
def test_every_format_is_the_library_s(fmt, capsys):
    status, out, _ = run(
        ["--dataset", "adhoc8:ap", "--baseline", "run2", *FAST, "--format", fmt, "--digits", "3"], capsys
    )
    assert status == 0
    result = compare(datasets.load("adhoc8", "ap"), baseline="run2", permutations=300, bootstrap=200)
    assert out == result.format(fmt, 3)
    if fmt == "json":
        assert json.loads(out)["settings"]["baseline"] == "run2"


def test_a_scores_csv_is_compared_under_the_averages_asked_for(capsys):
    args = ["--scores", str(EXAMPLES / "scores.csv"), "-a", "am", "-a", "hm:0.01", "-a", "median", *FAST]
    status, out, _ = run([*args, "--test", "t", "--alpha", "0.01", "--format", "json"], capsys)
    assert status == 0
    data = json.loads(out)
    assert [a["spec"] for a in data["settings"]["averages"]] == ["am", "hm:0.01", "median"]
    assert data["settings"]["test"] == "t" and data["settings"]["alpha"] == 0.01
    assert len(data["verdicts"]) == 8 * 7 // 2
    assert data["scores"]["label"] == str(EXAMPLES / "scores.csv")


def test_the_seed_decides_the_random_parts(capsys):
    args = ["--dataset", "adhoc8:ap", "--baseline", "run1", *FAST, "--format", "csv"]
    first, second, other = (run([*args, "--seed", seed], capsys)[1] for seed in ("5", "5", "6"))
    assert first == second != other


def test_a_run_without_some_topics_is_warned_about_and_scored_0_there(tmp_path, capsys):
    short = tmp_path / "short.txt"
    lines = Path(RUNS[1]).read_text().splitlines(keepends=True)
    short.write_text("".join(line for line in lines if not line.startswith("401 ")))
    status, out, err = run([*FAST, QRELS, RUNS[0], str(short)], capsys)
    assert status == 0 and out
    assert (
        err
        == f"irmeans compare: warning: {short}: no results for 1 of the 10 judged topics (401): scored 0 there, as trec_eval -c scores them\n"
    )


def test_runs_sharing_a_runid_are_named_by_their_files(tmp_path, capsys):
    copy = shutil.copy(RUNS[0], tmp_path / "again.txt")
    status, out, _ = run([*FAST, "--format", "csv", QRELS, RUNS[0], str(copy)], capsys)
    assert status == 0
    assert next(csv.DictReader(io.StringIO(out)))["system_b"] == "again.txt"


def has_matplotlib():
    try:
        import matplotlib  # noqa: F401  (the irmeans[plot] extra)
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("name, magic", [("diff.svg", b"<svg"), ("diff.PNG", b"\x89PNG")])
def test_the_plot_is_drawn_beside_the_tables(tmp_path, capsys, name, magic):
    status, out, err = run(["--plot", str(tmp_path / name), *FAST, QRELS, *RUNS], capsys)
    if not has_matplotlib():
        assert (status, out) == (1, "") and "pip install 'irmeans[plot]'" in err
        return
    assert status == 0 and out.startswith("# Comparison:")
    assert magic in (tmp_path / name).read_bytes()[:300]  # an SVG after its XML declaration


@pytest.mark.progress
def test_a_long_comparison_shows_progress_on_stderr_only(monkeypatch, capsys):
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    monkeypatch.setattr(_progress, "LOG_EVERY", 0.0)
    status, out, err = run(["--dataset", "adhoc8:ap", "--baseline", "run1", "-n", "2500", "-b", "300"], capsys)
    assert status == 0 and out.startswith("# Comparison:")
    steps = "3,184 of 3,184 steps (sign vectors, resamples, intervals)"  # 2,500 + 300 + 128 pairs x 3 averages
    assert f"irmeans compare: 100% [########################] {steps}" in err


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "nothing to read: give a qrels file and two or more runs"),
        ([QRELS, RUNS[0]], "give a qrels file and at least two run files"),
        (
            ["--dataset", "adhoc8:ap", QRELS, *RUNS],
            "give one of --dataset, --scores or QRELS RUN..., not --dataset and QRELS RUN",
        ),
        (["--dataset", "adhoc9:ap"], "--dataset adhoc9:ap: no collection 'adhoc9'"),
        (
            ["--dataset", "adhoc8:ap", "--baseline", "bm25"],
            "--baseline bm25: no such system; the systems are run1, run2",
        ),
        (["-m", "P.5,10", QRELS, *RUNS], "gives 2 values a topic (P_5, P_10): pick one"),
        ([QRELS, RUNS[0], "no-such-run.txt"], "no-such-run.txt"),
        (["--plot", "diff.pdf", QRELS, *RUNS], "--plot diff.pdf: the file's extension must be .svg or .png"),
    ],
)
def test_what_cannot_be_compared_exits_1_with_one_line(args, message, capsys):
    status, out, err = run([*FAST, *args], capsys)
    assert status == 1 and out == ""
    assert err.startswith("irmeans compare: error: ") and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--plot", "no-such-dir/diff.svg", QRELS, *RUNS], "no-such-dir/diff.svg: cannot write the plot"),
        (["--plot", "diff.svg", "--dataset", "adhoc8:ap"], "--plot draws at most 25 pairs, a row each; 8,256 pairs"),
    ],
)
def test_a_plot_that_cannot_be_drawn_exits_1_with_one_line(args, message, capsys):
    status, out, err = run([*FAST, *args], capsys)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert (message if has_matplotlib() else "pip install 'irmeans[plot]'") in err


def test_scores_an_average_cannot_take_name_their_system_and_topic(tmp_path, capsys):
    scores = tmp_path / "s.csv"
    scores.write_text("system,401,402\nA,0.5,1.5\nB,0.25,0.5\n")
    status, _, err = run(["--scores", str(scores)], capsys)
    assert status == 1
    assert "system 'A', topic '402': score 1.5; logit (ε = 0.01) needs scores in [0, 1]" in err


def test_the_plot_needs_its_extra_and_says_so(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    status, out, err = run(["--plot", "x.svg", QRELS, *RUNS], capsys)
    assert (status, out) == (1, "") and "pip install 'irmeans[plot]'" in err


@pytest.mark.parametrize(
    "args",
    [
        ["--alpha", "1.5"],
        ["--confidence", "0"],
        ["-n", "0"],
        ["-b", "-3"],
        ["--format", "html"],
        ["--test", "z"],
        ["--seed", "-1"],
        ["-a", "gm:eps"],
    ],
)
def test_bad_settings_are_usage_errors(args, capsys):
    status, out, err = run([*args, QRELS, *RUNS], capsys)
    assert status == 2 and out == "" and err.startswith("irmeans compare: ") and err.count("\n") == 1


def test_help_lists_the_options_and_the_exit_statuses(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["compare", "--help"])
    assert exit.value.code == 0
    text = capsys.readouterr().out
    for option in ("--baseline", "--permutations", "--bootstrap", "--plot", "--format", "-a SPEC", "exit status:"):
        assert option in text
    assert "default: am, gm:0.01, logit:0.01" in text


@pytest.mark.parametrize("plot", [False, True])
def test_compare_loads_the_plot_and_the_datasets_only_when_asked(tmp_path, plot):
    import subprocess
    import sys

    args = ["compare", *FAST, "-m", "map", QRELS, *RUNS] + (["--plot", str(tmp_path / "d.svg")] if plot else [])
    code = (
        "import sys, io, irmeans.cli; sys.stdout = io.StringIO(); "
        f"status = irmeans.cli.main({args!r}); sys.stdout = sys.__stdout__; "
        "print(status, 'irmeans.comparison.plot' in sys.modules, 'irmeans.datasets' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    if plot and out[0] == "1":  # no matplotlib here: the plot module was still asked for
        assert out[1] == "True"
        return
    assert out == ["0", str(plot), "False"]


def test_the_comparisons_are_counted_once_before_any_work(monkeypatch, capsys):
    from irmeans.comparison import compare as comparing

    monkeypatch.setattr(comparing, "MAX_COMPARISONS", 5)
    status, out, err = run([*FAST, "-m", "map", QRELS, *RUNS], capsys)
    assert (status, out) == (1, "") and "3 pairs × 3 averages is more than the 5 comparisons" in err


def test_a_bootstrap_too_big_for_memory_is_refused_before_any_work_naming_it(capsys):
    status, out, err = run(["-b", "1000000000000", "--dataset", "adhoc8:ap"], capsys)
    assert (status, out) == (1, "") and err.count("\n") == 1
    assert "the bootstrap's averages of 129 systems under 3 averages on 1,000,000,000,000 resamples" in err
    assert "more than this machine's" in err and "-b" in err and "out of memory" not in err


@pytest.mark.parametrize("value", ["-1e-9", "-.5", "-inf"])
def test_a_negative_level_is_refused_for_what_it_is(value, capsys):
    # argparse took '-1e-9' for an option and said 'expected one argument'
    status, out, err = run(["--alpha", value, QRELS, *RUNS], capsys)
    assert (status, out) == (2, "") and f"argument --alpha: '{value}' is not a number strictly between 0 and 1" in err


def test_several_measures_give_a_table_of_measures_by_averages_in_every_format(capsys):
    from irmeans.comparison.by_measure import compare_measures

    args = ["-m", "map", "-m", "P.10", *FAST, QRELS, *RUNS]
    from dataclasses import replace

    matrices = [evaluate_runs(QRELS, RUNS, m) for m in ("map", "P.10")]
    labelled = [replace(m, label=f"{m.measure} of 3 runs against {QRELS}") for m in matrices]  # as the command says
    expected = compare_measures(labelled, permutations=300, bootstrap=200)
    for fmt in ("text", "csv", "json", "markdown", "latex"):
        status, out, err = run([*args, "--format", fmt], capsys)
        assert (status, err) == (0, "") and out == expected.format(fmt), fmt
    status, out, _ = run([*args, "--holm", "all", "--format", "json"], capsys)
    assert status == 0 and json.loads(out)["holm"] == "all"


def test_several_measures_need_runs_to_evaluate_and_draw_no_plot(capsys):
    status, _, err = run(["--dataset", "adhoc8:ap", "-m", "map", "-m", "P.10"], capsys)
    assert status == 1 and "several measures are evaluated from QRELS RUN... only" in err
    status, _, err = run(["-m", "map", "-m", "P.10", "--plot", "x.svg", QRELS, *RUNS], capsys)
    assert status == 1 and "--plot draws one measure's differences: give one -m" in err
