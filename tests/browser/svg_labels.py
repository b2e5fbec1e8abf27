"""The text boxes of an SVG as Chromium draws it, and the pairs of them that overlap.

Used on the slide figures of ``make figures`` (tests/browser/test_slide_figures.py) and on the site's
figures' axes (tests/browser/test_site_figure_labels.py).
"""

from __future__ import annotations

from pathlib import Path

#: Every drawn text element's box and text, in the SVG's own pixels.
TEXT_BOXES = """() => {
  // Drawn: vega hides a label it drops for want of room with opacity 0, and leaves it in the file.
  const drawn = (t) => { for (let e = t; e && e.tagName !== "svg"; e = e.parentElement) if (parseFloat(getComputedStyle(e).opacity) === 0) return false; return true; };
  return Array.from(document.querySelectorAll("svg text")).filter((t) => t.textContent.trim() && drawn(t)).map((t) => {
  const r = t.getBoundingClientRect();
  return { text: t.textContent.trim(), x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
  });
}"""
#: Two labels overlap when their boxes share more than this many px in both directions (a glyph's
#: box reaches a little past its ink: boxes that just touch are not a collision).
SLACK = 1.5


def text_boxes(page, svg: Path) -> list[dict]:
    """The boxes of every non-empty text of ``svg``, opened in ``page`` (a Playwright page)."""
    page.set_content(f"<html><body style='margin:0'>{svg.read_text(encoding='utf-8')}</body></html>")
    return page.evaluate(TEXT_BOXES)


def overlapping(boxes: list[dict], slack: float = SLACK) -> list[tuple[str, str]]:
    """The pairs of texts whose boxes overlap by more than ``slack`` px in both directions (a negative
    ``slack``: the pairs that come closer than that).

    Examples
    --------
    >>> overlapping([{"text": "0.00001", "x0": 0, "y0": 0, "x1": 40, "y1": 10},
    ...              {"text": "0.001", "x0": 38, "y0": 0, "x1": 70, "y1": 10},
    ...              {"text": "10", "x0": 100, "y0": 0, "x1": 110, "y1": 10}])
    [('0.00001', '0.001')]
    >>> overlapping([{"text": "0.0", "x0": 0, "y0": 0, "x1": 10, "y1": 10},
    ...              {"text": "0.1", "x0": 11, "y0": 0, "x1": 21, "y1": 10}], slack=-2)
    [('0.0', '0.1')]
    """
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            dx = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
            dy = min(a["y1"], b["y1"]) - max(a["y0"], b["y0"])
            if dx > slack and dy > slack:
                found.append((a["text"], b["text"]))
    return found
