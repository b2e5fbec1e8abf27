"""The built site as the browser tests see it: built if stale, served on 127.0.0.1, its pages.

The site is ``_build/html``, made by ``make site`` (which rebuilds only when a
source is newer than the last good build). It is served by a thread of this
process on a free port, as ``make serve`` would serve it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from irmeans_book import chromium

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "_build" / "html"
#: Where screenshots, the PDF of a page and the report go, for a person to look at.
OUTPUT = ROOT / "_build" / "screenshots"
#: Debian's browser and its flags, as the book's PDF is printed with; the tests never download one of their own.
CHROMIUM, CHROMIUM_ARGS, chromium_missing = chromium.EXECUTABLE, chromium.ARGS, chromium.missing_message
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
HELPERS = Path(__file__).with_name("page_helpers.js")
# Folders of the site that hold assets and sources, not pages.
NOT_PAGES = {"_static", "_sources", "_images", "_sphinx_design_static"}


def build_site() -> None:
    """Run ``make site``; raise with the end of its output if it fails."""
    done = subprocess.run(["make", "--no-print-directory", "site"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-40:])
        raise RuntimeError(f"`make site` failed (exit {done.returncode}):\n{tail}")


def pages(site: Path) -> list[str]:
    """Every HTML page of the site, as paths relative to its root, sorted."""
    return sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if not NOT_PAGES.intersection(p.relative_to(site).parts)
    )


def notebook_pages(site: Path) -> list[str]:
    """The pages made from a notebook: the chapters a reader can download and launch."""
    return [p for p in pages(site) if made_from_a_notebook(p, site)]


def made_from_a_notebook(path: str, site: Path = SITE) -> bool:
    """Whether the page at ``path`` is made from a notebook (a chapter)."""
    return (site / "_sources" / path).with_suffix(".ipynb").is_file()


serve = chromium.serve  # the build's own server
