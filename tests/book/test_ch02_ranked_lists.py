"""Chapter 2's figures and live controls: tables equal the library's measures; the specs are valid and interactive."""

import json

import irmeans
import numpy as np
import pytest
from irmeans import measures as ranked
from irmeans_book.chapters import ch02_ranked_lists as ranked_lists
from irmeans_book.chapters.ch02_ranked_lists import pr_curve_chart, pr_table, ranking_chart, rankings_table
from irmeans_book.plots import embed_html, to_spec


@pytest.fixture(scope="module")
def ranking_tables():
    return rankings_table(depth=10, max_r=15)


def rels_of(mask, depth=10):
    return np.array([(mask >> k) & 1 for k in range(depth)])


def test_rankings_table_has_every_ranking_and_allowed_r(ranking_tables):
    per_ranking, per_setting = ranking_tables
    assert per_ranking.m.tolist() == list(range(1024))
    found = np.array([rels_of(m).sum() for m in range(1024)])
    np.testing.assert_array_equal(per_ranking.lo, np.maximum(found, 1))
    assert len(per_setting) == int(np.sum(15 - np.maximum(found, 1) + 1))
    assert not per_setting.duplicated(["m", "R"]).any()
    assert (per_setting.R >= per_setting.lo).all() and (per_setting.R <= 15).all()


@pytest.mark.parametrize("mask, R", [(0, 1), (1, 1), (0b101, 2), (0b101, 7), (0b1000100101, 4), (1023, 15), (512, 3)])
def test_rankings_table_equals_the_measures(ranking_tables, mask, R):
    per_ranking, per_setting = ranking_tables
    rels = rels_of(mask)
    one = per_ranking.set_index("m").loc[mask]
    row = per_setting.set_index(["m", "R"]).loc[(mask, R)]
    tol = dict(abs=5e-4)
    assert one.p5 == pytest.approx(ranked.precision_at(rels, 5), **tol)
    assert one.p10 == pytest.approx(ranked.precision_at(rels, 10), **tol)
    assert one.rr == pytest.approx(ranked.reciprocal_rank(rels), **tol)
    assert row.ap == pytest.approx(ranked.average_precision(rels, R), **tol)
    assert row.rprec == pytest.approx(ranked.r_precision(rels, R), **tol)
    recall, precision = ranked.precision_recall_points(rels, R)
    np.testing.assert_allclose([row[f"recall{k}"] for k in range(1, 11)], recall, atol=5e-4)
    np.testing.assert_allclose([one[f"precision{k}"] for k in range(1, 11)], precision, atol=5e-4)
    np.testing.assert_array_equal([one[f"rel{k}"] for k in range(1, 11)], rels)


def test_live_controls_agree_with_the_figure(ranking_tables):
    per_ranking, per_setting = ranking_tables
    live = ranked_lists.ranking_measures([1, 3, 6], num_relevant=5)
    mask = 0b100101
    one = per_ranking.set_index("m").loc[mask]
    row = per_setting.set_index(["m", "R"]).loc[(mask, 5)]
    assert live["AP"] == pytest.approx(row.ap, abs=5e-4)
    assert live["R-precision"] == pytest.approx(row.rprec, abs=5e-4)
    assert live["P@5"] == pytest.approx(one.p5, abs=5e-4) and live["RR"] == pytest.approx(one.rr, abs=5e-4)


def test_ranking_chart_binds_ten_checkboxes_and_an_r_slider():
    spec = to_spec(ranking_chart(), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"] if "bind" in p}
    assert [binds[f"rank{k}"]["input"] for k in range(1, 11)] == ["checkbox"] * 10
    assert binds["R"] == {"input": "range", "min": 1, "max": 15, "step": 1, "name": "R, relevant documents in all "}
    text = json.dumps(spec)
    assert all(f"rank{k} ? {2 ** (k - 1)} : 0" in text for k in range(1, 11))
    assert "max(R, datum.lo)" in text


def test_the_r_slider_never_reads_less_than_the_ranks_ticked_and_squares_toggle_ranks():
    # On the site (irmeans-figures.js): R is kept at least r_floor, the ranks ticked; a click on a square of
    # the strip toggles the checkbox of its rank.
    spec = to_spec(ranking_chart(), "alt")
    floor = next(p for p in spec["params"] if p["name"] == "r_floor")
    assert "bind" not in floor and all(f"(rank{k} ? 1 : 0)" in floor["expr"] for k in range(1, 11))
    assert spec["usermeta"]["irmeans_at_least"] == {"R": "r_floor"}
    assert spec["usermeta"]["irmeans_click_toggles"] == {"field": "rank", "param": "rank"}
    strip = spec["vconcat"][0]
    assert strip["mark"]["cursor"] == "pointer"


def test_ranking_chart_is_small_enough_for_a_page():
    spec = to_spec(ranking_chart(), "alt")
    assert len(embed_html(spec).encode()) < 1_500_000


@pytest.mark.parametrize(
    "make",
    [
        lambda: ranking_chart(),
        lambda: pr_curve_chart([1, 0, 1, 0, 0, 1, 0, 0, 0, 0], 5),
    ],
    ids=["ranking", "pr-curve"],
)
def test_charts_render_with_the_sites_vega(make):
    # vl-convert runs the same Vega-Lite and Vega as the page's bundle.
    import vl_convert

    spec = to_spec(make(), "A figure.")
    svg = vl_convert.vegalite_to_svg(spec, vl_version="5.20")
    assert svg.startswith("<svg") and "<path" in svg
    assert vl_convert.vegalite_to_vega(spec, vl_version="5.20")["description"] == "A figure."


def test_pr_table_blocks_add_up_to_ap():
    rels = [1, 0, 1, 0, 0, 1, 0, 0, 0, 0]
    points, interpolated = pr_table(rels, 5)
    blocks = points[points.relevant]
    area = np.sum((blocks.recall - blocks.recall_before) * blocks.precision)
    assert area == pytest.approx(ranked.average_precision(rels, 5))
    np.testing.assert_allclose(interpolated.precision, ranked.interpolated_precision(rels, 5))


def test_ranking_measures_raise_r_to_the_relevant_ticked():
    m = ranked_lists.ranking_measures([1, 2, 3], num_relevant=1)
    assert m["R"] == 3 and m["AP"] == pytest.approx(1.0) and m["R-precision"] == pytest.approx(1.0)
    assert ranked_lists.ranking_measures([], num_relevant=0)["R"] == 1


def test_ranking_measures_are_the_library_measures():
    rels = [0, 1, 0, 0, 1, 0, 0, 0, 0, 1]
    m = ranked_lists.ranking_measures([2, 5, 10], num_relevant=6)
    assert m["AP"] == irmeans.average_precision(rels, 6)
    assert m["RR"] == 0.5 and m["P@5"] == 0.4 and m["P@10"] == pytest.approx(0.3)


def test_ranking_controls_build_with_their_callback():
    live = ranked_lists.ranking_controls()
    assert [w.description for w in live.widgets.values()] == ["R"] + [f"Rank {k} relevant" for k in range(1, 11)]
    params = lambda: {p["name"]: p.get("value") for p in live.figure.spec["params"]}  # noqa: E731
    assert params()["R"] == 5 and params()["rank3"] is True and params()["rank2"] is False
    live.widgets["rank2"].value = True
    assert params()["rank2"] is True
    # Ticking more relevant ranks than R moves the R slider up: it never reads less than the figure uses.
    live.widgets["R"].value = 1
    assert live.widgets["R"].value == 4 and params()["R"] == 4  # 4 ranks ticked
    live.widgets["R"].value = 4
    live.widgets["rank4"].value = True
    assert live.widgets["R"].value == 5 and params()["R"] == 5
