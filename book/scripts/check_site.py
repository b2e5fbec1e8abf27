"""Check the built site: nothing is loaded from elsewhere, figures have their script, pages stay small, and no
page links to the repository's address, which is a placeholder until the project has a public home.

Usage: ``python book/scripts/check_site.py _build/html [--course]``; exits non-zero on a problem. With
``--course``, the site is a course's (``make course``): it must have no solutions, no self-check answers and no
instructor's edition (:func:`course_problems`).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_PAGE_BYTES = 2_000_000
#: The files of the site a reader's browser reads as text, where a link or an address may stand.
TEXT_FILES = ("*.html", "*.js", "*.json", "*.txt", "*.ipynb")
# Anything a browser would fetch by itself: scripts, styles, images, frames, fonts via CSS.
FETCHED = re.compile(
    r"""<(?:script|img|iframe|source|embed)\b[^>]*\bsrc\s*=\s*["']?((?:https?:)?//[^"'\s>]+)"""
    r"""|<link\b[^>]*\bhref\s*=\s*["']?((?:https?:)?//[^"'\s>]+)"""
    r"""|url\(\s*["']?((?:https?:)?//[^"')]+)""",
    re.IGNORECASE,
)
#: The scripts a page with a figure needs: Vega, and the book's script that fits and draws each figure.
FIGURE_SCRIPTS = {
    name: re.compile(rf"""<script[^>]*src=["']([^"']*{re.escape(name)})""")
    for name in ("vega-bundle.js", "irmeans-figures.js")
}


def repository_address(config: Path = ROOT / "_config.yml") -> str:
    """The repository's address as ``_config.yml`` gives it, without its scheme (``github.com/owner/name``).

    It is a placeholder until the project has a public home: :func:`problems` finds any page that names it.
    """
    import yaml

    url = (yaml.safe_load(config.read_text(encoding="utf-8")).get("repository") or {}).get("url", "")
    return re.sub(r"^[a-z]+://", "", url.strip()).rstrip("/")


def problems(site: Path, repository: str | None = None) -> list[str]:
    """Every problem found in the HTML and CSS files under ``site`` (and, for ``repository``, the address
    :func:`repository_address` reads by default, in every text file of it)."""
    found = []
    repository = repository_address() if repository is None else repository
    if repository:
        address = re.compile(rf"(?:https?:)?(?://)?(?:www\.)?{re.escape(repository)}(?![\w.-])", re.IGNORECASE)
        for glob in TEXT_FILES:
            for path in sorted(site.rglob(glob)):
                if address.search(path.read_text(encoding="utf-8", errors="replace")):
                    found.append(f"{path.relative_to(site)}: names the repository's placeholder address {repository}")
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(site)
        for match in FETCHED.finditer(text):
            found.append(f"{name}: loads {next(g for g in match.groups() if g)} from outside the site")
        if page.stat().st_size > MAX_PAGE_BYTES:
            found.append(f"{name}: {page.stat().st_size} bytes, more than {MAX_PAGE_BYTES}")
        if "irmeansDraw(" in text:
            for script_name, pattern in FIGURE_SCRIPTS.items():
                script = pattern.search(text)
                if not script:
                    found.append(f"{name}: has a figure but no {script_name} script")
                elif not (page.parent / script.group(1).split("?")[0]).is_file():
                    found.append(f"{name}: {script.group(1)} is missing from the site")
    for css in sorted(site.rglob("*.css")):
        for match in FETCHED.finditer(css.read_text(encoding="utf-8", errors="replace")):
            found.append(f"{css.relative_to(site)}: loads {next(g for g in match.groups() if g)} from outside the site")
    return found


#: What a course's site (irmeans_course) must not have: a solution, a self-check's answer, the instructor's edition.
SOLUTION_ELEMENT = re.compile(r"""class=["'](?:[^"']*\s)?solution(?:\s[^"']*)?["']""")
ANSWER_DATA = re.compile(r"\bdata-answer=")
INSTRUCTORS_PDF = "irmeans-book-instructor.pdf"
INSTRUCTORS_LINK = re.compile(rf"""href=["'][^"']*{re.escape(INSTRUCTORS_PDF)}""")


#: The student's edition, the one PDF a course's site serves; its first pages say what it holds.
STUDENTS_PDF = "irmeans-book.pdf"
FIRST_PAGES = 3


def course_problems(site: Path) -> list[str]:
    """What a course's site has that it must not: solutions and self-check answers in its pages, a link to the
    instructor's edition or the file itself, a word of it in the student's edition's first pages or its
    description, solutions in the chapters it serves (its pages' ``_sources`` and the chapters of its source
    archive), and a source archive whose ``_config.yml`` would build the book with its answers."""
    import tarfile

    import yaml

    found = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(site)
        if SOLUTION_ELEMENT.search(text):
            found.append(f"{name}: shows a solution")
        if ANSWER_DATA.search(text):
            found.append(f"{name}: holds a self-check's answer")
        if INSTRUCTORS_LINK.search(text):
            found.append(f"{name}: links the instructor's edition")
    if (site / INSTRUCTORS_PDF).exists():
        found.append(f"{INSTRUCTORS_PDF}: the instructor's edition is in the site")
    if (site / STUDENTS_PDF).exists():
        from pypdf import PdfReader

        reader = PdfReader(site / STUDENTS_PDF)
        text = " ".join(page.extract_text() for page in reader.pages[:FIRST_PAGES])
        metadata: Mapping[str, object] = reader.metadata or {}
        text += " " + str(metadata.get("/Subject", ""))
        if "instructor" in text.lower():
            found.append(f"{STUDENTS_PDF}: names the instructor's edition")
    for path in sorted((site / "_sources").rglob("*")) if (site / "_sources").is_dir() else []:
        if path.is_file() and "{solution}" in path.read_text(encoding="utf-8", errors="replace"):
            found.append(f"{path.relative_to(site)}: a chapter served with its solutions")
    for archive in sorted(site.glob("downloads/*.tar.gz")):
        with tarfile.open(archive) as tar:
            for member in tar.getmembers():
                parts = Path(member.name).parts
                if member.isfile() and len(parts) > 1 and parts[1] == "chapters":
                    if b"{solution}" in tar.extractfile(member).read():  # type: ignore[union-attr]  # a file has its data
                        found.append(f"{archive.relative_to(site)}: {member.name} has its solutions")
                if member.isfile() and parts[1:] == ("_config.yml",):
                    config = yaml.safe_load(tar.extractfile(member).read())  # type: ignore[union-attr]  # a file has its data
                    if not (config.get("sphinx") or {}).get("config", {}).get("irmeans_course"):
                        found.append(f"{archive.relative_to(site)}: {member.name} builds the book with its answers")
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", type=Path, default=Path("_build/html"), help="the built site")
    parser.add_argument("--course", action="store_true", help="a course's site: no solutions, answers or instructor's")
    args = parser.parse_args(argv)
    site = args.site
    found = problems(site) + (course_problems(site) if args.course else [])
    for line in found:
        print(line, file=sys.stderr)
    print(f"checked {site}: {len(found)} problem(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
