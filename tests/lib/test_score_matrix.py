"""ScoreMatrix: the labelled systems × topics matrix every experiment on averages takes."""

import irmeans
import numpy as np
import pytest
from irmeans import datasets
from irmeans.errors import IrmeansError
from irmeans.score_matrix import ScoreMatrix


def test_its_home_is_score_matrix_and_the_datasets_name_is_the_same_class():
    assert irmeans.ScoreMatrix is ScoreMatrix is datasets.ScoreMatrix
    m = datasets.load("adhoc8", "ap")
    assert isinstance(m, ScoreMatrix)
    assert (m.label, m.name, repr(m)) == (
        "TREC-8 ad hoc (1999), AP",
        "adhoc8_ap",
        "ScoreMatrix('adhoc8_ap', systems=129, topics=50)",
    )


def test_the_scores_are_its_own_and_read_only():
    given = np.array([[0.5, 0.1], [0.25, 0.0]])
    m = ScoreMatrix(given, ["A", "B"], [401, 402])
    given[0, 0] = 9.0
    assert m.scores[0, 0] == 0.5
    with pytest.raises(ValueError):
        m.scores[0, 0] = 1.0
    assert (m.systems, m.topics) == (("A", "B"), ("401", "402"))
    assert (m.name, m.label) == ("", "")
    m2 = ScoreMatrix(given, ["A", "B"], [401, 402], collection="qrels", measure="map")
    assert (m2.name, m2.label) == ("qrels_map", "qrels_map")


def test_numpy_reads_it_as_its_scores_so_split_half_takes_it():
    m = datasets.load("adhoc8", "ap")
    assert np.asarray(m) is m.scores
    assert np.asarray(m, dtype=np.float32).dtype == np.float32
    assert np.array(m, copy=True) is not m.scores
    np.testing.assert_array_equal(
        irmeans.split_half(m, "am", 20, seed=3), irmeans.split_half(m.scores, "am", 20, seed=3)
    )


@pytest.mark.parametrize(
    "scores, systems, topics, message",
    [
        ([[0.5, 0.1]], ["A", "B"], ["1", "2"], r"shape \(1, 2\) for 2 systems and 2 topics"),
        ([[0.5, 0.1], [0.2, 0.3]], ["A", "A"], ["1", "2"], "system 'A' is named twice"),
        ([[0.5, 0.1], [0.2, 0.3]], ["A", "B"], ["1", 1], "topics '1' and 1 are both topic '1'"),
        ([[0.5, np.nan], [0.2, 0.3]], ["A", "B"], ["1", "2"], "nan"),
        ([0.5, 0.1], ["A", "B"], ["1"], "2-d"),
        ([["x", "y"], ["z", "w"]], ["A", "B"], ["1", "2"], "must be numbers"),
    ],
)
def test_a_matrix_that_does_not_add_up_is_refused(scores, systems, topics, message):
    with pytest.raises(IrmeansError, match=message):
        ScoreMatrix(scores, systems, topics)


def test_from_dict_takes_the_first_system_s_topic_order():
    m = ScoreMatrix.from_dict({"b": {"2": 0.1, "1": 0.4}, "a": {"1": 0.3, "2": 0.0}}, measure="P_10")
    assert (m.systems, m.topics, m.measure) == (("b", "a"), ("2", "1"), "P_10")
    assert m.scores.tolist() == [[0.1, 0.4], [0.0, 0.3]]


@pytest.mark.parametrize(
    "given, message",
    [
        (
            {"A": {"1": 0.5, "2": 0.1}, "B": {"1": 0.3}},
            "system 'B' has no score for 1 of the 2 topics of system 'A': '2'",
        ),
        ({"A": {"1": 0.5}, "B": {"1": 0.3, "7": 0.1, "8": 0.2}}, "system 'B' scores 2 topics that system 'A' does not"),
        ({"A": {"1": 0.5}, "B": [0.3]}, "system 'B': expected a mapping of topic to score"),
        ({}, "non-empty mapping"),
        ([("A", 0.5)], "non-empty mapping"),
        ({"A": {"1": "high"}, "B": {"1": 0.5}}, "system 'A', topic '1': the score 'high' is not a finite number"),
    ],
)
def test_from_dict_refuses_topic_sets_that_differ_and_other_shapes(given, message):
    with pytest.raises(IrmeansError, match=message):
        ScoreMatrix.from_dict(given)
