"""What the Python API is given is read as the files are: one reading of ids and numbers (``irmeans._python_input``).

A dict, a DataFrame and the equivalent file give the same numbers or the same refusal: for the
evaluator (qrels and a run) and for a matrix of scores (what ``compare`` and ``consistency``
take).  Ids that are whole numbers read as their digits whatever their type (pandas makes a
column of ids float once it holds a NaN); a missing id is refused with its row; two values read
as one id are refused, naming both.
"""

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans import compare, datasets, evaluate
from irmeans._python_input import ids, values
from irmeans.errors import IrmeansError
from irmeans.score_matrix import ScoreMatrix

# --- ids ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, text",
    [(7, "7"), (np.int32(7), "7"), (7.0, "7"), (np.float64(-3.0), "-3"), ("7", "7"), (" 7\t", "7"), (b"d-1", "d-1")],
)
def test_an_id_is_its_text_or_its_whole_number_s_digits(value, text):
    assert list(ids([value], "topic", "<arrays>")) == [text]


@pytest.mark.parametrize(
    "value, message",
    [
        (None, r"<arrays>: row 1: the topic is missing \(None\)"),
        (float("nan"), r"<arrays>: row 1: the topic is missing \(nan\)"),
        (pd.NA, r"<arrays>: row 1: the topic is missing \(<NA>\)"),
        (1.5, r"<arrays>: row 1: topic 1.5 is not a whole number: .*give other ids as text"),
        (float("inf"), "topic inf is not a whole number"),
        (True, "topic True is a truth value"),
        ("", "topic '' is empty"),
        ("a b", "topic 'a b' holds a blank: a TREC file would read it as two fields"),
        ((1, 2), r"topic \(1, 2\) is a tuple, not an id"),
    ],
)
def test_what_is_not_an_id_is_refused_with_its_row(value, message):
    with pytest.raises(IrmeansError, match=message):
        ids(["1", value], "topic", "<arrays>")


def test_a_name_of_a_matrix_may_hold_blanks_but_not_be_empty():
    assert ids(["run A", " B "], "system", "<dict>", fields=False) == ["run A", "B"]
    with pytest.raises(IrmeansError, match="system ' ' is empty"):
        ids([" "], "system", "<dict>", fields=False)


@pytest.mark.parametrize(
    "given, message",
    [
        ([1, "1"], r"topics 1 and '1' are both topic '1' \(rows 0 and 1\)"),
        (["2", 2.0], r"topics '2' and 2.0 are both topic '2'"),
        (["1", " 1"], r"topics '1' and ' 1' are both topic '1'"),
    ],
)
def test_two_values_read_as_one_id_are_refused_naming_both(given, message):
    with pytest.raises(IrmeansError, match=message):
        ids(given, "topic", "<arrays>")
    assert ids([1, 1.0, np.int64(1)], "topic", "<arrays>") == ["1", "1", "1"]  # one value, three types


def test_an_array_of_whole_floats_reads_as_integers_and_a_fraction_is_refused():
    assert ids(np.array([1.0, 20.0]), "topic", "<arrays>") == ["1", "20"]
    with pytest.raises(IrmeansError, match="row 1: topic 2.5 is not a whole number"):
        ids(np.array([1.0, 2.5]), "topic", "<arrays>")
    with pytest.raises(IrmeansError, match=r"row 2: the topic is missing \(nan\)"):
        ids(np.array([1.0, 2.0, np.nan]), "topic", "<arrays>")


@given(st.lists(st.one_of(st.integers(-(2**62), 2**62), st.text("abc-_.:/#0123456789", min_size=1)), max_size=30))
def test_ids_of_text_and_whole_numbers_are_the_tokens_a_file_would_hold(given_ids):
    text = [str(v) for v in given_ids]
    if len({t for t in text}) == len({(type(v), v) for v in given_ids}):
        assert list(ids(given_ids, "document", "<arrays>")) == text
        as_floats = [float(v) if isinstance(v, int) and abs(v) < 2**53 else v for v in given_ids]
        assert list(ids(as_floats, "document", "<arrays>")) == text


# --- numbers --------------------------------------------------------------------------------


def test_a_score_given_as_text_is_read_by_the_one_number_syntax():
    assert values(["0.5", 0.25, "5e-1", "0x1p-1", b"1"], "score", "<arrays>").tolist() == [0.5, 0.25, 0.5, 0.5, 1.0]
    for bad in ("1_0", "0,5", "", " ", "nan", "high"):
        with pytest.raises(IrmeansError, match=r"<arrays>: row 1: score .* is not a number"):
            values([0.1, bad], "score", "<arrays>")
    with pytest.raises(IrmeansError, match=r"row 1: the score is missing \(None\)"):
        values([0.1, None], "score", "<arrays>")
    assert values(["2", 1, "1e0", 0.0], "relevance", "<arrays>", kind="grade").tolist() == [2, 1, 1, 0]
    with pytest.raises(IrmeansError, match="row 0: relevance '1.5' is not an integer"):
        values(["1.5"], "relevance", "<arrays>", kind="grade")


# --- a dict, a DataFrame and the equivalent files: the evaluator ----------------------------

TOPIC_IDS = [401, 402.0, "403", "q-4"]
GOOD_GRADES = [0, 1, 2, "1", 3.0, -1]
BAD_GRADES = ["1.5", "x"]
GOOD_SCORES = [0.5, 1.25, -2.0, "0.75", "1e-1", 3]
BAD_SCORES = ["1_0", "nan", "high"]


def token(value):
    """A value as a file holds it: whole numbers as digits, text as it is, floats in full."""
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return value if isinstance(value, str) else repr(value)


@st.composite
def evaluations(draw):
    """Qrels and a run as rows of (topic, document, value), some with a value the files would refuse too."""
    qrels, run = [], []
    for topic in draw(st.lists(st.sampled_from(TOPIC_IDS), min_size=1, max_size=4, unique=True)):
        docs = draw(st.lists(st.sampled_from(["a", "b", "c", "d", "e", 7, 8.0]), min_size=1, max_size=6, unique=True))
        for d in docs:
            if draw(st.booleans()):
                qrels.append(
                    (topic, d, draw(st.sampled_from(GOOD_GRADES + BAD_GRADES * draw(st.sampled_from([0, 1])))))
                )
            if draw(st.integers(0, 3)):
                run.append((topic, d, draw(st.sampled_from(GOOD_SCORES + BAD_SCORES * draw(st.sampled_from([0, 1]))))))
    if not qrels or not run:
        qrels.append((TOPIC_IDS[0], "a", 1))
        run.append((TOPIC_IDS[0], "a", 1.0))
    return qrels, run


def three_ways(rows, value, tmp_path, name, line):
    nested = {}
    for t, d, v in rows:
        nested.setdefault(t, {})[d] = v
    frame = pd.DataFrame({"query_id": pd.Series([r[0] for r in rows], dtype=object),
                          "doc_id": pd.Series([r[1] for r in rows], dtype=object),
                          value: pd.Series([r[2] for r in rows], dtype=object)})  # fmt: skip
    path = tmp_path / name
    path.write_text("".join(line(token(t), token(d), token(v)) for t, d, v in rows))
    return nested, frame, str(path)


def outcome(qrels, run):
    try:
        ev = evaluate(qrels, run, measures=["map", "P.5", "ndcg", "num_rel_ret"], complete=True)
    except IrmeansError:
        return "refused"
    return ev.topics, {k: v.tolist() for k, v in ev.per_topic.items()}, ev.aggregates


@given(data=evaluations())
def test_a_dict_a_dataframe_and_the_files_give_the_same_numbers_or_all_refuse(tmp_path_factory, data):
    tmp = tmp_path_factory.mktemp("three")
    qrels, run = data
    q = three_ways(qrels, "relevance", tmp, "q.txt", lambda t, d, v: f"{t} 0 {d} {v}\n")
    r = three_ways(run, "score", tmp, "r.txt", lambda t, d, v: f"{t} Q0 {d} 1 {v} run\n")
    results = [outcome(q[k], r[k]) for k in range(3)]
    assert results[0] == results[1] == results[2], results


# --- a dict, a DataFrame and the equivalent CSV: a matrix of scores ------------------------


@st.composite
def matrices(draw):
    systems = draw(st.lists(st.sampled_from(["A", "B", "run 3", 4, 5.0]), min_size=2, max_size=4, unique=True))
    topics = draw(st.lists(st.sampled_from([401, 402.0, "403", "t 4"]), min_size=2, max_size=4, unique=True))
    cell = st.sampled_from([0.0, 0.5, 0.125, 1, "0.25", "5e-1"] + ["1_0", "", "x"] * draw(st.sampled_from([0, 1])))
    return systems, topics, [[draw(cell) for _ in topics] for _ in systems]


def matrix_of(read):
    try:
        m = read()
    except IrmeansError:
        return "refused"
    return m.systems, m.topics, m.scores.tolist()


@given(data=matrices())
def test_a_dict_a_dataframe_and_the_csv_give_the_same_matrix_or_all_refuse(tmp_path_factory, data):
    systems, topics, cells = data
    path = tmp_path_factory.mktemp("csv") / "s.csv"
    path.write_text(
        "system," + ",".join(token(t) for t in topics) + "\n"
        + "".join(token(s) + "," + ",".join(token(c) for c in row) + "\n" for s, row in zip(systems, cells))
    )  # fmt: skip
    frame = pd.DataFrame([pd.Series(row, dtype=object) for row in cells], index=systems)
    frame.columns = topics
    results = [
        matrix_of(lambda: ScoreMatrix.from_dict({s: dict(zip(topics, row)) for s, row in zip(systems, cells)})),
        matrix_of(lambda: ScoreMatrix.from_frame(frame)),
        matrix_of(lambda: datasets.read_csv(path)),
    ]
    assert results[0] == results[1] == results[2], results


# --- the cases -----------------------------------------------------------------------


def test_compare_reads_a_dataframe_s_cells_as_the_csv_is_read():
    frame = pd.DataFrame({"1": [0.5, "1_0"], "2": [0.5, 0.1]}, index=["A", "B"])
    with pytest.raises(IrmeansError, match=r"system 'B', topic '1': the score '1_0' is not a finite number"):
        compare(frame)  # Python's float() reads it as 10


def test_compare_refuses_a_later_system_s_twin_topics_naming_both():
    with pytest.raises(IrmeansError, match=r"<dict>, system 'B': topics 1 and '1' are both topic '1'"):
        compare({"A": {1: 0.1, 2: 0.2}, "B": {1: 0.3, "1": 0.4, 2: 0.1}})
    with pytest.raises(IrmeansError, match=r"<dict>, system 'A': topics 1 and '1' are both topic '1'"):
        compare({"A": {1: 0.1, "1": 0.2}, "B": {1: 0.3, 2: 0.1}})


@pytest.mark.parametrize("column, bad", [("doc_id", None), ("doc_id", math.nan), ("query_id", None)])
def test_evaluate_refuses_a_missing_id_of_a_dataframe_with_its_row(column, bad):
    run = pd.DataFrame({"query_id": ["1", "1"], "doc_id": ["a", "b"], "score": [1.0, 0.5]}, dtype=object)
    run.loc[1, column] = bad
    with pytest.raises(IrmeansError, match=rf"<DataFrame>, column '{column}': row 1: the \w+ is missing"):
        evaluate((["1"], ["a"], [1]), run)


def test_a_float_topic_id_is_read_as_the_integer_it_is():
    # pandas makes a column float once it holds a NaN: 1.0 is the topic the qrels call 1
    run = pd.DataFrame({"query_id": [1.0, 2.0], "doc_id": ["a", "c"], "score": [1.0, 0.5]})
    ev = evaluate(([1, 2], ["a", "b"], [1, 1]), run, measures=["map"])
    assert ev.topics == ["1", "2"] and ev["map"].tolist() == [1.0, 0.0]


def test_no_topic_in_common_shows_both_sides_ids():
    with pytest.raises(IrmeansError, match=r"the run's topics are 'x', 'y', the qrels' '1', '2'"):
        evaluate(([1, 2], ["a", "b"], [1, 1]), (["x", "y"], ["a", "b"], [1.0, 1.0]))
