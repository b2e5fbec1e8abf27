"""Places where a student reading the chapters in order was confused, each resolved where it occurs.

Each test reads the chapters' markdown and fails if the confusing phrasing comes back or the
sentence that resolves it goes.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[2]


def chapter(number: int) -> Path:
    return next((ROOT / "chapters").glob(f"{number:02d}-*.ipynb"))


def markdown(number: int) -> str:
    nb = nbformat.read(chapter(number), as_version=4)
    return "\n\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def text(number: int) -> str:
    return " ".join(markdown(number).split())


def test_err_does_not_reuse_the_letter_of_the_relevant_documents():
    # R is the number of relevant documents; ERR's stopping probability is s_r.
    ranked = text(2)
    assert not re.search(r"R_r =|R_r \\prod|\(1 - R_i\)", ranked)
    assert re.search(r"s_r = \\frac\{2\^\{g_r\} - 1\}\{2\^\{G\}\}", ranked)


def test_one_section_is_called_why_average_1_over_r():
    titles = [t for n in range(1, 11) for t in re.findall(r"^#+ (.*)$", markdown(n), re.M) if "Why average" in t]
    assert len(titles) == 1, titles


def test_ties_are_said_to_be_broken_by_docno():
    ranked = text(2)
    assert "breaks ties by docno in descending order: `d2` sorts after `d1`" in ranked


def test_chapter_2s_summary_agrees_with_its_body_on_missing_topics():
    ranked = text(2)
    assert "averages only the topics a run answers unless `-c`" not in ranked
    assert re.search(r"Without `-c`, trec_eval 10\.0 stops on such a topic", ranked)


def test_no_double_negatives_in_differences():
    # "lower by -0.0186", "worse ... by -0.078": the text says the direction, the number is its size.
    for n in range(1, 11):
        nb = nbformat.read(chapter(n), as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "markdown":
                continue
            values = {e["expression"]: e["result"] for e in cell.metadata.get("user_expressions", [])}
            for m in re.finditer(r"(lower|worse|smaller|less|prefers)[^.]{0,60}? by \{eval\}`([^`]*)`", cell.source):
                shown = values.get(m.group(2), {}).get("data", {}).get("text/plain", "")
                assert not shown.strip("'\"").startswith(("-", "−")), (n, m.group(0), shown)


def test_chapter_3_says_how_its_equal_validity_meets_chapter_8s_logit():
    assert re.search(r'That "unless" matters', text(3))


def test_equation_2s_hard_topic_is_explained():
    assert re.search(r"Why is that \*hard\*\?", text(9))


def test_table_1s_ties_are_named():
    assert "Where two systems tie" in text(4)


def test_win_counts_come_with_their_intervals_and_their_dependence():
    # Counts of wins over the shipped matrices: each difference gets an interval, only those outside it count,
    # and the text says the matrices are not independent.
    for n in (9, 10):
        t = text(n)
        assert "interval over topics" in t, n
        assert "the paper's rule fails" not in t, n
        assert re.search(r"not as many\s+independent", t), n
    consistency = text(9)
    assert "p < 10⁻³⁰⁰" not in consistency and "compare_taus" not in consistency
    assert "irmeans.tau_intervals" in consistency


def test_robertsons_boost_is_shown_on_a_real_run_too():
    assert re.search(r"## The same boost on a real TREC run", markdown(5))


def test_chapter_10_compares_real_runs_in_full():
    which = text(10)
    assert "irmeans.compare" in which and "irmeans compare --dataset" in which


def test_every_drop_in_claim_comes_with_the_deliberate_differences():
    # Readers met "a drop-in for trec_eval" (README, Get the code, the command-line reference) against "its rules
    # but one" (chapter 2): each page that says drop-in points to the list of differences, which chapter 2 gives.
    pages = [ROOT / "README.md", *sorted((ROOT / "chapters").glob("*.md"))]
    saying = [p for p in pages if "drop-in" in p.read_text(encoding="utf-8")]
    assert {p.name for p in saying} >= {"README.md", "get-the-code.md", "cli-reference.md"}
    count = re.search(r"with the (\w+) deliberate differences", (ROOT / "README.md").read_text(encoding="utf-8"))[1]
    for page in saying:  # each says as many as the README lists
        body = " ".join(page.read_text(encoding="utf-8").split())
        assert re.search(rf"{count} (deliberate differences|places)", body), page.name
        assert "rbp" in body or "02-ranked-lists" in body, page.name
    ranked = text(2)
    assert "rules but one" not in ranked
    assert "Where `irmeans eval` departs from trec_eval 10.0" in markdown(2)
    for departure in (
        "**A topic without results**",
        "**`rbp`**",
        "**No `-m`.**",
        "**Input that is not what it should be.**",
    ):
        assert departure in ranked, departure


def test_the_licences_say_what_they_ask():
    # The home page gave "crediting the book" without share-alike; the MIT licence's one condition was unstated.
    home = " ".join((ROOT / "chapters" / "index.md").read_text(encoding="utf-8").split())
    assert "same licence" in home and "notice" in home
    for page in (ROOT / "README.md", ROOT / "chapters" / "get-the-code.md"):
        body = " ".join(page.read_text(encoding="utf-8").split())
        assert re.search(r"one condition", body) and "same licence" in body, page.name


def test_the_trec_data_are_credited_to_each_group_of_authors():
    # "Urbano et al. (2018, 2019)" put Urbano & Nagler and Urbano, Lima & Hanjalic under one label.
    from irmeans_book.plots import TREC_DATA

    assert "Urbano et al." not in TREC_DATA
    assert "Urbano and Nagler (2018)" in TREC_DATA and "Urbano, Lima and Hanjalic (2019a, 2019b)" in TREC_DATA
    # The footers: every page of the site, and of the PDFs.
    footer = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["html"]["extra_footer"]
    sys.path.insert(0, str(ROOT / "book" / "scripts"))
    import make_pdf

    for line in (footer, make_pdf.LICENCE_LINE):
        assert "Urbano et al." not in line and "Nagler" in line and "Hanjalic" in line, line


def test_the_api_reference_counts_the_collections_as_the_data_do():
    # The datasets module's docstring said 14 collections; the shipped matrices come from 11.
    import irmeans.datasets as datasets

    collections = len({entry.collection for entry in datasets.catalog()})
    assert f"{collections} TREC collections" in " ".join(datasets.__doc__.split())
    assert "14 collections" not in datasets.__doc__
