"""Kendall's τ-b, random topic halves, the split-half experiment, standardized scores."""

import irmeans.consistency.experiment as consistency
import irmeans.consistency.halves as halves
import irmeans.consistency.kendall as kendall
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans import datasets
from irmeans.averages import AM, GM, HM, Logit, Median, parse_average
from irmeans.consistency import (
    difficulty_halves,
    draw_halves,
    halves_tau,
    kendall_tau,
    make_halves,
    split_half,
    standardize,
    topic_difficulty,
)
from irmeans.errors import IrmeansError
from scipy import stats


def tolerant(v):
    """``v`` with the numbers that irmeans counts as equal made equal, one by one in sorted order.

    Sorted, a number at most 1e-12 of the largest magnitude above the one before it takes
    that one's value (the documented tolerance, written out here as a plain loop).
    """
    v = np.asarray(v, dtype=float)
    order = np.argsort(v, kind="stable")
    srt = v[order]
    scale = max(abs(srt[0]), abs(srt[-1]))
    out = srt.copy()
    for i in range(1, len(srt)):
        if srt[i] - srt[i - 1] <= 1e-12 * scale:
            out[i] = out[i - 1]
    back = np.empty_like(v)
    back[order] = out
    return back


def scipy_tau(x, y):
    """scipy's τ-b, with ties as irmeans counts them (:func:`tolerant`)."""
    return stats.kendalltau(tolerant(x), tolerant(y)).statistic


# --- kendall_tau -------------------------------------------------------------


@pytest.mark.parametrize(
    "x, y, expected",
    [
        ([1, 2, 3, 4], [1, 3, 2, 4], 4 / 6),  # one swapped pair of six
        ([1, 2, 3, 4], [4, 3, 2, 1], -1.0),
        ([0.2, 0.5, 0.9], [0.1, 0.6, 0.7], 1.0),
        # x ties pair (0, 1), y ties pair (1, 2), the other four agree: 4 / √(5·5)
        ([1, 1, 2, 3], [1, 2, 2, 3], 0.8),
        # C = 1 (pair 0,2), D = 1 (pair 1,2), pair (0,1) tied in x: 0 / √(2·3)
        ([1, 1, 2], [1, 3, 2], 0.0),
    ],
)
def test_kendall_tau_hand_worked(x, y, expected):
    assert kendall_tau(x, y) == pytest.approx(expected, abs=1e-15)
    assert kendall_tau(x, y) == pytest.approx(scipy_tau(x, y), abs=1e-12)


def test_kendall_tau_identical_and_reversed_orders():
    x = np.random.default_rng(1).random(105)
    assert kendall_tau(x, x) == 1.0
    assert kendall_tau(x, 2 * x + 3) == 1.0
    assert kendall_tau(x, -x) == -1.0
    assert isinstance(kendall_tau(x, x), float)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n", [2, 3, 7, 50, 105, 300])
def test_kendall_tau_matches_scipy_without_ties(seed, n):
    rng = np.random.default_rng(seed)
    x, y = rng.random(n), rng.random(n)
    assert abs(kendall_tau(x, y) - scipy_tau(x, y)) <= 1e-12


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n, levels", [(5, 2), (20, 3), (105, 5), (105, 40), (200, 10)])
def test_kendall_tau_matches_scipy_with_ties(seed, n, levels):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, levels, n) / levels
    y = np.round(x + rng.normal(0, 0.3, n), 1)  # correlated, with many ties in y
    # a constant x gives NaN in both
    np.testing.assert_allclose(kendall_tau(x, y), scipy_tau(x, y), rtol=0, atol=1e-12)


@given(
    st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=2, max_size=25).filter(
        lambda pairs: len({a for a, _ in pairs}) > 1 and len({b for _, b in pairs}) > 1
    )
)
def test_kendall_tau_matches_scipy_on_small_tied_vectors(pairs):
    x, y = np.array(pairs, dtype=float).T
    assert abs(kendall_tau(x, y) - scipy_tau(x, y)) <= 1e-12


def brute_force_inversions(p):
    """Pairs i < j with p[i] > p[j], every pair compared."""
    p = np.asarray(p)
    return int(np.triu(p[:, None] > p[None, :], k=1).sum())


# Short vectors (every comparison a byte), vectors the bit splitting handles (here from 2
# items up, with blocks of 2, 4 or 8), and the shipped setting.
PAIR_COUNTS = [(256, 64), (1, 2), (1, 4), (3, 8)]


@st.composite
def tied_vectors(draw, max_size=300):
    """Two score vectors of one length, from few distinct values (heavy ties) to all distinct."""
    n = draw(st.integers(2, max_size))
    levels_x = draw(st.sampled_from([1, 2, 3, 5, 20, n, 10 * n]))
    levels_y = draw(st.sampled_from([1, 2, 3, 5, 20, n, 10 * n]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    x = rng.integers(0, levels_x, n).astype(float)
    y = rng.integers(0, levels_y, n).astype(float)
    if draw(st.booleans()):  # correlated: y follows x on a share of the items
        keep = rng.random(n) < draw(st.floats(0, 1))
        y = np.where(keep, x, y)
    return x, y


@given(tied_vectors(), st.sampled_from(PAIR_COUNTS))
def test_kendall_tau_is_scipys_tau_b_on_tied_vectors_of_any_length(vectors, pair_counts):
    x, y = vectors
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kendall, "_PAIRWISE_ITEMS", pair_counts[0])
        mp.setattr(kendall, "_PAIRWISE_BLOCK", pair_counts[1])
        tau = kendall_tau(x, y)
    expected = scipy_tau(x, y)
    if np.isnan(expected):  # every item of x or of y the same
        assert np.isnan(tau)
        assert len(set(x)) == 1 or len(set(y)) == 1
    else:
        assert abs(tau - expected) <= 1e-12


@given(st.integers(2, 300), st.integers(1, 300), st.integers(0, 2**32 - 1), st.sampled_from(PAIR_COUNTS))
def test_discordant_pairs_are_counted_exactly(n, levels, seed, pair_counts):
    # Strict inversions of integers 0 … n − 1 with ties: the discordant pairs of τ-b, exact integers.
    rng = np.random.default_rng(seed)
    p = rng.integers(0, min(levels, n), (3, n))
    p[1] = rng.permutation(n)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kendall, "_PAIRWISE_ITEMS", pair_counts[0])
        mp.setattr(kendall, "_PAIRWISE_BLOCK", pair_counts[1])
        got, ordered = kendall._discordant(p.astype(kendall._item_type(n)), False)
        permutation, _ = kendall._discordant(p[1:2].astype(kendall._item_type(n)), True)
    assert got.dtype == np.int64
    assert got.tolist() == [brute_force_inversions(row) for row in p]
    assert permutation.tolist() == [brute_force_inversions(p[1])]
    if ordered is not None:
        np.testing.assert_array_equal(ordered, np.sort(p, axis=1))


@given(st.integers(2, 60), st.integers(1, 60), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_tied_pairs_are_counted_from_the_runs(n, levels, rows, seed):
    s = np.sort(np.random.default_rng(seed).integers(0, levels, (rows, n)), axis=1)
    expected = [sum(c * (c - 1) // 2 for c in np.unique(row, return_counts=True)[1]) for row in s]
    got = kendall._tied_pairs_sorted(s)
    assert got.dtype == np.int64 and got.tolist() == expected


@pytest.mark.parametrize("n, levels", [(1_000, 7), (4_097, 4_097), (20_000, 300), (40_000, 40_000), (40_000, 50)])
def test_kendall_tau_matches_scipy_on_long_vectors(n, levels):
    rng = np.random.default_rng(n + levels)
    x = rng.integers(0, levels, n).astype(float)
    y = np.where(rng.random(n) < 0.5, x, rng.integers(0, levels, n))
    assert abs(kendall_tau(x, y) - scipy_tau(x, y)) <= 1e-12
    z = rng.random(n)
    assert abs(kendall_tau(z, x) - scipy_tau(z, x)) <= 1e-12  # ties in y only
    w = z + rng.random(n)
    assert abs(kendall_tau(z, w) - scipy_tau(z, w)) <= 1e-12  # no ties


def test_kendall_tau_stacked_rows_of_every_kind_of_tie():
    # Rows without ties, with ties in x only, in y only, in both, and constant: one call.
    rng = np.random.default_rng(11)
    n = 700
    base = rng.random(n)
    x = np.stack([base, np.round(base, 1), base, np.round(base, 1), np.zeros(n), base])
    y = np.stack([base + rng.random(n), base, np.round(base + rng.random(n), 1), np.round(base, 2), base, -base])
    expected = [scipy_tau(a, b) for a, b in zip(x, y)]
    np.testing.assert_allclose(kendall_tau(x, y), expected, rtol=0, atol=1e-12)
    assert kendall_tau(x, y)[-1] == -1.0


def test_kendall_tau_stacked_matches_scipy_row_by_row():
    rng = np.random.default_rng(7)
    x = rng.integers(0, 6, size=(4, 3, 30)).astype(float)
    y = np.where(rng.random((4, 3, 30)) < 0.5, x, rng.integers(0, 6, size=(4, 3, 30)))
    tau = kendall_tau(x, y)
    assert tau.shape == (4, 3)
    expected = np.array([[scipy_tau(x[i, j], y[i, j]) for j in range(3)] for i in range(4)])
    np.testing.assert_allclose(tau, expected, rtol=0, atol=1e-12)


def test_kendall_tau_broadcasts_one_order_against_many():
    rng = np.random.default_rng(8)
    ref = rng.random(20)
    others = rng.random((6, 20))
    expected = [scipy_tau(ref, o) for o in others]
    np.testing.assert_allclose(kendall_tau(ref, others), expected, rtol=0, atol=1e-12)


def test_kendall_tau_blocks_do_not_change_the_result(monkeypatch):
    rng = np.random.default_rng(9)
    x = rng.integers(0, 8, size=(37, 25)).astype(float)
    y = rng.integers(0, 8, size=(37, 25)).astype(float)
    whole = kendall_tau(x, y)
    monkeypatch.setattr(kendall, "_BLOCK_VALUES", 60)  # two rows per block
    np.testing.assert_array_equal(kendall_tau(x, y), whole)
    np.testing.assert_allclose(whole, [scipy_tau(a, b) for a, b in zip(x, y)], rtol=0, atol=1e-12)


def test_kendall_tau_of_a_constant_vector_is_nan_as_in_scipy():
    assert np.isnan(kendall_tau([1, 1, 1], [1, 2, 3]))
    assert np.isnan(scipy_tau([1, 1, 1], [1, 2, 3]))
    tau = kendall_tau([[1, 1, 1], [1, 2, 3]], [[1, 2, 3], [3, 2, 1]])
    assert np.isnan(tau[0]) and tau[1] == -1.0


@pytest.mark.parametrize(
    "x, y, message",
    [
        ([1, 2, 3], [1, 2], "same shape"),
        ([1], [1], "at least 2 items"),
        (1.0, [1, 2], "scalar"),
        ([1, np.nan, 3], [1, 2, 3], r"x at index 1 is nan"),
        ([1, 2, 3], [[1, 2, 3], [1, np.inf, 3]], r"y at index \(1, 1\) is inf"),
    ],
)
def test_kendall_tau_rejects_bad_input(x, y, message):
    with pytest.raises(ValueError, match=message):
        kendall_tau(x, y)


# --- draw_halves -------------------------------------------------------------


@pytest.mark.parametrize("n_topics", [2, 7, 50])
def test_draw_halves_partition_the_topics(n_topics):
    first, second = draw_halves(n_topics, 40, np.random.default_rng(3))
    assert first.shape == (40, n_topics // 2)
    assert second.shape == (40, n_topics - n_topics // 2)
    both = np.concatenate([first, second], axis=1)
    np.testing.assert_array_equal(np.sort(both, axis=1), np.broadcast_to(np.arange(n_topics), both.shape))
    assert (np.diff(first, axis=1) > 0).all() and (np.diff(second, axis=1) > 0).all()


def test_draw_halves_is_reproducible_and_varies():
    a = draw_halves(50, 100, 11)
    b = draw_halves(50, 100, np.random.default_rng(11))
    np.testing.assert_array_equal(a[0], b[0])
    assert len({tuple(row) for row in a[0]}) == 100  # no split repeats


def test_draw_halves_covers_every_topic_about_equally():
    first, _ = draw_halves(10, 4000, 2)
    share = np.bincount(first.ravel(), minlength=10) / 4000
    np.testing.assert_allclose(share, 0.5, atol=0.04)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n_topics": 1, "n_splits": 5},
        {"n_topics": 10, "n_splits": 0},
        {"n_topics": 10.5, "n_splits": 5},
        {"n_topics": "10", "n_splits": 5},
    ],
)
def test_draw_halves_rejects_bad_sizes(kwargs):
    with pytest.raises(ValueError, match="whole number"):
        draw_halves(**kwargs)


# --- split_half --------------------------------------------------------------


def collection(seed=0, systems=30, topics=20):
    """AP-like scores with zeros, systems of different strength."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(0, 0.5, (systems, 1)) - rng.normal(0, 1, (1, topics)) + rng.normal(0, 0.8, (systems, topics))
    ap = 1 / (1 + np.exp(-(latent - 1)))
    ap[latent < -1.2] = 0.0
    return ap


def reference_split_half(scores, mean, n_splits, seed):
    """The slow loop: the same halves, one scipy τ per split."""
    first, second = draw_halves(scores.shape[1], n_splits, np.random.default_rng(seed))
    return np.array([scipy_tau(mean(scores[:, a], axis=1), mean(scores[:, b], axis=1)) for a, b in zip(first, second)])


MEANS = {
    "AM": AM(),
    "GM eps=0.01": GM(eps=0.01),
    "GM eps=1e-5 floor": GM(eps=1e-5, form="floor"),
    "HM eps=0.01": HM(eps=0.01),
    "median": Median(),
    "logit eps=0.01": Logit(eps=0.01),
}


@pytest.mark.parametrize("name", MEANS)
def test_split_half_matches_the_slow_loop(name):
    scores = collection(1)
    fast = split_half(scores, MEANS[name], n_splits=20, seed=5, chunk_size=7)
    slow = reference_split_half(scores, MEANS[name], 20, 5)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)
    assert fast.std() > 0  # the splits really differ


def test_split_half_with_odd_topics_and_an_average_spec():
    scores = collection(2, systems=25, topics=31)
    fast = split_half(scores, "gm:0.001", n_splits=20, seed=3)
    slow = reference_split_half(scores, GM(eps=0.001), 20, 3)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)


def test_split_half_is_reproducible_and_bounded():
    scores = collection(3)
    a = split_half(scores, AM(), n_splits=300, seed=42)
    b = split_half(scores, AM(), n_splits=300, seed=42, chunk_size=1000)
    c = split_half(scores, AM(), n_splits=300, seed=43)
    assert a.shape == (300,)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    assert (a >= -1).all() and (a <= 1).all()
    assert 0 < a.mean() < 1


def test_split_half_of_well_separated_systems_is_always_one():
    scores = np.linspace(0.1, 0.9, 8)[:, None] + np.zeros((1, 12))
    scores += np.random.default_rng(0).uniform(-0.01, 0.01, scores.shape)
    np.testing.assert_array_equal(split_half(scores, Median(), n_splits=50, seed=0), 1.0)


def test_split_half_rejects_bad_input():
    scores = collection(4)
    with pytest.raises(ValueError, match="2-d systems"):
        split_half(scores[0], AM(), n_splits=5)
    with pytest.raises(ValueError, match="at least 2 systems and 2 topics"):
        split_half(scores[:, :1], AM(), n_splits=5)
    with pytest.raises(IrmeansError, match="unknown average"):
        split_half(scores, "mean", n_splits=5)
    with pytest.raises(IrmeansError, match="an average is a spec"):
        split_half(scores, np.mean, n_splits=5)
    with pytest.raises(ValueError, match="n_splits"):
        split_half(scores, AM(), n_splits=0)
    with pytest.raises(ValueError, match="is 0: the harmonic mean"):
        split_half(scores, HM(), n_splits=5)  # zeros need eps > 0


# --- standardize -------------------------------------------------------------


def test_standardize_matches_a_hand_computation():
    scores = np.array([[0.1, 0.0, 0.6], [0.3, 0.2, 0.6], [0.5, 0.1, 0.9], [0.2, 0.5, 0.7]])
    out = standardize(scores)
    # topic 0 by hand: mean 0.275, sample sd √(0.0875 / 3)
    z0 = (np.array([0.1, 0.3, 0.5, 0.2]) - 0.275) / np.sqrt(0.0875 / 3)
    np.testing.assert_allclose(out[:, 0], stats.norm.cdf(z0), rtol=0, atol=1e-15)
    z = (scores - scores.mean(axis=0)) / scores.std(axis=0, ddof=1)
    np.testing.assert_allclose(out, stats.norm.cdf(z), rtol=0, atol=1e-15)
    assert ((out > 0) & (out < 1)).all()
    # order within a topic is kept
    np.testing.assert_array_equal(np.argsort(out, axis=0), np.argsort(scores, axis=0, kind="stable"))


def test_standardize_with_population_sd_and_a_reference_set():
    rng = np.random.default_rng(5)
    reference = rng.random((10, 4))
    scores = rng.random((3, 4))
    out = standardize(scores, reference=reference, ddof=0)
    z = (scores - reference.mean(axis=0)) / reference.std(axis=0)
    np.testing.assert_allclose(out, stats.norm.cdf(z), rtol=0, atol=1e-15)


def test_standardize_a_topic_without_spread():
    scores = [[0.1, 0.0], [0.4, 0.0], [0.2, 0.0]]
    with pytest.raises(ValueError, match="topic 1: every reference system scores 0.0"):
        standardize(scores)
    out = standardize(scores, constant="half")
    np.testing.assert_array_equal(out[:, 1], 0.5)
    assert out[1, 0] > 0.5 > out[0, 0]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"scores": [0.1, 0.2]}, "2-d systems"),
        ({"scores": [[0.1, 0.2], [0.3, np.nan]]}, r"score at index \(1, 1\) is nan"),
        ({"scores": [[0.1, 0.2], [0.3, 0.4]], "reference": [[0.1, 0.2, 0.3], [0.2, 0.3, 0.5]]}, "3 topics"),
        ({"scores": [[0.1, 0.2], [0.3, 0.4]], "constant": "zero"}, "constant must be"),
        ({"scores": [[0.1, 0.2], [0.3, 0.4]], "ddof": 2}, "more than 2 reference systems"),
    ],
)
def test_standardize_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        standardize(**kwargs)


# --- halves_tau on real runs: exactly scipy's τ-b of the averages ------------------


def reference_halves_tau(scores, average, first, second):
    """The plain loop over the given halves: the average of each half, scipy's τ-b."""
    return np.array(
        [scipy_tau(average(scores[:, a], axis=1), average(scores[:, b], axis=1)) for a, b in zip(first, second)]
    )


@pytest.mark.parametrize("matrix", ["adhoc8_ap", "adhoc8_p10", "web2012_err20", "web2014_rr"])
@pytest.mark.parametrize("spec", ["am", "gm:0.01", "gm-floor:1e-5", "gm-zeros:1e-5", "hm:0.01", "median", "logit:0.01"])
def test_halves_tau_equals_scipy_on_real_runs(matrix, spec):
    # Real runs hold duplicate systems and systems that tie on some halves: the hard cases.
    collection, _, measure = matrix.partition("_")
    scores = np.array(datasets.load(collection, measure).scores)
    first, second = draw_halves(scores.shape[1], 60, 4)
    average = parse_average(spec)
    fast = halves_tau(scores, average, first, second, chunk_size=25)
    np.testing.assert_allclose(fast, reference_halves_tau(scores, average, first, second), rtol=0, atol=1e-12)


@pytest.mark.parametrize("spec", ["am", "gm:0.01", "gm-floor:1e-5", "hm:0.01", "logit:0.01"])
@pytest.mark.parametrize("decimals", [1, 2, 4])
def test_near_ties_are_ranked_as_when_every_system_is_averaged(spec, decimals):
    # Rounded scores of many systems: on every half, hundreds of sums within rounding of
    # each other. Only those systems are averaged again; the ranks must be those of
    # averaging every system of the split, as halves_tau first did.
    scores = np.round(collection(10, systems=400, topics=16), decimals)
    average = parse_average(spec)
    distinct = np.unique(scores, axis=0)
    by_topic = np.ascontiguousarray(distinct.T)
    g_by_topic = np.ascontiguousarray(consistency._monotone_form(average, distinct).T)
    first, _ = draw_halves(16, 50, 2)
    ranks = consistency._ranks_by_sums(distinct, by_topic, g_by_topic, average, first)
    everyone = consistency._dense_ranks(consistency._half_averages(by_topic, average, first))
    np.testing.assert_array_equal(ranks, everyone)
    # and τ-b of the averages, computed in the same layout (each system's sum in topic order)
    second = np.sort(np.array([np.setdiff1d(np.arange(16), f) for f in first]), axis=1)

    def averages(half):
        return average(np.ascontiguousarray(scores[:, half].T).T, axis=1)

    expected = [scipy_tau(averages(a), averages(b)) for a, b in zip(first, second)]
    np.testing.assert_allclose(halves_tau(scores, spec, first, second), expected, rtol=0, atol=1e-12)


def test_runs_of_near_ties_are_sorted_within_themselves_even_if_they_overlap():
    # Sums that put three systems in two runs out of the averages' order: each run is
    # sorted by the averages, but runs keep their places (the sort within runs).
    by_topic = np.array([[0.5, 0.1, 0.3, 0.2], [0.5, 0.1, 0.3, 0.2]])
    halves = np.array([[0, 1]])
    order = np.array([[0, 3, 2, 1]])  # averages 0.5, 0.2 | 0.3, 0.1
    close = np.array([[True, False, True]])
    new, tied = consistency._order_near_ties(by_topic, AM(), halves, order.copy(), close)
    assert new.tolist() == [[3, 0, 1, 2]]
    assert tied[0].size == 0
    # equal averages in one run are tied with the place before them
    by_topic = np.array([[0.2, 0.2, 0.7], [0.4, 0.4, 0.7]])
    new, tied = consistency._order_near_ties(by_topic, AM(), halves, np.array([[1, 0, 2]]), np.array([[True, False]]))
    assert new.tolist() == [[1, 0, 2]] and tied[0].tolist() == [0] and tied[1].tolist() == [1]


def test_halves_tau_on_systems_tied_on_a_half_but_not_on_the_other():
    # Systems 0 and 1 agree on topics 0-2 and differ on 3; systems 2 and 3 have equal sums on
    # topics 0-1 with different scores.
    scores = np.array(
        [
            [0.1, 0.2, 0.3, 0.4],
            [0.1, 0.2, 0.3, 0.9],
            [0.3, 0.1, 0.5, 0.2],
            [0.1, 0.3, 0.2, 0.6],
            [0.5, 0.5, 0.5, 0.5],
        ]
    )
    first, second = draw_halves(4, 30, 1)
    for spec in ("am", "gm:0.01", "median"):
        expected = reference_halves_tau(scores, parse_average(spec), first, second)
        np.testing.assert_allclose(halves_tau(scores, spec, first, second), expected, rtol=0, atol=1e-12)


def test_halves_tau_rejects_bad_halves():
    scores = collection(5)
    with pytest.raises(IrmeansError, match="topic index outside"):
        halves_tau(scores, "am", [[0, 1]], [[2, 99]])
    with pytest.raises(IrmeansError, match="2-d array of topic indices"):
        halves_tau(scores, "am", [0, 1], [2, 3])
    with pytest.raises(IrmeansError, match="splits but second"):
        halves_tau(scores, "am", [[0, 1], [2, 3]], [[4, 5]])


def test_split_half_is_halves_tau_of_draw_halves():
    scores = collection(6)
    first, second = draw_halves(scores.shape[1], 40, np.random.default_rng(8))
    np.testing.assert_array_equal(
        split_half(scores, "gm:0.01", 40, seed=8), halves_tau(scores, "gm:0.01", first, second)
    )


def halves_drawn_at_once(n_topics, n_splits, seed):
    """draw_halves as it was first written: every split's uniform draws in one array."""
    order = np.argsort(np.random.default_rng(seed).random((n_splits, n_topics)), axis=1)
    h = n_topics // 2
    return np.sort(order[:, :h], axis=1), np.sort(order[:, h:], axis=1)


@pytest.mark.parametrize("n_topics, draw_values", [(7, 7), (7, 50), (50, 1000), (2, 3)])
def test_halves_drawn_in_blocks_are_those_of_one_draw(monkeypatch, n_topics, draw_values):
    # The generator fills an array row after row, so blocks of rows continue one stream.
    monkeypatch.setattr(halves, "_DRAW_VALUES", draw_values)
    blocks = list(halves._random_halves(n_topics, 101, np.random.default_rng(5)))
    assert len(blocks) == -(-101 // max(1, draw_values // n_topics)) > 1
    first, second = draw_halves(n_topics, 101, 5)
    expected = halves_drawn_at_once(n_topics, 101, 5)
    for got, want in zip((first, second), expected):
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype
    np.testing.assert_array_equal(np.concatenate([b[1] for b in blocks]), expected[0])


@pytest.mark.parametrize("spec", ["am", "gm:0.01", "hm:0.01", "median", "logit:0.01"])
def test_split_half_in_blocks_is_halves_tau_of_all_halves_at_once(trec8, monkeypatch, spec):
    # Real runs (duplicate systems, near ties): blocks of 13 splits drawn, chunks of 5 evaluated.
    expected = halves_tau(trec8, spec, *halves_drawn_at_once(50, 120, 3), chunk_size=120)
    monkeypatch.setattr(halves, "_DRAW_VALUES", 13 * 50)
    monkeypatch.setattr(consistency, "_CHUNK_VALUES", 5 * 129 * 50)
    np.testing.assert_array_equal(split_half(trec8, spec, 120, seed=3), expected)
    np.testing.assert_array_equal(split_half(trec8, spec, 120, seed=3, chunk_size=1), expected)


def test_several_averages_over_the_same_splits_in_blocks(trec8, monkeypatch):
    monkeypatch.setattr(halves, "_DRAW_VALUES", 9 * 50)
    std = standardize(trec8)
    steps = []
    taus = consistency._split_half_taus([(trec8, "am"), (std, "gm:0.01")], 40, 6, progress=steps.append)
    np.testing.assert_array_equal(taus[0], split_half(trec8, "am", 40, seed=6))
    np.testing.assert_array_equal(taus[1], split_half(std, "gm:0.01", 40, seed=6))
    assert sum(steps) == 80 and max(steps) <= 9
    with pytest.raises(IrmeansError, match="different numbers of topics"):
        consistency._split_half_taus([(trec8, "am"), (trec8[:, :10], "am")], 5, 0)


def traced_peak(fn):
    """Peak bytes numpy allocates (numpy reports its buffers to tracemalloc) while ``fn`` runs."""
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_split_half_memory_does_not_grow_with_the_splits_beyond_their_taus(monkeypatch):
    scores = collection(9, systems=12, topics=10)
    monkeypatch.setattr(halves, "_DRAW_VALUES", 1 << 14)
    monkeypatch.setattr(consistency, "_CHUNK_VALUES", 1 << 16)
    small = traced_peak(lambda: split_half(scores, "gm:0.01", 20_000, seed=1))
    large = traced_peak(lambda: split_half(scores, "gm:0.01", 80_000, seed=1))
    # 60,000 more splits: their 480 kB of τ, where drawing them all at once would add about 15 MB.
    assert large - small < 8 * 60_000 + 200_000


# --- topic difficulty and fixed splits ------------------------------------------


def test_topic_difficulty_by_hand():
    s = np.array([[0.0, 0.2, 0.5], [0.0, 0.4, 0.5], [0.3, 0.9, 0.5]])
    # topic 0: mean 0.1, max 0.3, sample sd √0.03
    eq2 = topic_difficulty(s)
    assert eq2[0] == pytest.approx(0.2 / np.sqrt(0.03), abs=1e-12)
    assert eq2[2] == 0.0  # every system alike: nobody stands out
    np.testing.assert_allclose(topic_difficulty(s, "eq1"), 1 - s.mean(axis=0), rtol=0, atol=1e-15)
    np.testing.assert_allclose(topic_difficulty(s, "max"), [0.7, 0.1, 0.5], rtol=0, atol=1e-15)
    with pytest.raises(IrmeansError, match="definition must be one of"):
        topic_difficulty(s, "eq3")


@pytest.mark.parametrize("n", [4, 7, 50, 51])
def test_difficulty_halves_partition_by_rank(n):
    d = np.random.default_rng(n).permutation(n).astype(float)  # topic with d = n - 1 is the hardest
    hard = n // 2
    first, second = difficulty_halves(d, "hard-easy")
    assert first.shape == (1, hard) and second.shape == (1, n - hard)
    assert set(d[first[0]]) == set(range(n - hard, n))
    first, second = difficulty_halves(d, "middle-rest")
    k = (n - hard) // 2
    ranks = n - 1 - d  # 0 = hardest
    assert set(ranks[first[0]]) == set(range(k, k + hard))
    assert sorted(np.concatenate([first[0], second[0]]).tolist()) == list(range(n))


def test_difficulty_halves_break_ties_by_topic_order():
    first, second = difficulty_halves([1.0, 1.0, 1.0, 1.0], "hard-easy")
    assert first.tolist() == [[0, 1]] and second.tolist() == [[2, 3]]
    with pytest.raises(IrmeansError, match="kind must be"):
        difficulty_halves([1.0, 2.0], "random")


def test_make_halves_kinds():
    scores = collection(7)
    a = make_halves(scores, "random", 30, seed=2)
    np.testing.assert_array_equal(a[0], draw_halves(scores.shape[1], 30, np.random.default_rng(2))[0])
    he = make_halves(scores, "hard-easy")
    np.testing.assert_array_equal(he[0], difficulty_halves(topic_difficulty(scores), "hard-easy")[0])
    mr = make_halves(scores, "middle-rest", difficulty="eq1")
    np.testing.assert_array_equal(mr[1], difficulty_halves(topic_difficulty(scores, "eq1"), "middle-rest")[1])
    with pytest.raises(IrmeansError, match="split kind"):
        make_halves(scores, "odd-even")


# --- Ravana & Moffat (2009), Table 3(c): TREC8 -----------------------------------

# The paper's Kendall's τ for TREC8 (AP columns).
TABLE_3C_AP = {
    "am": {"random": 0.773, "hard-easy": 0.719, "middle-rest": 0.753},
    "gm:0.01": {"random": 0.755, "hard-easy": 0.732, "middle-rest": 0.760},
    "gm-floor:1e-5": {"random": 0.681, "hard-easy": 0.672, "middle-rest": 0.676},
}
TABLE_3C_SP_RANDOM = {"am": 0.781, "gm:0.01": 0.769, "gm-floor:1e-5": 0.768}


@pytest.fixture(scope="module")
def trec8():
    return np.array(datasets.load("adhoc8", "ap").scores)


@pytest.mark.parametrize("kind", ["hard-easy", "middle-rest"])
@pytest.mark.parametrize("spec", list(TABLE_3C_AP))
def test_table_3c_deterministic_ap_cells_to_three_decimals(trec8, spec, kind):
    first, second = make_halves(trec8, kind, difficulty="eq2")
    tau = halves_tau(trec8, spec, first, second)[0]
    assert round(float(tau), 3) == TABLE_3C_AP[spec][kind]


@pytest.mark.parametrize("spec", list(TABLE_3C_AP))
def test_table_3c_random_cells_within_0_003(trec8, spec):
    assert abs(split_half(trec8, spec, 10_000, seed=2009).mean() - TABLE_3C_AP[spec]["random"]) <= 0.003
    sp = standardize(trec8)
    assert abs(split_half(sp, spec, 10_000, seed=2009).mean() - TABLE_3C_SP_RANDOM[spec]) <= 0.003


def test_trec8_shares_of_low_scores(trec8):
    # Section 5.2: 3 % zeros and 36 % at most 0.1.
    assert round(100 * float((trec8 == 0).mean()), 1) == 2.6
    assert round(100 * float((trec8 <= 0.1).mean()), 1) == 36.0


@given(
    x=st.lists(st.integers(-(2**63), 2**63 - 1), min_size=2, max_size=30),
    data=st.data(),
)
def test_kendall_tau_of_integers_compares_them_exactly_however_large(x, data):
    # 2**53 + 1 is a float's 2**53: integers are ranked as integers, and tied only when equal
    y = data.draw(st.lists(st.integers(-5, 5), min_size=len(x), max_size=len(x)))
    ours = kendall_tau(np.array(x, dtype=np.int64), np.array(y, dtype=np.int64))
    # the reference gets x's exact ranks (Python sorts its ints exactly): given the int64s themselves, scipy 1.18
    # ranks them as doubles, so that 2**63 - 512 and 2**63 - 511 tie there and not in earlier versions
    rank = {v: i for i, v in enumerate(sorted(set(x)))}
    theirs = stats.kendalltau([rank[v] for v in x], y).statistic
    assert (np.isnan(ours) and np.isnan(theirs)) or ours == pytest.approx(theirs, abs=1e-12)
    bigger = [v * 2**40 + 1 for v in x]  # the same order beyond 2**64, as Python's ints
    assert kendall_tau(bigger, y) == ours or (np.isnan(ours) and np.isnan(kendall_tau(bigger, y)))


def test_kendall_tau_tells_integers_above_2_to_the_53_apart():
    big = np.array([2**53, 2**53 + 1, 2**53 + 2], dtype=np.int64)
    assert kendall_tau(big, [1, 2, 3]) == 1.0 and kendall_tau([2**60, 2**60 + 1], [1, 2]) == 1.0


def test_kendall_tau_tells_integers_beyond_2_to_the_64_apart():
    # numpy holds them as Python ints in an array of objects; as doubles 2**70 and 2**70 + 1 are one number
    assert kendall_tau([2**70, 2**70 + 1, 2**70 + 2], [1, 2, 3]) == 1.0
    assert kendall_tau([10**400 + 1, 10**400, -(10**400)], [3, 2, 1]) == 1.0
    assert kendall_tau([[2**70 + 1, 2**70], [1, 2]], [[1, 2], [1, 2]]).tolist() == [-1.0, 1.0]


def test_standardize_of_scores_near_the_largest_double_is_quiet_and_as_for_smaller_ones():
    import warnings

    s = np.array([[1e308, 1.5e308, 1.7e308], [1.6e308, 1e307, 1e308], [2e307, 1e307, 9e307]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = standardize(s)
    np.testing.assert_allclose(big, standardize(s / 1e300), rtol=1e-12)


@pytest.mark.parametrize("scale", [1e-170, 1e-300, 1e200, 1e307])
def test_topic_difficulty_is_scale_free_at_the_edges_of_floating_point(scale):
    # Equation 2, (max - mean) / sd, is the same for scaled scores: squares that underflow made sd 0
    s = np.array([[0.1, 0.5, 0.0, 0.3], [0.2, 0.6, 0.0, 0.1], [0.9, 0.7, 0.3, 0.8]])
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        scaled = topic_difficulty(s * scale)
    np.testing.assert_allclose(scaled, topic_difficulty(s), rtol=1e-9)
