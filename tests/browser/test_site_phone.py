"""What a reader sees first, and whether a table reads, on a phone held upright (390 px) and on a laptop.

A reader on a phone found chapter 7's table of the Robust track's pairs of runs 2,582 px tall, each of its
eight rows 320 px, one column squeezed to 70 px, and chapter 5's table of Robertson's figures with a
description wrapped to eight lines; and on the home page, the chapter list 2.3 screens down, below the
downloads' SHA-256 hashes, with no link to where to start and the PDFs inside a paragraph about JupyterLab.
"""

from __future__ import annotations

from visit import reading

#: The most lines of its text a table's row may take on a phone before it stops reading as a row.
MOST_LINES = 3

#: Each visible table's rows that are taller than MOST_LINES lines of their own text: the page's tables in its
#: article, on screen (a table for paper is hidden there), each row's tallest cell counted in its own lines; a row
#: shown as a block (a table of text stacked on a phone, irmeans-page.js) is no row.
TALL_ROWS = """(most) => {
  const found = [];
  const tables = Array.from(document.querySelectorAll(".bd-article table")).filter((t) => t.checkVisibility());
  tables.forEach((table, t) => {
    Array.from(table.rows).forEach((row, r) => {
      if (getComputedStyle(row).display !== "table-row") return;  // stacked: a block, not a row
      let lines = 0;
      for (const cell of row.cells) {
        if (cell.rowSpan > 1) continue;  // a label spanning rows is as tall as they are
        const style = getComputedStyle(cell);
        const size = parseFloat(style.fontSize);
        const line = style.lineHeight === "normal" ? 1.2 * size : parseFloat(style.lineHeight);
        const inner = cell.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
        lines = Math.max(lines, Math.round(inner / line));
      }
      if (lines > most) {
        found.push({ table: t, row: r, lines, height: Math.round(row.getBoundingClientRect().height),
                     text: row.textContent.trim().replace(/\\s+/g, " ").slice(0, 60) });
      }
    });
  });
  return { tables: tables.length, tall: found.slice(0, 5) };
}"""


@reading("tall table rows", widths=(390,), modes=("light",))
def _tall_rows(page, where):
    return page.evaluate(TALL_ROWS, MOST_LINES)


def test_on_a_phone_no_table_row_is_taller_than_three_lines_of_its_text(tour):
    found = tour.found("tall table rows")
    assert sum(f["tables"] for f in found.values()) > 10  # the tour saw the book's tables
    tall = {key[0]: f["tall"] for key, f in found.items() if f["tall"]}
    assert not tall, tall


def test_the_check_finds_a_row_too_tall(browser, base_url):
    """The reading itself: a table whose cell holds a long text in a narrow column is found."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_content(
        '<article class="bd-article"><table><tr><td style="width:60px">'
        + "a long description of a figure " * 8
        + "</td><td>0.309</td></tr><tr><td>short</td><td>0.117</td></tr></table></article>"
    )
    found = page.evaluate(TALL_ROWS, MOST_LINES)
    context.close()
    assert found["tables"] == 1 and [r["row"] for r in found["tall"]] == [0]


#: Where, on the first screen, the home page's links for a student and for a lecturer are: each link's href and
#: whether it is visible and inside the viewport, top and bottom.
FIRST_SCREEN = """() => {
  window.scrollTo(0, 0);
  return Array.from(document.querySelectorAll(".bd-article a[href]")).map((a) => {
    const r = a.getBoundingClientRect();
    return { href: a.getAttribute("href"), text: a.textContent.trim(),
             seen: a.checkVisibility() && r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight };
  });
}"""


@reading("home page's first screen", modes=("light",), pages=lambda path: path == "chapters/index.html")
def _first_screen(page, where):
    return page.evaluate(FIRST_SCREEN)


def test_the_home_pages_first_screen_shows_where_to_start_and_where_the_pdfs_and_slides_are(tour):
    found = tour.found("home page's first screen")
    assert {key[1] for key in found} == {390, 1366}, found.keys()
    for key, links in found.items():
        seen = [link["href"] for link in links if link["seen"]]
        assert any(h.split("#")[0].endswith("01-introduction.html") for h in seen), (key, seen)
        assert any(h.endswith("irmeans-book.pdf") for h in seen), (key, seen)
        assert any("figures-for-slides" in h for h in seen), (key, seen)
