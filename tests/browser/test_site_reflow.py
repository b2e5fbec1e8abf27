"""Every page reflows at 320 px, and nothing is cut when a reader widens letters, words, lines and paragraphs.

WCAG 1.4.10 (reflow: no sideways scrolling of the page at 320 CSS px) and 1.4.12 (text spacing: line height 1.5,
paragraphs 2 lines apart, letters 0.12 em and words 0.16 em, with no loss of content). Both are read on the tour's
visit of each page at 390 px, with everything opened: the window is narrowed to 320 px and widened back, and the
spacing is applied and taken away; at 1366 px the spacing is tried too. The API reference was 370 px wide
("irmeans.errors.FileFormatError" did not break), chapter 3 and the Bibliography ran past the screen by the "#"
beside their titles; chart titles were cut ("The arithmetic mea", Fig. 1.1) and the previous and next links
clipped at 320-390 px.
"""

from __future__ import annotations

from visit import forwards, reading, settle_animations

NARROWEST = 320

#: What reaches past the right edge of the window and is not inside a box of its own that scrolls or clips it.
PAST_THE_WINDOW = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el.closest("dialog:not([open]), [hidden]") || !el.checkVisibility({ visibilityProperty: true })) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || r.right <= width + 1) continue;
    let held = false;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const x = getComputedStyle(a).overflowX;
      if (x !== "visible" && x !== "clip") { held = a.getBoundingClientRect().right <= width + 1; break; }
    }
    if (!held) out.push(`${el.tagName.toLowerCase()}.${String(el.className).split(" ")[0]} to ${Math.round(r.right)} px: "${(el.textContent || "").trim().slice(0, 40)}"`);
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, past: out.slice(0, 10) };
}"""

#: WCAG's text spacing, as a reader's style sheet would set it.
SPACING = (
    "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } "
    "p { margin-bottom: 2em !important; }"
)

#: Each text of the column's figures, and the previous and next links, cut by a box around it that clips it.
CUT = """() => {
  const out = [];
  const clips = (s) => s.overflowX !== "visible" || s.overflowY !== "visible";
  for (const el of document.querySelectorAll(".bd-article svg text, .prev-next-area a p")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !el.textContent.trim()) continue;
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      if (!clips(getComputedStyle(a))) continue;
      const b = a.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1 || r.bottom > b.bottom + 1 || r.top < b.top - 1)
        out.push(`"${el.textContent.trim().slice(0, 40)}" cut by ${a.tagName.toLowerCase()}.${String(a.getAttribute("class") || "").split(" ")[0]}`);
      break;
    }
  }
  return out;
}"""


def _resize(page, width: int, height: int) -> None:
    """Set the window's width and wait until every figure is fitted to its column again."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => new Promise((r) => setTimeout(r, 400))")  # the figures' resize handler waits 150 ms
    page.wait_for_function("() => window.irmeansTest.figuresReady()", timeout=30_000)
    settle_animations(page)


def _with_spacing(page) -> list[str]:
    page.evaluate(
        "(css) => { const s = document.createElement('style'); s.id = 'irmeans-test-spacing'; s.textContent = css;"
        " document.head.appendChild(s); }",
        SPACING,
    )
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    cut = page.evaluate(CUT)
    page.evaluate("() => document.getElementById('irmeans-test-spacing').remove()")
    return cut


@reading("reflow", widths=(390,), modes=("light",), stage="opened", pages=lambda path: not forwards(path))
def _reflow(page, where):
    height = page.viewport_size["height"]
    _resize(page, NARROWEST, height)
    found = {"past": page.evaluate(PAST_THE_WINDOW), "spacing": _with_spacing(page)}
    _resize(page, where.width, height)
    return found


@reading("text spacing", widths=(1366,), modes=("light",), stage="opened", pages=lambda path: not forwards(path))
def _spacing(page, where):
    return _with_spacing(page)


def test_every_page_reflows_at_320_px(tour):
    found = tour.found("reflow")
    assert len(found) >= 14, sorted(found)
    wide = {key[0]: f["past"] for key, f in found.items() if f["past"]["scrollWidth"] > f["past"]["width"] + 1}
    assert not wide, wide
    past = {key[0]: f["past"]["past"] for key, f in found.items() if f["past"]["past"]}
    assert not past, past


def test_nothing_is_cut_with_a_readers_text_spacing(tour):
    cut = {f"{key[0]} at {NARROWEST} px": f["spacing"] for key, f in tour.found("reflow").items() if f["spacing"]}
    cut.update({f"{key[0]} at {key[1]} px": f for key, f in tour.found("text spacing").items() if f})
    assert len(tour.found("text spacing")) >= 14
    assert not cut, cut
