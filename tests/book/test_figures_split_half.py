"""Chapter 9's tables are the library's split-half test; its charts are valid and only pick rows."""

import io
import json

import numpy as np
import pandas as pd
import pytest
from irmeans import consistency, means, simulate
from irmeans_book.figures import split_half
from irmeans_book.plots import to_spec


def test_collection_is_the_simulated_preset():
    np.testing.assert_array_equal(
        split_half.collection("TREC2001", 3), simulate.simulate_collection("TREC2001", seed=3)
    )


@pytest.mark.parametrize("preset", split_half.PRESET_NAMES)
def test_collections_have_the_published_shares_of_low_scores(preset):
    ap = split_half.collection(preset, 4)
    shares = simulate.PRESETS[preset]
    assert (ap == 0).sum() == round(shares["zero_share"] * ap.size)
    assert (ap <= 0.1).sum() == round(shares["low_share"] * ap.size)


def test_topic_difficulty_is_the_mean_over_systems():
    ap = split_half.collection("TREC9", 1)
    np.testing.assert_allclose(split_half.topic_difficulty(ap), ap.mean(axis=0))


def test_difficulty_table_sorts_topics_hardest_first():
    t = split_half.difficulty_table([2], ["TREC9"])
    ap = split_half.collection("TREC9", 2)
    d = ap.mean(axis=0)
    np.testing.assert_allclose(t.difficulty, np.sort(d))
    assert t.zero_share.iloc[0] == pytest.approx((ap[:, np.argmin(d)] == 0).mean())
    assert t["rank"].tolist() == list(range(1, 51))


@pytest.mark.parametrize("label", list(split_half.AVERAGES))
def test_split_taus_are_split_half_with_the_average(label):
    ap = split_half.collection("TREC8", 2)
    average, standardized = split_half.AVERAGES[label]
    scores = consistency.standardize(ap) if standardized else ap
    expected = consistency.split_half(scores, average, 30, seed=5)
    np.testing.assert_array_equal(split_half.split_taus(ap, label, 30, split_seed=5), expected)


def test_experiment_table_rows_are_mean_taus():
    t = split_half.experiment_table(["TREC9", "TREC8"], [1, 2], 25, split_seed=3, averages=["AM", "εGM, ε = 0.01"])
    assert len(t) == 2 * 2 * 2
    row = t.query("preset == 'TREC8' and seed == 2 and average == 'εGM, ε = 0.01'").iloc[0]
    taus = consistency.split_half(split_half.collection("TREC8", 2), "gm:0.01", 25, seed=3)
    assert row.mean_tau == pytest.approx(taus.mean())
    assert (t.n_splits == 25).all()


def test_summary_pools_the_seeds():
    t = split_half.experiment_table(["TREC2001"], [1, 2, 3], 20, averages=["AM"])
    s = split_half.summary_table(t).iloc[0]
    assert s.mean_tau == pytest.approx(t.mean_tau.mean())
    assert s.seed_min == t.mean_tau.min() and s.seed_max == t.mean_tau.max()
    assert s.n_splits == 60


def test_histogram_shares_and_edges():
    taus = np.array([0.0, 0.01, 0.5, 0.51, 0.999, 1.0])
    h = split_half.histogram_table(taus)
    assert h.share.sum() == pytest.approx(1.0)
    assert h.set_index("lo").share.loc[0.0] == pytest.approx(2 / 6)
    assert h.set_index("lo").share.loc[0.98] == pytest.approx(2 / 6)  # 1.0 falls in the last bin
    assert (h.hi - h.lo).round(6).eq(0.02).all()
    with pytest.raises(ValueError, match="outside the bins"):
        split_half.histogram_table([-0.1, 0.5])


def test_eps_grid_is_half_decades_with_trec_evals_and_the_usual_eps():
    np.testing.assert_allclose(np.log10(split_half.EPS_GRID), np.arange(-5, 0.01, 0.5))
    assert means.TREC_EVAL_GM_EPS in split_half.EPS_GRID and 0.01 in split_half.EPS_GRID


@pytest.fixture(scope="module")
def small_sweep():
    return split_half.sweep(["TREC9", "TREC8"], [1, 2], 30, eps_grid=[1e-4, 0.01, 1.0], split_seed=4)


def test_sweep_curve_is_the_geometric_mean_of_each_eps(small_sweep):
    curve, _ = small_sweep
    row = curve.query("preset == 'TREC9' and average == 'εGM' and log_eps == -2").iloc[0]
    per_seed = [consistency.split_half(split_half.collection("TREC9", s), "gm:0.01", 30, seed=4).mean() for s in (1, 2)]
    assert row.mean_tau == pytest.approx(np.mean(per_seed))
    assert row.seed_min == pytest.approx(min(per_seed)) and row.seed_max == pytest.approx(max(per_seed))
    am = curve.query("preset == 'TREC8' and average == 'AM'").iloc[0]
    assert np.isnan(am.eps)
    expected = np.mean([split_half.split_taus(split_half.collection("TREC8", s), "AM", 30, 4).mean() for s in (1, 2)])
    assert am.mean_tau == pytest.approx(expected)


def test_sweep_histograms_hold_every_split(small_sweep):
    curve, hist = small_sweep
    totals = hist.groupby(["preset", "average", "log_eps"], dropna=False).share.sum()
    np.testing.assert_allclose(totals.to_numpy(), 1.0)
    assert len(totals) == len(curve)


def test_sweep_chart_binds_a_select_and_a_slider_over_the_grid(small_sweep):
    curve, hist = small_sweep
    spec = to_spec(split_half.sweep_chart(curve, hist, "TREC9", -2.0), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["preset"]["options"] == ["TREC9", "TREC8"]
    assert (binds["logeps"]["min"], binds["logeps"]["max"]) == (-4.0, 0.0)
    # The slider's step reaches every ε of the grid, and only those.
    assert binds["logeps"]["step"] == 2.0
    text = json.dumps(spec)
    assert "datum.preset == preset" in text and "abs(datum.log_eps - logeps)" in text
    # A line of text prints the three mean τ at the chosen ε.
    assert "mean τ of εGM" in json.dumps(spec, ensure_ascii=False)


def test_sweep_chart_page_data_holds_the_histogram(small_sweep):
    curve, hist = small_sweep
    spec = to_spec(split_half.sweep_chart(curve, hist), "alt")
    data = spec["hconcat"][1]["data"]
    assert data["format"]["parse"] == {c: "number" for c in ("log_eps", "lo", "hi", "share", "kind")}
    page = pd.read_csv(io.StringIO(spec["datasets"][data["name"]]))
    assert len(page) == len(hist)
    assert set(page.kind) == {0, 1, 2}
    assert (page[page.kind < 2].log_eps == 99).all()


def test_full_sweep_page_stays_small():
    curve, hist = split_half.sweep(split_half.PRESET_NAMES, [1], 20)
    size = len(json.dumps(to_spec(split_half.sweep_chart(curve, hist), "alt")))
    # The chapter's figure has 1,000 splits per preset: the bins filled grow little with more splits.
    assert size < 200_000


def test_headline_chart_is_valid():
    t = split_half.experiment_table(["TREC9"], [1, 2], 10, averages=["AM", "standardized AM"])
    spec = to_spec(split_half.headline_chart(split_half.summary_table(t), t), "alt")
    assert spec["description"] == "alt"


def test_describe_split_half_reports_the_library_values():
    text = split_half.describe_split_half("TREC2001", 0.01, n_splits=40, seed=2, split_seed=3)
    ap = split_half.collection("TREC2001", 2)
    am = consistency.split_half(ap, "am", 40, seed=3)
    gm = consistency.split_half(ap, "gm:0.01", 40, seed=3)
    assert f"{am.mean():.4f}" in text and f"{gm.mean():.4f}" in text
    assert f"{np.mean(gm > am):.0%}" in text


def test_controls_build():
    import ipywidgets  # noqa: F401  (a hard requirement: fail, do not skip)

    widget = split_half.consistency_controls(n_splits=10)
    names = [getattr(c, "description", None) for c in widget.children]
    assert "Preset" in names and "ε" in names
