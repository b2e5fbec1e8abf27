"""The tests irmeans.compare runs: Fisher's randomization test, the sign test, Holm's correction, the t-test."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from irmeans.comparison.significance import (
    count_at_least,
    flip_count,
    holm,
    paired_t_test,
    randomization_test,
    sign_flips,
    sign_test,
)
from irmeans.errors import IrmeansError
from scipy import stats


def enumerated_p(a, b):
    """The exact two-sided randomization p-value, by trying every swap of every topic (a loop, to be obviously right)."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    observed = abs(d.sum())
    hits = 0
    for signs in itertools.product((1, -1), repeat=d.size):
        hits += abs(float(np.dot(signs, d))) >= observed - 1e-12
    return hits / 2**d.size


@pytest.mark.parametrize("seed", range(6))
def test_the_exact_test_is_the_enumeration_of_every_swap(seed):
    rng = np.random.default_rng(seed)
    a, b = rng.random(9), rng.random(9)
    a[:2] = b[:2]  # topics that do not differ swap to themselves
    assert randomization_test(a, b, permutations=2**9) == pytest.approx(enumerated_p(a, b), abs=1e-15)


def test_equal_scores_give_p_1_and_a_clear_win_the_smallest_p():
    x = np.array([0.5, 0.6, 0.7, 0.8, 0.9])
    assert randomization_test(x, x) == 1.0
    assert randomization_test(x, x - 0.25) == 2 / 32  # only the identity and all-swapped are as extreme
    assert randomization_test(x, x - 0.25, permutations=10) == 1 / 11  # drawn: the observed order counts once


@pytest.mark.parametrize("seed", range(8))
def test_random_sign_vectors_are_within_monte_carlo_error_of_the_exact_p(seed):
    rng = np.random.default_rng(100 + seed)
    n = 14  # 16,384 sign vectors: enumerated exactly, or 3,000 drawn
    a = rng.beta(0.8, 2, n)
    b = np.clip(a + rng.normal(0.04 * (seed % 4 - 1), 0.1, n), 0, 1)
    exact = randomization_test(a, b, permutations=2**n)
    if seed < 2:  # the enumeration by a loop is slow: twice is enough (the test above checks it)
        assert exact == pytest.approx(enumerated_p(a, b), abs=1e-15)
    drawn = randomization_test(a, b, permutations=3000, seed=seed)
    error = math.sqrt(exact * (1 - exact) / 3000)
    assert abs(drawn - exact) <= 4.5 * error + 1 / 3000


def test_the_same_seed_gives_the_same_p_and_rows_are_tested_on_the_same_vectors():
    rng = np.random.default_rng(5)
    a, b = rng.random((4, 30)), rng.random((4, 30))
    p = randomization_test(a, b, permutations=500, seed=7)
    assert p.shape == (4,)
    assert p.tolist() == [randomization_test(a[i], b[i], permutations=500, seed=7) for i in range(4)]
    assert not np.array_equal(p, randomization_test(a, b, permutations=500, seed=8))
    gen = np.random.default_rng(7)
    assert randomization_test(a, b, permutations=500, seed=gen).tolist() == p.tolist()


def test_sign_flips_enumerate_every_vector_once_or_draw_fair_signs():
    blocks, total, exact = sign_flips(11, 5000, block=300)
    flips = np.vstack(list(blocks))
    assert (total, exact, flips.shape) == (2048, True, (2048, 11))
    assert len({tuple(row) for row in flips.tolist()}) == 2048
    blocks, total, exact = sign_flips(40, 5000, seed=3, block=1024)
    flips = np.vstack(list(blocks))
    assert (total, exact, flips.shape) == (5000, False, (5000, 40))
    assert set(np.unique(flips).tolist()) == {-1.0, 1.0}
    assert abs((flips < 0).mean() - 0.5) < 0.01
    assert flip_count(62, 2**62) == (2**62, True) and flip_count(63, 2**70) == (2**70, False)


def test_counts_come_from_one_product_and_include_the_identity():
    d = np.array([[0.1, -0.1, 0.3], [0.0, 0.0, 0.0]])
    flips = np.array([[1, 1, 1], [-1, -1, -1], [1, 1, -1], [-1, 1, 1]], dtype=float)
    # sums: row 0 -> 0.3, -0.3, -0.3, 0.1: three at least |0.3|; row 1 -> every sum is 0
    assert count_at_least(d, flips).tolist() == [3, 4]


@pytest.mark.parametrize("bad, message", [({"permutations": 0}, "permutations"), ({"seed": -1}, "seed")])
def test_the_randomization_test_refuses_bad_settings(bad, message):
    with pytest.raises(IrmeansError, match=message):
        randomization_test([0.1, 0.2, 0.3], [0.2, 0.2, 0.2], **bad)
    with pytest.raises(IrmeansError, match="at least 2 pairs"):
        randomization_test([0.1], [0.2])


@pytest.mark.parametrize("wins, losses, ties", [(0, 0, 5), (7, 3, 0), (3, 7, 2), (10, 0, 0), (12, 13, 1), (1, 0, 0)])
def test_the_sign_test_is_scipy_s_binomial_test_of_the_topics_that_differ(wins, losses, ties):
    a = [1.0] * wins + [0.0] * losses + [0.5] * ties
    b = [0.0] * wins + [1.0] * losses + [0.5] * ties
    s = sign_test(a + [0.5], b + [0.5])  # one more tie, so that there are always 2 pairs
    assert (int(s.wins), int(s.losses), int(s.ties)) == (wins, losses, ties + 1)
    expected = 1.0 if wins + losses == 0 else stats.binomtest(wins, wins + losses).pvalue
    assert float(s.p) == pytest.approx(expected, rel=1e-12)


def test_the_sign_test_is_the_same_on_any_increasing_scale():
    rng = np.random.default_rng(2)
    a, b = rng.random((5, 20)), rng.random((5, 20))
    raw, logged = sign_test(a, b), sign_test(np.log(a + 0.01), np.log(b + 0.01))
    assert raw.wins.tolist() == logged.wins.tolist() and raw.p.tolist() == logged.p.tolist()


def test_holm_matches_a_hand_computation():
    # sorted: 0.01 x 5 = 0.05; 0.02 x 4 = 0.08; 0.03 x 3 = 0.09; 0.04 x 2 = 0.08 -> 0.09; 0.05 x 1 -> 0.09
    p = [0.04, 0.01, 0.05, 0.03, 0.02]
    np.testing.assert_allclose(holm(p), [0.09, 0.05, 0.09, 0.09, 0.08], rtol=1e-15)
    # a 2-d family, NaN left out (m = 3), and 1 as the ceiling: 0.2 x 3 = 0.6; 0.3 x 2 -> 0.6; 0.6 x 1 -> 0.6
    np.testing.assert_allclose(holm([[0.3, np.nan], [0.2, 0.6]]), [[0.6, np.nan], [0.6, 0.6]], rtol=1e-15)
    assert holm([0.5, 0.9]).tolist() == [1.0, 1.0]


def naive_holm(p):
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_is_the_step_down_procedure(p):
    adjusted = holm(p)
    np.testing.assert_allclose(adjusted, naive_holm(p), rtol=1e-15, atol=0)
    assert (adjusted >= np.asarray(p)).all() and (adjusted <= 1).all()


@pytest.mark.parametrize("bad", [[0.5, 1.5], [-0.1], ["a"]])
def test_holm_refuses_what_is_not_a_p_value(bad):
    with pytest.raises(IrmeansError):
        holm(bad)


def test_the_t_test_is_scipy_s_ttest_rel():
    rng = np.random.default_rng(4)
    a, b = rng.random((50, 25)), rng.random((50, 25))
    t, p = paired_t_test(a, b)
    ref = stats.ttest_rel(a, b, axis=-1)
    np.testing.assert_allclose(t, ref.statistic, rtol=1e-12)
    np.testing.assert_allclose(p, ref.pvalue, rtol=1e-12)


def test_a_block_of_sign_vectors_stays_small_whatever_the_topics():
    # 2 systems x 100,000 topics: blocks of 1,000 sign vectors were 800 MB of doubles
    from irmeans.comparison.significance import FLIP_BLOCK, FLIP_VALUES

    blocks, total, exact = sign_flips(100_000, 10_000, seed=1)
    first = next(blocks)
    assert first.size <= FLIP_VALUES and first.shape == (FLIP_VALUES // 100_000, 100_000) and total == 10_000
    assert next(sign_flips(50, 10_000, seed=1)[0]).shape == (FLIP_BLOCK, 50)  # a track's: as before


def test_the_bootstrap_s_averages_from_their_scale_are_the_averages_of_the_resamples():
    import irmeans.comparison.compare as comparing
    from irmeans.averages import parse_average

    rng = np.random.default_rng(8)
    s = rng.beta(0.8, 2.0, (5, 30))
    averages = [parse_average(a) for a in ("am", "gm:0.01", "logit:0.01", "median")]
    scales = [a.on_scale(s) for a in averages]
    first, second = np.array([0, 1, 2]), np.array([3, 4, 0])
    low, high, _ = comparing._bootstrap(s, averages, scales, first, second, 300, 0.9, 3, lambda k: None)
    # the same resamples, each average computed on the resampled scores themselves
    rng2 = np.random.default_rng(np.random.SeedSequence(3).spawn(1)[0])
    picked = s[:, rng2.integers(0, 30, size=(300, 30))]
    for k, avg in enumerate(averages):
        reps = np.asarray(avg(picked, axis=2))
        d = reps[first] - reps[second]
        np.testing.assert_allclose(low[k], np.quantile(d, 0.05, axis=1), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(high[k], np.quantile(d, 0.95, axis=1), rtol=1e-12, atol=1e-15)
