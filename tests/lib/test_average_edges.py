"""Averages and measures at the edges of the doubles: the right value, computed stably, or one clear error.

Never a numpy warning, never NaN or inf from finite valid input, never a string or a complex
number averaged as if it were a score. Each test runs with warnings as errors and numpy's
floating-point errors raised (those numpy warns of: division by zero, overflow, invalid), so
that a warning the library lets through fails it.
"""

import datetime
import fractions
import math
import warnings

import irmeans
import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from irmeans import datasets, measures
from irmeans.averages import AM, GM, HM, Logit, Median
from irmeans.errors import IrmeansError

MAX = np.finfo(np.float64).max
TINY = np.finfo(np.float64).smallest_subnormal


@pytest.fixture(autouse=True)
def strict():
    with warnings.catch_warnings(), np.errstate(divide="raise", over="raise", invalid="raise"):
        warnings.simplefilter("error")
        yield


def within(value, x, slack=1e-13, absolute=0.0):
    """``value`` lies between the least and the largest of ``x``, give or take ``slack`` of their size."""
    x = [float(v) for v in np.ravel(x)]  # Python floats: past the largest double they become inf, quietly
    room = slack * max(abs(v) for v in x) + absolute
    return math.isfinite(value) and min(x) - room <= value <= max(x) + room


# --- the examples ------------------------------------------------------------------


def test_the_examples_of_the_report():
    assert irmeans.logit_mean([0.5, 0.5], eps=1e17) == 0.5
    assert irmeans.arithmetic_mean([1.7e308] * 2) == 1.7e308
    assert irmeans.harmonic_mean([TINY, TINY]) == TINY
    assert measures.expected_reciprocal_rank([1024]) == 1.0  # 1 − 2^−1024
    with pytest.raises(IrmeansError, match="judged holds 1 document"):
        measures.ndcg([1, 1, 1], judged=[1])
    with pytest.raises(IrmeansError, match="level must be a finite number"):
        measures.average_precision([1, 0], level=float("nan"))
    for bad in (["1_0", "0"], [1j, 0.5], np.array(["2024-01-01"], dtype="datetime64[D]"), [datetime.date.today()]):
        with pytest.raises(IrmeansError, match="score must be numbers"):
            irmeans.arithmetic_mean(bad)


def test_a_huge_eps_logit_orders_systems_as_the_arithmetic_mean():
    ap = np.array(datasets.load("adhoc8", "ap").scores)
    am = irmeans.split_half(ap, "am", 200, seed=3)
    for spec in ("logit:1e13", "logit:1e300", "gm:1e13", "hm:1e13", "hm:1e300"):
        np.testing.assert_array_equal(irmeans.split_half(ap, spec, 200, seed=3), am)


# --- the arithmetic mean: trec_eval's order of additions, and no overflow --------------------

finite = st.floats(allow_nan=False, allow_infinity=False)
huge = st.floats(1e300, MAX)


@given(st.lists(finite, min_size=1, max_size=30))
def test_the_arithmetic_mean_of_any_finite_scores_is_finite_and_between_them(x):
    m = irmeans.arithmetic_mean(x)
    assert within(m, x, slack=1e-15 * len(x))


@given(st.lists(st.floats(-1e300, 1e300), min_size=1, max_size=30))
def test_a_finite_sum_is_added_in_order_to_the_last_bit(x):
    with np.errstate(all="ignore"):
        total = np.cumsum(np.array(x))[-1]
    assume(math.isfinite(total))
    # within the scores, as every average is kept: equal scores give that score back (3v / 3 may round off v;
    # the newest hypothesis draws [7.110096217117034e-301] * 3, where it does)
    assert irmeans.arithmetic_mean(x) == min(max(total / len(x), min(x)), max(x))


@given(st.lists(st.one_of(huge, huge.map(lambda v: -v)), min_size=1, max_size=20), st.integers(0, 60))
def test_an_overflowing_sum_keeps_its_order_of_additions(x, extra):
    # the same scores scaled down by 2^k (exact) have a finite sum: the mean scaled back is the same
    k = len(x).bit_length() + 1 + extra
    m = irmeans.arithmetic_mean(x)
    with np.errstate(all="ignore"):
        assume(not math.isfinite(np.cumsum(np.array(x))[-1]))  # the sum in order does overflow
        scaled = np.cumsum(np.ldexp(np.array(x), -k))[-1] / len(x)
    assert m == np.clip(np.ldexp(scaled, k), min(x), max(x))


def test_overflow_along_an_axis_touches_only_the_lanes_that_overflow():
    x = np.array([[MAX, MAX, 1.0], [0.1, 0.2, 0.3]])
    out = irmeans.arithmetic_mean(x, axis=1)
    assert out[1] == (0.1 + 0.2 + 0.3) / 3
    assert out[0] == pytest.approx((2 * (MAX / 3)) + 1 / 3, rel=1e-15)
    assert irmeans.median([MAX, MAX]) == MAX and irmeans.median([-MAX, MAX, MAX, -MAX]) == 0.0


# --- the other averages over their whole domain -------------------------------------------

non_negative = st.floats(0, MAX)
positive = st.floats(TINY, MAX)
unit = st.floats(0, 1)
eps_values = st.one_of(st.just(0.0), st.floats(TINY, 1e300))


@given(st.lists(non_negative, min_size=1, max_size=20), eps_values, st.sampled_from(["add", "floor", "zeros"]))
def test_a_geometric_mean_is_finite_and_between_its_scores(x, eps, form):
    assume(form == "add" or eps > 0)
    m = GM(eps=eps, form=form)(x)
    bounds = np.maximum(x, eps) if form == "floor" else np.where(np.array(x) == 0, eps, x) if form == "zeros" else x
    assert within(m, bounds, slack=1e-12)


@given(st.lists(positive, min_size=1, max_size=20), eps_values)
def test_a_harmonic_mean_is_finite_and_between_its_scores(x, eps):
    m = HM(eps=eps)(x)
    assert within(m, x, slack=1e-12)
    if eps == 0:
        assert m > 0  # the harmonic mean of subnormal scores is not 0


@given(st.lists(unit, min_size=1, max_size=20), st.floats(TINY, 1e300))
def test_a_logit_mean_is_between_its_scores(x, eps):
    # on [0, 1], to a few units in the last place of 1: the log-odds themselves are rounded to
    # that (mapped back, log(ε / (1 + ε)) rounded gives 1e-17 rather than 0)
    m = Logit(eps=eps)(x)
    assert within(m, x, slack=1e-12, absolute=1e-15)


@given(st.lists(unit, min_size=1, max_size=20), st.floats(1e9, 1e300))
def test_with_a_huge_eps_the_logit_and_the_eps_means_tend_to_the_arithmetic_mean(x, eps):
    am = irmeans.arithmetic_mean(x)
    for average in (Logit(eps=eps), GM(eps=eps), HM(eps=eps)):
        assert abs(average(x) - am) <= 1e-12 + 2.0 / eps


@given(st.floats(0, 1), st.integers(1, 20), st.floats(0, 1e300))
def test_equal_scores_average_to_themselves(v, n, eps):
    x = [v] * n
    for average in (AM(), Median(), GM(eps=eps)):
        assert average(x) == pytest.approx(v, rel=1e-12, abs=1e-300)
    if eps > 0 or 0 < v < 1:
        assert Logit(eps=eps)(x) == pytest.approx(v, rel=1e-12, abs=1e-15)
    if v > 0 or eps > 0:
        assert HM(eps=eps)(x) == pytest.approx(v, rel=1e-12, abs=1e-300)


@given(st.lists(finite, min_size=1, max_size=20))
def test_a_median_of_any_finite_scores_is_finite(x):
    assert within(irmeans.median(x), x, slack=0)


def test_scores_near_one_with_a_tiny_eps_keep_their_log_odds():
    # −1 + ε rounds to −1 for ε below 1e-16: the log-odds of 1 must still be finite
    assert irmeans.means.log_odds([1.0], eps=1e-20)[0] == pytest.approx(math.log((1 + 1e-20) / 1e-20))
    assert irmeans.logit_mean([1.0, 0.5], eps=1e-20) == pytest.approx(1 - 1e-10, abs=1e-14)


# --- what is averaged ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scores",
    [
        ["0.5", "0.1"],
        ["1_0", "0"],
        [b"0.5"],
        [0.5, "0.1"],
        [0.5, None],
        [0.5, 1 + 0j],
        np.array([1 + 2j]),
        np.array([1], dtype="timedelta64[s]"),
        [datetime.datetime(2024, 1, 1)],
        [[0.1, 0.2], [0.3]],
        [{"a": 1}],
    ],
)
def test_only_real_numbers_are_averaged(scores):
    for average in (AM(), GM(eps=0.01), HM(eps=0.01), Median(), Logit(eps=0.01)):
        with pytest.raises(IrmeansError, match="score must be numbers"):
            average(scores)


def test_real_numbers_of_any_type_are_averaged_as_they_are():
    assert irmeans.arithmetic_mean([fractions.Fraction(1, 4), np.float32(0.25), 0.25, np.int8(0)]) == 0.1875
    assert irmeans.arithmetic_mean(np.array([True, False])) == 0.5
    with pytest.raises(IrmeansError, match="fit in a double"):
        irmeans.arithmetic_mean([10**400, 1])


# --- measures at their edges ----------------------------------------------------------------


@given(st.lists(st.integers(-3, 5000), min_size=1, max_size=30), st.integers(0, 5))
def test_err_is_a_probability_for_any_grades(grades, extra):
    top = max(max(grades), 0) + extra
    err = measures.expected_reciprocal_rank(grades, max_grade=top)
    assert 0.0 <= err <= 1.0
    if top <= 50:  # the textbook formula, where 2^g is exact
        stop = [(2.0 ** max(g, 0) - 1) / 2.0**top for g in grades]
        expected, reach = 0.0, 1.0
        for r, p in enumerate(stop, start=1):
            expected += reach * p / r
            reach *= 1 - p
        assert err == pytest.approx(expected, rel=1e-12, abs=1e-300)


@given(st.lists(st.integers(0, 3), min_size=1, max_size=15), st.lists(st.integers(0, 3), max_size=15))
def test_ndcg_with_judgments_that_hold_the_ranking_is_at_most_one(rels, unretrieved):
    judged = rels + unretrieved
    assert 0.0 <= measures.ndcg(rels, judged=judged) <= 1.0


@given(st.lists(st.integers(0, 3), min_size=1, max_size=15), st.lists(st.integers(0, 3), min_size=1, max_size=15))
def test_ndcg_either_refuses_judgments_or_stays_at_most_one(rels, judged):
    shown, held = sorted(rels, reverse=True), sorted(judged, reverse=True) + [0] * len(rels)
    if all(a <= b for a, b in zip(shown, held)):
        assert measures.ndcg(rels, judged=judged) <= 1.0 + 1e-15
    else:
        with pytest.raises(IrmeansError, match="judged holds"):
            measures.ndcg(rels, judged=judged)


@pytest.mark.parametrize("level", [float("nan"), float("inf"), None, "1", True, [1]])
def test_a_level_that_is_not_a_finite_number_is_refused(level):
    for measure in (
        measures.average_precision,
        measures.reciprocal_rank,
        lambda r, level: measures.precision_at(r, 2, level=level),
        lambda r, level: measures.recall_at(r, 2, level=level),
        measures.r_precision,
        measures.precision_recall_points,
    ):
        with pytest.raises(IrmeansError, match="level must be a finite number"):
            measure([1, 0, 2], level=level)
