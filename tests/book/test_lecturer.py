"""The lecturer's path of the README ("A chapter of your own, for a course"), end to end: chapter 7 copied out of
chapters/, its data changed, the README's cell that saves Fig. 7.1 added, `make chapter` run on it, and what the
README says comes of it checked: the text's numbers are the copy's, the sentences its data no longer bear out are
listed and noted, the figure and the live controls start at its setting, and the slide is written at the setting
asked for, saying so. About 30 s (the chapter runs once).
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## A chapter of your own, for a course", 1)[1].split("\n## ", 1)[0]
#: Where the live controls start, read from the kernel as test_own_data does (not a step of the README's).
LIVE_CELL = """import json as _json
from irmeans_book.plots import LiveFigure as _LiveFigure
_live = [o for o in Out.values() if isinstance(o, _LiveFigure)]
print(_json.dumps([{p["name"]: p.get("value") for p in o.figure.spec.get("params", [])} for o in _live]))"""


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"^```{kind}\n(.*?)^```", SECTION, re.S | re.M)


def _expressions(nb) -> dict[str, str]:
    return {
        e["expression"]: e["result"]["data"]["text/plain"]
        for cell in nb.cells
        for e in cell.metadata.get("user_expressions", [])
    }


@pytest.fixture(scope="module")
def lecture(tmp_path_factory):
    """The README's steps, in a copy of the repository's layout: `course/` beside `chapters/`."""
    root = tmp_path_factory.mktemp("lecturer")
    (root / "chapters").mkdir()
    shutil.copy(ROOT / "chapters" / "07-map-gmap-mrr.ipynb", root / "chapters")
    prepare, run = _blocks("sh")
    for line in prepare.splitlines():  # mkdir, cp, and the change of data with sed, as written
        subprocess.run(["bash", "-c", line], cwd=root, check=True)
    path = root / "course" / "lecture-7.ipynb"
    nb = nbformat.read(path, as_version=4)
    [save] = _blocks("ipython")  # a cell of the chapter (the README's python blocks are the library's: tests/lib)
    nb.cells += [nbformat.v4.new_code_cell(save.strip()), nbformat.v4.new_code_cell(LIVE_CELL)]
    nbformat.write(nb, path)
    # `make chapter`, as written, with the reader's environment taken as set up (it is the project's .venv here).
    [command] = [line.split("#")[0].split() for line in run.splitlines() if line.startswith("make chapter")]
    assert command == ["make", "chapter", "NOTEBOOK=course/lecture-7.ipynb"]
    done = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "-o", ".venv/.installed-book", "chapter", f"NOTEBOOK={path}"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return {"folder": path.parent, "nb": nbformat.read(path, as_version=4), "printed": done.stdout}


def test_the_copys_text_has_its_own_numbers_as_the_readme_says(lecture):
    stored = _expressions(lecture["nb"])
    baseline, feedback = stored['f"{ch7_map_baseline:.4f}"'], stored['f"{ch7_map_feedback:.4f}"']
    assert (baseline, feedback) == ("'0.3090'", "'0.4190'")
    assert f"from {baseline.strip(chr(39))} to {feedback.strip(chr(39))}" in SECTION
    book = _expressions(nbformat.read(ROOT / "chapters" / "07-map-gmap-mrr.ipynb", as_version=4))
    assert book['f"{ch7_map_feedback:.4f}"'] == "'0.3516'" and "0.3516" in SECTION
    # Its references and citations, from the book it was copied from.
    assert stored['numref("fig-ch7-verdicts")'] == "Fig. 7.1"
    assert stored['cite_p("voorhees2005robust")'] == "[Voorhees, 2005]"


def test_the_sentences_its_data_no_longer_bear_out_are_listed_and_noted(lecture):
    listed = re.findall(r"^  - (.+)$", lecture["printed"], re.M)
    noted = [
        re.search(r"no longer holds: “(.*)”", o["data"]["text/plain"]).group(1)
        for cell in lecture["nb"].cells
        for o in cell.get("outputs", [])
        if "no longer holds" in o.get("data", {}).get("text/plain", "")
    ]
    assert listed == noted and "GMAP falls from" in listed
    assert "GMAP falls from" in SECTION
    # The sentence that rests on it is noted with it: it was left standing when GMAP no longer fell.
    assert listed.index("one reporting GMAP would call it a step back") == listed.index("GMAP falls from") + 1


def test_its_figure_and_its_live_controls_start_at_its_setting(lecture):
    cells = lecture["nb"].cells
    [figure] = [c for c in cells if c.metadata.get("mystnb", {}).get("figure", {}).get("name") == "fig-ch7-verdicts"]
    spec = next(o["data"]["application/vnd.vegalite.v5+json"] for o in figure.outputs if "data" in o)
    assert {p["name"]: p["value"] for p in spec["params"]} == {"gain": 0.5, "loss": 0.1}
    live = json.loads(cells[-1].outputs[0].text)
    assert live == [{"gain": 0.5, "loss": 0.1}]


def test_the_slide_is_written_at_the_setting_asked_for_and_says_so(lecture):
    png = lecture["folder"] / "fig-7-1.png"
    data = png.read_bytes()
    assert struct.unpack(">II", data[16:24])[0] == 1920
    assert "1,920 pixels wide" in SECTION
    text = data.decode("latin-1")
    assert "Shown at Average gain on easy topics: 0.5 · Average loss on hard topics: 0.3." in data.decode(
        "utf-8", errors="replace"
    )
    assert "CC BY-SA 4.0" in text
