"""Chapter 1's figure and live controls: tables equal the library's means; the spec is valid and interactive."""

import irmeans
import numpy as np
import pytest
from irmeans_book.chapters import ch01_introduction as introduction
from irmeans_book.chapters.ch01_introduction import AVERAGES, averages_chart, averages_table
from irmeans_book.plots import to_spec

SCORES_A = [0.60, 0.55, 0.50, 0.45, 0.01]
SCORES_B = [0.35, 0.30, 0.30, 0.25, 0.20]
WEAKEST = np.round(np.arange(1, 31) / 100, 2)


def test_averages_table_equals_the_means():
    topics, table = averages_table(SCORES_A, SCORES_B, WEAKEST)
    assert len(table) == len(WEAKEST) * len(AVERAGES) * 2
    for weakest in (0.01, 0.02, 0.17, 0.3):
        a = np.array(SCORES_A[:-1] + [weakest])
        for name, mean in AVERAGES.items():
            rows = table[np.isclose(table.weakest, weakest) & (table.average == name)].set_index("system")
            assert rows.loc["A", "value"] == pytest.approx(mean(a))
            assert rows.loc["B", "value"] == pytest.approx(mean(SCORES_B))
            expected = "A" if mean(a) > mean(SCORES_B) else "B"
            assert set(rows.winner) == {expected}
        shown = topics[np.isclose(topics.weakest, weakest) & (topics.system == "A")].score.to_numpy()
        np.testing.assert_allclose(shown, a)


def test_the_geometric_mean_changes_its_winner_on_the_slider():
    _, table = averages_table(SCORES_A, SCORES_B, WEAKEST)
    gm = table[(table.average == "geometric mean") & (table.system == "A")].set_index("weakest").winner
    assert gm[0.01] == "B" and gm[0.3] == "A"


def test_averages_chart_binds_a_select_and_a_slider():
    spec = to_spec(averages_chart(SCORES_A, SCORES_B, WEAKEST), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["average"]["input"] == "select" and binds["average"]["options"] == list(AVERAGES)
    assert binds["weakest"]["input"] == "range"
    assert binds["weakest"]["min"] == 0.01 and binds["weakest"]["max"] == 0.3


def test_library_means_are_those_of_the_figure():
    from irmeans.averages import AM, GM, HM, Median

    assert AVERAGES == {"arithmetic mean": AM(), "geometric mean": GM(), "harmonic mean": HM(), "median": Median()}
    assert AVERAGES["geometric mean"]([0.5, 0.2]) == irmeans.geometric_mean([0.5, 0.2])


@pytest.mark.parametrize(
    "make",
    [
        lambda: averages_chart(SCORES_A, SCORES_B, WEAKEST),
    ],
    ids=["averages"],
)
def test_charts_render_with_the_sites_vega(make):
    # vl-convert runs the same Vega-Lite and Vega as the page's bundle.
    import vl_convert

    spec = to_spec(make(), "A figure.")
    svg = vl_convert.vegalite_to_svg(spec, vl_version="5.20")
    assert svg.startswith("<svg") and "<path" in svg
    assert vl_convert.vegalite_to_vega(spec, vl_version="5.20")["description"] == "A figure."


def test_describe_comparison_names_the_higher_system():
    assert introduction.describe_comparison([0.6, 0.01], [0.3, 0.3], "geometric mean").endswith("B is higher")
    assert introduction.describe_comparison([0.6, 0.01], [0.3, 0.3], "arithmetic mean").endswith("A is higher")


def test_averages_controls_build_with_their_callback():
    live = introduction.averages_controls([0.6, 0.01], [0.3, 0.3])
    assert live.widgets["weakest"].value == 0.01 and live.widgets["average"].options == tuple(AVERAGES)
    params = lambda: {p["name"]: p["value"] for p in live.figure.spec["params"]}  # noqa: E731
    assert params() == {"weakest": 0.01, "average": "arithmetic mean"}
    live.widgets["average"].value = "geometric mean"
    live.widgets["weakest"].value = 0.2
    assert params() == {"weakest": 0.2, "average": "geometric mean"}
    assert live.figure.spec["description"] == introduction.describe_comparison([0.6, 0.2], [0.3, 0.3], "geometric mean")
    assert "hconcat" in live.figure.spec  # the site's chart, not a line of text
