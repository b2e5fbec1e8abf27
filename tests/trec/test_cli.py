"""Tests of the irmeans command line."""

import subprocess
import sys

import pytest
from irmeans.cli import main

QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 x 1\n3 0 z 1\n"
RUN = "1 Q0 a 1 3 tagX\n1 Q0 b 2 2 tagX\n1 Q0 c 3 2 tagX\n2 Q0 y 1 1 tagX\n"


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    return str(q), str(r)


def lines(out):
    return [line.split("\t") for line in out.strip().splitlines()]


def test_default_summary_format(files, capsys):
    assert main(["eval", "-m", "official", *files]) == 0
    captured = capsys.readouterr()
    rows = lines(captured.out)
    assert rows[0] == ["runid                 ", "all", "tagX"]
    assert rows[1] == ["num_q                 ", "all", "2"]
    assert rows[2] == ["num_ret               ", "all", "4"]
    by_name = {r[0].strip(): r[2] for r in rows}
    # topic 1 ranking a, c, b: AP = (1 + 2/2) / 2 = 1; topic 2: 0
    assert by_name["map"] == "0.5000"
    assert by_name["P_5"] == "0.2000"
    assert "ndcg" not in by_name
    assert "gm_map_add" not in by_name  # the extra lines only when asked for (see test_extra_lines_*)
    assert "warning" in captured.err and ": 3" in captured.err


def test_per_topic_lines_come_first_in_trec_eval_order(files, capsys):
    assert main(["eval", "-q", "-m", "map", "-m", "num_ret", "--digits", "2", *files]) == 0
    rows = lines(capsys.readouterr().out)
    assert [(r[0].strip(), r[1], r[2]) for r in rows[:6]] == [
        ("num_ret", "1", "3"),
        ("map", "1", "  1.00"),  # %6.2f, as trec_eval pads
        ("num_ret", "2", "1"),
        ("map", "2", "  0.00"),
        ("num_ret", "all", "4"),
        ("map", "all", "  0.50"),
    ]


def test_measure_parameters_and_complete(files, capsys):
    assert main(["eval", "-c", "-m", "P.1,2", "-m", "num_q", *files]) == 0
    rows = {r[0].strip(): r[2] for r in lines(capsys.readouterr().out)}
    assert rows == {"num_q": "3", "P_1": "%6.4f" % (1 / 3), "P_2": "%6.4f" % (1 / 3)}


def test_depth_and_level(files, capsys):
    assert main(["eval", "-M", "1", "-l", "2", "-m", "map", "-m", "num_ret", *files]) == 0
    rows = {r[0].strip(): r[2] for r in lines(capsys.readouterr().out)}
    assert rows["num_ret"] == "2" and rows["map"] == "0.0000"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["eval", "-m", "nope"], "irmeans eval: error: unknown measure 'nope' (irmeans eval --help lists them)"),
        (["eval", "-M", "x"], "irmeans eval: argument -M: 'x' is not an integer"),
        (["eval", "--digits", "40"], "irmeans eval: argument --digits: '40' is not between 0 and 17"),
    ],
)
def test_bad_flags(files, capsys, argv, message):
    status = main(argv + list(files))
    captured = capsys.readouterr()
    assert status != 0
    assert captured.out == ""
    assert captured.err.strip() == message


def test_bad_file_message(files, tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 a 1 3 t\n1 Q0 b 2 x t\n")
    assert main(["eval", files[0], str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == f"irmeans eval: error: {bad}:2: score 'x' is not a number"


def test_console_script_errors_without_traceback(files, tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "irmeans.cli", "eval", files[0], str(tmp_path / "missing.run")],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip().endswith("missing.run: no such file")
    assert "Traceback" not in proc.stderr


def test_help(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["eval", "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for name in ("gm_map_add", "hm_map", "median_map", "logit_map", "--eps", "-q", "-c"):
        assert name in text
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "eval" in capsys.readouterr().out


def test_extra_lines_are_the_means_of_the_per_topic_ap(tmp_path, capsys):
    from irmeans import means

    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 a 1\n1 0 b 0\n1 0 c 1\n2 0 x 1\n3 0 z 1\n")
    r.write_text("1 Q0 a 1 3 t\n1 Q0 b 2 2 t\n1 Q0 c 3 1 t\n2 Q0 y 1 2 t\n2 Q0 x 2 1 t\n3 Q0 z 1 1 t\n")
    # AP by hand: topic 1 ranks a, b, c: (1 + 2/3) / 2; topic 2: 1/2; topic 3: 1
    ap = [(1 + 2 / 3) / 2, 1 / 2, 1.0]
    for eps in (1e-5, 0.01):
        assert main(["eval", "-m", "map", "--extra", "--digits", "6", "--eps", str(eps), str(q), str(r)]) == 0
        captured = capsys.readouterr()
        rows = {row[0].strip(): row[2] for row in lines(captured.out)}
        assert list(rows) == ["map", "gm_map_add", "hm_map", "median_map", "logit_map"]
        assert rows["map"] == "%6.6f" % (sum(ap) / 3)
        assert rows["gm_map_add"] == "%6.6f" % means.geometric_mean(ap, eps=eps, form="add")
        assert rows["hm_map"] == "%6.6f" % means.harmonic_mean(ap, eps=eps)
        assert rows["hm_map"] == "%6.6f" % (3 / sum(1 / (a + eps) for a in ap) - eps)
        assert rows["median_map"] == "%6.6f" % means.median(ap) == "0.833333"
        assert rows["logit_map"] == "%6.6f" % means.logit_mean(ap, eps=eps)
        assert captured.err == ""


def test_an_undefined_extra_line_is_left_out_with_a_note(files, capsys):
    # per-topic AP 1 and 0: with --eps 0 the harmonic mean (a zero) and the
    # logit mean (log-odds of 1) are undefined; the other lines are printed
    assert main(["eval", "-m", "map", "--extra", "--eps", "0", *files]) == 0
    captured = capsys.readouterr()
    rows = {row[0].strip(): row[2] for row in lines(captured.out)}
    assert rows == {"map": "0.5000", "gm_map_add": "0.0000", "median_map": "0.5000"}
    notes = captured.err.strip().splitlines()
    assert [n.split(",")[0] for n in notes[-2:]] == [
        "irmeans eval: note: hm_map line left out",
        "irmeans eval: note: logit_map line left out",
    ]
    assert all("undefined with --eps 0:" in n for n in notes[-2:])


@pytest.mark.parametrize("command", ["eval", "compare", "consistency", "datasets"])
def test_every_subcommand_prints_the_version_without_its_positionals(command, capsys):
    import irmeans

    with pytest.raises(SystemExit) as exit_:
        main([command, "--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr() == (f"irmeans {irmeans.__version__}\n", "")


def _options_taking_one_value():
    """(command, option, two values) for every option of every subcommand that stores one value."""
    from irmeans.cli import build_parser

    values = {"-m": ("map", "P.10"), "--dataset": ("adhoc8:ap", "adhoc8:ndcg"), "--format": ("csv", "json")}
    values |= {"--test": ("t", "sign"), "--split": ("random", "hard-easy"), "--difficulty-from": ("raw", "own")}
    values |= {"--alpha": ("0.05", "0.1"), "--confidence": ("0.9", "0.95"), "--scores": ("a.csv", "b.csv")}
    values |= {"--baseline": ("a", "b"), "--plot": ("a.svg", "b.svg"), "--eps": ("0.01", "0.1")}
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    found = []
    for name, sub in commands.items():
        for action in sub._actions:
            if action.option_strings and action.nargs is None and type(action).__name__ == "_StoreOnce":
                option = action.option_strings[0]
                choices = list(action.choices or [])
                two = tuple(choices[:2]) if len(choices) >= 2 else values.get(option, ("1", "2"))
                found.append((name, option, two))
    return found


@pytest.mark.parametrize("command, option, two", _options_taking_one_value())
def test_an_option_of_one_value_given_twice_is_a_usage_error_not_the_last_silently(command, option, two, capsys):
    status = main([command, option, two[0], option, two[1], "q", "r"])
    err = capsys.readouterr().err
    assert status == 2 and f"{option}" in err and "given twice" in err, err


def test_consistency_refuses_a_second_measure_with_a_usage_error(capsys):
    # compare takes several (a table of measures x averages); consistency one, and says so
    assert main(["consistency", "-m", "map", "-m", "P.10", "q", "r", "s"]) == 2
    assert "-m given twice" in capsys.readouterr().err
