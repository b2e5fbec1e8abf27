"""`make figures` for a 16:9 slide: each figure landscape, no two of its labels overlapping, and every
mark at 3:1 contrast or more with the slide's white.

The figures are written by book/scripts/make_figures.py into a temporary folder and each SVG is
opened in Chromium, which measures its text as drawn (svg_labels.py). Fig. 7.1's colour legend
printed its labels over one another; Figs. 9.3 and 9.4 were portrait (577 x 665 and 577 x 730); the
palette's orange and sky blue are 2.3:1 on white.
"""

from __future__ import annotations

import re
import subprocess
import sys

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
    done = subprocess.run([sys.executable, str(script), "--out", str(out)], capture_output=True, text=True)
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
