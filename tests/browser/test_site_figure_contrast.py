"""Every mark of every figure stands out from the page: 3:1 contrast or more, in light and in dark mode.

WCAG's rule for the graphics a reader must see (1.4.11). A mark is a line, point, bar, square or
rule of the chart, or the swatch of its legend; a mark drawn at less than half opacity is a
background band, not a mark. The colours are the ones the browser draws (the site's style sheet
may give a mark another colour than its spec, for the page's mode: book/static/irmeans.css).
Fig. 6.1's arithmetic-mean line was black on the dark page (1.12:1), Fig. 2.2's non-relevant
squares brighter than the relevant ones there, and the palette's orange and sky blue are below
3:1 on white.
"""

from __future__ import annotations

import pytest
import sitetools
from visit import reading

#: The colours of every mark drawn: {figure, colour, contrast, what} for each below MIN_CONTRAST.
MARKS = """(minimum) => {
  const rgb = (c) => { const m = c.match(/rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?/); return m ? [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]] : null; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  let page = null;
  for (let el = document.querySelector(".bd-article"); el; el = el.parentElement) {
    const c = rgb(getComputedStyle(el).backgroundColor);
    if (c && c[3] > 0) { page = c; break; }
  }
  page = page || [255, 255, 255, 1];
  const opacity = (el, svg) => { let o = 1; for (let e = el; e && e !== svg; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
  const low = [];
  let marks = 0;
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
      const style = getComputedStyle(el);
      const o = opacity(el, svg);
      // A filled shape is judged by its fill (a thin outline, such as the white between bars, only separates).
      const filled = style.fill !== "none" && rgb(style.fill) && rgb(style.fill)[3] > 0 && parseFloat(style.fillOpacity) * o >= 0.5;
      const paints = filled ? [[style.fill, parseFloat(style.fillOpacity)]] : [[style.stroke, parseFloat(style.strokeOpacity)]];
      for (const [paint, alpha] of paints) {
        const c = paint && paint !== "none" ? rgb(paint) : null;
        if (!c || c[3] === 0 || alpha * o * c[3] < 0.5) continue;
        if (paint === style.stroke && parseFloat(style.strokeWidth) === 0) continue;
        marks++;
        const k = contrast(c, page);
        if (k < minimum) low.push({ figure: name, colour: paint, contrast: Math.round(k * 100) / 100, mark: g.getAttribute("class") });
      }
    }
  }
  const seen = new Set();
  return { marks, low: low.filter((x) => { const key = x.figure + x.colour; if (seen.has(key)) return false; seen.add(key); return true; }) };
}"""
MIN_CONTRAST = 3.0


def has_figures(path: str) -> bool:
    """Whether the page at ``path`` holds an interactive figure (read from the built file)."""
    return "irmeans-figure" in (sitetools.SITE / path).read_text(encoding="utf-8")


@reading("mark contrast", widths=(1366,), pages=has_figures)
def _mark_contrast(page, where):
    return page.evaluate(MARKS, MIN_CONTRAST)


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
      // A line's dashes tell it apart as a marker's shape does.
      const shape = symbol.getAttribute("d") + " " + (s.strokeDasharray || "none");
      return { label: label ? label.textContent : "", shape: shape, colour: filled ? s.fill : s.stroke };
    }).filter(Boolean));
  return { figure: caption ? caption.textContent.trim() : fig.id, legends };
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
