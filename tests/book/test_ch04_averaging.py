"""Chapter 4's figure tables equal the library's means and Ravana & Moffat's Table 1; the charts are valid."""

import io

import irmeans
import numpy as np
import pandas as pd
import pytest
from irmeans_book import plots
from irmeans_book.chapters import ch04_averaging as averaging

# Ravana & Moffat (2009), Table 1, with ε = 0.01 in the ε columns; None where HM is undefined.
PUBLISHED = {
    "S1": (0.280, 0.189, 0.192, 0.145, 0.148, 0.100),
    "S2": (0.260, 0.000, 0.151, None, 0.034, 0.300),
    "S3": (0.260, 0.227, 0.228, 0.197, 0.200, 0.200),
    "S4": (0.220, 0.217, 0.217, 0.214, 0.214, 0.200),
}


@pytest.fixture(scope="module")
def tables():
    return averaging.means_table()


@pytest.mark.parametrize("system", list(PUBLISHED))
def test_all_means_reproduce_table_1(system):
    row = averaging.all_means(averaging.TABLE1_SCORES[system], eps=0.01)
    for name, published in zip(averaging.AVERAGE_NAMES, PUBLISHED[system]):
        if published is None:
            assert np.isnan(row[name])
        else:
            assert round(row[name], 3) == published


def test_table_has_every_setting(tables):
    topics, values = tables
    assert len(values) == 4 * 21 * 21 * 6 and not values.duplicated(["s", "x", "k", "m"]).any()
    assert len(topics) == 4 * 21 * 5
    assert np.isclose(values.k, -2).any() and np.isclose(values.x, 0).any()


@pytest.mark.parametrize("s, x, k", [(1, 0.1, -2), (2, 0.0, -2), (2, 0.35, -4), (3, 1.0, 0.5), (4, 0.0, 1.0)])
def test_table_equals_the_library(tables, s, x, k):
    topics, values = tables
    scores = np.array(list(averaging.TABLE1_SCORES.values())[s - 1], dtype=float)
    scores[0] = x
    shown = topics[(topics.s == s) & np.isclose(topics.x, x)].sort_values("topic").score.to_numpy()
    np.testing.assert_allclose(shown, scores)
    rows = values[(values.s == s) & np.isclose(values.x, x) & np.isclose(values.k, k)].set_index("m").v
    eps = 10.0**k
    expected = [
        irmeans.arithmetic_mean(scores),
        irmeans.geometric_mean(scores),
        irmeans.geometric_mean(scores, eps=eps),
        np.nan if x == 0 else irmeans.harmonic_mean(scores),
        irmeans.harmonic_mean(scores, eps=eps),
        irmeans.median(scores),
    ]
    np.testing.assert_allclose(rows.sort_index().to_numpy(), expected, atol=5e-5)


def test_chart_binds_a_select_and_two_sliders():
    spec = plots.to_spec(averaging.means_chart(), "alt")
    binds = {p["name"]: p["bind"] for p in spec["params"] if "bind" in p}
    assert binds["system"]["input"] == "select" and binds["system"]["labels"] == ["S1", "S2", "S3", "S4"]
    assert (binds["first"]["min"], binds["first"]["max"], binds["first"]["step"]) == (0.0, 1.0, 0.05)
    assert (binds["k"]["min"], binds["k"]["max"], binds["k"]["step"]) == (-4.0, 1.0, 0.25)
    assert {p["name"]: p["value"] for p in spec["params"] if "bind" in p} == {"system": 2, "first": 0.0, "k": -2.0}
    assert len(plots.embed_html(spec).encode()) < 1_000_000


def test_eps_means_tend_to_the_arithmetic_mean():
    t = averaging.eps_table(eps_values=[1e-5, 1e-2, 1, 100])
    for (_, _), g in t.groupby(["system", "average"]):
        gap = (g.am - g.value).to_numpy()
        assert (gap >= -1e-12).all() and np.all(np.diff(gap) <= 1e-12) and gap[-1] < 1e-3
    plots.to_spec(averaging.eps_chart(), "alt")


def test_live_description_agrees():
    text = averaging.describe_means(averaging.TABLE1_SCORES["S1"], 0.01)
    assert text.splitlines()[2] == "εGM   0.1917"
    assert round(irmeans.geometric_mean(averaging.TABLE1_SCORES["S1"], eps=0.01), 4) == 0.1917


def test_chart_values_are_rounded_once_to_the_three_decimals_printed():
    # GM of S1 with topic 1 at 0.75 is 0.282523: rounded to 4 decimals, then printed with 3, it would read 0.282.
    spec = plots.to_spec(averaging.means_chart(first_values=[0.75], eps_exponents=[-4.0]), "alt")
    (csv,) = [v for v in spec["datasets"].values() if isinstance(v, str) and v.startswith("s,x,k,m,v")]
    values = pd.read_csv(io.StringIO(csv))
    assert values.query("s == 1 and m == 1").v.item() == 0.283
    assert round(irmeans.geometric_mean([0.75, 0.1, 0.3, 0.8, 0.1]), 3) == 0.283


def test_means_controls_redraw_the_site_figure():
    live = averaging.means_controls(averaging.TABLE1_SCORES["S2"], eps=0.01)
    before = live.figure.spec
    live.widgets["t1"].value = 0.1
    assert live.figure.spec != before
    assert live.figure.spec["description"] == averaging.describe_means([0.1, 0.4, 0.2, 0.4, 0.3], 0.01)
    params = {p["name"]: p.get("value") for p in live.figure.spec["params"]}
    assert params["first"] == 0.1 and params["k"] == pytest.approx(-2.0)
    assert all("bind" not in p for p in live.figure.spec["params"]) and "hconcat" in live.figure.spec


def _stored_tables(chapter):
    import json
    from pathlib import Path

    notebook = Path(__file__).resolve().parents[2] / "chapters" / chapter
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            html = "".join(output.get("data", {}).get("text/html", ""))
            if "<table" in html:
                yield html


def test_table_1_of_chapter_4_prints_every_average_with_three_decimals():
    import re

    html = next(_stored_tables("04-averaging.ipynb"))
    rows = re.findall(r"<tr>\s*<th>S\d</th>(.*?)</tr>", html, flags=re.S)
    assert len(rows) == 4
    for row in rows:
        cells = re.findall(r"<td>(.*?)</td>", row)[1:]  # after the scores
        assert len(cells) == 6 and all(re.fullmatch(r"\d\.\d{3}|–", c) for c in cells), cells


def test_the_controls_sliders_are_the_site_figures():
    """The ipywidgets sliders have the site's grids: a score in steps of 0.05 from 0 to 1, k of ε = 10**k from -4 to 1."""
    spec = averaging.means_figure().spec
    site = {p["name"]: p["bind"] for p in spec["params"] if p["name"] in ("first", "k")}
    live = averaging.means_controls()
    for widget in (live.widgets[f"t{i}"] for i in range(1, 6)):
        grid = averaging.FIRST
        assert (widget.min, widget.max, widget.step) == (grid.start, grid.stop, grid.step)
        assert (site["first"]["min"], site["first"]["max"], site["first"]["step"]) == (grid.start, grid.stop, grid.step)
    eps, grid = live.widgets["eps"], averaging.EPS_EXPONENT
    assert (eps.base, eps.min, eps.max, eps.step) == (10, grid.start, grid.stop, grid.step)
    assert (site["k"]["min"], site["k"]["max"], site["k"]["step"]) == (grid.start, grid.stop, grid.step)
    assert eps.value == pytest.approx(averaging.EPS) and live.widgets["t1"].value == averaging.TABLE1_SCORES["S2"][0]
