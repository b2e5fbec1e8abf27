"""The book's figure tables equal the library's measures; the specs are valid and interactive."""

import io
import json

import numpy as np
import pandas as pd
import pytest

import irmeans
from irmeans import plots, ranked

SCORES_A = [0.60, 0.55, 0.50, 0.45, 0.01]
SCORES_B = [0.35, 0.30, 0.30, 0.25, 0.20]
WEAKEST = np.round(np.arange(1, 31) / 100, 2)


@pytest.fixture(scope="module")
def ranking_tables():
    return plots.rankings_table(depth=10, max_r=15)


def rels_of(mask, depth=10):
    return np.array([(mask >> k) & 1 for k in range(depth)])


# ----------------------------------------------------------------------------- chapter 1


def test_averages_table_equals_the_means():
    topics, table = plots.averages_table(SCORES_A, SCORES_B, WEAKEST)
    assert len(table) == len(WEAKEST) * len(plots.AVERAGES) * 2
    for weakest in (0.01, 0.02, 0.17, 0.3):
        a = np.array(SCORES_A[:-1] + [weakest])
        for name, mean in plots.AVERAGES.items():
            rows = table[np.isclose(table.weakest, weakest) & (table.average == name)].set_index("system")
            assert rows.loc["A", "value"] == pytest.approx(mean(a))
            assert rows.loc["B", "value"] == pytest.approx(mean(SCORES_B))
            expected = "A" if mean(a) > mean(SCORES_B) else "B"
            assert set(rows.winner) == {expected}
        shown = topics[np.isclose(topics.weakest, weakest) & (topics.system == "A")].score.to_numpy()
        np.testing.assert_allclose(shown, a)


def test_the_geometric_mean_changes_its_winner_on_the_slider():
    _, table = plots.averages_table(SCORES_A, SCORES_B, WEAKEST)
    gm = table[(table.average == "geometric mean") & (table.system == "A")].set_index("weakest").winner
    assert gm[0.01] == "B" and gm[0.3] == "A"


def test_averages_chart_binds_a_select_and_a_slider():
    spec = plots.to_spec(plots.averages_chart(SCORES_A, SCORES_B, WEAKEST), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["average"]["input"] == "select" and binds["average"]["options"] == list(plots.AVERAGES)
    assert binds["weakest"]["input"] == "range"
    assert binds["weakest"]["min"] == 0.01 and binds["weakest"]["max"] == 0.3


# ----------------------------------------------------------------------------- chapter 2


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
    from irmeans import widgets

    per_ranking, per_setting = ranking_tables
    live = widgets.ranking_measures([1, 3, 6], num_relevant=5)
    mask = 0b100101
    one = per_ranking.set_index("m").loc[mask]
    row = per_setting.set_index(["m", "R"]).loc[(mask, 5)]
    assert live["AP"] == pytest.approx(row.ap, abs=5e-4)
    assert live["R-precision"] == pytest.approx(row.rprec, abs=5e-4)
    assert live["P@5"] == pytest.approx(one.p5, abs=5e-4) and live["RR"] == pytest.approx(one.rr, abs=5e-4)


def test_ranking_chart_binds_ten_checkboxes_and_an_r_slider():
    spec = plots.to_spec(plots.ranking_chart(), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert [binds[f"rank{k}"]["input"] for k in range(1, 11)] == ["checkbox"] * 10
    assert binds["R"] == {"input": "range", "min": 1, "max": 15, "step": 1, "name": "R, relevant documents in all "}
    text = json.dumps(spec)
    assert all(f"rank{k} ? {2 ** (k - 1)} : 0" in text for k in range(1, 11))
    assert "max(R, datum.lo)" in text


def test_ranking_chart_is_small_enough_for_a_page():
    spec = plots.to_spec(plots.ranking_chart(), "alt")
    assert len(plots.embed_html(spec).encode()) < 1_500_000


def test_csv_data_round_trips():
    frame = pd.DataFrame({"m": [0, 1, 2], "ap": [0.5, 1.0, 0.333]})
    data = plots.csv_data(frame)
    pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(data.values)), frame, check_dtype=False)
    assert data.format.parse == {"m": "number", "ap": "number"}


# ----------------------------------------------------------------------------- output plumbing


def test_show_needs_alt_text():
    chart = plots.averages_chart(SCORES_A, SCORES_B, WEAKEST)
    with pytest.raises(ValueError):
        plots.show(chart, alt="  ")


def test_show_gives_vegalite_and_alt_text():
    fig = plots.show(plots.averages_chart(SCORES_A, SCORES_B, WEAKEST), alt="Two systems.")
    bundle = fig._repr_mimebundle_()
    assert bundle[plots.VEGALITE_MIMETYPE]["description"] == "Two systems."
    assert bundle["text/plain"] == "[Figure] Two systems."
    assert bundle[plots.VEGALITE_MIMETYPE]["config"]["range"]["category"] == plots.OKABE_ITO
    assert bundle[plots.VEGALITE_MIMETYPE]["$schema"].startswith("https://vega.github.io/schema/vega-lite/v5")


def test_embed_html_is_deterministic_labelled_and_safe():
    spec = {"description": 'A "quoted" </script> label', "mark": "point", "data": {"values": [{"a": "</script>"}]}}
    html = plots.embed_html(spec)
    assert html == plots.embed_html(json.loads(json.dumps(spec)))
    assert f'id="{plots.figure_id(spec)}"' in html and f'vegaEmbed("#{plots.figure_id(spec)}"' in html
    assert 'aria-label="A &quot;quoted&quot; &lt;/script&gt; label"' in html
    assert html.count("</script>") == 1  # only the element's own end tag
    assert plots.figure_id(spec) != plots.figure_id({**spec, "mark": "bar"})


def test_the_palette_is_okabe_ito():
    assert plots.OKABE_ITO[:3] == ["#E69F00", "#56B4E9", "#009E73"] and len(set(plots.OKABE_ITO)) == 8


def test_library_means_are_those_of_the_figure():
    assert plots.AVERAGES["geometric mean"] is irmeans.geometric_mean
    assert plots.AVERAGES["arithmetic mean"] is irmeans.arithmetic_mean


@pytest.mark.parametrize(
    "make",
    [
        lambda: plots.averages_chart(SCORES_A, SCORES_B, WEAKEST),
        lambda: plots.ranking_chart(),
        lambda: plots.pr_curve_chart([1, 0, 1, 0, 0, 1, 0, 0, 0, 0], 5),
    ],
    ids=["averages", "ranking", "pr-curve"],
)
def test_charts_render_with_the_sites_vega(make):
    # vl-convert runs the same Vega-Lite and Vega as the page's bundle.
    import vl_convert

    spec = plots.to_spec(make(), "A figure.")
    svg = vl_convert.vegalite_to_svg(spec, vl_version="5.20")
    assert svg.startswith("<svg") and "<path" in svg
    assert vl_convert.vegalite_to_vega(spec, vl_version="5.20")["description"] == "A figure."


def test_pr_table_blocks_add_up_to_ap():
    rels = [1, 0, 1, 0, 0, 1, 0, 0, 0, 0]
    points, interpolated = plots.pr_table(rels, 5)
    blocks = points[points.relevant]
    area = np.sum((blocks.recall - blocks.recall_before) * blocks.precision)
    assert area == pytest.approx(ranked.average_precision(rels, 5))
    np.testing.assert_allclose(interpolated.precision, ranked.interpolated_precision(rels, 5))
