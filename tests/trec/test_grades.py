"""Relevance grades: the forms trec_eval reads, the values it counts with, and memory bounded by the input."""

import itertools
import resource
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans.number_syntax import MAX_GRADE, c_grade
from irmeans.trec import gains
from irmeans.trec.evaluate import evaluate

RUN = "1 Q0 a 1 3 r\n1 Q0 b 2 2 r\n1 Q0 c 3 1 r\n"


def irmeans_eval(*args, memory_bytes=None):
    def limit():  # pragma: no cover - runs in the child
        if memory_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    proc = subprocess.run(
        [sys.executable, "-m", "irmeans.cli", "eval", *args], capture_output=True, text=True, preexec_fn=limit
    )
    return proc.returncode, proc.stdout, proc.stderr


def values(out):
    return {line.split("\t")[0].strip(): float(line.split("\t")[2]) for line in out.splitlines()}


@pytest.mark.parametrize("grade", [10**5, 2 * 10**9, 10**15, MAX_GRADE])
def test_a_huge_grade_gives_rbp_in_0_1_with_memory_bounded_by_the_input(tmp_path, grade):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(f"1 0 a {grade}\n1 0 b 1\n1 0 c 0\n")
    r.write_text(RUN)
    # a table sized by the grade would need gigabytes; the evaluation fits in 1.5 GB of address space
    status, out, err = irmeans_eval("--digits", "12", "-m", "rbp", "-m", "ndcg", str(q), str(r), memory_bytes=3 << 29)
    assert status == 0 and err == "", err
    got = values(out)
    # trec_eval rescales the gains 0 .. grade to [0, 1]: a counts 1, b counts 1 / grade
    assert got["rbp"] == pytest.approx(0.1 * (1 + 0.9 / grade), abs=1e-12)
    ideal = grade + 1 / np.log2(3)
    assert got["ndcg"] == pytest.approx(1.0, abs=1e-12) and ideal > 0


def test_the_largest_long_is_refused_with_the_line(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(f"1 0 b 1\n1 0 a {MAX_GRADE + 1}\n")
    r.write_text(RUN)
    status, out, err = irmeans_eval(str(q), str(r))
    assert status == 1 and out == ""
    assert err.strip() == (
        f"irmeans eval: error: {q}:2: relevance '{MAX_GRADE + 1}' is too large "
        f"(the highest grade irmeans and trec_eval count with is {MAX_GRADE})"
    )
    with pytest.raises(ValueError, match="row 0: relevance 9223372036854775807 is too large"):
        evaluate((["1"], ["a"], [MAX_GRADE + 1]), (["1"], ["a"], [1.0]), measures=["map"])


@pytest.mark.parametrize("token, read", [("1.0", 1), ("1e0", 1), ("+2.00", 2), ("-1.0", -1), ("0.0e5", 0)])
def test_whole_grades_written_as_decimals_are_read_as_trec_eval_reads_them(tmp_path, token, read):
    q, q_plain, r = tmp_path / "q.txt", tmp_path / "plain.txt", tmp_path / "r.txt"
    q.write_text(f"1 0 a {token}\n1 0 b 1\n")
    q_plain.write_text(f"1 0 a {read}\n1 0 b 1\n")
    r.write_text(RUN)
    a = irmeans_eval("-q", "-m", "all_trec", str(q), str(r))
    b = irmeans_eval("-q", "-m", "all_trec", str(q_plain), str(r))
    assert a == b and a[0] == 0


@pytest.mark.parametrize("token", ["1.5", "1e1", "10e-1", "0x1", ".0", "1e400", "nan"])
def test_grades_atol_would_read_differently_are_refused(tmp_path, token):
    # atol reads 1.5 as 1 (a silent truncation), 1e1 as 1 (not 10), 0x1 as 0
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text(f"1 0 b 1\n1 0 a {token}\n")
    r.write_text(RUN)
    status, out, err = irmeans_eval(str(q), str(r))
    assert (status, out) == (1, "")
    assert err.strip() == f"irmeans eval: error: {q}:2: relevance {token!r} is not an integer"


@given(st.text(alphabet="0123456789+-.eEx", min_size=1, max_size=8))
def test_c_grade_reads_a_token_only_to_the_value_atol_gives(token):
    value = c_grade(token)
    if value is not None:
        digits = token.lstrip("+-")
        head = token[: len(token) - len(digits)] + "".join(itertools.takewhile(str.isdigit, digits))
        assert value == int(head)  # atol's reading
        from decimal import Decimal

        assert Decimal(token) == value  # and the whole token's value


@given(
    n_levels=st.integers(1, 40),
    pairs=st.lists(st.tuples(st.integers(-3, 45), st.floats(-5, 5, allow_nan=False)), max_size=6),
)
def test_gain_range_is_that_of_trec_eval_s_whole_gain_table(n_levels, pairs):
    given = gains.Gains([(str(level), gain) for level, gain in pairs])
    named = set(given.levels)
    table = [gain for _, gain in given.entries] + [float(i) for i in range(n_levels) if i not in named] + [0.0]
    assert gains.gain_range(given, n_levels) == (min(table), max(table))
