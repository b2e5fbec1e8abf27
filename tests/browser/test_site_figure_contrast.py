"""Every mark of every figure stands out from the page, 3:1 or more, and every text reads at 4.5:1, in light and
in dark mode, as drawn.

WCAG's rules for the graphics a reader must see (1.4.11) and for text (1.4.3). A mark is a line, point, bar,
square, area or rule of the chart, or the swatch of its legend. Its colour is the one the browser draws (the
site's style sheet may give a mark another colour than its spec, for the page's mode: book/static/irmeans.css),
blended with the page by its opacity: points drawn at Vega-Lite's default opacity of 0.7 fell below 3:1 (144 of
383 marks in 11 figures on a light page), and Fig. 2.1's shaded blocks were 1.52:1. Fig. 6.1's arithmetic-mean
line was black on the dark page (1.12:1), Fig. 2.2's non-relevant squares brighter than the relevant ones there,
the palette's orange and sky blue are below 3:1 on white, and the value labels of Figs. 3.1 and 4.2, in their
bars' colours, 3.5 to 3.9:1.
"""

from __future__ import annotations

import re

import pytest
import sitetools
from visit import reading

#: Every mark and every text of every figure as drawn, its colour blended with the page by its opacity (the
#: mark's own, its paint's and its groups'): {marks, low, texts, low_text}, each low one {figure, colour,
#: contrast, mark}. A mark passes by its fill or by an outline at least 1 px wide; a text by its fill, at
#: 4.5:1 (3:1 from 24 px, or 18.7 px bold: WCAG's large text).
MARKS = """([minimum, minimumText]) => {
  const rgb = (c) => { const m = c && c.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?/); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const blend = (c, alpha, bg) => [0, 1, 2].map((i) => alpha * c[i] + (1 - alpha) * bg[i]);
  let page = null;
  for (let el = document.querySelector(".bd-article"); el; el = el.parentElement) {
    const c = rgb(getComputedStyle(el).backgroundColor);
    if (c && c[3] > 0) { page = c; break; }
  }
  page = page || [255, 255, 255, 1];
  const opacity = (el, svg) => { let o = 1; for (let e = el; e && e !== svg.parentElement; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
  // What the paint looks like on the page: its colour blended by every opacity on the way.
  const drawn = (paint, alpha, o) => { const c = paint && paint !== "none" ? rgb(paint) : null; return c && c[3] * alpha * o > 0 ? blend(c, c[3] * alpha * o, page) : null; };
  const shown = (c) => `rgb(${c.map(Math.round).join(", ")})`;
  // What a mark or a text is drawn on: the last bar, block or cell drawn before it that holds it whole (its
  // colour as drawn on the page), or the page (a glyph in a cell of Fig. 7.1, a label inside a bar of Fig. 7.2).
  const under = (el, svg) => {
    const box = el.getBoundingClientRect();
    const stroke = getComputedStyle(el).stroke;
    const half = stroke && stroke !== "none" ? parseFloat(getComputedStyle(el).strokeWidth) / 2 || 0 : 0;
    const r = { left: box.left - half, right: box.right + half, top: box.top - half, bottom: box.bottom + half };
    let found = page;
    for (const rect of svg.querySelectorAll("g.mark-rect.role-mark > path")) {
      if (rect === el || !(rect.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      const b = rect.getBoundingClientRect();
      if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) continue;
      const s = getComputedStyle(rect);
      const fill = drawn(s.fill, parseFloat(s.fillOpacity), opacity(rect, svg));
      if (fill) found = fill;
    }
    return found;
  };
  const low = [], lowText = [];
  let marks = 0, texts = 0;
  for (const fig of document.querySelectorAll(".irmeans-figure")) {
    const svg = fig.querySelector("svg");
    if (!svg) continue;
    const caption = fig.closest("figure") && fig.closest("figure").querySelector(".caption-number");
    const name = caption ? caption.textContent.trim() : fig.id;
    // The marks' own groups (vega: g.mark-line.role-mark, g.mark-symbol.role-legend-symbol, ...): not
    // the axes, the frames and backgrounds, nor text.
    const shapes = Array.from(svg.querySelectorAll("g[class*='mark-'] > path, g[class*='mark-'] > line, g[class*='mark-'] > rect"));
    for (const el of shapes) {
      const g = el.parentElement;
      const cls = g.getAttribute("class") || "";
      if (!/role-(mark|legend-symbol)/.test(cls) || /mark-(text|group)/.test(cls) || el.classList.contains("background")) continue;
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue;
      // A bar's part narrower than a pixel draws nothing a reader could see (Fig. 7.2's 0.2 % of a sum).
      if (/mark-rect/.test(cls) && (r.width < 1 || r.height < 1)) continue;
      const style = getComputedStyle(el);
      const o = opacity(el, svg);
      const fill = drawn(style.fill, parseFloat(style.fillOpacity), o);
      const stroke = parseFloat(style.strokeWidth) >= 1 ? drawn(style.stroke, parseFloat(style.strokeOpacity), o) : null;
      const paints = [fill, stroke].filter(Boolean);
      if (!paints.length) continue;  // nothing drawn (a hit area)
      marks++;
      const ground = under(el, svg);
      const best = paints.reduce((a, c) => (contrast(c, ground) > contrast(a, ground) ? c : a));
      const k = contrast(best, ground);
      if (k < minimum) low.push({ figure: name, colour: shown(best), contrast: Math.round(k * 100) / 100, mark: cls });
    }
    for (const text of svg.querySelectorAll("text")) {
      if (!text.textContent.trim() || !text.getBoundingClientRect().width) continue;
      const style = getComputedStyle(text);
      const c = drawn(style.fill, parseFloat(style.fillOpacity), opacity(text, svg));
      if (!c) continue;
      texts++;
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
      const k = contrast(c, under(text, svg));
      if (k < (large ? minimum : minimumText))
        lowText.push({ figure: name, colour: shown(c), contrast: Math.round(k * 100) / 100, mark: text.textContent.trim().slice(0, 30) });
    }
  }
  const once = (list) => { const seen = new Set(); return list.filter((x) => { const key = x.figure + x.colour + x.mark; if (seen.has(key)) return false; seen.add(key); return true; }); };
  return { marks, low: once(low), texts, low_text: once(lowText) };
}"""
MIN_CONTRAST = 3.0
#: WCAG's contrast for text (1.4.3): 4.5:1, and 3:1 for large text.
MIN_TEXT_CONTRAST = 4.5


def has_figures(path: str) -> bool:
    """Whether the page at ``path`` holds an interactive figure (read from the built file)."""
    return "irmeans-figure" in (sitetools.SITE / path).read_text(encoding="utf-8")


@reading("mark contrast", widths=(1366,), pages=has_figures)
def _mark_contrast(page, where):
    return page.evaluate(MARKS, [MIN_CONTRAST, MIN_TEXT_CONTRAST])


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_every_mark_of_every_figure_has_3_to_1_contrast_with_the_page(tour, mode):
    found = {key: f for key, f in tour.found("mark contrast").items() if key[2] == mode}
    assert len(found) >= 8, sorted(found)
    assert sum(f["marks"] for f in found.values()) > 500
    low = [
        f"{key[0]}: {x['figure']} {x['mark']} {x['colour']} at {x['contrast']}:1"
        for key, f in found.items()
        for x in f["low"]
    ]
    assert not low, "\n".join(low)


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_every_text_of_every_figure_has_4_5_to_1_contrast_with_the_page(tour, mode):
    found = {key: f for key, f in tour.found("mark contrast").items() if key[2] == mode}
    assert sum(f["texts"] for f in found.values()) > 500
    low = [
        f"{key[0]}: {x['figure']} {x['mark']!r} {x['colour']} at {x['contrast']}:1"
        for key, f in found.items()
        for x in f["low_text"]
    ]
    assert not low, "\n".join(low)


# ----------------------------------------------------------------------------- marks told apart, marks inside

#: Each legend of each figure: its entries' symbol (shape, as its path) and colour as drawn, and label.
LEGENDS = """() => Array.from(document.querySelectorAll(".irmeans-figure")).map((fig) => {
  const caption = fig.closest("figure") && fig.closest("figure").querySelector(".caption-number");
  const legends = Array.from(fig.querySelectorAll("svg g.role-legend")).map((legend) =>
    // Each entry: an item (a <g>) of the entries' scope, with its symbol and its label.
    Array.from(legend.querySelectorAll("g.role-legend-entry g.role-scope > g")).map((entry) => {
      const symbol = entry.querySelector(".role-legend-symbol path");
      const label = entry.querySelector(".role-legend-label text");
      if (!symbol) return null;
      const s = getComputedStyle(symbol);
      const filled = s.fill && s.fill !== "none" && !/rgba\\(.*,\\s*0\\)$/.test(s.fill) && parseFloat(s.fillOpacity) > 0.3;
      // A line's dashes tell it apart as a marker's shape does, and a hollow marker from a filled one.
      const shape = symbol.getAttribute("d") + " " + (s.strokeDasharray || "none") + (filled ? " filled" : " hollow");
      return { label: label ? label.textContent : "", shape: shape, colour: filled ? s.fill : s.stroke };
    }).filter(Boolean));
  const words = fig.querySelectorAll("svg g.mark-text.role-mark text").length;
  return { figure: caption ? caption.textContent.trim() : fig.id, legends, words };
})"""
#: Two legend entries with the same symbol whose colours are closer than this (CIEDE2000) look alike.
ALIKE = 15.0


@reading("legend entries", widths=(1366,), pages=has_figures)
def _legend_entries(page, where):
    return page.evaluate(LEGENDS)


def _lab(colour: str) -> tuple[float, float, float]:
    import re

    r, g, b = (float(v) for v in re.findall(r"[\d.]+", colour)[:3])

    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = linear(r), linear(g), linear(b)
    x, y, z = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )
    f = lambda t: t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116  # noqa: E731
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(c1: str, c2: str) -> float:
    """CIEDE2000 colour difference of two CSS colours (rgb(...))."""
    import math

    (L1, a1, b1), (L2, a2, b2) = _lab(c1), _lab(c2)
    C1, C2 = math.hypot(a1, b1), math.hypot(a2, b2)
    G = 0.5 * (1 - math.sqrt(((C1 + C2) / 2) ** 7 / (((C1 + C2) / 2) ** 7 + 25**7)))
    a1, a2 = (1 + G) * a1, (1 + G) * a2
    C1, C2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1, h2 = math.degrees(math.atan2(b1, a1)) % 360, math.degrees(math.atan2(b2, a2)) % 360
    dh = 0 if C1 * C2 == 0 else (h2 - h1 - 360 if h2 - h1 > 180 else h2 - h1 + 360 if h2 - h1 < -180 else h2 - h1)
    dH = 2 * math.sqrt(C1 * C2) * math.sin(math.radians(dh / 2))
    L, C = (L1 + L2) / 2, (C1 + C2) / 2
    if C1 * C2 == 0:
        h = h1 + h2
    elif abs(h1 - h2) <= 180:
        h = (h1 + h2) / 2
    else:
        h = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    T = (
        1
        - 0.17 * math.cos(math.radians(h - 30))
        + 0.24 * math.cos(math.radians(2 * h))
        + 0.32 * math.cos(math.radians(3 * h + 6))
        - 0.20 * math.cos(math.radians(4 * h - 63))
    )
    RT = -math.sin(math.radians(60 * math.exp(-(((h - 275) / 25) ** 2)))) * 2 * math.sqrt(C**7 / (C**7 + 25**7))
    SL, SC, SH = 1 + 0.015 * (L - 50) ** 2 / math.sqrt(20 + (L - 50) ** 2), 1 + 0.045 * C, 1 + 0.015 * C * T
    dL, dC = L2 - L1, C2 - C1
    return math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH))


#: Legends whose entries differ by colour alone, and what else tells their marks apart: the marks say what they
#: are in words (Fig. 7.2's parts of a bar say their rank), or the legend's words say how each is drawn.
TOLD_APART_IN_WORDS = {"Fig. 7.2": "each part of a bar is labelled with its rank"}
DRAWING_NAMED = re.compile(r"\((solid|hollow|dashed|dotted)\b[^)]*\)")


@pytest.mark.parametrize("mode", ["light"])
def test_no_legend_tells_its_entries_apart_by_colour_alone(tour, mode):
    """Figs. 4.1, 5.2, 7.1 and 7.2 told their series apart by colour alone (WCAG 1.4.1): each entry of a legend
    has a mark, dashes or fill of its own, or the figure says in words which is which."""
    found = {key: f for key, f in tour.found("legend entries").items() if key[2] == mode}
    alike, legends = [], 0
    for key, figures in found.items():
        for figure in figures:
            if figure["figure"] in TOLD_APART_IN_WORDS:
                assert figure["words"] >= 3, f"{figure['figure']}: {TOLD_APART_IN_WORDS[figure['figure']]}: {figure}"
                continue
            for legend in figure["legends"]:
                legends += len(legend) > 1
                for i, a in enumerate(legend):
                    for b in legend[i + 1 :]:
                        named = DRAWING_NAMED.search(a["label"]) and DRAWING_NAMED.search(b["label"])
                        if a["shape"] == b["shape"] and not named:
                            alike.append(f"{key[0]}: {figure['figure']}: {a['label']!r} and {b['label']!r}")
    assert legends > 15, legends
    assert not alike, sorted(set(alike))


def test_colour_difference_of_two_oranges():
    assert delta_e("rgb(194, 120, 0)", "rgb(213, 94, 0)") < ALIKE < delta_e("rgb(194, 120, 0)", "rgb(204, 121, 167)")


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_no_two_entries_of_a_legend_look_alike(tour, mode):
    """Fig. 9.3 drew εGM and εHM in two near-identical oranges (orange and vermilion, each a shade darker on
    a light page), with the same marker: each entry of a legend differs from the others in its symbol's
    shape (or a line's dashes) or clearly in its colour. (Fig. 7.1's heatmap had the same two oranges, and
    Fig. 4.1 a sky blue and a blue as close, on a light page.)"""
    found = {key: f for key, f in tour.found("legend entries").items() if key[2] == mode}
    alike, entries = [], 0
    for key, figures in found.items():
        for figure in figures:
            for legend in figure["legends"]:
                entries += len(legend)
                for i, a in enumerate(legend):
                    for b in legend[i + 1 :]:
                        if a["shape"] == b["shape"] and delta_e(a["colour"], b["colour"]) < ALIKE:
                            alike.append(f"{key[0]}: {figure['figure']}: {a['label']!r} and {b['label']!r}")
    assert entries > 40, entries
    assert not alike, sorted(set(alike))


#: Each point of each figure that reaches past its plot's frame (onto an axis), by its figure.
POINTS_OUTSIDE = """() => {
  const out = [];
  let points = 0;
  for (const fig of document.querySelectorAll(".irmeans-figure")) {
    const caption = fig.closest("figure") && fig.closest("figure").querySelector(".caption-number");
    for (const path of fig.querySelectorAll("svg g.mark-symbol.role-mark > path")) {
      const scope = path.closest("g.mark-group.role-scope");
      const frame = scope && scope.querySelector(":scope > g > path.background");
      const r = path.getBoundingClientRect();
      if (!frame || !r.width) continue;
      points++;
      const f = frame.getBoundingClientRect();
      if (r.top < f.top - 1 || r.bottom > f.bottom + 1 || r.left < f.left - 1 || r.right > f.right + 1)
        out.push(`${caption ? caption.textContent.trim() : fig.id}: a point at ${Math.round(r.left)},${Math.round(r.top)} past its frame ${Math.round(f.left)}..${Math.round(f.right)}, ${Math.round(f.top)}..${Math.round(f.bottom)}`);
    }
  }
  return { points, outside: out };
}"""


@reading("points inside plots", widths=(1366,), modes=("light",), pages=has_figures)
def _points_inside(page, where):
    return page.evaluate(POINTS_OUTSIDE)


#: The figures whose points must all lie inside their plots: scatter plots, whose points are the data. (In
#: other figures a point at the end of its scale, a score of 0 or 1, sits on the plot's edge by design.)
SCATTER_PLOTS = ("Fig. 9.4",)


def test_no_point_of_a_scatter_plot_is_drawn_over_its_plots_edge(tour):
    """Fig. 9.4 drew a P@20 triangle at y = −0.20 on the x axis, its lower half cut off by it: its scales
    leave room around the points."""
    found = tour.found("points inside plots")
    assert sum(f["points"] for f in found.values()) > 200
    outside = [p for f in found.values() for p in f["outside"] if p.startswith(SCATTER_PLOTS)]
    assert any(key[0].endswith("09-consistency.html") for key in found)
    assert not outside, outside
