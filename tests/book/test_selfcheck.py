"""Self-check exercises: the answers (computed by the library), the site's form, and the chapters' use of them."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import irmeans
import numpy as np
import pytest
from irmeans_book import selfcheck
from irmeans_book.selfcheck import Choice, Number, answer, registered

ANSWERS = registered()  # every chapter's, registered by its module

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "extensions"))
import irmeans_selfcheck  # noqa: E402 - the book's local Sphinx extension, not an installed module

CHAPTERS = ROOT / "chapters"
EXERCISE = re.compile(r"^(`{3,})\{exercise\}[^\n]*\n(?P<options>(?::[^\n]*\n)*)", re.MULTILINE)


# ---------------------------------------------------------------------------
# The answers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("label", sorted(ANSWERS))
def test_every_answer_computes(label):
    result = answer(label)
    assert isinstance(result, Number | Choice)
    assert result.accepts(result.value if isinstance(result, Number) else result.answer)


def test_two_answers_for_every_chapter():
    chapters = {int(re.match(r"sc-ch(\d+)-", label).group(1)) for label in ANSWERS}
    assert chapters == {int(path.name[:2]) for path in CHAPTERS.glob("[0-9][0-9]-*.ipynb")}
    per_chapter = {c: sum(label.startswith(f"sc-ch{c}-") for label in ANSWERS) for c in chapters}
    assert min(per_chapter.values()) >= 2, per_chapter


def test_answers_are_the_librarys():
    # A few answers recomputed here by hand from their definitions.
    assert np.isclose(answer("sc-ch1-gm-b").value, np.prod([0.35, 0.30, 0.30, 0.25, 0.20]) ** (1 / 5))
    assert answer("sc-ch2-r-precision").value == pytest.approx(2 / 4)  # P@4: ranks 2 and 4 of the top 4
    assert answer("sc-ch2-interpolated").value == pytest.approx(3 / 5)  # recall 0.5 at rank 4 (P 1/2), P@5 = 3/5
    assert answer("sc-ch2-ndcg").value == pytest.approx((1 + 1 / 2) / (1 + 1 / np.log2(3)))
    assert answer("sc-ch3-gm-doubled").value == pytest.approx(np.prod([0.95, 0.90, 0.15, 0.12, 0.10, 0.10]) ** (1 / 6))
    assert answer("sc-ch4-s1-ehm").value == pytest.approx(
        5 / sum(1 / (x + 0.1) for x in (0.1, 0.1, 0.3, 0.8, 0.1)) - 0.1
    )
    assert answer("sc-ch5-map-ten").value == pytest.approx(0.01)
    assert answer("sc-ch6-s2-floor").value == pytest.approx(np.prod([0.1, 0.4, 0.2, 0.4, 0.3]) ** (1 / 5))
    assert answer("sc-ch7-mrr").value == pytest.approx((1 + 1 / 2 + 1 / 4 + 0) / 4)
    assert answer("sc-ch8-logit-step").value == pytest.approx(np.log(99) - np.log(9))
    assert answer("sc-ch8-logit-mean").value == pytest.approx(0.75)  # logit 0 and logit 0.9 = log 9: mean log 3
    assert answer("sc-ch9-tau").value == pytest.approx((5 - 1) / 6)  # one of six pairs swapped
    assert answer("sc-ch10-floor").value == pytest.approx((1e-5 * 0.8**3) ** (1 / 4))
    assert answer("sc-ch1-hm-winner").answer == "B"
    assert answer("sc-ch4-first-ehm").answer == "S3"


def test_answers_follow_the_library(monkeypatch):
    # Not typed by hand: change the library's result and the answer changes with it.
    monkeypatch.setattr(irmeans, "harmonic_mean", lambda x, eps=0.0, axis=None: 0.5)
    assert answer("sc-ch4-s1-ehm").value == 0.5


def test_number_tolerance_and_rounding():
    n = Number(0.2750781605983432, decimals=3)
    assert n.shown == "0.275" and n.tolerance == 0.001
    # Rounded (0.275) or cut off at the asked decimal; one unit further is wrong.
    assert n.accepts(0.275) and n.accepts(0.276) and n.accepts(0.2745)
    assert not n.accepts(0.277) and not n.accepts(0.274) and not n.accepts(0.27)
    assert Number(1.0, decimals=2, tolerance=0.0).accepts(1.0)
    with pytest.raises(ValueError, match="finite"):
        Number(float("nan"))
    with pytest.raises(ValueError, match="tolerance"):
        Number(0.5, tolerance=-1)


def test_choice_checks_its_options():
    assert Choice(["A", "B"], "A").options == ("A", "B")
    with pytest.raises(ValueError, match="two or more"):
        Choice(("A",), "A")
    with pytest.raises(ValueError, match="two or more"):
        Choice(("A", "A"), "A")


def test_unknown_label_and_bad_registration():
    with pytest.raises(KeyError, match="sc-nowhere"):
        answer("sc-nowhere")
    with pytest.raises(ValueError, match="start with 'sc-'"):
        selfcheck.selfcheck("ex-ch1-x")
    with pytest.raises(ValueError, match="two answers"):
        selfcheck.selfcheck("sc-ch1-gm-b")(lambda: None)


def test_an_answer_of_the_wrong_type_is_an_error(monkeypatch):
    monkeypatch.setitem(ANSWERS, "sc-test-float", lambda: 0.5)
    with pytest.raises(TypeError, match="not a Number or a Choice"):
        answer("sc-test-float")


# ---------------------------------------------------------------------------
# The form's HTML
# ---------------------------------------------------------------------------


def test_number_form_html():
    h = irmeans_selfcheck.form_html("sc-ch1-gm-b", answer("sc-ch1-gm-b"))
    assert h.startswith('<form class="selfcheck-form" data-kind="number"')
    assert f'data-answer="{answer("sc-ch1-gm-b").value!r}"' in h and 'data-tolerance="0.001"' in h
    assert 'data-shown="0.275"' in h and 'data-label="sc-ch1-gm-b"' in h
    # A visible label tied to the box, and a feedback line screen readers announce.
    assert '<label for="sc-ch1-gm-b-answer">Your answer (3 decimals)</label>' in h
    assert '<input id="sc-ch1-gm-b-answer"' in h and 'aria-describedby="sc-ch1-gm-b-feedback"' in h
    assert '<p id="sc-ch1-gm-b-feedback" class="selfcheck-feedback" role="status" aria-live="polite">' in h
    assert '<button type="submit" class="selfcheck-button">Check</button>' in h


def test_choice_form_html_escapes_options():
    h = irmeans_selfcheck.form_html("sc-x", Choice(("a < b", "Robertson's"), "Robertson's"))
    assert 'data-kind="choice"' in h and 'data-answer="Robertson&#x27;s"' in h
    assert "<legend>Your answer</legend>" in h
    assert h.count('type="radio" name="sc-x-choice"') == 2
    assert 'value="a &lt; b"> a &lt; b</label>' in h


def _build(tmp_path, text):
    """Build a one-page Sphinx project with the extension; return the page's HTML and the warnings."""
    from io import StringIO

    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / 'extensions')!r})\n"
        "extensions = ['myst_parser', 'sphinx_exercise', 'irmeans_selfcheck']\n"
        f"html_static_path = [{str(ROOT / 'book' / 'static')!r}]\n"
    )
    (src / "index.md").write_text(text)
    warnings = StringIO()
    app = Sphinx(src, src, tmp_path / "out", tmp_path / "doctrees", "html", status=None, warning=warnings)
    app.build()
    return (tmp_path / "out" / "index.html").read_text(encoding="utf-8"), warnings.getvalue(), tmp_path / "out"


PAGE = """# Page

````{exercise} Self-check
:label: sc-ch4-s1-ehm
:class: selfcheck

What is the harmonic mean of S1?

```{hint}
Average the reciprocals.
```
````

```{exercise}
:label: ex-plain

An ordinary exercise.
```
"""


def test_the_extension_adds_form_hint_and_assets(tmp_path):
    page, warnings, out = _build(tmp_path, PAGE)
    assert "WARNING" not in warnings, warnings
    assert page.count('<form class="selfcheck-form"') == 1  # the ordinary exercise gets none
    form = page.index('<form class="selfcheck-form"')
    hint = page.index('<div class="selfcheck-hint" id="sc-ch4-s1-ehm-hint" hidden>')
    assert page.index("What is the harmonic mean of S1?") < form < hint < page.index("Average the reciprocals.")
    assert f'data-answer="{answer("sc-ch4-s1-ehm").value!r}"' in page
    assert re.search(r'<script defer="defer" src="_static/selfcheck\.js', page)
    assert re.search(r'<link rel="stylesheet"[^>]*href="_static/selfcheck\.css', page)
    assert (out / "_static" / "selfcheck.js").is_file()


def test_pages_without_a_selfcheck_load_no_script(tmp_path):
    page, _, _ = _build(tmp_path, "# Page\n\n```{exercise}\n:label: ex-plain\n\nText.\n```\n")
    assert "selfcheck.js" not in page and "selfcheck.css" not in page


def test_an_unregistered_label_is_a_warning(tmp_path):
    _, warnings, _ = _build(tmp_path, "# Page\n\n```{exercise}\n:label: sc-nowhere\n:class: selfcheck\n\nText.\n```\n")
    assert "self-check 'sc-nowhere'" in warnings and "no self-check answer is registered" in warnings


# ---------------------------------------------------------------------------
# The chapters
# ---------------------------------------------------------------------------


def _selfcheck_labels(notebook: Path) -> list[str]:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    labels = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for match in EXERCISE.finditer("".join(cell["source"])):
            options = dict(re.findall(r"^:(\w+):\s*(.*)$", match["options"], re.MULTILINE))
            if "selfcheck" in options.get("class", "").split():
                labels.append(options.get("label", ""))
    return labels


def test_every_chapter_has_two_selfchecks_with_answers():
    found = {}
    for notebook in sorted(CHAPTERS.glob("[0-9][0-9]-*.ipynb")):
        labels = _selfcheck_labels(notebook)
        assert all(label in ANSWERS for label in labels), (notebook.name, labels)
        assert len(labels) >= 2, f"{notebook.name} has {len(labels)} self-check exercise(s)"
        found.update(dict.fromkeys(labels, notebook.stem))
    # Every answer written for a chapter is used there.
    for label in ANSWERS:
        chapter = int(re.match(r"sc-ch(\d+)-", label).group(1))
        assert label in found, f"{label} is not used in chapter {chapter}"
