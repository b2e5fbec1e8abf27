"""The command line answers the user's mistakes in one line, and lets the project's own bugs show."""

import irmeans.trec.evaluate
import pytest
from irmeans.cli import main


@pytest.fixture
def pair(tmp_path):
    qrels = tmp_path / "q.txt"
    run = tmp_path / "r.txt"
    qrels.write_text("1 0 a 1\n")
    run.write_text("1 Q0 a 1 1.0 r\n")
    return str(qrels), str(run)


def test_a_bug_is_not_dressed_up_as_a_user_error(pair, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("an internal inconsistency")

    monkeypatch.setattr(irmeans.trec.evaluate, "evaluate", broken)
    with pytest.raises(ValueError, match="an internal inconsistency"):
        main(["eval", *pair])


def test_a_user_error_is_one_line_and_exit_1(pair, tmp_path, capsys):
    assert main(["eval", pair[0], str(tmp_path / "missing.txt")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "missing.txt" in err
