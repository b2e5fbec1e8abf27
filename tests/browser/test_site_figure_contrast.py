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
