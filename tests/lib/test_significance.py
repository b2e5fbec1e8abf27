"""Paired t-tests and Wilcoxon tests, on per-topic scores and on paired split-half τ."""

import numpy as np
import pytest
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
