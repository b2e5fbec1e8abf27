"""The figures' plumbing: alt text, the Vega-Lite output, the site's HTML, inline data, sliders."""

import io
import json

import altair as alt
import pandas as pd
import pytest
from irmeans_book import plots


def small_chart():
    return alt.Chart(pd.DataFrame({"x": [1, 2], "y": [0.5, 0.25]})).mark_point().encode(x="x:Q", y="y:Q")


def test_csv_data_round_trips():
    frame = pd.DataFrame({"m": [0, 1, 2], "ap": [0.5, 1.0, 0.333]})
    data = plots.csv_data(frame)
    pd.testing.assert_frame_equal(pd.read_csv(io.StringIO(data.values)), frame, check_dtype=False)
    assert data.format.parse == {"m": "number", "ap": "number"}


# ----------------------------------------------------------------------------- output plumbing


def test_show_needs_alt_text():
    chart = small_chart()
    with pytest.raises(ValueError):
        plots.show(chart, alt="  ")


def test_show_gives_vegalite_and_alt_text():
    fig = plots.show(small_chart(), alt="Two systems.")
    bundle = fig._repr_mimebundle_()
    assert bundle[plots.VEGALITE_MIMETYPE]["description"] == "Two systems."
    assert bundle["text/plain"] == "[Figure] Two systems."
    assert bundle[plots.VEGALITE_MIMETYPE]["config"]["range"]["category"] == plots.OKABE_ITO
    assert bundle[plots.VEGALITE_MIMETYPE]["$schema"].startswith("https://vega.github.io/schema/vega-lite/v5")


def test_embed_html_is_deterministic_labelled_and_safe():
    spec = {"description": 'A "quoted" </script> label', "mark": "point", "data": {"values": [{"a": "</script>"}]}}
    html = plots.embed_html(spec)
    assert html == plots.embed_html(json.loads(json.dumps(spec)))
    assert f'id="{plots.figure_id(spec)}"' in html and f'irmeansDraw("{plots.figure_id(spec)}"' in html
    assert 'aria-label="A &quot;quoted&quot; &lt;/script&gt; label"' in html
    assert html.count("</script>") == 1  # only the element's own end tag
    assert plots.figure_id(spec) != plots.figure_id({**spec, "mark": "bar"})


def test_the_palette_is_okabe_ito():
    assert plots.OKABE_ITO[:3] == ["#E69F00", "#56B4E9", "#009E73"] and len(set(plots.OKABE_ITO)) == 8


def test_without_controls_unbinds_every_parameter_and_keeps_its_value():
    chart = small_chart().add_params(alt.param(name="k", value=3, bind=alt.binding_range(min=0, max=5)))
    spec = plots.show(chart, alt="A chart.", controls=False).spec
    assert spec["params"] == [{"name": "k", "value": 3}]
    assert "bind" in plots.show(chart, alt="A chart.").spec["params"][0]


def test_live_figure_redraws_on_every_change_of_a_widget():
    import ipywidgets as w

    drawn = []

    def draw(k):
        drawn.append(k)
        chart = small_chart().add_params(alt.param(name="k", value=k, bind=alt.binding_range(min=0, max=5)))
        return plots.show(chart, alt=f"k is {k}.", controls=False)

    live = plots.LiveFigure({"k": w.IntSlider(value=1, min=0, max=5)}, draw)
    assert live.figure.spec["description"] == "k is 1." and live.values() == {"k": 1}
    live.widgets["k"].value = 4
    assert drawn == [1, 4] and live.figure.spec["params"] == [{"name": "k", "value": 4}]
    assert list(live.box().children) == [live.widgets["k"]]
