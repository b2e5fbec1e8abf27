"""RUN or QRELS ``-`` when standard input cannot be read: one line from the one check, never a traceback.

The read stage checks standard input in one place (``irmeans.trec.source.standard_input``):
closed (no stream, or no file descriptor 0), a directory, or read already by an earlier ``-``.
"""

import io
import os
import subprocess
import sys

import pytest
from irmeans.errors import IrmeansError
from irmeans.trec.evaluate import evaluate
from irmeans.trec.files import read_qrels, read_run

QRELS = "1 0 a 1\n1 0 b 0\n"
RUN = "1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n"


@pytest.fixture
def files(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(QRELS)
    r.write_text(RUN)
    return str(q), str(r)


def irmeans_closed_stdin(*args):
    """``irmeans ARGS`` with file descriptor 0 closed (``<&-`` in a shell)."""
    proc = subprocess.run(
        [sys.executable, "-m", "irmeans.cli", *args],
        capture_output=True,
        stdin=None,
        preexec_fn=lambda: os.close(0),
    )
    return proc.returncode, proc.stdout, proc.stderr.decode()


@pytest.mark.parametrize("which", ["qrels", "run"])
def test_a_closed_standard_input_is_one_line(files, which):
    args = ["-", files[1]] if which == "qrels" else [files[0], "-"]
    status, out, err = irmeans_closed_stdin("eval", "-m", "map", *args)
    assert (status, out) == (1, b"")
    assert err.strip().splitlines() == ["irmeans eval: error: '-': standard input is closed, there is nothing to read"]


class DirectoryStdin:
    """A standard input whose file descriptor is a directory (``< /tmp`` in a shell)."""

    closed = False

    def __init__(self, path):
        self.fd = os.open(path, os.O_RDONLY)
        self.buffer = io.BytesIO(b"")

    def fileno(self):
        return self.fd


@pytest.mark.parametrize("read", [read_qrels, read_run])
def test_a_directory_as_standard_input_is_one_error(tmp_path, monkeypatch, read):
    stdin = DirectoryStdin(tmp_path)
    monkeypatch.setattr(sys, "stdin", stdin)
    try:
        with pytest.raises(IrmeansError, match="^'-': standard input is a directory, not a file$"):
            read("-")
    finally:
        os.close(stdin.fd)


@pytest.mark.parametrize("stdin", [None, "closed"])
def test_no_standard_input_at_all_is_one_error(monkeypatch, stdin):
    if stdin is None:
        monkeypatch.setattr(sys, "stdin", None)
    else:
        closed = io.TextIOWrapper(io.BytesIO(b""))
        closed.close()
        monkeypatch.setattr(sys, "stdin", closed)
    with pytest.raises(IrmeansError, match="standard input is closed"):
        read_run("-")


def test_standard_input_is_read_once(files, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RUN.encode())))
    assert read_run("-").docnos.tolist() == [b"a", b"b"]
    with pytest.raises(IrmeansError, match=r"'-' \(standard input\) may be given once: it has been read already"):
        read_run("-")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(QRELS.encode())))
    with pytest.raises(IrmeansError, match="may be given once"):
        evaluate("-", "-", measures=["map"])


def test_the_check_is_made_in_one_place():
    # every reader of '-' goes through source.standard_input: no other module looks at sys.stdin
    import pathlib

    import irmeans

    lib = pathlib.Path(irmeans.__file__).parent
    users = sorted(str(p.relative_to(lib)) for p in lib.rglob("*.py") if "sys.stdin" in p.read_text())
    assert users == ["trec/source.py"]


def test_the_qrels_and_a_run_cannot_both_be_standard_input(capsys):
    # one stream of qrels and run lines: the qrels' reading took the run's and said 'too many fields'
    import io
    import sys

    from irmeans.cli import main

    stream = io.TextIOWrapper(io.BytesIO(b"1 0 a 1\n1 Q0 a 1 1.5 run\n"))
    sys.stdin, saved = stream, sys.stdin
    try:
        assert main(["eval", "-", "-"]) == 1
    finally:
        sys.stdin = saved
    err = capsys.readouterr().err
    assert "'-' (standard input) is given as the qrels and as a run" in err and "too many fields" not in err
