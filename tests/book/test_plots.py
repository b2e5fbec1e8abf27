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


# ---------------------------------------------------------------------------
# A figure at any setting of its controls, by name or label (VegaLiteFigure.at and .save)
# ---------------------------------------------------------------------------


def _controls_chart():
    return small_chart().add_params(
        alt.param(name="k", value=2.0, bind=alt.binding_range(min=0, max=5, step=0.5, name="Steps taken ")),
        alt.param(
            name="eps",
            value=0.01,
            bind=alt.binding_select(options=[0.001, 0.01], labels=["1e-03", "1e-02"], name="ε "),
        ),
        alt.param(name="average", value="mean", bind=alt.binding_select(options=["mean", "geometric mean"])),
        alt.param(name="shown", value=True, bind=alt.binding_checkbox(name="Show the line ")),
    )


def test_a_figures_controls_are_listed_by_name_and_label_as_shown():
    fig = plots.show(_controls_chart(), alt="A chart.")
    found = [(c.name, c.label, c.input, c.value) for c in fig.controls()]
    assert found == [
        ("k", "Steps taken", "range", 2.0),
        ("eps", "ε", "select", 0.01),
        ("average", "average", "select", "mean"),
        ("shown", "Show the line", "checkbox", True),
    ]
    eps = fig.controls()[1]
    assert (eps.shown(0.001), eps.value_of("1e-03"), eps.value_of(0.001)) == ("1e-03", 0.001, 0.001)


def test_a_setting_is_given_by_name_or_label_and_values_as_the_controls_show_them():
    fig = plots.show(_controls_chart(), alt="A chart.")
    values = lambda f: {p["name"]: p["value"] for p in f.spec["params"]}  # noqa: E731
    assert values(fig.at(average="geometric mean", k=3.5)) == {
        "k": 3.5,
        "eps": 0.01,
        "average": "geometric mean",
        "shown": True,
    }
    # By the label beside the control, in any case, with or without its colon; a select's value by its label.
    at = fig.at({"steps taken:": 0.5, "ε": "1e-03", "Show the line": False})
    assert values(at) == {"k": 0.5, "eps": 0.001, "average": "mean", "shown": False}
    assert values(fig) == {"k": 2.0, "eps": 0.01, "average": "mean", "shown": True}  # the figure itself unchanged
    assert at.spec["params"][0]["bind"] == fig.spec["params"][0]["bind"]  # still a slider, only set elsewhere


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"average": "mode"}, "'average' \\(average\\) offers 'mean', 'geometric mean', not 'mode'"),
        ({"k": 0.3}, "runs from 0 to 5 in steps of 0.5: 0.3 is not one of them"),
        ({"k": 6}, "runs from 0 to 5"),
        ({"shown": "yes"}, "a checkbox: True or False"),
        ({"gain": 0.5}, "no control 'gain'; its controls: k \\('Steps taken'\\), eps \\('ε'\\), average"),
    ],
)
def test_a_setting_the_figure_cannot_show_is_refused_with_what_it_can(settings, message):
    with pytest.raises(ValueError, match=message):
        plots.show(_controls_chart(), alt="A chart.").at(settings)


def test_save_writes_the_format_its_name_says_or_all_three(tmp_path):
    fig = plots.show(_controls_chart(), alt="A chart.")
    assert fig.save("one.png", tmp_path, average="geometric mean") == [tmp_path / "one.png"]
    assert fig.save(tmp_path / "sub" / "two.SVG") == [tmp_path / "sub" / "two.svg"]
    assert [p.name for p in fig.save("three", tmp_path)] == ["three.svg", "three.png", "three.pdf"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.png", "sub", "three.pdf", "three.png", "three.svg"]
    text = (tmp_path / "sub" / "two.svg").read_text(encoding="utf-8")
    assert "Steps taken: 2 · ε: 1e-02 · average: mean · Show the line: yes" in text  # the setting, on the slide
    with pytest.raises(ValueError, match="no control"):
        fig.save("four.png", tmp_path, at={"Nothing": 1})
    assert not (tmp_path / "four.png").exists()
