"""``irmeans consistency`` as the book tells it, ``irmeans datasets`` and ``irmeans --version``."""

import re

import irmeans
import numpy as np
import pytest
from irmeans import datasets
from irmeans.cli import main
from irmeans.consistency.intervals import tau_intervals


def run(capsys, *args):
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def table(out, header):
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = {}
    for line in lines[start + 1 :]:
        if not line or line.startswith("#"):
            break
        fields = line.split("\t")
        rows[fields[0]] = fields[1:]
    return lines[start].split("\t"), rows


def write_csv(path, rows, systems=None, topics=None):
    systems = systems or [f"r{i}" for i in range(len(rows))]
    topics = topics or [f"t{j}" for j in range(len(rows[0]))]
    path.write_text(
        "system,"
        + ",".join(topics)
        + "\n"
        + "".join(f"{s}," + ",".join(map(repr, r)) + "\n" for s, r in zip(systems, rows))
    )
    return str(path)


def test_the_report_is_the_library_s_intervals(capsys):
    status, out, err = run(capsys, "consistency", "--dataset", "adhoc8:ap", "-n", "300", "--seed", "2", "--bootstrap", "40",
                           "--bootstrap-splits", "10", "-a", "am", "-a", "gm:0.01", "-a", "std-am")  # fmt: skip
    assert (status, err) == (0, "")
    ap = datasets.load("adhoc8", "ap").scores
    report = tau_intervals(ap, ["am", "gm:0.01", "std-am"], 300, seed=2, n_bootstrap=40, bootstrap_splits=10)
    header, rows = table(out, "average\tmean_tau")
    assert header == [
        "average",
        "mean_tau",
        "splits_low",
        "splits_high",
        "topics_low",
        "topics_high",
        "tau_2.5%",
        "tau_97.5%",
    ]
    for label, row in report.rows.items():
        expected = [row.mean, row.over_splits.low, row.over_splits.high, row.over_topics.low, row.over_topics.high]
        expected += [row.spread.low, row.spread.high]
        assert rows[label] == [f"{v:.4f}" for v in expected]
    _, diffs = table(out, "average\tmean_diff")
    row = report.rows["gm:0.01"]
    assert diffs["gm:0.01"] == [f"{row.difference:+.4f}", str(row.higher), str(row.lower)] + [
        f"{v:+.4f}"
        for v in (
            row.difference_over_splits.low,
            row.difference_over_splits.high,
            row.difference_over_topics.low,
            row.difference_over_topics.high,
        )
    ]
    assert "am" not in diffs
    assert "t-test" not in out and "wilcoxon" not in out.lower() and "p_" not in out


def test_a_spec_without_its_eps_is_a_usage_error_naming_both_choices(capsys):
    status, out, err = run(capsys, "consistency", "--dataset", "adhoc8:ap", "-n", "20", "-a", "gm")
    assert (status, out) == (2, "") and "'gm' names no ε: write gm:0.01" in err and "or gm:0 (GM(), ε = 0)" in err


def test_every_line_and_header_names_its_eps(capsys):
    status, out, _ = run(capsys, "consistency", "--dataset", "adhoc8:ap", "-n", "20", "--bootstrap", "0",
                         "-a", "gm:1e-2", "-a", "hm:0.01", "-a", "logit:.01", "-a", "gm:0", "-a", "gm-floor")  # fmt: skip
    assert status == 0
    assert "# averages: gm:0.01 = εGM (ε = 0.01); hm:0.01 = εHM (ε = 0.01); logit:0.01 = logit (ε = 0.01); " in out
    assert "gm:0 = GM (ε = 0); gm-floor:1e-05 = GM, trec_eval floor (ε = 1e-05)" in out
    _, rows = table(out, "average\tmean_tau")
    assert list(rows) == ["gm:0.01", "hm:0.01", "logit:0.01", "gm:0", "gm-floor:1e-05"]
    default = irmeans.split_half(datasets.load("adhoc8", "ap").scores, "gm:0.01", 20, seed=0)
    assert rows["gm:0.01"][0] == f"{default.mean():.4f}"


def test_a_zero_with_eps_zero_is_named_as_the_cause(tmp_path, capsys):
    # topic t2 is 0 for every system: with ε = 0 every GM of a half holding it is 0, and one half always does
    rows = [[0.3, 0.5, 0.0, 0.2, 0.6], [0.4, 0.1, 0.0, 0.6, 0.3], [0.8, 0.7, 0.0, 0.1, 0.2], [0.5, 0.3, 0.0, 0.4, 0.9]]
    path = write_csv(tmp_path / "z.csv", rows)
    for split in ("random", "hard-easy"):
        status, out, err = run(
            capsys, "consistency", "--scores", path, "--split", split, "-n", "50", "--bootstrap", "0", "-a", "gm:0"
        )
        assert (status, out) == (1, "")
        assert (
            "for gm:0: one half always gives every system the same average (every system scores 0 on topic 't2'" in err
        )
        assert "systems that differ on no topic" not in err and "give ε > 0 (for example gm:0.01)" in err
    # each system has its own zero: a half holding all three zeros ties every GM at 0
    rows = [[0.0, 0.5, 0.4, 0.2, 0.6, 0.3], [0.4, 0.0, 0.3, 0.6, 0.3, 0.5], [0.8, 0.7, 0.0, 0.1, 0.2, 0.9]]
    path = write_csv(tmp_path / "y.csv", rows)
    status, out, err = run(capsys, "consistency", "--scores", path, "-n", "200", "--bootstrap", "0", "-a", "gm:0")
    assert (status, without_too_few(err)) == (0, "")
    assert re.search(
        r"# gm:0: \d+ of 200 splits left out, their tau undefined \(a half on which every system has the same "
        r"average: with ε = 0 a single zero makes a geometric mean 0, so systems with a zero on a half all tie",
        out,
    )


def test_hard_easy_with_a_standardized_average_says_whose_difficulty(capsys):
    args = [
        "consistency",
        "--dataset",
        "adhoc8:ap",
        "--split",
        "hard-easy",
        "-a",
        "am",
        "-a",
        "std-am",
        "--digits",
        "3",
    ]
    status, out, _ = run(capsys, *args, "--bootstrap", "0")
    assert status == 0
    assert "# topic difficulty: eq2, from each average's own scores: the raw scores for am; the standardized scores " \
           "for std-am (--difficulty-from)" in out  # fmt: skip
    assert table(out, "average\tmean_tau")[1]["std-am"][0] == "0.739"  # Ravana & Moffat's Table 3(c)
    status, out, _ = run(capsys, *args, "--bootstrap", "0", "--difficulty-from", "raw")
    assert "# topic difficulty: eq2, from the raw scores, for every average" in out
    assert table(out, "average\tmean_tau")[1]["std-am"][0] == "0.705"


def test_the_help_says_what_the_intervals_are_and_why_no_test(capsys):
    with pytest.raises(SystemExit):
        main(["consistency", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--bootstrap B", "--bootstrap-splits N", "--difficulty-from", "over splits", "over topics",
                  "no test across splits is printed", "name their ε", "-n sets the cost of both"):  # fmt: skip
        assert words in text


def test_datasets_lists_every_shipped_matrix(capsys):
    status, out, err = run(capsys, "datasets")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "dataset\ttrack\tyear\tsystems x topics\tmeasure"
    catalog = datasets.catalog()
    assert len(lines) == len(catalog) + 1
    for line, entry in zip(lines[1:], catalog):
        name, track, year, size, measure = line.split("\t")
        m = datasets.load(*name.split(":"))
        assert (track, int(year), measure) == (entry.track, entry.year, datasets.MEASURES[entry.measure])
        assert size == f"{m.shape[0]} x {m.shape[1]}"
    assert "adhoc8:ap\tTREC-8 ad hoc\t1999\t129 x 50\tAP" in lines


def test_version(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"irmeans {irmeans.__version__}\n"


def test_no_command_is_a_usage_error_with_the_help_on_standard_error(capsys):
    status, out, err = run(capsys)
    assert (status, out) == (2, "")
    assert err.startswith("usage: irmeans") and "datasets" in err and "consistency" in err


def test_the_bootstrap_options_read_counts(tmp_path, capsys):
    path = write_csv(tmp_path / "s.csv", [[0.1, 0.5, 0.3], [0.4, 0.2, 0.6], [0.7, 0.1, 0.2]])
    for bad in (["--bootstrap", "-1"], ["--bootstrap", "1_0"], ["--bootstrap-splits", "0"]):
        status, out, err = run(capsys, "consistency", "--scores", path, *bad)
        assert (status, out) == (2, "") and bad[0] in err
    status, out, _ = run(
        capsys, "consistency", "--scores", path, "-n", "10", "--bootstrap", "3", "--bootstrap-splits", "2"
    )
    assert status == 0 and "from 3 bootstrap resamples of the 3 topics (2 splits each)" in out
    assert np.isfinite(float(table(out, "average\tmean_tau")[1]["am"][0]))


def without_too_few(err):
    """Standard error without the warning that the systems or topics are too few (tiny inputs here on purpose)."""
    return "".join(line for line in err.splitlines(keepends=True) if "are too few for Kendall's tau" not in line)


@pytest.mark.parametrize(
    "command", [["consistency", "--bootstrap", "1", "-n", "10"], ["compare", "-b", "1", "-n", "10"]]
)
def test_a_bootstrap_of_one_resample_is_refused_not_printed_as_an_interval(command, capsys):
    # compare printed a "95 % interval" of one point without a word, consistency '-' in its place
    status = main([*command, "--dataset", "adhoc8:ap"])
    out, err = capsys.readouterr()
    assert (status, out) == (1, "")
    assert err.endswith("1 bootstrap resample gives an interval of a single point: " + err.split(": ")[-1])
    assert "at least 2" in err and err.count("\n") == 1
