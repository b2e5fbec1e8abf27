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
