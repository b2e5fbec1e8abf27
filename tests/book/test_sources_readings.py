"""The chapters keep to what their sources say, on points where the book once misread them.

Each test reads the chapters' markdown and fails on a phrasing that the sources contradict:
Robertson (2006, §4) on what GMAP emphasises, Robertson (§4.1) on when the Robust track reset
zero APs, and Ravana & Moffat (2009) on the ε they use and on what their figures plot.

Every phrase a chapter puts in double quotes is checked against the sources' texts (the extracts
beside the project, when they are there): it must be a source's words, or one of the book's own
phrases listed here; and the quotations each reading pass added are held to their chapter and to
the source they are attributed to.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import nbformat
import pytest
from irmeans_book.prose import without_front_matter

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted(p for p in (ROOT / "chapters").glob("[0-9][0-9]-*.ipynb") if int(p.name[:2]) >= 3)


def paragraphs(path: Path) -> list[str]:
    """The markdown paragraphs of a chapter, each on one line."""
    nb = nbformat.read(path, as_version=4)
    text = "\n\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def unquoted(paragraph: str) -> str:
    """The paragraph without what it puts in double quotes (a reading it reports, not its own)."""
    return re.sub(r'"[^"]*"', '""', paragraph)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_gmap_is_not_said_to_weight_poor_topics(path):
    # The mean of the logs gives every topic the same influence; the emphasis is on part of the scale.
    weighting = re.compile(
        r"(weigh\w*|emphasi[sz]\w*)\s+(the\s+)?(poor|hard|difficult|low-scoring|worst)\s+(topics|queries)", re.I
    )
    found = [p for p in paragraphs(path) if weighting.search(unquoted(p))]
    assert not found, found


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_zero_reset_is_placed_at_trec_2005(path):
    # Robertson (§4.1): "In the Robust track at TREC 2005 ... every zero value was reset to 0.00001".
    sentences = [s for p in paragraphs(path) for s in re.split(r"(?<=[.:;])\s+(?=[A-Z{])", p)]
    for s in sentences:
        if "0.00001" in s or re.search(r"reset\w* every zero", s):
            assert "2005" in s, s
            assert "voorhees2005robust" not in s, s  # the key of the 2004 track's overview


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_ravana_and_moffat_recommend_no_epsilon(path):
    # They call ε = 0.01 "the value used in the table"; their Figure 3 plots the εGM and the AM only.
    for p in paragraphs(path):
        assert not re.search(r"the paper recommends|Ravana & Moffat recommend", p), p
        assert not re.search(r"Figures 1 and 3 plot", p), p


def chapter(number: int) -> Path:
    return next((ROOT / "chapters").glob(f"{number:02d}-*.ipynb"))


def text(number: int) -> str:
    return " ".join(paragraphs(chapter(number)))


def test_the_harmonic_mean_finding_is_given_with_both_sides():
    # Ravana & Moffat §5.1 and Figure 2 put εHM-AP above AM-AP on TREC9 (ε = 0.01); §5.5 calls it "not appropriate".
    intro = text(1)
    assert not re.search(r"In their summary the harmonic mean is not appropriate", intro)
    assert "§5.1" in intro and "§5.5" in intro


def test_the_geometric_mean_is_not_explained_as_f1():
    # F1 is a harmonic mean: the analogy must say so rather than present F1 as the geometric mean's example.
    intro = text(1)
    assert re.search(r"F1 is a different mean", intro)


def test_the_half_boosts_map_is_not_called_printed():
    # Robertson (§3) prints only "an increase of 0.025" for the two half boosts, not MAP 0.334.
    from irmeans_book import robertson

    assert all("not printed" in f.meaning for f in robertson.IMPLIED.values())
    assert re.search(r'prints only "an increase of 0\.025"', text(5))


def test_robertsons_example_data_are_said_to_be_generated_with_high_variance():
    # §3: "random data ... with deliberately high variance but biased towards the low end".
    boost = text(5)
    assert "deliberately high variance" in boost
    assert "As in most test collections" not in boost


def test_the_logit_is_given_with_robertsons_hedges():
    logit = text(8)
    assert "at least arguable" in logit  # §4.2
    assert "seems to suggest" in logit
    assert "the natural one is the *logit*" not in logit
    assert "not all equally valid after all" not in logit


def test_chapter_8_teaches_cormack_the_spam_track_and_geometric_ndcg():
    logit = text(8)
    assert "cormack2006precision" in logit and "Gaussian" in logit  # Cormack and Lynam, cited
    assert re.search(r"Spam track used it.{0,40}not to average over queries", logit)
    assert "geometric mean NDCG" in logit
    assert re.search(r"example is Robertson's", logit)  # 99.9 % against 99.99 %


def test_the_same_units_argument_is_ravana_and_moffats():
    consistency = text(9)
    assert "That is the argument of" not in consistency
    assert re.search(r"The argument is Ravana & Moffat's own", consistency)
    assert "fifteen couplings" in consistency
    assert "beyond AP on three collections" not in consistency


def test_zhai_and_massungs_argument_for_1_over_r_is_not_extended():
    # Zhai & Massung compare rank 1 vs 2 with rank 100 vs 1000; "pages nobody reads" is not theirs.
    assert "nobody reads" not in text(7)
    assert re.search(r"rank 100 to 1000", text(7))


def test_ndcg_names_jarvelin_and_kekalainens_own_discount():
    ranked = " ".join(paragraphs(chapter(2)))
    assert re.search(r"\\log_b\(r\)", ranked) and "later variant" in ranked


def test_kendalls_tau_is_defined_where_it_first_appears():
    # Chapter 7 is the first to use τ: its definition (concordant, discordant, the denominator, 1, 0, −1) is there.
    first = next(n for n in range(1, 11) if "τ" in text(n))
    assert first == 7
    seven = text(7)
    paras = paragraphs(chapter(7))
    first_use = next(i for i, p in enumerate(paras) if "τ" in p)
    defined = next(i for i, p in enumerate(paras) if "concordant" in p)
    assert defined - first_use <= 3, (paras[first_use], paras[defined])
    assert re.search(r"\\tau = \\frac\{C - D\}\{P\}", seven)
    assert all(w in seven for w in ("τ = 1 when", "−1 when", "0 when"))
    # Chapter 9 uses τ-b: it says what it divides by.
    assert re.search(r"τ-b divides instead by", text(9))


def test_the_robust_track_is_not_said_to_have_introduced_gmap():
    # Robertson (§1): the track's main measure "used recently, following a suggestion from the present author, is
    # GMAP"; that the track introduced it is Ravana & Moffat's phrase, not his.
    for n in range(1, 11):
        for p in paragraphs(chapter(n)):
            assert not re.search(r"Robust\s+track, where GMAP was introduced", unquoted(p)), p


def test_chapter_6_reconciles_its_realistic_epsilon_with_chapter_10s_advice():
    zeros = text(6)
    assert "chapter 10 recommends ε = 0.01" in zeros
    assert "Three computations called GMAP" in zeros
    assert "continuity" in zeros  # Ravana & Moffat §2: why they prefer the additive form


def test_chapter_10_credits_the_reading_of_gmap_robertson_rejects():
    # Ravana & Moffat §3: GMAP was introduced "to de-emphasize the role of high-scoring topics".
    which = text(10)
    assert "de-emphasize the role of high-scoring topics" in which
    assert "whether the GM is depends" not in which
    assert "default is trec_eval's 10⁻⁵" not in which and "is trec_eval's 10⁻⁵, so pass it" not in which


def test_chapter_10s_self_checks_do_not_reuse_the_worked_examples_system_names():
    # The worked example has systems A and B; the self-checks' systems are C and D.
    nb = nbformat.read(chapter(10), as_version=4)
    checks = [c.source for c in nb.cells if c.cell_type == "markdown" and ":class: selfcheck" in c.source]
    assert checks and not any(re.search(r"\bsystem [AB]\b", s) for s in checks)


def test_ravana_and_moffats_caveats_and_p10_finding_are_taught():
    # §6: "founded in practice rather than in theory"; "of somewhat parenthetical interest if significance cannot
    # be asserted". §5.3: P@10 "relatively immune to the choice of εGM or AM aggregation".
    consistency = text(9)
    assert "founded in practice rather than in theory" in consistency
    assert "of somewhat parenthetical interest if significance cannot be asserted" in consistency
    assert "relatively immune to the choice of εGM or AM aggregation" in consistency


# ---------------------------------------------------------------------------
# Quotations: each is in the chapter, in double quotes, and in the source it is attributed to
# ---------------------------------------------------------------------------

#: The texts the book is built on (README of the sources: extracts for reading and checking), beside the project.
SOURCES = ROOT.parent / "shared" / "sources"

#: The quotations the fourth reading pass added: (chapter, source file's stem, the words quoted).
QUOTATIONS = [
    (3, "robertson2006-on-gmap", "has been extensively criticised"),
    (3, "robertson2006-on-gmap", "does provide some useful insights"),
    (3, "robertson2006-on-gmap", "would be indicated"),
    (3, "robertson2006-on-gmap", "substantially"),
    (3, "robertson2006-on-gmap", "might infer"),
    (3, "robertson2006-on-gmap", "we might argue"),
    (3, "robertson2006-on-gmap", "does not make sense"),
    (
        4,
        "ravana2009-score-aggregation",
        "more stable than the arithmetic mean, in the sense of being less affected by outlying values",
    ),
    (
        7,
        "ravana2009-score-aggregation",
        "has no effect on the significance or otherwise of any pairwise system comparison",
    ),
    (7, "ravana2009-score-aggregation", "a function of the elemental effectiveness scores"),
    (7, "ravana2009-score-aggregation", "validity and power"),
    (7, "ravana2009-score-aggregation", "using an appropriate test"),
    (8, "robertson2006-on-gmap", "might be used"),
    (8, "robertson2006-on-gmap", "we might argue"),
    (8, "robertson2006-on-gmap", "does not make sense"),
    (8, "robertson2006-on-gmap", "such as the log or logit"),
    (8, "robertson2006-on-gmap", "at least arguable"),
    (9, "ravana2009-score-aggregation", "a more balanced measure than AM-AP"),
    (9, "ravana2009-score-aggregation", "not overly biased towards the low end of the scale"),
    (9, "ravana2009-score-aggregation", "another approach"),
    (
        9,
        "ravana2009-score-aggregation",
        "when there are clusters of near-similar scores, modest changes in the scores can lead to more dramatic "
        "changes in the correlation coefficient",
    ),
    (9, "ravana2009-score-aggregation", "in eight of the nine cases"),
    (9, "ravana2009-score-aggregation", "with just two exceptions"),
    (9, "ravana2009-score-aggregation", "is no less likely to generate different system orderings than a Random split"),
    (9, "ravana2009-score-aggregation", "can see no basis for persisting with the thresholding version"),
    (9, "ravana2009-score-aggregation", "sensitive to ε"),
    (9, "ravana2009-score-aggregation", "right"),
    (9, "ravana2009-score-aggregation", "did not apply to the geometric mean"),
    (9, "ravana2009-score-aggregation", "permissible (although somewhat confusing)"),
    (9, "ravana2009-score-aggregation", "most strongly self-consistent"),
    (
        10,
        "zhai2016-tdma-ch9-part2",
        "If you wish to improve the search engine for those difficult queries, then gMAP would be preferred",
    ),
    (10, "zhai2016-tdma-ch9-part2", "improve over all kinds of queries"),
    (10, "zhai2016-tdma-ch9-part2", "the answer depends on your users' tasks and preferences"),
    (10, "robertson2006-on-gmap", "the variety of measures in use"),
    (
        10,
        "robertson2006-on-gmap",
        "it is not clear that the measure that you really want to optimise in the test set should be the one that "
        "you optimise in the training set",
    ),
    (10, "ravana2009-score-aggregation", "not appropriate"),
    # The fifth pass: hedges kept, and the omissions the audit named.
    (2, "robertson2006-on-gmap", "the measure is undefined if there are no relevant documents"),
    (2, "robertson2006-on-gmap", "a much more stable measure"),
    (2, "robertson2006-on-gmap", "tends to predict other measures well"),
    (2, "robertson2006-on-gmap", "much more sensitive to differences at the top of the ranking than lower down"),
    (3, "robertson2006-on-gmap", "strictly suitable for ordinal-only scales"),
    (3, "robertson2006-on-gmap", "can be useful, but is somewhat limited"),
    (4, "ravana2009-score-aggregation", "no sense in which any of systems S1 to S4"),
    (4, "ravana2009-score-aggregation", "it is immediately tempting"),
    (
        7,
        "ravana2009-score-aggregation",
        "suggest that GM-AP is the more stable aggregation technique for this data set",
    ),
    (9, "ravana2009-score-aggregation", "there are no bookends in SP"),
    (9, "ravana2009-score-aggregation", "if we are more interested in fidelity near the top"),
    (9, "ravana2009-score-aggregation", "uniformly better"),
    (10, "zhai2016-tdma-ch9-part2", "then perhaps MAP would be preferred"),
    (10, "robertson2006-on-gmap", "for external reasons prefer one to the other"),
    (10, "robertson2006-on-gmap", "rather more stable in this respect than many other measures"),
    (10, "robertson2006-on-gmap", "even in this case, however, variety may be good"),
    (10, "robertson2006-on-gmap", "easy to find"),
    (10, "robertson2006-on-gmap", "substantially change the conclusions"),
]

#: Phrases the chapters put in double quotes that are no source's words: their own examples, a tool's help, a
#: reading the text names as the book's. Every other quotation must be found in one of the sources.
NOT_QUOTED_FROM_A_SOURCE = {
    "are also ignored by default",  # trec_eval's own help text (chapter 2), not one of the five sources
    "twice as much",
    "twice as warm",
    "Fahrenheit",
    "0.05 boost",
    "not printed",
    "significantly better by MAP",
    "significantly better by GMAP",
    "significantly better by a t-test",
    "on average the item is at rank 4",
    "MAP worse, GMAP better",
    "how many mistakes in all?",
    "by what factor is a typical day better?",
    "the geometric mean is more consistent when many scores are low",
    "weights the poor topics",
    "the arithmetic mean of AP over 50 topics",
    "the geometric mean of AP with ε = 0.01 added to every score",
    "a user who gets nothing useful never comes back.",
}


def normalized(text: str) -> str:
    """Letters and digits only, lower case, ε spelled out and the ligatures the PDF extraction dropped dropped.

    The extract of Robertson's paper lost its ligatures and much of its spacing ("e ecti ve-ness" for
    "effectiveness"); Ravana and Moffat's writes ε as LaTeX. Both sides are read the same way.

    >>> normalized("Effectiveness, $\\\\epsilon$GM") == normalized("e ecti ve-ness, εGM")
    True
    """
    text = unicodedata.normalize("NFKC", text).lower().replace("ε", "epsilon").replace("\\epsilon", "epsilon")
    for ligature in ("ffi", "ffl", "ff", "fi", "fl"):
        text = text.replace(ligature, "")
    return re.sub(r"[^a-z0-9]", "", text)


def quoted(number: int) -> list[str]:
    """The phrases a chapter's prose puts in double quotes: not in code (fenced, indented or inline) nor in the
    text's computed roles, whose quotes are Python's.

    >>> import nbformat
    >>> cell = nbformat.v4.new_markdown_cell(
    ...     'He calls it "at least arguable" ({eval}`cite_t("x")`).\\n\\n    print("code")\\n\\n'
    ...     '```{solution} a\\nRun `load("adhoc8")`, "as quoted".\\n```'
    ... )
    >>> quoted_in([cell])
    ['at least arguable', 'as quoted']
    """
    return quoted_in(nbformat.read(chapter(number), as_version=4).cells)


def quoted_in(cells) -> list[str]:
    found = []
    for cell in cells:
        # A cell for JupyterLab alone (its numbering's front matter, a figure's caption) is not prose.
        if cell.cell_type != "markdown" or cell.metadata.get("irmeans", {}).get("lab"):
            continue
        source = without_front_matter(cell.source)  # the first cell's numbering, for JupyterLab
        lines = [line for line in source.split("\n") if not re.match(r"^\s*(```|~~~|:::)|^ {4}", line)]
        prose = re.sub(r"\{\w+\}`[^`]*`", " ", " ".join(" ".join(lines).split()))
        prose = re.sub(r"`[^`]*`", " ", prose)
        found += re.findall(r'"([^"]+)"', prose)
    return found


def source_texts() -> dict[str, str]:
    if not SOURCES.is_dir():
        pytest.skip("the sources' texts are not beside the project")
    return {p.stem: normalized(p.read_text(encoding="utf-8")) for p in SOURCES.iterdir() if p.stem != "README"}


@pytest.mark.parametrize(("number", "source", "words"), QUOTATIONS, ids=[f"{n}: {w[:40]}" for n, _, w in QUOTATIONS])
def test_each_quotation_is_in_its_chapter_in_quotes(number, source, words):
    assert words in quoted(number), f"chapter {number} no longer quotes {words!r}"


@pytest.mark.parametrize(("number", "source", "words"), QUOTATIONS, ids=[f"{n}: {w[:40]}" for n, _, w in QUOTATIONS])
def test_each_quotation_is_in_the_source_it_is_attributed_to(number, source, words):
    assert normalized(words) in source_texts()[source], f"{words!r} is not in {source}"


@pytest.mark.parametrize("number", range(1, 11))
def test_every_quotation_of_a_chapter_is_a_sources_words(number):
    texts = source_texts()
    missing = [
        q
        for q in quoted(number)
        if q not in NOT_QUOTED_FROM_A_SOURCE and not any(normalized(q) in t for t in texts.values())
    ]
    assert not missing, f"chapter {number} quotes words no source has: {missing}"


def test_a_misquotation_is_caught():
    # The check itself can fail: a quotation with one word changed is in no source.
    texts = source_texts()
    assert normalized("has been extensively criticised") in texts["robertson2006-on-gmap"]
    assert not any(normalized("has been widely criticised") in t for t in texts.values())


# ---------------------------------------------------------------------------
# Statements as strong as their source (the fourth pass's items, each where it arose)
# ---------------------------------------------------------------------------


def test_robertsons_check_is_reported_with_his_hedges():
    # 3.4: robustness "would be indicated"; we "might infer"; chapter 8 gives two reasons, not "the one reason".
    scales = text(3)
    assert "it does not rest on the interval assumption" not in scales
    assert "the one reason he gives" not in scales and "two reasons he offers" in scales
    assert "cormack2006precision" in scales
    # The logit is defined where chapter 3's prose first names it, before its figure's section.
    prose = re.sub(r"\{\w+\}`[^`]*`", " ", scales)
    first = prose.index("logit")
    assert "\\log\\frac{x}{1-x}" in prose[first : first + 100]


def test_stevens_classification_comes_with_robertsons_caveat():
    scales = text(3)
    assert "has been extensively criticised" in scales and "velleman1993typologies" in scales


def test_the_stability_of_the_geometric_mean_is_quoted_and_qualified():
    averaging = text(4)
    assert "less affected by outlying values" in averaging
    assert "against a high outlier the geometric mean is the steadier" in averaging
    assert "against a low one it is far less stable" in averaging


def test_robertsons_half_boost_maps_are_not_counted_as_printed():
    boost = text(5)
    assert "Every printed figure is reproduced" not in boost
    assert "Every figure he prints is reproduced, and so is his increase of 0.025" in boost
    assert "the *additive* form" in boost  # named where it is defined, before chapter 6 sets the forms side by side


def test_the_significance_reading_of_ravana_and_moffat_is_theirs():
    maps = text(7)
    assert "would report the test on AP alone" not in maps
    assert "On their view there is one test, on the per-topic AP" not in maps
    assert "cormack2007validity" in maps and "not among this book's sources" in maps
    # log(GMAP + ε), not log(GMAP), is the mean of log(AP + ε).
    assert "Its logarithm is the arithmetic mean of log(AP + ε)" not in maps
    assert "log(GMAP + ε) is the arithmetic mean of log(AP + ε)" in maps


def test_robertsons_end_of_scale_argument_is_his_might():
    logit = text(8)
    assert "contradicts itself" not in logit
    assert '"might be used"' in logit and '"we might argue"' in logit
    assert "Cormack had shown" not in logit and "cormack2006precision" in logit
    assert '"such as the log or logit"' in logit


def test_chapter_9_claims_no_more_than_ravana_and_moffat_and_its_data():
    consistency = text(9)
    for stronger in (
        "After standardization the arithmetic mean is the right average",
        "The idea comes from the TREC 2003 Robust track",
        "Their positive evidence is TREC9",
        "What does predict the outcome is the **measure**",
        "on TREC8 we find otherwise",
        "means nothing",
        "the sample standard deviation, divided by $n - 1$)",
    ):
        assert stronger not in consistency, stronger
    assert "mizzaro2008good" in consistency and "mizzaro2007hits" in consistency
    assert "Table 3(b)" in consistency and "text and that table disagree" in consistency
    assert "conditional on the topics" in consistency
    assert "copy in the other" in consistency and "bias-corrected percentile interval" in consistency


def test_chapter_10_claims_no_more_than_its_data_and_its_sources():
    which = text(10)
    for stronger in (
        "does not survive every reasonable scale",
        "The outcome depends on the measure, not on how many scores are low",
        "least consistent average on most collections",
        "on most of the real collections",
        "Holm-adjusted over the comparisons)",
    ):
        assert stronger not in which, stronger
    assert "not for the search through every pair" in which  # the pair was chosen because it disagrees
    assert "zhai2016tdma" in which and "the variety of measures in use" in which


def test_manning_et_al_are_cited_only_for_what_their_extract_says():
    # IIR's pages before 161 (the eleven recall levels, AP's definition) and MRR are not in the extract.
    assert not re.search(r'eleven standard levels.{0,80}cite_p\("manning2008iir"\)', text(2))
    assert not re.search(r'by \$R\$, the number\s+of relevant documents \{eval\}`cite_p\("manning2008iir"\)', text(6))
    assert not re.search(r"MRR \{eval\}`cite_p\([^)]*manning2008iir", text(7))


def test_standardized_scores_are_said_before_chapter_1_names_their_mean():
    intro = text(1)
    named = intro.index("*standardised* scores")
    assert "measured against the mean and the spread" in intro[named : named + 300]
    assert "not borne out" in intro and "far less consistent" in intro


def test_the_works_known_through_the_sources_are_in_the_bibliography_as_they_cite_them():
    # Cormack & Lynam (2007), Mizzaro (2008) and Mizzaro & Robertson (2007) are read only through Ravana & Moffat;
    # their entries agree with Ravana & Moffat's reference list (pages), Cormack & Lynam (2006) with Robertson's [3].
    from pybtex.database import parse_file

    bib = parse_file(ROOT / "references.bib").entries
    expected = {
        "cormack2007validity": ("Validity and Power of t-Test for Comparing {MAP} and {GMAP}", "753--754"),
        "mizzaro2008good": ("The Good, the Bad, the Difficult, and the Easy", "642--646"),
        "mizzaro2007hits": ("{HITS} hits {TREC}", "479--486"),
        "cormack2006precision": ("Statistical Precision of Information Retrieval Evaluation", "533--540"),
    }
    for key, (title, pages) in expected.items():
        assert bib[key].fields["title"].startswith(title) and bib[key].fields["pages"] == pages, key
    if SOURCES.is_dir():
        references = (SOURCES / "ravana2009-score-aggregation.md").read_text(encoding="utf-8")
        for pages in ("753–754", "642–646", "479–486"):
            assert pages in references
        assert normalized("Cormack and T. R. Lynam. Statistical precision") in source_texts()["robertson2006-on-gmap"]


# ---------------------------------------------------------------------------
# The fifth pass: hedges kept, claims no stronger than their sources, definitions cited to what defines them
# ---------------------------------------------------------------------------


def test_the_sources_hedges_are_kept():
    # Zhai & Massung: "then *perhaps* MAP would be preferred"; Robertson: "variety *may be* good"; Ravana & Moffat:
    # top-weighting matters "*if* we are more interested in fidelity near the top".
    which = text(10)
    assert "then perhaps MAP would be preferred" in which
    assert not re.search(r'"improve over all kinds of queries" MAP would;', which)
    assert "but even there variety helps" not in which and "variety may be good" in which
    consistency = text(9)
    assert "since agreement near the top of two orderings matters more" not in consistency
    assert "if we are more interested in fidelity near the top" in consistency


def test_gmap_less_stable_is_one_tracks_analysis_not_a_rule():
    # Robertson reports the Robust track's analysis; Ravana & Moffat find the GM the more stable on TREC9 (§5.1).
    maps = text(7)
    assert "- GMAP is less stable than MAP, though reasonably stable" not in maps
    assert "That is one track's analysis, not a rule" in maps and "Neither is a general rule" in maps


def test_robertsons_check_threshold_is_the_books_reading():
    which = text(10)
    assert re.search(r"that rule is this book's reading, not Robertson's", which)
    assert '"easy to find"' in which


def test_ravana_and_moffat_read_four_lessons_from_table_3():
    consistency = text(9)
    assert "three lessons" not in consistency and "read four lessons" in consistency


def test_definitions_are_cited_to_what_defines_them():
    # Manning et al.'s and Zhai & Massung's extracts hold neither AP's nor the P-R curve's nor interpolation's nor nDCG's
    # and ERR's definitions, nor call MAP "the standard summary"; trec_eval and the original papers define them.
    assert "The definitions are those of" not in text(2)
    assert not re.search(r'The measures follow the textbook definitions \{eval\}`cite_p\("manning2008iir"', text(1))
    assert not re.search(r'MAP, the standard summary of a run \{eval\}`cite_p\("manning2008iir"', text(4))
    import irmeans

    doc = " ".join(irmeans.interpolated_precision.__doc__.split())
    assert "Manning" not in doc and "iprec_at_recall" in doc


def test_the_spearman_intervals_standard_error_is_fieller_hartley_and_pearsons():
    consistency = text(9)
    assert "$1.06/\\sqrt{n - 3}$" not in consistency
    assert "$\\sqrt{1.06/(n - 3)}$" in consistency and "fieller1957tests" in consistency


def test_the_books_own_counts_come_with_their_intervals():
    # "εGM(0.01) beats trec_eval's GM on 43 of 46", "raises its mean τ on 43 ... median 0.053", "at the same ε the two
    # forms order systems almost alike" (tested at 1e-5 alone), "clearly less consistent than the AM on most matrices"
    # (24 of 46), the sweep's peak and chapter 5's one run: each now with its interval, or said to be one estimate.
    consistency, which = text(9), text(10)
    assert "beats it on {eval}`ch9_wins_gm_trec`" not in consistency
    assert "clearly more consistent than trec_eval's GM on {eval}`ch9_vs_trec_higher`" in consistency
    assert "At ε = 0.01 the two forms part more than at 10⁻⁵" in consistency
    assert "clearly less consistent than the AM on most matrices" not in consistency
    assert "That peak is a single estimate" in consistency
    assert "a majority of low scores" in consistency and "{eval}`ch9_majority_n`" in consistency
    assert "the data cannot say which of the two the outcome follows" in consistency
    assert "at the same ε the two forms order systems almost alike" not in which
    assert "ch10_form_2_max" in which and "{eval}`ch10_eps_higher`" in which
    assert "One run is a single example" in text(5)
