"""Both PDF editions read with assistive technology: their structure trees, read with pikepdf.

The maths was outside the tags (1,248 text runs in the student's edition: a screen reader read §4.1 as
"AM = t ∑ xi , i=1 t 1/t GM = ..."), the 18 charts had no alternative text while 1,170 figure tags inside them
carried Vega's labels of each mark, the "your scores" outputs were 93 loose figures, the running footer was
neither tagged nor an artifact, no link had a description and there was no XMP metadata
(book/scripts/make_pdf_tags.js and make_pdf_access.py).
"""

from __future__ import annotations

import sys
from collections import Counter

import pikepdf
import pytest
import sitetools

sys.path.insert(0, str(sitetools.ROOT / "book" / "scripts"))
import make_pdf  # noqa: E402 - a script of the book's, not an installed module
import make_pdf_access  # noqa: E402

EDITIONS = list(make_pdf.EDITIONS.items())


def _elements(pdf: pikepdf.Pdf):
    """Every structure element, with the structure types of the elements around it."""
    found = []

    def walk(node, above):
        if isinstance(node, pikepdf.Dictionary) and "/S" in node:
            kind = str(node.S)
            found.append((kind, node, above))
            kids = node.get("/K")
            if kids is not None:
                for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
                    walk(kid, (*above, kind))

    kids = pdf.Root.StructTreeRoot.K
    for kid in kids if isinstance(kids, pikepdf.Array) else [kids]:
        walk(kid, ())
    return found


@pytest.fixture(scope="module", params=EDITIONS, ids=[key for key, _ in EDITIONS])
def edition(request, site):
    key, name = request.param
    with pikepdf.open(sitetools.ROOT / "_build" / "pdf" / name) as pdf:
        yield key, pdf


def test_every_figure_has_alt_text_and_none_is_inside_another(edition):
    key, pdf = edition
    figures = [(node, above) for kind, node, above in _elements(pdf) if kind == "/Figure"]
    alts = [str(node.get("/Alt", "")).strip() for node, _ in figures]
    assert len(figures) >= 200, len(figures)  # the charts and the formulas
    assert all(alts), [i for i, alt in enumerate(alts) if not alt][:10]
    assert not [above for _, above in figures if "/Figure" in above]
    # Formulas are said as words, charts described as on the site, a "your scores" box with its values.
    assert any("the fraction with numerator" in alt for alt in alts)
    assert any(alt.startswith("Precision against recall for the ranking of 10 documents") for alt in alts)
    assert sum(alt.startswith("Two text boxes take") and "Values: " in alt for alt in alts) == 4
    assert Counter(kind for kind, _, _ in _elements(pdf))["/Caption"] >= 18


def test_no_content_is_left_untagged(edition):
    key, pdf = edition
    untagged = {n: found for n, page in enumerate(pdf.pages, start=1) if (found := make_pdf_access.untagged(page))}
    assert not untagged, dict(list(untagged.items())[:10])


def test_the_running_footer_is_a_pagination_artifact(edition):
    key, pdf = edition
    pages = 0
    for page in pdf.pages:
        depth, in_footer, text = 0, None, 0
        for operands, op in pikepdf.parse_content_stream(page):
            name = str(op)
            if name in ("BDC", "BMC"):
                depth += 1
                kind = (
                    operands[1].get("/Type")
                    if len(operands) > 1 and isinstance(operands[1], pikepdf.Dictionary)
                    else None
                )
                if in_footer is None and str(operands[0]) == "/Artifact" and kind == pikepdf.Name("/Pagination"):
                    in_footer = depth
            elif name == "EMC":
                if depth == in_footer:
                    in_footer = -1
                depth -= 1
            elif name in make_pdf_access.TEXT_OPERATORS and in_footer and in_footer > 0:
                text += 1
        pages += text > 0
    assert pages == len(pdf.pages)


def test_the_title_language_and_metadata_are_set(edition):
    key, pdf = edition
    title = make_pdf.edition_title(key)
    assert str(pdf.docinfo["/Title"]) == title
    assert str(pdf.Root.Lang) == "en"
    assert bool(pdf.Root.ViewerPreferences.DisplayDocTitle) and bool(pdf.Root.MarkInfo.Marked)
    assert "/Metadata" in pdf.Root
    with pdf.open_metadata() as meta:
        assert meta["dc:title"] == title
        assert "en" in set(meta["dc:language"])
        assert meta["dc:description"] == make_pdf.EDITION_DESCRIPTIONS[key]
        assert "CC BY-SA 4.0" in meta["dc:rights"]


def test_every_link_has_a_description(edition):
    key, pdf = edition
    links = [
        annotation
        for page in pdf.pages
        for annotation in page.get("/Annots") or []
        if annotation.get("/Subtype") == pikepdf.Name("/Link")
    ]
    assert len(links) > 100
    assert all(str(link.get("/Contents", "")).strip() for link in links)
