"""The live controls' callbacks: pure functions of the library."""

import pytest

import irmeans
from irmeans import widgets


def test_describe_comparison_names_the_higher_system():
    assert widgets.describe_comparison([0.6, 0.01], [0.3, 0.3], "geometric mean").endswith("B is higher")
    assert widgets.describe_comparison([0.6, 0.01], [0.3, 0.3], "arithmetic mean").endswith("A is higher")


def test_ranking_measures_raise_r_to_the_relevant_ticked():
    m = widgets.ranking_measures([1, 2, 3], num_relevant=1)
    assert m["R"] == 3 and m["AP"] == pytest.approx(1.0) and m["R-precision"] == pytest.approx(1.0)
    assert widgets.ranking_measures([], num_relevant=0)["R"] == 1


def test_ranking_measures_are_the_library_measures():
    rels = [0, 1, 0, 0, 1, 0, 0, 0, 0, 1]
    m = widgets.ranking_measures([2, 5, 10], num_relevant=6)
    assert m["AP"] == irmeans.average_precision(rels, 6)
    assert m["RR"] == 0.5 and m["P@5"] == 0.4 and m["P@10"] == pytest.approx(0.3)


def test_controls_build_with_their_callbacks():
    box = widgets.ranking_controls()
    assert [c.description for c in box.children[:11]] == ["R"] + [f"Rank {k}" for k in range(1, 11)]
    box = widgets.averages_controls([0.6, 0.01], [0.3, 0.3])
    assert box.children[0].value == 0.01 and box.children[1].options == tuple(irmeans.plots.AVERAGES)
