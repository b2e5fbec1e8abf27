"""Averages as values: each is the teaching function it wraps, readable, and read back from its spec."""

import numpy as np
import pytest
from irmeans import means
from irmeans.averages import AM, GM, HM, TREC_EVAL_GM, Average, Logit, Median, parse_average
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
        ("gm", GM(eps=0.01)),  # the ε chapter 10 advises
        ("gm:0", GM()),
        ("gm:-0", GM()),
        ("hm", HM(eps=0.01)),
        ("logit", Logit(eps=0.01)),
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
