"""`make figures`: every numbered figure of the book, as its chapter makes it, written as SVG, PNG and PDF."""

from __future__ import annotations

import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "scripts"))
import make_figures  # noqa: E402 - a script of the book's, not an installed module
from irmeans_book import slides  # noqa: E402
from stored_outputs import nudged, same  # noqa: E402

VEGALITE = "application/vnd.vegalite.v5+json"


def test_the_table_has_a_call_for_every_numbered_figure_and_no_other():
    labels = [f["label"] for f in make_figures.numbered_figures()]
    assert len(labels) == len(set(labels)), "two figures share a label"
    assert set(labels) == set(make_figures.FIGURES), (
        "book/scripts/make_figures.py's FIGURES must have exactly the chapters' numbered figures: "
        f"missing {sorted(set(labels) - set(make_figures.FIGURES))}, "
        f"extra {sorted(set(make_figures.FIGURES) - set(labels))}"
    )


def test_numbers_and_names_follow_the_book():
    figures = {f["label"]: f for f in make_figures.numbered_figures()}
    assert (figures["fig-ch4-eps"]["chapter"], figures["fig-ch4-eps"]["number"]) == (4, 1)
    assert (figures["fig-ch4-means"]["chapter"], figures["fig-ch4-means"]["number"]) == (4, 2)
    assert make_figures.file_stem(figures["fig-ch4-eps"]) == "fig-04-1-eps"
    assert make_figures.file_stem(figures["fig-ch2-pr-curve"]) == "fig-02-1-pr-curve"
    for chapter in {f["chapter"] for f in figures.values()}:
        numbers = sorted(f["number"] for f in figures.values() if f["chapter"] == chapter)
        assert numbers == list(range(1, len(numbers) + 1))


def test_figure_directives_in_markdown_count_too(tmp_path):
    (tmp_path / "03-x.ipynb").write_text(
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "markdown",
                        "metadata": {},
                        "source": ["```{figure} a.png\n", ":name: fig-ch3-a\n", "```"],
                    },
                    {"cell_type": "code", "metadata": {"mystnb": {"figure": {"name": "fig-ch3-b"}}}, "source": []},
                ]
            }
        )
    )
    found = make_figures.numbered_figures(tmp_path)
    assert [(f["label"], f["number"]) for f in found] == [("fig-ch3-a", 1), ("fig-ch3-b", 2)]


def _stored_specs() -> dict[str, dict]:
    """Each figure's Vega-Lite spec as stored in its chapter's outputs."""
    specs = {}
    for path in sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            name = cell.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("name")
            for output in cell.get("outputs", []) if name else []:
                if VEGALITE in output.get("data", {}):
                    specs[name] = output["data"][VEGALITE]
    return specs


def _without_alt_text(spec: dict) -> dict:
    return {k: v for k, v in spec.items() if k != "description"}


def test_each_figure_is_the_chapters_own():
    """The table's calls make exactly the figures the chapters show (their stored outputs), alt text aside, as the
    stored-output check compares them; and so they would on a CPU whose ``exp`` and ``log`` differ in the last bit
    (every number of the fresh spec moved by a few ulp)."""
    stored = _stored_specs()
    differ = []
    for label in make_figures.FIGURES:
        if label not in stored:
            continue
        try:
            made = make_figures.chapter_spec(label)
        except Exception as error:  # a chapter's function changed its arguments
            differ.append(f"{label} ({type(error).__name__}: {error})")
            continue
        if not same(_without_alt_text(made), _without_alt_text(stored[label])):
            differ.append(label)
        elif not same(nudged(_without_alt_text(made)), _without_alt_text(stored[label])):
            differ.append(f"{label} (moved by a few ulp)")
    assert not differ, (
        f"{differ}: book/scripts/make_figures.py does not call these as their chapters do, "
        "or the chapters' stored outputs are stale (make notebooks)"
    )
    assert len(stored) >= len(make_figures.FIGURES) - 3  # nearly all stored (a chapter being rewritten may lack one)


def test_slide_spec_has_large_text_and_no_container_width():
    spec = slides.slide_spec({"hconcat": [{"width": "container", "mark": "bar"}], "config": {"axis": {"x": 1}}})
    assert spec["hconcat"][0]["width"] == slides.FIXED_WIDTH
    assert spec["config"]["axis"] == {"x": 1, **slides.SLIDE_CONFIG["axis"]}
    assert spec["config"]["axis"]["labelOverlap"] == "parity"  # labels that would collide: every other left out
    sizes = [v for group in slides.SLIDE_CONFIG.values() for k, v in group.items() if k.endswith("FontSize")]
    assert sizes and all(size >= 15 for size in sizes)
    assert slides.SLIDE_CONFIG["legend"]["labelLimit"] == 0  # long legend labels are not cut with "…"


def test_one_figure_is_written_in_the_three_formats(tmp_path):
    assert make_figures.main(["--out", str(tmp_path), "--only", "fig-ch4-eps"]) == 0
    svg, png, pdf = (tmp_path / f"fig-04-1-eps.{ext}" for ext in ("svg", "png", "pdf"))
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "εGM" in svg.read_text(encoding="utf-8")  # the chart's text, not an empty picture
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    assert width == slides.SLIDE_WIDTH and height > 300
    assert pdf.read_bytes()[:5] == b"%PDF-"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig-04-1-eps.pdf", "fig-04-1-eps.png", "fig-04-1-eps.svg"]


def test_an_unknown_label_is_refused(tmp_path, capsys):
    assert make_figures.main(["--out", str(tmp_path), "--only", "fig-ch4-nothing"]) == 1
    assert "not a numbered figure" in capsys.readouterr().err


def _svg_texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()).strip() for t in root.iter("{http://www.w3.org/2000/svg}text")]


def _views(node):
    if isinstance(node, dict):
        if "mark" in node:
            yield node
        for key, value in node.items():
            if key not in ("data", "datasets"):
                yield from _views(value)
    elif isinstance(node, list):
        for item in node:
            yield from _views(item)


def test_a_slide_is_the_chart_alone_no_readout_and_no_figure_number_of_another_work():
    """Fig. 9.4's slide once carried "Figure 9:"/"Figure 10:" panel titles and a leftover read-out line."""
    import vl_convert as vlc

    stored = _stored_specs()
    assert "fig-ch9-replication" in stored
    readouts = 0
    for label, spec in stored.items():
        readouts += sum(slides.is_readout(v) for v in _views(spec))
        slide = slides.slide_spec(spec)
        assert not any(slides.is_readout(v) for v in _views(slide)), label
        assert not re.search(r'"title": \[?"(Figure|Fig\.) ?\d', json.dumps(slide, ensure_ascii=False)), label
    assert readouts >= 5  # the chapters' figures have read-outs, which the slides leave out
    texts = _svg_texts(vlc.vegalite_to_svg(slides.slide_spec(stored["fig-ch9-replication"])))
    # the panels keep their own titles, named (a) and (b) as the caption names them
    assert "(a) Does εGM help when many scores are low?" in texts and "(b) εGM against trec_eval's GM" in texts
    figure_titles = [t for t in texts if re.match(r"(Figure|Fig\.) ?\d", t)]
    readout_lines = [t for t in texts if t.startswith("log10 ε =")]
    assert not figure_titles and not readout_lines, (figure_titles, readout_lines)


def test_a_slide_darkens_the_palette_as_the_light_page_does():
    """:data:`irmeans_book.slides.ON_WHITE` and the site's style sheet name the same darker shades."""
    css = (ROOT / "book" / "static" / "irmeans.css").read_text(encoding="utf-8")
    differ = [
        (pale, dark) for pale, dark in slides.ON_WHITE.items() if f'[fill="{pale}"] {{ fill: {dark}; }}' not in css
    ]
    assert len(slides.ON_WHITE) >= 4 and not differ, differ


def _png_size(path) -> tuple[int, int]:
    return struct.unpack(">II", path.read_bytes()[16:24])


def test_every_slide_png_is_as_wide_as_documented(tmp_path):
    """Fig. 2.1 (421 px) was written 1,684 px wide where save's documentation says 1,920: drawn at 4 times its size
    at most, a narrow figure is centred on white; a figure wider than a slide is drawn smaller."""
    stored = _stored_specs()
    narrow = slides.slide_spec(stored["fig-ch2-pr-curve"])
    wide = {"mark": "point", "width": 2500, "height": 100, "data": {"values": [{"x": 1}]}, "description": "Wide."}
    for stem, spec in (("narrow", narrow), ("wide", slides.slide_spec(wide))):
        svg, png = slides.render(spec, stem, tmp_path, formats=("svg", "png"))
        width, height = _png_size(png)
        assert width == slides.SLIDE_WIDTH, (stem, width)
        assert (
            height
            == pytest.approx(
                slides._svg_height(svg.read_text(encoding="utf-8"))
                * width
                / slides._svg_width(svg.read_text(encoding="utf-8")),
                abs=2 * slides.MAX_SCALE,
            )
            or stem == "narrow"
        )
    # The narrow figure is drawn at the largest scale, not stretched to the slide's width: its text stays in proportion.
    drawn = slides._svg_width(slides.render(narrow, "n", tmp_path, formats=("svg",))[0].read_text(encoding="utf-8"))
    assert drawn * slides.MAX_SCALE < slides.SLIDE_WIDTH
    assert _png_size(tmp_path / "narrow.png")[1] == pytest.approx(
        slides._svg_height(Path(tmp_path / "n.svg").read_text(encoding="utf-8")) * slides.MAX_SCALE, abs=2
    )


def _visible_axis_labels(svg: str) -> list[list[str]]:
    """The labels each axis of a drawn figure shows (those left out are drawn with opacity 0)."""
    root = ET.fromstring(svg)
    return [
        ["".join(t.itertext()) for t in g.iter("{http://www.w3.org/2000/svg}text") if t.get("opacity") != "0"]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "role-axis-label" in (g.get("class") or "")
    ]


def _uneven(axes: list[list[str]]) -> list[list[str]]:
    """The axes whose labels are numbers in uneven steps (a log axis's steps are even as ratios)."""
    found = []
    for labels in axes:
        try:
            values = [float(label.replace("\u2212", "-").rstrip("%")) for label in labels]
        except ValueError:
            continue  # names, not numbers
        steps = [b - a for a, b in zip(values, values[1:])]
        ratios = [b / a for a, b in zip(values, values[1:]) if a > 0]
        even = lambda xs: max(xs) - min(xs) < 1e-9 * max(1.0, max(map(abs, xs)))  # noqa: E731
        if len(steps) > 1 and not even(steps) and not (len(ratios) == len(steps) and even(ratios)):
            found.append(labels)
    return found


def _narrower(node, factor: float):
    if isinstance(node, dict):
        return {
            k: v * factor if k == "width" and isinstance(v, int | float) else _narrower(v, factor)
            for k, v in node.items()
        }
    if isinstance(node, list):
        return [_narrower(v, factor) for v in node]
    return node


def test_labels_left_out_of_a_crowded_axis_leave_even_steps():
    """Fig. 5.2's slide read 0.00, 0.04, 0.06, 0.08 (the axis's first and last labels sit flush with its ends, and
    only they collided with their neighbours); so did its page at 60 % of its width. Every slide, and Fig. 5.2 on a
    narrow page, keeps even steps."""
    import vl_convert as vlc

    stored = _stored_specs()
    uneven = {}
    for label, spec in stored.items():
        found = _uneven(_visible_axis_labels(vlc.vegalite_to_svg(slides.slide_spec(spec))))
        if found:
            uneven[f"{label} (slide)"] = found
    for factor in (0.6, 0.7):
        found = _uneven(_visible_axis_labels(vlc.vegalite_to_svg(_narrower(stored["fig-ch5-boost"], factor))))
        if found:
            uneven[f"fig-ch5-boost at {factor:.0%}"] = found
    assert not uneven, uneven
    # What the test would find with the labels that collide left out one by one.
    greedy = slides.slide_spec(stored["fig-ch5-boost"])
    greedy["config"]["axis"]["labelOverlap"] = "greedy"
    assert ["0.00", "0.04", "0.06", "0.08"] in _uneven(_visible_axis_labels(vlc.vegalite_to_svg(greedy)))


def test_a_slide_says_the_setting_it_shows():
    """Figs. 3.2 and 8.2 were titled "on the chosen scale", and the slide did not say which; Fig. 1.1 at the
    geometric mean, the chapter's point, meant editing its spec by hand."""
    from irmeans_book.chapters import ch01_introduction as ch01
    from irmeans_book.chapters import ch03_scales as ch03
    from irmeans_book.chapters import ch08_logit as ch08

    def texts(fig):
        import vl_convert as vlc

        return _svg_texts(vlc.vegalite_to_svg(slides.slide_spec(fig.spec)))

    shown = texts(ch01.averages_figure().at(average="geometric mean"))
    assert "The geometric mean" in shown and "System A, last topic's score: 0.01 · Average: geometric mean" in shown
    assert "Each topic, as scored" in texts(ch03.transform_figure())
    shown = texts(ch03.transform_figure().at(Transformation="log"))
    assert "Each topic, on the log scale" in shown and any(t.endswith("Transformation: log") for t in shown)
    shown = texts(ch08.logit_figure())
    assert "Topic by topic on logit(score, ε),means dashed" in shown  # two lines (tspans), joined
    assert "Data set: nDCG: easy and middling topics · Scale: logit(score, ε) · ε: 0.001" in shown
    shown = texts(ch08.logit_figure().at(scale="log(score + ε)", eps="0.01"))
    assert "Topic by topic on log(score + ε),means dashed" in shown
    assert any("Scale: log(score + ε) · ε: 0.01" in t for t in shown)
    assert not [t for t in shown + texts(ch03.transform_figure()) if "chosen" in t]
