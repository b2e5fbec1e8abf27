"""No number the data or the library decide is typed in the prose: it is computed ({eval}) where it is used.

Every number typed in a chapter's prose (tests/book/prose_numbers.py says what counts)
must be listed, with where it comes from, in tests/book/prose_numbers_allowed.py; a
number the code decides is written as an ``{eval}`` instead, so that the text and the
code cannot contradict each other (chapter 9 once said "the runs submitted to 14 TREC
collections" beside a list of 11).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from prose_numbers import numbers_in, prose_only, typed_numbers
from prose_numbers_allowed import BOOK, CHAPTERS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "chapters").glob("[0-9][0-9]-*.ipynb")) + sorted((ROOT / "chapters").glob("*.md"))


def allowed(source: str) -> set[str]:
    numbers = set(BOOK)
    for listed, _ in CHAPTERS.get(source, []):
        numbers |= set(listed.split())
    return numbers


def contradictions(found) -> list:
    """The typed numbers that no entry of the allowlist accounts for."""
    return [t for t in found if t.number not in allowed(t.source)]


def _numbers(markdown: str) -> list[str]:
    return [n for _, n in numbers_in(prose_only(markdown))]


def test_what_is_not_prose_is_left_out():
    markdown = "\n".join(
        [
            "# Chapter 12 heading",
            "(fig-label-3)=",
            'Text with 7 things, $x = 42$, $$y = 43$$, `code 44`, {eval}`f"{ch4_x:.3f}"`, {cite:p}`key2009`.',
            "In 2009 (chapter 3, §5.2, Figures 9 and 10, Table 3(c), Equation 2) on TREC-8, TREC8, P@10, S1, sys110.",
            "```python",
            "x = 45",
            "```",
            "```{exercise} Self-check 46",
            ":label: ex-47",
            "",
            "Ask 8 things.",
            "```",
            "",
            "    indented code 48",
            "",
            "1. first item, 9 words",
            "On 127.0.0.1, a gain of 0.05, ε = 10⁻⁵, 10,000 splits and 12.5 % of them, from −2 up.",
        ]
    )
    assert _numbers(markdown) == ["7", "8", "9", "0.05", "10⁻⁵", "10,000", "12.5", "−2"]


def test_the_typed_fourteen_would_have_been_found(tmp_path):
    # Chapter 9's sentence as it was, with a number the data decide typed in it.
    page = tmp_path / "09-consistency.md"
    page.write_text("`irmeans.datasets` ships the per-topic scores of the runs submitted to 14 TREC collections.\n")
    found = contradictions(typed_numbers([page]))
    assert [(t.source, t.number) for t in found] == [("09-consistency", "14")]


def test_every_number_typed_in_the_prose_is_accounted_for():
    found = typed_numbers(SOURCES)
    assert len(found) > 300  # the lint reads the chapters
    left = contradictions(found)
    report = "\n".join(f"{t.source} (cell {t.cell}): {t.number} in '{t.context}'" for t in left)
    assert not left, f"{len(left)} typed numbers neither computed nor listed with their source:\n{report}"


@pytest.mark.parametrize("source", sorted(CHAPTERS))
def test_every_listed_number_is_still_typed(source):
    typed = {t.number for t in typed_numbers([p for p in SOURCES if p.stem == source])}
    for listed, why in CHAPTERS[source]:
        stale = set(listed.split()) - typed
        assert not stale, f"{source}: {sorted(stale)} listed ({why}) but no longer typed: remove them"


def test_every_number_listed_for_the_whole_book_is_typed():
    typed = {t.number for t in typed_numbers(SOURCES)}
    assert set(BOOK) <= typed
