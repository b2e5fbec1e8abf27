"""irmeans_book.prose: the prose's computed references and citations read as the site writes them."""

import json
import re
import shutil
from pathlib import Path

import pytest
from irmeans_book import prose

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ROOT / "chapters"


def test_two_works_of_the_same_authors_and_year_are_cited_with_the_letters_of_the_bibliography():
    # Urbano, Lima and Hanjalic published two papers at SIGIR 2019: the text must tell them apart as the list does.
    a = prose.cite_t("urbano2019standardization", chapters=CHAPTERS).text
    b = prose.cite_t("urbano2019statistical", chapters=CHAPTERS).text
    assert (a, b) == ("Urbano et al. [2019a]", "Urbano et al. [2019b]")
    both = prose.cite_p("urbano2019statistical", "urbano2019standardization", chapters=CHAPTERS)
    assert both.text == "[Urbano et al., 2019a, Urbano et al., 2019b]"
    assert prose.cite_p("robertson2006gmap", chapters=CHAPTERS).text == "[Robertson, 2006]"  # alone: no letter


def test_figure_references_are_numbered_as_on_the_site():
    assert prose.numref("fig-ch4-eps", CHAPTERS).text == "Fig. 4.1"
    assert prose.numref("fig-ch4-means", CHAPTERS).text == "Fig. 4.2"
    assert prose.numref("fig-ch9-sweep", CHAPTERS).text == "Fig. 9.3"
    assert prose.numref("fig-ch4-eps", CHAPTERS).myst == "{numref}`fig-ch4-eps`"
    with pytest.raises(ValueError, match="fig-ch4-nothing"):
        prose.numref("fig-ch4-nothing", CHAPTERS)


def test_document_references_are_the_titles():
    assert prose.doc("04-averaging", CHAPTERS).text == "Averaging across topics"
    assert prose.doc("10-which-average", CHAPTERS).myst == "{doc}`10-which-average`"
    assert prose.doc("get-the-code", CHAPTERS).text == "Get the code"  # back matter: no number
    with pytest.raises(ValueError, match="no document"):
        prose.doc("99-nothing", CHAPTERS)


def test_citations_are_author_year_in_square_brackets():
    assert prose.cite_p("robertson2006gmap", chapters=CHAPTERS).text == "[Robertson, 2006]"
    assert prose.cite_t("ravana2009aggregation", chapters=CHAPTERS).text == "Ravana and Moffat [2009]"
    both = prose.cite_p("manning2008iir", "zhai2016tdma", chapters=CHAPTERS)
    assert both.text == "[Manning et al., 2008, Zhai and Massung, 2016]"
    assert both.myst == "{cite:p}`manning2008iir,zhai2016tdma`"
    assert prose.cite_p("trec_eval", chapters=CHAPTERS).text == "[National Institute of Standards and Technology, 2026]"
    # The works of a citation in the bibliography's order, whatever the keys' order, as on the site.
    swapped = prose.cite_p("zhai2016tdma", "manning2008iir", chapters=CHAPTERS)
    assert swapped.text == both.text and swapped.myst == "{cite:p}`zhai2016tdma,manning2008iir`"
    with pytest.raises(ValueError, match="nobody2020"):
        prose.cite_t("nobody2020", chapters=CHAPTERS)


def test_a_reference_offers_plain_text_and_its_myst_form():
    ref = prose.numref("fig-ch4-eps", CHAPTERS)
    assert ref._repr_mimebundle_() == {"text/plain": "Fig. 4.1", prose.MYST_MIMETYPE: "{numref}`fig-ch4-eps`"}
    assert repr(ref) == "Fig. 4.1"


def test_the_chapters_folder_is_where_the_kernel_runs(tmp_path, monkeypatch):
    chapters = tmp_path / "chapters"
    chapters.mkdir()
    shutil.copy(CHAPTERS / "04-averaging.ipynb", chapters)
    shutil.copy(ROOT / "references.bib", tmp_path)
    monkeypatch.chdir(chapters)
    assert prose.numref("fig-ch4-means").text == "Fig. 4.2"
    assert prose.cite_t("robertson2006gmap").text == "Robertson [2006]"
    # An edited chapter is read again: a figure moved first becomes Fig. 4.1.
    path = chapters / "04-averaging.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    figures = [i for i, c in enumerate(nb["cells"]) if c.get("metadata", {}).get("mystnb", {}).get("figure")]
    nb["cells"].insert(0, nb["cells"].pop(figures[1]))
    path.write_text(json.dumps(nb), encoding="utf-8")
    assert prose.numref("fig-ch4-means").text == "Fig. 4.1"


def test_a_copy_of_a_chapter_outside_the_book_finds_the_rest_in_the_book(tmp_path, monkeypatch):
    """A lecturer's copy, in a folder of a course's own with nothing else of the book's (no references.bib above
    it): its references and citations are the book's. Run by `make chapter`, it once stopped at its first citation
    (FileNotFoundError: references.bib)."""
    course = tmp_path / "course"
    course.mkdir()
    shutil.copy(CHAPTERS / "07-map-gmap-mrr.ipynb", course / "lecture-3.ipynb")
    monkeypatch.chdir(course)
    assert prose.numref("fig-ch7-verdicts").text == "Fig. 7.1"
    assert prose.doc("04-averaging").text == "Averaging across topics"
    assert prose.cite_p("voorhees2005robust").text == "[Voorhees, 2005]"
    assert prose.cite_t("urbano2019statistical").text == "Urbano et al. [2019b]"  # the book's bibliography's letters
    with pytest.raises(ValueError, match="fig-ch7-nothing"):
        prose.numref("fig-ch7-nothing")
    # A named folder is the only place looked in (the site's build names none; the tests above name the book's).
    with pytest.raises(ValueError, match="fig-ch7-verdicts"):
        prose.numref("fig-ch7-verdicts", course)


def test_a_copy_keeps_its_own_numbers_and_a_bibliography_of_its_own_where_it_has_the_work(tmp_path, monkeypatch):
    course = tmp_path / "course"
    course.mkdir()
    # Its own chapter 7 with Fig. 7.2 moved first: its text's figure references follow it, not the book.
    nb = json.loads((CHAPTERS / "07-map-gmap-mrr.ipynb").read_text(encoding="utf-8"))
    figures = [i for i, c in enumerate(nb["cells"]) if c.get("metadata", {}).get("mystnb", {}).get("figure")]
    nb["cells"].insert(0, nb["cells"].pop(figures[1]))
    (course / "07-my-lecture.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    # A bibliography above it with a work of its own, and not the book's works.
    (tmp_path / prose.BIBLIOGRAPHY).write_text(
        "@misc{mine2026, author = {Lecturer, Ada}, title = {My notes}, year = {2026}}\n", encoding="utf-8"
    )
    monkeypatch.chdir(course)
    assert prose.numref("fig-ch7-rank-shares").text == "Fig. 7.1"
    assert prose.numref("fig-ch4-eps").text == "Fig. 4.1"  # another chapter: the book's
    assert prose.cite_t("mine2026").text == "Lecturer [2026]"
    assert prose.cite_t("robertson2006gmap").text == "Robertson [2006]"  # not in its bibliography: the book's


@pytest.mark.parametrize(
    "expression",
    ["ch4_S1_GM", 'f"{ch4_S1_GM:.3f}"', 'f"{ch9_pairs:,}"', 'numref("fig-ch4-eps")', 'cite_p("a", "b_c")'],
)
def test_the_pattern_takes_the_prose_expressions(expression):
    assert re.match(prose.EVAL_PATTERN, expression)


@pytest.mark.parametrize(
    "expression",
    ["__import__('os').system('ls')", 'f"{a:.3f} {b}"', "table.loc['S1', 'GM']", 'numref("x"); 1', "x + 1"],
)
def test_the_pattern_refuses_other_code(expression):
    assert not re.match(prose.EVAL_PATTERN, expression)


def test_eval_expressions_in_order_each_once():
    text = 'A {eval}`x`, {eval}`f"{y:.2f}"` and {eval}`x` again; `{eval}` in code.'
    assert prose.eval_expressions(text) == ["x", 'f"{y:.2f}"']


def test_every_reference_of_the_chapters_resolves():
    calls = set()
    for path in sorted(CHAPTERS.glob("[0-9][0-9]-*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                calls |= {e for e in prose.eval_expressions("".join(cell["source"])) if "(" in e}
    assert len(calls) > 40
    namespace = {name: getattr(prose, name) for name in ("numref", "doc", "cite_p", "cite_t", "caption")}
    for call in sorted(calls):
        name, args = call.split("(", 1)
        keys = re.findall(r'"([^"]+)"', args)
        ref = namespace[name](*keys, chapters=CHAPTERS)
        assert ref.text and "{" not in ref.text, call
