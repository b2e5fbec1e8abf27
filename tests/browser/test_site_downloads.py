"""What a reader with only the site can take away: the source archive and the wheel it serves, and that they run.

The archive is fetched from the served site, as a reader would fetch it, unpacked
into an empty folder, and used as the "Get the code" page says: the library
installed from it (``pip install .``, here into a folder of its own and without
its dependencies, which the test's environment has) answers, ``irmeans eval``
runs on its example files, and chapter 1 runs from its ``chapters/`` folder with
the library and the book's package it unpacked (not the working copy's).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest
import sitetools
from irmeans_book import downloads
from nbclient import NotebookClient

ROOT = sitetools.ROOT
LINK = re.compile(
    r'<a class="[^"]*irmeans-download[^"]*"[^>]*href="([^"]+)"|href="([^"]+)"[^>]*class="[^"]*irmeans-download'
)
#: The files a reader needs from the archive, besides the library and the chapters.
NEEDED = ["LICENSE", "LICENSE-CC-BY-SA-4.0", "CITATION.cff", "README.md", "Makefile", "pyproject.toml"]
NEEDED += [
    "requirements.txt",
    "requirements-book.txt",
    "constraints.txt",
    "book/pyproject.toml",
    "examples/qrels.txt",
    "references.bib",
]


def links(site: Path, page: str) -> dict[str, str]:
    """The downloads a page links, by file name: the link as written (relative to the page)."""
    text = (site / page).read_text(encoding="utf-8")
    found = [a or b for a, b in LINK.findall(text)]
    return {href.rsplit("/", 1)[-1]: href for href in found}


def fetch(base_url: str, page: str, href: str, to: Path) -> Path:
    url = urllib.parse.urljoin(base_url + page, href)
    with urllib.request.urlopen(url, timeout=30) as answer:
        to.write_bytes(answer.read())
    return to


@pytest.mark.parametrize("page", ["chapters/index.html", "chapters/get-the-code.html"])
def test_home_page_and_get_the_code_link_the_archive_and_the_wheel(site, page):
    found = links(site, page)
    assert downloads.SOURCE_ARCHIVE in found, f"{page} links no source archive: {found}"
    wheels = [name for name in found if name.endswith(".whl")]
    assert wheels and wheels[0].startswith("irmeans-"), f"{page} links no wheel: {found}"
    for href in found.values():
        assert (site / page).parent.joinpath(href).resolve().is_file(), f"{page}: {href} is not in the site"


def test_the_archive_is_the_source_tree_the_site_was_built_from(site):
    with tarfile.open(site / downloads.FOLDER / downloads.SOURCE_ARCHIVE) as tar:
        members = {m.name: m for m in tar.getmembers()}
        names = {name.removeprefix(f"{downloads.SOURCE_FOLDER}/") for name in members}
        assert all(name.startswith(f"{downloads.SOURCE_FOLDER}/") for name in members)
        assert set(NEEDED) <= names, set(NEEDED) - names
        assert not {n for n in names if n.startswith((".venv/", "_build/", "node_modules/", "book/assets/"))}
        # What the site is built from, byte for byte as it is in the tree.
        built_from = [p for p in downloads.source_files(ROOT) if p.parts[0] in ("lib", "book", "chapters")]
        assert built_from
        for path in built_from:
            member = tar.extractfile(f"{downloads.SOURCE_FOLDER}/{path.as_posix()}")
            assert member is not None and member.read() == (ROOT / path).read_bytes(), path


def _run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_library_and_a_chapter_run_from_the_archive_the_site_serves(site, base_url, tmp_path, monkeypatch):
    page = "chapters/get-the-code.html"
    archive = fetch(base_url, page, links(site, page)[downloads.SOURCE_ARCHIVE], tmp_path / downloads.SOURCE_ARCHIVE)
    folder = tmp_path / "unpacked"
    folder.mkdir()
    assert not any(folder.iterdir())
    tree = downloads.unpack(archive, folder)

    # The library, installed from the archive as the page says (`pip install .`), into a folder of its own.
    installed = tmp_path / "installed"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(installed),
            ".",
        ],
        cwd=tree,
    )
    env = dict(os.environ, PYTHONPATH=f"{installed}{os.pathsep}{tree / 'book'}")
    where = _run([sys.executable, "-c", "import irmeans; print(irmeans.__file__)"], cwd=tree, env=env)
    assert Path(where.strip()).is_relative_to(installed), where
    run = "examples/runs/baseline.txt"
    ours = _run([str(installed / "bin" / "irmeans"), "eval", "-m", "map", "examples/qrels.txt", run], cwd=tree, env=env)
    theirs = _run([str(ROOT / ".venv" / "bin" / "irmeans"), "eval", "-m", "map", "examples/qrels.txt", run], cwd=ROOT)
    assert re.match(r"map\s+all\s+0\.\d{4}\n$", ours) and ours == theirs

    # Chapter 1, run in the unpacked chapters/ folder with the unpacked library and book package.
    monkeypatch.setenv("PYTHONPATH", env["PYTHONPATH"])
    path = tree / "chapters" / "01-introduction.ipynb"
    stored = nbformat.read(path, as_version=4)
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(
        nbformat.v4.new_code_cell("import irmeans, irmeans_book\nprint(irmeans.__file__)\nprint(irmeans_book.__file__)")
    )
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    printed = nb.cells[-1].outputs[0]["text"].split()
    assert Path(printed[0]).is_relative_to(installed) and Path(printed[1]).is_relative_to(tree), printed
    # Every cell printed what the chapter stores.
    for cell, before in zip(nb.cells, stored.cells):
        if cell.cell_type == "code" and "remove-output" not in cell.metadata.get("tags", []):
            texts = lambda c: [o.get("text") for o in c.outputs if o.output_type == "stream"]  # noqa: E731
            assert texts(cell) == texts(before), json.dumps(cell.source)
