"""Paired t-tests and Wilcoxon tests, on per-topic scores and on paired split-half τ."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from irmeans.comparison.significance import paired_t_test, wilcoxon_test
from irmeans.errors import IrmeansError
from scipy import stats


def test_paired_t_test_matches_a_hand_computation():
    a = np.array([0.31, 0.12, 0.55, 0.40, 0.08])
    b = np.array([0.25, 0.10, 0.50, 0.41, 0.02])
    d = a - b
    t_hand = d.mean() / (d.std(ddof=1) / np.sqrt(d.size))
    t, p = paired_t_test(a, b)
    assert t == pytest.approx(t_hand, rel=1e-12)
    assert p == pytest.approx(2 * stats.t.sf(abs(t_hand), d.size - 1), rel=1e-10)
    assert isinstance(t, float) and isinstance(p, float)


def test_paired_t_test_rows_and_the_no_change_case():
    base = np.array([0.125, 0.5, 0.25, 0.75])
    new = np.array([[0.125, 0.5, 0.25, 0.75], [0.2, 0.6, 0.4, 0.7], [0.25, 0.625, 0.375, 0.875]])
    t, p = paired_t_test(new, base)
    assert t[0] == 0.0 and p[0] == 1.0  # nothing changed: no evidence either way
    ref = stats.ttest_rel(new[1], base)
    assert t[1] == pytest.approx(ref.statistic) and p[1] == pytest.approx(ref.pvalue)
    assert np.isinf(t[2]) and p[2] == 0.0  # the same gain on every topic


def test_paired_t_test_rejects_bad_pairs():
    with pytest.raises(IrmeansError, match="must pair up"):
        paired_t_test([1, 2, 3], [1, 2])
    with pytest.raises(IrmeansError, match="at least 2 pairs"):
        paired_t_test([1.0], [2.0])
    with pytest.raises(IrmeansError, match="is nan"):
        paired_t_test([1.0, np.nan], [2.0, 1.0])


def test_wilcoxon_test_matches_scipy_and_leaves_out_zero_differences():
    rng = np.random.default_rng(3)
    a = rng.random(40)
    b = a + rng.normal(0.05, 0.1, 40)
    b[:5] = a[:5]  # five zero differences
    s, p = wilcoxon_test(a, b)
    d = (a - b)[5:]
    ranks = stats.rankdata(np.abs(d))
    assert s == min(ranks[d > 0].sum(), ranks[d < 0].sum())
    assert p == pytest.approx(stats.wilcoxon(a[5:], b[5:], method="approx").pvalue, rel=1e-12)
    assert wilcoxon_test([0.1, 0.2], [0.1, 0.2]) == (0.0, 1.0)


@given(
    a=st.lists(st.floats(0, 1), min_size=3, max_size=12),
    data=st.data(),
    exponent=st.integers(-320, 300),
)
def test_the_t_test_is_scale_free_at_the_edges_of_floating_point(a, data, exponent):
    # t of differences scaled by any factor is t unscaled: squares that underflow (1e-170 and below) made the
    # variance 0 and t infinite ("p < 1e-300"), differences near the largest double overflowed it
    b = data.draw(st.lists(st.floats(0, 1), min_size=len(a), max_size=len(a)))
    x, y = np.array(a), np.array(b)
    scale = 10.0**exponent
    xs, ys = x * scale, y * scale
    assume(np.isfinite(xs).all() and np.isfinite(ys).all() and (xs - ys != 0).sum() >= 2)
    assume(np.array_equal(xs / scale == ys / scale, x == y))  # no difference lost to rounding, none made
    assume(np.allclose((xs - ys) / scale, x - y, rtol=1e-9, atol=0))  # the scaled differences are these ones
    t, p = paired_t_test(x, y)
    t_scaled, p_scaled = paired_t_test(xs, ys)
    assert t_scaled == pytest.approx(t, rel=1e-6, nan_ok=True) and p_scaled == pytest.approx(p, rel=1e-6, abs=1e-12)


def test_the_t_test_of_differences_too_small_to_square_is_not_significant():
    a = np.array([0.31, 0.12, 0.55, 0.40, 0.08, 0.7])
    b = np.array([0.25, 0.10, 0.60, 0.41, 0.02, 0.5])
    t, p = paired_t_test(a, b)
    assert 0.1 < p < 0.5
    for scale in (1e-170, 1e-200, 1e-310):  # the last: differences among the subnormal doubles
        assert paired_t_test(a * scale, b * scale) == pytest.approx((t, p), rel=1e-6)
    assert paired_t_test(a * 1e308, -b * 1e308)[1] > 0  # differences beyond the largest double: halved first
    assert stats.ttest_rel(a * 1e-170, b * 1e-170).pvalue == 0.0  # scipy's own fails the same way


def test_compare_under_a_huge_eps_tests_on_a_scale_that_underflows_as_the_am_does():
    from irmeans import compare

    s = np.random.default_rng(0).random((3, 20))
    c = compare(s, ["am", "gm:1e200", "logit:1e200"], permutations=200, bootstrap=100)
    # log(x + ε) for ε = 1e200 is log ε + x / ε: differences of about 1e-201, t the AM's
    np.testing.assert_allclose(c.tests.t[1:], c.tests.t[[0, 0]], rtol=1e-6)
    assert (c.tests.p_t_holm > 0.05).all()
