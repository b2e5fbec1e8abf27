"""The commands with odd standard streams: closed, full, past a file-size limit, a directory.

Each case runs the real command in a subprocess. Wherever there is somewhere to write it, one
line says what went wrong; the exit status is the documented one (``--help`` lists them); and
nothing meant for standard error is ever written to standard output.
"""

import os
import resource
import subprocess
import sys

import pytest

QRELS = "401 0 d1 1\n401 0 d2 0\n402 0 d3 1\n403 0 d9 1\n"
RUN = "401 Q0 d1 1 2.0 r\n401 Q0 d2 2 1.0 r\n402 Q0 d4 1 1.0 r\n402 Q0 d3 2 0.5 r\n"
SCORES = "system,401,402,403\nrunA,0.1,0.5,0.3\nrunB,0.4,0.2,0.6\nrunC,0.7,0.1,0.2\n"


@pytest.fixture
def files(tmp_path):
    q, r, s = tmp_path / "qrels.txt", tmp_path / "run.txt", tmp_path / "scores.csv"
    q.write_text(QRELS)
    r.write_text(RUN)
    s.write_text(SCORES)
    (tmp_path / "run2.txt").write_text(RUN.replace(" r\n", " other\n").replace("2.0", "0.1"))
    return {"qrels": str(q), "run": str(r), "scores": str(s), "run2": str(tmp_path / "run2.txt")}


def commands(files):
    """Each command, with arguments that succeed on ordinary streams and write something."""
    return {
        "eval": ["eval", "-c", "-m", "map", files["qrels"], files["run"]],
        "consistency": ["consistency", "--scores", files["scores"], "-n", "20", "--bootstrap", "5"],
        "datasets": ["datasets"],
        "help": ["--help"],
        "eval --help": ["eval", "--help"],
        "consistency --help": ["consistency", "--help"],
        "version": ["--version"],
    }


def irmeans(args, *, close=(), limit=None, **streams):
    """Run ``python -m irmeans.cli ARGS``; ``close``: standard fds closed in the child; ``limit``: RLIMIT_FSIZE."""

    def before():
        for fd in close:
            os.close(fd)
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    streams = {"stdin": subprocess.DEVNULL, "stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **streams}
    return subprocess.run([sys.executable, "-m", "irmeans.cli", *args], preexec_fn=before, timeout=120, **streams)


def prefix(name):
    return "irmeans" if name in ("help", "version") else "irmeans " + name.split()[0]


@pytest.mark.parametrize("name", ["eval", "consistency", "datasets", "help", "eval --help", "version"])
def test_with_standard_output_closed_one_line_says_so(files, name):
    proc = irmeans(commands(files)[name], close=(1,), stdout=None)
    assert proc.returncode == 1
    assert proc.stderr.decode() == f"{prefix(name)}: error: cannot write the output (standard output is closed)\n"


@pytest.mark.parametrize("name", ["eval", "consistency", "datasets", "eval --help", "version"])
def test_into_a_full_disk_one_line_says_so(files, name):
    with open("/dev/full", "wb") as full:
        proc = irmeans(commands(files)[name], stdout=full)
    assert proc.returncode == 1
    assert proc.stderr.decode() == f"{prefix(name)}: error: cannot write the output (No space left on device)\n"


@pytest.mark.parametrize("name", ["help", "eval --help", "consistency --help", "datasets"])
def test_past_a_file_size_limit_one_line_says_so(files, tmp_path, name):
    target = tmp_path / "out.txt"
    with open(target, "wb") as out:
        proc = irmeans(commands(files)[name], stdout=out, limit=200)
    assert proc.returncode == 1
    assert proc.stderr.decode() == f"{prefix(name)}: error: cannot write the output (File too large)\n"
    assert target.stat().st_size == 200
    with open(target, "wb") as out:
        assert irmeans(commands(files)[name], stdout=out).returncode == 0  # without the limit, all of it
    assert target.stat().st_size > 200


@pytest.mark.parametrize("name", ["eval", "datasets", "help", "version"])
def test_into_a_pipe_closed_before_the_output_one_line_and_141(files, name):
    read, write = os.pipe()
    os.close(read)
    try:
        proc = irmeans(commands(files)[name], stdout=write)
    finally:
        os.close(write)
    assert proc.returncode == 141
    assert proc.stderr.decode() == f"{prefix(name)}: error: the output was closed before all of it was written\n"


def test_with_standard_error_closed_errors_and_warnings_stay_out_of_standard_output(files):
    # an error: exit status 1, and nothing at all on standard output
    proc = irmeans(["eval", files["qrels"], files["qrels"] + ".missing"], close=(2,), stderr=None)
    assert (proc.returncode, proc.stdout) == (1, b"")
    # a warning (topic 403 has no results) with results: only the results
    proc = irmeans(["eval", "-m", "map", files["qrels"], files["run"]], close=(2,), stderr=None)
    assert proc.returncode == 0
    assert proc.stdout.decode() == irmeans(["eval", "-m", "map", files["qrels"], files["run"]]).stdout.decode()
    assert b"warning" not in proc.stdout and proc.stdout.decode().startswith("map")
    # a usage error, and a bad CSV
    proc = irmeans(["eval", "-M", "x", files["qrels"], files["run"]], close=(2,), stderr=None)
    assert (proc.returncode, proc.stdout) == (2, b"")
    proc = irmeans(["consistency", "--scores", files["qrels"]], close=(2,), stderr=None)
    assert (proc.returncode, proc.stdout) == (1, b"")
    proc = irmeans([], close=(2,), stderr=None)
    assert (proc.returncode, proc.stdout) == (2, b"")


def test_with_both_closed_the_status_still_tells(files):
    proc = irmeans(commands(files)["consistency"], close=(1, 2), stdout=None, stderr=None)
    assert proc.returncode == 1
    proc = irmeans(["eval", "-m", "map", "-n", files["qrels"], files["run"]], close=(1, 2), stdout=None, stderr=None)
    assert proc.returncode == 0  # -n without -q: nothing to write, nothing lost


def test_with_standard_input_a_directory_python_refuses_to_start(files, tmp_path):
    # CPython checks file descriptor 0 while it sets up sys.stdin, before it runs any code
    # (site, sitecustomize or the command itself): a directory there ends it with its own
    # "Fatal Python error" and status 1, the status --help gives for an error. Nothing of
    # irmeans runs, so it cannot say more; this pins down what the user sees.
    directory = os.open(tmp_path, os.O_RDONLY)
    try:
        proc = irmeans(commands(files)["eval"], stdin=directory)
    finally:
        os.close(directory)
    assert proc.returncode == 1 and proc.stdout == b""
    assert "<stdin> is a directory, cannot continue" in proc.stderr.decode()


def test_the_help_lists_these_statuses(files):
    text = irmeans(["eval", "--help"]).stdout.decode()
    for words in ("standard output closed", "141", "130", "standard error only", "standard input a directory"):
        assert words in " ".join(text.split())


def warned(files):
    """Each subcommand with arguments that succeed and give a warning on standard error (datasets has none to give):
    a judged topic missing from the run (eval, compare), a run that cannot be read beside one that can (eval, exit 1),
    too few systems and topics to tell (consistency)."""
    return {
        "eval": ["eval", "-m", "map", files["qrels"], files["run"]],
        "eval, a run unreadable": ["eval", "-m", "map", files["qrels"], files["run"], files["run"] + ".missing"],
        "compare": ["compare", "-m", "map", "-n", "50", "-b", "50", files["qrels"], files["run"], files["run2"]],
        "consistency": commands(files)["consistency"],
        "datasets": ["datasets"],
    }


@pytest.mark.parametrize("stderr", ["full", "closed"])
@pytest.mark.parametrize("name", ["eval", "eval, a run unreadable", "compare", "consistency", "datasets"])
def test_a_warning_that_cannot_be_written_never_costs_the_results(files, name, stderr):
    args = warned(files)[name]
    ordinary = irmeans(args)
    assert ordinary.stdout and (name == "datasets" or b"warning" in ordinary.stderr or b"error" in ordinary.stderr)
    if stderr == "full":
        with open("/dev/full", "wb") as full:
            proc = irmeans(args, stderr=full)
    else:
        proc = irmeans(args, close=(2,), stderr=None)
    assert (proc.returncode, proc.stdout) == (ordinary.returncode, ordinary.stdout)


def test_a_warning_of_numpy_s_arithmetic_is_said_in_irmeans_words(files, monkeypatch, capsys):
    # none is known to reach the user any more (tests/trec/test_edges_of_numbers.py); one that did would be named
    import warnings

    from irmeans.cli import main
    from irmeans.trec import evaluate as evaluating

    real = evaluating.evaluate

    def arithmetic(*args, **kwargs):
        warnings.warn("invalid value encountered in cast", RuntimeWarning, stacklevel=1)
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluating, "evaluate", arithmetic)
    assert main(["eval", "-c", "-m", "map", files["qrels"], files["run"]]) == 0
    err = capsys.readouterr().err
    assert err.startswith("irmeans eval: warning: a number went beyond what a double holds, or had no value,")
    assert "(numpy's words: invalid value encountered in cast)" in err and "a fault of irmeans to report" in err
