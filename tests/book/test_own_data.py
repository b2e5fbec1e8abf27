"""A reader's own numbers through a chapter: change its example's data, run it, and it follows them.

For each of the ten chapters, the test rewrites the data cells as a reader
would (other numbers in the same lines), runs the whole chapter in a copy of the
chapters' folder, and checks that it completes, that its figures (their data,
where their controls start, their alt text), its live controls (where they
start: where its figure's controls do) and its "your scores" box show the
new data, and that the claims of the text the new data no longer bear out are
named, each by a sentence the chapter really has (in its text or a figure's
caption). On the book's own data the same checks are strict (tests/book's nbval
run and the site's build fail on a claim that does not hold); that is tested in
:mod:`irmeans_book.claims`, and that they show nothing there, below.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import numpy as np
import pytest
from irmeans_book.claims import note
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
NOTE = re.compile(r"no longer holds: “(.*)”$")

#: Per chapter: the data lines as the book has them and as a reader changes them, the claims that must then be named,
#: the figures (by label) that must show the new numbers, and those numbers; the figures whose controls must start
#: at the new data (their parameters' values), and those whose alt text must describe them; the figure the chapter's
#: live controls redraw (they must start where it does).
CHANGES = {
    "01-introduction": {
        "live": "fig-ch1-averages",
        "lines": {
            "scores_a = np.array([0.60, 0.55, 0.50, 0.45, 0.01])": "scores_a = np.array([0.50, 0.40, 0.30, 0.20, 0.60])",
            "scores_b = np.array([0.35, 0.30, 0.30, 0.25, 0.20])": "scores_b = np.array([0.30, 0.30, 0.30, 0.30, 0.30])",
        },
        "named": {"the geometric mean prefers B", "One score of", "at 0.01 the geometric and harmonic means prefer B"},
        "figures": {"fig-ch1-averages": [0.5, 0.4, 0.3, 0.2, 0.6]},
        "box": "0.5, 0.4, 0.3, 0.2, 0.6",
    },
    "02-ranked-lists": {
        "live": "fig-ch2-ranking",
        "lines": {
            "ranking = np.array([1, 0, 1, 0, 0, 1, 0, 0, 0, 0])": "ranking = np.array([0, 1, 1, 0, 0, 0, 0, 1, 0, 0])",
            "R = 5": "R = 4",
        },
        "named": {
            "in which the documents at ranks 1, 3 and 6 are relevant",
            "the two unretrieved relevant documents are missing from any cutoff",
            "If our topic had only the three relevant documents we retrieved",
            "the two missing relevant documents at ranks 11 and 12",
        },
        "figures": {"fig-ch2-pr-curve": [0.25, 0.75, 0.375]},
        "params": {"fig-ch2-ranking": {"rank1": False, "rank2": True, "rank3": True, "rank8": True, "R": 4}},
    },
    "03-scales": {
        "live": "fig-ch3-transform",
        "lines": {
            "scores_a = np.array([0.95, 0.90, 0.15, 0.12, 0.10, 0.05])": "scores_a = np.array([0.55, 0.50, 0.25, 0.22, 0.20, 0.45])",
            "changes = [(0.05, 0.1), (0.25, 0.5)]": "changes = [(0.05, 0.1), (0.25, 0.75)]",
        },
        "named": {
            "The arithmetic mean of the logs prefers B",
            "Here the log reverses the verdict",  # what follows from it
            "B stays ahead on this scale over the whole slider",
            "they become steps of the same size",
            "Raw, the second is five times the first",
        },
        "figures": {"fig-ch3-transform": [0.55, 0.45], "fig-ch3-doubling": [0.75, 0.5, round(float(np.log(3)), 9)]},
    },
    "04-averaging": {
        "live": "fig-ch4-means",
        "lines": {
            '"S1": (0.1, 0.1, 0.3, 0.8, 0.1),': '"S1": (0.1, 0.1, 0.3, 0.2, 0.1),',
            '"S2": (0.0, 0.4, 0.2, 0.4, 0.3),': '"S2": (0.1, 0.4, 0.2, 0.4, 0.3),',
        },
        "named": {
            "checked value by value against the published one",
            "The arithmetic mean puts S1 first",
            "AM rises by 0.05/5",
        },
        "figures": {"fig-ch4-eps": [0.16], "fig-ch4-means": [0.1]},
        "box": "0.1, 0.1, 0.3, 0.2, 0.1",
    },
    "05-boost": {
        "live": "fig-ch5-boost",
        "lines": {
            "ap = robertson.load_example()  # the 50 AP values of the reconstruction, as stored": (
                "ap = np.linspace(0.02, 0.8, 41)  # a reader's own 41 topics"
            ),
        },
        "named": {
            "checks that the seeded search gives them again",
            "exactly three zeros and three values of 0.01",
            "Every figure he prints is reproduced",
            "MAP rises by the same 0.025 either way",
            "the three zeros alone supply",
        },
        "figures": {"fig-ch5-histogram": [0.41], "fig-ch5-boost": [0.8]},
        "params": {"fig-ch5-boost": {"which": "lowest 20", "amount": 0.05}},
    },
    "06-zeros-and-epsilon": {
        "live": "fig-ch6-epsilon",
        "lines": {
            "R, N = 10, 500_000": "R, N = 10, 5_000",
            "s2 = np.array([0.0, 0.4, 0.2, 0.4, 0.3])": "s2 = np.array([0.05, 0.4, 0.2, 0.4, 0.6])",
        },
        "named": {
            "Small, but not zero",
            "With trec_eval's ε = 10⁻⁵ S2's geometric mean is",
            'once ε passes every score the "mean" is ε itself',
        },
        "figures": {"fig-ch6-epsilon": [0.33]},
        "box": "0.05, 0.4, 0.2, 0.4, 0.6",
    },
    "07-map-gmap-mrr": {
        "live": "fig-ch7-verdicts",
        "lines": {
            "gain, loss = 0.2, 0.3": "gain, loss = 0.05, 0.6",
            '"X": np.array([1] * 9 + [500])': '"X": np.array([1] * 9 + [3])',
        },
        "named": {
            "MAP rises from",
            "A paper reporting MAP would call the feedback system an improvement",  # what follows from it
            "The mean rank prefers Y by a wide margin",
            "Keeping the gain at",
        },
        "figures": {"fig-ch7-verdicts": [0.05, 0.6], "fig-ch7-rank-shares": [3]},
        "box": None,
    },
    "08-logit": {
        "live": "fig-ch8-averages",
        "lines": {
            "x = np.array([0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999])": "x = np.array([0.002, 0.2, 0.3, 0.5, 0.7, 0.97])",
            "Y = np.array([0.995, 1.0, 0.999, 1.0, 0.998, 0.997, 0.62, 0.55, 0.47, 0.40])": (
                "Y = np.array([0.955, 0.965, 0.955, 0.975, 0.965, 0.955, 0.62, 0.55, 0.47, 0.40])"
            ),
        },
        "named": {"The logit mean prefers Y by far"},
        "figures": {"fig-ch8-curves": [0.3, 0.7, 0.97], "fig-ch8-averages": [0.955, 0.975]},
        "params": {"fig-ch8-averages": {"dataset": "nDCG: easy and middling topics", "eps": 0.001}},
    },
    "09-consistency": {
        "lines": {
            'trec8 = datasets.load("adhoc8", "ap")': 'trec8 = datasets.read_csv("../examples/scores.csv", measure="ap")',
        },
        "named": {"the paper reports", "All six deterministic AP cells"},
        "figures": {},
        "params": {"fig-ch9-scores": {"matrix": "scores_ap"}, "fig-ch9-difficulty": {"collection": "scores_ap"}},
        "described": {
            "fig-ch9-scores": "For scores_ap: ",
            "fig-ch9-sweep": "epsilon-harmonic means of scores_ap against",
            "fig-ch9-replication": "(47 in all)",
        },
    },
    "10-which-average": {
        "lines": {
            "a = np.array([0.62, 0.55, 0.48, 0.44, 0.41, 0.37, 0.33, 0.30, 0.0, 0.0])": (
                "a = np.array([0.62, 0.55, 0.48, 0.44, 0.41, 0.37, 0.33, 0.30, 0.2, 0.1])"
            ),
        },
        "named": {"and the εHM prefer B", "B is the safer system"},
        "figures": {},
    },
}


#: Appended to the chapter: where each of its live controls' figures starts (the widgets' values as drawn), read
#: from the kernel's Out, which holds the controls a cell displayed.
LIVE_CELL = """import json as _json
from irmeans_book.plots import LiveFigure as _LiveFigure
_live = [o for o in Out.values() if isinstance(o, _LiveFigure)]
print("LIVE " + _json.dumps([{p["name"]: p.get("value") for p in o.figure.spec.get("params", [])} for o in _live]))"""
#: Parameters of a chapter's figure that its live controls do not set: chapter 4's controls have a slider for each
#: score of one system, not the figure's select of a system.
NOT_LIVE = {"04-averaging": {"system"}}


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _numbers(spec) -> set[float]:
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, float | int) and not isinstance(node, bool):
            found.add(round(float(node), 9))

    walk(spec.get("datasets", {}))
    walk(spec.get("data", {}))
    walk([p.get("value") for p in spec.get("params", [])])  # where the figure's controls start
    return found


def test_every_chapter_is_changed():
    chapters = sorted(path.stem for path in (ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))
    assert len(chapters) == 10 and sorted(CHANGES) == chapters


def test_a_failed_claim_names_its_sentence_in_the_note():
    assert NOTE.search(note("The arithmetic mean prefers A")["text/plain"]).group(1) == "The arithmetic mean prefers A"


@pytest.mark.parametrize("name", list(CHANGES))
def test_a_chapter_runs_on_a_readers_data_and_names_what_no_longer_holds(name, tmp_path):
    change = CHANGES[name]
    shutil.copytree(ROOT / "chapters", tmp_path / "chapters")
    shutil.copy(ROOT / "references.bib", tmp_path)
    shutil.copytree(ROOT / "examples", tmp_path / "examples")  # a reader's own files, as the README's commands use them
    path = tmp_path / "chapters" / f"{name}.ipynb"
    nb = nbformat.read(path, as_version=4)
    replaced = 0
    for cell in nb.cells:
        if cell.cell_type == "code":
            for old, new in change["lines"].items():
                if old in cell.source:
                    cell.source = cell.source.replace(old, new)
                    replaced += 1
    assert replaced == len(change["lines"]), f"{name}: the data cell no longer has its lines as written here"
    nb.cells.append(nbformat.v4.new_code_cell(LIVE_CELL))

    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()

    # The chapter's text: its markdown and its figures' captions.
    captions = [c.metadata.get("mystnb", {}).get("figure", {}).get("caption", "") for c in nb.cells]
    markdown = _squash(" ".join([c.source for c in nb.cells if c.cell_type == "markdown"] + captions))
    named = set()
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            text = output.get("data", {}).get("text/plain", "")
            match = NOTE.search(text)
            if match:
                named.add(match.group(1))
    assert change["named"] <= named, f"{name}: not named: {change['named'] - named}"
    for sentence in named:
        assert _squash(sentence) in markdown, f"{name}: the note names {sentence!r}, which the text does not have"

    specs = {}
    for cell in nb.cells:
        label = cell.metadata.get("mystnb", {}).get("figure", {}).get("name")
        for output in cell.get("outputs", []):
            spec = output.get("data", {}).get("application/vnd.vegalite.v5+json")
            if spec:
                specs[label or f"cell-{id(cell)}"] = spec
    for label, values in change["figures"].items():
        assert label in specs, f"{name}: {label} was not drawn"
        shown = _numbers(specs[label])
        assert {round(v, 9) for v in values} <= shown, f"{name}: {label} does not show the new data"
    for label, text in change.get("described", {}).items():
        assert label in specs, f"{name}: {label} was not drawn"
        assert text in specs[label]["description"], f"{name}: {label}'s alt text does not describe the new data"
    for label, values in change.get("params", {}).items():
        assert label in specs, f"{name}: {label} was not drawn"
        start = {p["name"]: p.get("value") for p in specs[label].get("params", [])}
        assert {k: start.get(k) for k in values} == values, f"{name}: {label}'s controls do not start at the new data"
    live = json.loads(nb.cells[-1].outputs[0].text.removeprefix("LIVE "))
    if "live" in change:
        assert live, f"{name}: no live controls were displayed"
        start = {p["name"]: p.get("value") for p in specs[change["live"]].get("params", [])}
        for drawn in live:
            shared = (set(start) & set(drawn)) - NOT_LIVE.get(name, set())
            assert shared, f"{name}: the live controls draw none of {change['live']}'s controls"
            assert {k: drawn[k] for k in shared} == {k: start[k] for k in shared}, (
                f"{name}: the live controls do not start where {change['live']} does"
            )
    else:
        assert not live, f"{name}: live controls, but no figure named for them here"
    if "box" not in change:  # the chapter has no "your scores" box
        return
    boxes = [s for s in specs.values() if any(p.get("name") == "scores_a" for p in s.get("params", []))]
    assert boxes, f"{name}: the 'your scores' box was not drawn"
    if change["box"]:
        assert change["box"] in json.dumps(boxes[0], ensure_ascii=False), (
            f"{name}: the box does not start with the new data"
        )


def test_on_the_books_data_the_checks_show_nothing():
    """A check of the text's claims adds nothing to the page on the book's own data: no note, and no bare True left
    by a check that ends its cell (its input is removed from the page, its output is not)."""
    shown = []
    for path in sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code" and "claim(" in cell.source and cell.outputs:
                shown.append(f"{path.name}: cell {cell.get('id')}")
    assert not shown, shown
