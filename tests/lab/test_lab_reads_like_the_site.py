"""Chapters in the book's JupyterLab read like the site: numbers, figure references and citations, as opened
(from what `make notebooks` stored), and chapter 4 after "Run All" too (from a fresh kernel).

"Run All" is here for what only it shows: jupyterlab-myst, in the reader's JupyterLab, evaluates each
markdown cell's expressions in the kernel and shows what the book stores. That the stored values are what
the code computes is checked for every chapter by nbval (tests/notebook_check.py); chapter 9, the longest,
is read as opened only.

A markdown cell's text as jupyterlab-myst renders it must hold every value stored
for its ``{eval}`` roles, and no glue name, figure label, citation key, MyST role
or expression. Between the two checks, the stored values on disk are replaced
by a marker and the notebook reloaded: the marker shows (so "as opened" is read
from what is stored), and "Run All" replaces every one of them with what the
kernel computes, which must be what was stored. No pop-up asks about Jupyter's
news, and the page fetches nothing from outside the server.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Each chapter read, and whether it is run too.
CHAPTERS = {"04-averaging.ipynb": True, "09-consistency.ipynb": False}
STALE = "STALE-VALUE"
NEWS = "official Jupyter news"
#: Each markdown cell's rendered text (jupyterlab-myst renders into a ``.myst`` element).
MARKDOWN_TEXTS = """() => Array.from(document.querySelectorAll(".jp-Notebook .jp-MarkdownCell"))
    .map((cell) => { const m = cell.querySelector(".myst"); return m ? m.textContent : null; })"""
#: "Run All" is done: no marker is left in the prose and no cell waits ("[*]") or runs.
ALL_RUN = """(marker) => {
    const notebook = document.querySelector(".jp-Notebook");
    const prompts = Array.from(notebook.querySelectorAll(".jp-CodeCell .jp-InputPrompt"));
    return !notebook.textContent.includes(marker) && !prompts.some((p) => p.textContent.includes("*"));
}"""


def _keys() -> set[str]:
    """The bibliography's keys with a year in them (``trec_eval``, a key too, is also the tool's name in the text)."""
    keys = re.findall(r"^@\w+\{([^,\s]+),", (ROOT / "references.bib").read_text(encoding="utf-8"), re.M)
    return {key for key in keys if re.search(r"\d", key)}


RAW = [
    re.compile(r"\{(?:eval|glue|cite|numref|doc|ref)\b"),  # a MyST role left as written
    re.compile(r"\bch\d+_\w+"),  # a glue name or a prose variable
    re.compile(r"\bfig-ch\d+-[\w-]+"),  # a figure label
    re.compile(r'f"\{|%s'),  # an expression or a numref template
    re.compile(r"\b(?:" + "|".join(re.escape(k) for k in sorted(_keys())) + r")\b"),  # a citation key
    re.compile(r"\b\w*Error\b"),  # an expression that failed
]


def raw_left(text: str) -> list[str]:
    """What ``text`` shows of the markdown's machinery instead of its values."""
    return [m.group(0) for pattern in RAW for m in pattern.finditer(text)]


def _plain(result: dict) -> str:
    return re.sub(r"^([\"'])(.*)\1$", r"\2", result["data"]["text/plain"])


def _stored(path: Path) -> list[list[str]]:
    """For each markdown cell, the plain text of each stored {eval} result."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        [_plain(s["result"]) for s in c.get("metadata", {}).get("user_expressions", [])]
        for c in cells
        if c["cell_type"] == "markdown"
    ]


def test_raw_machinery_is_found():
    assert raw_left("S1 (ch4_S1_GM) in fig-ch4-eps, see robertson2006gmap and {eval}`x` or NameError") == [
        "{eval",
        "ch4_S1_GM",
        "fig-ch4-eps",
        "robertson2006gmap",
        "NameError",
    ]
    assert raw_left("S1 (0.189) in Fig. 4.1, see [Robertson, 2006]") == []


def _texts(page, cells: int) -> list[str]:
    page.wait_for_function(f"() => ({MARKDOWN_TEXTS})().filter((t) => t !== null).length === {cells}", timeout=60_000)
    page.wait_for_timeout(1000)  # the inline results are drawn after the cell
    return page.evaluate(MARKDOWN_TEXTS)


def _menu(page, menu: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{menu}$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$")).click()


def _numbered_as_on_the_site(name: str, path: Path, texts: list[str]) -> None:
    """Exercises numbered "Exercise 4.1", ... (jupyterlab-myst said "Exercise 1", ...), and each figure's
    number and caption shown (it showed neither: it does not read myst-nb's figure metadata)."""
    from irmeans_book.prose import caption, numbered_figures

    chapter = int(name[:2])
    text = " ".join(t for t in texts if t)
    numbers = re.findall(r"\bExercise (\d+(?:\.\d+)?)", text)
    assert numbers and all(n.startswith(f"{chapter}.") for n in numbers), f"{name}: exercises numbered {numbers}"
    figures = [f for f in numbered_figures(path.parent) if f["chapter"] == chapter]
    assert figures
    flat = " ".join(text.split())
    shown = {f["label"]: f"Fig. {chapter}.{f['number']} {caption(f['label'], path.parent).text}" for f in figures}
    missing = {label: line for label, line in shown.items() if " ".join(line.split()) not in flat}
    assert not missing, f"{name}: figures without their number and caption: {missing}"


def _check(name: str, state: str, texts: list[str], stored: list[list[str]]) -> int:
    """Assert every stored value is in its cell's text and nothing raw is; return how many values were seen."""
    raw = {i: raw_left(t) for i, t in enumerate(texts) if raw_left(t)}
    assert not raw, f"{name} {state}: glue names, labels, keys or roles shown in markdown cells {raw}"
    missing = {i: [v for v in values if v not in texts[i]] for i, values in enumerate(stored)}
    missing = {i: m for i, m in missing.items() if m}
    assert not missing, f"{name} {state}: values not shown {missing}"
    return sum(len(values) for values in stored)


@pytest.mark.parametrize("name", list(CHAPTERS))
def test_a_chapter_reads_like_the_site_as_opened_and_after_run_all(name, book_copy, lab_url, browser, output_dir):
    base, token = lab_url
    path = book_copy / name
    original = path.read_text(encoding="utf-8")
    stored = _stored(path)
    outside = []
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.on("request", lambda r: r.url.startswith(base) or r.url.startswith("data:") or outside.append(r.url))
    try:
        page.goto(f"{base}/lab/workspaces/{path.stem}/tree/{name}?reset&token={token}")
        opened = _texts(page, len(stored))
        shown = _check(name, "as opened", opened, stored)
        _numbered_as_on_the_site(name, path, opened)
        assert shown > 20, f"{name}: only {shown} computed values in its prose"
        page.screenshot(path=str(output_dir / f"{path.stem}-opened.png"))
        page.wait_for_timeout(2000)  # time for a pop-up to appear, if one were to
        assert NEWS not in page.locator("body").inner_text(), "JupyterLab asks about Jupyter's news"
        if not CHAPTERS[name]:
            assert not outside, f"the page fetched from outside the server: {sorted(set(outside))[:5]}"
            return

        # The values on disk replaced by a marker, reloaded: the page shows what is stored.
        nb = json.loads(original)
        for cell in nb["cells"]:
            for s in cell.get("metadata", {}).get("user_expressions", []):
                s["result"]["data"] = {"text/plain": repr(STALE)}
        path.write_text(json.dumps(nb), encoding="utf-8")
        _menu(page, "File", "Reload Notebook from Disk")
        dialog = page.locator(".jp-Dialog .jp-mod-accept")
        if dialog.count():
            dialog.click()
        page.wait_for_function(f"() => document.querySelector('.jp-Notebook').textContent.includes('{STALE}')")
        reloaded = _texts(page, len(stored))
        assert sum(t.count(STALE) for t in reloaded) >= shown // 2

        # Run All: every value computed again by the kernel, and the same as stored.
        _menu(page, "Run", "Run All Cells")
        # `make test` runs another pytest beside this one: a slow run is not a failure.
        page.wait_for_function(ALL_RUN, arg=STALE, timeout=600_000)
        after = _texts(page, len(stored))
        _check(name, "after Run All", after, stored)
        assert after == opened, f"{name}: the prose after Run All differs from the prose as opened"
        busiest = max(range(len(stored)), key=lambda i: len(stored[i]))  # the cell with the most values, in view
        page.locator(".jp-Notebook .jp-MarkdownCell").nth(busiest).scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        page.screenshot(path=str(output_dir / f"{path.stem}-run-all.png"))
        assert NEWS not in page.locator("body").inner_text(), "JupyterLab asks about Jupyter's news"
        assert not outside, f"the page fetched from outside the server: {sorted(set(outside))[:5]}"
    except Exception:
        page.screenshot(path=str(output_dir / f"{path.stem}-failed.png"))
        raise
    finally:
        context.close()
        path.write_text(original, encoding="utf-8")
