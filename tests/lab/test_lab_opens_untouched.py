"""A chapter opened in the book's JupyterLab and only read is not changed: closing it asks nothing.

Every chapter was marked changed within a second of opening, so that closing an untouched chapter asked "Save
changes?": JupyterLab wrote the kernel's display name into the notebook ("Python 3 (ipykernel)" for the stored
"Python 3") and a PNG under each Vega-Lite figure. The numbering's front matter showed as an empty first cell, and
the tables for paper at the end of each chapter, with "NaN".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted(p.name for p in (ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))

#: Whether the notebook is marked changed (its tab's dirty mark), and the first cell's kind, text and height.
STATE = """() => {
  const first = document.querySelector(".jp-Notebook .jp-Cell");
  return {
    dirty: Boolean(document.querySelector(".jp-Notebook.jp-mod-dirty, .lm-TabBar-tab.jp-mod-dirty")),
    firstText: first ? first.innerText.trim().slice(0, 80) : "",
    firstHeight: first ? first.getBoundingClientRect().height : 0,
  };
}"""
#: The cells of the tables for paper (their code starts "# On paper, where"; folded, JupyterLab shows that line
#: alone): how many are drawn, and how many show a table or their code.
PAPER = """() => {
  const cells = Array.from(document.querySelectorAll(".jp-Notebook .jp-CodeCell")).filter(
    (cell) => cell.textContent.includes("On paper, where"));
  const shown = cells.filter((cell) => Array.from(cell.querySelectorAll(".jp-OutputArea-output table, .jp-InputArea-editor"))
    .some((el) => el.checkVisibility()));
  return { cells: cells.length, shown: shown.length };
}"""


@pytest.mark.parametrize("name", CHAPTERS)
def test_a_chapter_opened_and_read_is_not_changed(name, book_copy, lab_url, browser, output_dir):
    base, token = lab_url
    path = book_copy / name
    stored = path.read_text(encoding="utf-8")
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{base}/lab/workspaces/untouched-{path.stem}/tree/{name}?reset&token={token}")
        page.wait_for_selector(".jp-Notebook .jp-MarkdownCell .myst", timeout=60_000)
        page.wait_for_function("() => document.querySelector('.jp-Notebook .jp-MarkdownCell .myst').textContent.trim()")
        page.wait_for_timeout(4000)  # the kernel starts and the figures are drawn: what once marked it changed
        state = page.evaluate(STATE)
        assert not state["dirty"], f"{name}: JupyterLab marks the chapter changed on opening"
        assert state["firstText"] and state["firstHeight"] > 40, f"{name}: an empty first cell: {state}"
        # The tables for paper: folded, not shown at the end of the chapter (whose cells JupyterLab draws once they
        # are near the view: the last cell is selected, as the j key moves down the notebook).
        cells = json.loads(stored)["cells"]
        page.locator(".jp-Notebook .jp-Cell").first.click()
        page.keyboard.press("Escape")
        for _ in cells:
            page.keyboard.press("j")
        page.wait_for_timeout(1500)
        paper = page.evaluate(PAPER)
        expected = sum("paper-only" in c.get("metadata", {}).get("tags", []) for c in cells)
        assert paper["cells"] == expected, f"{name}: {paper['cells']} of its {expected} tables for paper drawn"
        assert paper["shown"] == 0, f"{name}: {paper['shown']} of its {paper['cells']} tables for paper are shown"
        assert not page.evaluate(STATE)["dirty"], f"{name}: reading it to the end marked it changed"
        assert json.loads(path.read_text(encoding="utf-8")) == json.loads(stored)  # nothing saved behind our back
    except Exception:
        page.screenshot(path=str(output_dir / f"{path.stem}-untouched-failed.png"))
        raise
    finally:
        context.close()
