"""The chapters keep to what their sources say, on points where the book once misread them.

Each test reads the chapters' markdown and fails on a phrasing that the sources contradict:
Robertson (2006, §4) on what GMAP emphasises, Robertson (§4.1) on when the Robust track reset
zero APs, and Ravana & Moffat (2009) on the ε they use and on what their figures plot.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted(p for p in (ROOT / "chapters").glob("[0-9][0-9]-*.ipynb") if 3 <= int(p.name[:2]) <= 10)


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
    assert "Cormack" in logit and "Gaussian" in logit
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
