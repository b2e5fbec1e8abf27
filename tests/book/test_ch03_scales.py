"""Chapter 3's figure tables equal the library's means; the chart is valid and bound to its controls."""

import irmeans
import numpy as np
import pytest
from irmeans_book import plots
from irmeans_book.chapters import ch03_scales as scales
from scipy.stats import rankdata

A = [0.95, 0.90, 0.15, 0.12, 0.10, 0.05]
B = [0.40, 0.35, 0.30, 0.25, 0.20, 0.18]
LOWEST = np.round(np.arange(1, 31) / 100, 2)


@pytest.fixture(scope="module")
def tables():
    return scales.transform_table(A, B, LOWEST)


def test_table_has_every_setting(tables):
    topics, summary = tables
    assert len(summary) == LOWEST.size * len(scales.TRANSFORMS) * 2
    assert len(topics) == LOWEST.size * len(scales.TRANSFORMS) * 2 * len(A)


@pytest.mark.parametrize("low", [0.01, 0.05, 0.24, 0.25, 0.3])
def test_table_equals_the_library(tables, low):
    _, summary = tables
    a = np.array(A[:-1] + [low])
    rows = summary[np.isclose(summary.lowest, low)].set_index(["transform", "system"])
    assert rows.loc[("identity", "A"), "mean"] == pytest.approx(irmeans.arithmetic_mean(a))
    # The mean of the logs is the log of the geometric mean; mapped back, it is the GM.
    assert rows.loc[("log", "A"), "mean"] == pytest.approx(np.log(irmeans.geometric_mean(a)))
    assert rows.loc[("log", "A"), "back"] == pytest.approx(irmeans.geometric_mean(a))
    assert rows.loc[("log", "B"), "back"] == pytest.approx(irmeans.geometric_mean(B))
    assert rows.loc[("logit", "A"), "back"] == pytest.approx(irmeans.logit_mean(a))
    ranks = rankdata(np.concatenate([a, B]))
    assert rows.loc[("rank", "A"), "mean"] == pytest.approx(ranks[:6].mean())
    assert np.isnan(rows.loc[("rank", "A"), "back"])
    for t in scales.TRANSFORMS:
        ma, mb = rows.loc[(t, "A"), "mean"], rows.loc[(t, "B"), "mean"]
        assert rows.loc[(t, "A"), "winner"] == ("A" if ma > mb else "B")


def test_transformations_keep_each_topics_winner():
    for t in scales.TRANSFORMS:
        ta, tb = scales.transform(A, B, t)
        np.testing.assert_array_equal(ta > tb, np.array(A) > np.array(B))


def test_log_and_logit_refuse_scores_they_cannot_take():
    with pytest.raises(ValueError):
        scales.transform([0.0, 0.5], [0.5, 0.5], "log")
    with pytest.raises(ValueError):
        scales.transform([1.0, 0.5], [0.5, 0.5], "logit")
    with pytest.raises(ValueError):
        scales.transform(A, B, "square")


def test_chart_binds_a_select_and_a_slider():
    spec = plots.to_spec(scales.transform_chart(A, B, LOWEST, initial_lowest=0.05), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["scale"]["input"] == "select" and binds["scale"]["options"] == list(scales.TRANSFORMS)
    assert binds["lowest"]["input"] == "range" and (binds["lowest"]["min"], binds["lowest"]["max"]) == (0.01, 0.3)
    assert len(plots.embed_html(spec).encode()) < 1_000_000


def test_doubling_steps_are_equal_on_the_log_scale():
    t = scales.doubling_table().set_index(["scale", "change"])["size"]
    assert t[("log score", "0.05 → 0.1")] == pytest.approx(t[("log score", "0.25 → 0.5")])
    assert t[("raw score", "0.25 → 0.5")] == pytest.approx(5 * t[("raw score", "0.05 → 0.1")])
    plots.to_spec(scales.doubling_chart(), "alt")


def test_live_description_agrees_with_the_table(tables):
    _, summary = tables
    line = scales.describe_transform(A, B, "log")
    row = summary[np.isclose(summary.lowest, 0.05) & (summary["transform"] == "log")].set_index("system")
    assert f"A {row.loc['A', 'back']:.4f}, B {row.loc['B', 'back']:.4f}" in line
    assert line.split("-> ")[1].startswith(f"{row.loc['A', 'winner']} is higher")


def test_bars_start_below_every_mean_so_the_higher_mean_is_the_taller_bar(tables):
    # On the log scale the means are negative: bars hanging down from 0 made the higher mean the shorter bar.
    _, summary = tables
    assert (summary["floor"] <= summary["mean"]).all() and (summary["floor"] <= 0).all()
    assert (summary.query("transform == 'log'")["mean"] < 0).all()
    assert summary.groupby("transform")["floor"].nunique().eq(1).all()  # one floor per scale: bars comparable
    spec = plots.to_spec(scales.transform_chart(A, B, LOWEST), "alt")
    bars = spec["hconcat"][1]["vconcat"][0]
    assert bars["mark"]["type"] == "bar" and bars["encoding"]["y2"]["field"] == "floor"


def test_exercise_on_the_rank_scale_starts_the_slider_where_the_figure_does():
    import json
    from pathlib import Path

    notebook = Path(__file__).resolve().parents[2] / "chapters" / "03-scales.ipynb"
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    text = next("".join(c["source"]) for c in cells if "ex-ch3-rank" in "".join(c["source"]))
    # The figure's slider starts at A's last score, 0.05: the exercise must not say it starts at 0.01.
    assert "move the slider up from 0.01" not in text and "down to 0.01" in text


def test_transform_controls_redraw_the_site_figure():
    live = scales.transform_controls(A, B)
    params = lambda: {p["name"]: p["value"] for p in live.figure.spec["params"]}  # noqa: E731
    assert params() == {"lowest": 0.05, "scale": "identity"}
    live.widgets["name"].value = "log"
    live.widgets["last"].value = 0.25
    assert params() == {"lowest": 0.25, "scale": "log"}
    assert live.figure.spec["description"] == scales.describe_transform(A[:-1] + [0.25], B, "log")
    assert all("bind" not in p for p in live.figure.spec["params"]) and "hconcat" in live.figure.spec


def test_the_doubling_figure_draws_the_changes_it_is_given():
    """Fig. 3.1 once drew its two doublings whatever the chapter's cell said."""
    fig = scales.doubling_figure([(0.1, 0.2), (0.4, 0.6)])
    values = {
        round(v, 6)
        for rows in fig.spec["datasets"].values()
        for row in rows
        for v in row.values()
        if isinstance(v, float)
    }
    assert {0.1, 0.2, 0.4, 0.6, round(np.log(0.6) - np.log(0.4), 6)} <= values
    assert "from 0.4 to 0.6, a step of 0.2" in fig.spec["description"] and "not equal" in fig.spec["description"]
