"""``irmeans consistency``: the split-half test on a CSV of scores or on runs evaluated with irmeans."""

import re

import numpy as np
import pytest
from irmeans import consistency, datasets, evaluate, significance
from irmeans.cli import main


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
        assert rows[spec] == [f"{t.mean():.4f}", f"{lo:.4f}", f"{hi:.4f}"]
    paired = table(out, "average\tmean_diff")
    c = significance.compare_taus(taus["gm:0.01"], taus["am"])
    assert paired["gm:0.01"][:4] == [f"{c.mean_difference:+.4f}", str(c.a_higher), str(c.b_higher), f"{c.t:.2f}"]
    assert "am" not in paired


def test_hard_easy_split_reproduces_table_3c(trec8_csv, capsys):
    path, _ = trec8_csv
    args = ["consistency", "--scores", path, "--split", "hard-easy", "--digits", "3"]
    assert main([*args, "-a", "am", "-a", "gm:0.01", "-a", "gm-floor:1e-5"]) == 0
    rows = table(capsys.readouterr().out, "average\tmean_tau")
    # Ravana & Moffat (2009), Table 3(c), TREC8, AP, Hard/Easy.
    assert {k: v[0] for k, v in rows.items()} == {"am": "0.719", "gm:0.01": "0.732", "gm-floor:1e-05": "0.672"}
    assert rows["am"][1:] == ["-", "-"]


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
        ("system,t1,t2\nA,0.5,x\nB,0.1,0.2\n", r"bad.csv:2: a score is not a number"),
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
    "args, message",
    [
        (["-a", "mean"], "unknown average 'mean'"),
        ([], "nothing to read"),
    ],
)
def test_usage_problems_are_one_line(tmp_path, capsys, args, message):
    if "-a" in args:
        p = tmp_path / "ok.csv"
        p.write_text("system,t1,t2\nA,0.5,0.1\nB,0.1,0.2\n")
        args = [*args, "--scores", str(p)]
    assert main(["consistency", *args]) == 1
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


def test_progress_goes_to_stderr_on_long_runs(trec8_csv, capsys):
    path, _ = trec8_csv
    assert main(["consistency", "--scores", path, "-n", "20000", "-a", "am"]) == 0
    captured = capsys.readouterr()
    assert "average 1 of 1: am" in captured.err
    assert "average 1" not in captured.out


@pytest.mark.parametrize(
    "option, value", [("-n", "1_0"), ("-n", "0"), ("--seed", "1_0"), ("--seed", "-1"), ("--digits", "18")]
)
def test_counts_are_read_as_irmeans_eval_reads_them(trec8_csv, capsys, option, value):
    assert main(["consistency", "--scores", str(trec8_csv), option, value]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and option in err
