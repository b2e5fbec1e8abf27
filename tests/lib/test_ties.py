"""Equal, flat and tied: one tolerance decides, wherever it matters, and rounding decides nothing.

A topic on which every system has the same score is flat even when rounding gives its scores
a standard deviation of 1e-17; two systems whose averages on a half are equal but for the
order in which their scores were added are tied; two topics of equal difficulty keep their
order. The tolerance is ``irmeans._numeric.TOLERANCE`` of the largest magnitude in the set.
"""

import io
import warnings
from contextlib import redirect_stdout

import irmeans
import irmeans.consistency.experiment as consistency
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans import _numeric, datasets
from irmeans.cli import main
from irmeans.errors import IrmeansError
from scipy import stats

# --- the tolerance itself -------------------------------------------------------------------


def test_the_tolerance_is_relative_to_the_largest_magnitude_of_the_set():
    assert _numeric.TOLERANCE == 1e-12
    assert _numeric.flat([0.3, 0.1 + 0.2]) and not _numeric.flat([0.3, 0.3 + 1e-9])
    # the same relative gap, at any scale
    for scale in (1e-300, 1e-5, 1.0, 1e300):
        assert _numeric.flat(np.array([1.0, 1.0 + 5e-13]) * scale)
        assert not _numeric.flat(np.array([1.0, 1.0 + 5e-12]) * scale)
    # exact zeros are equal to each other and to nothing else
    assert _numeric.flat([0.0, 0.0]) and not _numeric.flat([0.0, 5e-324])


def test_ties_chain_through_sorted_neighbours():
    a = 1.0
    v = [a, a + 0.8e-12, a + 1.6e-12, a + 1e-6]  # each within the tolerance of the one before
    assert _numeric.dense_ranks(v).tolist() == [0, 0, 0, 1]
    assert _numeric.dense_ranks(v[::-1]).tolist() == [1, 0, 0, 0]


@given(
    st.floats(-1e300, 1e300, allow_nan=False, allow_subnormal=False),
    st.integers(2, 40),
    st.integers(0, 2**32 - 1),
)
def test_a_topic_of_one_score_computed_many_ways_is_flat(value, n, seed):
    # The same score reached by different sums: equal to within a few units of the last place.
    rng = np.random.default_rng(seed)
    parts = rng.random((n, 3))
    parts /= parts.sum(axis=1, keepdims=True)
    column = (parts * value).sum(axis=1)
    assert _numeric.flat(column)


# --- flat topics: difficulty and standardized scores ---------------------------------------


def matrix_with_a_flat_topic(value, systems=6):
    """Three ordinary topics and one on which every system scores ``value``, computed as a sum."""
    rng = np.random.default_rng(3)
    s = rng.random((systems, 4))
    third = np.full(systems, value / 3)
    s[:, 2] = third + third + third  # value, give or take the last bit
    return s


@pytest.mark.parametrize("value", [0.1, 0.7, 1 / 3, 0.0, 0.01])
def test_a_flat_topic_has_difficulty_zero_whatever_its_score(value):
    s = matrix_with_a_flat_topic(value)
    d = irmeans.topic_difficulty(s)
    assert d[2] == 0.0
    np.testing.assert_array_equal(
        np.delete(d, 2), np.delete(irmeans.topic_difficulty(matrix_with_a_flat_topic(0.5)), 2)
    )


def test_a_topic_flat_but_for_rounding_is_flat():
    # The mean of three scores of 0.1 is not 0.1: np.std of them is about 1e-17.
    s = np.array([[0.2, 0.2, 0.1 + 0.2], [0.1, 0.5, 0.3], [0.4, 0.9, 0.3]])
    assert np.std(s[:, 2], ddof=1) > 0
    assert irmeans.topic_difficulty(s)[2] == 0.0
    with pytest.raises(IrmeansError, match="topic 2: every reference system scores"):
        irmeans.standardize(s)
    out = irmeans.standardize(s, constant="half")
    np.testing.assert_array_equal(out[:, 2], 0.5)
    np.testing.assert_array_equal(out[:, :2], irmeans.standardize(s[:, :2]))


@pytest.mark.parametrize("value", [0.1, 0.7, 1 / 3])
def test_standardized_flat_topics_are_one_half_whatever_their_score(value):
    s = matrix_with_a_flat_topic(value)
    np.testing.assert_array_equal(irmeans.standardize(s, constant="half")[:, 2], 0.5)
    with pytest.raises(IrmeansError, match="topic 2"):
        irmeans.standardize(s)
    ref = matrix_with_a_flat_topic(value, systems=9)
    np.testing.assert_array_equal(irmeans.standardize(s, reference=ref, constant="half")[:, 2], 0.5)


def test_a_topic_that_is_nearly_flat_but_not_within_the_tolerance_keeps_its_spread():
    s = np.array([[0.1, 0.2], [0.1 + 1e-9, 0.5], [0.1, 0.9]])
    assert irmeans.topic_difficulty(s)[0] > 0
    assert 0.5 < irmeans.standardize(s)[1, 0] < 1


# --- τ's ties -------------------------------------------------------------------------------

# Systems A and B have the same scores on each half, in another topic order: the same average,
# which adding in order rounds differently (0.1 + 0.2 + 0.3 is not 0.3 + 0.2 + 0.1).
PERMUTED = np.array(
    [
        [0.1, 0.2, 0.3, 0.4, 0.5, 0.7],
        [0.3, 0.2, 0.1, 0.7, 0.5, 0.4],
        [0.9, 0.8, 0.9, 0.9, 0.8, 0.9],
        [0.05, 0.0, 0.1, 0.0, 0.1, 0.05],
    ]
)
FIRST, SECOND = np.array([[0, 1, 2]]), np.array([[3, 4, 5]])


def test_the_permuted_systems_differ_in_the_last_bit_when_added_in_order():
    am = irmeans.arithmetic_mean(PERMUTED[:, :3], axis=1)
    assert am[0] != am[1] and abs(am[0] - am[1]) < 1e-15


@pytest.mark.parametrize("spec", ["am", "gm:0.01", "gm-floor:1e-5", "hm:0.01", "logit:0.01", "median"])
def test_systems_with_the_same_scores_in_another_order_are_tied(spec):
    average = irmeans.parse_average(spec)
    a = average(PERMUTED[:, :3], axis=1)
    b = average(PERMUTED[:, 3:], axis=1)
    expected = stats.kendalltau([1, 1, 2, 0], [1, 1, 2, 0]).statistic  # A and B tied, C above, D below
    assert irmeans.kendall_tau(a, b) == expected == 1.0
    assert irmeans.halves_tau(PERMUTED, spec, FIRST, SECOND)[0] == expected
    assert irmeans.halves_tau(PERMUTED, spec, SECOND, FIRST)[0] == expected


def test_a_tie_in_one_half_only_is_counted_as_tau_b():
    s = PERMUTED.copy()
    s[1, 3:] = [0.8, 0.5, 0.4]  # B now above A on the second half
    tau = irmeans.halves_tau(s, "am", FIRST, SECOND)[0]
    assert tau == pytest.approx(stats.kendalltau([1, 1, 2, 0], [1, 2, 3, 0]).statistic, abs=1e-15)


def test_p10_averages_tie_as_their_values_do():
    # P@10 takes the values 0, 0.1, ..., 1: on a half, many systems share an AM that adding in
    # order rounds differently. Ties must be those of the exact AMs (here: of the sums of
    # tenths, counted in whole numbers).
    p10 = np.array(datasets.load("adhoc8", "p10").scores)
    tenths = np.rint(p10 * 10).astype(int)
    first, second = irmeans.draw_halves(p10.shape[1], 40, rng=3)
    exact = [
        stats.kendalltau(tenths[:, a].sum(axis=1), tenths[:, b].sum(axis=1)).statistic for a, b in zip(first, second)
    ]
    np.testing.assert_allclose(irmeans.halves_tau(p10, "am", first, second), exact, rtol=0, atol=1e-12)


def test_tau_does_not_depend_on_how_the_sums_are_blocked(monkeypatch):
    # The BLAS adds a block of a matrix product in another order than the whole: the sums differ
    # in the last bit. The τ must not.
    p10 = np.array(datasets.load("adhoc8", "p10").scores)
    first, second = irmeans.draw_halves(p10.shape[1], 300, rng=5)
    taus = {spec: irmeans.halves_tau(p10, spec, first, second) for spec in ("am", "gm:0.01", "logit:0.01")}
    monkeypatch.setattr(consistency, "_PRODUCT_VALUES", 129 * 50 * 3)  # three splits a product
    for spec, whole in taus.items():
        np.testing.assert_array_equal(irmeans.halves_tau(p10, spec, first, second), whole)
    rng = np.random.default_rng(12)
    pick, g = (rng.random((37, 9)) < 0.5).astype(float), rng.random((9, 5))
    np.testing.assert_allclose(consistency._products(pick, g), pick @ g, rtol=1e-15)
    # a row whose product is too big alone (many systems): the systems blocked too
    monkeypatch.setattr(consistency, "_PRODUCT_VALUES", 9 * 700)
    pick, g = (rng.random((37, 9)) < 0.5).astype(float), rng.random((9, 1000))
    np.testing.assert_allclose(consistency._products(pick, g), pick @ g, rtol=1e-15)
    monkeypatch.setattr(consistency, "_PRODUCT_VALUES", 129 * 2)  # 43 systems a block: their τ as before
    for spec, whole in taus.items():
        np.testing.assert_array_equal(irmeans.halves_tau(p10, spec, first, second), whole)


def test_split_half_ties_are_those_of_kendall_tau_of_the_averages():
    rng = np.random.default_rng(2)
    s = np.round(rng.random((60, 12)), 1)  # coarse scores: sums of a half tie all the time
    first, second = irmeans.draw_halves(12, 50, rng=9)
    for spec in ("am", "gm:0.01", "hm:0.01", "median"):
        average = irmeans.parse_average(spec)
        expected = [
            irmeans.kendall_tau(average(s[:, a], axis=1), average(s[:, b], axis=1)) for a, b in zip(first, second)
        ]
        np.testing.assert_array_equal(irmeans.halves_tau(s, spec, first, second), expected)


# --- the halves: topics of equal difficulty keep their order --------------------------------


def test_topics_of_equal_difficulty_keep_their_order():
    d = np.array([1.0, 1.0 + 1e-15, 0.5, 0.2])  # topics 0 and 1 are equally hard
    first, second = irmeans.difficulty_halves(d, "hard-easy")
    assert first.tolist() == [[0, 1]]
    d = np.array([0.2, 1.0 + 1e-15, 1.0, 0.5, 0.1])  # the tie straddles the cut: the first of them goes
    first, second = irmeans.difficulty_halves(d, "hard-easy")
    assert first.tolist() == [[1, 2]]
    first, second = irmeans.difficulty_halves(np.array([0.2, 1.0, 1.0 + 1e-15, 0.5]), "hard-easy")
    assert first.tolist() == [[1, 2]]
    first, second = irmeans.difficulty_halves(np.array([0.3, 0.5 + 1e-16, 0.5, 0.1]), "hard-easy")
    assert first.tolist() == [[1, 2]]
    first, second = irmeans.difficulty_halves(np.array([0.5, 0.5 - 1e-16, 0.5 + 1e-16, 0.1, 0.0, 0.2]), "hard-easy")
    assert first.tolist() == [[0, 1, 2]]
    first, second = irmeans.difficulty_halves(np.array([0.1, 0.5, 0.5 - 1e-16, 0.5 + 1e-16]), "hard-easy")
    assert first.tolist() == [[1, 2]]  # of three equally hard topics, the first two in topic order


def test_the_hard_easy_split_does_not_depend_on_a_flat_topic_s_score():
    halves = {}
    for value in (0.1, 0.3, 0.7):
        s = matrix_with_a_flat_topic(value, systems=8)
        halves[value] = [h.tolist() for h in irmeans.make_halves(s, "hard-easy")]
    assert halves[0.1] == halves[0.3] == halves[0.7]


def test_the_command_s_hard_easy_split_does_not_depend_on_a_flat_topic_s_score(tmp_path):
    outputs = set()
    rng = np.random.default_rng(7)
    base = rng.random((7, 9))
    for value in (0.1, 0.3, 0.7, 1 / 3):
        s = base.copy()
        third = np.full(7, value / 3)
        s[:, 4] = third + third + third
        path = tmp_path / f"s{value}.csv"
        path.write_text(
            "system,"
            + ",".join(f"t{j}" for j in range(9))
            + "\n"
            + "".join(f"r{i}," + ",".join(repr(float(v)) for v in row) + "\n" for i, row in enumerate(s))
        )
        out = io.StringIO()
        with redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("error")
            args = ["consistency", "--scores", str(path), "--split", "hard-easy", "-a", "am", "-a", "std-am"]
            assert main(args) == 0
        outputs.add("\n".join(out.getvalue().splitlines()[1:]))  # the first line names the file
    assert len(outputs) == 1
