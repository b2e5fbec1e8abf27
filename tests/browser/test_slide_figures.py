"""`make figures` for a 16:9 slide: each figure landscape, no two of its labels overlapping, and every
mark at 3:1 contrast or more with the slide's white.

The figures are written by book/scripts/make_figures.py into a temporary folder and each SVG is
opened in Chromium, which measures its text as drawn (svg_labels.py). Fig. 7.1's colour legend
printed its labels over one another; Figs. 9.3 and 9.4 were portrait (577 x 665 and 577 x 730); the
palette's orange and sky blue are 2.3:1 on white. Figs. 1.1, 3.2 and 8.2 showed circles in their
legends for systems drawn as squares; Fig. 5.2's MAP line ran through the GMAP label; field names
("average", "measure", "judgement", "topic") stood as titles where the chapter asked for none.
"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import sitetools
import svg_labels

#: The colour of every drawn mark and legend swatch whose contrast with white is below 3:1.
PALE_MARKS = """() => {
  const rgb = (c) => { const m = c.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?/); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const out = [];
  let marks = 0;
  for (const el of document.querySelectorAll("svg g[class*='mark-'] > path, svg g[class*='mark-'] > line, svg g[class*='mark-'] > rect")) {
    const cls = el.parentElement.getAttribute("class") || "";
    if (!/role-(mark|legend-symbol)/.test(cls) || /mark-(text|group)/.test(cls)) continue;
    const s = getComputedStyle(el);
    let o = 1;
    for (let e = el; e && e.tagName !== "svg"; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity);
    const fill = s.fill !== "none" ? rgb(s.fill) : null;
    const filled = fill && fill[3] > 0 && parseFloat(s.fillOpacity) * o >= 0.5;
    const paint = filled ? s.fill : s.stroke;
    const c = paint && paint !== "none" ? rgb(paint) : null;
    if (!c || c[3] === 0 || (!filled && (parseFloat(s.strokeOpacity) * o < 0.5 || parseFloat(s.strokeWidth) === 0))) continue;
    marks++;
    const k = 1.05 / (lum(c) + 0.05);
    if (k < 3) out.push(`${cls.split(" ")[0]} ${paint} at ${Math.round(k * 100) / 100}:1`);
  }
  return { marks, pale: Array.from(new Set(out)) };
}"""


@pytest.fixture(scope="module")
def slides(tmp_path_factory):
    out = tmp_path_factory.mktemp("figures")
    script = sitetools.ROOT / "book" / "scripts" / "make_figures.py"
    # SVG alone: what these tests read (the PNG and PDF are vl-convert's renderings of the same spec).
    command = [sys.executable, str(script), "--out", str(out), "--formats", "svg"]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    svgs = sorted(out.glob("fig-*.svg"))
    assert len(svgs) >= 15, svgs
    return svgs


@pytest.fixture(scope="module")
def tab(browser):
    page = browser.new_page()
    yield page
    page.close()


def _size(svg):
    match = re.search(r'<svg[^>]*\bwidth="([\d.]+)"[^>]*\bheight="([\d.]+)"', svg.read_text(encoding="utf-8"))
    return float(match.group(1)), float(match.group(2))


def test_every_slide_figure_is_landscape(slides):
    portrait = [f"{s.name}: {w:.0f} x {h:.0f}" for s in slides for w, h in [_size(s)] if h > w]
    assert not portrait, portrait


def test_no_two_labels_of_a_slide_figure_overlap(slides, tab):
    found = {}
    for svg in slides:
        boxes = svg_labels.text_boxes(tab, svg)
        assert boxes, svg.name
        if overlaps := svg_labels.overlapping(boxes):
            found[svg.name] = overlaps[:5]
    assert not found, found


def test_every_mark_of_a_slide_figure_has_3_to_1_contrast_with_white(slides, tab):
    found, marks = {}, 0
    for svg in slides:
        tab.set_content(f"<html><body style='margin:0;background:#fff'>{svg.read_text(encoding='utf-8')}</body></html>")
        measured = tab.evaluate(PALE_MARKS)
        marks += measured["marks"]
        if measured["pale"]:
            found[svg.name] = measured["pale"]
    assert marks > 300, marks
    assert not found, found


SVG = "{http://www.w3.org/2000/svg}"
#: Text a reader takes for a title: axis and legend titles, view titles, facet headers.
TITLE_ROLES = re.compile(r"role-(axis-title|legend-title|title-text|column-title|row-title|column-header|row-header)")
#: A title may open with a formula's function name in lower case ("log x", "log10 ε").
FORMULA = re.compile(r"^(log\d*|logit|exp)\b")


def _groups(svg, role):
    """The ``<g>`` elements of ``svg`` whose class names ``role`` (a regular expression)."""
    return [g for g in ET.parse(svg).getroot().iter(f"{SVG}g") if re.search(role, g.get("class", ""))]


def _shape(path):
    """A symbol's outline without its size: the path's commands, numbers left out (a circle at any size is one)."""
    return re.sub(r"[-\d.,e\s]+", "", path.get("d", ""))


def test_every_title_of_a_slide_figure_starts_with_a_capital(slides):
    found = {}
    titles = 0
    for svg in slides:
        for g in _groups(svg, r"mark-text " + TITLE_ROLES.pattern):
            for text in ("".join(t.itertext()).strip() for t in g.iter(f"{SVG}text")):
                titles += bool(text)
                if text[:1].isascii() and text[:1].islower() and not FORMULA.match(text):
                    found.setdefault(svg.name, []).append(text)
    assert titles > 80, titles
    assert not found, found


def test_a_legend_shows_the_marks_it_names(slides):
    """A legend of symbols, every colour of which the plot draws as symbols: each of its symbols has the shape
    of the plot's symbols of its colour (a legend of another kind of mark, cells or lines, is not compared)."""
    found = {}
    checked = 0
    for svg in slides:
        marks = {}
        for g in _groups(svg, r"mark-symbol role-mark"):
            for p in g.iter(f"{SVG}path"):
                if p.get("fill", "none").lower() not in ("none", "transparent"):  # drawn in outline: no colour to match
                    marks.setdefault(p.get("fill", "").upper(), set()).add(_shape(p))
        for legend in _groups(svg, r"role-legend(?![-\w])"):
            symbols = [
                (p.get("fill", "").upper(), _shape(p))
                for g in legend.iter(f"{SVG}g")
                if "role-legend-symbol" in g.get("class", "")
                for p in g.iter(f"{SVG}path")
            ]
            if not symbols or not all(colour in marks for colour, _ in symbols):
                continue
            checked += 1
            wrong = [f"{c}: legend {shape}, marks {sorted(marks[c])}" for c, shape in symbols if shape not in marks[c]]
            if wrong:
                found.setdefault(svg.name, []).extend(wrong)
    assert checked >= 4, checked
    assert not found, found


#: Each label the plot draws, and each rule (a line across the plot), as drawn: their boxes.
LABELS_AND_RULES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return { x0: r.left, y0: r.top, x1: r.right, y1: r.bottom }; };
  const labels = Array.from(document.querySelectorAll("g.mark-text.role-mark text")).filter((t) => t.textContent.trim())
    .map((t) => ({ text: t.textContent.trim(), ...box(t) }));
  const rules = Array.from(document.querySelectorAll("g.mark-rule.role-mark line, g.mark-rule.role-mark path")).map(box);
  return { labels, rules };
}"""


def test_no_line_of_a_slide_figure_runs_through_a_label(slides, tab):
    found, rules = {}, 0
    for svg in slides:
        tab.set_content(f"<html><body style='margin:0'>{svg.read_text(encoding='utf-8')}</body></html>")
        drawn = tab.evaluate(LABELS_AND_RULES)
        rules += len(drawn["rules"])
        for label in drawn["labels"]:
            inner = {
                k: v + (svg_labels.SLACK if k.endswith("0") else -svg_labels.SLACK)
                for k, v in label.items()
                if k != "text"
            }
            for rule in drawn["rules"]:
                across = min(inner["x1"], rule["x1"]) - max(inner["x0"], rule["x0"])
                down = min(inner["y1"], rule["y1"]) - max(inner["y0"], rule["y0"])
                if across >= 0 and down >= 0:  # a rule is a box of no width (or height): touching is crossing
                    found.setdefault(svg.name, []).append(label["text"])
    assert rules >= 10, rules
    assert not found, found
