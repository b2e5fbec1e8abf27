"""The site's search as a reader uses it: each result's summary is the page's text around the words
searched for, and a command-line option finds the pages that name it.

Once, "nDCG" and "epsilon" gave summaries reading "....ipynb" (the page's download button), and
"trec_eval -c" gave ten pages summarised as "Contents…" with every letter c highlighted.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
import sitetools
from visit import open_page

#: The text a summary must never be made of: the page's buttons and its list of contents.
CHROME = re.compile(r"\.ipynb|\.pdf\b|^\W*Contents\b")


def search(browser, base_url, query):
    """The results of ``query``: each as {"path", "summary", "highlighted"}; and the page's log."""
    page, log = open_page(browser, base_url, "search.html?q=" + quote(query))
    page.wait_for_function(
        "() => document.querySelector('#search-results') && "
        "document.querySelector('#search-results').textContent.match(/found|did not match/i)",
        timeout=30_000,
    )
    count = page.locator("#search-results ul.search > li").count()
    page.wait_for_function(f"() => document.querySelectorAll('#search-results p.context').length >= {count}")
    results = page.evaluate(
        """() => Array.from(document.querySelectorAll('#search-results ul.search > li')).map((li) => ({
          path: li.querySelector('a').getAttribute('href').split('#')[0],
          summary: (li.querySelector('p.context') || {}).textContent || '',
          highlighted: Array.from(li.querySelectorAll('p.context .highlighted')).map((h) => h.textContent),
        }))"""
    )
    page.context.close()
    return results, log


def _keywords(site, path):
    text = (site / path).read_text(encoding="utf-8")
    match = re.search(r'<meta content="([^"]*)" name="keywords"', text) or re.search(
        r'<meta name="keywords" content="([^"]*)"', text
    )
    return html.unescape(match.group(1)).split(", ") if match else []


class _Prose(HTMLParser):
    """The text of a page's article, without code, outputs, displayed maths and figures."""

    SKIP = {"cell_input", "cell_output", "highlight", "math", "irmeans-figure"}
    VOID = {"br", "img", "input", "meta", "link", "hr", "wbr", "source", "col"}

    def __init__(self):
        super().__init__()
        self.depth = self.skip = 0
        self.inside = False
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        if tag == "article" and "bd-article" in classes:
            self.inside = True
        self.depth += 1
        if self.skip or tag in ("pre", "script", "style") or (tag == "div" and classes & self.SKIP):
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        self.depth -= 1
        if self.skip:
            self.skip -= 1
        if tag == "article":
            self.inside = False

    def handle_data(self, data):
        if self.inside and not self.skip:
            self.parts.append(data)


def _prose(site, path):
    """The page's article text without its code, outputs and displayed maths: what a summary is made of."""
    parser = _Prose()
    parser.feed((site / path).read_text(encoding="utf-8"))
    return " ".join(parser.parts)


@pytest.mark.parametrize("query", ["nDCG", "epsilon"])
def test_summaries_are_the_pages_text_around_the_word(browser, base_url, site, query):
    results, log = search(browser, base_url, query)
    assert len(results) >= 3, results
    bad = [r for r in results if len(r["summary"]) < 80 or CHROME.search(r["summary"])]
    assert not bad, bad
    word = {"epsilon": "ε"}.get(query, query)
    for r in results:
        if word.lower() in _prose(site, r["path"]).lower():
            assert word.lower() in r["summary"].lower(), (word, r)
    if query == "epsilon":
        assert all("ε" in r["highlighted"] for r in results if "ε" in r["summary"]), results
    assert not (log.errors or log.failed or log.outside), log


def _pages_naming(site, option):
    return {p for p in sitetools.pages(site) if option in _keywords(site, p)}


@pytest.mark.parametrize("query", ["--eps", "irmeans eval -q", "trec_eval -c", "-c"])
def test_an_option_finds_the_pages_that_name_it(browser, base_url, site, query):
    option = re.findall(r"(?<![\w-])--?[A-Za-z][\w-]*", query)[0]
    expected = _pages_naming(site, option)
    if query in ("--eps", "irmeans eval -q"):
        assert expected, f"no page names {option}: the book's text changed"
    results, log = search(browser, base_url, query)
    found = {r["path"] for r in results}
    assert found == expected, (query, sorted(found), sorted(expected))
    for r in results:
        assert option in r["summary"], r
        assert option in r["highlighted"], r
        assert all(len(h) > 1 for h in r["highlighted"]), r  # never each letter c on its own
        assert not CHROME.search(r["summary"]), r
    assert not (log.errors or log.failed or log.outside), log


#: What a reader searches for, and the chapter that defines it: chapter 4 defines the averages, chapter 6 ε.
DEFINED_IN = {
    "geometric mean": "chapters/04-averaging.html",
    "harmonic mean": "chapters/04-averaging.html",
    "epsilon": "chapters/06-zeros-and-epsilon.html",
    "ε": "chapters/06-zeros-and-epsilon.html",
}


@pytest.fixture(scope="module")
def ranked(browser, base_url):
    """Each query of DEFINED_IN: the pages found, best first, and the page's log."""
    return {query: search(browser, base_url, query) for query in DEFINED_IN}


@pytest.mark.parametrize("query", list(DEFINED_IN))
def test_the_chapter_that_defines_a_term_comes_first(ranked, query):
    """Sphinx put chapter 4 eighth of 12 for "geometric mean" and seventh of 9 for "harmonic mean", and
    chapter 6, "Zeros and ε", sixth for "epsilon" (irmeans-search-scorer.js)."""
    results, log = ranked[query]
    paths = [r["path"] for r in results]
    assert len(paths) >= 3, paths
    assert paths[0] == DEFINED_IN[query], (query, paths)
    assert not (log.errors or log.failed or log.outside), log


def test_epsilon_and_its_symbol_find_the_same_pages_in_the_same_order(ranked):
    assert [r["path"] for r in ranked["epsilon"][0]] == [r["path"] for r in ranked["ε"][0]]


def test_a_search_that_finds_nothing_says_so_in_the_books_words(browser, base_url):
    page, log = open_page(browser, base_url, "search.html?q=" + quote("zzqxj gmapx"))
    page.wait_for_function(
        "() => document.querySelector('#search-results') && "
        "document.querySelector('#search-results').textContent.match(/did not match/i)",
        timeout=30_000,
    )
    message = page.locator("#search-results").inner_text()
    page.context.close()
    assert "did not match any page" in message and "categories" not in message, message
    assert not (log.errors or log.failed or log.outside), log


def test_inline_maths_reads_as_the_reader_sees_it_in_a_summary(browser, base_url):
    """Chapter 6's summary read "exp(overlinelog(x+ε))": a bar over a mean, and a root, are written as words."""
    page, _ = open_page(browser, base_url, "search.html?q=" + quote("trec_eval floor"))
    read = page.evaluate(
        """() => [String.raw`\\exp(\\overline{\\log(x+\\varepsilon)})-\\varepsilon`, String.raw`\\sqrt{1.06/(n - 3)}`]
          .map((tex) => window.irmeansSearchText.texToText(tex))"""
    )
    page.context.close()
    assert read == ["exp(mean(log(x+ε)))-ε", "√(1.06/(n - 3))"], read
    results, log = search(browser, base_url, "additive form floor")
    zeros = [r for r in results if r["path"] == "chapters/06-zeros-and-epsilon.html"]
    assert zeros, results
    assert all(not re.search(r"overline|\\|\bsqrt\b", r["summary"]) for r in results), results
    assert not (log.errors or log.failed or log.outside), log


def test_a_page_is_listed_once(browser, base_url):
    """ "Kendall" listed chapter 7 twice: once for its text, once for the title of its box on Kendall's τ."""
    results, log = search(browser, base_url, "Kendall")
    paths = [r["path"] for r in results]
    assert "chapters/07-map-gmap-mrr.html" in paths and len(paths) == len(set(paths)), paths
    assert not (log.errors or log.failed or log.outside), log


def test_the_first_page_found_for_holm_defines_it(browser, base_url):
    """Chapters 9 and 10 used "Holm-adjusted", defined only in the API reference, and the first hit did not define
    it: chapter 10 defines it where it uses it, and comes first."""
    results, log = search(browser, base_url, "Holm")
    assert results and results[0]["path"] == "chapters/10-which-average.html", results
    assert not (log.errors or log.failed or log.outside), log
