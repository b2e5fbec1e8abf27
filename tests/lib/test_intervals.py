"""Intervals for a split-half experiment's mean τ, over splits and over topics (irmeans.consistency.intervals)."""

import math

import irmeans
import numpy as np
import pytest
from irmeans import consistency, datasets
from irmeans.consistency.experiment import _HalvesTau
from irmeans.consistency.intervals import Interval, _bias_corrected, parse_spec, spec_label, tau_intervals
from irmeans.errors import IrmeansError
from scipy import stats


@pytest.fixture(scope="module")
def trec8():
    return np.array(datasets.load("adhoc8", "ap").scores)


@pytest.fixture(scope="module")
def report(trec8):
    return tau_intervals(trec8, ["gm:0.01", "am", "std-am", "median"], 400, seed=3, n_bootstrap=60, bootstrap_splits=10)


def test_the_splits_are_split_half_s_with_the_same_seed(trec8, report):
    for spec in ("am", "gm:0.01", "median"):
        np.testing.assert_array_equal(report.taus[spec], irmeans.split_half(trec8, spec, 400, seed=3))
    std = irmeans.standardize(trec8, constant="half")
    np.testing.assert_array_equal(report.taus["std-am"], irmeans.split_half(std, "am", 400, seed=3))
    assert list(report.rows) == ["gm:0.01", "am", "std-am", "median"]


def test_the_interval_over_splits_is_the_mean_give_or_take_z_standard_errors(report):
    z = stats.norm.ppf(0.975)
    for label, row in report.rows.items():
        t = report.taus[label]
        half = z * t.std(ddof=1) / math.sqrt(len(t))
        assert row.mean == pytest.approx(t.mean(), abs=1e-15)
        assert (row.over_splits.low, row.over_splits.high) == pytest.approx((t.mean() - half, t.mean() + half))
        assert (row.spread.low, row.spread.high) == pytest.approx(tuple(np.quantile(t, [0.025, 0.975])))
        assert row.splits == 400 and row.undefined == 0


def test_differences_are_paired_split_by_split(report):
    am = report.taus["am"]
    z = stats.norm.ppf(0.975)
    for label in ("gm:0.01", "std-am", "median"):
        row, d = report.rows[label], report.taus[label] - am
        assert row.difference == pytest.approx(d.mean(), abs=1e-15)
        assert (row.higher, row.lower) == ((d > 0).sum(), (d < 0).sum())
        half = z * d.std(ddof=1) / math.sqrt(len(d))
        assert row.difference_over_splits.low == pytest.approx(d.mean() - half)
    assert report.rows["am"].difference is None and report.baseline == "am"


def test_the_intervals_over_topics_are_reproducible_and_wider(trec8, report):
    again = tau_intervals(
        trec8, ["gm:0.01", "am", "std-am", "median"], 400, seed=3, n_bootstrap=60, bootstrap_splits=10
    )
    assert again.rows == report.rows
    for row in report.rows.values():
        assert row.over_topics.low < row.over_splits.low and row.over_splits.high < row.over_topics.high
        assert row.over_topics.high - row.over_topics.low > 0.02  # fifty topics leave a lot open
    other = tau_intervals(trec8, ["am"], 400, seed=4, n_bootstrap=60, bootstrap_splits=10)
    assert other.rows["am"].over_topics != report.rows["am"].over_topics


def test_a_resample_s_halves_are_halves_of_the_resampled_matrix(trec8):
    # The bootstrap gives each resample's splits as topic indices of the whole matrix, a topic
    # drawn twice appearing twice: the τ is that of the resampled matrix split the same way.
    rng = np.random.default_rng(0)
    columns = rng.integers(0, 50, 50)
    first, second = irmeans.draw_halves(50, 30, rng=1)
    for spec in ("am", "gm:0.01", "median", "logit:0.01"):
        average = irmeans.parse_average(spec)
        direct = irmeans.halves_tau(trec8[:, columns], spec, first, second)
        out = np.empty(30)
        _HalvesTau(trec8, average)(columns[first], columns[second], out)
        np.testing.assert_array_equal(out, direct)


def test_the_bias_corrected_interval_by_hand():
    r = np.arange(1, 1001) / 1000.0  # replicates 0.001 ... 1
    # observed at the median of the replicates: no correction, the plain percentile interval
    i = _bias_corrected(r, 0.5005, 0.95)
    assert (i.low, i.high) == pytest.approx(tuple(np.quantile(r, [0.025, 0.975])))
    # replicates biased upwards: 84 % of them below the observed value moves the interval up
    i = _bias_corrected(r, 0.8415, 0.95)
    z0 = stats.norm.ppf(0.8415)
    expected = np.quantile(r, [stats.norm.cdf(2 * z0 - 1.959964), stats.norm.cdf(2 * z0 + 1.959964)])
    assert (i.low, i.high) == pytest.approx(tuple(expected), abs=2e-3)
    assert _bias_corrected(np.array([np.nan, 0.5]), 0.5, 0.95) is None


def test_the_split_by_difficulty_follows_the_chosen_scores(trec8):
    # Chapter 9: Ravana & Moffat's 0.739 for the AM of standardized AP on the Hard/Easy split is
    # reproduced with difficulty from the standardized scores; from the raw scores it is 0.705.
    own = tau_intervals(trec8, ["am", "std-am"], split="hard-easy", n_bootstrap=0)
    raw = tau_intervals(trec8, ["am", "std-am"], split="hard-easy", n_bootstrap=0, difficulty_from="raw")
    std = tau_intervals(trec8, ["am", "std-am"], split="hard-easy", n_bootstrap=0, difficulty_from="standardized")
    assert round(own.rows["std-am"].mean, 3) == 0.739 and round(raw.rows["std-am"].mean, 3) == 0.705
    assert round(own.rows["am"].mean, 3) == round(raw.rows["am"].mean, 3) == 0.719
    assert std.rows["std-am"].mean == own.rows["std-am"].mean and std.rows["am"].mean != own.rows["am"].mean
    assert own.rows["am"].over_splits is None and own.rows["am"].spread is None and own.n_splits == 1
    booted = tau_intervals(trec8, ["am", "std-am"], split="hard-easy", n_bootstrap=40, seed=1)
    assert booted.rows["std-am"].mean == own.rows["std-am"].mean
    assert booted.rows["std-am"].over_topics is not None and booted.rows["std-am"].difference_over_topics is not None


def test_without_a_bootstrap_there_is_no_interval_over_topics(trec8):
    r = tau_intervals(trec8, ["am", "gm:0.01"], 50, seed=0, n_bootstrap=0)
    assert r.rows["am"].over_topics is None and r.rows["gm:0.01"].difference_over_topics is None
    assert r.bootstrap_splits == 0 and list(r.rows) == ["am", "gm:0.01"]


def test_the_baseline_is_computed_when_not_asked_for(trec8):
    r = tau_intervals(trec8, ["median"], 60, seed=0, n_bootstrap=0)
    assert list(r.rows) == ["median"] and "am" in r.taus
    d = r.taus["median"] - r.taus["am"]
    assert r.rows["median"].difference == pytest.approx(d.mean())
    r = tau_intervals(trec8, ["median", "gm:0.01"], 60, seed=0, n_bootstrap=0, baseline="gm:0.01")
    assert r.rows["gm:0.01"].difference is None and r.baseline == "gm:0.01"


def test_splits_without_a_tau_are_left_out_of_every_mean():
    rows = [[0.1, 0.9, 0.3, 0.3, 0.4, 0.5], [0.2, 0.8, 0.3, 0.3, 0.4, 0.5], [0.5, 0.5, 0.5, 0.5, 0.5, 0.6]]
    r = tau_intervals(rows, ["am", "median"], 200, seed=0, n_bootstrap=20, bootstrap_splits=10)
    t = r.taus["am"]
    assert r.rows["am"].undefined == int(np.isnan(t).sum()) and r.rows["am"].mean == pytest.approx(np.nanmean(t))
    assert all(math.isfinite(v) for v in (r.rows["am"].over_topics.low, r.rows["am"].over_topics.high))


def test_to_frame_has_a_row_per_average(report):
    frame = report.to_frame()
    assert list(frame.index) == list(report.rows)
    assert frame.loc["gm:0.01", "over_topics_low"] == report.rows["gm:0.01"].over_topics.low
    assert frame.loc["gm:0.01", "difference"] == report.rows["gm:0.01"].difference


def test_specs_read_back_with_their_eps():
    assert spec_label("gm:1e-2") == "gm:0.01" and spec_label("STD-hm:0.01") == "std-hm:0.01"
    assert parse_spec(irmeans.GM(eps=0.5)) == (irmeans.GM(eps=0.5), False)
    assert Interval(0.1, 0.3).__contains__(0.2)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"averages": []}, "averages is empty"),
        ({"averages": ["mean"]}, "unknown average"),
        ({"averages": [3]}, "an average is a spec"),
        ({"split": "odd"}, "split must be one of"),
        ({"difficulty": "eq3"}, "difficulty must be one of"),
        ({"difficulty_from": "both"}, "difficulty_from must be one of"),
        ({"n_bootstrap": -1}, "n_bootstrap must be a whole number >= 0"),
        (
            {"n_bootstrap": 1},
            "1 bootstrap resample gives an interval of a single point: give 0 \\(none\\) or at least 2",
        ),
        ({"bootstrap_splits": 0}, "bootstrap_splits must be a whole number >= 1"),
        ({"level": 1.0}, "level must be between 0 and 1"),
        ({"n_splits": 2**40}, "n_splits=1099511627776 is more than"),
        ({"seed": -1}, "seed must be a whole number >= 0"),
    ],
)
def test_bad_arguments_are_named(kwargs, message):
    args = {"scores": [[0.1, 0.2, 0.3], [0.3, 0.1, 0.2]], "averages": ["am"], **kwargs}
    with pytest.raises(IrmeansError, match=message):
        tau_intervals(**args)


def test_the_library_no_longer_offers_a_test_across_splits_in_the_command():
    import irmeans.cli.consistency_command as command

    assert "wilcoxon" not in command.__doc__.lower() and "t-test" not in command.__doc__.lower()
    assert consistency.split_half is irmeans.split_half


def test_one_average_given_as_a_string_is_one_average(trec8):
    # it was read letter by letter: "unknown average 'a'"
    r = tau_intervals(trec8, "am", 30, seed=0, n_bootstrap=0)
    assert list(r.rows) == ["am"]
