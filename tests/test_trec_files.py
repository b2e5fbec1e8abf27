"""Tests of the TREC qrels and run readers."""

import numpy as np
import pytest

from irmeans.trec_files import Qrels, Run, hash_bytes, read_qrels, read_run


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_qrels_fields_comments_and_blank_lines(tmp_path):
    path = write(tmp_path, "q.txt", "# header\n1 0 d1 2\n\n1 0 doc#7_x -1\n  2 0 d3 0\n")
    q = read_qrels(path)
    assert q.topics.tolist() == [b"1", b"1", b"2"]
    assert q.docnos.tolist() == [b"d1", b"doc#7_x", b"d3"]
    assert q.rels.tolist() == [2, -1, 0]
    assert q.lines.tolist() == [2, 4, 5]


def test_qrels_without_final_newline(tmp_path):
    q = read_qrels(write(tmp_path, "q.txt", "1 0 d1 1\n1 0 d2 0"))
    assert q.rels.tolist() == [1, 0]


@pytest.mark.parametrize("text, message", [
    ("1 0 d1 1\n1 0 d2\n", "q.txt:2: too few fields (3, a qrels line has exactly 4)"),
    ("1 0 d1 1 extra\n", "q.txt:1: too many fields (5, a qrels line has exactly 4)"),
    ("1 0 d1 1\n# c\n1 0 d2 x\n", "q.txt:3: relevance 'x' is not an integer"),
    ("1 0 d1 1\n1 0 d2 1.5\n", "q.txt:2: relevance '1.5' is not an integer"),
    ("1 0 d1 1\n2 0 d1 1\n1 0 d1 0\n",
     "q.txt:3: document 'd1' judged twice for topic '1' (first on line 1)"),
    ("# only a comment\n\n", "q.txt: no judgments in the file"),
])
def test_qrels_errors_name_file_and_line(tmp_path, text, message):
    path = write(tmp_path, "q.txt", text)
    with pytest.raises(ValueError) as err:
        read_qrels(path)
    assert str(err.value) == str(tmp_path / "q.txt") + message[len("q.txt"):]


def test_run_fields_extra_columns_and_comments(tmp_path):
    text = ("1 Q0 d1 1 2.5 tagA\n"
            "  # a comment, even indented\n"
            "1\tQ0\td#2\t2\t-1e3\ttagA extra fields\n"
            "\n"
            "2 Q0 d3 9 7 tagB\n")
    r = read_run(write(tmp_path, "r.txt", text))
    assert r.topics.tolist() == [b"1", b"1", b"2"]
    assert r.docnos.tolist() == [b"d1", b"d#2", b"d3"]
    assert r.scores.tolist() == [2.5, -1000.0, 7.0]
    assert r.runid == "tagB"          # the tag of the last line, as trec_eval
    assert r.lines.tolist() == [1, 3, 5]


@pytest.mark.parametrize("text, message", [
    ("1 Q0 d1 1 2.5 t\n1 Q0 d2 2 2.0\n", "r.txt:2: too few fields (5, a run line has at least 6)"),
    ("1 Q0 d1 1 2.5 t\n\n1 Q0 d2 2 abc t\n", "r.txt:3: score 'abc' is not a number"),
    ("1 Q0 d1 1 nan t\n", "r.txt:1: score 'nan' is not finite"),
    ("1 Q0 d1 1 2 t\n1 Q0 d2 2 -inf t\n", "r.txt:2: score '-inf' is not finite"),
    ("1 Q0 d1 1 2 t\n2 Q0 d1 1 2 t\n1 Q0 d1 5 1 t\n",
     "r.txt:3: document 'd1' retrieved twice for topic '1' (first on line 1)"),
    ("", "r.txt: the run is empty"),
    ("# nothing\n", "r.txt: the run is empty"),
])
def test_run_errors_name_file_and_line(tmp_path, text, message):
    path = write(tmp_path, "r.txt", text)
    with pytest.raises(ValueError) as err:
        read_run(path)
    assert str(err.value) == str(tmp_path / "r.txt") + message[len("r.txt"):]


def test_missing_file(tmp_path):
    missing = str(tmp_path / "nope.txt")
    with pytest.raises(ValueError, match=r"nope\.txt: no such file$"):
        read_run(missing)
    with pytest.raises(ValueError, match=r"nope\.txt: no such file$"):
        read_qrels(missing)


def test_from_arrays():
    q = Qrels.from_arrays(["1", "1"], ["a", "b"], [1, 0])
    assert q.docnos.dtype.kind == "S" and q.rels.tolist() == [1, 0]
    r = Run.from_arrays(np.array(["1"]), [b"a"], [0.5], runid="x")
    assert r.topics.tolist() == [b"1"] and r.runid == "x"
    with pytest.raises(ValueError, match="not finite"):
        Run.from_arrays(["1"], ["a"], [np.nan])
    with pytest.raises(ValueError, match="integers"):
        Qrels.from_arrays(["1"], ["a"], [0.5])


def test_hash_is_width_independent():
    a = hash_bytes(np.array([b"abc", b"abcdefghij"]), 16)
    b = hash_bytes(np.array([b"abc", b"abcdefghij"], dtype="S30"), 30)
    c = hash_bytes(np.array([b"abc"], dtype="S3"), 30)
    assert a[0] != a[1]
    assert b[0] == c[0]
