"""``irmeans consistency``: the split-half test on a CSV of scores or on runs evaluated with irmeans."""

import io
import os
import re
import warnings

import numpy as np
import pytest
from irmeans import _progress, consistency, datasets, evaluate
from irmeans.cli import main
from irmeans.consistency import experiment


def write_csv(path, names, topics, scores):
    rows = ["system," + ",".join(topics)]
    rows += [name + "," + ",".join(repr(float(v)) for v in row) for name, row in zip(names, scores)]
    path.write_text("\n".join(rows) + "\n")
    return str(path)


@pytest.fixture
def trec8_csv(tmp_path):
    m = datasets.load("adhoc8", "ap")
    return write_csv(tmp_path / "trec8.csv", m.systems, m.topics, m.scores), np.array(m.scores)


def table(out, header):
    """The rows of the tab-separated table that starts with ``header``, by first field."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = {}
    for line in lines[start + 1 :]:
        if not line or line.startswith("#"):
            break
        fields = line.split("\t")
        rows[fields[0]] = fields[1:]
    return rows


def test_random_splits_report_the_library_values(trec8_csv, capsys):
    path, scores = trec8_csv
    assert main(["consistency", "--scores", path, "-n", "300", "--seed", "5", "-a", "am", "-a", "gm:0.01"]) == 0
    out = capsys.readouterr().out
    taus = {spec: consistency.split_half(scores, spec, 300, seed=5) for spec in ("am", "gm:0.01")}
    rows = table(out, "average\tmean_tau")
    for spec, t in taus.items():
        lo, hi = np.percentile(t, [2.5, 97.5])
        assert rows[spec][0] == f"{t.mean():.4f}" and rows[spec][-2:] == [f"{lo:.4f}", f"{hi:.4f}"]
    paired = table(out, "average\tmean_diff")
    d = taus["gm:0.01"] - taus["am"]
    assert paired["gm:0.01"][:3] == [f"{d.mean():+.4f}", str((d > 0).sum()), str((d < 0).sum())]
    assert "am" not in paired


def test_hard_easy_split_reproduces_table_3c(trec8_csv, capsys):
    path, _ = trec8_csv
    args = ["consistency", "--scores", path, "--split", "hard-easy", "--digits", "3"]
    assert main([*args, "-a", "am", "-a", "gm:0.01", "-a", "gm-floor:1e-5"]) == 0
    rows = table(capsys.readouterr().out, "average\tmean_tau")
    # Ravana & Moffat (2009), Table 3(c), TREC8, AP, Hard/Easy.
    assert {k: v[0] for k, v in rows.items()} == {"am": "0.719", "gm:0.01": "0.732", "gm-floor:1e-05": "0.672"}
    assert rows["am"][1:3] == rows["am"][5:] == ["-", "-"]  # one split: no interval over splits


def test_standardized_average_and_default_averages(tmp_path, capsys):
    rng = np.random.default_rng(1)
    scores = np.clip(rng.random((12, 10)) * rng.random((1, 10)), 0, 1)
    path = write_csv(tmp_path / "s.csv", [f"s{i}" for i in range(12)], [f"t{i}" for i in range(10)], scores)
    assert main(["consistency", "--scores", path, "-n", "50"]) == 0
    rows = table(capsys.readouterr().out, "average\tmean_tau")
    assert list(rows) == ["am", "gm:0.01", "gm-floor:1e-05", "std-am"]
    std = consistency.split_half(consistency.standardize(scores, constant="half"), "am", 50, seed=0)
    assert rows["std-am"][0] == f"{std.mean():.4f}"


QRELS = "".join(f"{t} 0 d{d} {int(d % 3 == 0)}\n" for t in (1, 2, 3, 4) for d in range(12))


def run_text(name, shift):
    return "".join(f"{t} Q0 d{(d + shift * t) % 12} {d + 1} {20 - d} {name}\n" for t in (1, 2, 3, 4) for d in range(8))


def test_qrels_and_runs_are_evaluated_with_irmeans(tmp_path, capsys):
    q = tmp_path / "qrels"
    q.write_text(QRELS)
    runs = []
    for k in range(5):
        r = tmp_path / f"run{k}"
        r.write_text(run_text(f"r{k}", k))
        runs.append(str(r))
    assert main(["consistency", "-m", "P.5", "-n", "40", "-a", "am", str(q), *runs]) == 0
    out = capsys.readouterr().out
    scores = np.vstack([evaluate(str(q), r, complete=True, measures=["P.5"]).per_topic["P_5"] for r in runs])
    expected = consistency.split_half(scores, "am", 40, seed=0)
    assert table(out, "average\tmean_tau")["am"][0] == f"{np.nanmean(expected):.4f}"
    assert "5 runs" in out


@pytest.mark.parametrize(
    "text, message",
    [
        ("system,t1,t2\nA,0.5,x\nB,0.1,0.2\n", r"bad.csv:2: system 'A', topic 't2': score 'x' is not a number"),
        ("system,t1,t2\nA,0.5,0.1\nB,0.1\n", r"bad.csv:3: 1 scores, but the header names 2 topics"),
    ],
)
def test_bad_csv_is_one_line_naming_file_and_line(tmp_path, capsys, text, message):
    p = tmp_path / "bad.csv"
    p.write_text(text)
    assert main(["consistency", "--scores", str(p), "-n", "5"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("irmeans consistency: error: ")
    assert re.search(message, err)


@pytest.mark.parametrize(
    "args, message, status",
    [
        (["-a", "mean"], "unknown average 'mean'", 2),  # a bad option: a usage error, as in eval and compare
        ([], "nothing to read", 1),
    ],
)
def test_usage_problems_are_one_line(tmp_path, capsys, args, message, status):
    if "-a" in args:
        p = tmp_path / "ok.csv"
        p.write_text("system,t1,t2\nA,0.5,0.1\nB,0.1,0.2\n")
        args = [*args, "--scores", str(p)]
    assert main(["consistency", *args]) == status
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_one_run_is_not_enough(tmp_path, capsys):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text(run_text("r0", 0))
    assert main(["consistency", str(q), str(r)]) == 1
    assert "at least two run files" in capsys.readouterr().err


def test_a_bad_run_file_names_file_and_line(tmp_path, capsys):
    q, r1, r2 = tmp_path / "q", tmp_path / "r1", tmp_path / "r2"
    q.write_text(QRELS)
    r1.write_text(run_text("r1", 1))
    r2.write_text("1 Q0 d1 1\n")
    assert main(["consistency", str(q), str(r1), str(r2)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(r2) in err


class FastClock:
    """A clock for irmeans._progress on which each reading is half a second after the last."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        self.now += 0.5
        return self.now


@pytest.mark.progress
def test_a_long_run_shows_progress_on_stderr_and_the_same_stdout(trec8_csv, capsys, monkeypatch):
    path, _ = trec8_csv
    args = ["consistency", "--scores", path, *"-n 3000 -a am -a gm:0.01 --seed 4 --bootstrap 0".split()]
    with monkeypatch.context() as m:
        m.setattr(_progress.time, "monotonic", lambda: 0.0)  # no time passes: done within the delay, however busy
        assert main(args) == 0
    quick = capsys.readouterr()
    assert without_too_few(quick.err) == ""  # done within the delay: nothing on stderr
    monkeypatch.setattr(_progress.time, "monotonic", FastClock())  # every step now seems to take 0.5 s
    monkeypatch.setattr(experiment, "_CHUNK_VALUES", 129 * 50 * 100)  # 100 splits a step: 60 steps
    assert main(args) == 0
    slow = capsys.readouterr()
    assert slow.out == quick.out
    lines = slow.err.splitlines()
    assert len(lines) >= 3 and all(line.startswith("irmeans consistency: ") for line in lines)
    assert "of 3,000 splits (2 averages)" in lines[0] and "left" in lines[0]
    assert lines[-1].startswith("irmeans consistency: 100% [########################] 3,000 of 3,000 splits")
    assert "\r" not in slow.err  # not a terminal: whole lines, at most one every 10 s
    assert len(lines) <= 60 * 0.5 / _progress.LOG_EVERY + 3


@pytest.mark.progress
def test_evaluating_many_runs_shows_progress(tmp_path, capsys, monkeypatch):
    q = tmp_path / "qrels"
    q.write_text(QRELS)
    runs = []
    for k in range(6):
        r = tmp_path / f"run{k}"
        r.write_text(run_text(f"r{k}", k))
        runs.append(str(r))
    args = ["consistency", "-m", "P.5", "-n", "40", "-a", "am", str(q), *runs]
    assert main(args) == 0
    quick = capsys.readouterr()
    assert without_too_few(quick.err) == ""
    monkeypatch.setattr(_progress.time, "monotonic", FastClock())
    monkeypatch.setattr(_progress, "LOG_EVERY", 0.0)
    assert main(args) == 0
    slow = capsys.readouterr()
    assert slow.out == quick.out
    lines = without_too_few(slow.err).splitlines()  # shown from 2 s on (the fourth run), then after every run
    assert [line.split("] ")[1].split(",")[0] for line in lines] == [f"{k} of 6 runs evaluated" for k in (4, 5, 6)]


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.progress
def test_progress_on_a_terminal_is_one_line_redrawn_and_ended(monkeypatch):
    monkeypatch.setattr(_progress.time, "monotonic", FastClock())
    term = Terminal()
    with _progress.Progress(10, "irmeans consistency", "splits", stream=term) as bar:
        for _ in range(10):
            bar.update()
    text = term.getvalue()
    assert text.startswith("\r") and text.endswith("\n") and text.count("\n") == 1
    assert text.rstrip().endswith("10 of 10 splits, 5 s")
    # Stopped by an error: the line is ended, so the error message starts on its own line.
    term = Terminal()
    with pytest.raises(KeyboardInterrupt), _progress.Progress(10, "x", "splits", stream=term) as bar:
        for _ in range(6):
            bar.update()
        raise KeyboardInterrupt
    assert term.getvalue().endswith("\n") and "6 of 10 splits" in term.getvalue().splitlines()[-1]
    # Nothing at all for work done within the delay.
    monkeypatch.setattr(_progress.time, "monotonic", lambda: 0.0)
    term = Terminal()
    with _progress.Progress(10, "x", "splits", stream=term) as bar:
        bar.update(10)
    assert term.getvalue() == ""


@pytest.mark.progress
@pytest.mark.parametrize("value, shown", [("off", False), ("0", False), ("on", True), ("", True)])
def test_irmeans_progress_off_silences_the_bar(monkeypatch, value, shown):
    monkeypatch.setattr(_progress.time, "monotonic", FastClock())  # every step seems to take 0.5 s
    monkeypatch.setenv("IRMEANS_PROGRESS", value)
    term = Terminal()
    with _progress.Progress(10, "x", "splits", stream=term) as bar:
        for _ in range(10):
            bar.update()
    assert bool(term.getvalue()) == shown


@pytest.mark.parametrize(
    "option, value", [("-n", "1_0"), ("-n", "0"), ("--seed", "1_0"), ("--seed", "-1"), ("--digits", "18")]
)
def test_counts_are_read_as_irmeans_eval_reads_them(trec8_csv, capsys, option, value):
    assert main(["consistency", "--scores", trec8_csv[0], option, value]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and option in err


# --- where the scores come from, and which way they run -------------------------------


def run(capsys, *args):
    status = main(["consistency", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_shipped_dataset_by_name(capsys):
    status, out, err = run(capsys, "--dataset", "robust2004:ap", "-n", "30", "-a", "am", "--bootstrap", "0")
    assert (status, err) == (0, "")
    assert out.startswith("# TREC 2004 Robust (2004), AP: 110 systems x 249 topics;")
    m = datasets.load("robust2004", "ap")
    t = consistency.split_half(m.scores, "am", 30, seed=0)
    assert table(out, "average\tmean_tau")["am"][0] == f"{t.mean():.4f}"


def test_the_shipped_csv_runs_topic_by_topic_and_is_read_that_way(capsys):
    path = str(datasets.data_file("robust2004_ap.csv"))
    by_file = run(capsys, "--scores", path, "-n", "30", "-a", "am", "-a", "gm:0.01")
    by_name = run(capsys, "--dataset", "robust2004:ap", "-n", "30", "-a", "am", "-a", "gm:0.01")
    assert by_file[0] == by_name[0] == 0
    assert "110 systems x 249 topics" in by_file[1]
    assert by_file[1].splitlines()[1:] == by_name[1].splitlines()[1:]


def test_a_file_whose_header_does_not_say_which_way_it_runs_is_refused(capsys):
    # the shipped TREC-8 file names its systems in the header and no topic column: read as
    # systems x topics it failed on "system name '0'", or gave plausible numbers for other files
    path = str(datasets.data_file("adhoc8_ap.csv"))
    status, out, err = run(capsys, "--scores", path)
    assert (status, out) == (1, "")
    assert err.strip() == (
        f"irmeans consistency: error: {path}:1: the header's first field is 'run1'; it must say which way the "
        "file runs: 'system' (a row per system: system,401,402,... then runA,0.31,0.05,...) or 'topic' "
        "(a row per topic: topic,runA,runB,... then 401,0.31,0.29,...)"
    )


def test_rows_of_topics_and_rows_of_systems_give_the_same_report(tmp_path, capsys):
    rng = np.random.default_rng(4)
    scores = rng.random((6, 9))
    systems, topics = [f"s{i}" for i in range(6)], [f"{400 + j}" for j in range(9)]
    by_system = write_csv(tmp_path / "a.csv", systems, topics, scores)
    by_topic = tmp_path / "b.csv"
    by_topic.write_text(
        "topic,"
        + ",".join(systems)
        + "\n"
        + "".join(t + "," + ",".join(repr(float(v)) for v in scores[:, j]) + "\n" for j, t in enumerate(topics))
    )
    a = run(capsys, "--scores", by_system, "-n", "40")
    b = run(capsys, "--scores", str(by_topic), "-n", "40")
    assert a[0] == b[0] == 0 and "6 systems x 9 topics" in a[1]
    assert a[1].splitlines()[1:] == b[1].splitlines()[1:]


@pytest.mark.parametrize(
    "rows",
    [
        [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]],  # every score equal
        [[0.1, 0.4, 0.3, 0.2], [0.1, 0.4, 0.3, 0.2]],  # two identical runs
        [[0.5, 0.2, 0.5, 0.1], [0.5, 0.2, 0.5, 0.3]],  # runs that differ on one topic
    ],
)
@pytest.mark.parametrize("split", ["random", "hard-easy"])
def test_no_split_with_a_tau_is_one_line_not_a_table_of_nan(tmp_path, capsys, rows, split):
    path = write_csv(
        tmp_path / "s.csv", [f"r{i}" for i in range(len(rows))], [f"t{j}" for j in range(len(rows[0]))], rows
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy warning either
        status, out, err = run(capsys, "--scores", path, "-n", "25", "--split", split)
    assert (status, out) == (1, "")
    assert len(err.splitlines()) == 1 and "nan" not in err.lower()
    assert err.startswith(f"irmeans consistency: error: {path}: Kendall's tau is undefined on ")
    assert "for am: one half always gives every system the same average" in err


def test_splits_without_a_tau_are_counted_and_left_out(tmp_path, capsys):
    # the two runs differ on topics 0 and 1 only: a split with both in one half leaves the other half tied
    rows = [[0.1, 0.9, 0.3, 0.3, 0.4, 0.5], [0.2, 0.8, 0.3, 0.3, 0.4, 0.5]]
    path = write_csv(tmp_path / "s.csv", ["a", "b"], [f"t{j}" for j in range(6)], rows)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status, out, err = run(capsys, "--scores", path, "-n", "200", "-a", "am", "-a", "gm:0.01")
    assert (status, without_too_few(err)) == (0, "")
    t = consistency.split_half(np.array(rows), "am", 200, seed=0)
    undefined = int(np.isnan(t).sum())
    assert 0 < undefined < 200
    assert f"# am: {undefined:,} of 200 splits left out, their tau undefined" in out
    assert table(out, "average\tmean_tau")["am"][0] == f"{np.nanmean(t):.4f}"
    assert "nan" not in out.lower()


def test_a_score_an_average_cannot_take_names_file_system_and_topic(tmp_path, capsys):
    path = write_csv(
        tmp_path / "s.csv", ["A", "B", "C"], ["t1", "t2", "t3"], [[0.5, 0.1, 0.2], [0.3, -0.2, 0.1], [0.1, 0.2, 0.3]]
    )
    status, out, err = run(capsys, "--scores", path, "-a", "am", "-a", "gm:0.01")
    assert (status, out) == (1, "")
    assert (
        err.strip()
        == f"irmeans consistency: error: {path}: system 'B', topic 't2': score -0.2; gm:0.01 needs scores >= 0"
    )
    status, out, err = run(capsys, "--scores", path, "-a", "am", "-a", "median", "-n", "20")
    assert status == 0  # the arithmetic mean and the median take any number


@pytest.mark.parametrize(
    "args, needle",
    [
        (["-n", str(10**12)], "argument -n/--splits: '1000000000000' is more than the 1,000,000,000 splits"),
        (["-n", str(10**30)], "argument -n/--splits: '" + str(10**30) + "' is more than the 1,000,000,000 splits"),
        (["--dataset", "adhoc8"], "argument --dataset: 'adhoc8' is not COLLECTION:MEASURE"),
    ],
)
def test_option_values_out_of_reach_name_the_option(capsys, args, needle):
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and needle in err


@pytest.mark.parametrize(
    "dataset, needle",
    [
        ("adhoc9:ap", "--dataset adhoc9:ap: no collection 'adhoc9'"),
        ("adhoc8:ndcg", "--dataset adhoc8:ndcg: collection 'adhoc8' has no measure 'ndcg'; it has ap, p10, rr"),
    ],
)
def test_an_unknown_dataset_names_what_is_shipped(capsys, dataset, needle):
    status, out, err = run(capsys, "--dataset", dataset)
    assert (status, out) == (1, "") and needle in err


def test_two_sources_at_once_are_refused(trec8_csv, capsys):
    status, _, err = run(capsys, "--dataset", "adhoc8:ap", "--scores", trec8_csv[0])
    assert status == 1 and "give one of --dataset, --scores or QRELS RUN..., not --dataset and --scores" in err


def test_runs_are_read_as_compare_reads_them_and_a_missing_topic_is_said(tmp_path, capsys):
    # The same source options and the same evaluation as `irmeans compare` (evaluate_runs): a run
    # without results for a judged topic scores 0 there, and the warning reaches standard error.
    examples = os.path.join(os.path.dirname(__file__), "..", "..", "examples")
    lines = open(os.path.join(examples, "runs", "phrases.txt")).read().splitlines()
    short = tmp_path / "short.txt"
    short.write_text("\n".join(line for line in lines if not line.startswith("410 ")) + "\n")
    runs = [os.path.join(examples, "runs", f"{name}.txt") for name in ("baseline", "feedback")] + [str(short)]
    qrels = os.path.join(examples, "qrels.txt")
    args = ["consistency", "-n", "50", "--bootstrap", "0", "-a", "am", "-m", "P.10", qrels, *runs]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert "irmeans consistency: warning:" in err and "410" in err and "scored 0" in err
    assert out.startswith(f"# P_10 of 3 runs against {qrels}")


@pytest.mark.parametrize("n, resamples, each", [(40, 40, 1), (5000, 1000, 5)])
def test_the_intervals_over_topics_cost_what_n_asks_for(monkeypatch, capsys, n, resamples, each):
    # the bootstrap draws about as many splits as the experiment: -n 40 is not 50,040 splits
    done = []
    real = experiment._HalvesTau.__call__
    monkeypatch.setattr(
        experiment._HalvesTau,
        "__call__",
        lambda self, f, s, out, p=None: done.append(len(out)) or real(self, f, s, out, p),
    )
    assert main(["consistency", "--dataset", "adhoc8:ap", "-a", "am", "-n", str(n)]) == 0
    out = capsys.readouterr().out
    assert f"from {resamples:,} bootstrap resamples of the 50 topics ({each} split{'s' * (each > 1)} each)" in out
    assert sum(done) == n + resamples * each <= 2 * n


def test_too_few_systems_or_topics_are_warned_of_on_stderr_with_the_line_and_why(capsys):
    from pathlib import Path

    from irmeans.cli import main

    examples = Path(__file__).resolve().parents[2] / "examples"
    runs = [str(examples / "runs" / f"{n}.txt") for n in ("baseline", "feedback", "phrases")]
    status = main(["consistency", "-m", "map", "-n", "50", "--bootstrap", "0", str(examples / "qrels.txt"), *runs])
    out, err = capsys.readouterr()
    assert status == 0 and "warning" not in out
    assert err.startswith("irmeans consistency: warning: 3 systems x 10 topics are too few")
    assert "(at least 10 systems and 20 topics): tau moves by 0.67 when one pair of systems swaps" in err


def test_enough_systems_and_topics_get_no_warning_and_the_line_is_where_it_says():
    from hypothesis import given
    from hypothesis import strategies as st
    from irmeans.errors import TooFewToTellWarning

    @given(st.integers(2, 40), st.integers(2, 60))
    def check(systems, topics):
        warned = TooFewToTellWarning.check(systems, topics)
        assert (warned is None) == (systems >= 10 and topics >= 20)

    check()
    assert TooFewToTellWarning.check(10, 20) is None and TooFewToTellWarning.check(9, 20) is not None


def without_too_few(err):
    """Standard error without the warning that the systems or topics are too few (tiny inputs here on purpose)."""
    return "".join(line for line in err.splitlines(keepends=True) if "are too few for Kendall's tau" not in line)
