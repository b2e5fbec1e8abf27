"""The means across topics: published tables, edge cases, and properties."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from irmeans import (
    TREC_EVAL_GM_EPS,
    arithmetic_mean,
    geometric_mean,
    harmonic_mean,
    logit_mean,
    median,
)

# Ravana & Moffat (2009), Table 1: scores of four systems on five topics and
# the published aggregates to 3 decimals (ε = 0.01 in the ε columns; None
# where the paper prints a dash because the harmonic mean is undefined).
RAVANA_MOFFAT_TABLE_1 = [
    ("S1", [0.1, 0.1, 0.3, 0.8, 0.1], 0.280, 0.189, 0.192, 0.145, 0.148, 0.100),
    ("S2", [0.0, 0.4, 0.2, 0.4, 0.3], 0.260, 0.000, 0.151, None, 0.034, 0.300),
    ("S3", [0.1, 0.5, 0.3, 0.2, 0.2], 0.260, 0.227, 0.228, 0.197, 0.200, 0.200),
    ("S4", [0.2, 0.2, 0.3, 0.2, 0.2], 0.220, 0.217, 0.217, 0.214, 0.214, 0.200),
]


@pytest.mark.parametrize("name, x, am, gm, egm, hm, ehm, md", RAVANA_MOFFAT_TABLE_1)
def test_ravana_moffat_table_1(name, x, am, gm, egm, hm, ehm, md):
    assert round(arithmetic_mean(x), 3) == am
    assert round(geometric_mean(x), 3) == gm
    assert round(geometric_mean(x, eps=0.01), 3) == egm
    if hm is None:
        with pytest.raises(ValueError, match="eps"):
            harmonic_mean(x)
    else:
        assert round(harmonic_mean(x), 3) == hm
    assert round(harmonic_mean(x, eps=0.01), 3) == ehm
    assert round(median(x), 3) == md


def test_table_1_along_an_axis():
    scores = np.array([row[1] for row in RAVANA_MOFFAT_TABLE_1])
    got = geometric_mean(scores, eps=0.01, axis=1)
    assert got.shape == (4,)
    assert np.round(got, 3).tolist() == [row[4] for row in RAVANA_MOFFAT_TABLE_1]
    assert np.round(arithmetic_mean(scores, axis=1), 3).tolist() == [row[2] for row in RAVANA_MOFFAT_TABLE_1]
    assert np.round(median(scores.T, axis=0), 3).tolist() == [row[7] for row in RAVANA_MOFFAT_TABLE_1]


@pytest.mark.parametrize("eps, published", [(1e-5, 0.039), (0.01, 0.157)])
def test_trec_eval_floor_form_on_s2(eps, published):
    s2 = RAVANA_MOFFAT_TABLE_1[1][1]
    assert round(geometric_mean(s2, eps=eps, form="floor"), 3) == published


def test_floor_form_is_trec_eval_gm_map():
    ap = [0.0, 0.5, 1e-7, 0.2]
    expected = math.exp(sum(math.log(max(v, 1e-5)) for v in ap) / 4)
    assert geometric_mean(ap, eps=TREC_EVAL_GM_EPS, form="floor") == pytest.approx(expected, rel=1e-15)


def test_zero_sends_plain_geometric_mean_to_zero():
    assert geometric_mean([0.0, 0.9, 0.9]) == 0.0


def test_additive_form_by_hand():
    x = [0.0, 0.4, 0.2, 0.4, 0.3]
    by_hand = math.exp(sum(math.log(v + 0.01) for v in x) / 5) - 0.01
    assert geometric_mean(x, eps=0.01) == pytest.approx(by_hand, rel=1e-14)


def test_harmonic_with_eps_by_hand():
    x = [0.0, 0.4, 0.2]
    assert harmonic_mean(x, eps=0.01) == pytest.approx(3 / sum(1 / (v + 0.01) for v in x) - 0.01, rel=1e-14)


def test_logit_mean_by_hand():
    x = [0.2, 0.9]
    logits = [math.log(v / (1 - v)) for v in x]
    y = sum(logits) / 2
    assert logit_mean(x) == pytest.approx(1 / (1 + math.exp(-y)), rel=1e-14)


def test_logit_mean_with_eps_keeps_zero_and_one_finite():
    eps = 0.01
    x = [0.0, 1.0, 0.5]
    y = sum(math.log((v + eps) / (1 - v + eps)) for v in x) / 3
    back = ((1 + eps) * math.exp(y) - eps) / (1 + math.exp(y))
    assert logit_mean(x, eps=eps) == pytest.approx(back, rel=1e-12)
    assert logit_mean([0.0, 0.0], eps=eps) == pytest.approx(0.0, abs=1e-15)
    assert logit_mean([1.0, 1.0], eps=eps) == pytest.approx(1.0, abs=1e-15)


def test_logit_mean_extreme_values_do_not_overflow():
    assert logit_mean([1 - 1e-15, 1 - 1e-15]) == pytest.approx(1 - 1e-15, abs=1e-15)
    assert logit_mean([1e-300, 1e-300]) == pytest.approx(1e-300, rel=1e-6)


@pytest.mark.parametrize("mean", [arithmetic_mean, geometric_mean, harmonic_mean, median, logit_mean])
def test_empty_input_is_an_error(mean):
    with pytest.raises(ValueError, match="empty"):
        mean([])


@pytest.mark.parametrize("mean", [arithmetic_mean, geometric_mean, harmonic_mean, median, logit_mean])
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_input_names_the_index(mean, bad):
    with pytest.raises(ValueError, match="index 2"):
        mean([0.1, 0.2, bad, 0.3])


@pytest.mark.parametrize("mean", [geometric_mean, harmonic_mean])
def test_negative_input_names_the_index(mean):
    with pytest.raises(ValueError, match=r"index 1 is -0\.1"):
        mean([0.1, -0.1, 0.3], eps=0.01)


def test_error_index_in_two_dimensions():
    with pytest.raises(ValueError, match=r"index \(1, 0\)"):
        geometric_mean([[0.1, 0.2], [-0.5, 0.3]], axis=1)


@pytest.mark.parametrize("bad", [-0.01, 1.01])
def test_logit_needs_unit_interval(bad):
    with pytest.raises(ValueError, match=r"index 1 .*\[0, 1\]"):
        logit_mean([0.5, bad], eps=0.01)


@pytest.mark.parametrize("edge", [0.0, 1.0])
def test_logit_without_eps_rejects_zero_and_one(edge):
    with pytest.raises(ValueError, match="eps"):
        logit_mean([0.5, edge])


def test_harmonic_zero_message_suggests_eps():
    with pytest.raises(ValueError, match=r"index 0 is 0.*eps > 0"):
        harmonic_mean([0.0, 0.5])


def test_bad_eps_and_form():
    with pytest.raises(ValueError, match="eps"):
        geometric_mean([0.5], eps=-1)
    with pytest.raises(ValueError, match="form must be 'add', 'floor' or 'zeros', got 'multiply'"):
        geometric_mean([0.5], form="multiply")
    with pytest.raises(ValueError, match=r"form='floor' needs eps > 0"):
        geometric_mean([0.5], form="floor")


def test_the_form_has_one_name():
    with pytest.raises(TypeError, match="method"):
        geometric_mean([0.0, 0.5], eps=0.01, method="floor")


def test_empty_axis_is_an_error():
    with pytest.raises(ValueError, match="axis 1"):
        arithmetic_mean(np.zeros((3, 0)), axis=1)


def test_scalars_come_back_as_float():
    assert type(arithmetic_mean([0.5, 0.25])) is float
    assert isinstance(geometric_mean([[0.5, 0.25]], axis=1), np.ndarray)


# Properties ----------------------------------------------------------------

scores = arrays(np.float64, st.integers(1, 30), elements=st.floats(0.0, 1.0))
positive = arrays(np.float64, st.integers(1, 30), elements=st.floats(1e-6, 1.0))
epsilons = st.floats(1e-6, 1.0)


def every_mean(eps):
    """Each mean of the library with its ε where it takes one, as (function, kwargs)."""
    return [
        (arithmetic_mean, {}),
        (geometric_mean, {"eps": eps}),
        (harmonic_mean, {"eps": eps}),
        (median, {}),
        (logit_mean, {"eps": eps}),
    ]


@given(scores, epsilons)
def test_gm_never_exceeds_am(x, eps):
    assert geometric_mean(x, eps=eps) <= arithmetic_mean(x) + 1e-12
    assert geometric_mean(x) <= arithmetic_mean(x) + 1e-12


@given(positive)
def test_hm_never_exceeds_gm(x):
    assert harmonic_mean(x) <= geometric_mean(x) + 1e-12


@given(scores, epsilons)
def test_ehm_never_exceeds_egm(x, eps):
    assert harmonic_mean(x, eps=eps) <= geometric_mean(x, eps=eps) + 1e-12


@given(scores)
def test_additive_gm_tends_to_am_as_eps_grows(x):
    am = arithmetic_mean(x)
    gaps = [am - geometric_mean(x, eps=eps) for eps in (0.01, 1.0, 100.0, 1e4)]
    assert all(g >= -1e-9 for g in gaps)
    assert all(b <= a + 1e-9 for a, b in zip(gaps, gaps[1:]))
    assert gaps[-1] < 1e-4


@given(scores, st.integers(0, 29), st.floats(0.0, 0.5), epsilons)
def test_each_mean_is_monotone_in_every_input(x, i, delta, eps):
    i = i % x.size
    y = x.copy()
    y[i] = min(1.0, y[i] + delta)
    for mean, kw in every_mean(eps) + [(geometric_mean, {"eps": eps, "form": "floor"})]:
        assert mean(y, **kw) >= mean(x, **kw) - 1e-12, mean.__name__


@given(scores, st.randoms(use_true_random=False), epsilons)
def test_permuting_topics_changes_no_mean(x, rnd, eps):
    y = x.copy()
    rnd.shuffle(y)
    for mean, kw in every_mean(eps):
        assert mean(y, **kw) == pytest.approx(mean(x, **kw), rel=1e-12, abs=1e-15)


@given(st.floats(0.0, 1.0), st.integers(1, 20), epsilons)
def test_every_mean_of_equal_scores_is_that_score(v, n, eps):
    x = np.full(n, v)
    for mean, kw in every_mean(eps):
        assert mean(x, **kw) == pytest.approx(v, rel=1e-9, abs=1e-12)
