"""Chapter 5's figure tables equal the library's values; the chart is valid and interactive."""

import json

import numpy as np
import pytest
from irmeans_book import plots, robertson
from irmeans_book.chapters import ch05_boost as boost

AP = robertson.load_example()


@pytest.fixture(scope="module")
def table():
    return boost.boost_table(AP)


@pytest.fixture(scope="module")
def hist():
    return boost.histogram_table(AP)


def test_boost_table_covers_every_setting(table):
    assert len(table) == len(boost.AMOUNTS) * len(boost.CHOICES)
    assert not table.duplicated(["amount", "which"]).any()
    assert table.amount.min() == 0 and table.amount.max() == pytest.approx(0.1)


@pytest.mark.parametrize("amount", [0.0, 0.005, 0.05, 0.1])
@pytest.mark.parametrize("which", list(boost.CHOICES))
def test_boost_table_equals_the_library(table, amount, which):
    row = table[np.isclose(table.amount, amount) & (table.which == which)].iloc[0]
    m, g = robertson.boosted_means(AP, amount, which)
    m0, g0 = robertson.boosted_means(AP, 0.0, "none")
    assert (row["map"], row["gmap"]) == pytest.approx((m, g), abs=1e-12)
    assert (row.map_gain, row.gmap_gain) == pytest.approx((m - m0, g - g0), abs=1e-12)
    assert row.label == boost.CHOICES[which]


def test_boost_table_reproduces_the_printed_figures(table):
    none = table[np.isclose(table.amount, 0.0)]  # no boost: the slider at 0, whichever topics
    assert set(none["map"].round(3)) == {0.309} and set(none["gmap"].round(3)) == {0.117}
    at = table[np.isclose(table.amount, 0.05)].set_index("which")
    assert round(at.loc["all", "map"], 3) == 0.359 and round(at.loc["all", "gmap"], 3) == 0.263
    assert round(at.loc["lowest", "gmap"], 3) == 0.249 and round(at.loc["highest", "gmap"], 3) == 0.123
    assert at.loc["lowest", "map"] == pytest.approx(at.loc["highest", "map"], abs=1e-12)


def test_figures_table_matches_published():
    t = boost.figures_table(AP)
    assert (t.rounded == t.Robertson).all()
    assert set(robertson.PUBLISHED) <= set(t.index)
    # Only the eight figures he prints count as printed; the half boosts' MAP is his MAP plus his 0.025.
    assert set(t.index[t.printed]) == set(robertson.PUBLISHED) and not t.loc[list(robertson.IMPLIED), "printed"].any()


@pytest.mark.parametrize("amount", [0.0, 0.05, 0.1])
@pytest.mark.parametrize("which", list(boost.CHOICES))
def test_histogram_counts_the_boosted_scores(hist, amount, which):
    rows = hist[np.isclose(hist.amount, amount) & (hist.which == which)]
    assert rows["count"].sum() == AP.size
    b = robertson.boost(AP, amount, which)
    expected = np.bincount(np.floor(np.round(b, 6) / 0.05 + 1e-9).astype(int), minlength=21)
    got = np.zeros_like(expected)
    for start, n in rows.groupby("bin_start")["count"].sum().items():
        got[int(round(start / 0.05))] = n
    np.testing.assert_array_equal(got, expected)
    boosted = rows.query("part == 'boosted'")["count"].sum()
    assert boosted == {"all": 50, "lowest": 25, "highest": 25}[which] * (amount > 0)


def test_histogram_bins_hold_their_scores(hist):
    np.testing.assert_allclose(hist.bin_end - hist.bin_start, 0.05, atol=1e-9)
    # The three zeros and three 0.01s share the first bin before any boost.
    first = hist.query("amount == 0 and which == 'all' and bin_start == 0")["count"].sum()
    assert first == int((AP < 0.05).sum()) == 6


def test_boost_chart_binds_a_slider_and_a_select():
    spec = plots.to_spec(boost.boost_chart(AP), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"]}
    assert binds["amount"]["input"] == "range"
    assert (binds["amount"]["min"], binds["amount"]["max"], binds["amount"]["step"]) == (0.0, 0.1, 0.005)
    assert binds["which"]["input"] == "select" and binds["which"]["options"] == list(boost.CHOICES.values())
    assert spec["description"] == "alt"


def test_histogram_chart_is_valid():
    spec = plots.to_spec(boost.histogram_chart(AP), "A histogram.")
    assert len(spec["layer"]) == 3


def test_describe_boost_matches_the_library():
    line = boost.describe_boost(AP, 0.05, "lowest")
    _, g = robertson.boosted_means(AP, 0.05, "lowest")
    assert line.startswith("+0.050 to lowest 25") and f"GMAP {g:.4f}" in line


def test_every_choice_of_the_select_lets_the_slider_change_the_figure(table):
    # With "none" offered, the boost slider moved and changed nothing.
    assert "none" not in boost.CHOICES
    for which in boost.CHOICES:
        rows = table[table.which == which]
        assert rows["map"].nunique() == len(boost.AMOUNTS) and rows["gmap"].nunique() == len(boost.AMOUNTS), which


def test_boost_controls_redraw_the_site_figure():
    import ipywidgets  # noqa: F401  (a hard requirement: fail, do not skip)

    live = boost.boost_controls(AP)
    assert {w.description for w in live.widgets.values()} == {"Boost", "Topics"}
    params = lambda: {p["name"]: p["value"] for p in live.figure.spec["params"]}  # noqa: E731
    assert params() == {"amount": 0.05, "which": "lowest 25"}
    assert all("bind" not in p for p in live.figure.spec["params"])  # the widgets are the controls
    live.widgets["amount"].value = 0.08
    live.widgets["which"].value = "all"
    assert params() == {"amount": 0.08, "which": "all 50"}
    assert live.figure.spec["description"] == boost.describe_boost(AP, 0.08, "all")
    # The same chart as the site's, at the widgets' settings.
    site = plots.to_spec(boost.boost_chart(AP, initial_amount=0.08, initial_which="all"), "alt")
    assert plots.without_controls(site)["params"] == live.figure.spec["params"]
    assert site["hconcat"] == live.figure.spec["hconcat"]


def test_bad_choice_is_refused():
    with pytest.raises(ValueError, match="initial_which"):
        boost.boost_chart(AP, initial_which="middle")


def test_the_table_of_printed_figures_shows_each_description_whole():
    import json
    from pathlib import Path

    notebook = Path(__file__).resolve().parents[2] / "chapters" / "05-boost.ipynb"
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    html = next(
        "".join(o["data"]["text/html"])
        for c in cells
        for o in c.get("outputs", [])
        if "text/html" in o.get("data", {}) and "MAP of the 50 values" in "".join(o["data"]["text/html"])
    )
    for meaning in boost.figures_table(AP).what:
        assert f"<td>{meaning}</td>" in html, meaning


def test_the_figures_follow_a_readers_topics():
    """A reader's 200 topics: the select counts them, the histogram's axis holds the tallest bar, ε is the given one."""
    ap = np.round(np.linspace(0.0, 0.3, 200), 4)  # crowded: up to 34 topics in a bin
    spec = boost.boost_figure(ap, amount=0.02, which="highest", eps=0.01).spec
    params = {p["name"]: p for p in spec["params"]}
    assert params["which"]["value"] == "highest 100" and params["which"]["bind"]["options"] == [
        "all 200",
        "lowest 100",
        "highest 100",
    ]
    text = json.dumps(spec, ensure_ascii=False)
    assert "The 200 scores after the boost" in text and "GMAP (ε = 0.01)" in text
    tallest = boost.histogram_table(ap).groupby(["amount", "which", "bin_start"])["count"].sum().max()
    domains = [d["domain"] for d in _find(spec, "scale") if isinstance(d, dict) and "domain" in d]
    assert [0, tallest + 2] in domains
    hist = boost.histogram_figure(ap).spec
    assert "200 AP values" in hist["description"]


def test_boost_controls_start_where_the_figure_does_on_a_readers_data():
    ap = [0.0, 0.1, 0.3, 0.6, 0.9]
    live = boost.boost_controls(ap, amount=0.03, which="all", eps=1e-3)
    assert live.figure.spec["description"] == boost.describe_boost(ap, 0.03, "all", 1e-3)
    assert live.widgets["which"].options == (("all 5", "all"), ("lowest 2", "lowest"), ("highest 2", "highest"))


def _find(node, key):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                yield v
            yield from _find(v, key)
    elif isinstance(node, list):
        for v in node:
            yield from _find(v, key)
