"""``irmeans eval QRELS RUN RUN ...``: each run's own lines, its name and a tab in front, the qrels read once."""

import io
import os
import sys

import irmeans.trec.files
import pytest
from irmeans.cli import main
from irmeans.number_syntax import c_float

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def run(argv, monkeypatch, stdin=b""):
    out, err = io.BytesIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="utf-8", errors="surrogateescape"))
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    status = main(argv)
    sys.stdout.flush()
    return status, out.getvalue(), err.getvalue()


@pytest.fixture
def runs(tmp_path):
    """Three runs against the robust fixture's qrels: the fixture's run and two rescorings of it."""
    qrels = os.path.join(FIXTURES, "robust.qrels")
    with open(os.path.join(FIXTURES, "robust.run"), encoding="utf-8") as fh:
        rows = [f for f in (line.split() for line in fh if not line.startswith("#")) if len(f) >= 6 and c_float(f[4])]
    paths = [os.path.join(FIXTURES, "robust.run")]
    for k, step in enumerate((3, 7)):
        p = tmp_path / f"run {k}.txt"  # a space in the name: it is printed as given
        p.write_text(
            "".join(
                f"{t} Q0 {d} {r} {c_float(s) * ((i % step) + 1)!r} mine{k}\n"
                for i, (t, _, d, r, s, *_) in enumerate(rows)
            )
        )
        paths.append(str(p))
    return qrels, paths


@pytest.mark.parametrize(
    "flags", [[], ["-q", "-m", "all_trec"], ["-c", "-M", "50", "-m", "official"], ["-q", "-n", "-m", "P.5"]]
)
def test_many_runs_print_each_run_s_own_lines_with_its_name_in_front(runs, monkeypatch, flags):
    qrels, paths = runs
    status, out, err = run(["eval", *flags, qrels, *paths], monkeypatch)
    assert status == 0
    expected, warnings = b"", ""
    for path in paths:
        one_status, one_out, one_err = run(["eval", *flags, qrels, path], monkeypatch)
        assert one_status == 0 and one_out
        expected += b"".join(path.encode() + b"\t" + line + b"\n" for line in one_out.splitlines())
        warnings += one_err
    assert out == expected
    assert err == warnings


def test_the_qrels_are_read_once(runs, monkeypatch):
    qrels, paths = runs
    calls = []
    real = irmeans.trec.files.read_qrels
    monkeypatch.setattr(irmeans.trec.files, "read_qrels", lambda p: calls.append(p) or real(p))
    status, _, _ = run(["eval", "-m", "map", qrels, *paths], monkeypatch)
    assert status == 0 and calls == [qrels]


def test_a_run_that_cannot_be_read_is_reported_and_the_others_evaluated(runs, tmp_path, monkeypatch):
    qrels, paths = runs
    bad = tmp_path / "bad.txt"
    bad.write_text("301 Q0 a 1 2.5 x\n301 Q0 b 2 nope x\n")
    missing = str(tmp_path / "missing.txt")
    status, out, err = run(["eval", "-m", "map", qrels, paths[0], str(bad), missing, paths[1]], monkeypatch)
    assert status == 1
    assert [line.split(b"\t")[0] for line in out.splitlines()] == [paths[0].encode(), paths[1].encode()]
    assert [line for line in err.splitlines() if "error" in line] == [
        f"irmeans eval: error: {bad}:2: score 'nope' is not a number",
        f"irmeans eval: error: {missing}: no such file",
    ]


def test_standard_input_serves_one_run(runs, monkeypatch):
    qrels, paths = runs
    text = open(paths[0], "rb").read()
    status, out, _ = run(["eval", "-m", "map", qrels, "-", paths[1]], monkeypatch, stdin=text)
    assert status == 0 and out.splitlines()[0].startswith(b"-\tmap")
    # standard input cannot be read twice: the second '-' is a run that cannot be read
    status, out, err = run(["eval", "-m", "map", qrels, "-", "-"], monkeypatch, stdin=text)
    assert status == 1 and [line.split(b"\t")[0] for line in out.splitlines()] == [b"-"]
    assert "error: '-' (standard input) may be given once: it has been read already" in err
    status, out, err = run(["eval", "-m", "map", "-", "-"], monkeypatch, stdin=open(qrels, "rb").read())
    assert (status, out) == (1, b"") and "'-' (standard input) is given as the qrels and as a run" in err


# --- start-up: a small evaluation imports what it needs and nothing more ---------------

#: The library's modules a plain evaluation of small files loads (a new one here is a decision).
EVAL_MODULES = {
    "irmeans",
    "irmeans._display",
    "irmeans._numeric",
    "irmeans._python_input",
    "irmeans._validation",
    "irmeans.averages",
    "irmeans.cli",
    "irmeans.cli.arguments",
    "irmeans.cli.eval_command",
    "irmeans.cli.output",
    "irmeans.errors",
    "irmeans.number_syntax",
    "irmeans.trec",
    "irmeans.trec.ahead",
    "irmeans.trec.context",
    "irmeans.trec.duplicates",
    "irmeans.trec.evaluate",
    "irmeans.trec.files",
    "irmeans.trec.inputs",
    "irmeans.trec.gains",
    "irmeans.trec.join",
    "irmeans.trec.kernels",
    "irmeans.trec.measure",
    "irmeans.trec.ranked",
    "irmeans.trec.ranking",
    "irmeans.trec.run_blocks",
    "irmeans.trec.segments",
    "irmeans.trec.source",
    "irmeans.trec.strings",
    "irmeans.trec.summary",
    "irmeans.trec.table",
    "irmeans.trec.tokens",
}
#: What only some inputs need: pyarrow for big files, gzip for gzip files, decimal for grades
#: written as decimals; and what irmeans eval never needs.
NOT_FOR_A_SMALL_RUN = {"pyarrow", "gzip", "decimal", "scipy", "pandas", "csv", "irmeans_book", "numpy.ma"}


def test_a_small_evaluation_imports_only_what_it_needs(tmp_path):
    import subprocess

    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("".join(f"{t} 0 d{d} {d % 3}\n" for t in range(1, 6) for d in range(40)))
    r.write_text("".join(f"{t} Q0 d{d} {d} {100 - d}.5 run\n" for t in range(1, 6) for d in range(60)))
    code = (
        "import sys, io, irmeans.cli; sys.stdout = io.StringIO(); "
        f"status = irmeans.cli.main(['eval', '-c', '-m', 'map', '-m', 'P.10', {str(q)!r}, {str(r)!r}]); "
        "sys.stdout = sys.__stdout__; print(status); print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "0"
    loaded = set(out[1].split())
    assert {m for m in loaded if m.startswith("irmeans")} == EVAL_MODULES
    assert not {m for m in loaded if m in NOT_FOR_A_SMALL_RUN or m.split(".")[0] in NOT_FOR_A_SMALL_RUN}


def test_runs_large_enough_for_pyarrow_are_read_by_it_and_print_the_same_lines(runs, monkeypatch):
    import irmeans.trec.arrow as arrow

    qrels, paths = runs
    _, small, warned = run(["eval", "-q", qrels, *paths], monkeypatch)
    made = []
    real = arrow.fast_reader
    monkeypatch.setattr(arrow, "fast_reader", lambda *a: made.append(a[0].what) or real(*a))
    monkeypatch.setattr(irmeans.trec.files, "ARROW_BYTES", 1)  # every file counts as big
    status, big, err = run(["eval", "-q", qrels, *paths], monkeypatch)
    assert (status, err) == (0, warned)
    assert made == ["qrels", "run", "run", "run"]
    assert big == small


def test_qrels_and_what_the_join_made_of_them_are_let_go_after_an_evaluation(runs):
    # the join keeps what it made of a qrels (by relevance level) while the qrels are alive, and no longer:
    # evaluations from files in one Python session did not give their qrels back
    import gc
    import weakref

    from irmeans.trec import join
    from irmeans.trec.evaluate import evaluate
    from irmeans.trec.files import read_qrels

    qrels, paths = runs
    for level in (1, 2):
        evaluate(qrels, paths[0], measures=["map"], relevance_level=level, complete=True)
    read = read_qrels(qrels)
    evaluate(read, paths[0], measures=["map"], complete=True)
    evaluate(read, paths[1], measures=["map"], relevance_level=2, complete=True)
    assert len(join._MADE[read]) == 2  # kept for the next run against these qrels
    gone = weakref.ref(read)
    del read
    gc.collect()
    assert gone() is None
    assert len(join._MADE) == 0
