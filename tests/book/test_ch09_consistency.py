"""Chapter 9's tables are the library's split-half test on the real TREC-8 runs; its charts are valid and only pick rows."""

import json

import numpy as np
import pytest
from irmeans import consistency, datasets
from irmeans_book.chapters import ch09_consistency as ch09
from irmeans_book.plots import to_spec
from scipy import stats


@pytest.fixture(scope="module")
def ap():
    return ch09.trec8()


def test_trec8_is_the_shipped_matrix(ap):
    np.testing.assert_array_equal(ap, datasets.load("adhoc8", "ap").scores)
    assert ap.shape == (129, 50)


def test_low_shares_count_zeros_and_scores_up_to_a_tenth():
    assert ch09.low_shares([[0.0, 0.1, 0.1000001], [0.2, 0.0, 0.05]]) == (2 / 6, 4 / 6)


def test_score_density_bins_hold_every_score_and_the_low_share():
    bars, summary = ch09.score_density_table(bins=20)
    for name, group in bars.groupby("matrix"):
        assert group.share.sum() == pytest.approx(1, abs=2e-5)
        low = group[group.hi <= 0.1 + 1e-12].share.sum()
        assert low == pytest.approx(summary.set_index("matrix").loc[name, "low"], abs=2e-5)
    assert bars.matrix.nunique() == len(datasets.catalog())
    spec = to_spec(ch09.score_density_chart(bars, summary), "alt")
    assert spec["params"][0]["bind"]["input"] == "select"


def test_difficulty_table_is_the_librarys_equations(ap):
    t = ch09.difficulty_table()
    d8 = t[t.collection == datasets.load("adhoc8", "ap").label]
    np.testing.assert_allclose(d8.eq1, np.round(1 - ap.mean(axis=0), 6))
    eq2 = (ap.max(axis=0) - ap.mean(axis=0)) / ap.std(axis=0, ddof=1)
    np.testing.assert_allclose(d8.eq2, np.round(eq2, 6))
    hardest = np.argsort(-eq2, kind="stable")[:25]
    assert set(np.flatnonzero(d8.hard_eq2.to_numpy())) == set(hardest)
    to_spec(ch09.difficulty_chart(t), "alt")


def test_table_3c_fixed_cells_and_paper_columns(ap):
    t = ch09.table_3c(ap, n_splits=50)
    labels = list(ch09.TABLE_AVERAGES)
    for (scores, split), paper in ch09.PAPER_TABLE_3C.items():
        assert t.loc[(scores, split), [f"paper: {a}" for a in labels]].tolist() == list(paper)
    for split in ("hard-easy", "middle-rest"):
        first, second = consistency.make_halves(ap, split)
        for label, avg in ch09.TABLE_AVERAGES.items():
            a, b = avg(ap[:, first[0]], axis=1), avg(ap[:, second[0]], axis=1)
            assert t.loc[("AP", split), label] == pytest.approx(stats.kendalltau(a, b).statistic, abs=1e-12)


def test_sp_split_variants_cover_both_readings(ap):
    v = ch09.sp_split_variants(ap)
    assert len(v) == 8 and set(v["difficulty from"]) == {"SP", "AP"} and set(v.ddof) == {0, 1}
    sp = consistency.standardize(ap, ddof=1)
    first, second = consistency.make_halves(ap, "hard-easy")
    row = v[(v.ddof == 1) & (v["difficulty from"] == "AP") & (v.split == "hard-easy")].iloc[0]
    assert row["AM"] == pytest.approx(consistency.halves_tau(sp, "am", first, second)[0], abs=1e-15)


def test_tau_sweep_is_split_half_on_the_same_splits(ap):
    curve, density, taus = ch09.tau_sweep(ap, n_splits=40, eps_grid=[1e-3, 0.1])
    np.testing.assert_array_equal(taus[("AM", None)], consistency.split_half(ap, "am", 40, seed=ch09.SEED))
    np.testing.assert_array_equal(taus[("εHM", -1.0)], consistency.split_half(ap, "hm:0.1", 40, seed=ch09.SEED))
    gm = curve[(curve.average == "εGM") & (curve.log_eps == -3.0)].mean_tau.iloc[0]
    assert gm == round(float(consistency.split_half(ap, "gm:0.001", 40, seed=ch09.SEED).mean()), 6)
    for _, group in density.groupby(["average", "log_eps"], dropna=False):
        assert group.share.sum() == pytest.approx(1, abs=1e-5)
    spec = to_spec(ch09.sweep_chart(curve, density, -1.0), "alt")
    assert [p["name"] for p in spec["params"]] == ["logeps"]
    assert len(json.dumps(spec)) < 200_000


# The 46-matrix replication: every mean τ is split_half's on the same splits; the chart only picks rows.


@pytest.fixture(scope="module")
def replication_tables():
    return ch09.replication_tables(n_splits=30, matrices=["adhoc8_ap", "web2013_p10"], eps_grid=[1e-5, 0.01])


def test_mean_taus_are_split_half(replication_tables):
    long, wide = replication_tables
    assert list(wide.collection) == ["adhoc8", "web2013"]
    s = np.array(datasets.load("web2013", "p10").scores)
    row = wide[wide.collection == "web2013"].iloc[0]
    for column, scores, spec in (
        ("am", s, "am"),
        ("trec_gm", s, "gm-floor:1e-5"),
        ("gm_-2", s, "gm:0.01"),
        ("std_am", consistency.standardize(s, constant="half"), "am"),
    ):
        expected = np.nanmean(consistency.split_half(scores, spec, 30, seed=ch09.SEED))
        assert row[column] == round(float(expected), 6), column
    assert row["low"] == round(float((s <= 0.1).mean()), 6)
    assert len(long) == 2 * (3 + 2)


def test_chart_has_the_slider_and_the_select(replication_tables):
    _, wide = replication_tables
    spec = to_spec(ch09.replication_chart(wide, [1e-5, 0.01]), "alt")
    params = {p["name"]: p for p in spec["params"]}
    assert params["logeps"]["bind"]["min"] == -5 and params["logeps"]["bind"]["max"] == -2
    assert params["measure"]["bind"]["options"] == ["all", "AP", "P@10"]


def test_the_intervals_stored_at_the_defaults_are_what_the_function_makes(tmp_path):
    # The stored file (minutes of work for all 46 matrices) is write_default_intervals' output: two small matrices
    # made again give the same rows, and a row made with the chapter's smaller bootstrap does not.
    import pandas as pd

    stored = ch09.default_intervals()
    names = ["web2014_rr", "web2013_ndcg20"]
    made = ch09.write_default_intervals(tmp_path / "part.csv", matrices=names)
    again = pd.read_csv(tmp_path / "part.csv")
    rows = stored[stored.matrix.isin(set(made.matrix))].reset_index(drop=True)
    assert len(rows) == len(made) == 2 * len(ch09.INTERVAL_AVERAGES)
    pd.testing.assert_frame_equal(again, rows, check_exact=False, rtol=0, atol=1e-9)
    smaller = ch09.replication_intervals(matrices=names[:1]).iloc[0]
    assert abs(smaller.topics_low - rows.iloc[0].topics_low) > 1e-6


def test_the_stored_intervals_cover_every_shipped_matrix_and_average():
    stored = ch09.default_intervals()
    assert len(stored) == len(datasets.catalog()) * len(ch09.INTERVAL_AVERAGES)
    assert set(stored.average) == set(ch09.INTERVAL_AVERAGES.values())
    inside = (stored.topics_low <= stored.difference) & (stored.difference <= stored.topics_high)
    assert inside.all()
    verdicts = np.where(
        stored.topics_low > 0, "more consistent", np.where(stored.topics_high < 0, "less consistent", "undecided")
    )
    assert (verdicts == stored.verdict).all()
    note = (ch09.DEFAULT_INTERVALS.with_suffix(".md")).read_text(encoding="utf-8")
    assert "write_default_intervals()" in note and "1,000 resamples of 50 splits" in note


def test_the_resamples_of_the_bootstrap_hold_topics_twice(ap):
    # A resample drawn with replacement puts copies of a topic in both halves, and its τ runs high (chapter 9).
    means, shared = ch09.resampled_taus(ap, ["am"], 40, 10)
    observed = irmeans_split_mean(ap)
    assert shared > 1 and means["am"].mean() > observed


def irmeans_split_mean(ap):
    import irmeans

    return irmeans.split_half(ap, "am", 1000, seed=ch09.SEED).mean()


def test_the_papers_whole_table_3_is_as_printed():
    t = ch09.paper_table_3()
    assert len(t) == 18
    assert tuple(t.loc[("TREC9", "AP", "random")]) == (0.748, 0.819, 0.798)
    assert tuple(t.loc[("TREC2001", "SP", "middle-rest")]) == (0.798, 0.798, 0.816)
    assert tuple(t.loc[("TREC8", "SP", "hard-easy")]) == (0.739, 0.714, 0.680)


def test_spearmans_interval_has_fieller_hartley_and_pearsons_variance():
    # The standard error of arctanh(rho) is sqrt(1.06 / (n - 3)), not 1.06 / sqrt(n - 3) (which is 1.03 times it).
    for rho, n in ((0.0, 46), (-0.2, 11), (0.5, 30)):
        low, high = ch09.spearman_interval(rho, n)
        half = stats.norm.ppf(0.975) * np.sqrt(1.06 / (n - 3))
        assert np.tanh(np.arctanh(rho) - half) == pytest.approx(low)
        assert np.tanh(np.arctanh(rho) + half) == pytest.approx(high)
    wider = ch09.spearman_interval(0.0, 46, level=0.99)
    assert wider[1] > ch09.spearman_interval(0.0, 46)[1]


def test_the_form_and_the_eps_are_compared_one_at_a_time_on_the_same_splits(ap):
    t = ch09.form_and_eps_intervals(n_splits=40, n_bootstrap=10, bootstrap_splits=4, matrices=["adhoc8_ap"])
    assert list(t.comparison) == [name for name, _, _ in ch09.FORM_AND_EPS_COMPARISONS]
    taus = {
        spec: consistency.split_half(ap, spec, 40, seed=ch09.SEED).mean()
        for spec in ("gm:0.01", "gm:1e-5", "gm-floor:1e-5", "gm-floor:0.01")
    }
    by = t.set_index("comparison").difference
    for name, spec, baseline in ch09.FORM_AND_EPS_COMPARISONS:
        assert by[name] == pytest.approx(taus[spec] - taus[baseline], abs=1e-12), name
    assert set(t.verdict) <= {"higher", "lower", "undecided"}
    assert ((t.verdict == "higher") == (t.topics_low > 0)).all()
