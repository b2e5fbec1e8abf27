"""Chapter 9's tables are the library's split-half test on the real TREC-8 runs; its charts are valid and only pick rows."""

import json

import numpy as np
import pytest
from irmeans import consistency, datasets
from irmeans_book.figures import split_half
from irmeans_book.plots import to_spec
from scipy import stats


@pytest.fixture(scope="module")
def ap():
    return split_half.trec8()


def test_trec8_is_the_shipped_matrix(ap):
    np.testing.assert_array_equal(ap, datasets.load("adhoc8", "ap").scores)
    assert ap.shape == (129, 50)


def test_low_shares_count_zeros_and_scores_up_to_a_tenth():
    assert split_half.low_shares([[0.0, 0.1, 0.1000001], [0.2, 0.0, 0.05]]) == (2 / 6, 4 / 6)


def test_score_density_bins_hold_every_score_and_the_low_share():
    bars, summary = split_half.score_density_table(bins=20)
    for name, group in bars.groupby("matrix"):
        assert group.share.sum() == pytest.approx(1, abs=2e-5)
        low = group[group.hi <= 0.1 + 1e-12].share.sum()
        assert low == pytest.approx(summary.set_index("matrix").loc[name, "low"], abs=2e-5)
    assert bars.matrix.nunique() == len(datasets.catalog())
    spec = to_spec(split_half.score_density_chart(bars, summary), "alt")
    assert spec["params"][0]["bind"]["input"] == "select"


def test_difficulty_table_is_the_librarys_equations(ap):
    t = split_half.difficulty_table()
    d8 = t[t.collection == datasets.load("adhoc8", "ap").label]
    np.testing.assert_allclose(d8.eq1, np.round(1 - ap.mean(axis=0), 6))
    eq2 = (ap.max(axis=0) - ap.mean(axis=0)) / ap.std(axis=0, ddof=1)
    np.testing.assert_allclose(d8.eq2, np.round(eq2, 6))
    hardest = np.argsort(-eq2, kind="stable")[:25]
    assert set(np.flatnonzero(d8.hard_eq2.to_numpy())) == set(hardest)
    to_spec(split_half.difficulty_chart(t), "alt")


def test_table_3c_fixed_cells_and_paper_columns(ap):
    t = split_half.table_3c(ap, n_splits=50)
    labels = list(split_half.TABLE_AVERAGES)
    for (scores, split), paper in split_half.PAPER_TABLE_3C.items():
        assert t.loc[(scores, split), [f"paper: {a}" for a in labels]].tolist() == list(paper)
    for split in ("hard-easy", "middle-rest"):
        first, second = consistency.make_halves(ap, split)
        for label, avg in split_half.TABLE_AVERAGES.items():
            a, b = avg(ap[:, first[0]], axis=1), avg(ap[:, second[0]], axis=1)
            assert t.loc[("AP", split), label] == pytest.approx(stats.kendalltau(a, b).statistic, abs=1e-12)


def test_sp_split_variants_cover_both_readings(ap):
    v = split_half.sp_split_variants(ap)
    assert len(v) == 8 and set(v["difficulty from"]) == {"SP", "AP"} and set(v.ddof) == {0, 1}
    sp = consistency.standardize(ap, ddof=1)
    first, second = consistency.make_halves(ap, "hard-easy")
    row = v[(v.ddof == 1) & (v["difficulty from"] == "AP") & (v.split == "hard-easy")].iloc[0]
    assert row["AM"] == pytest.approx(consistency.halves_tau(sp, "am", first, second)[0], abs=1e-15)


def test_tau_sweep_is_split_half_on_the_same_splits(ap):
    curve, density, taus = split_half.tau_sweep(ap, n_splits=40, eps_grid=[1e-3, 0.1])
    np.testing.assert_array_equal(taus[("AM", None)], consistency.split_half(ap, "am", 40, seed=split_half.SEED))
    np.testing.assert_array_equal(taus[("εHM", -1.0)], consistency.split_half(ap, "hm:0.1", 40, seed=split_half.SEED))
    gm = curve[(curve.average == "εGM") & (curve.log_eps == -3.0)].mean_tau.iloc[0]
    assert gm == round(float(consistency.split_half(ap, "gm:0.001", 40, seed=split_half.SEED).mean()), 6)
    for _, group in density.groupby(["average", "log_eps"], dropna=False):
        assert group.share.sum() == pytest.approx(1, abs=1e-5)
    spec = to_spec(split_half.sweep_chart(curve, density, -1.0), "alt")
    assert [p["name"] for p in spec["params"]] == ["logeps"]
    assert len(json.dumps(spec)) < 200_000
