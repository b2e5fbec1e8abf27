"""`make pdf`: the configuration of the single-page build and the print style sheet.

Printing the PDF itself takes Chromium; `make site` does it, and the browser
tests check the PDF it leaves in the site (tests/browser/test_book_pdf.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "scripts"))
import make_pdf  # noqa: E402 - a script of the book's, not an installed module

PRINT_CSS = ROOT / "book" / "static" / "irmeans-print.css"
SELFCHECK_CSS = ROOT / "book" / "static" / "selfcheck.css"


def _print_rules(css: str) -> str:
    """The text of the ``@media print`` blocks of ``css``, without comments."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)
    blocks, depth, start = [], 0, None
    for match in re.finditer(r"@media\s+print\s*\{|\{|\}", css):
        if match.group(0).startswith("@media") and depth == 0:
            start, depth = match.end(), 1
        elif match.group(0).endswith("{") and start is not None:
            depth += 1
        elif match.group(0) == "}" and start is not None:
            depth -= 1
            if depth == 0:
                blocks.append(css[start : match.start()])
                start = None
    return "\n".join(blocks)


def _hidden_selectors(css: str) -> set[str]:
    hidden = set()
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", _print_rules(css)):
        if re.search(r"display\s*:\s*none", body):
            hidden.update(s.strip() for s in selectors.split(","))
    return hidden


def test_print_hides_the_figures_controls_and_the_answer_forms():
    hidden = _hidden_selectors(PRINT_CSS.read_text(encoding="utf-8"))
    assert {".vega-bindings", ".vega-actions"} <= hidden, hidden
    assert {".bd-header", ".bd-sidebar-primary", ".prev-next-area"} <= hidden
    assert {".selfcheck-form", ".selfcheck-hint"} <= _hidden_selectors(SELFCHECK_CSS.read_text(encoding="utf-8"))


def test_print_starts_every_chapter_on_a_new_page():
    rules = _print_rules(PRINT_CSS.read_text(encoding="utf-8"))
    assert re.search(r'span\[id\^="document-"\]\s*\+\s*section\s*\{[^}]*break-before:\s*page', rules)
    assert re.search(r"\.irmeans-figure[^{]*\{[^}]*break-inside:\s*avoid", rules)


def test_the_single_page_build_uses_the_sites_configuration(tmp_path):
    site = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config = yaml.safe_load(make_pdf.pdf_config(tmp_path).read_text(encoding="utf-8"))
    assert config["execute"]["execute_notebooks"] == "off"  # the stored outputs, which make test checks
    assert config["title"] == site["title"]
    extensions = config["sphinx"]["local_extensions"]
    assert set(site["sphinx"]["local_extensions"]) | {"make_pdf"} == set(extensions)
    for path in [*extensions.values(), *config["sphinx"]["config"]["html_static_path"], *config["bibtex_bibfiles"]]:
        assert Path(path).is_absolute() and Path(path).exists(), path
    assert ["singlehtml", make_pdf.VEGALITE_MIMETYPE, 5] in config["sphinx"]["config"]["nb_mime_priority_overrides"]
    assert config["sphinx"]["config"]["html_css_files"] == site["sphinx"]["config"]["html_css_files"]


def test_the_single_page_gets_the_html_visitors():
    class Registry:
        translation_handlers = {"html": {"A": ("visit", None), "B": ("v", "d")}, "singlehtml": {"B": ("own", None)}}

    class App:
        registry = Registry()

    make_pdf._html_visitors_for_singlehtml(App)
    assert Registry.translation_handlers["singlehtml"] == {"A": ("visit", None), "B": ("own", None)}


def _folders_a_reader_makes() -> set[str]:
    """The folders the README and "Get the code" tell a reader to make in the source tree: each
    ``python3 -m venv NAME``, and the folder the source archive unpacks into."""
    texts = [(ROOT / "README.md").read_text(encoding="utf-8"), (ROOT / "chapters" / "get-the-code.md").read_text()]
    found = {name for text in texts for name in re.findall(r"python3? -m venv (\S+)", text)}
    from irmeans_book import downloads

    return found | {downloads.SOURCE_FOLDER}


def test_neither_build_reads_a_folder_the_readme_tells_a_reader_to_make(tmp_path):
    """The quick start's ``.venv-lib`` holds the installed package's ``datasets/data/README.md``: read by
    Sphinx, it made `make book` fail with 34 warnings, and `make pdf` too."""
    from sphinx.util.matching import Matcher

    folders = _folders_a_reader_makes()
    assert {".venv-lib", "irmeans"} <= folders, folders
    site = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["exclude_patterns"]
    single_page = yaml.safe_load(make_pdf.pdf_config(tmp_path).read_text(encoding="utf-8"))["exclude_patterns"]
    for patterns in (site, single_page):
        excluded = Matcher(patterns)
        for folder in folders:
            inside = f"{folder}/lib/python3.11/site-packages/irmeans/datasets/data/README.md"
            assert excluded(inside) or excluded(folder), (folder, patterns)


def test_the_readme_and_get_the_code_say_make_pdf_makes_both_editions():
    """The README (the source archive's too) said `make pdf` makes "the whole book as one PDF"."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    line = next(line for line in readme.splitlines() if line.startswith("make pdf"))
    assert all(name in line for name in make_pdf.EDITIONS.values()), line
    assert "one PDF" not in readme
    row = next(
        r for r in (ROOT / "chapters" / "get-the-code.md").read_text().splitlines() if r.startswith("| `make pdf`")
    )
    assert "two PDFs" in row and all(name in row for name in make_pdf.EDITIONS.values()), row


def test_the_site_names_the_editions_files_as_make_pdf_writes_them():
    sys.path.insert(0, str(ROOT / "book" / "extensions"))
    import irmeans_site

    assert [irmeans_site.BOOK_PDF, irmeans_site.INSTRUCTOR_PDF] == list(make_pdf.EDITIONS.values())


def test_each_edition_has_a_name_a_description_and_a_title_of_its_own():
    titles = {make_pdf.edition_title(key) for key in make_pdf.EDITIONS}
    assert len(titles) == len(make_pdf.EDITIONS)
    for key in make_pdf.EDITIONS:
        told = make_pdf.edition(key)
        assert told["key"] == key and told["name"] in make_pdf.EDITION_NAMES.values() and told["description"]
        assert make_pdf.EDITION_NAMES[key].lower() in make_pdf.edition_title(key)


def test_the_reference_appendix_holds_pages_of_the_table_of_contents():
    files = [doc for part in make_pdf.toc_parts() for doc in part["docs"]]
    assert make_pdf.REFERENCE_DOCS and set(make_pdf.REFERENCE_DOCS) <= set(files)


def test_a_site_address_is_used_only_once_the_configuration_names_one(monkeypatch, tmp_path):
    """There is none yet: the repository's address in _config.yml is a placeholder, not the site's."""
    assert make_pdf.public_address() is None
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    config.setdefault("html", {})["baseurl"] = "https://example.org/irmeans/"
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    monkeypatch.setattr(make_pdf, "ROOT", tmp_path)
    assert make_pdf.public_address() == "https://example.org/irmeans/"


def test_a_contents_entry_finds_a_bookmark_that_reads_as_its_heading_twice():
    """The instructor's contents gave no page for "Answers: 4", "Answers: 7" and "Answers: 10": Chromium's
    bookmark for each read as its heading twice over."""
    entries = [{"id": "a", "text": "Answers: 4. Averaging across topics"}, {"id": "b", "text": "Answers: 5. Boost"}]
    marks = [
        ("Answers: 4. Averaging across topicsAnswers: 4. Averaging across topics", 186),
        ("Answers: 5. Boost", 187),
    ]
    assert make_pdf.contents_pages(entries, marks) == {"a": 186, "b": 187}
