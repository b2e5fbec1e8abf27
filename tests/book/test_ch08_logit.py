"""Chapter 8's figure tables equal the library's means; the charts are valid and interactive."""

import json

import irmeans
import numpy as np
import pytest
from irmeans_book import plots
from irmeans_book.chapters import ch08_logit as logit


def test_log_odds_is_the_scale_of_the_logit_mean():
    x = np.array([0.0, 0.2, 0.7, 1.0])
    for eps in (1e-3, 0.1):
        assert irmeans.logit_mean(x, eps=eps) == pytest.approx(
            float(np.clip(((1 + eps) * np.exp(m := np.mean(logit.log_odds(x, eps))) - eps) / (1 + np.exp(m)), 0, 1))
        )
        np.testing.assert_allclose(logit.log_odds(1 - x, eps), -logit.log_odds(x, eps))
    assert logit.log_odds(0.9) == pytest.approx(np.log(9))


@pytest.mark.parametrize("dataset", list(logit.DATASETS))
@pytest.mark.parametrize("eps", [1e-5, 1e-2])
def test_averages_table_equals_the_means(dataset, eps):
    topics, table = logit.averages_table()
    rows = table[(table.dataset == dataset) & (table.eps == eps)]
    systems = {s: np.array(v) for s, v in logit.DATASETS[dataset].items()}
    expected = {
        "arithmetic mean": {s: irmeans.arithmetic_mean(x) for s, x in systems.items()},
        "geometric mean": {s: irmeans.geometric_mean(x, eps=eps) for s, x in systems.items()},
        "logit mean": {s: irmeans.logit_mean(x, eps=eps) for s, x in systems.items()},
    }
    for average, values in expected.items():
        got = rows[rows.average == average].set_index("system")
        for s, v in values.items():
            assert got.loc[s, "value"] == pytest.approx(v, abs=1e-6)
        assert set(got.winner) == {max(values, key=values.get)}
    # The mean on each scale is the mean of the per-topic values shown on that scale.
    shown = topics[(topics.dataset == dataset) & (topics.eps == eps)]
    for scale, average in logit.SCALES.items():
        for s in systems:
            on_scale = rows[(rows.average == average) & (rows.system == s)].on_scale.item()
            assert on_scale == pytest.approx(shown[(shown.scale == scale) & (shown.system == s)].value.mean(), abs=1e-5)
    np.testing.assert_allclose(
        shown[(shown.scale == "logit(score, ε)") & (shown.system == "X")].value,
        logit.log_odds(systems["X"], eps),
        atol=1e-6,
    )


def test_the_ndcg_data_set_splits_the_means():
    _, table = logit.averages_table()
    row = table[(table.dataset == "nDCG: easy and middling topics") & (table.eps == 1e-3) & (table.system == "X")]
    assert row.set_index("average").winner.to_dict() == {
        "arithmetic mean": "X",
        "geometric mean": "X",
        "logit mean": "Y",
    }


def test_charts_bind_their_controls():
    spec = plots.to_spec(logit.logit_chart(), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["dataset"]["options"] == list(logit.DATASETS)
    assert binds["scale"]["options"] == list(logit.SCALES)
    assert binds["eps"]["options"] == logit.EPS_OPTIONS
    spec = plots.to_spec(logit.curves_chart(), "alt")
    assert spec["params"][0]["bind"]["options"] == logit.EPS_OPTIONS
    assert len(str(spec)) < 2_000_000


def test_curves_table():
    t = logit.curves_table([0.01], n_points=11)
    lo = t[t.scale == "logit"]
    np.testing.assert_allclose(lo.y, logit.log_odds(np.linspace(0, 1, 11), 0.01))


def test_describe_and_controls():
    text = logit.describe_logit("nDCG: easy and middling topics", 1e-3)
    assert [line.split()[-1] for line in text.splitlines()] == ["X", "X", "Y"]
    live = logit.logit_controls()
    assert [w.description for w in live.widgets.values()] == ["Data set", "Scale", "ε"]
    live.widgets["dataset"].value = "Spam filters: daily accuracy"
    live.widgets["scale"].value = "score"
    params = {p["name"]: p["value"] for p in live.figure.spec["params"]}
    assert params["dataset"] == "Spam filters: daily accuracy" and params["scale"] == "score"
    assert live.figure.spec["description"] == logit.describe_logit("Spam filters: daily accuracy", 1e-3)


def test_the_logit_is_the_librarys_and_the_averages_are_library_values():
    from irmeans import means
    from irmeans.averages import AM, GM, Logit

    assert logit.log_odds is means.log_odds
    assert logit.averages(0.01) == {
        "arithmetic mean": AM(),
        "geometric mean": GM(eps=0.01),
        "logit mean": Logit(eps=0.01),
    }


def test_the_spam_filters_view_names_days_and_separates_the_averages():
    spec = plots.to_spec(logit.logit_chart(initial={"dataset": "Spam filters: daily accuracy"}), "alt")
    left, right = spec["hconcat"]
    # The x axis is not titled "Topic" for days: the panel's title says what a score is of.
    assert left["layer"][0]["encoding"]["x"]["title"] is None
    assert "Day" in left["title"]["text"]["expr"] and "Topic" in left["title"]["text"]["expr"]
    # The averages are dots on an axis fitted to them, not bars from 0 (which look identical at 0.999).
    marks = [layer["mark"]["type"] for layer in right["layer"]]
    assert "bar" not in marks and "point" in marks
    assert right["layer"][0]["encoding"]["x"]["scale"]["zero"] is False


def test_charts_print_their_numbers():
    # The first figure prints both curves at the scores 0 and 1; the second both systems' three averages.
    assert "score 0 → log" in json.dumps(plots.to_spec(logit.curves_chart(), "alt"), ensure_ascii=False)
    assert "format(datum.X, '.4f')" in json.dumps(plots.to_spec(logit.logit_chart(), "alt"))
    # Printed, the averages are rounded once: the table keeps them unrounded.
    _, table = logit.averages_table()
    row = table.query("dataset == 'nDCG: easy and middling topics' and eps == 1e-5 and system == 'Y'")
    y = np.array(logit.DATASETS["nDCG: easy and middling topics"]["Y"])
    assert row.set_index("average").value["geometric mean"] == irmeans.geometric_mean(y, eps=1e-5)


def test_the_controls_eps_are_the_site_figures():
    """The ipywidgets ε offers the site's select's values, and starts where the chapter's figure does."""
    live = logit.logit_controls()
    assert list(live.widgets["eps"].options) == [(f"{e:g}", e) for e in logit.EPS_OPTIONS]
    assert live.widgets["eps"].value == logit.EPS
    site = {p["name"]: p["value"] for p in logit.logit_figure().spec["params"]}
    assert site["eps"] == logit.EPS


def test_the_figures_and_controls_follow_the_chapters_data():
    """A reader's data sets, marks and ε: the figures and the controls once kept the book's whatever the cells said."""
    mine = {"mine": {"X": [0.5, 0.9, 0.97], "Y": [0.6, 0.8, 0.99]}, "other": {"X": [0.1], "Y": [0.2]}}
    spec = logit.logit_figure(mine, eps=0.003).spec
    params = {p["name"]: p for p in spec["params"]}
    assert params["dataset"]["value"] == "mine" and params["dataset"]["bind"]["options"] == ["mine", "other"]
    assert params["eps"]["value"] == 0.003 and 0.003 in params["eps"]["bind"]["options"]
    assert (
        "0.97" in json.dumps(spec["datasets"])
        and "For mine, its scores on logit(score, ε), at ε = 0.003" in spec["description"]
    )
    curves = logit.curves_figure([0.123, 0.777], eps=0.02).spec  # off the curves' grid of 0.005
    dots = {row["x"] for rows in curves["datasets"].values() for row in rows if "x" in row}
    assert {0.123, 0.777} <= dots and curves["params"][0]["value"] == 0.02
    live = logit.logit_controls(mine, eps=0.003)
    assert live.widgets["eps"].value == 0.003 and live.widgets["dataset"].options == ("mine", "other")
    assert live.figure.spec["description"] == logit.describe_logit("mine", 0.003, mine)
