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
    assert "breaks ties by docno in descending order: `d2` is the larger name" in ranked


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
        "**Gains near the largest double.**",
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


# ---------------------------------------------------------------------------
# The fifth pass: terms used before they are defined, and what the pages say of the command line and the licence
# ---------------------------------------------------------------------------


def paragraphs(number: int) -> list[str]:
    """The paragraphs of a chapter as a reader meets them: its markdown cells that the site shows, in order."""
    nb = nbformat.read(chapter(number), as_version=4)
    cells = [
        c.source
        for c in nb.cells
        if c.cell_type == "markdown"
        and "remove-cell" not in c.metadata.get("tags", [])
        and not c.metadata.get("irmeans", {}).get("lab")
    ]
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", "\n\n".join(cells)) if p.strip()]


def first_paragraph_with(pattern: str) -> tuple[int, str]:
    """The chapter and paragraph where a reader of the chapters in order first meets ``pattern``."""
    for n in range(1, 11):
        for p in paragraphs(n):
            if re.search(pattern, re.sub(r"\{\w+\}`[^`]*`", " ", p)):
                return n, p
    raise AssertionError(f"no chapter has {pattern!r}")


def test_gmap_is_said_to_name_several_computations_where_it_is_first_used():
    # "GMAP" named the additive εGM in chapter 4 and trec_eval's floor in chapter 7; chapter 6's box came after both.
    n, first = first_paragraph_with(r"\bGMAP\b")
    assert n == 1
    assert re.search(r"The name GMAP covers three slightly different computations", first), first
    assert "GMAP as Robertson computes it" in text(4) and "three computations the name covers" in text(4)


def test_epsilon_is_said_where_it_is_first_used():
    # Chapter 1 raised scores "by ε = 0.01" three chapters before chapter 4 defined ε.
    n, first = first_paragraph_with("ε")
    assert n == 1
    assert re.search(r"added a small\s+constant ε to every score", first), first


def test_chapter_1_does_not_read_the_geometric_mean_as_weighting_the_poor_queries():
    intro = text(1)
    assert "the geometric mean is moved more by the low ones, the queries a system does badly on" not in intro
    assert "Each query still counts once in both means" in intro


def test_p_at_k_is_not_said_to_be_free_of_r_while_r_sways_it():
    ranked = text(2)
    assert "does not depend on $R$" not in ranked
    assert "computing it takes no $R$" in ranked and "though its formula has no $R$" in ranked


def test_ties_do_not_read_as_a_contradiction():
    ranked = text(2)
    assert "sorts after `d1`, so it comes first" not in ranked
    assert "`d2` is the larger name, so it is ranked first" in ranked


def test_a_judged_topic_without_relevant_documents_is_taught():
    ranked = markdown(2)
    assert "### A judged topic with no relevant documents" in ranked
    assert "It scores it 0 on every measure and counts it in every average" in text(2)


def test_each_use_of_stable_says_which_sense():
    # Chapter 4's "more stable ... less affected by outlying values" and chapter 7's "GMAP is less stable than MAP"
    # are two senses: each chapter that uses the word says which.
    senses = re.compile(r"outlying values|from one set of topics to another|from one half of the topics")
    for n in range(1, 11):
        uses = [p for p in paragraphs(n) if re.search(r"\bstab(le|ility)\b", re.sub(r'"[^"]*"', "", p))]
        if uses:
            assert any(senses.search(p) for p in uses), (n, uses[0][:200])
    assert re.search(r"That is one sense of \*stable\*", text(4))


def test_holm_and_rbp_are_defined_where_they_are_used():
    n, first = first_paragraph_with(r"\bHolm")
    assert re.search(r"Holm's correction .{0,140}sorts the family's \$m\$ p-values", first), first
    n, first = first_paragraph_with(r"\brank-biased precision\b|\bRBP")
    assert n == 2 and re.search(r"reads on from each rank to the next", first), first
    rbp9 = next(p for p in paragraphs(9) if "RBP0.95" in p)
    assert "persistence $p = 0.95$" in rbp9


def test_chapter_9_counts_matrices_and_collections_apart():
    goals = next(p for p in paragraphs(9) if "Learning goals" in p or "After this chapter" in p)
    assert not re.search(r"ch9_n_matrices`\s+real collections", markdown(9))
    nb = nbformat.read(chapter(9), as_version=4)
    goals = next(c.source for c in nb.cells if c.cell_type == "markdown" and "Learning goals" in c.source)
    assert "score matrices of {eval}`ch9_n_collections` real collections" in " ".join(goals.split())


def test_chapter_9_and_the_command_agree_on_the_default_bootstrap():
    # Chapter 9 said the command runs "1,000 resamples of 50 splits" by default; at its default 10,000 splits it draws
    # 1,000 of 10. The chapter and the command's help say so; the help says what -n counts here and in compare.
    import subprocess

    consistency = text(9)
    assert "runs by default, {eval}" not in consistency
    assert 'the command draws as many resamples as splits, up to {eval}`f"{ch9_cli_most_bootstrap:,}"`' in consistency
    irmeans = Path(sys.executable).with_name("irmeans")
    shown = subprocess.run([irmeans, "consistency", "--help"], capture_output=True, text=True, check=True).stdout
    shown = " ".join(shown.split())
    assert "10 at the default --splits and --bootstrap" in shown
    assert re.search(r"-n N, --splits N random splits of the topics into halves here, sign vectors in compare", shown)


def test_exercises_come_before_the_summary_in_every_chapter():
    # Chapter 10's self-checks (Exercises 10.4 and 10.5) came after "10.7 Summary".
    for n in range(1, 11):
        body = markdown(n)
        summary = body.find("## Summary")
        assert summary > 0, n
        after = body[summary:]
        assert "{exercise}" not in after and "{solution}" not in after, n


def test_every_average_spec_the_pages_show_is_one_the_commands_take():
    # Chapter 10 said "a spec without an ε, such as `-a gm`, means 0.01"; the command refuses a bare gm.
    from irmeans import parse_average
    from irmeans.consistency.intervals import parse_spec

    pages = {f"chapter {n}": markdown(n) for n in range(1, 11)}
    pages |= {p.name: p.read_text(encoding="utf-8") for p in sorted((ROOT / "chapters").glob("*.md"))}
    pages["README.md"] = (ROOT / "README.md").read_text(encoding="utf-8")
    found = 0
    for name, body in pages.items():
        for spec in re.findall(r"(?:^|[\s`(])-a\s+([^\s`)]+)", body):
            found += 1
            spec = spec.rstrip(".,;:")
            if spec.isupper():  # a placeholder, as in "-a SPEC"
                continue
            try:
                parse_spec(spec) if spec.startswith("std-") else parse_average(spec)
            except Exception as error:  # IrmeansError: the pages must show only what the commands take
                raise AssertionError(f"{name}: -a {spec} is refused: {error}") from None
        assert not re.search(r"spec without an ε[^.]*means 0\.01", " ".join(body.split())), name
    assert found > 10


def test_the_licence_says_what_cc_by_sa_asks_of_a_slide():
    # "share what you adapt under the same licence" / "share what you make from them": a figure shown unaltered on a
    # slide needs the credit and the licence's name; the slides need not be CC BY-SA; a changed figure is shared alike.
    for page in (ROOT / "chapters" / "index.md", ROOT / "chapters" / "get-the-code.md"):
        body = " ".join(page.read_text(encoding="utf-8").split())
        assert "share what you make from them" not in body and "share what you adapt" not in body, page.name
        assert re.search(r"unaltered|unchanged", body) and "adaptation" in body, page.name
        assert re.search(r"slides themselves need not be under CC BY-SA|need not be under CC BY-SA", body), page.name


def test_the_students_edition_is_not_told_that_solutions_are_folded_under_the_exercises():
    # The student's PDF said the exercises "hide their solutions until you open them".
    intro = markdown(1)
    assert "hide their solutions until you open them" not in intro
    container = re.search(r"```\{container\} ([^\n]*)\nOn this site each exercise's solution is folded", intro)
    assert container and {"irmeans-web-only", "irmeans-with-solutions"} <= set(container.group(1).split())
