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
    assert spec["config"]["axis"]["labelOverlap"] == "greedy"  # labels that would collide are left out
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
    assert width == pytest.approx(slides.SLIDE_WIDTH, abs=2) and height > 300
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
    assert "εGM against trec_eval's GM" in texts  # the panels keep their own titles
    assert "Does εGM help when many scores are low?" in texts
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
