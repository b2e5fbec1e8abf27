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
    assert f'id="{plots.figure_id(spec)}"' in html and f'vegaEmbed("#{plots.figure_id(spec)}"' in html
    assert 'aria-label="A &quot;quoted&quot; &lt;/script&gt; label"' in html
    assert html.count("</script>") == 1  # only the element's own end tag
    assert plots.figure_id(spec) != plots.figure_id({**spec, "mark": "bar"})


def test_the_palette_is_okabe_ito():
    assert plots.OKABE_ITO[:3] == ["#E69F00", "#56B4E9", "#009E73"] and len(set(plots.OKABE_ITO)) == 8
