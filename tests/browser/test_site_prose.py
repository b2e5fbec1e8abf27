"""The site's prose shows what a chapter opened in JupyterLab shows: the same numbers, the same figure
numbers, titles and citations (the site's are Sphinx's own, JupyterLab's come from irmeans_book.prose)."""

from __future__ import annotations

import json
import re

import sitetools
from bs4 import BeautifulSoup
from irmeans_book.prose import MYST_MIMETYPE

CHAPTERS = sorted((sitetools.ROOT / "chapters").glob("[0-9][0-9]-*.ipynb"))


def _words(text: str) -> str:
    return " ".join(text.split())


def _page_text(site, name: str) -> str:
    html = (site / "chapters" / f"{name}.html").read_text(encoding="utf-8")
    article = BeautifulSoup(html, "html.parser").find("article")
    return _words(article.get_text(""))


def _stored(path) -> list[dict]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [s["result"]["data"] for c in cells for s in c.get("metadata", {}).get("user_expressions", [])]


def test_every_value_jupyterlab_shows_is_on_the_page(site):
    missing, references = {}, 0
    for path in CHAPTERS:
        text = _page_text(site, path.stem)
        for data in _stored(path):
            shown = _words(re.sub(r"^([\"'])(.*)\1$", r"\2", data["text/plain"]))
            references += MYST_MIMETYPE in data
            if shown not in text:
                missing.setdefault(path.stem, []).append(shown)
    assert references >= 90  # figure references, titles and citations among them
    assert not missing, f"shown in JupyterLab but not on the site: {missing}"


def test_references_are_links_on_the_site(site):
    # The site keeps Sphinx's references: "Fig. 4.1" links to the figure, a citation to the bibliography.
    soup = BeautifulSoup((site / "chapters" / "04-averaging.html").read_text(encoding="utf-8"), "html.parser")
    links = {_words(a.get_text("")): a.get("href", "") for a in soup.find("article").find_all("a")}
    assert links["Fig. 4.1"] == "#fig-ch4-eps" and links["Fig. 4.2"] == "#fig-ch4-means"
    assert links["2006"].startswith("bibliography.html#")  # Robertson [2006]
    assert links["2009"].startswith("bibliography.html#")  # Ravana and Moffat [2009]


def test_a_percent_sign_never_starts_a_line(site):
    """ "30 %" broke between the number and its sign: the space between them is a no-break space
    (irmeans_site.keep_percent_with_number), in the text and in the headings, not in code or maths."""
    found, kept = {}, 0
    for path in sitetools.pages(site):
        soup = BeautifulSoup((site / path).read_text(encoding="utf-8"), "html.parser")
        article = soup.find("article")
        if article is None:
            continue
        for verbatim in article.select("pre, code, .math, script, style, mjx-container"):
            verbatim.decompose()
        text = article.get_text("")
        kept += len(re.findall("\\d\u00a0%", text))
        breaking = re.findall(r".{20}\d[ \t\n]+%.{0,10}", text)
        if breaking:
            found[path] = breaking[:5]
    assert kept >= 20, kept  # the book writes a percentage this way in chapters 7, 8, 9 and 10
    assert not found, found
