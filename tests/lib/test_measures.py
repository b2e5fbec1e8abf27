"""Per-topic measures of one ranked list: hand-worked cases, edge cases, properties."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from irmeans import (
    ap_unretrieved_at_end,
    average_precision,
    expected_ap_random_order,
    interpolated_precision,
    ndcg,
    precision_at,
    precision_recall_points,
    r_precision,
    recall_at,
    reciprocal_rank,
)

# A ranking of ten with relevant documents at ranks 1, 3, 6 and 10, out of
# five relevant documents in all (one never retrieved).
RANKING = [1, 0, 1, 0, 0, 1, 0, 0, 0, 1]


def test_average_precision_by_hand():
    precisions = [1 / 1, 2 / 3, 3 / 6, 4 / 10]
    assert average_precision(RANKING, 4) == pytest.approx(sum(precisions) / 4, rel=1e-15)
    assert average_precision(RANKING, num_relevant=5) == pytest.approx(sum(precisions) / 5, rel=1e-15)


def test_average_precision_graded_and_level():
    graded = [2, 0, 1, 0, 2]
    assert average_precision(graded, 3) == pytest.approx((1 + 2 / 3 + 3 / 5) / 3)
    assert average_precision(graded, 2, level=2) == pytest.approx((1 + 2 / 5) / 2)


def test_average_precision_zero_cases():
    assert average_precision([0, 0, 0], 0) == 0.0
    assert average_precision([0, 0, 0], num_relevant=3) == 0.0
    assert average_precision([], 0) == 0.0


def test_reciprocal_rank():
    assert reciprocal_rank(RANKING) == 1.0
    assert reciprocal_rank([0, 0, 0, 2]) == 0.25
    assert reciprocal_rank([0, 1], level=2) == 0.0
    assert reciprocal_rank([]) == 0.0


def test_precision_at_divides_by_k_even_when_short():
    assert precision_at(RANKING, 5) == pytest.approx(2 / 5)
    assert precision_at(RANKING, 20) == pytest.approx(4 / 20)
    assert precision_at([1], 10) == pytest.approx(0.1)


def test_recall_at():
    assert recall_at(RANKING, 6, num_relevant=5) == pytest.approx(3 / 5)
    assert recall_at([0, 0], 1, 0) == 0.0


def test_r_precision():
    assert r_precision(RANKING, num_relevant=5) == pytest.approx(2 / 5)
    assert r_precision(RANKING, 4) == pytest.approx(2 / 4)
    # R beyond the ranking: every relevant document retrieved counts, divided by R.
    assert r_precision([1, 1], num_relevant=4) == pytest.approx(2 / 4)
    assert r_precision([0, 0], 0) == 0.0


def test_ndcg_by_hand():
    # Gains 0, 2, 1 at ranks 1..3; ideal from all judged: 2, 1, 1, 0.
    dcg = 2 / math.log2(3) + 1 / math.log2(4)
    idcg = 2 / math.log2(2) + 1 / math.log2(3) + 1 / math.log2(4)
    assert ndcg([0, 2, 1], judged=[2, 1, 1, 0]) == pytest.approx(dcg / idcg, rel=1e-15)
    assert ndcg([2, 1, 0]) == pytest.approx(1.0)
    assert ndcg([-1, 0]) == 0.0


def test_precision_recall_points_and_interpolation():
    recall, precision = precision_recall_points([1, 0, 1, 0], num_relevant=4)
    assert recall.tolist() == [0.25, 0.25, 0.5, 0.5]
    assert precision == pytest.approx([1.0, 0.5, 2 / 3, 0.5])
    ip = interpolated_precision([1, 0, 1, 0], num_relevant=4)
    assert ip.shape == (11,)
    assert ip[:3].tolist() == [1.0, 1.0, 1.0]  # recall 0, .1, .2: precision 1 at recall .25
    assert ip[3:6] == pytest.approx([2 / 3] * 3)  # recall .3, .4, .5
    assert ip[6:].tolist() == [0.0] * 5  # recall never reaches .6


def test_standard_recall_levels_are_exactly_the_tenths():
    from fractions import Fraction

    from irmeans import STANDARD_RECALL_LEVELS

    assert [Fraction(level).limit_denominator(10) for level in STANDARD_RECALL_LEVELS] == [
        Fraction(k, 10) for k in range(11)
    ]
    assert STANDARD_RECALL_LEVELS.tolist() == [k / 10 for k in range(11)]


@pytest.mark.parametrize("k", range(1, 11))
def test_every_standard_level_counts_a_recall_equal_to_it(k):
    # k of 10 relevant documents found at the top, then none: recall reaches exactly k/10 with
    # precision 1, so the level k/10 has precision 1 (not 0, as a level a float above k/10 would).
    ip = interpolated_precision([1] * k + [0] * (10 - k), num_relevant=10)
    assert ip[: k + 1].tolist() == [1.0] * (k + 1)
    assert ip[k + 1 :].tolist() == [0.0] * (10 - k)


def test_recall_three_fifths_reaches_level_six_tenths():
    # The book's Fig. 2.1: relevant at ranks 1, 3 and 6 of 10, R = 5; recall 0.6 at rank 6 with precision 0.5.
    ip = interpolated_precision([1, 0, 1, 0, 0, 1, 0, 0, 0, 0], num_relevant=5)
    assert ip[6] == 0.5 and ip[7:].tolist() == [0.0] * 4


def test_stacked_rankings_give_one_value_each():
    stack = np.array([[1, 0, 1], [0, 0, 0], [0, 1, 1]])
    assert average_precision(stack, [2, 0, 2]).tolist() == pytest.approx([(1 + 2 / 3) / 2, 0.0, (1 / 2 + 2 / 3) / 2])
    assert average_precision(stack, num_relevant=[2, 0, 4]).tolist() == pytest.approx(
        [(1 + 2 / 3) / 2, 0.0, (1 / 2 + 2 / 3) / 4]
    )
    assert reciprocal_rank(stack).tolist() == [1.0, 0.0, 0.5]
    assert precision_at(stack, 2).tolist() == [0.5, 0.0, 0.5]
    assert r_precision(stack, num_relevant=[2, 1, 3]).tolist() == pytest.approx([0.5, 0.0, 2 / 3])
    assert interpolated_precision(stack, [2, 0, 2]).shape == (3, 11)


def test_bad_input_is_an_error():
    with pytest.raises(ValueError, match="index 1"):
        average_precision([1, float("nan")], 1)
    with pytest.raises(ValueError, match="smaller than the 2"):
        average_precision([1, 1], num_relevant=1)
    with pytest.raises(ValueError, match="whole number"):
        average_precision([1, 1], num_relevant=2.5)
    with pytest.raises(ValueError, match="cutoff"):
        precision_at([1], 0)
    with pytest.raises(ValueError, match="scalar"):
        reciprocal_rank(1)
    with pytest.raises(ValueError, match="collection_size"):
        ap_unretrieved_at_end([1, 0], num_relevant=3, collection_size=2)


def test_unretrieved_at_end_by_hand():
    # Relevant at rank 1 of 3 retrieved; two more relevant placed at ranks 9 and 10 of N = 10.
    expected = (1 / 1 + 2 / 9 + 3 / 10) / 3
    assert ap_unretrieved_at_end([1, 0, 0], num_relevant=3, collection_size=10) == pytest.approx(expected)
    # Nothing missing: plain AP.
    assert ap_unretrieved_at_end(RANKING, num_relevant=4, collection_size=50) == pytest.approx(
        average_precision(RANKING, 4)
    )


def test_expected_ap_random_order_exhaustively():
    # Small enough to enumerate every placement of the 2 missing relevant documents
    # among the 5 unretrieved ones: the expectation must be their plain average.
    rels, R, N = [0, 1, 0], 3, 8
    tail_positions = [(i, j) for i in range(5) for j in range(i + 1, 5)]
    total = 0.0
    for i, j in tail_positions:
        tail = [0] * 5
        tail[i] = tail[j] = 1
        total += average_precision(rels + tail, R)
    assert expected_ap_random_order(rels, R, N) == pytest.approx(total / len(tail_positions), rel=1e-12)


def test_lower_bounds_order():
    rels, R, N = [0, 1, 0, 0, 1], 6, 1000
    truncated = average_precision(rels, num_relevant=R)
    at_end = ap_unretrieved_at_end(rels, R, N)
    expected = expected_ap_random_order(rels, R, N)
    assert truncated < at_end < expected


# Properties ----------------------------------------------------------------

rankings = arrays(np.int64, st.integers(0, 40), elements=st.integers(-1, 3))


@given(rankings, st.integers(0, 10))
def test_ap_is_between_zero_and_one(rels, extra):
    R = int((rels >= 1).sum()) + extra
    ap = average_precision(rels, num_relevant=R)
    assert 0.0 <= ap <= 1.0


@given(st.integers(1, 40), st.integers(0, 39))
def test_ap_equals_rr_with_one_relevant_document(n, pos):
    rels = np.zeros(n)
    rels[pos % n] = 1
    assert average_precision(rels, 1) == pytest.approx(reciprocal_rank(rels), rel=1e-15)


@given(rankings)
def test_r_precision_equals_recall_at_r(rels):
    R = int((rels >= 1).sum())
    if R:
        assert r_precision(rels, R) == pytest.approx(recall_at(rels, R, R))


@given(rankings, st.integers(0, 5), st.integers(0, 200))
def test_lower_bounds_lie_between_truncated_ap_and_one(rels, missing, spare):
    R = int((rels >= 1).sum()) + missing
    N = rels.size + missing + spare
    truncated = average_precision(rels, num_relevant=R)
    at_end = ap_unretrieved_at_end(rels, R, N)
    expected = expected_ap_random_order(rels, R, N)
    assert truncated - 1e-12 <= at_end <= expected + 1e-12 <= 1 + 1e-12


def test_expected_ap_of_a_perfect_ranking_is_one_not_a_hair_above():
    # four relevant retrieved, the fifth the only document left: it is surely at rank 5
    assert expected_ap_random_order([1, 1, 1, 1], num_relevant=5, collection_size=5) == 1.0


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from irmeans import expected_reciprocal_rank  # noqa: E402


@given(st.lists(st.integers(-1, 4), min_size=1, max_size=25), st.integers(1, 30))
def test_err_is_the_expected_reciprocal_rank_of_the_stopping_document(grades, k):
    # the user stops at rank r with probability R_r once past ranks 1 .. r-1 without stopping
    expected, go_on = 0.0, 1.0
    for r, g in enumerate(grades[:k], start=1):
        stop = (2 ** max(g, 0) - 1) / 2**4
        expected += go_on * stop / r
        go_on *= 1 - stop
    assert expected_reciprocal_rank(grades, k, max_grade=4) == pytest.approx(expected, abs=1e-15)
    assert 0 <= expected_reciprocal_rank(grades, k, max_grade=4) <= 1


def test_err_of_one_top_document_and_its_checks():
    assert expected_reciprocal_rank([3]) == 1 - 2.0**-3
    assert expected_reciprocal_rank([[1, 0], [0, 0]], max_grade=1).tolist() == [0.5, 0.0]
    with pytest.raises(ValueError, match="above max_grade=1"):
        expected_reciprocal_rank([2], max_grade=1)
    with pytest.raises(ValueError, match="k must be a whole number >= 1"):
        expected_reciprocal_rank([1], k=0)


@pytest.mark.parametrize(
    "measure",
    [
        lambda: average_precision([1, 0, 1]),
        lambda: recall_at([1, 0, 1], 2),
        lambda: r_precision([1, 0, 1]),
        lambda: precision_recall_points([1, 0, 1]),
        lambda: interpolated_precision([1, 0, 1]),
    ],
)
def test_a_measure_over_r_refuses_to_guess_r(measure):
    # R taken as the relevant documents retrieved would leave out those the ranking missed: 0.833 for [1, 0, 1]
    with pytest.raises(ValueError, match=r"needs num_relevant: R, the topic's relevant documents, retrieved or not"):
        measure()
