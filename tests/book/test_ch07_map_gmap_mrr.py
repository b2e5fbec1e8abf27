"""Chapter 7's figure tables equal the library's means and scipy's tests; the chart is valid and interactive."""

import io

import irmeans
import numpy as np
import pandas as pd
import pytest
from irmeans_book import plots, robertson
from irmeans_book.chapters import ch07_map_gmap_mrr as verdicts
from scipy import stats

GAINS = np.round(np.arange(0, 1.0001, 0.05), 2)
LOSSES = np.round(np.arange(0, 0.9501, 0.05), 2)


@pytest.fixture(scope="module")
def baseline():
    return robertson.load_example()


@pytest.fixture(scope="module")
def tables(baseline):
    return verdicts.verdicts_table(baseline, GAINS, LOSSES)


def test_the_change_raises_easy_topics_and_lowers_hard_ones(baseline):
    easy = verdicts.easy_topics(baseline)
    assert easy.sum() == baseline.size // 2 and baseline[easy].min() >= baseline[~easy].max()
    new = verdicts.feedback_scores(baseline, 0.3, 0.4)
    assert (new[easy] >= baseline[easy]).all() and (new[~easy] <= baseline[~easy]).all()
    assert ((new >= 0) & (new <= 1)).all()
    np.testing.assert_array_equal(verdicts.feedback_scores(baseline, 0.0, 0.0), baseline)


def test_the_factors_are_seeded():
    np.testing.assert_array_equal(verdicts.change_factors(50), verdicts.change_factors(50))
    assert not np.array_equal(verdicts.change_factors(50), verdicts.change_factors(50, seed=1))


def test_stacked_settings_equal_one_at_a_time(baseline):
    stack = verdicts.feedback_scores(baseline, np.array([0.1, 0.5]), np.array([0.2, 0.9]))
    np.testing.assert_array_equal(stack[1], verdicts.feedback_scores(baseline, 0.5, 0.9))


@pytest.mark.parametrize("gain, loss", [(0.0, 0.0), (0.2, 0.3), (0.05, 0.95), (1.0, 0.0), (0.45, 0.6)])
def test_grid_equals_the_library_and_scipy(baseline, tables, gain, loss):
    grid, topics, base = tables
    row = grid[np.isclose(grid.gain, gain) & np.isclose(grid.loss, loss)].iloc[0]
    new = verdicts.feedback_scores(baseline, gain, loss)
    eps = verdicts.EPS
    assert row["map"] == pytest.approx(irmeans.arithmetic_mean(new), abs=5e-5)
    assert row.gmap == pytest.approx(irmeans.geometric_mean(new, eps=eps), abs=5e-5)
    if gain or loss:
        t_ap = stats.ttest_rel(new, baseline)
        t_log = stats.ttest_rel(np.log(new + eps), np.log(baseline + eps))
        assert row.t_ap == pytest.approx(t_ap.statistic, abs=5e-5) and row.p_ap == pytest.approx(t_ap.pvalue, abs=5e-5)
        assert row.t_log == pytest.approx(t_log.statistic, abs=5e-5)
        assert row.p_log == pytest.approx(t_log.pvalue, abs=5e-5)
    else:
        assert (row.t_ap, row.p_ap, row.verdict) == (0, 1, 0)
    d_map = irmeans.arithmetic_mean(new) - irmeans.arithmetic_mean(baseline)
    d_gmap = irmeans.geometric_mean(new, eps=eps) - irmeans.geometric_mean(baseline, eps=eps)
    if gain or loss:
        assert (
            verdicts.VERDICTS[row.verdict]
            == {
                (True, True): "MAP and GMAP: better",
                (True, False): "MAP better, GMAP worse",
                (False, True): "MAP worse, GMAP better",
                (False, False): "MAP and GMAP: worse",
            }[(d_map > 0, d_gmap > 0)]
        )
    # The per-topic row holds the new scores in order of baseline score.
    shown = topics[np.isclose(topics.gain, gain) & np.isclose(topics.loss, loss)].iloc[0]
    order = np.argsort(baseline, kind="stable")
    np.testing.assert_allclose([shown[f"s{k}"] for k in range(1, 51)], new[order], atol=5e-5)
    np.testing.assert_array_equal(base.baseline, baseline[order])


def test_the_grid_covers_every_setting_once(tables):
    grid, topics, _ = tables
    assert len(grid) == len(GAINS) * len(LOSSES) == len(topics)
    assert not grid.duplicated(["gain", "loss"]).any()


def test_chart_binds_two_sliders_over_the_grid(baseline):
    spec = plots.to_spec(verdicts.verdicts_chart(baseline, GAINS, LOSSES), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["gain"]["input"] == binds["loss"]["input"] == "range"
    assert (binds["gain"]["min"], binds["gain"]["max"], binds["gain"]["step"]) == (0, 1, 0.05)
    assert (binds["loss"]["min"], binds["loss"]["max"], binds["loss"]["step"]) == (0, 0.95, 0.05)
    assert len(str(spec)) < 2_000_000


def test_rank_shares(tmp_path):
    table = verdicts.rank_shares({"X": [1] * 9 + [500], "Y": [2] * 10})
    x = table[(table.system == "X") & (table.average == "Mean rank")]
    assert x["mean"].iloc[0] == pytest.approx(50.9) and x.share.iloc[-1] == pytest.approx(500 / 509)
    mrr = table[(table.system == "X") & (table.average == "MRR")]
    assert mrr["mean"].iloc[0] == pytest.approx(irmeans.arithmetic_mean(1 / np.array([1] * 9 + [500])))
    assert table.groupby(["system", "average"]).share.sum().round(12).eq(1).all()
    plots.to_spec(verdicts.rank_shares_chart({"X": [1, 500], "Y": [2, 2]}), "alt")


def test_describe_and_controls(baseline):
    text = verdicts.describe_verdicts(baseline, 0.2, 0.3)
    assert text.splitlines()[-1] == "verdict: MAP better, GMAP worse"
    live = verdicts.feedback_controls(baseline)
    assert [w.description for w in live.widgets.values()] == ["Gain, easy", "Loss, hard"]
    first = live.figure.spec
    assert first["description"] == text
    live.widgets["gain"].value = 0.5  # the Jupyter controls redraw the site's chart at the new setting
    assert live.figure.spec != first
    assert live.figure.spec["description"] == verdicts.describe_verdicts(baseline, 0.5, 0.3)
    assert {p["name"]: p["value"] for p in live.figure.spec["params"]} == {"gain": 0.5, "loss": 0.3}


def test_chart_numbers_are_rounded_once_to_the_decimals_printed():
    baseline = robertson.load_example()
    spec = plots.to_spec(verdicts.verdicts_chart(baseline, GAINS, LOSSES), "alt")
    (csv,) = [v for v in spec["datasets"].values() if isinstance(v, str) and v.startswith("gain,loss,map")]
    page = pd.read_csv(io.StringIO(csv))
    # The reference is computed here, with the library's means and scipy's paired t-test, and rounded once.
    eps = verdicts.EPS
    new = verdicts.feedback_scores(baseline, page.gain.to_numpy(), page.loss.to_numpy())
    unchanged = (page.gain == 0) & (page.loss == 0)
    t_ap = stats.ttest_rel(new[~unchanged], baseline, axis=1)
    t_log = stats.ttest_rel(np.log(new[~unchanged] + eps), np.log(baseline + eps), axis=1)
    expected = {
        "map": irmeans.arithmetic_mean(new, axis=1),
        "gmap": irmeans.geometric_mean(new, eps=eps, axis=1),
        "t_ap": np.zeros(len(page)),
        "p_ap": np.ones(len(page)),
        "t_log": np.zeros(len(page)),
        "p_log": np.ones(len(page)),
    }
    for key, result in (("ap", t_ap), ("log", t_log)):
        expected[f"t_{key}"][~unchanged] = result.statistic
        expected[f"p_{key}"][~unchanged] = result.pvalue
    for column, decimals in {"map": 4, "gmap": 4, "t_ap": 2, "p_ap": 4, "t_log": 2, "p_log": 4}.items():
        np.testing.assert_allclose(page[column], np.round(expected[column], decimals), rtol=0, atol=1e-12)


def test_disagreeing_pairs_on_robust_2004_are_every_opposite_pair():
    from irmeans import datasets
    from irmeans.averages import AM, GM

    m = datasets.load("robust2004", "ap")
    s = np.array(m.scores)
    pairs = verdicts.disagreeing_pairs(m)
    am, gm = AM()(s, axis=1), GM(eps=1e-5, form="floor")(s, axis=1)
    opposite = {
        (m.systems[i], m.systems[j]) if am[i] > am[j] else (m.systems[j], m.systems[i])
        for i in range(len(am))
        for j in range(i + 1, len(am))
        if (am[i] - am[j]) * (gm[i] - gm[j]) < 0
    }
    assert set(zip(pairs.map_higher, pairs.gmap_higher)) == opposite
    d = (pairs.map_a - pairs.map_b).to_numpy()
    assert (np.diff(d) <= 1e-15).all()
    # Leaving out `flip` of B's best topics makes GMAP side with MAP; one fewer does not.
    row = pairs.iloc[0]
    a, b = m.systems.index(row.map_higher), m.systems.index(row.gmap_higher)
    adv = np.log(np.maximum(s[b], 1e-5)) - np.log(np.maximum(s[a], 1e-5))
    best = np.sort(adv)[::-1]
    assert adv.sum() - best[: row.flip].sum() < 0 <= adv.sum() - best[: row.flip - 1].sum()


def test_the_controls_sliders_are_the_site_figures(baseline):
    live = verdicts.feedback_controls(baseline)
    for name, grid, values in (
        ("gain", verdicts.GAIN_GRID, verdicts.GAINS),
        ("loss", verdicts.LOSS_GRID, verdicts.LOSSES),
    ):
        widget = live.widgets[name]
        assert (widget.min, widget.max, widget.step) == (grid.start, grid.stop, grid.step)
        assert (values[0], values[-1]) == (grid.start, grid.stop)
    assert (live.widgets["gain"].value, live.widgets["loss"].value) == (verdicts.GAIN, verdicts.LOSS)
