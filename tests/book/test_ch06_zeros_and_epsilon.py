"""Chapter 6's figure table and worked examples equal the library's values; the chart is valid."""

import json
import math

import numpy as np
import pytest
from irmeans import means
from irmeans import measures as ranked
from irmeans.averages import GM
from irmeans_book import plots, robertson
from irmeans_book.chapters import ch06_zeros_and_epsilon as epsilon

ADD, FLOOR, AM, ITSELF = epsilon.FORMS


@pytest.fixture(scope="module")
def table():
    return epsilon.epsilon_table(epsilon.data_sets())


def pick(table, data_set, log10_eps, form):
    rows = table[(table.data_set == data_set) & np.isclose(table.log10_eps, log10_eps) & (table.form == form)]
    assert len(rows) == 1
    return rows.value.item()


def test_table_covers_every_setting(table):
    assert len(table) == 2 * len(epsilon.EXPONENTS) * len(epsilon.FORMS)
    assert table.log10_eps.min() == -8 and table.log10_eps.max() == 0
    assert not table.duplicated(["data_set", "log10_eps", "form"]).any()


@pytest.mark.parametrize("log10_eps", [-8.0, -5.0, -2.0, -0.7, 0.0])
@pytest.mark.parametrize("name", list(epsilon.data_sets()))
def test_table_equals_the_means(table, name, log10_eps):
    x = epsilon.data_sets()[name]
    eps = 10.0**log10_eps
    assert pick(table, name, log10_eps, ADD) == pytest.approx(means.geometric_mean(x, eps, "add"), rel=1e-12)
    assert pick(table, name, log10_eps, FLOOR) == pytest.approx(means.geometric_mean(x, eps, "floor"), rel=1e-12)
    assert pick(table, name, log10_eps, AM) == pytest.approx(means.arithmetic_mean(x), rel=1e-12)
    assert pick(table, name, log10_eps, ITSELF) == pytest.approx(eps, rel=1e-12)


def test_published_values_in_the_table(table):
    s2, ex = list(epsilon.data_sets())
    assert round(pick(table, s2, -5, FLOOR), 3) == 0.039
    assert round(pick(table, s2, -2, FLOOR), 3) == 0.157
    assert round(pick(table, s2, -2, ADD), 3) == 0.151
    assert [round(pick(table, ex, e, ADD), 3) for e in (-6, -5, -4)] == [0.102, 0.117, 0.134]


def test_floor_reaches_eps_and_additive_stays_below_the_arithmetic_mean(table):
    for name, x in epsilon.data_sets().items():
        assert pick(table, name, 0, FLOOR) == pytest.approx(1.0)  # every score floored to ε = 1
        adds = table[(table.data_set == name) & (table.form == ADD)].value.to_numpy()
        assert (np.diff(adds) >= 0).all() and adds.max() < means.arithmetic_mean(x)


def test_robust_track_rule_keeps_small_nonzero_scores():
    x = [0.0, 5e-6, 0.3]
    robust = epsilon.zero_rules(x)["Robust track"]
    assert robust == pytest.approx(math.exp((math.log(1e-5) + math.log(5e-6) + math.log(0.3)) / 3))
    assert robust == GM(1e-5, form="zeros")(x)  # the library's one Robust-track GMAP
    assert means.geometric_mean(x, 1e-5, "floor") == pytest.approx((1e-5 * 1e-5 * 0.3) ** (1 / 3))
    assert robust < means.geometric_mean(x, 1e-5, "floor")


def test_zero_rules_agree_when_no_score_is_between_zero_and_eps():
    r = epsilon.zero_rules(robertson.load_example())
    assert r["Robust track"] == pytest.approx(r["floor"], rel=1e-12)
    assert r["no ε"] == 0.0 and round(r["additive"], 3) == 0.117


def test_unretrieved_ap_equals_the_library():
    rels = np.zeros(1000)
    rels[[4, 199]] = 1
    v = epsilon.unretrieved_ap([5, 200], num_relevant=10, collection_size=500_000)
    assert v["truncated"] == pytest.approx(ranked.average_precision(rels, 10))
    assert v["at the end"] == pytest.approx(ranked.ap_unretrieved_at_end(rels, 10, 500_000))
    assert v["random order"] == pytest.approx(ranked.expected_ap_random_order(rels, 10, 500_000))
    assert v["truncated"] < v["at the end"] < v["random order"]
    none = epsilon.unretrieved_ap([], num_relevant=10, collection_size=500_000)
    assert none["truncated"] == 0 and 0 < none["at the end"] < none["random order"] < 1e-3


def test_epsilon_chart_binds_a_slider_and_a_select():
    spec = plots.to_spec(epsilon.epsilon_chart(), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["log10_eps"]["input"] == "range"
    assert (binds["log10_eps"]["min"], binds["log10_eps"]["max"], binds["log10_eps"]["step"]) == (-8.0, 0.0, 0.1)
    assert binds["data_set"]["input"] == "select" and binds["data_set"]["options"] == list(epsilon.data_sets())


def test_describe_epsilon_matches_the_means():
    line = epsilon.describe_epsilon(epsilon.S2, -5)
    assert f"floor {means.geometric_mean(epsilon.S2, 1e-5, 'floor'):.4f}" in line


def test_epsilon_controls_builds():
    import ipywidgets  # noqa: F401  (a hard requirement: fail, do not skip)

    live = epsilon.epsilon_controls()
    assert [w.description for w in live.widgets.values()] == ["log10 ε", "Data set"]
    before = live.figure.spec
    live.widgets["data_set"].value = "Boost example (chapter 5)"
    live.widgets["log10_eps"].value = -2.0
    params = {p["name"]: p["value"] for p in live.figure.spec["params"]}
    assert params == {"log10_eps": -2.0, "data_set": "Boost example (chapter 5)"} and live.figure.spec != before
    assert live.figure.spec["description"] == epsilon.describe_epsilon(robertson.load_example(), -2.0)
    assert "vconcat" in live.figure.spec and all("bind" not in p for p in live.figure.spec["params"])


def test_epsilon_controls_follow_the_chapters_data_sets():
    """The controls draw the reader's S2 and boost example, not the book's (they once ignored the chapter's data)."""
    s2, boost = [0.05, 0.4, 0.2, 0.4, 0.6], [0.0, 0.3, 0.7]
    live = epsilon.epsilon_controls(s2, boost)
    assert live.figure.spec["description"] == epsilon.describe_epsilon(s2, epsilon.START)
    live.widgets["data_set"].value = "Boost example (chapter 5)"
    assert live.figure.spec["description"] == epsilon.describe_epsilon(boost, epsilon.START)
    shown = json.dumps(live.figure.spec)
    assert '"data_set": "Boost example (chapter 5)"' in shown and "0.7" in shown
