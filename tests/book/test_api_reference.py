"""The reference pages: every public name of irmeans has an entry, built from its docstring; every command its --help."""

import os
import re
import sys
from pathlib import Path

import irmeans
import pytest
import yaml
from irmeans.cli import _SUBCOMMANDS as SUBCOMMANDS
from irmeans_book import chapters

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "book" / "extensions"))

import irmeans_reference  # noqa: E402

API = ROOT / "chapters" / "api-reference.md"
CLI = ROOT / "chapters" / "cli-reference.md"
ENTRY = re.compile(r"^\.\. auto(?:function|class|exception|data):: (irmeans\.\w+)$", re.M)


def test_every_public_name_has_exactly_one_entry():
    entries = ENTRY.findall(API.read_text(encoding="utf-8"))
    assert len(entries) == len(set(entries)), "a name is documented twice"
    assert sorted(entries) == sorted(f"irmeans.{name}" for name in irmeans.__all__)


def test_both_pages_are_in_the_table_of_contents():
    files = [doc for part in chapters.parts(ROOT) for doc in part["docs"]]
    assert "chapters/api-reference" in files and "chapters/cli-reference" in files


def book_sphinx_settings():
    """The extensions and settings of _config.yml that the reference pages depend on."""
    config = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]
    extensions = [e for e in config["extra_extensions"] if e.startswith("sphinx.ext.")]
    assert "irmeans_reference" in config["local_extensions"]
    keys = [k for k in config["config"] if k.startswith(("autodoc_", "napoleon_", "nitpick_"))]
    return ["myst_parser", *extensions, "irmeans_reference"], {k: config["config"][k] for k in keys}


def build(folder, pages):
    """Build ``pages`` (name -> MyST text) with the book's settings, nitpicky, in a process of its own
    (Sphinx registers its nodes once a process): (HTML by name, warnings)."""
    import subprocess

    extensions, settings = book_sphinx_settings()
    conf = [f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / 'extensions')!r})"]
    conf += [f"extensions = {extensions!r}", "nitpicky = True"] + [f"{k} = {v!r}" for k, v in settings.items()]
    (folder / "conf.py").write_text("\n".join(conf) + "\n")
    (folder / "index.md").write_text("# Index\n\n```{toctree}\n" + "\n".join(pages) + "\n```\n")
    for name, text in pages.items():
        (folder / f"{name}.md").write_text(text, encoding="utf-8")
    log = folder / "warnings.txt"
    command = [sys.executable, "-m", "sphinx", "-q", "-b", "html", "-w", str(log), str(folder), str(folder / "_build")]
    subprocess.run(command, check=True, capture_output=True)
    html = {name: (folder / "_build" / f"{name}.html").read_text(encoding="utf-8") for name in pages}
    return html, log.read_text()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("reference")


@pytest.fixture(scope="module")
def built(folder):
    pages = {"api-reference": API.read_text(encoding="utf-8"), "cli-reference": CLI.read_text(encoding="utf-8")}
    return build(folder, pages)


def test_the_pages_build_without_a_warning_and_anchor_every_name(built):
    html, warnings = built
    assert warnings == ""
    anchors = set(re.findall(r'id="(irmeans\.\w+)"', html["api-reference"]))
    assert {f"irmeans.{name}" for name in irmeans.__all__} <= anchors


def test_an_entry_shows_its_docstring_sections_and_its_examples(built):
    html = built[0]["api-reference"]
    entry = html[html.index('id="irmeans.compare"') :]
    entry = entry[: entry.index('<dl class="py ', 10)]
    assert "Compare every pair of systems" in entry
    assert "Parameters" in entry and "Returns" in entry and "Raises" in entry and "&gt;&gt;&gt;" in entry
    assert re.search(r"From <code[^>]*><span class=\"pre\">irmeans\.comparison\.compare</span></code>\.", entry)


def test_a_constant_takes_the_comment_above_it_in_its_module(built):
    html = built[0]["api-reference"]
    entry = html[html.index('id="irmeans.TREC_EVAL_GM_EPS"') :][:1500]
    assert "The ε of trec_eval’s" in entry or "The ε of trec_eval's" in entry
    levels = html[html.index('id="irmeans.STANDARD_RECALL_LEVELS"') :][:1500]
    assert "The eleven recall levels" in levels and "ndarray(shape" not in levels


def test_a_reference_by_home_module_links_to_the_public_entry(built):
    html = built[0]["api-reference"]
    # halves_tau's docstring names irmeans.intervals.tau_intervals, documented as irmeans.tau_intervals
    entry = html[html.index('id="irmeans.halves_tau"') :][:3000]
    assert 'href="#irmeans.tau_intervals"' in entry


def test_a_stale_reference_in_a_docstring_still_fails_the_build(tmp_path):
    page = (
        "# Demo\n\n```{eval-rst}\n.. py:function:: irmeans.demo()\n\n"
        "   See :func:`irmeans.consistency.split_half`, :mod:`irmeans.averages` and :func:`irmeans.consistency.gone`.\n```\n"
    )
    html, warnings = build(tmp_path, {"demo": page})
    assert "irmeans.consistency.gone" in warnings and warnings.count("WARNING") == 1
    assert "irmeans.averages" in html["demo"]  # exists, has no entry: code without a link


def test_every_command_has_its_help_on_the_cli_page(built):
    text = CLI.read_text(encoding="utf-8")
    shown = re.findall(r"^```\{irmeans-cli-help\} ?(\w*)$", text, re.M)
    assert shown == ["", *irmeans_reference.commands()]
    assert irmeans_reference.commands() == list(SUBCOMMANDS)  # every subcommand, in the parser's order
    assert built[0]["cli-reference"].count("usage: irmeans") == 1 + len(SUBCOMMANDS)


@pytest.mark.parametrize("command", [None, *SUBCOMMANDS])
def test_the_help_on_the_page_is_the_command_s_own(command, monkeypatch, capsys):
    from irmeans.cli import main

    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main([command, "--help"] if command else ["--help"])
    assert irmeans_reference.command_help(command) == capsys.readouterr().out
    assert os.environ["COLUMNS"] == "80"  # put back as it was
    with pytest.raises(ValueError, match="no command 'nosuch'"):
        irmeans_reference.command_help("nosuch")


def test_the_site_s_search_finds_the_entries_as_text_not_as_objects(built, folder):
    index = (folder / "_build" / "searchindex.js").read_text(encoding="utf-8").replace(" ", "")
    assert '"objects":{}' in index  # Sphinx would list every entry there, as a result without a summary
    assert '"bootstrap":[' in index  # the entries' words are searched as the page's text


#: The longest line of an example that fits the reference's code box at 1366 px: 81 characters of 14 px
#: monospace for a function's (723 px, less its padding), about 80 for a class member's, indented further.
WIDEST_EXAMPLE = 79


def test_every_example_line_fits_the_code_box_of_a_1366_px_laptop(built):
    import html as entities

    page = built[0]["api-reference"]
    blocks = [entities.unescape(re.sub(r"<[^>]+>", "", b)) for b in re.findall(r"<pre>(.*?)</pre>", page, re.S)]
    long = [line for block in blocks for line in block.splitlines() if len(line) > WIDEST_EXAMPLE]
    assert len(blocks) > 30 and not long, long


def _article(page: str) -> str:
    return page[page.find("<body") :]


def test_every_example_is_a_code_block_that_pastes(built):
    """GM's doctest, written after its parameters without an Examples heading, was drawn as bold bullets of
    its Parameters list, its quotes curly (``form=”floor”``: it would not paste)."""
    import html as entities

    page = _article(built[0]["api-reference"])
    outside = re.sub(r"<pre>.*?</pre>", "", page, flags=re.S)
    text = entities.unescape(re.sub(r"<[^>]+>", "", outside))
    assert ">>>" not in text, [line for line in text.splitlines() if ">>>" in line][:5]
    entry = page[page.index('id="irmeans.GM"') :]
    entry = entry[: entry.index('<dl class="py ', 10)]
    assert 'form="floor"' in entities.unescape(re.sub(r"<[^>]+>", "", entry))


def test_no_sentence_of_a_docstring_is_set_as_an_entry(built):
    """Qrels's sentence about ``topics`` and ``docnos``, after its Attributes, was set as an attribute's
    heading, literal backticks and all."""
    import html as entities

    page = _article(built[0]["api-reference"])
    signatures = [
        entities.unescape(re.sub(r"<[^>]+>", "", s))
        for s in re.findall(r'<dt class="sig[^"]*"[^>]*>(.*?)</dt>', page, re.S)
    ]
    wrong = [s.strip() for s in signatures if "``" in s or (len(s.split()) > 6 and not re.search(r"[(=]", s))]
    assert len(signatures) > 50 and not wrong, wrong


def test_formulas_are_typeset_not_written_in_latex_subscripts(built):
    """ERR's formula showed a raw ``Π_{i<r}``."""
    import html as entities

    page = _article(built[0]["api-reference"])
    outside = re.sub(r"<pre>.*?</pre>", "", page, flags=re.S)
    outside = re.sub(r'<div class="math[^"]*">.*?</div>', "", outside, flags=re.S)
    outside = re.sub(r'<span class="math[^"]*">.*?</span>', "", outside, flags=re.S)
    text = entities.unescape(re.sub(r"<[^>]+>", "", outside))
    assert not re.findall(r"\w_\{|\^\{", text), re.findall(r".{30}(?:_\{|\^\{).{30}", text)
    entry = page[page.index('id="irmeans.expected_reciprocal_rank"') :][:4000]
    assert 'class="math' in entry and r"\prod_{i&lt;r}" in entry


@pytest.mark.parametrize("command", [None, *SUBCOMMANDS])
def test_the_help_on_the_page_fits_a_laptops_box_and_loses_no_word(command):
    """`irmeans eval --help` prints lines of up to 115 characters (a measure's defaults), which scrolled
    sideways at 1366 px: the page wraps them under their own text."""
    printed = irmeans_reference.command_help(command)
    shown = irmeans_reference.wrapped(printed)
    assert shown.split() == printed.split()
    assert max(len(line) for line in shown.splitlines()) <= irmeans_reference.HELP_COLUMNS


def test_the_cli_page_shows_the_help_wrapped(built):
    import html as entities

    page = built[0]["cli-reference"]
    blocks = [entities.unescape(re.sub(r"<[^>]+>", "", b)) for b in re.findall(r"<pre>(.*?)</pre>", page, re.S)]
    assert blocks and max(len(line) for b in blocks for line in b.splitlines()) <= irmeans_reference.HELP_COLUMNS
