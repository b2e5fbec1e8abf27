"""Averages as values: each is the teaching function it wraps, readable, and read back from its spec."""

import numpy as np
import pytest
from irmeans import means
from irmeans.averages import AM, GM, HM, TREC_EVAL_GM, Average, Logit, Median, parse_average, parse_averages
from irmeans.errors import IrmeansError

SCORES = np.array([[0.0, 0.4, 0.2, 0.4, 0.3], [0.1, 0.1, 0.3, 0.8, 0.1]])

CASES = [
    (AM(), lambda x, axis: means.arithmetic_mean(x, axis=axis)),
    (GM(eps=0.01), lambda x, axis: means.geometric_mean(x, eps=0.01, axis=axis)),
    (GM(eps=1e-5, form="floor"), lambda x, axis: means.geometric_mean(x, eps=1e-5, form="floor", axis=axis)),
    (GM(eps=1e-5, form="zeros"), lambda x, axis: means.geometric_mean(x, eps=1e-5, form="zeros", axis=axis)),
    (HM(eps=0.01), lambda x, axis: means.harmonic_mean(x, eps=0.01, axis=axis)),
    (Median(), lambda x, axis: means.median(x, axis=axis)),
    (Logit(eps=0.01), lambda x, axis: means.logit_mean(x, eps=0.01, axis=axis)),
]


@pytest.mark.parametrize("average, function", CASES, ids=[c[0].spec for c in CASES])
def test_an_average_is_its_function(average, function):
    np.testing.assert_array_equal(average(SCORES, axis=1), function(SCORES, 1))
    assert average(SCORES[1]) == function(SCORES[1], None)


@pytest.mark.parametrize("average", [c[0] for c in CASES], ids=[c[0].spec for c in CASES])
def test_spec_reads_back_to_an_equal_value(average):
    again = parse_average(average.spec)
    assert again == average and hash(again) == hash(average)
    assert parse_average(average) is average


def test_values_are_immutable_and_compare_by_parameters():
    gm = GM(eps=0.01)
    with pytest.raises(AttributeError):
        gm.eps = 0.1
    assert GM(eps=0.01) != GM(eps=0.01, form="floor") != GM(eps=0.02)
    assert AM() != Median() and isinstance(AM(), Average)
    assert len({AM(), AM(), GM(0.01), GM(eps=0.01)}) == 2


def test_labels_name_the_average_and_its_eps():
    assert AM().label == "AM"
    assert GM(eps=0.01).label == "εGM (ε = 0.01)"
    assert GM().label == "GM"
    assert TREC_EVAL_GM.label == "GM, trec_eval floor (ε = 1e-05)"
    assert HM(eps=0.01).label == "εHM (ε = 0.01)"
    assert Median().label == "median"
    assert Logit(eps=0.01).label == "logit (ε = 0.01)"
    assert str(GM(eps=0.01)) == GM(eps=0.01).label


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("am", AM()),
        ("AM", AM()),
        (" gm:0.01 ", GM(eps=0.01)),
        ("gm:0", GM()),
        ("gm:-0", GM()),
        ("hm:0.01", HM(eps=0.01)),
        ("logit:0", Logit()),
        ("gm:0x1p-7", GM(eps=2**-7)),  # C's syntax, as every number irmeans reads
        ("gm-floor", GM(eps=1e-5, form="floor")),
        ("gm-floor:1e-3", GM(eps=1e-3, form="floor")),
        ("gm-zeros", GM(eps=1e-5, form="zeros")),
        ("hm:.5", HM(eps=0.5)),
        ("median", Median()),
        ("logit:1E-2", Logit(eps=0.01)),
    ],
)
def test_parse_average(spec, expected):
    assert parse_average(spec) == expected


@pytest.mark.parametrize(
    "spec, message",
    [
        ("mean", "unknown average"),
        ("gm:1_0", "not a finite number >= 0"),
        ("gm:0_5", "not a finite number >= 0"),
        ("gm: 0.1", "not a finite number >= 0"),
        ("gm:nan", "not a finite number >= 0"),
        ("gm:inf", "not a finite number >= 0"),
        ("gm:1e999", "not a finite number >= 0"),
        ("gm:-0.1", "not a finite number >= 0"),
        ("gm:", "not a finite number >= 0"),
        ("median:0.1", "takes no ε"),
        ("am:1", "takes no ε"),
        ("gm-floor:0", "needs eps > 0"),
        # GM() is the plain GM, the book advises 0.01: a spec says which
        ("gm", r"average 'gm' names no ε: write gm:0.01 \(the ε chapter 10 advises\) or gm:0 \(GM\(\), ε = 0\)"),
        ("HM", r"names no ε: write hm:0.01 .* or hm:0 \(HM\(\), ε = 0\)"),
        ("logit", r"names no ε: write logit:0.01 .* or logit:0 \(Logit\(\), ε = 0\)"),
        (np.mean, "an average is a spec"),
        (3, "an average is a spec"),
    ],
)
def test_bad_specs_raise_one_clear_error(spec, message):
    with pytest.raises(IrmeansError, match=message):
        parse_average(spec)


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf"), "0.1", True, None])
def test_bad_eps_is_refused_when_the_value_is_made(bad):
    with pytest.raises(IrmeansError, match="eps"):
        GM(eps=bad)
    with pytest.raises(IrmeansError, match="eps"):
        HM(eps=bad)


def test_unknown_form_is_refused():
    with pytest.raises(IrmeansError, match="form must be"):
        GM(eps=0.01, form="log")


# --- Every spec reads back into its average; every average lies within its scores ---------

from hypothesis import given  # noqa: E402
from hypothesis import strategies as st

EPS = st.floats(min_value=0, allow_nan=False, allow_infinity=False)


@given(eps=EPS, kind=st.sampled_from(["gm", "gm-floor", "gm-zeros", "hm", "logit"]))
def test_every_spec_reads_back_into_its_average_whatever_its_eps(eps, kind):
    made = {
        "gm": lambda: GM(eps=eps),
        "gm-floor": lambda: GM(eps=eps, form="floor"),
        "gm-zeros": lambda: GM(eps=eps, form="zeros"),
        "hm": lambda: HM(eps=eps),
        "logit": lambda: Logit(eps=eps),
    }
    if kind in ("gm-floor", "gm-zeros") and eps == 0:
        return
    average = made[kind]()
    assert parse_average(average.spec) == average
    assert average.spec.startswith(kind + ":")


def test_two_averages_are_one_only_if_their_specs_are():
    a, b = GM(eps=0.01000001), GM(eps=0.01)
    assert a != b and a.spec != b.spec and a.label != b.label
    assert parse_averages(["gm:0.01000001", "gm:0.01", "gm:1e-2"]) == [a, b]


def _domain(average):
    """Scores the average takes: [0, 1] for the logit (its ends need ε > 0), >= 0 for GM and HM."""
    if isinstance(average, Logit):
        return st.floats(0, 1) if average.eps else st.floats(1e-300, 1 - 1e-16)
    if isinstance(average, (GM, HM)):
        if isinstance(average, HM) and not average.eps or isinstance(average, GM) and average.form != "add":
            return st.floats(1e-300, 1e300)
        return st.floats(0, 1e300)
    return st.floats(-1e300, 1e300)


AVERAGES = [AM(), Median(), GM(), GM(eps=0.01), GM(eps=1.0), GM(eps=1e6), GM(eps=1e-5, form="floor"),
            GM(eps=1e-5, form="zeros"), HM(), HM(eps=0.01), HM(eps=5.0), Logit(), Logit(eps=0.01), Logit(eps=1.0)]  # fmt: skip


@given(data=st.data(), k=st.integers(1, 12))
def test_every_average_lies_within_its_scores_and_equal_scores_give_that_score(data, k):
    for average in AVERAGES:
        scores = data.draw(st.lists(_domain(average), min_size=1, max_size=k), label=average.spec)
        value = average(scores)
        x = np.array(scores)  # the floor and zeros forms average scores lifted to ε
        form = getattr(average, "form", "add")
        x = (
            np.maximum(x, average.eps)
            if form == "floor"
            else np.where(x == 0, average.eps, x)
            if form == "zeros"
            else x
        )
        assert x.min() <= value <= x.max(), (average, scores, value)
        same = [scores[0]] * k
        assert average(same) == x[0], (average, same)


def test_the_logit_of_tiny_equal_scores_is_that_score():
    # the case: log-odds of 1e-20 with ε = 0.01 came back as 6.87e-18, and 0 with ε = 1
    assert Logit(eps=0.01)([1e-20, 1e-20]) == 1e-20
    assert Logit(eps=1.0)([1e-20, 1e-20]) == 1e-20
    assert Logit(eps=0.01)(np.array([[1e-20, 1e-20], [0.0, 0.0]]), axis=1).tolist() == [1e-20, 0.0]
